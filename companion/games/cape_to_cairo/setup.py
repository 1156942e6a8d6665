"""From Cape to Cairo's set-up guide: the rule text's set-up (seed 001, L21-26, L54, L68) for
this player count, each line with the sentence it comes from."""

from __future__ import annotations

from companion.games.base import N_, Msg, Plural, SetupStep
from companion.games.cape_to_cairo.facts import START_MONEY


def setup(options: dict, players: int) -> list[SetupStep]:
    """The set-up of a table of `players`."""
    return [
        SetupStep(
            "deck",
            Msg(N_("Shuffle the 50 terrain cards into a deck on the table.")),
            "L25",
            "地形カードをよく混ぜ、山札にしてテーブルに置きます。",
            rendering=N_("Shuffle the terrain cards well and put them on the table as a deck."),
            rule="deck",
        ),
        SetupStep(
            "colours",
            Msg(
                N_(
                    "Each player takes a locomotive and a freight car of one colour; the "
                    "terrain reference card goes where everyone can see it."
                )
            ),
            "L22",
            "各プレイヤーは同じ色の機関車カードと貨物車カードを受け取ります。"
            "地形説明カードをテーブルの見やすい場所に置きます。",
            rendering=N_(
                "Each player receives a locomotive card and a freight-car card of the same "
                "colour. Put the terrain reference card where it is easy to see."
            ),
            rule="cross-tracks",
        ),
        SetupStep(
            "start-position",
            Msg(N_("Put the locomotives at the start position.")),
            "L23",
            "機関車カードをテーブルのスタート位置に置きます。",
            rendering=N_("Put the locomotive cards at the start position on the table."),
            filled=N_("The start position is shown only in the box's illustration 1."),
        ),
        SetupStep(
            "money",
            Msg(
                N_("Everyone starts with £%(pounds)s: the app keeps the ledger."),
                pounds=START_MONEY,
            ),
            "L26",
            "最初に持っているお金を 100 ポンドとし、収支表の左側に記録します。",
            rendering=N_(
                "The money you start with is 100 pounds; write it on the left of the ledger."
            ),
            rule="money",
        ),
        SetupStep(
            "start",
            Msg(N_("No start player: everyone bids at once, and the highest bidder builds first.")),
            "L68",
            "地形獲得フェイズで最も高い額を入札したプレイヤーは山札からカードを1枚めくり、"
            "山札の近くに置きます。",
            rendering=N_(
                "The player who bid highest in the acquisition phase turns up a card from the "
                "deck and puts it near the deck."
            ),
            rule="bid-order",
        ),
        SetupStep(
            "first-cards",
            Plural(
                "To begin, turn up %(num)s terrain card for the bidding.",
                "To begin, turn up %(num)s terrain cards for the bidding.",
                "num",
                num=players,
            ),
            "L54",
            "プレイヤー数と同じ枚数の地形カードを山札からめくります。",
            rendering=N_("Turn up as many terrain cards from the deck as there are players."),
            rule="acquisition-cards",
        ),
    ]

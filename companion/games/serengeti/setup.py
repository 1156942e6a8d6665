"""Serengeti's and Don's set-up guide: the rule text's set-up (seed 002, ¶17-25, ¶51, ¶114,
¶117) for this rule set and player count, each line with the sentence it comes from."""

from __future__ import annotations

from companion.games.base import N_, Msg, Plural, SetupStep
from companion.games.serengeti.facts import DECK_SIZE, START_CHIPS, TOTAL_CHIPS_ABACUS


def setup(options: dict, players: int) -> list[SetupStep]:
    """The set-up of a table of `players` with this rule set ({"variant": "abacus" or "don"})."""
    variant = options.get("variant", "abacus")
    chips = START_CHIPS.get(variant, START_CHIPS["abacus"])
    steps = [
        SetupStep(
            "deck",
            Plural(
                "Shuffle the %(n)s card into a face-down deck.",
                "Shuffle the %(n)s cards into a face-down deck.",
                "n",
                n=DECK_SIZE,
            ),
            "¶22",
            "カードを良く切り、プレイエリアに裏向きにして山札を作ります。",
            rendering=N_("Shuffle the cards well and make a face-down deck in the play area."),
            rule="deck",
        ),
        SetupStep(
            "chips",
            Plural(
                "Each player takes %(num)s chip and keeps it hidden.",
                "Each player takes %(num)s chips and keeps them hidden.",
                "num",
                num=chips,
            ),
            "¶114" if variant == "don" else "¶23, ¶51",
            "ゲームの準備時に所有チップが 12 枚。また、“銀行” は存在しない。"
            if variant == "don"
            else "各プレイヤーは 10 チップ持ちます。",
            rendering=N_("At set-up each player has 12 chips, and there is no bank.")
            if variant == "don"
            else N_("Each player has 10 chips."),
            rule="hidden-chips",
        ),
    ]
    if variant == "don":
        steps.append(
            SetupStep(
                "pot",
                Msg(N_("No bank: keep a place for the pot, where chips left over go.")),
                "¶117",
                "端数の処理で余ったチップは“ポット”に置く。",
                rendering=N_("Chips left over from rounding go to the pot."),
                rule="don-pot",
                filled=N_(
                    "The rule text does not say how many chips Don's box holds: the chips "
                    "beyond 12 a player stay in the box."
                ),
            )
        )
    else:
        steps.append(
            SetupStep(
                "bank",
                Plural(
                    "The other %(num)s chip goes in the middle as the bank.",
                    "The other %(num)s chips go in the middle as the bank.",
                    "num",
                    num=TOTAL_CHIPS_ABACUS - chips * players,
                ),
                "¶18, ¶24",
                "残りのチップはプレイエリア上に“銀行”を作り、そこへ置きます。",
                rendering=N_("The remaining chips form the bank in the play area."),
                rule="setup",
                filled=N_("The number is the app's arithmetic: 65 chips, 10 for each player."),
            )
        )
    steps.append(
        SetupStep(
            "start",
            Msg(N_("Choose the start player: pick at random here, or the host chooses one.")),
            "¶25",
            "適当な方法でスタートプレイヤーを決めます。",
            rendering=N_("Choose the start player in any way you like."),
            rule="start-player",
        )
    )
    return steps

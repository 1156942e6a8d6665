"""Kahuna's set-up guide: the rule text's set-up (seed 003, L17-29), each line with the sentence
it comes from; the piece counts are GAME_FACTS' (the text gives none)."""

from __future__ import annotations

from companion.games.base import N_, Msg, Plural, Seat, SetupStep
from companion.games.kahuna.facts import (
    BRIDGES_PER_COLOUR,
    DECK_SIZE,
    DISPLAY_SIZE,
    START_HAND,
    STONES_PER_COLOUR,
)


def setup(options: dict, players: int) -> list[SetupStep]:
    """The set-up of a two-player table."""
    return [
        SetupStep(
            "board",
            Msg(N_("Spread the board on the table: 12 islands, the dotted lines are the sites.")),
            "L17",
            "テーブルにゲーム盤を広げます。",
            rendering=N_("Spread the game board on the table."),
            rule="board",
        ),
        SetupStep(
            "colours",
            Msg(
                N_("%(white)s plays White and begins; %(black)s plays Black."),
                white=Seat(0),
                black=Seat(1),
            ),
            "L19",
            "両プレイヤーは相談して担当の色を白黒どちらかを決めます。",
            rendering=N_("The two players agree who plays white and who plays black."),
            rule="first-player",
            filled=N_("Who begins is our reading: the rule text only says the players alternate."),
        ),
        SetupStep(
            "pieces",
            Msg(
                N_(
                    "Each takes the bridges (%(bridges)s) and the Kahuna stones (%(stones)s) "
                    "of their colour."
                ),
                bridges=BRIDGES_PER_COLOUR,
                stones=STONES_PER_COLOUR,
            ),
            "L21",
            "色を決めたら自分の担当する色の橋とカフナストーンを手持ちとしてすべて受け取ってください。",
            rendering=N_("Each player takes all the bridges and Kahuna stones of their colour."),
            rule="bridge-supply",
            filled=N_("The counts come from GAME_FACTS: the rule text gives none."),
        ),
        SetupStep(
            "hands",
            Msg(
                N_("Shuffle the cards (%(deck)s) and deal %(hand)s face down to each player."),
                deck=DECK_SIZE,
                hand=START_HAND,
            ),
            "L23",
            "24枚あるカードをシャッフルし、初期の手札として伏せて3枚ずつ配ります。",
            rendering=N_("Shuffle the 24 cards and deal 3 face down to each player."),
            rule="card-count",
        ),
        SetupStep(
            "face-up",
            Plural(
                "The rest is the deck beside the board: turn its top %(n)s card face up and "
                "enter it here.",
                "The rest is the deck beside the board: turn its top %(n)s cards face up and "
                "enter them here.",
                "n",
                n=DISPLAY_SIZE,
            ),
            "L29",
            "残りのカードは山札としてゲーム盤の脇に置き、その上から3枚山札の横に並べ公開しておきます。",
            rendering=N_(
                "The other cards are the deck beside the board; lay its top 3 cards face up "
                "beside it."
            ),
            rule="reveal",
        ),
    ]

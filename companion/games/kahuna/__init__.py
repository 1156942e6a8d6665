"""Kahuna (Günter Cornett): two players, twelve islands, bridges, control and three scorings."""

from companion.games.base import N_, GameInfo

ENTRIES = (
    GameInfo(
        "kahuna",
        N_("Kahuna"),
        __name__,
        2,
        2,
        bgg_id=394,  # https://boardgamegeek.com/boardgame/394/kahuna
        bgg_name="Kahuna",
    ),
)

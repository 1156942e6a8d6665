"""From Cape to Cairo: the facts of the game (numbers from the rule text and GAME_FACTS.md) and
the small validators every value from outside goes through."""

from __future__ import annotations

from typing import Any

from companion.games.base import N_, Msg, Plural, RuleError, is_int

TRACKS_NEEDED = {"river": 10, "mountain": 9, "desert": 8, "village": 7, "savanna": 6}
TERRAIN_NAMES = {
    "river": N_("river"),
    "mountain": N_("mountain"),
    "desert": N_("desert"),
    "village": N_("village"),
    "savanna": N_("savanna"),
}
MIN_PLAYERS, MAX_PLAYERS = 2, 4
START_MONEY = 100
TRACK_PRICE = 10  # pounds for one bought track
BONUS_MAX = 5  # bonus tracks a player may hold
MARKS_MIN, MARKS_MAX = 0, 3  # track symbols on one terrain card
INCOME_MIN, INCOME_MAX = 1, 10  # pounds printed on one terrain card (also the number of a draw)
TERRAINS_TO_WIN = 8
TERRAINS = list(TRACKS_NEEDED)  # river first: the order of the terrain card

# ---------------------------------------------------------------------------------------------
# Validators: everything that comes from outside goes through these


def int_in(
    value: Any, low: int, high: int | None, rule: str, message: str | Msg, **params: Any
) -> int:
    """value as an int within [low, high] (high None: no upper bound), or a RuleError.

    message is a msgid (given low, high and params), or a message already built, such as a
    Plural counted by the bound it names ("You hold %(high)s pounds")."""
    if not is_int(value) or value < low or (high is not None and value > high):
        if isinstance(message, Msg):
            raise RuleError.of(rule, message)
        raise RuleError(rule, message, low=low, high=high if high is not None else "", **params)
    return value


def check_terrain(value: Any) -> str:
    """value as one of the five terrains (a TRACKS_NEEDED key), or a RuleError."""
    if not isinstance(value, str) or value not in TRACKS_NEEDED:
        raise RuleError(
            "card-values",
            N_("The terrain must be one of: river, mountain, desert, village, savanna."),
        )
    return value


def terrain_name(terrain: str) -> Msg:
    """The terrain as a translatable message parameter."""
    return Msg(TERRAIN_NAMES[terrain])


def pounds(n: int) -> Msg:
    """An amount of money as a message parameter: "£5" in English, and a plural message so that
    every language writes money one way (Russian «5 фунтов», Japanese 「5ポンド」) wherever a
    sentence holds more than one amount or a count of something else."""
    return Plural("£%(num)s", "£%(num)s", "num", num=n)

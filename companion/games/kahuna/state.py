"""Kahuna's game state: new() and the questions asked of a state (islands held, cards accounted
for, whether anything can still be drawn, whether the options may change, the points so far).

A state is JSON-shaped; its keys are described in new().
"""

from __future__ import annotations

from companion.games.base import N_, Msg, RuleError
from companion.games.kahuna.bridges import bridges_from_json, islands_held
from companion.games.kahuna.facts import (
    COLOURS,
    DECK_SIZE,
    DISPLAY_SIZE,
    START_HAND,
    short,
)


def new(options: dict, players: int) -> dict:
    """The state of a new game: 3 cards in each hand, 3 face-up cards still to be entered."""
    if players != 2:
        raise RuleError(
            "players",
            N_("Kahuna is played by exactly 2 players, not %(count)s."),
            count=short(players),
        )
    options = options or {}
    arabana = options.get("arabana", False)
    if not isinstance(arabana, bool):
        raise RuleError("action", N_("The Arabana option is on or off."))
    return {
        "players": 2,
        "options": {"arabana": arabana},
        "bridges": {},
        "round": 1,
        "turn": 0,  # White starts (CLARIFICATIONS["first-player"])
        "deck": DECK_SIZE - 2 * START_HAND,  # each reveal moves one of these face up
        "display": [],
        "pending_reveals": DISPLAY_SIZE,
        "hands": [START_HAND, START_HAND],
        "known": [[], []],  # cards known to be in each hand (taken from the face-up row)
        "discard_up": [],  # played cards since the last reshuffle
        "discard_down": 0,  # cards discarded face down since the last reshuffle
        "played": [],  # cards played this turn
        "discarded": 0,  # cards discarded face down this turn
        "must_draw": False,
        "final_turns": None,  # round 3: turns left after the last card is drawn
        "rounds": [],  # [{"round", "islands": [w, b], "points": [w, b]}]
        "over": False,
        "plays": 0,
        "last_changes": None,
    }


def held_by_seat(state: dict) -> list[int]:
    """How many islands each seat holds now: [white, black]."""
    held = islands_held(bridges_from_json(state["bridges"]))
    return [held[c] for c in COLOURS]


def accounted(state: dict, island: str) -> int:
    """Copies of an island's card known to be outside the deck and the unknown hand cards."""
    return (
        state["display"].count(island)
        + state["discard_up"].count(island)
        + state["played"].count(island)
        + state["known"][0].count(island)
        + state["known"][1].count(island)
    )


def drawable(state: dict) -> bool:
    """Is there any card left to draw this round?"""
    return state["final_turns"] is None and (state["deck"] > 0 or bool(state["display"]))


def options_open(state: dict) -> bool:
    """May the table options still change? Only before anything but face-up cards was entered."""
    return (
        state["round"] == 1
        and state["turn"] == 0
        and state["plays"] == 0
        and state["hands"] == [START_HAND, START_HAND]
        and not state["over"]
    )


def total_points(state: dict) -> list[int]:
    """The points scored so far: [white, black]."""
    return [sum(r["points"][s] for r in state["rounds"]) for s in (0, 1)]


def is_over(state: dict) -> bool:
    """Has round 3 been scored?"""
    return state["over"]


def over_message(state: dict) -> Msg:
    """Why nothing more can be entered once the game is over."""
    return Msg(N_("The game is over: nothing more can be entered."))

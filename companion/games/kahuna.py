"""Kahuna: the pure rules.

Only the table set-up is here so far; the game's own issue fills in the rules.
"""

from __future__ import annotations

from companion.games.base import N_, RuleError

SEAT_LABELS = (N_("White"), N_("Black"))


def new(options: dict, players: int) -> dict:
    """The state of a new game for this many players."""
    return {"players": players, "options": dict(options)}


def apply(state: dict, action: dict) -> dict:
    """Refuse every action: the rules are not in the app yet."""
    raise RuleError("not-yet", N_("The app does not know this game's rules yet."))


def view(state: dict, seat: int | None, reveal: bool = False) -> dict:
    """What a seat (or the table, for None) may see."""
    return {"players": state["players"]}


def result(state: dict) -> dict | None:
    """The final result, or None while the game goes on."""
    return None


def describe(before: dict, action: dict, after: dict) -> list:
    """History lines for an accepted action."""
    return []

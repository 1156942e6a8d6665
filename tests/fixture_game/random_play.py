"""Random Pebbles games: mostly legal entries, now and then one the rules refuse."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tests.fixture_game import rules

if TYPE_CHECKING:  # the random source is always an argument
    import random


def next_action(state: dict, rng: random.Random) -> dict | None:
    """An entry for this position (None once the game is over)."""
    if rules.result(state) is not None:
        return None
    seat = state["turn"]
    roll = rng.random()
    if roll < 0.05:  # a careless phone
        return {
            "type": rng.choice(["take", "secret", "jump"]),
            "seat": rng.randrange(state["players"]),
            "n": 5,
        }
    if not state["started"] and roll < 0.4:
        writer = rng.randrange(state["players"])
        return {"type": "secret", "seat": writer, "host": False, "number": rng.randint(0, 9)}
    if not state["started"] and roll < 0.45:
        return {"type": "pile", "seat": None, "host": True, "size": rng.randint(5, 15)}
    if state["taken"][seat] and roll < 0.5:
        return {"type": "drop", "seat": None, "host": False}
    n = rng.randint(1, min(rules.TAKE_MAX, state["pile"]))
    return {"type": "take", "seat": seat, "host": False, "n": n}

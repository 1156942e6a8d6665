"""From Cape to Cairo: random actions for random games (the contract test and the property tests).

legal_action() picks an action the rules accept in any state before the end; nonsense_action()
a random, mostly illegal one; next_action() mixes the two, as the contract test wants.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.games.cape_to_cairo import rules as g

if TYPE_CHECKING:  # the random source is always an argument: the rules stay pure
    import random

NONSENSE_SHARE = 0.05  # of next_action's actions; the contract test allows fewer than half
TYPES = ["card", "bid", "draw", "take", "turn_up", "cross", "pass"]
FIELDS = ("terrain", "marks", "income", "amount", "value", "card", "bonus")
ODD_VALUES = [-1, 0, 1, 3, 4, 10, 11, 200, "3", None, 2.0, "river", "lake", [1]]


def legal_action(s: dict, rnd: random.Random) -> dict:
    """An action the rules accept now (the game must not be over): cards and draws at random,
    bids of all sizes, and a crossing mostly when it is free, sometimes when it costs money."""
    phase = s["phase"]
    if phase == "cards":
        return {
            "type": "card",
            "seat": None,
            "host": False,
            "terrain": rnd.choice(sorted(g.TRACKS_NEEDED)),
            "marks": rnd.randint(0, 3),
            "income": rnd.randint(1, 10),
        }
    if phase == "bidding":
        seat = rnd.choice([i for i, b in enumerate(s["bids"]) if b is None])
        money = s["money"][seat]
        amount = rnd.choice([0, min(5, money), min(10, money), money, rnd.randint(0, money)])
        return {"type": "bid", "seat": seat, "host": False, "amount": amount}
    if phase == "draw":
        seat = rnd.choice(s["must_draw"])
        return {"type": "draw", "seat": seat, "host": False, "value": rnd.randint(1, 10)}
    if phase == "taking":
        seat = s["order"][s["take_index"]]
        free = [c["id"] for c in g.view(s, seat)["pool"] if c["taken_by"] is None]
        return {"type": "take", "seat": seat, "host": False, "card": rnd.choice(free)}
    assert phase == "building", phase
    if s["step"] == "turn_up":
        return {"type": "turn_up", "seat": None, "host": False, "marks": rnd.randint(0, 3)}
    seat = s["active"]
    choices = [c for c in g.view(s, seat)["my_choices"] if c["affordable"]]
    free_crossing = any(c["pounds"] == 0 for c in choices)
    if choices and rnd.random() < (0.9 if free_crossing else 0.5):
        choice = rnd.choice(choices)
        return {"type": "cross", "seat": seat, "host": False, "bonus": choice["bonus"]}
    return {"type": "pass", "seat": seat, "host": False}


def nonsense_action(rnd: random.Random) -> dict:
    """A random, mostly illegal action: unknown types, seats and values of every odd kind."""
    action: dict[str, Any] = {
        "type": rnd.choice([*TYPES, "x"]),
        "seat": rnd.choice([None, -1, 0, 1, 2, 3, 4, "1", True]),
        "host": rnd.choice([True, False]),
    }
    for field in FIELDS:
        if rnd.random() < 0.5:
            action[field] = rnd.choice(ODD_VALUES)
    return action


def next_action(state: dict, rng: random.Random) -> dict | None:
    """An action for the current state (None once the game is over): now and then nonsense,
    otherwise a legal one."""
    if state["phase"] == "over":
        return None
    if rng.random() < NONSENSE_SHARE:
        return nonsense_action(rng)
    return legal_action(state, rng)

"""Kahuna: whole random games played with real (simulated) cards through apply().

A simulated table shuffles the 24 cards, deals, turns cards face up and lets both players pick
random moves that their real hands allow. The app must accept every such move unless a rule it
enforces on the board forbids it (never because of its card counting), and after every step:
bridges per colour <= 25, stones (islands held) <= 10, control equals the strict-majority rule,
the card counts match the table, and what the app believes is in a hand really is there.
The simulated table (Table) and the contract test's generator (next_action) live in legal.py.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.base import RuleError
from companion.games.kahuna import rules as k
from tests.helpers import examples
from tests.kahuna.physical_table import STRAY, Table, next_action


@settings(max_examples=examples(5, 30), deadline=None)  # whole games: 30 in `make test-deep`
@given(st.integers(0, 2**32 - 1), st.booleans())
def test_random_legal_games_keep_every_invariant(seed, arabana):
    table = Table(random.Random(seed), arabana)
    table.play()
    final = k.result(table.state)
    assert final is not None
    assert [r["round"] for r in final["rounds"]] == [1, 2, 3]
    assert final["points"] == [sum(r["points"][s] for r in final["rounds"]) for s in (0, 1)]
    round3 = final["rounds"][2]
    assert round3["points"] == [
        max(0, round3["islands"][0] - round3["islands"][1]),
        max(0, round3["islands"][1] - round3["islands"][0]),
    ]
    board = k.bridges_from_json(table.state["bridges"])
    assert final["islands"] == [k.islands_held(board)[c] for c in k.COLOURS]
    assert (final["winner"], final["tie_break"]) == k.decide_winner(
        final["points"], round3["points"], final["bridges"]
    )
    json.dumps(table.state)
    json.dumps(k.view(table.state, 0))
    json.dumps(k.view(table.state, None))


@pytest.mark.parametrize("seed", range(3))
def test_the_generator_plays_whole_games_and_its_plays_are_accepted(seed):
    """next_action (the contract test's generator) reaches the end of a game; its refused
    entries are only the stray ones it sends on purpose, now and then."""
    rng = random.Random(seed)
    state = k.new({}, 2)
    accepted = refused = 0
    while not state["over"]:
        assert accepted + refused < 5000, "the game does not end"
        action = next_action(state, rng)
        try:
            state = k.apply(state, action)
            accepted += 1
        except RuleError:
            refused += 1
    assert next_action(state, rng) is None
    assert [r["round"] for r in state["rounds"]] == [1, 2, 3]
    assert refused < accepted * 2 * STRAY

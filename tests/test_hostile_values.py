"""Every game's pure rules answer hostile values with a RuleError, never another exception: the
contract says a refusal is a RuleError (a readable message naming a rule), and the web layer
shows nothing else to a person. Checked for every entry of the registry (no game is named here)
at states its own random play reaches (the start, the middle of a game, near its end): each
field of each action the generator makes, and new()'s options and player count, replaced by
huge and negative integers (str() refuses an int of over 4,300 digits), floats, NaN, strings of
the wrong kind, None, booleans and nested structures.

A ValueError from formatting a giant number into a refusal, a TypeError from comparing a list with
an int, a KeyError from a missing field: each would be a 500 for a phone that sent it.
"""

from __future__ import annotations

import json
import random

import pytest

from companion.games import GAMES
from companion.games.base import RuleError, copy_state, short

ENTRIES = sorted(GAMES)
HOSTILE = [
    10**5000,
    -(10**5000),
    10**20,
    -1,
    0.5,
    float("nan"),
    float("inf"),
    "NaN",
    "",
    "١٢",
    "x" * 5000,
    None,
    True,
    [],
    [[1, 2]],
    {},
    {"a": {"b": []}},
]


def states(key: str, seed: int) -> list[dict]:
    """The start, and states along a random game of this entry (JSON, as the store keeps them)."""
    info = GAMES[key]
    rng = random.Random(f"hostile-{key}-{seed}")
    players = rng.randint(info.min_players, info.max_players)
    state = info.rules.new(dict(info.options), players)
    found = [state]
    generator = info.random_play
    for step in range(400):
        if info.rules.result(state) is not None:
            break
        action = generator.next_action(state, rng)
        try:
            state = json.loads(json.dumps(info.rules.apply(state, action)))
        except RuleError:
            continue
        if step in (5, 40, 150, 399):
            found.append(state)
    found.append(state)
    return found


def only_rule_errors(module, state: dict, action: dict) -> None:
    try:
        module.apply(copy_state(state), action)
    except RuleError as error:
        assert error.rule and str(error), action
    except Exception as error:  # noqa: BLE001 - the point: anything else is the bug
        raise AssertionError(
            f"{type(error).__name__}: {error!r:.200} for {action!r:.300}"
        ) from error


@pytest.mark.parametrize("key", ENTRIES)
def test_every_field_of_every_action_takes_hostile_values_as_refusals(key):
    info = GAMES[key]
    rng = random.Random(key)
    for state in states(key, 0):
        for _ in range(6):
            action = info.random_play.next_action(state, rng)
            if action is None:
                continue
            for field in [name for name in action if name != "type"] + ["missing-field"]:
                for value in HOSTILE:
                    only_rule_errors(info.rules, state, {**action, field: value})
            for field in [name for name in action if name not in ("type", "seat")]:
                trimmed = {k: v for k, v in action.items() if k != field}
                only_rule_errors(info.rules, state, trimmed)
            for value in HOSTILE:
                only_rule_errors(info.rules, state, {**action, "type": value})


@pytest.mark.parametrize("key", ENTRIES)
def test_a_new_game_takes_hostile_options_and_player_counts_as_refusals(key):
    info = GAMES[key]
    for players in HOSTILE + [0, 1, info.max_players + 1, 10**6]:
        try:
            info.rules.new(dict(info.options), players)
        except RuleError:
            pass
        except Exception as error:  # noqa: BLE001
            raise AssertionError(f"new(players={short(players)}): {error!r:.200}") from error
    for name in list(info.options) + ["unknown"]:
        for value in HOSTILE:
            try:
                info.rules.new({**info.options, name: value}, info.min_players)
            except RuleError:
                pass
            except Exception as error:  # noqa: BLE001
                raise AssertionError(f"new({name}={short(value)}): {error!r:.200}") from error

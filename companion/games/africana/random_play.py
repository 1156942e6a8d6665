"""Random Africana games: the generator the contract test plays (next_action), and the two it
is made of, which the property tests use on their own:

- legal_action: an action the rules accept in this position, as a careful table would enter it
  (choose the turn's action, pay for what is affordable, join and complete expeditions, complete
  adventures, end the turn with the discards the limit needs; once play is over, each seat hands
  in the sheet its phone suggests);
- random_action: a plausible action, legal or not (any type, any seat, numbers a little out of
  range), to check that refusals are clean.

Every choice comes from the random.Random given, so a seed (or hypothesis, through
st.randoms()) decides the whole game.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from companion.games.africana import rules as af

if TYPE_CHECKING:  # the random source is always an argument: the rules stay pure
    import random

NOISE = 0.1  # share of next_action's actions drawn from random_action (legal or not)
RENAME = 0.01  # chance that the table names the artifact kinds, while it has not yet
GIFT = 0.03  # chance of a host correction that gives the current seat some coins

ACTION_TYPES = [
    "choose_action",
    "buy_adventure",
    "turn_pages",
    "change_colour",
    "join_expedition",
    "complete_expedition",
    "complete_artifact",
    "complete_guide",
    "end_turn",
    "end_turn",
    "end_turn",
    "submit_sheet",
    "correct_coins",
    "rename_kinds",
]
KIND_NAMES = ["Mask", "Idol", "Vase", "Drum", "Bow"]


def sheet(**changes) -> dict:
    """A scoring sheet with nothing on it (coins as their value in silver), changed by `changes`."""
    return {
        "expedition_points": [],
        "artifact_cards": [],
        "guide_adventures": 0,
        "coins": 0,
        "movement_cards": 0,
        "unfinished_artifacts": 0,
        **changes,
    }


def next_action(state: dict, rng: random.Random) -> dict | None:
    """An action for this position: mostly legal, now and then anything (see NOISE)."""
    if af.result(state) is not None:
        return None
    if rng.random() < NOISE:
        return random_action(state, rng)
    return legal_action(state, rng)


def random_action(state: dict, rng: random.Random) -> dict:
    """A plausible action, legal or not, for the current position."""
    seat = state["turn"]["seat"] if rng.random() < 0.5 else rng.randint(0, state["players"] - 1)
    kind = rng.choice(ACTION_TYPES)

    def small() -> int:
        return rng.randint(-1, 6)

    makers: dict[str, Callable[[], dict[str, Any]]] = {
        "choose_action": lambda: {"action": rng.choice(["draw", "buy", "move"])},
        "buy_adventure": lambda: {"cards": small()},
        "turn_pages": lambda: {"pages": small()},
        "change_colour": lambda: {"cards": small()},
        "join_expedition": lambda: {"slot": rng.randint(0, 6), "bonus_coins": small()},
        "complete_expedition": lambda: {
            "slot": rng.randint(0, 6),
            "coins": small(),
            "points": small(),
        },
        "complete_artifact": lambda: {
            "kind": rng.choice("ABCDEX"),
            "coins": small(),
            "points": small(),
        },
        "complete_guide": lambda: {},
        "end_turn": lambda: {"discarded_adventures": rng.randint(-1, 2)},
        "submit_sheet": lambda: sheet(coins=small(), artifact_cards=[["A", 1]] * rng.randint(0, 5)),
        "correct_coins": lambda: {"amount": rng.randint(-5, 20)},
        "rename_kinds": lambda: {"names": rng.choice([list("VWXYZ"), list("VWXYV")])},
    }
    fields = makers[kind]()
    host = kind == "correct_coins" or rng.random() < 0.5
    return dict(fields, type=kind, seat=seat, host=host)


def legal_action(state: dict, rng: random.Random) -> dict:
    """An action the rules accept in this position (one entry of the current turn, its end, or
    once play is over a seat's scoring sheet)."""
    if state["phase"] != "playing":
        missing = [i for i, record in enumerate(state["seats"]) if record["sheet"] is None]
        seat = rng.choice(missing) if missing else rng.randrange(state["players"])
        return dict(sheet_for(state, seat, rng), type="submit_sheet", seat=seat, host=False)
    if not state["kinds_renamed"] and rng.random() < RENAME:
        return {"type": "rename_kinds", "seat": None, "host": False, "names": list(KIND_NAMES)}
    seat = state["turn"]["seat"]
    if rng.random() < GIFT:
        amount = rng.randint(1, 10)
        return {"type": "correct_coins", "seat": seat, "host": True, "amount": amount}
    chosen = state["turn"]["action"]
    if chosen is None:
        choice = rng.choice(["draw", "buy", "move", "move"])
        return {"type": "choose_action", "seat": seat, "host": False, "action": choice}
    entries = []  # a drawing turn has nothing to enter: the cards are drawn at the table
    if chosen == "buy":
        entries = _buy_entries(state, seat, rng)
    elif chosen == "move":
        entries = _move_entries(state, seat, rng)
    if entries and rng.random() < 0.75:
        return dict(rng.choice(entries), seat=seat, host=False)
    return end_turn(state, seat)


def end_turn(state: dict, seat: int) -> dict:
    """The end of the seat's turn, discarding what the adventure limit needs."""
    extra = max(0, state["seats"][seat]["adventures_open"] - af.OPEN_ADVENTURE_LIMIT)
    return {"type": "end_turn", "seat": seat, "host": False, "discarded_adventures": extra}


def _buy_entries(state: dict, seat: int, rng: random.Random) -> list[dict]:
    """What a buying turn may still enter: the free page, and the cards the seat can pay for."""
    coins = state["seats"][seat]["coins"]
    entries = []
    if state["turn"]["pages"] == 0:
        entries.append({"type": "turn_pages", "pages": 1})
    affordable = min(coins // af.ADVENTURE_PRICE, af.ADVENTURE_CARDS - state["bought"])
    if affordable:
        entries.append({"type": "buy_adventure", "cards": rng.randint(1, min(affordable, 2))})
    return entries


def _move_entries(state: dict, seat: int, rng: random.Random) -> list[dict]:
    """What a moving turn may still enter: joins, completions and colour changes it can pay."""
    record = state["seats"][seat]
    entries = []
    for slot, card in enumerate(state["row"], start=1):
        if card is None:
            continue
        if seat in card["joined"]:
            entries += [
                {
                    "type": "complete_expedition",
                    "slot": slot,
                    "coins": rng.randint(0, 8),
                    "points": rng.randint(0, 9),
                }
            ] * 2  # completing is what ends the game: make it likely
        elif af.markers_used(state, seat) < af.MARKERS:
            entries.append(
                {"type": "join_expedition", "slot": slot, "bonus_coins": rng.randint(0, 3)}
            )
    if record["adventures_open"]:
        kinds = [key for key, done in state["completed_kinds"].items() if done < af.ARTIFACT_COPIES]
        if kinds:
            key = rng.choice(kinds)
            name = state["kind_names"][af.KIND_KEYS.index(key)]
            entries.append(
                {
                    "type": "complete_artifact",
                    "kind": rng.choice([key, name]),
                    "coins": rng.randint(0, 4),
                    "points": rng.randint(0, 5),
                }
            )
        if state["completed_guides"] < af.GUIDE_ADVENTURES:
            entries.append({"type": "complete_guide"})
    if record["coins"] >= af.COLOUR_CHANGE_PRICE:
        entries.append({"type": "change_colour", "cards": 1})
    return entries


def sheet_for(state: dict, seat: int, rng: random.Random) -> dict:
    """The scoring sheet the seat's phone suggests, with the unfinished artifact adventures
    counted by the player where the app cannot tell (any number up to what may be left)."""
    suggestion = af.view(state, seat)["seats"][seat]["suggested_sheet"]
    if suggestion["unfinished_artifacts"] is None:
        held = min(state["seats"][seat]["adventures_open"], af.OPEN_ADVENTURE_LIMIT)
        suggestion["unfinished_artifacts"] = rng.randint(0, held)
    return suggestion

"""The state of a game at the table: its shape when the game starts (new), and what can be
read off it by the moves, the views and the web panel.

A state is JSON-shaped: per seat its coins, a ledger of named entries, unfinished adventures,
a tally of completed cards (private) and its scoring sheet; the turn (seat, number, the action
chosen, pages turned, entries made); the expedition row with the markers on it and the deck
left; the counts of bought and completed adventures; the names of the artifact kinds; the open
points the table reads the other way ("readings": the starting coins as gold).
"""

from __future__ import annotations

from typing import Any

from companion.games.africana.facts import (
    ARTIFACT_CARDS,
    GUIDE_ADVENTURES,
    KIND_KEYS,
    OPEN_ADVENTURE_LIMIT,
    ROW_SPACES,
    STARTING_COINS,
    SWITCHABLE_READINGS,
    setup_facts,
    starting_coins,
)
from companion.games.africana.phrases import listing
from companion.games.base import N_, RuleError, reads_other_way, table_readings


def new(options: dict, players: int) -> dict:
    """The state of a new game: companies dealt, starting coins paid (as silver coins, or as
    gold coins when the table reads them so), the row dealt."""
    facts = setup_facts(players)
    readings = table_readings(options or {}, SWITCHABLE_READINGS, "set-up")
    seats = []
    for seat in range(players):
        coins = starting_coins(seat, STARTING_COINS in readings)
        seats.append(
            {
                "coins": coins,
                "ledger": [{"what": "start", "amount": coins, "balance": coins, "turn": 0}],
                "adventures_open": 0,
                "tally": {"expeditions": [], "artifacts": [], "guides": 0},
                "sheet": None,
            }
        )
    return {
        "game": "africana",
        "players": players,
        "options": dict(options or {}),
        # the open points this table reads the other way (tables.options: "readings")
        "readings": readings,
        "phase": "playing",
        "turn": {"seat": 0, "number": 1, "action": None, "pages": 0, "entries": 0},
        "row": [{"card": n + 1, "joined": []} for n in range(ROW_SPACES)],
        "next_card": ROW_SPACES + 1,
        "deck": facts["expedition_deck"] - ROW_SPACES,
        "last_round": False,
        "ended_by": None,
        "seats": seats,
        "bought": 0,
        "completed_kinds": {key: 0 for key in KIND_KEYS},
        "completed_guides": 0,
        "kind_names": list(KIND_KEYS),
        "kinds_renamed": False,
        "last_end": None,
    }


def starts_in_gold(state: dict) -> bool:
    """Whether this table reads the starting coins as gold coins (a state stored before table
    readings existed reads ours: silver)."""
    return reads_other_way(state, STARTING_COINS)


def kind_key(state: dict, value: Any) -> str:
    """The kind key for a key ("A".."E") or a current kind name."""
    if isinstance(value, str):
        text = value.strip()
        if text in KIND_KEYS:
            return text
        if text in state["kind_names"]:
            return KIND_KEYS[state["kind_names"].index(text)]
    raise RuleError(
        "artifact-limits",
        N_("Choose one of the five artifact kinds: %(kinds)s."),
        kinds=listing(state["kind_names"]),
    )


def kind_label(state: dict, key: str) -> str:
    """The current name of the kind with this key (its letter until the table renames it)."""
    return state["kind_names"][KIND_KEYS.index(key)]


def markers_used(state: dict, seat: int) -> int:
    """Company markers this seat has on expeditions in the row."""
    return sum(1 for card in state["row"] if card and seat in card["joined"])


def known_unfinished_artifacts(state: dict, seat: int) -> int | None:
    """How many of this seat's unfinished adventures are artifact adventures, when the entries
    settle it; None when they do not.

    A purchase does not say whether the card is a guide or an artifact adventure, so only these
    cases are certain: no unfinished adventure; every guide adventure already completed (all are
    artifacts); every artifact adventure already completed (all are guides). Never more than 3,
    the most that stay at the end of a turn.
    """
    held = state["seats"][seat]["adventures_open"]
    if held == 0 or sum(state["completed_kinds"].values()) >= ARTIFACT_CARDS:
        return 0
    if state["completed_guides"] >= GUIDE_ADVENTURES:
        return min(held, OPEN_ADVENTURE_LIMIT)
    return None

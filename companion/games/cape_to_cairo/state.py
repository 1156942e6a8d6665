"""From Cape to Cairo: the game's state (what new() builds, every key explained) and the
questions the moves, views and history lines ask of it.

The state is JSON-shaped (dicts, lists, str, int, None): the store keeps it as it is.
"""

from __future__ import annotations

from companion.games.base import N_, RuleError
from companion.games.cape_to_cairo.facts import MAX_PLAYERS, MIN_PLAYERS, START_MONEY, int_in


def new(options: dict, players: int) -> dict:
    """The state of a new game: 100 pounds each, no cards, waiting for the first acquisition
    cards."""
    if not isinstance(options, dict):
        raise RuleError("action", N_("The game options must be a set of named values."))
    int_in(
        players,
        MIN_PLAYERS,
        MAX_PLAYERS,
        "players",
        N_("Players for From Cape to Cairo: %(low)s to %(high)s."),
    )
    return {
        "players": players,
        "options": dict(options),
        "phase": "cards",  # cards -> bidding -> draw? -> taking -> building -> cards ... -> over
        "round": 1,  # the number of the acquisition phase
        "money": [START_MONEY] * players,
        "bonus": [0] * players,
        "rows": [[] for _ in range(players)],  # every card taken, in row order
        "crossed": [0] * players,  # rows[s][:crossed[s]] are crossed (face down)
        "pool": [],  # the acquisition cards: terrain, marks, income, taken_by
        "bids": [None] * players,  # SEALED: never shown by view() while bidding
        "reveal": None,  # the latest revealed bids: round, bids, money_before, draws, order
        "must_draw": [],
        "order": None,  # the settled bid order of this phase
        "take_index": 0,  # position in order of the next player to take a card
        "lead": None,  # the highest bidder, who starts building
        "first_lead": None,  # the lead of round 1: the seat that started the game
        "active": None,
        "step": None,  # building: "turn_up" (waiting for the card) or "decide"
        "turned": [],  # symbols of the cards turned up since the last crossing
        "winner": None,
        "win": None,
        # the crossing that ended the last building phase (seat, terrain, round, symbols, bonus,
        # bought, pounds, income): the next acquisition's panel shows it to the crosser and the
        # table; a state stored before it existed has no such key (read with .get)
        "last_cross": None,
    }


def marks_for(state: dict, seat: int) -> int:
    """The track symbols that count for `seat` crossing now: the turned-up pile plus the
    symbols of every card still in front of their locomotive (the next one included)."""
    row = state["rows"][seat][state["crossed"][seat] :]
    return sum(state["turned"]) + sum(card["marks"] for card in row)


def next_terrain(state: dict, seat: int) -> str | None:
    """The terrain `seat` crosses next, or None when their row is empty."""
    crossed, row = state["crossed"][seat], state["rows"][seat]
    return row[crossed]["terrain"] if crossed < len(row) else None


def keyed(state: dict) -> tuple[dict, dict, dict]:
    """The latest revealed bids, the money held before them and the draws, keyed by seat
    number as a string: the arguments of the bid_order functions."""
    rev = state["reveal"]
    n = state["players"]
    bids = {str(s): rev["bids"][s] for s in range(n)}
    money = {str(s): rev["money_before"][s] for s in range(n)}
    draws = {str(s): rev["draws"][s] for s in range(n) if rev["draws"][s]}
    return bids, money, draws

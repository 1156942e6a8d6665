"""Serengeti / Don: the state of a new game, and what can be read off a state without changing
it (whose turn, who is still in the auction, the cards seen so far, what the game waits for).

The state is JSON-shaped: {"variant", "players", "penalty_on", "round", "start", "first_start"
(who started round 1), "phase", "chips" (per seat), "bank" (Abacus) / "pot" (Don), "cards" (per
seat), "out", "lot", "auction" (or None), "sold_this_round", "penalties", "last_payout", "events"
(of the latest action)}.
"""

from __future__ import annotations

from collections.abc import Mapping

from companion.games.base import N_, Msg, RuleError, Seat, reads_other_way, table_readings
from companion.games.serengeti.facts import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    PASS_BONUS,
    PENALTY_RULES,
    START_CHIPS,
    SWITCHABLE_READINGS,
    TOTAL_CHIPS_ABACUS,
    VARIANTS,
    lot_size,
)
from companion.games.serengeti.fields import is_int, short


def new(options: dict, players: int) -> dict:
    """A new game: Abacus 10 chips each and a bank of 65 - 10 x players; Don 12 each, no bank."""
    if options is not None and not isinstance(options, Mapping):
        raise RuleError("options", N_("The table options are missing."))
    options = dict(options or {})
    variant = options.get("variant", "abacus")
    if variant not in VARIANTS:
        raise RuleError(
            "options",
            N_("Unknown rule set %(variant)s: choose abacus or don."),
            variant=short(variant),
        )
    if not is_int(players) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise RuleError(
            "players",
            N_("Serengeti is for 3 to 5 players, not %(players)s."),
            players=short(players),
        )
    start = options.get("start", 0)
    if not is_int(start) or not 0 <= start < players:
        raise RuleError(
            "options", N_("The start player must be a seat from 1 to %(players)s."), players=players
        )
    penalty = options.get("penalty", True)
    if not isinstance(penalty, bool):
        raise RuleError("options", N_("The penalty option is on or off."))
    readings = table_readings(options, SWITCHABLE_READINGS, "options")
    chips = START_CHIPS[variant]
    return {
        "variant": variant,
        "players": players,
        "penalty_on": penalty,
        "round": 1,
        "start": start,
        "first_start": start,  # "start" moves on each round; the record of a play needs round 1's
        "phase": "reveal",
        "chips": [chips] * players,
        "bank": TOTAL_CHIPS_ABACUS - chips * players if variant == "abacus" else None,
        "pot": 0 if variant == "don" else None,
        "cards": [[] for _ in range(players)],
        "out": [],  # cards out of the game: discarded by winners who could not pay, unsold lots
        "lot": [],
        "auction": None,
        "sold_this_round": [],
        "penalties": [],
        "last_payout": None,
        "events": [],
        # the readings this table switched to the literal one (tables.options: "readings")
        "readings": readings,
    }


def total_chips(state: dict) -> int:
    """Every chip in the game: players + bank (Abacus) or + pot (Don). Never changes."""
    return sum(state["chips"]) + (state["bank"] or 0) + (state["pot"] or 0)


def penalty_applies(state: dict, rule_id: str) -> bool:
    """Should the web layer follow a refusal with this rule id by a "penalty" action?"""
    return (
        bool(state.get("penalty_on")) and rule_id in PENALTY_RULES and state["phase"] == "auction"
    )


def auction_mark(auction: dict) -> list:
    """Where an auction stands: which auction, its high bid, how many passed or dropped out. Any
    bid or pass changes it, so a fine recorded with it tells whether anything happened since."""
    return [
        auction["kind"],
        auction["seller"],
        auction["high"],
        auction["high_seat"],
        len(auction["passed"]),
        len(auction["excluded"]),
    ]


def just_fined_bid(state: dict, seat: int | None) -> int | None:
    """The bid this seat was fined for a moment ago: the newest fine is this seat's, this round,
    not given back, and the auction has not moved since (the same seat still on turn). A second
    tap of the same illegal bid is then taken for the same call, not fined again unless the
    player confirms it (RULES["penalty-again"]). None otherwise."""
    auction = state.get("auction")
    if seat is None or auction is None or state["phase"] != "auction" or auction["turn"] != seat:
        return None
    if not state["penalties"]:
        return None
    fine = state["penalties"][-1]
    if (
        fine["seat"] != seat
        or fine["round"] != state["round"]
        or fine["waived"]
        or fine.get("at") != auction_mark(auction)
    ):
        return None
    return fine["bid"] if is_int(fine["bid"]) else None


def digits(state: dict, seat: int) -> list[int]:
    """The digits on a seat's cards (its forbidden last digits)."""
    return [c["digit"] for c in state["cards"][seat]]


def seen_cards(state: dict) -> list[dict]:
    """Every card turned up so far: owned, out of the game, or in the lot on offer."""
    return [c for cards in state["cards"] for c in cards] + state["out"] + state["lot"]


def eligible(state: dict) -> list[int]:
    """Seats that may take part in this auction: not dropped out, not the seller."""
    auction = state["auction"]
    return [
        s
        for s in range(state["players"])
        if s not in auction["excluded"] and s != auction["seller"]
    ]


def active(state: dict) -> list[int]:
    """Seats still in this auction: eligible and not passed."""
    return [s for s in eligible(state) if s not in state["auction"]["passed"]]


def clockwise_from(state: dict, seat: int, candidates: list[int], *, include: bool) -> int | None:
    """The first candidate seat clockwise from seat (seat itself first if include)."""
    n = state["players"]
    for step in range(0 if include else 1, n + 1):
        s = (seat + step) % n
        if s in candidates:
            return s
    return None


def waiting_for(state: dict) -> Msg:
    """What the game waits for now, in words (used in "not now" refusals)."""
    phase = state["phase"]
    if phase == "reveal":
        return Msg(
            N_("the table enters card %(n)s of %(size)s for round %(round)s."),
            n=len(state["lot"]) + 1,
            size=lot_size(state["round"]),
            round=state["round"],
        )
    if phase == "auction":
        return Msg(N_("%(seat)s bids or passes."), seat=Seat(state["auction"]["turn"]))
    if phase == "discard":
        return Msg(N_("%(seat)s discards a card."), seat=Seat(state["auction"]["defaulter"]))
    return Msg(N_("the game is over."))


def to_act(state: dict) -> int | None:
    """The seat the game waits for (None: the table enters a card, or the game is over)."""
    if state["phase"] == "auction":
        return state["auction"]["turn"]
    if state["phase"] == "discard":
        return state["auction"]["defaulter"]
    return None


def pass_bonus_is_due(state: dict, seat: int) -> bool:
    """Abacus: passing without ever bidding (or being fined for an illegal bid) for this lot earns
    the pass bonus, once per round. Don has no pass bonus, and a sale is not a lot."""
    auction = state["auction"]
    return (
        state["variant"] == "abacus"
        and auction is not None
        and auction["kind"] == "lot"
        and seat not in auction["bid_this_round"]
        and seat not in auction["bonus_paid"]
    )


def pass_bonus_due(state: dict, seat: int) -> int:
    """The chips a pass by this seat would earn now (0 if it is not their turn or none is due)."""
    auction = state["auction"]
    if state["phase"] != "auction" or auction["turn"] != seat or not pass_bonus_is_due(state, seat):
        return 0
    return min(PASS_BONUS, state["bank"])


def may_sell(state: dict, seat: int) -> bool:
    """Whether this seat may offer one of its cards for sale now (Don): before the first card
    of the round is turned up, once a round, with a card to offer, and, for a table reading the
    rule literally, only the round's first player (moves._act_sell refuses the rest)."""
    return (
        state["variant"] == "don"
        and state["phase"] == "reveal"
        and not state["lot"]
        and seat not in state["sold_this_round"]
        and bool(state["cards"][seat])
        and (not reads_other_way(state, "sale-who-may") or seat == state["start"])
    )

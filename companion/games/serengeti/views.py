"""Serengeti / Don: what a seat's phone or the table may see (view), the private bid warning,
and the final result.

Chips are private: a seat sees only its own (under "me"); the table sees none unless the host
shows all; at the end everybody's chips are shown (the chip bonus needs them).
"""

from __future__ import annotations

from companion.games.base import N_, Msg, RuleError, Seat, copy_state
from companion.games.serengeti.bids import bid_hint
from companion.games.serengeti.facts import DECK_SIZE, ROUNDS, TRIBES, lot_size
from companion.games.serengeti.fields import is_int
from companion.games.serengeti.payout import Payout, payout_explanation, payout_line
from companion.games.serengeti.phrases import card_msg
from companion.games.serengeti.scoring import standings
from companion.games.serengeti.state import (
    active,
    digits,
    may_sell,
    pass_bonus_due,
    seen_cards,
    to_act,
    waiting_for,
)

_PUBLIC_AUCTION = (
    "kind",
    "seller",
    "card",
    "starter",
    "turn",
    "high",
    "high_seat",
    "passed",
    "excluded",
    "defaulter",
    "default_bid",
)


def _by_tribe(cards: list[dict]) -> dict[str, list[int]]:
    """{tribe: sorted digits} for the tribes present, in TRIBES order."""
    return {
        t: sorted(c["digit"] for c in cards if c["tribe"] == t)
        for t in TRIBES
        if any(c["tribe"] == t for c in cards)
    }


def _payout_of(record: dict) -> Payout:
    """The Payout of a settled lot, from its record in the state."""
    return Payout(
        {Seat(s): a for s, a in record["shares"]},
        record["remainder"],
        record["digit"],
        record["bid"] + (record["pot"] or 0),
        {Seat(s): c for s, c in record["matches"]},
        record["method"],
    )


def _last_payout_why(state: dict) -> list[Msg]:
    """Why the last lot's bid was shared so (the same sentences as the calculator's)."""
    record = state["last_payout"]
    if record is None or record["kind"] != "lot":
        return []
    return payout_explanation(
        _payout_of(record),
        record["bid"],
        variant=state["variant"],
        pot=record["pot"],
        players=state["players"],
    )


def _last_payout_line(state: dict) -> Msg | None:
    record = state["last_payout"]
    if record is None:
        return None
    if record["kind"] == "free":
        return Msg(N_("Nobody bid: %(seat)s takes the lot free."), seat=Seat(record["winner"]))
    if record["kind"] == "unsold":
        return Msg(N_("Nobody is left who can pay: the lot leaves the game."))
    if record["kind"] == "sale":
        return Msg(
            N_("%(buyer)s paid %(bid)s to %(seller)s for %(card)s."),
            buyer=Seat(record["winner"]),
            bid=record["bid"],
            seller=Seat(record["seller"]),
            card=card_msg(record["card"]),
        )
    return payout_line(
        Seat(record["winner"]),
        record["bid"],
        _payout_of(record),
        variant=state["variant"],
        pot=record["pot"],
    )


def view(state: dict, seat: int | None, reveal: bool = False) -> dict:
    """What a seat's phone (or the table, seat None) may see.

    Public: round, lot, start player, phase, whose turn, high bid, bank / pot, every seat's cards
    by tribe (and so their forbidden digits), cards out of the game, fines, the last payout line
    and why it was shared so (payout_why).
    Chips: a seat sees only its own (under "me"); the table sees none unless reveal=True (the
    host's "show all"); at the end everybody's chips are shown (the chip bonus needs them).
    """
    if seat is not None and (not is_int(seat) or not 0 <= seat < state["players"]):
        raise RuleError(
            "seat", N_("Choose a seat from 1 to %(players)s."), players=state["players"]
        )
    show_chips = bool(reveal) or state["phase"] == "over"
    auction = state["auction"]
    public_auction = None
    if auction is not None:
        public_auction = {k: copy_state(auction[k]) for k in _PUBLIC_AUCTION}
        public_auction["active"] = active(state)
    seats = []
    for s in range(state["players"]):
        row = {
            "seat": s,
            "cards": _by_tribe(state["cards"][s]),
            "card_count": len(state["cards"][s]),
            "forbidden_digits": sorted(set(digits(state, s))),
        }
        if show_chips:
            row["chips"] = state["chips"][s]
        seats.append(row)
    return {
        "variant": state["variant"],
        "players": state["players"],
        "round": state["round"],
        "rounds": ROUNDS,
        "lot_size": lot_size(state["round"]),
        "phase": state["phase"],
        "start": state["start"],
        "lot": copy_state(state["lot"]),
        "auction": public_auction,
        "to_act": to_act(state),
        "waiting_for": waiting_for(state),
        "bank": state["bank"],
        "pot": state["pot"],
        "seats": seats,
        "out": copy_state(state["out"]),
        "cards_left": DECK_SIZE - len(seen_cards(state)),
        "penalties": copy_state(state["penalties"]),
        "payout_line": _last_payout_line(state),
        "payout_why": _last_payout_why(state),
        "last_payout": copy_state(state["last_payout"]),
        "penalty_on": state["penalty_on"],
        "me": None if seat is None else _my_view(state, seat),
    }


def _my_view(state: dict, seat: int) -> dict:
    auction = state["auction"]
    my_turn = state["phase"] == "auction" and auction["turn"] == seat
    high = auction["high"] if auction else None
    hint = bid_hint(digits(state, seat), high)
    return {
        "seat": seat,
        "chips": state["chips"][seat],  # private: the page warns when a bid is above this
        "cards": _by_tribe(state["cards"][seat]),
        "forbidden_digits": hint["forbidden_digits"],
        "my_turn": my_turn,
        "may_bid": my_turn and hint["min_bid"] is not None,
        "may_pass": my_turn,
        "min_bid": hint["min_bid"] if my_turn else None,
        "legal_bids": hint["legal_bids"] if my_turn else [],
        "pass_bonus": pass_bonus_due(state, seat),
        "must_discard": state["phase"] == "discard" and auction["defaulter"] == seat,
        "may_sell": may_sell(state, seat),
    }


def bid_warning(state: dict, seat: int, amount: int) -> Msg | None:
    """A private warning for the bidder's phone when a (legal) bid is above their chips."""
    if is_int(amount) and amount > state["chips"][seat]:
        return Msg(
            N_(
                "Your chips: %(chips)s. If you win at %(amount)s you cannot pay and must "
                "discard a card."
            ),
            chips=state["chips"][seat],
            amount=amount,
        )
    return None


def result(state: dict) -> dict | None:
    """The end screen (see standings()), keyed by seat; None while the game goes on."""
    if state["phase"] != "over":
        return None
    cards = {s: state["cards"][s] for s in range(state["players"])}
    chips = {s: state["chips"][s] for s in range(state["players"])}
    return standings(cards, chips, variant=state["variant"])

"""Serengeti / Don: an auction from its opening to its settling, on a state the caller owns.

Opening (a lot, or a Don sale), restarting without those who dropped out, handing the turn on
clockwise, and settling: the payout, a free lot, a winner who cannot pay, an unsold lot or a
card nobody bought, and the next round. Each step records its events in state["events"], which
the history reads.
"""

from __future__ import annotations

from companion.games.base import reads_other_way
from companion.games.serengeti.facts import ROUNDS, lot_size
from companion.games.serengeti.payout import payout
from companion.games.serengeti.state import active, clockwise_from, digits, eligible


def open_auction(
    state: dict, *, kind: str, first: int, seller: int | None = None, card: dict | None = None
) -> None:
    """Open the auction of the lot (kind "lot") or of a Don sale (kind "sale")."""
    state["auction"] = {
        "kind": kind,
        "seller": seller,
        "card": card,
        "round_start": first,  # who the auction (and every restart) begins with, if still in
        "starter": first,
        "turn": first,
        "high": None,
        "high_seat": None,
        "passed": [],
        "excluded": [],
        "bid_this_round": [],
        "bonus_paid": [],
        "defaulter": None,
        "default_bid": None,
    }
    state["phase"] = "auction"
    _begin_attempt(state)


def _begin_attempt(state: dict) -> None:
    """Start (or restart) the auction of the current lot or sale with whoever is still in."""
    auction = state["auction"]
    auction.update(high=None, high_seat=None, passed=[], defaulter=None, default_bid=None)
    starter = clockwise_from(state, auction["round_start"], eligible(state), include=True)
    if starter is None:
        _nobody_left(state)
        return
    auction["starter"] = auction["turn"] = starter
    state["phase"] = "auction"
    state["events"].append(
        {
            "e": "open",
            "kind": auction["kind"],
            "starter": starter,
            "restart": bool(auction["excluded"]),
        }
    )


def advance(state: dict, last: int) -> None:
    """After a bid or pass: end the auction if it is decided, else hand the turn on clockwise."""
    auction = state["auction"]
    still_in = active(state)
    # Our reading ("last-player-alone"): with no bid, the last player still has a turn; read
    # literally (¶40, a table option), the auction ends as soon as all but one have passed.
    alone = len(still_in) == 1 and reads_other_way(state, "last-player-alone")
    if auction["high"] is None and (not still_in or alone):
        _nobody_bid(state)
    elif auction["high"] is not None and still_in == [auction["high_seat"]]:
        _resolve(state, auction["high_seat"], auction["high"])
    else:
        auction["turn"] = clockwise_from(state, last, still_in, include=False)


def _seller_keeps_card(state: dict) -> None:
    """A Don sale nobody bought (or could pay for): the card stays with its seller."""
    auction = state["auction"]
    state["events"].append({"e": "kept", "seat": auction["seller"], "card": auction["card"]})
    _end_sale(state)


def _nobody_bid(state: dict) -> None:
    auction = state["auction"]
    if auction["kind"] == "sale":
        _seller_keeps_card(state)
        return
    starter = auction["starter"]
    state["cards"][starter].extend(state["lot"])
    state["events"].append({"e": "free", "seat": starter, "cards": list(state["lot"])})
    state["last_payout"] = {"kind": "free", "winner": starter, "bid": 0}
    _end_round(state, next_start=starter)


def _nobody_left(state: dict) -> None:
    """Everyone dropped out: an unsold lot leaves the game; a card on sale stays with the seller."""
    if state["auction"]["kind"] == "sale":
        _seller_keeps_card(state)
        return
    state["out"].extend(state["lot"])
    state["events"].append({"e": "unsold", "cards": list(state["lot"])})
    state["last_payout"] = {"kind": "unsold", "winner": None, "bid": 0}
    _end_round(state, next_start=state["start"])


def _resolve(state: dict, winner: int, bid: int) -> None:
    """The auction is won: pay if possible, else the winner must discard and drop out."""
    auction = state["auction"]
    state["events"].append({"e": "won", "seat": winner, "bid": bid, "kind": auction["kind"]})
    if state["chips"][winner] < bid:
        auction["defaulter"], auction["default_bid"] = winner, bid
        has_card = bool(state["cards"][winner])
        state["events"].append(
            {"e": "cannot_pay", "seat": winner, "bid": bid, "must_discard": has_card}
        )
        if has_card:
            state["phase"] = "discard"
        else:  # nothing to discard (CLARIFICATIONS["cannot-pay-no-card"])
            drop_out(state, winner)
        return
    state["chips"][winner] -= bid
    if auction["kind"] == "sale":
        _complete_sale(state, winner, bid)
    else:
        _complete_lot(state, winner, bid)


def _complete_lot(state: dict, winner: int, bid: int) -> None:
    state["cards"][winner].extend(state["lot"])
    holdings = {s: digits(state, s) for s in range(state["players"])}
    old_pot = state["pot"] or 0
    pay = payout(bid, winner, holdings, variant=state["variant"], pot=old_pot)
    for seat, amount in pay.shares.items():
        state["chips"][seat] += amount
    if state["variant"] == "abacus":
        state["bank"] += pay.remainder
    else:
        state["pot"] = pay.remainder
    record = {
        "kind": "lot",
        "winner": winner,
        "bid": bid,
        "pot": old_pot,
        "digit": pay.digit,
        "method": pay.method,
        "shares": [[s, a] for s, a in pay.shares.items()],
        "remainder": pay.remainder,
        "matches": [[s, c] for s, c in pay.matches.items()],
    }
    state["last_payout"] = record
    state["events"].append({"e": "payout", **record})
    _end_round(state, next_start=winner)


def _complete_sale(state: dict, buyer: int, bid: int) -> None:
    auction = state["auction"]
    seller, card = auction["seller"], auction["card"]
    state["chips"][seller] += bid  # CLARIFICATIONS["sale-who-is-paid"]: the seller takes it all
    state["cards"][seller].remove(card)
    state["cards"][buyer].append(card)
    record = {"kind": "sale", "winner": buyer, "seller": seller, "bid": bid, "card": card}
    state["last_payout"] = record
    state["events"].append({"e": "sold", **record})
    _end_sale(state)


def _end_sale(state: dict) -> None:
    state["auction"] = None
    state["phase"] = "reveal"


def _end_round(state: dict, *, next_start: int) -> None:
    state["auction"] = None
    state["lot"] = []
    state["sold_this_round"] = []
    if state["round"] >= ROUNDS:
        state["phase"] = "over"
        state["events"].append({"e": "over"})
        return
    state["round"] += 1
    state["start"] = next_start
    state["phase"] = "reveal"
    state["events"].append(
        {
            "e": "round",
            "round": state["round"],
            "start": next_start,
            "size": lot_size(state["round"]),
        }
    )


def drop_out(state: dict, seat: int) -> None:
    """A winner who could not pay leaves this auction; it starts again without them."""
    state["auction"]["excluded"].append(seat)
    _begin_attempt(state)

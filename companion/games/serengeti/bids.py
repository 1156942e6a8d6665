"""Serengeti / Don: what a bid may be. A positive whole number (at most MAX_BID, against typos),
above the high bid, not ending in a digit shown on one of the bidder's own cards; the refusal
suggests the nearest legal bids, and the keypad's hint lists the lowest ones."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from companion.games.base import N_, Msg
from companion.games.serengeti.facts import MAX_BID
from companion.games.serengeti.fields import is_int


def _next_legal(least: int, forbidden: set[int]) -> int | None:
    """The smallest bid >= least whose last digit is allowed; None if every digit is forbidden."""
    least = max(least, 1)
    for candidate in range(least, least + 10):
        if candidate % 10 not in forbidden:
            return candidate
    return None


def _prev_legal(below: int, above: int, forbidden: set[int]) -> int | None:
    """The largest allowed bid < below and > above (and >= 1), or None."""
    for candidate in range(below - 1, max(above, 0, below - 11), -1):
        if candidate % 10 not in forbidden:
            return candidate
    return None


def bid_problem(bid: Any, own_digits: Iterable[int], high_bid: int | None):
    """(rule id, msgid, params) of what is wrong with a bid, or None for a legal bid."""
    forbidden = {d % 10 for d in own_digits}
    floor = (high_bid or 0) + 1
    least = _next_legal(floor, forbidden)
    if least is None:  # a player who owns all ten digits can only pass
        return ("bid-digit", N_("You own every digit from 0 to 9, so you cannot bid: pass."), {})
    if not is_int(bid) or not 1 <= bid <= MAX_BID:
        return (
            "bid-number",
            N_("A bid is a positive whole number of chips, at most 999: try %(least)s."),
            {"least": least},
        )
    if high_bid is not None and bid <= high_bid:
        return (
            "bid-higher",
            N_("The high bid is %(high)s: bid at least %(least)s, or pass."),
            {"high": high_bid, "least": least},
        )
    digit = bid % 10
    if digit in forbidden:
        higher = _next_legal(bid, forbidden)
        lower = _prev_legal(bid, high_bid or 0, forbidden)
        if lower is None:
            return (
                "bid-digit",
                N_("You own a %(digit)s, so no bid may end in %(digit)s: try %(higher)s."),
                {"digit": digit, "higher": higher},
            )
        return (
            "bid-digit",
            N_("You own a %(digit)s, so no bid may end in %(digit)s: try %(lower)s or %(higher)s."),
            {"digit": digit, "lower": lower, "higher": higher},
        )
    return None


def bid_error(bid: int, own_digits: Iterable[int], high_bid: int | None = None) -> str | None:
    """None for a legal bid, otherwise the reason (a translatable Msg, which is a str).

    A bid must be a positive whole number (at most MAX_BID, against typos), above the current high
    bid, and must not end in a digit shown on one of your own cards (own a 4: no 4, 14, 24...).
    """
    problem = bid_problem(bid, list(own_digits), high_bid)
    if problem is None:
        return None
    _rule, msgid, params = problem
    return Msg(msgid, **params)


def bid_rule(bid: int, own_digits: Iterable[int], high_bid: int | None = None) -> str | None:
    """The rule id that bid_error's reason comes from (None for a legal bid)."""
    problem = bid_problem(bid, list(own_digits), high_bid)
    return None if problem is None else problem[0]


def bid_hint(own_digits: Iterable[int], high_bid: int | None = None, count: int = 5) -> dict:
    """What a keypad shows before anyone types: forbidden last digits and the lowest legal bids."""
    forbidden = sorted({d % 10 for d in own_digits})
    allowed = set(range(10)) - set(forbidden)  # none: a bidder who owns every digit passes
    bids: list[int] = []
    candidate = max((high_bid or 0) + 1, 1)
    while allowed and len(bids) < count:
        if candidate % 10 in allowed:
            bids.append(candidate)
        candidate += 1
    return {"forbidden_digits": forbidden, "min_bid": bids[0] if bids else None, "legal_bids": bids}

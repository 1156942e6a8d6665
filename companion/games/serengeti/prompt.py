"""Serengeti / Don: what a seat (or the table) may enter now, in one short sentence with its
numbers (Rules.prompt), shown under "Your turn." or "Waiting for Anna." on a phone.

The bid sentence names exactly the bids the rules accept (bids.bid_problem): the lowest legal
bid, then every higher one whose last digit is not on one of the bidder's own cards (up to
MAX_BID, a typo guard nobody reaches). Everything between the high bid and that lowest bid ends
in a forbidden digit, so "from the lowest legal bid, not ending in ..." is the whole set.
"""

from __future__ import annotations

from companion.games.base import N_, Msg, Plural, comma_list
from companion.games.serengeti.bids import bid_hint
from companion.games.serengeti.facts import lot_size
from companion.games.serengeti.state import digits, may_sell, pass_bonus_due, to_act


def or_list(items: list[int]) -> object:
    """ "3, 7 or 9": digits joined by the reader's comma and "or" (one digit is itself)."""
    if len(items) == 1:
        return items[0]
    return Msg(N_("%(first)s or %(last)s"), first=comma_list(items[:-1]), last=items[-1])


def bid_prompt(state: dict, seat: int) -> Msg:
    """The bidder's choice: the lowest legal bid and the digits a bid may not end in (or, when
    most are forbidden, the few it may end in), or only a pass; with the chips a pass earns."""
    hint = bid_hint(digits(state, seat), state["auction"]["high"], count=1)
    forbidden: list[int] = hint["forbidden_digits"]
    bonus = pass_bonus_due(state, seat)
    least = hint["min_bid"]
    if least is None:  # every digit 0-9 is on their cards
        if bonus:
            return Plural(
                "You own every digit, so you cannot bid: pass for %(num)s chip.",
                "You own every digit, so you cannot bid: pass for %(num)s chips.",
                "num",
                num=bonus,
            )
        return Msg(N_("You own every digit, so you cannot bid: pass."))
    if not forbidden:
        if bonus:
            return Plural(
                "Bid %(least)s or more, or pass for %(num)s chip.",
                "Bid %(least)s or more, or pass for %(num)s chips.",
                "num",
                least=least,
                num=bonus,
            )
        return Msg(N_("Bid %(least)s or more, or pass."), least=least)
    allowed = [d for d in range(10) if d not in forbidden]
    if len(allowed) < len(forbidden):  # the shorter list: the digits a bid may end in
        digit_list = or_list(allowed)
        if bonus:
            return Plural(
                "Bid %(least)s or more, ending in %(digits)s, or pass for %(num)s chip.",
                "Bid %(least)s or more, ending in %(digits)s, or pass for %(num)s chips.",
                "num",
                least=least,
                digits=digit_list,
                num=bonus,
            )
        return Msg(
            N_("Bid %(least)s or more, ending in %(digits)s, or pass."),
            least=least,
            digits=digit_list,
        )
    digit_list = or_list(forbidden)
    if bonus:
        return Plural(
            "Bid %(least)s or more, not ending in %(digits)s, or pass for %(num)s chip.",
            "Bid %(least)s or more, not ending in %(digits)s, or pass for %(num)s chips.",
            "num",
            least=least,
            digits=digit_list,
            num=bonus,
        )
    return Msg(
        N_("Bid %(least)s or more, not ending in %(digits)s, or pass."),
        least=least,
        digits=digit_list,
    )


def prompt(state: dict, seat: int | None) -> Msg | None:
    """What `seat` (None: the table) may enter now.

    Turning up cards: anyone enters the next card (a Don player may first offer a card for
    sale); an auction: the bidder on turn bids or passes (bid_prompt), the others wait; a winner
    who cannot pay discards a card. Nothing once the game is over."""
    phase = state["phase"]
    if phase == "reveal":
        n, size = len(state["lot"]) + 1, lot_size(state["round"])
        if seat is not None and may_sell(state, seat):
            return Msg(
                N_("Enter card %(n)s of %(size)s, or first offer one of your cards for sale."),
                n=n,
                size=size,
            )
        return Msg(N_("Enter card %(n)s of %(size)s turned up."), n=n, size=size)
    if seat is None or seat != to_act(state):
        return None
    if phase == "auction":
        return bid_prompt(state, seat)
    if phase == "discard":
        return Msg(
            N_("You cannot pay %(bid)s: discard one of your cards."),
            bid=state["auction"]["default_bid"],
        )
    return None

"""From Cape to Cairo: what a seat (or the table) may enter now, in one short sentence with its
numbers (Rules.prompt), shown under "Your turn." or "Waiting for Anna." on a phone.

Each sentence names what the rules accept: a sealed bid from 0 to the money held, a drawn
card's number from 1 to 10, one of the cards still on offer, a turned-up card's 0 to 3 track
symbols, and a crossing at the cheapest price the crossing rules allow (crossing.py), or a pass.
"""

from __future__ import annotations

from companion.games.base import N_, Msg, Plural, Seat
from companion.games.cape_to_cairo.crossing import cheapest_crossing
from companion.games.cape_to_cairo.facts import (
    INCOME_MAX,
    INCOME_MIN,
    MARKS_MAX,
    MARKS_MIN,
    pounds,
    terrain_name,
)
from companion.games.cape_to_cairo.moves import turn
from companion.games.cape_to_cairo.state import marks_for, next_terrain


def cross_prompt(state: dict, seat: int) -> Msg:
    """The building player's choice once the card is turned up: cross the next terrain the
    cheapest way (its price and the bonus tracks it spends), or pass; only a pass when even all
    bonus tracks and all money are not enough."""
    terrain = next_terrain(state, seat)
    assert terrain is not None  # a seat builds only with a card ahead (an empty row ends it)
    plan = cheapest_crossing(
        terrain, marks_for(state, seat), state["bonus"][seat], state["money"][seat]
    )
    name = terrain_name(terrain)
    if plan is None:
        return Msg(N_("You cannot afford the %(terrain)s yet: pass."), terrain=name)
    if plan["bonus"]:
        if plan["pounds"] == 0:
            return Plural(
                "Cross the %(terrain)s for %(num)s bonus track, or pass.",
                "Cross the %(terrain)s for %(num)s bonus tracks, or pass.",
                "num",
                terrain=name,
                num=plan["bonus"],
            )
        return Plural(
            "Cross the %(terrain)s for %(cost)s and %(num)s bonus track, or pass.",
            "Cross the %(terrain)s for %(cost)s and %(num)s bonus tracks, or pass.",
            "num",
            terrain=name,
            cost=pounds(plan["pounds"]),
            num=plan["bonus"],
        )
    if plan["pounds"] == 0:
        return Msg(N_("Cross the %(terrain)s for free, or pass."), terrain=name)
    return Msg(
        N_("Cross the %(terrain)s for %(cost)s, or pass."),
        terrain=name,
        cost=pounds(plan["pounds"]),
    )


def prompt(state: dict, seat: int | None) -> Msg | None:
    """What `seat` (None: the table) may enter now.

    The acquisition cards: anyone enters the next one. Sealed bids: each seat that has not bid
    bids 0 to its money. A tie: the tied seats each enter a drawn card. Choosing: the seat on
    turn takes a card. Building: the building player turns up a card (the table may enter it
    for them), then crosses or passes. Seats the game does not wait for are told nothing: they
    only watch (and may enter for the building player what their phone folds away)."""
    phase = state["phase"]
    if phase == "cards":
        return Msg(
            N_("Enter terrain card %(n)s of %(size)s turned up."),
            n=len(state["pool"]) + 1,
            size=state["players"],
        )
    if phase == "building" and state["step"] == "turn_up":
        if seat is None:
            return Msg(
                N_("Enter the track symbols (%(low)s to %(high)s) of the card %(seat)s turns up."),
                seat=Seat(state["active"]),
                low=MARKS_MIN,
                high=MARKS_MAX,
            )
        if seat == state["active"]:
            return Msg(
                N_("Turn up a card and enter its track symbols (%(low)s to %(high)s)."),
                low=MARKS_MIN,
                high=MARKS_MAX,
            )
        return None
    if seat is None or seat not in turn(state):
        return None
    if phase == "bidding":
        money = state["money"][seat]
        if money == 0:
            return Msg(N_("You hold no money: place a sealed bid of 0."))
        return Plural(
            "Place a sealed bid of 0 to %(num)s pound.",
            "Place a sealed bid of 0 to %(num)s pounds.",
            "num",
            num=money,
        )
    if phase == "draw":
        return Msg(
            N_("You are tied: draw a card and enter its number (%(low)s to %(high)s)."),
            low=INCOME_MIN,
            high=INCOME_MAX,
        )
    if phase == "taking":
        left = sum(card["taken_by"] is None for card in state["pool"])
        return Msg(N_("Choose a terrain card: %(num)s are left."), num=left)
    if phase == "building":
        return cross_prompt(state, seat)
    return None

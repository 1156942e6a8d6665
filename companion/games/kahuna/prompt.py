"""The line under "Your turn." (Rules.prompt): what a seat, or the table, may enter now, in the
game's words and with its numbers (the cards still to play this turn, the face-up cards to
enter).

It asks the same questions as the table page's forms (views.entries_open): a face-up card waiting to be
entered comes first and anyone may enter it; otherwise only the seat on turn enters anything.
"""

from __future__ import annotations

from companion.games.base import N_, Msg, Plural
from companion.games.kahuna.facts import MAX_CARDS_PER_TURN
from companion.games.kahuna.state import drawable
from companion.games.kahuna.views import entries_open


def prompt(state: dict, seat: int | None) -> Msg | None:
    """What `seat` (None: the table) may enter now, or None when it has nothing to enter."""
    if state["over"]:
        return None
    if state["pending_reveals"]:
        # Rule "reveal": nothing else happens until the cards turned over are entered.
        return Plural(
            "Turn up %(num)s card and enter its island.",
            "Turn up %(num)s cards and enter their islands.",
            "num",
            num=state["pending_reveals"],
        )
    if seat != state["turn"]:
        return None  # the opponent's turn: nothing to enter, the table neither
    can = entries_open(state, seat)
    may_draw = bool(can["draw_deck"] or can["draw_display"])
    last = state["final_turns"] is not None
    if can["play"]:
        room = min(MAX_CARDS_PER_TURN - len(state["played"]), state["hands"][seat])
        if last or not drawable(state):
            return Plural(
                "Play up to %(num)s card, then end the turn: no draw is left.",
                "Play up to %(num)s cards, then end the turn: no draw is left.",
                "num",
                num=room,
            )
        if state["must_draw"]:
            return Plural(
                "Play up to %(num)s card; this turn you must draw.",
                "Play up to %(num)s cards; this turn you must draw.",
                "num",
                num=room,
            )
        return Plural(
            "Play up to %(num)s card, then draw or end the turn.",
            "Play up to %(num)s cards, then draw or end the turn.",
            "num",
            num=room,
        )
    if may_draw and can["end_turn"]:
        return Msg(N_("Draw a card, or end the turn without drawing."))
    if may_draw:
        return Msg(N_("Draw a card: this turn you must draw."))
    if can["end_turn"]:
        return Msg(N_("End the turn: no draw is left."))
    # Not reached by a game the rules play (a full hand that may neither draw nor end the turn
    # has played no card, so it may discard): the way out, should it be.
    return Msg(N_("Discard face down, then draw a card."))

"""The line under "Your turn." (Rules.prompt): what a seat, or the table, may enter now, in the
game's words and with its numbers (prices in silver, what the coins pay for, the markers free).

It follows the moves' declaration (moves.py): the turn's entries are the seat's on turn, the
scoring sheets each seat's own once play is over, the kinds' names the table's. A seat waiting
for another's turn has nothing to enter in Africana, so it is told nothing.
"""

from __future__ import annotations

from companion.games.africana.facts import (
    ADVENTURE_CARDS,
    ADVENTURE_PRICE,
    MARKERS,
    OPEN_ADVENTURE_LIMIT,
)
from companion.games.africana.state import markers_used
from companion.games.base import N_, Msg, Plural


def prompt(state: dict, seat: int | None) -> Msg | None:
    """What `seat` (None: the table) may enter now, or None when it has nothing to enter."""
    if state["phase"] != "playing":
        if seat is None or state["seats"][seat]["sheet"] is not None:
            return None  # a sheet handed in says so on its own card; the table enters none
        return Msg(N_("Check your sheet against your cards and hand it in."))
    turn = state["turn"]
    if seat is None:
        # The table's one entry, the kinds' names, matters before the first card is bought.
        if turn["number"] == 1 and turn["action"] is None and not state["kinds_renamed"]:
            return Msg(N_("The table may name the 5 artifact kinds once."))
        return None
    if seat != turn["seat"]:
        return None
    record = state["seats"][seat]
    action = turn["action"]
    if action is None:
        return Msg(N_("Choose one action: draw 2 movement cards, buy or move."))
    extra = record["adventures_open"] - OPEN_ADVENTURE_LIMIT
    if action != "move" and extra > 0:
        # Rule "adventure-limit": the turn ends only with the extra ones discarded.
        return Plural(
            "To end your turn, discard %(num)s adventure: 3 may stay.",
            "To end your turn, discard %(num)s adventures: 3 may stay.",
            "num",
            num=extra,
        )
    if action == "draw":
        return Msg(N_("Take 2 movement cards from the deck, then end your turn."))
    if action == "buy":
        return _buying(state, record["coins"], turn["pages"])
    free = MARKERS - markers_used(state, seat)
    if free == 0:
        return Msg(N_("All 4 markers out: enter completions, colour changes."))
    return Plural(
        "Enter joins (%(num)s marker free), completions, colour changes.",
        "Enter joins (%(num)s markers free), completions, colour changes.",
        "num",
        num=free,
    )


def _buying(state: dict, coins: int, pages: int) -> Msg:
    """A turn of buying: how many adventure cards the coins pay for, and what a page costs."""
    left = ADVENTURE_CARDS - state["bought"]
    can = min(coins // ADVENTURE_PRICE, left)
    if can and not pages:
        return Plural(
            "Buy up to %(num)s adventure at 5 silver; first page free.",
            "Buy up to %(num)s adventures at 5 silver; first page free.",
            "num",
            num=can,
        )
    if can:
        return Plural(
            "Buy up to %(num)s adventure at 5 silver; each page 1 silver.",
            "Buy up to %(num)s adventures at 5 silver; each page 1 silver.",
            "num",
            num=can,
        )
    if not left:
        return Msg(N_("All 30 adventure cards are bought: end your turn."))
    if not pages:
        return Msg(N_("Turn pages (the first is free) or end your turn."))
    if coins:
        return Msg(N_("Turn pages at 1 silver each, or end your turn."))
    return Msg(N_("No silver left: end your turn."))

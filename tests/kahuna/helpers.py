"""Helpers the Kahuna tests share: the control rule written out independently, the card question
of a page, and driving a table through long stretches that are not what a test is about.
"""

from __future__ import annotations

import re
from html import unescape

from companion.games.kahuna import rules as k
from tests.helpers import TableDriver, act_as_phones


def naive_control(board: dict) -> dict:
    """The strict-majority rule written out independently: count per island, compare with sites/2."""
    result = {}
    for island in k.ISLANDS:
        sites = [s for s in k.SITES if island in s]
        for colour in ("white", "black"):
            if 2 * sum(1 for s in sites if board.get(s) == colour) > len(sites):
                result[island] = colour
    return result


def site(key: str) -> str:
    """A site on the board as CSS (a page in English): known by its name, "Bridge site
    Aloa–Bari, ...", as a link carries no other mark of its site (the page's bytes)."""
    a, b = key.split("-")
    return f'svg.k-board .k-site[aria-label^="Bridge site {a}–{b},"]'


def sheet(html: str) -> str:
    """The card question ("which card did you play?") of a table page, or '' when none is open."""
    found = re.search(r'<div class="k-sheet".*?</div>\s*</div>', html, re.S)
    return unescape(found.group(0)) if found else ""


def drive(table: TableDriver, actions: list[dict]) -> None:
    """Apply actions through the store (for long stretches that are not what a test is about)."""
    act_as_phones(table.app, table.code, actions)


def reveal_pending(table: TableDriver) -> dict:
    """Enter every face-up card the table waits for (an island with a copy left); the state."""
    state = table.state()
    while state["pending_reveals"]:
        island = next(i for i in k.ISLANDS if k.accounted(state, i) < k.CARDS_PER_ISLAND)
        drive(table, [{"type": "reveal", "seat": None, "island": island}])
        state = table.state()
    return state


def finish_round(table: TableDriver) -> None:
    """Both players draw (discarding first when holding 5) until the round ends."""
    start = table.state()["round"]
    while True:
        s = table.state()
        if s["round"] != start or s["over"] or s["final_turns"] is not None:
            return
        if s["pending_reveals"]:
            reveal_pending(table)
            continue
        seat = s["turn"]
        actions = []
        if s["hands"][seat] >= k.HAND_LIMIT:
            actions.append({"type": "discard", "seat": seat, "count": 1})
        if s["deck"]:
            actions.append({"type": "draw", "seat": seat, "source": "deck"})
        else:
            actions.append(
                {"type": "draw", "seat": seat, "source": "display", "island": s["display"][0]}
            )
        drive(table, actions)


def finish_game(table: TableDriver) -> None:
    """Play the rounds out by drawing, then end the last turns without drawing, until the end."""
    while True:
        s = reveal_pending(table)
        if s["over"]:
            return
        if s["final_turns"] is not None:
            drive(table, [{"type": "end_turn", "seat": s["turn"]}])
            continue
        finish_round(table)

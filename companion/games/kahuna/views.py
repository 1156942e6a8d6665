"""Kahuna's views: what a seat (or the table) sees of a state, which entries it may make now,
and the final result with its breakdown and tie-break.
"""

from __future__ import annotations

from collections import Counter

from companion.games.base import copy_state
from companion.games.kahuna.bridges import (
    bridge_counts,
    bridges_from_json,
    control,
)
from companion.games.kahuna.facts import (
    BRIDGES_PER_COLOUR,
    COLOURS,
    DEGREES,
    HAND_LIMIT,
    ISLANDS,
    LAYOUT,
    MAX_CARDS_PER_TURN,
    ROUNDS,
    SITES,
    STONES_PER_COLOUR,
    needed,
    site_key,
)
from companion.games.kahuna.scoring import decide_winner
from companion.games.kahuna.state import drawable, held_by_seat, total_points


def view(state: dict, seat: int | None, reveal: bool = False) -> dict:
    """What a seat (or the table, for None) may see. Kahuna has no secrets the app knows.

    Hands are only counted; "known_cards" lists the cards each hand took from the face-up row,
    which both players saw. What a tapped site allows is asked of legal_cards_for() when it is
    tapped (web.site_choice), not worked out here for all 27 sites on every render.
    """
    bridges = bridges_from_json(state["bridges"])
    held = control(bridges)
    used = bridge_counts(bridges)
    # Counted once from what control() gave, and each island's bridges in one pass over the
    # bridges (a bridge touches the two islands its site joins): the view is made for every
    # device's region after each move.
    islands_now = {c: sum(1 for owner in held.values() if owner == c) for c in COLOURS}
    ends: dict[str, Counter[str]] = {c: Counter() for c in COLOURS}
    for site, colour in bridges.items():
        ends[colour].update(site)
    out = {
        "islands": [
            {
                "name": i,
                "degree": DEGREES[i],
                "needed": needed(i),
                "x": LAYOUT[i][0],
                "y": LAYOUT[i][1],
                "controller": held.get(i),
                "bridges": {c: ends[c][i] for c in COLOURS},
            }
            for i in ISLANDS
        ],
        "sites": [{"key": site_key(s), "ends": list(s), "bridge": bridges.get(s)} for s in SITES],
        "colours": list(COLOURS),
        "bridges_left": {c: BRIDGES_PER_COLOUR - used[c] for c in COLOURS},
        "stones_left": {c: STONES_PER_COLOUR - islands_now[c] for c in COLOURS},
        "islands_held": islands_now,
        "round": state["round"],
        "turn": state["turn"],
        "turn_colour": COLOURS[state["turn"]],
        "deck": state["deck"],
        "display": list(state["display"]),
        "pending_reveals": state["pending_reveals"],
        "hands": list(state["hands"]),
        "known_cards": [list(k) for k in state["known"]],
        "played": list(state["played"]),
        "discard": {"face_up": list(state["discard_up"]), "face_down": state["discard_down"]},
        "must_draw": state["must_draw"] and drawable(state),
        "final_turns": state["final_turns"],
        "rounds": copy_state(state["rounds"]),
        "points": total_points(state),
        "last_changes": copy_state(state["last_changes"]),
        "options": dict(state["options"]),
        "over": state["over"],
        "seat": seat,
        "colour": COLOURS[seat] if seat in (0, 1) else None,
    }
    out["can"] = entries_open(state, seat)
    return out


def entries_open(state: dict, seat: int | None) -> dict:
    """Which kinds of entry this seat may make now (the web layer shows those forms)."""
    my_turn = (
        seat in (0, 1)
        and seat == state["turn"]
        and not state["over"]
        and not state["pending_reveals"]
    )
    hand = state["hands"][seat] if seat in (0, 1) else 0
    may_draw = my_turn and drawable(state) and hand < HAND_LIMIT
    return {
        "reveal": state["pending_reveals"] > 0 and not state["over"],
        "play": my_turn
        and not state["discarded"]
        and len(state["played"]) < MAX_CARDS_PER_TURN
        and hand > 0,
        "discard": my_turn and not state["played"] and hand > 0,
        "draw_deck": may_draw and state["deck"] > 0,
        "draw_display": sorted(set(state["display"])) if may_draw else [],
        "end_turn": my_turn and not (state["must_draw"] and drawable(state)),
    }


def result(state: dict) -> dict | None:
    """Final scores with their breakdown and the tie-break used (final_result); None while the
    game goes on."""
    return final_result(state) if state["over"] else None


def final_result(state: dict) -> dict:
    """The scores of a game that is over, with their breakdown and the tie-break used:

    {"points": [white, black], "rounds": [{"round", "islands": [w, b], "points": [w, b]}],
     "islands": [w, b] at the end, "bridges": [w, b] on the board at the end,
     "winner": seat or None (a draw), "tie_break": "points" | "round-3" | "bridges" | "draw"}
    """
    points = total_points(state)
    round3 = next((r["points"] for r in state["rounds"] if r["round"] == ROUNDS), [0, 0])
    counts = bridge_counts(bridges_from_json(state["bridges"]))
    bridges = [counts[c] for c in COLOURS]
    winner, how = decide_winner(points, round3, bridges)
    return {
        "points": points,
        "rounds": copy_state(state["rounds"]),
        "islands": held_by_seat(state),
        "bridges": bridges,
        "winner": winner,
        "tie_break": how,
    }

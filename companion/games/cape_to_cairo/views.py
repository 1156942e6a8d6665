"""From Cape to Cairo: what each screen may see (view) and the final result.

Sealed bids are the only secret: while bidding, nobody but the bidder sees an amount, not even
the host's "show all". Everything else (money, rows, bonus tracks) is open.
"""

from __future__ import annotations

from typing import Any

from companion.games.base import N_, Msg, Seat
from companion.games.cape_to_cairo.bid_order import order_reasons
from companion.games.cape_to_cairo.crossing import cheapest_crossing, crossing_choices
from companion.games.cape_to_cairo.facts import (
    TERRAINS_TO_WIN,
    TRACKS_NEEDED,
    pounds,
    terrain_name,
)
from companion.games.cape_to_cairo.state import keyed, marks_for, next_terrain


def _row_view(card: dict) -> dict:
    return {
        "terrain": card["terrain"],
        "marks": card["marks"],
        "income": card["income"],
        "needed": TRACKS_NEEDED[card["terrain"]],
    }


def _seat_view(state: dict, seat: int) -> dict:
    crossed = state["crossed"][seat]
    row = state["rows"][seat]
    out = {
        "seat": seat,
        "money": state["money"][seat],
        "bonus": state["bonus"][seat],
        "crossed": [card["terrain"] for card in row[:crossed]],
        "crossed_count": crossed,
        "to_win": TERRAINS_TO_WIN - crossed,
        "row": [_row_view(card) for card in row[crossed:]],
        "next_terrain": next_terrain(state, seat),
        "marks": marks_for(state, seat),
        "cheapest": None,
    }
    if state["phase"] == "building":
        out["cheapest"] = cheapest_crossing(
            out["next_terrain"], out["marks"], state["bonus"][seat], state["money"][seat]
        )
    return out


def _reveal_view(state: dict) -> dict | None:
    rev = state["reveal"]
    if rev is None:
        return None
    out = {
        "round": rev["round"],
        "bids": list(rev["bids"]),
        "money_before": list(rev["money_before"]),
        "money_left": [m - b for m, b in zip(rev["money_before"], rev["bids"])],
        "draws": [list(d) for d in rev["draws"]],
        "order": rev["order"],
        "tie_breaks": tie_breaks(state),
    }
    return out


def tie_breaks(state: dict) -> list[Msg]:
    """Why each tied seat of the latest settled bid order comes before the next, in words
    ([] while the order is not settled, or when no bids were equal)."""
    if state["reveal"] is None or state["reveal"]["order"] is None:
        return []
    bids, money, draws = keyed(state)
    return order_reasons(bids, money, draws, ties_only=True, label=lambda k: Seat(int(k)))


def crossing_line(seat: int, terrain: str, plan: dict, income: int) -> Msg:
    """A crossing in words: the terrain, the symbols, bonus and bought tracks it took (a
    track_plan dict, the bonus tracks spent in it) and the income it earned. The history line
    of a crossing, and the next phase's "Last crossing" line."""
    return Msg(
        N_(
            "%(seat)s crosses the %(terrain)s (symbols: %(symbols)s, bonus tracks: "
            "%(bonus)s, bought tracks: %(bought)s for %(pounds)s) and earns "
            "%(income)s."
        ),
        seat=Seat(seat),
        terrain=terrain_name(terrain),
        symbols=plan["symbols"],
        bonus=plan["bonus"],
        bought=plan["bought"],
        pounds=pounds(plan["pounds"]),
        income=pounds(income),
    )


def last_crossing(state: dict) -> list[Msg]:
    """The crossing that ended the last building phase, while the acquisition it opened is
    turning up cards and bidding (the crosser's own panel moves on to the new phase at once, so
    this is where the crosser and the table read what it cost): that crossing and why the
    phase ended. [] otherwise."""
    record = state.get("last_cross")
    if (
        record is None
        or state["phase"] not in ("cards", "bidding")
        or record["round"] != state["round"] - 1
    ):
        return []
    return [
        crossing_line(record["seat"], record["terrain"], record, record["income"]),
        Msg(
            N_(
                "%(seat)s's row is empty: the building phase ends and acquisition "
                "round %(round)s begins."
            ),
            seat=Seat(record["seat"]),
            round=state["round"],
        ),
    ]


def _waiting_for(state: dict) -> tuple[list[int], str | None]:
    """The seats expected to act, and what the table must enter (None: nothing)."""
    phase = state["phase"]
    if phase == "cards":
        return [], "card"
    if phase == "bidding":
        return [s for s, b in enumerate(state["bids"]) if b is None], None
    if phase == "draw":
        return list(state["must_draw"]), None
    if phase == "taking":
        return [state["order"][state["take_index"]]], None
    if phase == "building":
        if state["step"] == "turn_up":
            return [state["active"]], "turn_up"
        return [state["active"]], None
    return [], None


def _actions_for(state: dict, seat: int | None) -> list[str]:
    waiting, table = _waiting_for(state)
    actions = [table] if table else []
    if seat is None or seat not in waiting:
        return actions
    phase = state["phase"]
    if phase == "bidding":
        actions.append("bid")
    elif phase == "draw":
        actions.append("draw")
    elif phase == "taking":
        actions.append("take")
    elif phase == "building" and state["step"] == "decide":
        if _seat_view(state, seat)["cheapest"] is not None:
            actions.append("cross")
        actions.append("pass")  # passing is always allowed, even when crossing is possible
    return actions


def view(state: dict, seat: int | None, reveal: bool = False) -> dict:
    """What `seat` (None: the table screen) may see.

    Sealed bids are the only secret: while bidding, everybody (the table and the host's "show
    all" too, so `reveal` changes nothing) sees only who has bid; a seat also sees its own bid.
    """
    waiting, table_entry = _waiting_for(state)
    out: dict[str, Any] = {
        "players": state["players"],
        "seat": seat,
        "phase": state["phase"],
        "round": state["round"],
        "tracks_needed": dict(TRACKS_NEEDED),
        "terrains_to_win": TERRAINS_TO_WIN,
        "seats": [_seat_view(state, s) for s in range(state["players"])],
        "pool": [
            {"id": i, **_row_view(card), "taken_by": card["taken_by"]}
            for i, card in enumerate(state["pool"])
        ],
        "cards_to_enter": state["players"] - len(state["pool"]) if state["phase"] == "cards" else 0,
        "waiting_for": waiting,
        "table_entry": table_entry,
        "actions": _actions_for(state, seat),
        "bidding": None,
        "reveal": _reveal_view(state),
        "must_draw": list(state["must_draw"]),
        "taking": None,
        "building": None,
        "my_choices": None,
        "winner": state["winner"],
        "last_crossing": last_crossing(state),
    }
    if state["phase"] == "bidding":
        out["bidding"] = {
            "has_bid": [b is not None for b in state["bids"]],
            "waiting_for": [s for s, b in enumerate(state["bids"]) if b is None],
            "my_bid": state["bids"][seat] if seat is not None else None,
        }
    if state["phase"] == "taking":
        out["taking"] = {"order": list(state["order"]), "next": state["order"][state["take_index"]]}
    if state["phase"] == "building":
        out["building"] = {
            "lead": state["lead"],
            "active": state["active"],
            "step": state["step"],
            "turned": list(state["turned"]),
            "turned_marks": sum(state["turned"]),
        }
        if seat is not None and seat == state["active"] and state["step"] == "decide":
            me = out["seats"][seat]
            out["my_choices"] = crossing_choices(
                me["next_terrain"], me["marks"], state["bonus"][seat], state["money"][seat]
            )
    return out


def result(state: dict) -> dict | None:
    """None while playing; then the winner, how the win happened and every player's crossed
    terrains and money (money left over is worth nothing, so there is no tie-break)."""
    if state["phase"] != "over":
        return None
    winner = state["winner"]
    terrain = state["win"]["terrain"]
    return {
        "winner": winner,
        "how": Msg(
            N_(
                "%(seat)s crossed their 8th terrain, a %(terrain)s, in acquisition round "
                "%(round)s and wins at once."
            ),
            seat=Seat(winner),
            terrain=terrain_name(terrain),
            round=state["win"]["round"],
        ),
        "winning_terrain": terrain,
        "rounds": state["win"]["round"],
        "tie_break": None,
        "players": [
            {
                "seat": s,
                "crossed": [c["terrain"] for c in state["rows"][s][: state["crossed"][s]]],
                "crossed_count": state["crossed"][s],
                "income": sum(c["income"] for c in state["rows"][s][: state["crossed"][s]]),
                "money": state["money"][s],
                "bonus": state["bonus"][s],
                "uncrossed": [c["terrain"] for c in state["rows"][s][state["crossed"][s] :]],
                "winner": s == winner,
            }
            for s in range(state["players"])
        ],
    }

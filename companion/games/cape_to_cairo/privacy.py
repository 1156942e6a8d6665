"""What From Cape to Cairo keeps private: a sealed bid, while bids are awaited. Only the phone that
made it sees it; not the host's device, not even acting for that seat or showing all.
"""

from __future__ import annotations

from companion.games.base import PHONE, Position, Privacy, copy_state


def _some_bids_in(state: dict) -> bool:
    bids = [b is not None for b in state["bids"]]
    return state["phase"] == "bidding" and 0 < sum(bids) < len(bids)


def _mutate(state: dict, seat: int) -> dict | None:
    if state["phase"] != "bidding" or state["bids"][seat] is None:
        return None
    changed = copy_state(state)
    money = state["money"][seat]
    changed["bids"][seat] = (state["bids"][seat] + 1) % (money + 1) if money else 0
    return changed if changed["bids"][seat] != state["bids"][seat] else None


def _private_action(state: dict, action: dict) -> dict | None:
    """A sealed bid that is not the last one (the last reveals them all), with another amount."""
    if action.get("type") != "bid" or sum(b is None for b in state["bids"]) < 2:
        return None
    money = state["money"][action["seat"]]
    other = next((a for a in (action["amount"] + 1, action["amount"] - 1) if 0 <= a <= money), None)
    return None if other is None else {**action, "amount": other}


PRIVACY = Privacy(
    what="sealed bids",
    positions=(
        Position("sealed bids, some in", _some_bids_in),
        Position("sealed bids of round 2", lambda s: _some_bids_in(s) and s["round"] >= 2),
    ),
    mutate=_mutate,
    may_see=lambda kind, viewer_seat, seat, reveal: kind == PHONE and viewer_seat == seat,
    private_action=_private_action,
    twin_kinds=("bid",),
)

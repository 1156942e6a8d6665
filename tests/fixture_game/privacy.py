"""What Pebbles keeps private: each seat's secret number, seen by its own phone (and the host's
"show all") until the end."""

from __future__ import annotations

from companion.games.base import HOST_DEVICE, PHONE, Position, Privacy, copy_state


def _mutate(state: dict, seat: int) -> dict | None:
    if state["secret"][seat] is None:
        return None
    changed = copy_state(state)
    changed["secret"][seat] = (state["secret"][seat] + 1) % 10
    return changed


def _may_see(kind: str, viewer_seat: int | None, seat: int, reveal: bool) -> bool:
    if kind == PHONE:
        return viewer_seat == seat
    return kind == HOST_DEVICE and (viewer_seat == seat or reveal)


def _private_action(state: dict, action: dict) -> dict | None:
    if action.get("type") != "secret":
        return None
    return {**action, "number": (action["number"] + 1) % 10}


PRIVACY = Privacy(
    what="secret numbers",
    positions=(Position("secrets written", lambda s: any(x is not None for x in s["secret"])),),
    mutate=_mutate,
    may_see=_may_see,
    private_action=_private_action,
    twin_kinds=("secret",),
)

"""What Serengeti and Don keep private: each seat's chips. Its own phone sees them, the host's
device when it acts for that seat or shows all; nobody else (the display never) until the end.
"""

from __future__ import annotations

from companion.games.base import HOST_DEVICE, PHONE, Position, Privacy, copy_state


def _mutate(state: dict, seat: int) -> dict:
    changed = copy_state(state)
    changed["chips"][seat] += 7
    return changed


def _may_see(kind: str, viewer_seat: int | None, seat: int, reveal: bool) -> bool:
    if kind == PHONE:
        return viewer_seat == seat
    return kind == HOST_DEVICE and (viewer_seat == seat or reveal)


PRIVACY = Privacy(
    what="chips",
    positions=(
        Position("an auction in round 1", lambda s: s["phase"] == "auction"),
        Position("an auction from round 4", lambda s: s["phase"] == "auction" and s["round"] >= 4),
    ),
    mutate=_mutate,
    may_see=_may_see,
)

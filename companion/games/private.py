"""What a game keeps private, declared in its package (<package>/privacy.py: PRIVACY): the
Privacy record and the Positions where private values exist. Re-exported by
companion.games.base, where a game imports it from."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


def _sees_nothing(kind: str, viewer_seat: int | None, seat: int, reveal: bool) -> bool:
    return False


@dataclass(frozen=True)
class Position:
    """A point of a game where private values exist, which random play reaches."""

    label: str  # in words, for the check's report
    reached: Callable[[dict], bool]
    #: an action that leads play toward it (given the state and the random source), or None
    steer: Callable[[dict, Any], dict | None] | None = None


@dataclass(frozen=True)
class Privacy:
    """What a game keeps private, declared in its package (<package>/privacy.py: PRIVACY).

    The contract test requires it of every installed game and checks it against the game's view();
    the privacy check (scripts/check_privacy.py) plays every page as every viewer with it; the
    exports withhold the values of secret actions that were undone. A game that keeps nothing
    private says so: Privacy("nothing: ...") with no positions.
    """

    what: str  # in words: whose what, seen by whom
    positions: tuple[Position, ...] = ()
    #: a copy of the state with one seat's private values changed (None: nothing to change there)
    mutate: Callable[[dict, int], dict | None] | None = None
    #: whether a viewer (PHONE/HOST_DEVICE/DISPLAY/STRANGER, its seat) sees a seat's private
    #: values, with the host's "show all" on or off
    may_see: Callable[[str, int | None, int, bool], bool] = _sees_nothing
    #: for twin tables: the same private action with another private value (None: not this one)
    private_action: Callable[[dict, dict], dict | None] | None = None
    twin_kinds: tuple[str, ...] = ()  # the private actions twin tables are played to

    @property
    def keeps_anything(self) -> bool:
        return bool(self.positions)

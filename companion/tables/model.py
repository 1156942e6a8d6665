"""What the table functions hand out and raise: a table, a seat, an event, and the errors a person
is shown; the hash every token is stored as."""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from typing import Any

from companion.games.base import N_, GameInfo, Msg

# seconds: a phone polling every 2 s that was seen this lately is "online" (a setting for tests)
ONLINE_WITHIN = float(os.environ.get("COMPANION_ONLINE_WITHIN", "15"))


class TableError(Exception):
    """A request the table cannot honour (unknown code, locked, seat taken...): a message to show."""

    def __init__(self, msgid: str, status: int = 400, **params: Any) -> None:
        self.msg = Msg.core(msgid, **params)
        self.status = status
        super().__init__(str(self.msg))


class KeyReused(TableError):
    """A submission key already applied came again with another content or from another sender
    (a page's script sends each entry with a key of its own): nothing was applied."""

    def __init__(self) -> None:
        super().__init__(
            N_(
                "This entry came with the key of an entry already saved, so it was not "
                "applied. Reload the page and enter it again."
            ),
            status=409,
        )


class Conflict(TableError):
    """The table changed since the form was rendered: nothing was applied."""

    def __init__(self) -> None:
        super().__init__(
            N_(
                "The table changed while you were entering this, so it was not applied. "
                "Here is the new state: check it and enter it again if it still applies."
            ),
            status=409,
        )


@dataclass(frozen=True)
class Table:
    """One row of the tables table, with its game's info."""

    id: int
    code: str
    game: GameInfo
    players: int
    options: dict
    locked: bool
    version: int
    reveal: bool = False  # the host's "show all" switch
    host_seen: float | None = None  # when the host's device last polled
    touched: float | None = None  # when the table last changed
    created: float | None = None
    join_secret: str = ""  # in the QR code's link: joins even past the wrong-code limit
    ended: float | None = None  # when the game's result appeared (None: still going)
    rematch_code: str | None = None  # the table of the rematch, once the host started one
    rematch_shift: int = 0  # 0: same seats in the rematch; 1: everyone one seat on
    timezone: str | None = None  # the table's IANA time zone (the host's browser, or the server's)
    location: str | None = None  # where it is played, as the host named it (None: the default)
    replay_all: bool = False  # the replay on the table display shows everything (after the end)
    settings: dict = field(default_factory=dict)  # table options beyond the game's (a time bank)
    ticks: tuple[str, ...] = ()  # the set-up guide's lines ticked at this table (shared)
    clock: dict | None = None  # the table clock as kept (companion.timing.Clock.to_json)


@dataclass(frozen=True)
class SeatRow:
    seat: int
    name: str
    taken: bool
    host_looked: bool = False  # the host has seen this seat's private view since its phone joined
    seen: float | None = None  # when this seat's phone last polled
    named: bool = False  # a person typed this name (not a default like "Player 2" or "Italy")

    def online(self, now: float) -> bool:
        """Whether the seat's phone was seen lately (it polls every few seconds while open)."""
        return self.taken and self.seen is not None and now - self.seen <= ONLINE_WITHIN


@dataclass(frozen=True)
class Event:
    seq: int
    seat: int | None
    host: bool
    kind: str
    action: dict
    lines: list[Msg]
    undone: bool
    seat_may_undo: int | None = 1  # None: stored before the flag existed (ask the game)
    created: float | None = None  # when it was stored (time per player, the JSON export)


def hash_token(token: str) -> str:
    """Tokens are stored hashed so that a copy of the database cannot impersonate a phone."""
    return hashlib.sha256(token.encode()).hexdigest()

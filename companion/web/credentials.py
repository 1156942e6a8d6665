"""A device's credentials at a table, read from its cookies: the names of the cookies, and the one
query that says whether a device is a member (the host's device, or a seat's phone). Shared by
the table's routes (companion.web.table.access), the unchanged poll answered before Flask
(fastpath.py) and the push streams (push.py), so that the three agree on who is at the table.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

from companion.tables import hash_token

NO_TOKEN = "-"  # hashes to something no token hashes to

# A member's row: the table, its version, whether the host cookie holds the host's token, and
# the seat the seat cookie holds (with when each was last seen, for presence).
MEMBER = (
    "SELECT t.id, t.version, t.host_hash = ? AS host, t.host_seen, s.seat, s.seen"
    " FROM tables t LEFT JOIN seats s ON s.table_id = t.id AND s.token_hash = ?"
    " WHERE t.code = ? AND (t.host_hash = ? OR s.seat IS NOT NULL)"
)

# The version a table's history last moved at, and its newest entry's writer: (log_version,
# seat, host, undone), the entry's columns None when the history is empty.
LAST_ENTRY = (
    "SELECT t.log_version, e.seat, e.host, e.undone FROM tables t"
    " LEFT JOIN events e ON e.table_id = t.id WHERE t.id = ? ORDER BY e.seq DESC LIMIT 1"
)


def seat_cookie(code: str) -> str:
    """The cookie that holds a phone's seat token at this table."""
    return f"seat_{code}"


def host_cookie(code: str) -> str:
    """The cookie that holds the host's token at this table."""
    return f"host_{code}"


def display_cookie(code: str) -> str:
    """The cookie of the table display that stays at the table (the device that handed the
    host role over): a display credential of its own, like a seat's token."""
    return f"display_{code}"


class Member(NamedTuple):
    """What a member's cookies hold at a table (host_hash, seat_hash: their tokens' hashes)."""

    table_id: int
    version: int
    host: bool
    host_seen: float | None
    seat: int | None
    seat_seen: float | None
    host_hash: str
    seat_hash: str


def member(db, cookies: Mapping[str, str], code: str) -> Member | None:
    """The device's membership at the table with this code, from its cookies; None if it is no
    member (or there is no such table)."""
    host = hash_token(cookies.get(host_cookie(code)) or NO_TOKEN)
    seat = hash_token(cookies.get(seat_cookie(code)) or NO_TOKEN)
    row = db.execute(MEMBER, [host, seat, code, host]).fetchone()
    if row is None:
        return None
    table_id, version, is_host, host_seen, seat_number, seat_seen = row
    return Member(table_id, version, bool(is_host), host_seen, seat_number, seat_seen, host, seat)

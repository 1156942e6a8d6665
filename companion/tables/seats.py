"""Seats: who holds which seat (a phone's token), joining, the host's token and its hand-over to
another device, and the presence each phone's polls leave."""

from __future__ import annotations

import json
import secrets
import time

from companion.games.base import N_, Msg
from companion.plays import HOLDING
from companion.store import Store
from companion.tables.event_log import append_event
from companion.tables.host import STAYED, is_display
from companion.tables.model import SeatRow, Table, TableError, hash_token
from companion.tables.writes import already_applied, bump, remember

SEEN_EVERY = 5  # seconds: at most one presence write per phone this often
HANDOVER_TTL = 600  # seconds a host hand-over link stays valid


def seats(db: Store, table: Table) -> list[SeatRow]:
    """The seats in order, with their names and whether a phone holds them."""
    return [
        SeatRow(
            seat=r["seat"],
            name=r["name"],
            taken=r["token_hash"] is not None,
            host_looked=bool(r["host_looked"]),
            seen=r["seen"],
            named=bool(r["named"]),
        )
        for r in db.query("SELECT * FROM seats WHERE table_id = ? ORDER BY seat", [table.id])
    ]


def join(db: Store, table: Table, seat: int, name: str | None = None) -> str:
    """Give a phone the seat (renaming it if a name is given); returns the phone's new token."""
    token = secrets.token_urlsafe(32)
    with db.write(table.id):
        (locked,) = db.execute("SELECT locked FROM tables WHERE id = ?", [table.id]).fetchone()
        if locked:
            raise TableError(
                N_(
                    "The host has locked this table: nobody new can join. Ask the "
                    "host to unlock it."
                ),
                status=403,
            )
        row = db.execute(
            "SELECT token_hash FROM seats WHERE table_id = ? AND seat = ?", [table.id, seat]
        ).fetchone()
        if row is None:
            raise TableError(N_("This table has no such seat."))
        if row[0] is not None:
            raise TableError(N_("Someone has just taken this seat. Pick another one."), status=409)
        if name:
            db.execute(
                "UPDATE seats SET name = ?, named = 1 WHERE table_id = ? AND seat = ?",
                [name, table.id, seat],
            )
        now = time.time()
        db.execute(
            # seen: the phone that just joined is at the table (not "away" until it first polls)
            "UPDATE seats SET token_hash = ?, joined = ?, seen = ?, host_looked = 0 "
            "WHERE table_id = ? AND seat = ?",
            [hash_token(token), now, now, table.id, seat],
        )
        _hold_in_record(db, table, seat, hash_token(token))
        bump(db, table)
    return token


def seat_for_token(db: Store, table: Table, token: str | None) -> int | None:
    """The seat this phone's token holds at this table, or None (no token, forged or freed)."""
    if not token:
        return None
    row = db.execute(
        "SELECT seat FROM seats WHERE table_id = ? AND token_hash = ?",
        [table.id, hash_token(token)],
    ).fetchone()
    return row[0] if row else None


def is_host(db: Store, table: Table, token: str | None) -> bool:
    """Whether this token is the table's host token (compared in constant time)."""
    if not token:
        return False
    row = db.execute("SELECT host_hash FROM tables WHERE id = ?", [table.id]).fetchone()
    return secrets.compare_digest(row[0], hash_token(token))


def free_seat(db: Store, table: Table, seat: int, *, key: str | None = None) -> None:
    """The host frees a seat (a player left or changed phones): its phone loses it."""
    sent = {"free": seat}
    with db.write(table.id):
        if already_applied(db, table, key, sent):
            return
        remember(db, table, key, sent)
        db.execute(
            "UPDATE seats SET token_hash = NULL, joined = NULL, host_looked = 0 "
            "WHERE table_id = ? AND seat = ?",
            [table.id, seat],
        )
        _hold_in_record(db, table, seat, None)
        bump(db, table)


def rename_seat(db: Store, table: Table, seat: int, name: str, *, key: str | None = None) -> None:
    """The host names a seat (e.g. a player without a phone)."""
    sent = {"rename": seat, "name": name}
    with db.write(table.id):
        if already_applied(db, table, key, sent):
            return
        remember(db, table, key, sent)
        db.execute(
            "UPDATE seats SET name = ?, named = 1 WHERE table_id = ? AND seat = ?",
            [name, table.id, seat],
        )
        bump(db, table)


# --- presence -----------------------------------------------------------------------------------


def mark_seen(
    db: Store,
    table_id: int,
    seat: int | None,
    seen: float | None,
    now: float | None = None,
) -> None:
    """Note that a seat's phone (seat None: the host's device) polled now, at most once every
    SEEN_EVERY seconds (the caller passes the time last stored, read with the poll's query)."""
    now = time.time() if now is None else now
    if seen is not None and now - seen < SEEN_EVERY:
        return
    if seat is None:
        db.execute("UPDATE tables SET host_seen = ? WHERE id = ?", [now, table_id])
    else:
        db.execute(
            "UPDATE seats SET seen = ? WHERE table_id = ? AND seat = ?", [now, table_id, seat]
        )
    db.commit()


# --- the host's hand-over ------------------------------------------------------------------------


def start_handover(db: Store, table: Table, now: float | None = None) -> str:
    """A one-time token that lets another device take over as host (for HANDOVER_TTL seconds)."""
    now = time.time() if now is None else now
    token = secrets.token_urlsafe(24)
    with db.write(table.id):
        db.execute(
            "UPDATE tables SET handover_hash = ?, handover_until = ? WHERE id = ?",
            [hash_token(token), now + HANDOVER_TTL, table.id],
        )
    return token


def claim_host(
    db: Store,
    table: Table,
    token: str | None,
    line: Msg,
    now: float | None = None,
    *,
    seat: int | None = None,
) -> str:
    """The device holding the hand-over token becomes the host: returns its new host token; the
    old host token (and the hand-over token) stop working. A trace line says so (seat: the seat
    the new host's device holds, if any, so the old one can be told who took over).

    The old host token becomes a display credential of the table (stored hashed, like every
    display link): the device that handed over may stay at the table as its display (see
    handed_over), and nothing else it could do before is left to it."""
    now = time.time() if now is None else now
    host_token = secrets.token_urlsafe(32)
    with db.write(table.id):
        row = db.execute(
            "SELECT handover_hash, handover_until, host_hash FROM tables WHERE id = ?", [table.id]
        ).fetchone()
        if (
            not token
            or row[0] is None
            or not secrets.compare_digest(row[0], hash_token(token))
            or (row[1] or 0) < now
        ):
            raise TableError(
                N_(
                    "This link to take over as host has expired or was already used. Ask the "
                    "host for a new one."
                ),
                status=403,
            )
        db.execute(
            "UPDATE tables SET host_hash = ?, handover_hash = NULL, handover_until = NULL,"
            " host_seen = NULL WHERE id = ?",
            [hash_token(host_token), table.id],
        )
        db.execute(
            "INSERT INTO displays (table_id, token_hash, created, origin) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (table_id, token_hash) DO NOTHING",
            [table.id, row[2], now, STAYED],
        )
        append_event(db, table, None, True, "trace", {"type": "handover", "to": seat}, [line])
        bump(db, table)
    return host_token


def handed_over(db: Store, table: Table, token: str | None) -> bool:
    """Whether a token is a host token this table had before a hand-over (its device handed the
    host role to another one and may stay as the table display)."""
    return bool(token) and not is_host(db, table, token) and is_display(db, table, token)


def new_host_seat(db: Store, table: Table) -> int | None:
    """The seat held by the device that took over as host at the latest hand-over (None: a
    device without a seat, or no hand-over yet)."""
    for (action,) in db.execute(
        "SELECT action FROM events WHERE table_id = ? AND kind = 'trace' ORDER BY seq DESC",
        [table.id],
    ).fetchall():
        found = json.loads(action)
        if found.get("type") == "handover":
            seat = found.get("to")
            return seat if isinstance(seat, int) and 0 <= seat < table.players else None
    return None


# --- who held a seat (the devices' lists of tables: companion.web.device.entitled) ----------------


def _hold_in_record(db: Store, table: Table, seat: int, token_hash: str | None) -> None:
    """A finished table's play remembers who holds each seat (plays.record_play): a seat freed
    or taken after the end changes it there too, so that once the table itself is purged the
    freed phone has no access to the play and the seat's next phone has."""
    row = db.execute("SELECT players FROM plays WHERE table_id = ?", [table.id]).fetchone()
    if row is None:
        return
    players = json.loads(row[0])
    for player in players:
        if player.get("seat") == seat:
            player["holder"] = None if token_hash is None else token_hash[:HOLDING]
    db.execute(
        "UPDATE plays SET players = ? WHERE table_id = ?",
        [json.dumps(players, ensure_ascii=False), table.id],
    )


def seat_holders(db: Store, codes: list[str]) -> dict[str, dict[int, str | None]]:
    """For each table code: seat -> the hash of the token that holds it now (None: free); for a
    code whose table is gone, what its play's record says (a seat the record has no word for is
    left out). Codes neither here nor recorded are left out."""
    found: dict[str, dict[int, str | None]] = {}
    for start in range(0, len(codes), 500):
        part = codes[start : start + 500]
        marks = ", ".join("?" * len(part))
        for code, seat, token_hash in db.execute(
            "SELECT t.code, s.seat, s.token_hash FROM tables t JOIN seats s ON s.table_id = t.id"
            f" WHERE t.code IN ({marks})",
            part,
        ).fetchall():
            found.setdefault(code, {})[seat] = token_hash
        gone = [code for code in part if code not in found]
        if gone:
            marks = ", ".join("?" * len(gone))
            for code, players in db.execute(
                f"SELECT code, players FROM plays WHERE code IN ({marks})", gone
            ).fetchall():
                recorded = found.setdefault(code, {})
                for player in json.loads(players):
                    if "holder" in player:
                        recorded[player["seat"]] = player["holder"]
    return found

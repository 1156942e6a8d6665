"""Table sessions: create a table, seats and their tokens, the event log, undo and versions.

The event log is the truth: a table's state is the replay of its events that are not undone, and
the snapshot in the tables row is a cache of that replay. Every write happens in one IMMEDIATE
transaction guarded by the version the writer saw, so of two phones acting at once exactly one
wins and the other is told the table changed.

Events are of three kinds: "game" (an action, replayed), "note" (a line of text a player adds)
and "trace" (a line the app writes about the host's device, e.g. that it showed everyone's
chips). A trace is not an action: undo skips it, and it makes no form or undo button stale.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from companion.games import GAMES
from companion.games.base import N_, GameInfo, Msg, RuleError, Seat, replay_actions
from companion.store import Store

# No 0/O, 1/I/L, U/V: easy to read aloud and to type. 31 letters ** 7 = 2.75e10 codes.
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTWXYZ"
CODE_LENGTH = 7
NOTE_MAX = 200
# seconds: a phone polling every 2 s that was seen this lately is "online" (a setting for tests)
ONLINE_WITHIN = float(os.environ.get("COMPANION_ONLINE_WITHIN", "15"))
SEEN_EVERY = 5  # seconds: at most one presence write per phone this often
HANDOVER_TTL = 600  # seconds a host hand-over link stays valid
KEY_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")
SNAPSHOT_EVERY = 32  # game events between two kept states (bounds the replay of an undo)
JOIN_FAILURE_LIMIT = 20  # wrong codes a device may type ...
ADDRESS_FAILURE_LIMIT = 100  # ... and all the devices behind one address together ...
JOIN_FAILURE_WINDOW = 600  # ... in this many seconds


class TableError(Exception):
    """A request the table cannot honour (unknown code, locked, seat taken...): a message to show."""

    def __init__(self, msgid: str, status: int = 400, **params: Any) -> None:
        self.msg = Msg.core(msgid, **params)
        self.status = status
        super().__init__(str(self.msg))


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


def normalize_code(text: str) -> str:
    """What a person typed as a table code, uppercased, without spaces or dashes."""
    return "".join(ch for ch in text.upper() if ch.isalnum())


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def _row_to_table(row: dict) -> Table:
    return Table(
        id=row["id"],
        code=row["code"],
        game=GAMES[row["game"]],
        players=row["players"],
        options=json.loads(row["options"]),
        locked=bool(row["locked"]),
        version=row["version"],
        reveal=bool(row["reveal"]),
        host_seen=row["host_seen"],
        touched=row["touched"],
        created=row["created"],
        join_secret=row["join_secret"] or "",
        ended=row["ended"],
        rematch_code=row["rematch_code"],
        rematch_shift=row["rematch_shift"] or 0,
        timezone=row["timezone"],
        location=row["location"],
        replay_all=bool(row["replay_all"]),
    )


# --- creating and finding tables -----------------------------------------------------------------


def create_table(
    db: Store,
    game_key: str,
    names: list[str],
    named: list[bool] | None = None,
    *,
    timezone: str | None = None,
    location: str | None = None,
) -> tuple[Table, str]:
    """Start a table for this game with one seat per name; returns it and the host's token.

    named tells which names a person typed (default names are not people, for the statistics);
    timezone (an IANA name) and location are what the exports date and place its play by.
    """
    game = GAMES.get(game_key)
    if game is None:
        raise TableError(N_("There is no game called %(game)s."), game=game_key)
    players = len(names)
    if not game.min_players <= players <= game.max_players:
        raise TableError(
            N_("%(game)s is for %(min)s to %(max)s players."),
            game=Msg.of_part(game.name, game.label),
            min=game.min_players,
            max=game.max_players,
        )
    options = dict(game.options)
    state = game.module.new(options, players)
    host_token = secrets.token_urlsafe(32)
    with db.write():
        code = new_code()
        while db.execute("SELECT 1 FROM tables WHERE code = ?", [code]).fetchone():
            code = new_code()
        now = time.time()
        (table_id,) = db.execute(
            "INSERT INTO tables (code, game, players, options, host_hash, locked, version, state,"
            " created, touched, join_secret, timezone, location)"
            " VALUES (?, ?, ?, ?, ?, 0, 1, ?, ?, ?, ?, ?, ?) RETURNING id",
            [
                code,
                game.key,
                players,
                json.dumps(options),
                hash_token(host_token),
                json.dumps(state),
                now,
                now,
                secrets.token_urlsafe(16),
                timezone,
                location,
            ],
        ).fetchone()
        for seat, name in enumerate(names):
            db.execute(
                "INSERT INTO seats (table_id, seat, name, named) VALUES (?, ?, ?, ?)",
                [table_id, seat, name, int(bool(named and named[seat]))],
            )
        _note_progress(db, table_id, game.module, state)
    return get_table(db, code), host_token


def find_table(db: Store, code: str) -> Table | None:
    """The table with this code (as typed: case and spaces do not matter), or None."""
    rows = list(db.query("SELECT * FROM tables WHERE code = ?", [normalize_code(code)]))
    return _row_to_table(rows[0]) if rows else None


def get_table(db: Store, code: str) -> Table:
    """The table with this code, or a TableError people can read."""
    table = find_table(db, code)
    if table is None:
        raise TableError(
            N_("There is no table with the code %(code)s. Check the code on the host's screen."),
            status=404,
            code=normalize_code(code)[:12],
        )
    return table


def current_version(db: Store, code: str) -> int | None:
    """The table's version alone: what a poll compares (one indexed lookup, no replay)."""
    row = db.execute("SELECT version FROM tables WHERE code = ?", [code]).fetchone()
    return row[0] if row else None


def state_of(db: Store, table: Table) -> dict:
    """The cached game state (the replay of the log)."""
    row = db.execute("SELECT state FROM tables WHERE id = ?", [table.id]).fetchone()
    return json.loads(row[0])


# --- join attempts ------------------------------------------------------------------------------


def _limit_keys(device: str | None, address: str) -> tuple[str, str]:
    """The two counts a wrong code adds to: the device's own (or, for a device without an id,
    its address's cookieless one), and the address's (every device behind it together)."""
    own = f"d:{device}" if device else f"n:{address}"
    return own, f"a:{address}"


def check_join_allowed(
    db: Store, device: str | None, address: str, now: float | None = None
) -> None:
    """Refuse a device that typed too many wrong codes lately (codes must not be guessable),
    or any device behind an address from which very many wrong codes came: one guesser on a
    shared Wi-Fi locks out only their own device, unless they keep changing it."""
    now = time.time() if now is None else now
    own, shared = _limit_keys(device, address)
    counts = dict(
        db.execute(
            "SELECT client, count(*) FROM join_failures WHERE client IN (?, ?) AND at > ?"
            " GROUP BY client",
            [own, shared, now - JOIN_FAILURE_WINDOW],
        ).fetchall()
    )
    if counts.get(own, 0) >= JOIN_FAILURE_LIMIT or counts.get(shared, 0) >= ADDRESS_FAILURE_LIMIT:
        raise TableError(
            N_(
                "Too many wrong table codes from this device. Wait ten minutes and "
                "try again, or scan the QR code on the host's screen."
            ),
            status=429,
        )


def count_unknown_code(
    db: Store, device: str | None, address: str, now: float | None = None
) -> None:
    """Record that a device asked for a code that does not exist; refuse it past the limit."""
    now = time.time() if now is None else now
    check_join_allowed(db, device, address, now)
    with db.write():
        db.execute("DELETE FROM join_failures WHERE at < ?", [now - JOIN_FAILURE_WINDOW])
        for key in _limit_keys(device, address):
            db.execute("INSERT INTO join_failures (client, at) VALUES (?, ?)", [key, now])


# --- seats ---------------------------------------------------------------------------------------


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
        _bump(db, table)
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
    with db.write(table.id):
        if _already_applied(db, table, key):
            return
        _remember(db, table, key)
        db.execute(
            "UPDATE seats SET token_hash = NULL, joined = NULL, host_looked = 0 "
            "WHERE table_id = ? AND seat = ?",
            [table.id, seat],
        )
        _bump(db, table)


def rename_seat(db: Store, table: Table, seat: int, name: str, *, key: str | None = None) -> None:
    """The host names a seat (e.g. a player without a phone)."""
    with db.write(table.id):
        if _already_applied(db, table, key):
            return
        _remember(db, table, key)
        db.execute(
            "UPDATE seats SET name = ?, named = 1 WHERE table_id = ? AND seat = ?",
            [name, table.id, seat],
        )
        _bump(db, table)


def set_locked(db: Store, table: Table, locked: bool, *, key: str | None = None) -> None:
    """Lock or unlock joining (nothing changes if it already is: a double tap acts once)."""
    with db.write(table.id):
        if _already_applied(db, table, key):
            return
        _remember(db, table, key)
        (now,) = db.execute("SELECT locked FROM tables WHERE id = ?", [table.id]).fetchone()
        if bool(now) == locked:
            return
        db.execute("UPDATE tables SET locked = ? WHERE id = ?", [int(locked), table.id])
        _bump(db, table)


def set_reveal(db: Store, table: Table, on: bool, line: Msg, *, key: str | None = None) -> None:
    """The host switches "show all" on or off; switching it on is written in the history.
    Nothing changes (and nothing is written) if it already is on or off: a double tap acts once."""
    with db.write(table.id):
        if _already_applied(db, table, key):
            return
        _remember(db, table, key)
        (now,) = db.execute("SELECT reveal FROM tables WHERE id = ?", [table.id]).fetchone()
        if bool(now) == on:
            return
        db.execute("UPDATE tables SET reveal = ? WHERE id = ?", [int(on), table.id])
        if on:
            _append(db, table, None, True, "trace", {"type": "show_all"}, [line])
        _bump(db, table)


def record_host_look(db: Store, table: Table, seat: int, line: Msg) -> bool:
    """The host's first look at the private view of a seat that has its own phone: one history
    line (a trace). Returns whether it was written (not for a seat without a phone, nor twice)."""
    with db.write(table.id):
        row = db.execute(
            "SELECT token_hash, host_looked FROM seats WHERE table_id = ? AND seat = ?",
            [table.id, seat],
        ).fetchone()
        if row is None or row[0] is None or row[1]:
            return False
        db.execute(
            "UPDATE seats SET host_looked = 1 WHERE table_id = ? AND seat = ?", [table.id, seat]
        )
        _append(db, table, None, True, "trace", {"type": "look", "at": seat}, [line])
        _bump(db, table)
    return True


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


# --- submissions: a resent tap is applied once ---------------------------------------------------


def valid_key(key: str | None) -> str | None:
    """A submission key as the phone made it (8 to 64 URL-safe characters), or None."""
    if key and 8 <= len(key) <= 64 and set(key) <= KEY_CHARS:
        return key
    return None


def _already_applied(db, table: Table, key: str | None) -> bool:
    if key is None:
        return False
    row = db.execute(
        "SELECT 1 FROM submissions WHERE table_id = ? AND key = ?", [table.id, key]
    ).fetchone()
    return row is not None


def _remember(db, table: Table, key: str | None) -> None:
    """Keep the key of what was applied (in the same transaction), for a day."""
    if key is None:
        return
    now = time.time()
    db.execute(
        "DELETE FROM submissions WHERE table_id = ? AND created < ?", [table.id, now - 86400]
    )
    db.execute(
        "INSERT INTO submissions (table_id, key, created) VALUES (?, ?, ?)", [table.id, key, now]
    )


# --- the host's hand-over and the table display --------------------------------------------------


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
            "INSERT INTO displays (table_id, token_hash, created) VALUES (?, ?, ?)"
            " ON CONFLICT (table_id, token_hash) DO NOTHING",
            [table.id, row[2], now],
        )
        _append(db, table, None, True, "trace", {"type": "handover", "to": seat}, [line])
        _bump(db, table)
    return host_token


def set_location(db: Store, table: Table, location: str | None) -> None:
    """Name where the table is played (None: the default), for its play and its exports; a play
    already recorded is renamed too."""
    with db.write(table.id):
        db.execute("UPDATE tables SET location = ? WHERE id = ?", [location, table.id])
        db.execute("UPDATE plays SET location = ? WHERE table_id = ?", [location, table.id])
        _bump(db, table)


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


def drop_display(db: Store, table: Table, token: str | None) -> None:
    """This display credential stops working (a device that handed over leaves the table)."""
    if not token or len(token) > 64:
        return
    with db.write(table.id):
        db.execute(
            "DELETE FROM displays WHERE table_id = ? AND token_hash = ?",
            [table.id, hash_token(token)],
        )


def start_rematch(db: Store, table: Table, new_code: str, shift: int) -> None:
    """Note the rematch that followed this table (every phone at it is shown the way there)."""
    with db.write(table.id):
        db.execute(
            "UPDATE tables SET rematch_code = ?, rematch_shift = ? WHERE id = ?",
            [new_code, shift, table.id],
        )
        _bump(db, table)


def started_at(db: Store, table: Table) -> float | None:
    """When play began: the first game action that is not undone (else the table's creation)."""
    row = db.execute(
        "SELECT min(created) FROM events WHERE table_id = ? AND kind = 'game' AND undone = 0",
        [table.id],
    ).fetchone()
    return row[0] if row and row[0] is not None else table.created


def game_states(db: Store, table: Table) -> list[tuple[Event, dict]]:
    """Every game action that is not undone, with the state right after it (a replay: for the
    summary's pictures of how the game went, once the game is over)."""
    module = table.game.module
    state = module.new(table.options, table.players)
    found = []
    for event in events(db, table):
        if event.kind == "game" and not event.undone:
            state = module.apply(state, event.action)
            found.append((event, state))
    return found


def state_after(db: Store, table: Table, seq: int) -> dict:
    """The state right after event seq (0: before the first event), undone events left out:
    from the nearest checkpoint, so any step of a long game costs at most SNAPSHOT_EVERY
    replayed events. The caller owns the state it gets."""
    return _state_before(db, table, seq + 1)


def set_replay_all(db: Store, table: Table, on: bool) -> None:
    """What the replay on the table display shows once the game is over: everything the game
    kept private (on) or the public view. Nothing the game or its forms depend on changes, so
    the table's version stays (the display reads the switch with each step it loads)."""
    with db.write(table.id):
        db.execute("UPDATE tables SET replay_all = ? WHERE id = ?", [int(on), table.id])


def new_join_secret(db: Store, table: Table) -> str:
    """A new secret for the QR code's join link; links with the old one lose their bypass."""
    secret = secrets.token_urlsafe(16)
    with db.write(table.id):
        db.execute("UPDATE tables SET join_secret = ? WHERE id = ?", [secret, table.id])
        _bump(db, table)
    return secret


def scanned(table: Table, secret: str | None) -> bool:
    """Whether a request carries the table's join secret (it came from the QR code)."""
    return (
        bool(secret)
        and bool(table.join_secret)
        # as bytes: compare_digest refuses str with non-ASCII characters (a typed-in link)
        and secrets.compare_digest(secret.encode(), table.join_secret.encode())
    )


def new_display_token(db: Store, table: Table) -> str:
    """A new link for the table display (a read-only screen everyone can see). The table's
    other display links keep working: a table may have several displays."""
    token = secrets.token_urlsafe(18)
    with db.write(table.id):
        _add_display(db, table, token)
    return token


def add_display(db: Store, table: Table, token: str) -> None:
    """Let one more display link (a token the caller made) show this table; adding the same
    token twice changes nothing (a display that follows a rematch twice)."""
    with db.write(table.id):
        _add_display(db, table, token)


def _add_display(db: Store, table: Table, token: str) -> None:
    db.execute(
        "INSERT INTO displays (table_id, token_hash, created) VALUES (?, ?, ?)"
        " ON CONFLICT (table_id, token_hash) DO NOTHING",
        [table.id, hash_token(token), time.time()],
    )


def is_display(db: Store, table: Table, token: str | None) -> bool:
    """Whether a token is one of this table's display links."""
    if not token or len(token) > 64:
        return False
    row = db.execute(
        "SELECT 1 FROM displays WHERE table_id = ? AND token_hash = ?",
        [table.id, hash_token(token)],
    ).fetchone()
    return row is not None


def _bump(db: Store, table: Table, *, state: bool = False, log: bool = False) -> int:
    """Move the table's version on (every poll and push stream sees it), marking what changed
    with it."""
    db.execute(
        "UPDATE tables SET version = version + 1, touched = ? WHERE id = ?", [time.time(), table.id]
    )
    version = db.execute("SELECT version FROM tables WHERE id = ?", [table.id]).fetchone()[0]
    if state:
        db.execute("UPDATE tables SET state_version = ? WHERE id = ?", [version, table.id])
    if log:
        db.execute("UPDATE tables SET log_version = ? WHERE id = ?", [version, table.id])
    db.announce(table.code, version)
    return version


# --- actions, notes, undo ------------------------------------------------------------------------


def _check_version(db: Store, table: Table, expected: int | None, column: str) -> None:
    """Refuse a form rendered at version `expected` if what it depends on changed since.

    column is "state_version" for game actions (the game state moved on) or "log_version" for
    undo (the history moved on); a join or a rename in between does not make a form stale.
    """
    changed = db.execute(f"SELECT {column} FROM tables WHERE id = ?", [table.id]).fetchone()[0]
    if expected is not None and expected < changed:
        raise Conflict()


def _append(
    db,
    table: Table,
    seat: int | None,
    host: bool,
    kind: str,
    action: dict,
    lines: list[Msg],
    seat_may_undo: bool = True,
) -> int:
    """Add an event at the end of the log; returns its seq."""
    seq = db.execute(
        "SELECT coalesce(max(seq), 0) + 1 FROM events WHERE table_id = ?", [table.id]
    ).fetchone()[0]
    db.execute(
        "INSERT INTO events (table_id, seq, seat, host, kind, action, lines, undone, created,"
        " seat_may_undo) VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, ?)",
        [
            table.id,
            seq,
            seat,
            int(host),
            kind,
            json.dumps(action),
            json.dumps([m.to_json() for m in lines]),
            time.time(),
            int(seat_may_undo),
        ],
    )
    return seq


def _checkpoint(db, table: Table, seq: int, state: dict) -> None:
    """Keep the state after event seq every SNAPSHOT_EVERY game events, so an undo replays at
    most that many events, however long the table's history (the log stays the truth)."""
    last = db.execute(
        "SELECT coalesce(max(seq), 0) FROM snapshots WHERE table_id = ?", [table.id]
    ).fetchone()[0]
    since = db.execute(
        "SELECT count(*) FROM events WHERE table_id = ? AND seq > ? AND kind = 'game'"
        " AND undone = 0",
        [table.id, last],
    ).fetchone()[0]
    if since >= SNAPSHOT_EVERY:
        db.execute(
            "INSERT INTO snapshots (table_id, seq, state) VALUES (?, ?, ?)",
            [table.id, seq, json.dumps(state)],
        )


def _mark_end(db, table: Table, state: dict) -> None:
    """The game is over when its result appears: note when (once); an undo that takes back
    the end takes back its record of play too. Also notes where the game stands and whom it
    waits for (what lists of tables show without reading the state)."""
    _note_progress(db, table.id, table.game.module, state)
    if table.game.module.result(state) is not None:
        db.execute(
            "UPDATE tables SET ended = coalesce(ended, ?) WHERE id = ?", [time.time(), table.id]
        )
    else:
        db.execute("UPDATE tables SET ended = NULL WHERE id = ?", [table.id])
        db.execute("DELETE FROM plays WHERE table_id = ?", [table.id])


def _note_progress(db, table_id: int, module: Any, state: dict) -> None:
    db.execute(
        "UPDATE tables SET progress = ?, turn = ? WHERE id = ?",
        [
            json.dumps(module.progress(state).to_json()),
            json.dumps(module.turn(state)),
            table_id,
        ],
    )


def _state_before(db, table: Table, seq: int) -> dict:
    """The state after every game event before seq that is not undone: the nearest checkpoint,
    then at most SNAPSHOT_EVERY events replayed."""
    module = table.game.module
    row = db.execute(
        "SELECT seq, state FROM snapshots WHERE table_id = ? AND seq < ? ORDER BY seq DESC LIMIT 1",
        [table.id, seq],
    ).fetchone()
    start, state = (row[0], json.loads(row[1])) if row else (0, None)
    if state is None:
        state = module.new(table.options, table.players)
    rows = db.execute(
        "SELECT action FROM events WHERE table_id = ? AND seq > ? AND seq < ? AND kind = 'game'"
        " AND undone = 0 ORDER BY seq",
        [table.id, start, seq],
    )
    return replay_actions(module, state, (json.loads(action) for (action,) in rows))


FollowUp = Callable[[dict, dict, RuleError], "dict | None"]


def act(
    db: Store,
    table: Table,
    action: dict,
    *,
    seat: int | None,
    host: bool,
    expected_version: int | None,
    by: int | None = None,
    follow_up: FollowUp | None = None,
    key: str | None = None,
) -> dict:
    """Apply one game action for a seat; returns the new state.

    by is the seat of the phone that entered it (None: the host's device): a public event a
    phone enters for the table or for another seat is written as that phone's (so it may undo
    it), and its history line says who entered it.

    Raises Conflict when the table moved on since expected_version, RuleError when the rules
    refuse the action. A refused action stores nothing, except what follow_up(state, action,
    error) asks for (e.g. a fine for an illegal bid): that action is applied in the same
    transaction, behind the same version check, so a double tap is fined once, not twice.

    A submission key (made by the phone) that was applied before makes this a resend: nothing
    is applied again and the current state is returned.
    """
    action = {**action, "seat": seat, "host": host}
    module = table.game.module
    refusal: RuleError | None = None
    with db.write(table.id):
        if _already_applied(db, table, key):
            return state_of(db, table)
        _check_version(db, table, expected_version, "state_version")
        before = state_of(db, table)
        try:
            after = module.apply(before, action)
        except RuleError as error:
            refusal = error
            extra = follow_up(before, action, error) if follow_up is not None else None
            if extra is None:
                raise
            extra = {**extra, "seat": seat, "host": host}
            try:
                after = module.apply(before, extra)
            except RuleError:
                raise error from None  # the follow-up does not apply now: the refusal stands
            action = extra
        _remember(db, table, key)
        lines = list(module.describe(before, action, after))
        about = module.concerns(before, action)
        if by is not None and about != by and lines:
            # "Борис turns up a card: 1 (entered by Кирилл)": the table sees who typed it
            lines[-1] = Msg.core(
                N_("%(line)s (entered by %(seat)s)"), line=lines[-1], seat=Seat(by)
            )
        # Decided once, here: may the acting seat take this back (not a revealed secret)?
        may = getattr(module, "seat_may_undo", None)
        seat_may = may(before, action, after) if may is not None else True
        writer = seat if seat is not None else by
        seq = _append(db, table, writer, host, "game", action, lines, seat_may)
        db.execute("UPDATE tables SET state = ? WHERE id = ?", [json.dumps(after), table.id])
        _checkpoint(db, table, seq, after)
        _mark_end(db, table, after)
        _bump(db, table, state=True, log=True)
    if refusal is not None:
        raise refusal
    return after


def add_note(
    db: Store,
    table: Table,
    text: str,
    *,
    seat: int | None,
    host: bool,
    key: str | None = None,
) -> None:
    """A line of free text in the history (no effect on the game), e.g. "Ben dropped a card"."""
    text = " ".join(text.split())[:NOTE_MAX]
    if not text:
        raise TableError(N_("Write something to add to the history."))
    # Notes are the core app's lines inside a game's history: read from the core catalogue.
    author = Seat(seat) if seat is not None else Msg.core(N_("Host"))
    line = Msg.core(N_("%(author)s: %(text)s"), author=author, text=text)
    with db.write(table.id):
        if _already_applied(db, table, key):
            return
        _remember(db, table, key)
        _append(db, table, seat, host, "note", {"type": "note", "text": text}, [line])
        _bump(db, table, log=True)


def _event(row: dict) -> Event:
    return Event(
        seq=row["seq"],
        seat=row["seat"],
        host=bool(row["host"]),
        kind=row["kind"],
        action=json.loads(row["action"]),
        lines=[Msg.from_json(m) for m in json.loads(row["lines"])],
        undone=bool(row["undone"]),
        seat_may_undo=row["seat_may_undo"],
        created=row["created"],
    )


def events(db: Store, table: Table) -> list[Event]:
    """The whole history, oldest first, undone events included (marked)."""
    return [
        _event(r)
        for r in db.query("SELECT * FROM events WHERE table_id = ? ORDER BY seq", [table.id])
    ]


def events_between(db: Store, table: Table, first: int, last: int) -> list[Event]:
    """The events whose seq is from first to last, oldest first."""
    return [
        _event(r)
        for r in db.query(
            "SELECT * FROM events WHERE table_id = ? AND seq BETWEEN ? AND ? ORDER BY seq",
            [table.id, first, last],
        )
    ]


def actions_of(db: Store, table: Table) -> list[tuple[int, str, bool, dict]]:
    """Every event's (seq, kind, undone, action), oldest first, without its history lines: what a
    walk through the whole log needs, at a fraction of the cost of events()."""
    return [
        (seq, kind, bool(undone), json.loads(action))
        for seq, kind, undone, action in db.execute(
            "SELECT seq, kind, undone, action FROM events WHERE table_id = ? ORDER BY seq",
            [table.id],
        ).fetchall()
    ]


def recent_events(db: Store, table: Table, limit: int) -> list[Event]:
    """The newest `limit` events, newest first: what a page shows (cost independent of the
    length of the history)."""
    return [
        _event(r)
        for r in db.query(
            "SELECT * FROM events WHERE table_id = ? ORDER BY seq DESC LIMIT ?", [table.id, limit]
        )
    ]


def count_events(db: Store, table: Table) -> int:
    """How many events the history holds."""
    return db.execute("SELECT count(*) FROM events WHERE table_id = ?", [table.id]).fetchone()[0]


def replay(table: Table, log: list[Event]) -> dict:
    """The state after the game events of the log that are not undone."""
    module = table.game.module
    state = module.new(table.options, table.players)
    return replay_actions(
        module, state, (e.action for e in log if e.kind == "game" and not e.undone)
    )


def last_undoable(db: Store, table: Table) -> Event | None:
    """The newest event that is not undone yet (traces are not actions: they are skipped)."""
    rows = list(
        db.query(
            "SELECT * FROM events WHERE table_id = ? AND undone = 0 AND kind != 'trace'"
            " ORDER BY seq DESC LIMIT 1",
            [table.id],
        )
    )
    return _event(rows[0]) if rows else None


def may_undo(db: Store, table: Table, *, seat: int | None, host: bool) -> Event | None:
    """The event this device may undo now, or None.

    The host may undo the last action. A seat may undo its own last action while nobody has acted
    since, unless the game said, when it was applied, that undoing it would take back a revealed
    secret (stored with the event, so this costs one indexed query).
    """
    event = last_undoable(db, table)
    if event is None or host:
        return event
    if seat is None or event.seat != seat:
        return None
    if event.kind == "game" and not _seat_may_undo(db, table, event):
        return None
    return event


def _seat_may_undo(db: Store, table: Table, event: Event) -> bool:
    if event.seat_may_undo is not None:
        return bool(event.seat_may_undo)
    # An event stored before the flag existed: ask the game, as it was asked then.
    may = getattr(table.game.module, "seat_may_undo", None)
    if may is None:
        return True
    before = _state_before(db, table, event.seq)
    return may(before, event.action, table.game.module.apply(before, event.action))


def undo(
    db: Store,
    table: Table,
    *,
    seat: int | None,
    host: bool,
    expected_version: int | None,
    key: str | None = None,
) -> Event | None:
    """Undo the last action (marked undone, kept in the history); the state goes back to the one
    before it (from the nearest checkpoint: the cost does not grow with the history). A resent
    undo (its key applied before) undoes nothing more and returns None."""
    with db.write(table.id):
        if _already_applied(db, table, key):
            return None
        _check_version(db, table, expected_version, "log_version")
        event = may_undo(db, table, seat=seat, host=host)
        if event is None:
            raise TableError(
                N_(
                    "There is nothing you may undo: a player may undo only their own "
                    "last action, and only while nobody has acted since. The host "
                    "can undo anything."
                ),
                status=403,
            )
        _remember(db, table, key)
        db.execute(
            "UPDATE events SET undone = 1 WHERE table_id = ? AND seq = ?", [table.id, event.seq]
        )
        if event.kind == "game":
            db.execute(
                "DELETE FROM snapshots WHERE table_id = ? AND seq >= ?", [table.id, event.seq]
            )
            state = _state_before(db, table, event.seq)
            db.execute("UPDATE tables SET state = ? WHERE id = ?", [json.dumps(state), table.id])
            _mark_end(db, table, state)
            _bump(db, table, state=True, log=True)
        else:  # a note: the game state does not change
            _bump(db, table, log=True)
    return event


__all__ = [
    "Conflict",
    "Event",
    "RuleError",
    "SeatRow",
    "Table",
    "TableError",
    "act",
    "add_note",
    "claim_host",
    "check_join_allowed",
    "count_events",
    "count_unknown_code",
    "create_table",
    "current_version",
    "actions_of",
    "events",
    "events_between",
    "find_table",
    "free_seat",
    "is_display",
    "add_display",
    "mark_seen",
    "new_display_token",
    "new_join_secret",
    "scanned",
    "start_rematch",
    "started_at",
    "game_states",
    "get_table",
    "is_host",
    "join",
    "may_undo",
    "normalize_code",
    "recent_events",
    "record_host_look",
    "rename_seat",
    "replay",
    "seat_for_token",
    "seats",
    "set_locked",
    "set_location",
    "set_replay_all",
    "set_reveal",
    "start_handover",
    "valid_key",
    "state_after",
    "state_of",
    "undo",
]

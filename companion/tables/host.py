"""The host's tools that are not about one seat: locking the table, "show all", the host's look at
a seat's private view, where the table is, the rematch, the replay's switch, a new join secret,
and the table display's links."""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Callable

from companion.games.base import Msg
from companion.store import Store
from companion.tables.clock import clock_of, keep
from companion.tables.event_log import append_event
from companion.tables.model import SeatRow, Table, hash_token
from companion.tables.writes import already_applied, bump, remember


def set_locked(db: Store, table: Table, locked: bool, *, key: str | None = None) -> None:
    """Lock or unlock joining (nothing changes if it already is: a double tap acts once)."""
    sent = {"lock": locked}
    with db.write(table.id):
        if already_applied(db, table, key, sent):
            return
        remember(db, table, key, sent)
        (now,) = db.execute("SELECT locked FROM tables WHERE id = ?", [table.id]).fetchone()
        if bool(now) == locked:
            return
        db.execute("UPDATE tables SET locked = ? WHERE id = ?", [int(locked), table.id])
        bump(db, table)


def set_reveal(db: Store, table: Table, on: bool, line: Msg, *, key: str | None = None) -> None:
    """The host switches "show all" on or off; switching it on is written in the history.
    Nothing changes (and nothing is written) if it already is on or off: a double tap acts once."""
    sent = {"reveal": on}
    with db.write(table.id):
        if already_applied(db, table, key, sent):
            return
        remember(db, table, key, sent)
        (now,) = db.execute("SELECT reveal FROM tables WHERE id = ?", [table.id]).fetchone()
        if bool(now) == on:
            return
        db.execute("UPDATE tables SET reveal = ? WHERE id = ?", [int(on), table.id])
        if on:
            append_event(db, table, None, True, "trace", {"type": "show_all"}, [line])
        bump(db, table)


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
        append_event(db, table, None, True, "trace", {"type": "look", "at": seat}, [line])
        bump(db, table)
    return True


def set_location(db: Store, table: Table, location: str | None) -> None:
    """Name where the table is played (None: the default), for its play and its exports; a play
    already recorded is renamed too."""
    with db.write(table.id):
        db.execute("UPDATE tables SET location = ? WHERE id = ?", [location, table.id])
        db.execute("UPDATE plays SET location = ? WHERE table_id = ?", [location, table.id])
        bump(db, table)


def rematch_seats(
    seat_rows: list[SeatRow], shift: int, default_name: Callable[[int], str]
) -> tuple[list[str], list[bool]]:
    """The names of a rematch's seats, and which were typed: each person moves `shift` seats on
    (0: the same seats) with the name they typed; a default name belongs to its seat, not to a
    person, so a seat whose person had one gets its own (default_name(seat))."""
    n = len(seat_rows)
    names, named = [""] * n, [False] * n
    for row in seat_rows:
        if row.named:
            names[(row.seat + shift) % n], named[(row.seat + shift) % n] = row.name, True
    for seat in range(n):
        if not named[seat]:
            names[seat] = default_name(seat)
    return names, named


def start_rematch(db: Store, table: Table, new_code: str, shift: int) -> None:
    """Note the rematch that followed this table (every phone at it is shown the way there)."""
    with db.write(table.id):
        db.execute(
            "UPDATE tables SET rematch_code = ?, rematch_shift = ? WHERE id = ?",
            [new_code, shift, table.id],
        )
        bump(db, table)


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
        bump(db, table)
    return secret


def new_display_token(db: Store, table: Table) -> str:
    """A new link for the table display (a read-only screen everyone can see). The table's
    other display links keep working: a table may have several displays."""
    token = secrets.token_urlsafe(18)
    with db.write(table.id):
        _add_display(db, table, token)
    return token


# Where a display credential comes from: one of the host's display links, or the host's own
# token of the device that handed the host role over and stayed at the table (it may enter
# what anyone at the table may enter; a link never enters anything).
LINK, STAYED = "link", "stayed"


def add_display(db: Store, table: Table, token: str, origin: str = LINK) -> None:
    """Let one more display (a token the caller made) show this table; adding the same token
    twice changes nothing (a display that follows a rematch twice). origin: LINK, or STAYED for
    the device that stayed at the table following the rematch."""
    with db.write(table.id):
        _add_display(db, table, token, origin)


def _add_display(db: Store, table: Table, token: str, origin: str = LINK) -> None:
    db.execute(
        "INSERT INTO displays (table_id, token_hash, created, origin) VALUES (?, ?, ?, ?)"
        " ON CONFLICT (table_id, token_hash) DO NOTHING",
        [table.id, hash_token(token), time.time(), origin],
    )


def display_origin(db: Store, table: Table, token: str | None) -> str | None:
    """Where this display credential comes from (LINK or STAYED), or None: not one of this
    table's."""
    if not token or len(token) > 64:
        return None
    row = db.execute(
        "SELECT origin FROM displays WHERE table_id = ? AND token_hash = ?",
        [table.id, hash_token(token)],
    ).fetchone()
    return None if row is None else (row[0] or LINK)


def is_display(db: Store, table: Table, token: str | None) -> bool:
    """Whether a token is one of this table's display credentials."""
    return display_origin(db, table, token) is not None


def drop_display(db: Store, table: Table, token: str | None) -> None:
    """This display credential stops working (a device that handed over leaves the table)."""
    if not token or len(token) > 64:
        return
    with db.write(table.id):
        db.execute(
            "DELETE FROM displays WHERE table_id = ? AND token_hash = ?",
            [table.id, hash_token(token)],
        )
        bump(db, table)  # its open streams ask again and end


def set_paused(
    db: Store, table: Table, paused: bool, line: Msg, *, when: float, key: str | None = None
) -> bool:
    """The host pauses the clock (a break) or resumes it: a trace in the history (not undone, no
    form made stale). A second pause (or resume) in a row changes nothing. Returns whether it
    did."""
    sent = {"pause": paused}
    with db.write(table.id):
        if already_applied(db, table, key, sent):
            return False
        remember(db, table, key, sent)
        clock = clock_of(db, table)
        if (clock.paused is not None) == paused:
            return False
        if paused:
            clock.pause(when)
        else:
            clock.resume(when)
        kind = "pause" if paused else "resume"
        append_event(db, table, None, True, "trace", {"type": kind}, [line], when=when)
        keep(db, table, clock)
        bump(db, table)
    return True


def ask_pause(db: Store, table: Table, seat: int, line: Msg, *, when: float) -> None:
    """A seat asks the host for a break: a line in the history, which the host's device shows
    beside its pause button (the host grants it by pausing)."""
    with db.write(table.id):
        clock = clock_of(db, table)
        clock.ask(seat)
        append_event(db, table, seat, False, "trace", {"type": "pause_asked"}, [line], when=when)
        keep(db, table, clock)
        bump(db, table)


def set_tick(db: Store, table: Table, key: str, on: bool) -> None:
    """Tick (or untick) a line of the set-up guide, for every device of the table at once: not a
    game event (no history line, nothing in the exports or the replay), and like a join it makes
    no form stale (only the table's version moves, so the pages fetch their region)."""
    with db.write(table.id):
        (stored,) = db.execute("SELECT ticks FROM tables WHERE id = ?", [table.id]).fetchone()
        ticks = [k for k in json.loads(stored or "[]") if k != key]
        if on:
            ticks.append(key)
        db.execute("UPDATE tables SET ticks = ? WHERE id = ?", [json.dumps(ticks), table.id])
        bump(db, table)


def has_moves(db: Store, table: Table) -> bool:
    """Whether a game action stands at the table (the set-up guide shows until the first)."""
    row = db.execute(
        "SELECT 1 FROM events WHERE table_id = ? AND kind = 'game' AND undone = 0 LIMIT 1",
        [table.id],
    ).fetchone()
    return row is not None


def pick_start(db: Store, table: Table, seat: int, line: Msg) -> None:
    """The table's random pick of a start player (the seat drawn is the caller's: the web layer
    draws it), before the first move: a trace in the history (not undone, no form made stale).
    The game says how it applies (Rules.start_pick): "option" sets the game's "start" option
    (the game is new, so its state is new() again with it); "first-seat" swaps the picked
    person into seat 1, with their name and phone."""
    how = table.game.rules.start_pick
    with db.write(table.id):
        if has_moves(db, table) or not how or not 0 <= seat < table.players:
            return
        if how == "option":
            options = {**table.options, "start": seat}
            state = table.game.rules.new(options, table.players)
            db.execute(
                "UPDATE tables SET options = ?, state = ? WHERE id = ?",
                [json.dumps(options), json.dumps(state), table.id],
            )
        elif how == "first-seat" and seat != 0:
            _swap_seats(db, table, 0, seat)
        append_event(db, table, None, True, "trace", {"type": "start_pick", "seat": seat}, [line])
        bump(db, table)


SEAT_COLUMNS = ("name", "token_hash", "joined", "host_looked", "seen", "named")


def _swap_seats(db: Store, table: Table, one: int, other: int) -> None:
    rows = {
        seat: row
        for seat, *row in db.execute(
            f"SELECT seat, {', '.join(SEAT_COLUMNS)} FROM seats WHERE table_id = ? AND seat IN (?, ?)",
            [table.id, one, other],
        ).fetchall()
    }
    for seat, source in ((one, other), (other, one)):
        db.execute(
            f"UPDATE seats SET {', '.join(f'{c} = ?' for c in SEAT_COLUMNS)}"
            " WHERE table_id = ? AND seat = ?",
            [*rows[source], table.id, seat],
        )


def begin_clock(db: Store, table: Table, line: Msg, *, when: float) -> None:
    """The host says the table is set up: the clock starts for the seats the game waits for (the
    start player's first turn counts). A trace; nothing once the clock runs."""
    with db.write(table.id):
        clock = clock_of(db, table)
        if clock.since is not None:
            return
        state = json.loads(
            db.execute("SELECT state FROM tables WHERE id = ?", [table.id]).fetchone()[0]
        )
        clock.begin(when, table.game.rules.turn(state))
        append_event(db, table, None, True, "trace", {"type": "clock_begin"}, [line], when=when)
        keep(db, table, clock)
        bump(db, table)

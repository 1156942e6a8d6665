"""The event log: appending game actions and notes, undo, and the replay of events into states.

The event log is the truth: a table's state is the replay of its events that are not undone, and
the snapshot in the tables row is a cache of that replay. Every write happens in one IMMEDIATE
transaction guarded by the version the writer saw, so of two phones acting at once exactly one
wins and the other is told the table changed.

Events are of three kinds: "game" (an action, replayed), "note" (a line of text a player adds)
and "trace" (a line the app writes about the host's device, e.g. that it showed everyone's
chips). A trace is not an action: undo skips it, and it makes no form or undo button stale.
"""

from __future__ import annotations

import functools
import json
import time

from companion.games.base import N_, Msg, RuleError, Rules, Seat, replay_actions
from companion.store import Store
from companion.tables import clock
from companion.tables.model import Conflict, Event, Table, TableError
from companion.tables.writes import already_applied, bump, remember

NOTE_MAX = 200
SNAPSHOT_EVERY = 32  # game events between two kept states (bounds the replay of an undo)


def state_of(db: Store, table: Table) -> dict:
    """The cached game state (the replay of the log)."""
    row = db.execute("SELECT state FROM tables WHERE id = ?", [table.id]).fetchone()
    return json.loads(row[0])


def _check_version(db: Store, table: Table, expected: int | None, column: str) -> None:
    """Refuse a form rendered at version `expected` if what it depends on changed since.

    column is "state_version" for game actions (the game state moved on) or "log_version" for
    undo (the history moved on); a join or a rename in between does not make a form stale.
    """
    changed = db.execute(f"SELECT {column} FROM tables WHERE id = ?", [table.id]).fetchone()[0]
    if expected is not None and expected < changed:
        raise Conflict()


def append_event(
    db: Store,
    table: Table,
    seat: int | None,
    host: bool,
    kind: str,
    action: dict,
    lines: list[Msg],
    seat_may_undo: bool = True,
    when: float | None = None,
) -> int:
    """Add an event at the end of the log (stored at `when`, default now); returns its seq."""
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
            time.time() if when is None else when,
            int(seat_may_undo),
        ],
    )
    return seq


def _checkpoint(db: Store, table: Table, seq: int, state: dict) -> None:
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


def _mark_end(db: Store, table: Table, state: dict) -> None:
    """The game is over when its result appears: note when (once); an undo that takes back
    the end takes back its record of play too. Also notes where the game stands and whom it
    waits for (what lists of tables show without reading the state)."""
    note_progress(db, table.id, table.game.rules, state)
    if table.game.rules.result(state) is not None:
        db.execute(
            "UPDATE tables SET ended = coalesce(ended, ?) WHERE id = ?", [time.time(), table.id]
        )
    else:
        db.execute("UPDATE tables SET ended = NULL WHERE id = ?", [table.id])
        db.execute("DELETE FROM plays WHERE table_id = ?", [table.id])


def note_progress(db: Store, table_id: int, module: Rules, state: dict) -> None:
    db.execute(
        "UPDATE tables SET progress = ?, turn = ? WHERE id = ?",
        [
            json.dumps(module.progress(state).to_json()),
            json.dumps(module.turn(state)),
            table_id,
        ],
    )


def _state_before(db: Store, table: Table, seq: int) -> dict:
    """The state after every game event before seq that is not undone: the nearest checkpoint,
    then at most SNAPSHOT_EVERY events replayed."""
    module = table.game.rules
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


def act(
    db: Store,
    table: Table,
    action: dict,
    *,
    seat: int | None,
    host: bool,
    expected_version: int | None,
    by: int | None = None,
    key: str | None = None,
) -> dict:
    """Apply one game action for a seat; returns the new state.

    by is the seat of the phone that entered it (None: the host's device): a public event a
    phone enters for the table or for another seat is written as that phone's (so it may undo
    it), and its history line says who entered it.

    Raises Conflict when the table moved on since expected_version, RuleError when the rules
    refuse the action. A refused action stores nothing, except what the game's
    follow_up(state, action, error) asks for (e.g. a fine for an illegal bid): that action is applied in the same
    transaction, behind the same version check, so a double tap is fined once, not twice.

    A submission key (made by the phone) that was applied before makes this a resend: nothing
    is applied again and the current state is returned.
    """
    action = {**action, "seat": seat, "host": host}
    sent = {"act": action}  # what the key is bound to: the action as sent (not a follow-up)
    module = table.game.rules
    refusal: RuleError | None = None
    with db.write(table.id):
        if already_applied(db, table, key, sent):
            return state_of(db, table)
        _check_version(db, table, expected_version, "state_version")
        before = state_of(db, table)
        try:
            after = module.apply(before, action)
        except RuleError as error:
            refusal = error
            extra = module.follow_up(before, action, error)
            if extra is None:
                raise
            extra = {**extra, "seat": seat, "host": host}
            try:
                after = module.apply(before, extra)
            except RuleError:
                raise error from None  # the follow-up does not apply now: the refusal stands
            action = extra
        remember(db, table, key, sent)
        lines = list(module.describe(before, action, after))
        about = module.concerns(before, action)
        if by is not None and about != by and lines:
            # "Борис turns up a card: 1 (entered by Кирилл)": the table sees who typed it
            lines[-1] = Msg.core(
                N_("%(line)s (entered by %(seat)s)"), line=lines[-1], seat=Seat(by)
            )
        # Decided once, here: may the acting seat take this back (not a revealed secret)?
        seat_may = module.seat_may_undo(before, action, after)
        writer = seat if seat is not None else by
        when = time.time()
        seq = append_event(db, table, writer, host, "game", action, lines, seat_may, when)
        clock.tick(db, table, when, after)
        db.execute("UPDATE tables SET state = ? WHERE id = ?", [json.dumps(after), table.id])
        _checkpoint(db, table, seq, after)
        _mark_end(db, table, after)
        bump(db, table, state=True, log=True)
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
    sent = {"note": text, "seat": seat, "host": host}
    with db.write(table.id):
        if already_applied(db, table, key, sent):
            return
        remember(db, table, key, sent)
        append_event(db, table, seat, host, "note", {"type": "note", "text": text}, [line])
        bump(db, table, log=True)


@functools.lru_cache(maxsize=4096)
def _lines(stored: str) -> tuple[Msg, ...]:
    """An event's lines as stored, decoded once per process: a row's lines are never written
    again (an undo marks the event), and a table's newest lines are read for every viewer at
    every move (a tenth of a live region's time was decoding them)."""
    return tuple(Msg.from_json(m) for m in json.loads(stored))


def _event(row: dict) -> Event:
    return Event(
        seq=row["seq"],
        seat=row["seat"],
        host=bool(row["host"]),
        kind=row["kind"],
        action=json.loads(row["action"]),
        lines=list(_lines(row["lines"])),
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
    module = table.game.rules
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
    before = _state_before(db, table, event.seq)
    rules = table.game.rules
    return rules.seat_may_undo(before, event.action, rules.apply(before, event.action))


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
    sent = {"undo": True, "seat": seat, "host": host}
    with db.write(table.id):
        if already_applied(db, table, key, sent):
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
        remember(db, table, key, sent)
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
            clock.keep(db, table, clock.rebuild(db, table))  # the wait runs on, as if not taken
            bump(db, table, state=True, log=True)
        else:  # a note: the game state does not change
            bump(db, table, log=True)
    return event


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
    module = table.game.rules
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

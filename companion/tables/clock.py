"""A table's clock in the store: kept with every action (tables.clock, JSON), so a page reads it
without replaying the game; rebuilt from the log after an undo, and for a table stored before the
clock existed. The arithmetic is companion/timing.py's (pure); pauses and requests for a break
are traces in the log (tables.host: set_paused, ask_pause), kept in the clock too.
"""

from __future__ import annotations

import json

from companion.store import Store
from companion.tables.model import Table
from companion.timing import Bank, Clock, Step, replay


def bank_of(table: Table) -> Bank | None:
    """The time bank the table's settings ask for (None: the clock is advisory only)."""
    return Bank.from_settings(table.settings)


def steps_of(db: Store, table: Table) -> list[Step]:
    """The log as the clock reads it: each action that stands, with the seats the game waits for
    after it (one replay of the game, in place), its start, each pause and resume, and each
    request for a break."""
    rules = table.game.rules
    state = rules.new(table.options, table.players)
    steps: list[Step] = []
    for kind, undone, action, created, seat in db.execute(
        "SELECT kind, undone, action, created, seat FROM events WHERE table_id = ? ORDER BY seq",
        [table.id],
    ).fetchall():
        found = json.loads(action)
        if kind == "game" and not undone:
            state = rules.moves.apply(state, found, copy=False)
            steps.append(("act", created or 0.0, rules.turn(state)))
        elif kind == "trace" and found.get("type") in ("pause", "resume"):
            steps.append((found["type"], created or 0.0, ()))
        elif kind == "trace" and found.get("type") == "clock_begin":
            steps.append(("begin", created or 0.0, rules.turn(state)))
        elif kind == "trace" and found.get("type") == "pause_asked" and seat is not None:
            steps.append(("ask", created or 0.0, (seat,)))
    return steps


def rebuild(db: Store, table: Table) -> Clock:
    """The clock worked out from the whole log."""
    return replay(steps_of(db, table), table.players, bank_of(table))


def clock_shown(db: Store, table: Table) -> Clock:
    """The clock a page shows: the one the table's row held when it was read (so a page costs no
    query for it), or, for a table from before the clock, worked out from the log."""
    if table.clock is None:
        return rebuild(db, table)
    return Clock.from_json(table.clock)


def clock_of(db: Store, table: Table) -> Clock:
    """The table's clock as kept now, read inside a write (worked out from the log once, for a
    table from before it)."""
    row = db.execute("SELECT clock FROM tables WHERE id = ?", [table.id]).fetchone()
    if row is None or row[0] is None:
        return rebuild(db, table)
    return Clock.from_json(json.loads(row[0]))


def keep(db: Store, table: Table, clock: Clock) -> None:
    db.execute("UPDATE tables SET clock = ? WHERE id = ?", [json.dumps(clock.to_json()), table.id])


def tick(db: Store, table: Table, when: float, after: dict) -> None:
    """An action stood at `when` (inside its write): the clock moves on to the seats the game
    waits for after it."""
    clock = clock_of(db, table)
    clock.tick(when, table.game.rules.turn(after), bank_of(table))
    keep(db, table, clock)

"""The database: opening it and migrating its schema; SQLite here, PostgreSQL in pg.py.

COMPANION_DATABASE is a file path (SQLite, the default: nothing to install) or a postgresql://
URL; connect() and connections() choose the backend from it, and both hand out a Store
(companion/store.py), so nothing else in the app knows which one it runs on.

SQLite keeps the schema version in PRAGMA user_version; each migration runs once, in order, so a
file made by an older release is brought up to date on start and never rebuilt.
"""

from __future__ import annotations

import functools
import json
import secrets
import sqlite3
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import sqlite_utils

from companion.store import PostgresStore, SQLiteStore, Store, is_postgres_url


def _create_tables(db: sqlite_utils.Database) -> None:
    db.table("tables").create(
        {
            "id": int,
            "code": str,  # what people type and what the QR code carries
            "game": str,  # key in companion.games.base.GAMES
            "players": int,
            "options": str,  # JSON, passed to the game's new()
            "host_hash": str,  # sha256 of the host's token
            "locked": int,  # 1: no new phones may join
            "version": int,  # bumped by every change; polls compare it
            "state": str,  # JSON snapshot = replay of the events that are not undone
            "created": float,
        },
        pk="id",
        not_null={"code", "game", "players", "host_hash", "version", "state"},
        defaults={"locked": 0, "version": 0, "options": "{}"},
    )
    db.table("tables").create_index(["code"], unique=True)
    db.table("seats").create(
        {"table_id": int, "seat": int, "name": str, "token_hash": str, "joined": float},
        pk=("table_id", "seat"),
        foreign_keys=[("table_id", "tables", "id")],
        not_null={"name"},
    )
    db.table("seats").create_index(["token_hash"])
    db.table("events").create(
        {
            "id": int,
            "table_id": int,
            "seq": int,  # 1, 2, 3... per table
            "seat": int,  # the seat the action was for (None: the whole table)
            "host": int,  # 1 when the host's device sent it
            "kind": str,  # "game" (replayed), "note" or "trace" (history only: tables.event_log)
            "action": str,  # JSON
            "lines": str,  # JSON list of Msg.to_json(): the history text
            "undone": int,  # 1 once undone; kept so the history can strike it through
            "created": float,
        },
        pk="id",
        foreign_keys=[("table_id", "tables", "id")],
        not_null={"table_id", "seq", "kind", "action", "lines"},
        defaults={"host": 0, "undone": 0},
    )
    db.table("events").create_index(["table_id", "seq"], unique=True)
    db.table("join_failures").create({"client": str, "at": float})
    db.table("join_failures").create_index(["client", "at"])


def _add_change_versions(db: sqlite_utils.Database) -> None:
    # The table's version moves on every change, joins and renames included. A form is stale only
    # if the game moved on since it was rendered (state_version: last action or undo), and an undo
    # button only if the history did (log_version: last event added or undone).
    db.table("tables").add_column("state_version", int, not_null_default=0)
    db.table("tables").add_column("log_version", int, not_null_default=0)


def _add_host_traces(db: sqlite_utils.Database) -> None:
    # The host's "show all" is stored with the table (a POST switch, not a URL argument), and a
    # seat remembers whether the host has looked at its private view since its phone joined, so
    # that both are written once in the history as a "trace" event (not an action: never undone).
    db.table("tables").add_column("reveal", int, not_null_default=0)
    db.table("seats").add_column("host_looked", int, not_null_default=0)


def _add_undo_flags_and_snapshots(db: sqlite_utils.Database) -> None:
    # Whether the acting seat may take an event back is decided once, when it is applied (NULL
    # for older events: asked again on demand). Snapshots keep the state every few game events,
    # so an undo replays a few events instead of the whole log.
    db.table("events").add_column("seat_may_undo", int)
    db.table("snapshots").create(
        {"table_id": int, "seq": int, "state": str},
        pk=("table_id", "seq"),
        foreign_keys=[("table_id", "tables", "id")],
        not_null={"state"},
    )


def _add_live_table(db: sqlite_utils.Database) -> None:
    # Presence (when each phone and the host were last seen), the host's hand-over link and the
    # table display's link (both stored hashed), the time of the last change, and the keys of
    # the submissions already applied (a resent tap is applied once).
    db.table("seats").add_column("seen", float)
    db.table("tables").add_column("host_seen", float)
    db.table("tables").add_column("handover_hash", str)
    db.table("tables").add_column("handover_until", float)
    db.table("tables").add_column("display_hash", str)
    db.table("tables").add_column("touched", float)
    db.execute("UPDATE tables SET touched = created")
    db.table("submissions").create(
        {"table_id": int, "key": str, "created": float},
        pk=("table_id", "key"),
        foreign_keys=[("table_id", "tables", "id")],
    )


def _add_join_secret(db: sqlite_utils.Database) -> None:
    # The QR code's link carries a secret of its own, so that a phone that scans it can join even
    # when its address has typed too many wrong codes (the host can make a new one).
    db.table("tables").add_column("join_secret", str)
    for (table_id,) in db.execute("SELECT id FROM tables").fetchall():
        db.execute(
            "UPDATE tables SET join_secret = ? WHERE id = ?", [secrets.token_urlsafe(16), table_id]
        )


def _add_after_the_game(db: sqlite_utils.Database) -> None:
    # When the game ended (its result appeared), the rematch it led to, whether a seat's name was
    # typed by a person (default names are stored translated: they are no person), and the
    # record of plays: what /plays and /stats need, kept when old tables are purged.
    db.table("tables").add_column("ended", float)
    db.table("tables").add_column("rematch_code", str)
    db.table("tables").add_column("rematch_shift", int)
    db.table("seats").add_column("named", int, not_null_default=0)
    db.table("plays").create(
        {
            "table_id": int,
            "code": str,
            "game": str,
            "started": float,
            "ended": float,
            "players": str,
        },  # players: JSON list of {seat, name, named, score, rank, winner}
        pk="table_id",
        not_null={"code", "game", "ended", "players"},
    )
    db.table("plays").create_index(["ended"])


def _add_displays(db: sqlite_utils.Database) -> None:
    # The table display's links, one row each (stored hashed): a rematch gives the display that
    # follows it a link of its own at the new table. The old single column is copied over.
    db.table("displays").create(
        {"table_id": int, "token_hash": str, "created": float},
        pk=("table_id", "token_hash"),
        foreign_keys=[("table_id", "tables", "id")],
    )
    db.execute(
        "INSERT INTO displays (table_id, token_hash, created) SELECT id, display_hash, touched"
        " FROM tables WHERE display_hash IS NOT NULL"
    )


def _add_progress(db: sqlite_utils.Database) -> None:
    # Where each table's game stands (the game's progress line, a Msg as JSON) and the seats it
    # waits for (JSON): what a list of tables shows ("Round 4 of 15 · your turn") without
    # reading any game state. Tables of before get them when they next change.
    db.table("tables").add_column("progress", str)
    db.table("tables").add_column("turn", str)


def _add_take_home(db: sqlite_utils.Database) -> None:
    # What the exports need once a table is gone (BG Stats, the CSV, the record's pages): the
    # table's time zone (the host's browser sends it; a server setting overrides) and the place
    # the host names; a play keeps the table's creation (its stable id in BG Stats), the start
    # seat, the options and the variant played (BG Stats' "board"), the zone and the place, the
    # score table's row labels and the tie-break in words. Each player's part of the breakdown
    # and thinking time go into the players JSON. A play written before has score_rows NULL: it
    # is completed from its table while the table exists (companion.records).
    db.table("tables").add_column("timezone", str)
    db.table("tables").add_column("location", str)
    for name, kind in (
        ("created", float),
        ("start_seat", int),
        ("options", str),
        ("board", str),
        ("timezone", str),
        ("location", str),
        ("score_rows", str),
        ("decided_by", str),
    ):
        db.table("plays").add_column(name, kind)


def _add_replay_switch(db: sqlite_utils.Database) -> None:
    # What the replay on the table display shows once the game is over: the public view (0) or
    # everything the game kept private (1), switched from a phone at the table.
    db.table("tables").add_column("replay_all", int, not_null_default=0)


# A display row made at a hand-over (the old host's token) was inserted with the hand-over's
# trace event, in the same moment: how rows of before origins were kept are told apart.
STAYED_DISPLAYS = """
UPDATE displays SET origin = CASE WHEN EXISTS (
    SELECT 1 FROM events e WHERE e.table_id = displays.table_id AND e.kind = 'trace'
    AND e.action LIKE '%"handover"%' AND abs(e.created - displays.created) < 1
) THEN 'stayed' ELSE 'link' END
"""


def _add_bound_keys_and_display_origins(db: sqlite_utils.Database) -> None:
    # A submission key is bound to what it sent (its digest): the same key with another entry
    # is refused, not dropped. A display row says where it comes from: a display link, or the
    # device that handed the host role over and stayed (only that one enters public events).
    db.table("submissions").add_column("digest", str)
    db.table("displays").add_column("origin", str)
    db.execute(STAYED_DISPLAYS)
    _mark_old_ends(db)
    _mark_typed_names(db)


def _mark_old_ends(db: sqlite_utils.Database) -> None:
    # Games that ended before _add_after_the_game (schema 7) added `ended` kept it empty: their
    # summary, replay and exports took them for unfinished, and the record of plays never got
    # them. Their end is the time of their last game event that stands.
    from companion.games import GAMES

    rows = db.execute(
        "SELECT id, game, state, touched, created FROM tables WHERE ended IS NULL"
    ).fetchall()
    for table_id, game, state, touched, created in rows:
        info = GAMES.get(game)
        if info is None:
            continue
        try:
            over = info.rules.result(json.loads(state)) is not None
        except Exception:  # a state today's rules cannot read: left as it is
            continue
        if not over:
            continue
        (last,) = db.execute(
            "SELECT max(created) FROM events WHERE table_id = ? AND kind = 'game' AND undone = 0",
            [table_id],
        ).fetchone()
        db.execute(
            "UPDATE tables SET ended = ? WHERE id = ?", [last or touched or created, table_id]
        )


def _mark_typed_names(db: sqlite_utils.Database) -> None:
    # _add_after_the_game (schema 7) added seats.named as 0 for every seat: the names hosts had
    # typed before were taken for default names ("Player 2", "Italy"), so those people were
    # missing from the player pages and statistics, nameless in BG Stats and renamed by a
    # rematch. A name is a person's unless it is one of its seat's default names in one of the
    # app's languages (those defaults have not changed since the first release). From schema 7
    # on, named = 0 holds only default names, so this changes nothing there.
    from babel.support import NullTranslations, Translations

    from companion import i18n
    from companion.games import GAMES, PACKAGES

    @functools.cache
    def catalogue(part: str, lang: str) -> NullTranslations:
        if part == i18n.CORE:
            return Translations.load(str(i18n.TRANSLATIONS), [lang])
        return Translations.load(str(i18n.package_dir(PACKAGES[part]) / "translations"), [lang])

    languages = ("en", "ja", "ru")
    core = [catalogue(i18n.CORE, lang) for lang in languages]

    @functools.cache
    def defaults(game: str, seat: int) -> frozenset[str]:
        found = {c.gettext("Player %(n)s") % {"n": seat + 1} for c in core}
        info = GAMES.get(game)
        labels = info.rules.seat_labels if info is not None else ()
        if info is not None and labels and seat < len(labels):
            found |= {catalogue(info.name, lang).gettext(labels[seat]) for lang in languages}
        return frozenset(found)

    for table_id, seat, name, game in db.execute(
        "SELECT s.table_id, s.seat, s.name, t.game FROM seats s JOIN tables t"
        " ON t.id = s.table_id WHERE s.named = 0"
    ).fetchall():
        if name not in defaults(game, seat):
            db.execute(
                "UPDATE seats SET named = 1 WHERE table_id = ? AND seat = ?", [table_id, seat]
            )
    for table_id, game, players in db.execute(
        "SELECT table_id, game, players FROM plays"
    ).fetchall():
        found = json.loads(players)
        changed = False
        for player in found:
            if not player.get("named") and player.get("name") not in defaults(game, player["seat"]):
                player["named"] = changed = True
        if changed:
            db.execute(
                "UPDATE plays SET players = ? WHERE table_id = ?",
                [json.dumps(found, ensure_ascii=False), table_id],
            )


def _add_settings_clock_and_ticks(db: sqlite_utils.Database) -> None:
    # The table's options beyond the game's (a time bank; the table's readings), its clock (each
    # seat's time on turn so far, kept with every action: companion/timing.py; NULL: worked out
    # from the log when first read) and the set-up guide's ticks (shared, not game events).
    db.table("tables").add_column("settings", str, not_null_default="{}")
    db.table("tables").add_column("clock", str)
    db.table("tables").add_column("ticks", str, not_null_default="[]")


def _add_imported_plays(db: sqlite_utils.Database) -> None:
    # Past plays a device brought (companion/past_plays.py): they belong to the importing
    # device's id, not to a table; the choices it made while matching (kept for its next
    # import); and a file read but not yet confirmed (the preview).
    for statement in IMPORTED_PLAYS.split(";"):
        if statement.strip():
            db.execute(statement)


# The same in PostgreSQL (companion/pg.py's migration 14), whose ids are identities.
IMPORTED_PLAYS = """
CREATE TABLE imported_plays (
    id INTEGER PRIMARY KEY,
    device TEXT NOT NULL,
    source TEXT NOT NULL,
    source_id TEXT NOT NULL,
    bgg_play TEXT NOT NULL DEFAULT '',
    game TEXT NOT NULL,
    played TEXT NOT NULL,
    minutes INTEGER,
    location TEXT NOT NULL DEFAULT '',
    board TEXT NOT NULL DEFAULT '',
    comments TEXT NOT NULL DEFAULT '',
    players TEXT NOT NULL,
    imported DOUBLE PRECISION NOT NULL,
    UNIQUE (device, source, source_id)
);
CREATE TABLE import_choices (
    device TEXT NOT NULL,
    kind TEXT NOT NULL,
    source_key TEXT NOT NULL,
    choice TEXT NOT NULL,
    PRIMARY KEY (device, kind, source_key)
);
CREATE TABLE import_drafts (
    id INTEGER PRIMARY KEY,
    device TEXT NOT NULL,
    created DOUBLE PRECISION NOT NULL,
    name TEXT NOT NULL DEFAULT '',
    data TEXT NOT NULL
);
"""


MIGRATIONS = [
    _create_tables,
    _add_change_versions,
    _add_host_traces,
    _add_undo_flags_and_snapshots,
    _add_live_table,
    _add_join_secret,
    _add_after_the_game,
    _add_displays,
    _add_progress,
    _add_take_home,
    _add_replay_switch,
    _add_bound_keys_and_display_origins,
    _add_settings_clock_and_ticks,
    _add_imported_plays,
]


class MigrationError(RuntimeError):
    """A schema upgrade failed and was rolled back; the message says so in one line."""


def migrate(db: sqlite_utils.Database) -> None:
    """Run the migrations this file has not seen yet (tracked in PRAGMA user_version), all in one
    IMMEDIATE transaction with the version read inside it: of several processes starting at once
    on a fresh file, one migrates and the others wait and then find nothing to do; a migration
    that fails leaves the file as it was, never half made (MigrationError says so).

    Before upgrading a file that holds data, a copy of it as it was is kept beside it, once
    (keep_copy), under the same lock: an upgrade is the one moment the app rewrites the schema
    of a database people have used for months."""
    db.execute("BEGIN IMMEDIATE")
    done = number = 0
    copy: Path | None = None
    try:
        done = db.execute("PRAGMA user_version").fetchone()[0]
        if 0 < done < len(MIGRATIONS):
            copy = keep_copy(db, done)
        for number, migration in enumerate(MIGRATIONS[done:], start=done + 1):
            migration(db)
            db.execute(f"PRAGMA user_version = {number}")
    except Exception as error:
        db.conn.rollback()
        kept = f"; a copy from before the upgrade is {copy}" if copy else ""
        raise MigrationError(
            f"upgrading the database {database_file(db) or ':memory:'} from schema version "
            f"{done} to {len(MIGRATIONS)} failed at step {number} and was rolled back, so it "
            f"is unchanged{kept}. The cause: {type(error).__name__}: {error}"
        ) from error
    except BaseException:
        db.conn.rollback()
        raise
    db.conn.commit()


def database_file(db: sqlite_utils.Database) -> str:
    """The path of the connection's main database file ("" for an in-memory one)."""
    for _, name, path in db.execute("PRAGMA database_list").fetchall():
        if name == "main":
            return path or ""
    return ""


def keep_copy(db: sqlite_utils.Database, version: int) -> Path | None:
    """Copy the database as it is (schema `version`) to <file>.v<version>.bak beside it, unless
    that copy exists already (an upgrade tried before). Called inside the migration's write
    transaction: a second connection reads the last commit (readers are never blocked) while
    no other process can write or migrate."""
    path = database_file(db)
    if not path:
        return None
    copy = Path(f"{path}.v{version}.bak")
    if copy.exists():
        return copy
    partial = copy.with_name(copy.name + ".partial")
    partial.unlink(missing_ok=True)
    reader = sqlite3.connect(path)
    try:
        reader.execute("VACUUM INTO ?", [str(partial)])
    finally:
        reader.close()
    partial.replace(copy)  # whole or not at all
    print(
        f"Upgrading {path} from schema version {version} to {len(MIGRATIONS)}; "
        f"a copy from before is kept as {copy}",
        file=sys.stderr,
    )
    return copy


def connect(
    database: str | Path,
    *,
    setup: bool = False,
    on_change: Callable[[str, int], None] | None = None,
) -> Store:
    """Open the database (a SQLite file or a postgresql:// URL); with setup, also migrate it
    (once, on start). on_change(code, version) hears of every table a write of this connection
    changed, once it commits (Store.announce)."""
    if is_postgres_url(str(database)):
        from companion import pg

        return pg.connect(str(database), setup=setup, on_change=on_change)
    return connect_sqlite(database, setup=setup, on_change=on_change)


def connect_sqlite(
    database: str | Path,
    *,
    setup: bool = False,
    on_change: Callable[[str, int], None] | None = None,
) -> SQLiteStore:
    """Open a SQLite file (":memory:" for a throwaway one); with setup, also migrate it.

    WAL mode is stored in the file, so per-request connections need not set it again; it is set
    before the migration's transaction (the journal mode cannot change inside one).
    """
    # Not tied to the thread that opened it: Connections hands a connection to one request at a
    # time, in whichever thread (or, under gevent, greenlet) serves it.
    conn = sqlite3.connect(str(database), timeout=30 if setup else 10, check_same_thread=False)
    db = sqlite_utils.Database(conn)
    db.execute("PRAGMA foreign_keys = ON")
    db.execute("PRAGMA synchronous = NORMAL")  # safe with WAL: a killed process loses no commit
    if setup:
        if str(database) != ":memory:":
            _when_unlocked(lambda: db.execute("PRAGMA journal_mode = WAL"))
        _when_unlocked(lambda: migrate(db))
    return SQLiteStore(db, on_change)


def _is_locked(error: BaseException | None) -> bool:
    return isinstance(error, sqlite3.OperationalError) and "locked" in str(error)


def _when_unlocked(step: Callable[[], object], seconds: float = 30.0) -> None:
    """Run a start-up step, again after a short pause while SQLite answers "database is locked".

    Where waiting could deadlock, SQLite does not wait out the busy timeout but answers at once:
    on a fresh file, one process switching the journal to WAL (it needs the file to itself) while
    another holds its migration's write lock. Several processes starting at once (gunicorn's
    workers, tests/test_startup.py) meet that now and then; the step that lost tries again. A
    migration that failed was rolled back whole (migrate), so trying it again is safe."""
    deadline = time.monotonic() + seconds
    pause = 0.01
    while True:
        try:
            step()
            return
        except (sqlite3.OperationalError, MigrationError) as error:
            locked = _is_locked(error) or _is_locked(error.__cause__)
            if not locked or time.monotonic() > deadline:
                raise
        time.sleep(pause)
        pause = min(pause * 2, 0.5)


def schema_version(store: Store) -> int:
    """How many of its backend's migrations the database has had (0: a fresh one)."""
    if isinstance(store, PostgresStore):
        from companion import pg

        return pg.schema_version(store)
    return store.execute("PRAGMA user_version").fetchone()[0]


def latest_version(database: str | Path) -> int:
    """The version a database of this kind is at once migrated."""
    if is_postgres_url(str(database)):
        from companion import pg

        return len(pg.MIGRATIONS)
    return len(MIGRATIONS)


def connections(
    database: str | Path,
    *,
    threads: int = 8,
    on_change: Callable[[str, int], None] | None = None,
):
    """What hands each request its connection: a few kept SQLite connections, or a pool sized
    for the server's threads (PostgreSQL). on_change: see connect()."""
    if is_postgres_url(str(database)):
        from companion import pg

        return pg.Connections(str(database), max_size=threads + 2, on_change=on_change)
    return Connections(database, on_change=on_change)


class Connections:
    """SQLite: connections opened on first use and kept, each lent to one request at a time (a
    request does not pay for opening the file or, on the last close, for checkpointing and
    deleting the WAL). As many stay open as requests ran at once: a thread's under waitress;
    under gevent, where every connection of a client is a greenlet, the few requests that are
    in the store at the same moment.

    A connection left inside a transaction by a failed request is rolled back by release().
    """

    def __init__(self, path: str | Path, on_change: Callable[[str, int], None] | None = None):
        self.path = str(path)
        self.on_change = on_change
        self._local = threading.local()  # the connection lent to this thread (or greenlet)
        self._free: list[SQLiteStore] = []
        self._lock = threading.Lock()

    def get(self) -> SQLiteStore:
        """The connection lent to this request (the same one until release())."""
        store = getattr(self._local, "store", None)
        if store is None:
            with self._lock:
                store = self._free.pop() if self._free else None
            if store is None:
                store = connect_sqlite(self.path, on_change=self.on_change)
            self._local.store = store
        return store

    def release(self) -> None:
        """End of a request: the connection, never inside a transaction, is kept for the next."""
        store = getattr(self._local, "store", None)
        if store is None:
            return
        self._local.store = None
        if store.in_transaction:
            store.rollback()
        with self._lock:
            self._free.append(store)

    def close(self) -> None:
        """Close the kept connections."""
        with self._lock:
            free, self._free = self._free, []
        for store in free:
            store.conn.close()

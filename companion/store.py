"""The store: one database connection with the few operations the app needs, on SQLite (the
embedded default: `make run` needs no server) or PostgreSQL (several processes or machines).

The app's SQL is written once, portable: `?` placeholders (turned into psycopg's `%s` for
PostgreSQL), RETURNING for new ids, ON CONFLICT for upserts. What differs is kept here:

- a write transaction: SQLite's BEGIN IMMEDIATE serialises writers on the whole file; PostgreSQL
  (READ COMMITTED) locks the table's row with SELECT ... FOR UPDATE, so that of two phones acting
  at once on one table exactly one wins and the other sees the version it changed;
- the schema and its migrations (companion/db.py for SQLite; companion/pg.py for PostgreSQL);
- connections: SQLite keeps one per thread; PostgreSQL borrows one from a pool per request.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, Protocol

NOTIFY_CHANNEL = "companion_tables"  # PostgreSQL: "<code> <version>" for every change


class Store(Protocol):
    """What companion.tables, plays.py and the web layer ask of a database connection."""

    backend: str  # "sqlite" or "postgresql"

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        """Run one statement (`?` placeholders); the cursor has fetchone()/fetchall()."""

    def query(self, sql: str, params: Sequence[Any] = ()) -> Iterator[dict]:
        """Rows as dicts."""

    def commit(self) -> None:
        """End the current transaction, keeping what it did."""

    def rollback(self) -> None:
        """End the current transaction, undoing what it did."""

    @property
    def in_transaction(self) -> bool:
        """Whether a transaction is open."""

    def write(self, table_id: int | None = None) -> Any:
        """A context manager: one write transaction, serialised with every other write to the
        same table (table_id); without one, a write that races with nothing (a new table, a
        counted wrong code). SQLite serialises every writer anyway."""

    def transaction(self) -> Any:
        """A context manager: a plain transaction (commit on success, rollback on error)."""

    def table_names(self) -> list[str]:
        """The tables the schema has."""

    def close(self) -> None:
        """Close the connection (one opened on its own, not lent by a pool)."""

    def announce(self, code: str, version: int) -> None:
        """Say that a table moved to `version` in the write transaction now open: once it
        commits, the pushed pages of the table hear of it (companion/web/push.py); if it is
        rolled back, nobody does."""


class SQLiteStore:
    """A SQLite connection (through sqlite-utils, which the migrations use)."""

    backend = "sqlite"

    def __init__(self, db, on_change: Callable[[str, int], None] | None = None) -> None:
        self.db = db  # sqlite_utils.Database
        self.conn = db.conn
        self.changes = Announced(on_change)

    def __getitem__(self, name: str):  # db["tables"]: sqlite-utils' table API, for migrations
        return self.db[name]

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        return self.db.execute(sql, list(params))

    def query(self, sql: str, params: Sequence[Any] = ()) -> Iterator[dict]:
        # On the connection itself: sqlite-utils' query() wraps every statement in a savepoint
        # of its own (three statements and a transaction for one read), and the store's queries
        # are plain SELECTs (a write that returns rows goes through execute()): 6 µs a read
        # instead of 12, and a live region reads about six times (issue 38).
        cursor = self.conn.execute(sql, list(params))
        if cursor.description is None:
            raise ValueError("query() is for statements that return rows: use execute()")
        keys = [column[0] for column in cursor.description]
        return (dict(zip(keys, row)) for row in cursor)

    def commit(self) -> None:
        self.conn.commit()

    def rollback(self) -> None:
        self.conn.rollback()

    @property
    def in_transaction(self) -> bool:
        return self.conn.in_transaction

    @contextmanager
    def write(self, table_id: int | None = None) -> Iterator[None]:
        # IMMEDIATE: readers go on (WAL), a second writer waits for this one.
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self.conn.rollback()
            self.changes.drop()
            raise
        self.conn.commit()
        self.changes.deliver()

    @contextmanager
    def transaction(self) -> Iterator[None]:
        try:
            with self.conn:
                yield
        except BaseException:
            self.changes.drop()
            raise
        self.changes.deliver()

    def table_names(self) -> list[str]:
        return self.db.table_names()

    def close(self) -> None:
        self.conn.close()

    def announce(self, code: str, version: int) -> None:
        self.changes.add(code, version)


class PostgresStore:
    """A PostgreSQL connection (psycopg 3, autocommit: transactions are explicit)."""

    backend = "postgresql"

    def __init__(self, conn, on_change: Callable[[str, int], None] | None = None) -> None:
        self.conn = conn
        self.changes = Announced(on_change)

    @staticmethod
    def _sql(sql: str) -> str:
        return sql.replace("%", "%%").replace("?", "%s")

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        return self.conn.execute(self._sql(sql), list(params))

    def query(self, sql: str, params: Sequence[Any] = ()) -> Iterator[dict]:
        from psycopg.rows import dict_row

        with self.conn.cursor(row_factory=dict_row) as cursor:
            cursor.execute(self._sql(sql), list(params))
            yield from cursor.fetchall()

    def commit(self) -> None:
        if self.in_transaction:
            self.conn.execute("COMMIT")

    def rollback(self) -> None:
        if self.in_transaction:
            self.conn.execute("ROLLBACK")

    @property
    def in_transaction(self) -> bool:
        from psycopg.pq import TransactionStatus

        return self.conn.info.transaction_status != TransactionStatus.IDLE

    @contextmanager
    def write(self, table_id: int | None = None) -> Iterator[None]:
        try:
            with self.conn.transaction():
                if table_id is not None:
                    # READ COMMITTED alone would let two writers both pass a version check: the
                    # second waits here for the first to commit, then reads what it wrote.
                    self.conn.execute("SELECT id FROM tables WHERE id = %s FOR UPDATE", [table_id])
                yield
        except BaseException:
            self.changes.drop()
            raise
        self.changes.deliver()

    @contextmanager
    def transaction(self) -> Iterator[None]:
        try:
            with self.conn.transaction():
                yield
        except BaseException:
            self.changes.drop()
            raise
        self.changes.deliver()

    def table_names(self) -> list[str]:
        rows = self.conn.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
        ).fetchall()
        return sorted(r[0] for r in rows)

    def close(self) -> None:
        self.conn.close()

    def announce(self, code: str, version: int) -> None:
        # Sent with the transaction: every process LISTENing hears it once it commits (this
        # one too; the local delivery after the commit only comes sooner).
        self.conn.execute("SELECT pg_notify(%s, %s)", [NOTIFY_CHANNEL, f"{code} {version}"])
        self.changes.add(code, version)


class Announced:
    """The tables a transaction changed (code, version), handed to on_change once it commits."""

    def __init__(self, on_change: Callable[[str, int], None] | None) -> None:
        self.on_change = on_change
        self.pending: list[tuple[str, int]] = []

    def add(self, code: str, version: int) -> None:
        if self.on_change is not None:
            self.pending.append((code, version))

    def drop(self) -> None:
        self.pending.clear()

    def deliver(self) -> None:
        pending, self.pending = self.pending, []
        if self.on_change is None:
            return
        for code, version in pending:
            self.on_change(code, version)


def is_postgres_url(url: str) -> bool:
    """Whether a database setting names a PostgreSQL server (else it is a SQLite file)."""
    return url.startswith(("postgresql://", "postgres://"))

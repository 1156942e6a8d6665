"""Backing up the database and restoring it (`flask --app companion backup PATH` / `restore PATH`).

- SQLite: SQLite's online backup API, page by page, so a copy taken while phones play is one
  consistent moment of the file (never half a write; the -wal file's commits included). Restoring
  copies a backup into the database the same way, keeps what it replaces beside it
  (<file>.before-restore.bak) and upgrades the restored schema if the backup is older.
- PostgreSQL: the server's own tools, as docs/deployment.md gives them: pg_dump's custom format
  (consistent while serving) and pg_restore, which replaces the app's tables; then the schema is
  upgraded the same way. Restore with the app stopped: pg_restore drops and remakes the tables.

The secret key is not in a SQLite backup (it lives in instance/secret_key, or in
COMPANION_SECRET_KEY); PostgreSQL keeps it in the database, so it comes back with a restore.
"""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
from pathlib import Path

from companion import db as database
from companion.store import is_postgres_url


class BackupError(RuntimeError):
    """A backup or restore could not be done: the message says why and what to do."""


def backup(url: str, target: Path) -> None:
    """Write a consistent copy of the database to `target` (replaced whole, or left alone)."""
    target = Path(target)
    if is_postgres_url(url):
        _run("pg_dump", "--format=custom", "--no-owner", "--file", str(target), url)
        return
    if not Path(url).is_file():  # sqlite3 would make an empty file and copy that
        raise BackupError(f"there is no database at {url}: nothing to back up")
    partial = target.with_name(target.name + ".partial")
    _copy_sqlite(Path(url), partial)
    partial.replace(target)


def restore(url: str, source: Path) -> int:
    """Put the backup `source` in the database's place and upgrade its schema; returns the
    backup's schema version (before the upgrade)."""
    source = Path(source)
    if not source.is_file():
        raise BackupError(f"{source} is not a file")
    before = versions(url)
    if is_postgres_url(url):
        _run(
            "pg_restore",
            "--clean",
            "--if-exists",
            "--no-owner",
            "--single-transaction",
            "--dbname",
            url,
            str(source),
        )
        store = database.connect(url)
        try:
            version = database.schema_version(store)
        finally:
            store.close()
    else:
        version = sqlite_version_of(source)
        live = Path(url)
        if live.exists():
            _copy_sqlite(live, live.with_name(live.name + ".before-restore.bak"))
        _copy_sqlite(source, live)
    store = database.connect(url, setup=True)  # an older backup is upgraded now
    try:
        move_on(store, before)
    finally:
        store.close()
    return version


VERSIONS = ("version", "state_version", "log_version")


def versions(url: str) -> dict[str, tuple[int, ...]]:
    """Each table's versions in the database now (none if there is no database yet)."""
    if not is_postgres_url(url) and not Path(url).exists():
        return {}
    store = database.connect(url)
    try:
        rows = store.execute(f"SELECT code, {', '.join(VERSIONS)} FROM tables").fetchall()
    except Exception:  # not made yet, or not this app's: nothing any page has seen
        return {}
    finally:
        store.close()
    return {row[0]: tuple(row[1:]) for row in rows}


def move_on(store, before: dict[str, tuple[int, ...]]) -> None:
    """Every restored table that existed before the restore gets versions past both: a page or
    a stream that saw the replaced table then sees a change (the push hub tells only of a higher
    version), and a form rendered before the restore is stale, never applied to the restored
    game by chance of an equal number."""
    rows = store.execute(f"SELECT code, {', '.join(VERSIONS)} FROM tables").fetchall()
    with store.transaction():
        for code, *restored in rows:
            if code not in before:
                continue
            moved = [max(a, b) + 1 for a, b in zip(restored, before[code])]
            store.execute(
                f"UPDATE tables SET {', '.join(f'{name} = ?' for name in VERSIONS)} WHERE code = ?",
                [*moved, code],
            )
            store.announce(code, moved[0])


def sqlite_version_of(path: Path) -> int:
    """The schema version of a SQLite backup of this app; BackupError if it is none."""
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            names = {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}
        finally:
            conn.close()
    except sqlite3.DatabaseError as error:
        raise BackupError(f"{path} is not a SQLite database ({error})") from error
    if "tables" not in names or not 1 <= version <= len(database.MIGRATIONS):
        raise BackupError(
            f"{path} is not a backup of this app's database (schema version {version}; this "
            f"release knows 1 to {len(database.MIGRATIONS)})"
        )
    return version


def _copy_sqlite(source: Path, target: Path) -> None:
    """SQLite's online backup from one file into another (consistent; WAL commits included)."""
    reader = sqlite3.connect(str(source), timeout=30)
    writer = sqlite3.connect(str(target), timeout=30)
    try:
        reader.backup(writer)
    finally:
        writer.close()
        reader.close()


def _run(tool: str, *arguments: str) -> None:
    """Run one of PostgreSQL's client tools; BackupError with its message if it fails."""
    if shutil.which(tool) is None:
        raise BackupError(
            f"{tool} is not installed: install PostgreSQL's client tools (Debian: "
            "apt-get install postgresql-client), the same major version as the server or newer"
        )
    done = subprocess.run([tool, *arguments], capture_output=True, text=True)
    if done.returncode != 0:
        raise BackupError(f"{tool} failed: {done.stderr.strip()[-800:]}")

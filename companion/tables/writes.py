"""What every write to a table shares: the version it moves on (what polls, push streams and stale
forms compare), and the submission keys that make a resent tap apply once."""

from __future__ import annotations

import hashlib
import json
import time

from companion.store import Store
from companion.tables.model import KeyReused, Table

KEY_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")


def current_version(db: Store, code: str) -> int | None:
    """The table's version alone: what a poll compares (one indexed lookup, no replay)."""
    row = db.execute("SELECT version FROM tables WHERE code = ?", [code]).fetchone()
    return row[0] if row else None


def bump(db: Store, table: Table, *, state: bool = False, log: bool = False) -> int:
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


# --- submissions: a resent tap is applied once ---------------------------------------------------


def valid_key(key: str | None) -> str | None:
    """A submission key as the phone made it (8 to 64 URL-safe characters), or None."""
    if key and 8 <= len(key) <= 64 and set(key) <= KEY_CHARS:
        return key
    return None


def digest(content: dict) -> str:
    """What a submission key is bound to: who sent it and what (the action the form produced,
    the note's words, the undo), not the raw body, which differs between two sends of one tap
    in its CSRF token or field order."""
    text = json.dumps(content, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def already_applied(db: Store, table: Table, key: str | None, content: dict) -> bool:
    """Whether this submission was applied already: its key was, with the same sender and
    content (a resent tap: nothing to do again). The key with another content or from another
    sender is an error (KeyReused), never silently dropped. A key kept before keys were bound
    (no digest) counts as the same."""
    if key is None:
        return False
    row = db.execute(
        "SELECT digest FROM submissions WHERE table_id = ? AND key = ?", [table.id, key]
    ).fetchone()
    if row is None:
        return False
    if row[0] is not None and row[0] != digest(content):
        raise KeyReused()
    return True


def remember(db: Store, table: Table, key: str | None, content: dict) -> None:
    """Keep the key of what was applied, bound to its sender and content (in the same
    transaction), for a day."""
    if key is None:
        return
    now = time.time()
    db.execute(
        "DELETE FROM submissions WHERE table_id = ? AND created < ?", [table.id, now - 86400]
    )
    db.execute(
        "INSERT INTO submissions (table_id, key, created, digest) VALUES (?, ?, ?, ?)",
        [table.id, key, now, digest(content)],
    )

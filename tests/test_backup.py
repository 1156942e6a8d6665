"""`flask --app companion backup PATH` / `restore PATH` (companion/backup.py): a backup taken in
the middle of a game, while the app serves, restores to exactly that moment, on SQLite and on
PostgreSQL; the phones keep their seats and the game goes on from there."""

from __future__ import annotations

import os
import random
import sqlite3
import subprocess
import sys

import pytest

from companion import get_db, tables
from tests.helpers import ROOT, TableDriver


def play(app, code: str, moves: int, rng: random.Random) -> None:
    """`moves` legal moves at the table, as its phones would enter them."""
    with app.app_context():
        db = get_db()
        table = tables.get_table(db, code)
        made = 0
        while made < moves:
            state = tables.state_of(db, table)
            action = table.game.random_play.next_action(state, rng)
            fields = {k: v for k, v in action.items() if k not in ("seat", "host")}
            try:
                tables.act(
                    db, table, fields, seat=action.get("seat"), host=False, expected_version=None
                )
            except tables.RuleError:
                continue
            made += 1


def whole(app, code: str) -> tuple:
    """Everything a restore must bring back: the state, the history, the seats."""
    with app.app_context():
        db = get_db()
        table = tables.get_table(db, code)
        history = [(e.seq, e.kind, e.action, e.undone) for e in tables.events(db, table)]
        seats = db.execute(
            "SELECT seat, name, token_hash FROM seats WHERE table_id = ? ORDER BY seat", [table.id]
        ).fetchall()
        return tables.state_of(db, table), history, [tuple(row) for row in seats]


@pytest.mark.both_stores
def test_a_backup_taken_mid_game_restores_to_that_moment(app, tmp_path):
    rng = random.Random(7)
    table = TableDriver(app, "pebbles", ("Anna", "Ben", "Chris"))
    play(app, table.code, 3, rng)
    at_backup = whole(app, table.code)
    runner = app.test_cli_runner()
    path = tmp_path / "mid-game.backup"
    done = runner.invoke(args=["backup", str(path)])
    assert done.exit_code == 0, done.output
    assert path.stat().st_size > 0

    play(app, table.code, 3, rng)  # the evening goes on after the backup
    assert whole(app, table.code) != at_backup

    replaced = table.version(), table.snapshot()[2]
    done = runner.invoke(args=["restore", str(path)])
    assert done.exit_code == 0, done.output
    assert whole(app, table.code) == at_backup
    # Its versions move past what any page saw before the restore: streams are told, and a
    # form rendered before it is stale (never applied to the restored game).
    assert table.version() > replaced[0] and table.snapshot()[2] > replaced[1]
    # Every phone still has its seat, and the next move is taken.
    for seat, name in enumerate(table.names):
        assert f"You are {name}." in table.page(seat)
    play(app, table.code, 1, rng)
    assert len(whole(app, table.code)[1]) == len(at_backup[1]) + 1


@pytest.mark.both_stores
def test_restore_refuses_a_file_that_is_no_backup(app, tmp_path):
    wrong = tmp_path / "notes.txt"
    wrong.write_text("not a database")
    done = app.test_cli_runner().invoke(args=["restore", str(wrong)])
    assert done.exit_code != 0
    assert "Traceback" not in done.output and "Error:" in done.output


def test_a_sqlite_backup_is_one_consistent_file(app, tmp_path):
    TableDriver(app, "pebbles", ("Anna", "Ben", "Chris"))
    path = tmp_path / "copy.db"
    # As a person types it, in another process, while this app holds its connections.
    env = {k: v for k, v in os.environ.items() if not k.startswith("COMPANION_")}
    env.update(COMPANION_DATABASE=app.config["DATABASE"], COMPANION_INSTANCE=str(tmp_path))
    done = subprocess.run(
        [sys.executable, "-m", "flask", "--app", "companion", "backup", str(path)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0 and "backed up" in done.stdout, done.stderr
    copy = sqlite3.connect(path)
    assert copy.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert copy.execute("SELECT count(*) FROM seats").fetchone() == (3,)
    copy.close()


def test_backing_up_a_database_that_is_not_there_says_so(tmp_path):
    from companion import backup

    try:
        backup.backup(str(tmp_path / "missing.db"), tmp_path / "copy.db")
    except backup.BackupError as error:
        assert "nothing to back up" in str(error)
    else:
        raise AssertionError("an empty backup was written")
    assert not (tmp_path / "missing.db").exists() and not (tmp_path / "copy.db").exists()

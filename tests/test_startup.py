"""Start-up is safe for several processes (the short run of scripts/check_startup.py)."""

from __future__ import annotations

from scripts import check_startup


def test_four_processes_starting_at_once_on_a_fresh_file_all_start_with_one_key():
    good, rounds = check_startup.check(rounds=3, processes=4)
    assert good == rounds


def test_four_processes_starting_at_once_on_a_fresh_postgresql_database(postgres_server):
    # Each process migrates under PostgreSQL's advisory lock and finds (or makes) the one key.
    good, rounds = check_startup.check(rounds=2, processes=4, postgres=postgres_server)
    assert good == rounds


def test_a_start_that_finds_the_file_locked_tries_again(tmp_path, monkeypatch):
    """SQLite answers "database is locked" at once where waiting could deadlock (a journal
    switch against another process's migration): the start-up step that lost runs again."""
    import sqlite3

    from companion import db as database

    real, calls = database.migrate, []

    def locked_once(store):
        calls.append(1)
        if len(calls) == 1:
            raise sqlite3.OperationalError("database is locked")
        real(store)

    monkeypatch.setattr(database, "migrate", locked_once)
    store = database.connect(tmp_path / "fresh.db", setup=True)
    assert len(calls) == 2
    assert database.schema_version(store) == len(database.MIGRATIONS)


def test_a_failed_migration_leaves_the_file_as_it_was(tmp_path, monkeypatch):
    import pytest

    from companion import db as database

    def broken(store):
        store["half_made"].create({"id": int}, pk="id")
        raise RuntimeError("the migration failed half way")

    monkeypatch.setattr(database, "MIGRATIONS", [*database.MIGRATIONS, broken])
    path = tmp_path / "store.db"
    with pytest.raises(RuntimeError):
        database.connect(path, setup=True)
    store = database.connect(path)
    assert store.execute("PRAGMA user_version").fetchone()[0] == 0
    assert "half_made" not in store.table_names() and "tables" not in store.table_names()


def test_an_upgrade_keeps_a_copy_of_the_file_as_it_was_once(tmp_path, monkeypatch, capsys):
    from companion import db as database

    path = tmp_path / "companion.db"
    latest = list(database.MIGRATIONS)
    monkeypatch.setattr(database, "MIGRATIONS", latest[:5])
    old = database.connect(path, setup=True)
    old.execute("INSERT INTO join_failures (client, at) VALUES ('phone', 1.5)")
    old.conn.commit()
    old.close()

    monkeypatch.setattr(database, "MIGRATIONS", latest)
    database.connect(path, setup=True).close()
    copy = tmp_path / "companion.db.v5.bak"
    kept = database.connect(copy)
    assert kept.execute("PRAGMA user_version").fetchone()[0] == 5
    assert kept.execute("SELECT client, at FROM join_failures").fetchall() == [("phone", 1.5)]
    kept.close()
    assert f"from schema version 5 to {len(latest)}" in capsys.readouterr().err
    upgraded = database.connect(path)
    assert upgraded.execute("PRAGMA user_version").fetchone()[0] == len(latest)
    upgraded.close()
    # A fresh file has nothing to keep, and an up-to-date one is not copied again.
    database.connect(tmp_path / "fresh.db", setup=True).close()
    database.connect(path, setup=True).close()
    assert sorted(p.name for p in tmp_path.glob("*.bak")) == ["companion.db.v5.bak"]


def test_a_failed_upgrade_says_so_in_one_line(tmp_path, monkeypatch):
    import pytest

    from companion import db as database

    path = tmp_path / "companion.db"
    database.connect(path, setup=True).close()

    def broken(store):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(database, "MIGRATIONS", [*database.MIGRATIONS, broken])
    with pytest.raises(database.MigrationError) as failed:
        database.connect(path, setup=True)
    message = str(failed.value)
    assert "\n" not in message and "rolled back" in message and "disk on fire" in message
    assert f"companion.db.v{len(database.MIGRATIONS) - 1}.bak" in message

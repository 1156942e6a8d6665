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

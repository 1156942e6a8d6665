"""The two backends of the store hold the same schema (companion/db.py's migrations for SQLite,
companion/pg.py's for PostgreSQL), so that a column added to one and not the other fails here."""

from __future__ import annotations

import pytest

from companion import db as database

# Both stores (tests/conftest.py): this is the store.
pytestmark = pytest.mark.both_stores

ONLY_POSTGRES = {"schema_version", "settings"}  # SQLite keeps these in PRAGMA / a file


def _columns(store) -> dict[str, set[str]]:
    if store.backend == "sqlite":
        return {
            name: {column.name for column in store.db[name].columns} for name in store.table_names()
        }
    rows = store.execute(
        "SELECT table_name, column_name FROM information_schema.columns"
        " WHERE table_schema = current_schema()"
    ).fetchall()
    found: dict[str, set[str]] = {}
    for table, column in rows:
        found.setdefault(table, set()).add(column)
    return {name: columns for name, columns in found.items() if name not in ONLY_POSTGRES}


def test_sqlite_and_postgresql_schemas_have_the_same_tables_and_columns(
    tmp_path, postgres_database
):
    sqlite = database.connect(tmp_path / "schema.db", setup=True)
    postgres = database.connect(postgres_database)
    try:
        expected = _columns(sqlite)
        assert "events" in expected and "tables" in expected
        assert _columns(postgres) == expected
    finally:
        postgres.conn.close()


def test_both_backends_report_their_latest_schema_version(store_url):
    store = database.connect(store_url, setup=True)
    try:
        assert database.schema_version(store) == database.latest_version(store_url) > 0
    finally:
        store.conn.close()

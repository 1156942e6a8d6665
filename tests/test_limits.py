"""Starting tables is limited per device and per address (a script started 168 a second), and
tables nothing happened at are removed after a day (companion.tables.codes, companion.plays)."""

from __future__ import annotations

import time

import pytest

from companion import get_db, plays, tables
from tests.helpers import csrf_from, start_table, take_seat, visible

pytestmark = pytest.mark.both_stores


def start(client, address: str = "127.0.0.1"):
    home = client.get("/", environ_base={"REMOTE_ADDR": address})
    return client.post(
        "/tables",
        data={
            "csrf_token": csrf_from(home.text),
            "game": "pebbles",
            "players": 2,
            "names-0": "Anna",
            "names-1": "Ben",
        },
        environ_base={"REMOTE_ADDR": address},
    )


def test_a_device_may_start_a_few_tables_a_minute_then_is_told_to_wait(app):
    app.config.update(TABLES_PER_DEVICE_MINUTE=3, TABLES_PER_ADDRESS_MINUTE=5)
    host = app.test_client()
    assert [start(host).status_code for _ in range(3)] == [302] * 3
    refused = start(host)
    assert refused.status_code == 429
    assert "Wait a minute and try again" in visible(refused.text)
    assert 'value="Anna"' in refused.text  # what was typed stays
    # Another host behind the same router still starts one, up to the address's limit.
    neighbour = app.test_client()
    assert [start(neighbour).status_code for _ in range(3)] == [302, 302, 429]
    # A host elsewhere is not held back at all.
    assert start(app.test_client(), "192.168.7.7").status_code == 302
    with app.app_context():
        assert get_db().execute("SELECT count(*) FROM tables").fetchone()[0] == 6


def test_the_limit_is_off_at_zero(app):
    app.config.update(TABLES_PER_DEVICE_MINUTE=0, TABLES_PER_ADDRESS_MINUTE=0)
    host = app.test_client()
    assert {start(host).status_code for _ in range(40)} == {302}


def test_tables_nothing_happened_at_go_after_a_day(app, client):
    untouched = start_table(client, "pebbles", ("Anna", "Ben"))
    joined = start_table(client, "pebbles", ("Anna", "Ben"))
    assert take_seat(app.test_client(), joined, 0).status_code == 302
    fresh = start_table(client, "pebbles", ("Anna", "Ben"))
    with app.app_context():
        db = get_db()
        day_ago = time.time() - 25 * 3600
        with db.write():
            db.execute(
                "UPDATE tables SET touched = ?, created = ? WHERE code IN (?, ?)",
                [day_ago, day_ago, untouched, joined],
            )
        assert plays.remove_empty_tables(db, force=True) == 1
        assert tables.find_table(db, untouched) is None
        assert tables.find_table(db, joined) is not None and tables.find_table(db, fresh)

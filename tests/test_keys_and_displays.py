"""A submission key is bound to what it sent; a display is a display.

- The page's script sends each entry with a key of its own, so that a resend after a lost
  connection applies once. The same key with another entry (another note, another device's note,
  an undo) is refused with 409 and a message, and nothing is applied; the same entry sent again
  still gets 200 (companion.tables.writes).
- A display link's key never enters anything, even put into the table display's cookie: only the
  device that handed the host role over and stayed at the table enters what anyone at the table
  may enter (companion.tables.host: a display's origin).
"""

from __future__ import annotations

import pytest

from companion import get_db, tables
from tests.helpers import HX, TableDriver, csrf_from, version_of, visible

pytestmark = pytest.mark.both_stores
REUSED = "came with the key of an entry already saved"


def note(table: TableDriver, who, text: str, key: str):
    page = table.page(who)
    return table.device(who).post(
        f"/t/{table.code}/note",
        data={"csrf_token": csrf_from(page), "text": text, "key": key, "version": version_of(page)},
        headers=HX,
    )


def notes(table: TableDriver) -> list[str]:
    with table.app.app_context():
        db = get_db()
        found = tables.events(db, tables.get_table(db, table.code))
        return [e.action["text"] for e in found if e.kind == "note"]


def test_a_used_key_with_another_entry_is_refused_and_a_resend_is_not(app):
    table = TableDriver(app, "pebbles", ("Anna", "Ben", "Chris"))
    key = "k3y-of-annas-tap-0001"
    assert note(table, 0, "Ben dropped a card", key).status_code == 200
    assert note(table, 0, "Ben dropped a card", key).status_code == 200  # a resend
    assert notes(table) == ["Ben dropped a card"]
    for who, text in ((0, "something else"), (1, "Ben dropped a card"), ("host", "x")):
        answer = note(table, who, text, key)
        assert answer.status_code == 409 and REUSED in visible(answer.text), (who, text)
    page = table.page(0)
    undo = table.phones[0].post(
        f"/t/{table.code}/undo",
        data={"csrf_token": csrf_from(page), "key": key, "version": version_of(page)},
        headers=HX,
    )
    assert undo.status_code == 409 and REUSED in visible(undo.text)
    assert notes(table) == ["Ben dropped a card"]


def test_a_game_action_resent_applies_once_and_a_changed_one_is_refused(app):
    table = TableDriver(app, "pebbles", ("Anna", "Ben"))
    key = "k3y-of-a-take-000001"
    with app.app_context():
        state = tables.state_of(get_db(), tables.get_table(get_db(), table.code))
    turn = state.get("turn", 0)
    page = table.page(turn)
    form = {"csrf_token": csrf_from(page), "version": version_of(page), "key": key}
    first = table.phones[turn].post(f"/t/{table.code}/act/take", data={**form, "n": 1}, headers=HX)
    assert first.status_code == 200, visible(first.text)[:300]
    after = table.snapshot()
    again = table.phones[turn].post(f"/t/{table.code}/act/take", data={**form, "n": 1}, headers=HX)
    assert again.status_code == 200 and table.snapshot() == after
    changed = table.phones[turn].post(
        f"/t/{table.code}/act/take", data={**form, "n": 2}, headers=HX
    )
    assert changed.status_code == 409 and REUSED in visible(changed.text)
    assert table.snapshot() == after


def test_a_display_links_key_enters_nothing_even_from_the_tables_cookie(app):
    table = TableDriver(app, "pebbles", ("Anna", "Ben"))
    with app.app_context():
        key = tables.new_display_token(get_db(), tables.get_table(get_db(), table.code))
    screen = app.test_client()
    assert screen.get(f"/t/{table.code}/display/?key={key}").status_code == 200
    screen.set_cookie(f"display_{table.code}", key, path=f"/t/{table.code}")
    assert screen.get(f"/t/{table.code}/display/?key={key}").status_code == 200
    page = screen.get("/").text  # a page with a form: this device's form token
    before = table.snapshot()
    for path, data in (
        ("act/drop", {}),
        ("note", {"text": "hello"}),
        ("undo", {}),
        ("host/lock", {}),
    ):
        answer = screen.post(
            f"/t/{table.code}/{path}",
            data={"csrf_token": csrf_from(page), "version": table.version(), **data},
        )
        assert answer.status_code == 403, (path, answer.status_code)
        if path != "host/lock":
            assert "table display shows the table and enters nothing" in visible(answer.text)
    assert table.snapshot() == before


def test_a_host_tool_sent_with_a_used_key_is_refused(app):
    table = TableDriver(app, "pebbles", ("Anna", "Ben"))
    key = "k3y-host-tool-000001"
    page = table.page()
    lock = table.host.post(
        f"/t/{table.code}/host/lock", data={"csrf_token": csrf_from(page), "key": key}, headers=HX
    )
    assert lock.status_code == 200
    before = table.snapshot()
    rename = table.host.post(
        f"/t/{table.code}/host/rename/1",
        data={"csrf_token": csrf_from(page), "key": key, "name": "Bo", "version": table.version()},
        headers=HX,
    )
    assert rename.status_code == 409 and REUSED in visible(rename.text)
    assert table.snapshot() == before

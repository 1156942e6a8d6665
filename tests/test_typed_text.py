"""Typed text stays text: a name, a note or a place with a control character is refused with a
message; a row stored before that cannot forge a line in any export; and no typed cell in a CSV
reads as a spreadsheet formula (OWASP's CSV injection), while the app's own numbers stay numbers.
"""

from __future__ import annotations

import csv
import io
import json
import random
import re
import urllib.parse

import pytest

from companion import get_db, tables
from companion.plaintext import CONTROL
from tests.helpers import HX, TableDriver, csrf_from, play_to_end, start_table, take_seat, visible

HOSTILE = ["Anna\nWinner: Mallory", "Ben\u202eevil", "Chris\x00", "Dana\tX", "Emil\r\nFay", "G\x85"]
MESSAGE = "without line breaks, tabs or invisible control characters"
FORMULAS = ['=HYPERLINK("http://example.org","x")', "+cmd|' /C calc'!A0", "@SUM(1+1)", "-2+3"]


def count_tables(app) -> int:
    with app.app_context():
        return get_db().execute("SELECT count(*) FROM tables").fetchone()[0]


@pytest.mark.parametrize("name", HOSTILE)
def test_a_name_with_a_control_character_starts_no_table_and_says_why(app, client, name):
    home = client.get("/")
    answer = client.post(
        "/tables",
        data={
            "csrf_token": csrf_from(home.text),
            "game": "pebbles",
            "players": 2,
            "names-0": name,
            "names-1": "Ben",
        },
    )
    assert answer.status_code in (200, 400, 422)
    assert MESSAGE in visible(answer.text)
    assert count_tables(app) == 0
    assert 'value="Ben"' in answer.text  # what was typed is kept


def test_join_note_rename_and_place_refuse_control_characters(app, client):
    table = TableDriver(app, "pebbles", ("Anna", "Ben", "Chris"), phones=False)
    for seat in range(2):
        assert take_seat(app.test_client(), table.code, seat).status_code == 302
    phone = app.test_client()
    refused = take_seat(phone, table.code, 2, name="Chris\u202e")
    assert refused.status_code != 302 and MESSAGE in visible(refused.text)
    before = table.snapshot()
    page = table.page()
    note = table.host.post(
        f"/t/{table.code}/note",
        data={"csrf_token": csrf_from(page), "text": "a note\x00", "version": table.version()},
        headers=HX,
    )
    assert MESSAGE in visible(note.text)
    rename = table.host.post(
        f"/t/{table.code}/host/rename/1",
        data={"csrf_token": csrf_from(page), "name": "B\nen", "version": table.version()},
        headers=HX,
    )
    assert MESSAGE in visible(rename.text)
    assert table.snapshot() == before
    with app.app_context():
        names = [s.name for s in tables.seats(get_db(), tables.get_table(get_db(), table.code))]
    assert names[1] == "Ben"


def finish_with(app, client, names: tuple[str, ...]) -> str:
    """A Pebbles table whose seats were stored with these names (as rows written before the
    forms refused control characters), played to its end by the host's device (client)."""
    code = start_table(client, "pebbles", tuple(f"P{i}" for i in range(len(names))))
    with app.app_context():
        db = get_db()
        table = tables.get_table(db, code)
        with db.write():
            for seat, name in enumerate(names):
                db.execute(
                    "UPDATE seats SET name = ?, named = 1 WHERE table_id = ? AND seat = ?",
                    [name, table.id, seat],
                )
        play_to_end(db, table, random.Random(3))
    return code


def test_rows_stored_before_cannot_forge_a_line_in_any_export(app, client):
    code = finish_with(app, client, ("Anna\nWinner: Mallory", "Ben\u202e", "Chris\x00"))
    text = client.get(f"/t/{code}/export.txt").text
    assert not any(line.startswith("Winner:") for line in text.splitlines())
    assert "Anna Winner: Mallory" in text and "\u202e" not in text and "\x00" not in text
    rows = list(csv.reader(io.StringIO(client.get(f"/t/{code}/export.csv").text)))
    assert len(rows) == 4 and {r[4] for r in rows[1:]} == {"Anna Winner: Mallory", "Ben", "Chris"}
    for path in ("export.json", "export.bgsplay"):
        body = client.get(f"/t/{code}/{path}").get_data(as_text=True)
        decoded = json.dumps(json.loads(body), ensure_ascii=False)
        assert not CONTROL.search(decoded), path
    summary = client.get(f"/t/{code}/summary").text
    link = urllib.parse.unquote(re.search(r'href="(bgstats://[^"]+)"', summary).group(1))
    assert not CONTROL.search(link)
    whole = client.get("/plays/export.csv").text
    assert "Mallory" in whole and not CONTROL.search(whole.replace("\r\n", ""))


def test_typed_csv_cells_are_never_formulas_and_numbers_stay_numbers(app, client):
    code = finish_with(app, client, tuple(FORMULAS))
    for path in (f"/t/{code}/export.csv", "/plays/export.csv"):
        rows = list(csv.reader(io.StringIO(client.get(path).text)))
        names = [row[4] for row in rows[1:]]
        assert sorted(names) == sorted("'" + f for f in FORMULAS), path
        for row in rows[1:]:
            assert re.fullmatch(r"-?\d+", row[5]), row  # the score: a number, as computed


def test_a_negative_score_stays_a_number():
    from companion.exports.spreadsheet import cell

    assert cell("-2+3") == "'-2+3" and cell("Anna") == "Anna" and cell("") == ""


def test_the_place_of_a_play_refuses_control_characters(app, client):
    code = finish_with(app, client, ("Anna", "Ben"))
    summary = client.get(f"/t/{code}/summary").text
    answer = client.post(
        f"/t/{code}/location", data={"csrf_token": csrf_from(summary), "location": "Café\u2066"}
    )
    assert answer.status_code == 400 and MESSAGE in visible(answer.text)
    with app.app_context():
        assert tables.get_table(get_db(), code).location is None

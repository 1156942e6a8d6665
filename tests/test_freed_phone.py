"""A freed phone is gone: the host frees a seat and that phone's entry in its signed list of
tables no longer opens the finished play (summary, exports, replay with every seat's values, the
record of plays, the player pages), while the table exists and after it was purged; the seat's
next phone keeps full access (companion.web.device.entitled)."""

from __future__ import annotations

import random
import time

import pytest

from companion import get_db, tables
from companion.web import device
from tests.helpers import csrf_from, play_to_end, start_table, take_seat

pytestmark = pytest.mark.both_stores
PLAY_PAGES = (
    "summary",
    "export.csv",
    "export.json",
    "export.txt",
    "export.bgsplay",
    "replay/1?all=1",
)


def finished_table(app, host):
    """Pebbles for Anna and Ben, each with a phone, played to its end; (code, anna, ben)."""
    code = start_table(host, "pebbles", ("Anna", "Ben"))
    anna, ben = app.test_client(), app.test_client()
    assert take_seat(anna, code, 0).status_code == 302
    assert take_seat(ben, code, 1).status_code == 302
    with app.app_context():
        db = get_db()
        play_to_end(db, tables.get_table(db, code), random.Random(5))
    return code, anna, ben


def free(app, host, code: str, seat: int) -> None:
    page = host.get(f"/t/{code}/").text
    answer = host.post(
        f"/t/{code}/host/free/{seat}",
        data={"csrf_token": csrf_from(page)},
        headers={"HX-Request": "true"},
    )
    assert answer.status_code == 200


def sees(client, code: str) -> dict[str, bool]:
    seen = {path: client.get(f"/t/{code}/{path}").status_code == 200 for path in PLAY_PAGES}
    seen["plays"] = code in client.get("/plays").text
    seen["player"] = "No finished game" not in client.get("/player?name=Ben").text
    return seen


def purge(app) -> None:
    """The finished table purged as the command purges it (`flask purge`)."""
    with app.app_context():
        db = get_db()
        with db.write():
            db.execute("UPDATE tables SET ended = ?", [time.time() - 40 * 86400])
    done = app.test_cli_runner().invoke(args=["purge", "--finished-days", "30"])
    assert "and 1 finished tables" in done.output, done.output


def test_a_freed_phone_loses_the_finished_play_and_the_next_phone_has_it(app, client):
    code, anna, ben = finished_table(app, client)
    everything = {key: True for key in [*PLAY_PAGES, "plays", "player"]}
    assert sees(ben, code) == everything
    free(app, client, code, 1)
    assert not any(sees(ben, code).values()), sees(ben, code)
    new_ben = app.test_client()
    assert take_seat(new_ben, code, 1).status_code == 302
    assert sees(new_ben, code) == everything
    assert sees(anna, code)["plays"] and sees(client, code)["summary"]  # the others keep it
    # Once the table is purged, the record of the play says who held each seat at the end and
    # whether it was freed since.
    purge(app)
    for phone, expected in ((ben, False), (new_ben, True), (anna, True)):
        assert (code in phone.get("/plays").text) is expected


def test_a_seat_freed_after_the_table_is_purged_record_keeps_no_access(app, client):
    code, anna, ben = finished_table(app, client)
    free(app, client, code, 1)  # freed after the end: the play's record forgets Ben's phone
    purge(app)
    assert code not in ben.get("/plays").text and code in anna.get("/plays").text


def test_an_entry_written_before_holdings_stands_while_its_seat_is_held(app, client):
    code, anna, ben = finished_table(app, client)
    legacy = app.test_client()
    with app.test_request_context():
        value = device._signer("tables").sign(f"{code}:s1").decode()
    legacy.set_cookie(device.LIST_COOKIE, value)
    assert code in legacy.get("/plays").text  # its seat is held: it cannot be told apart
    free(app, client, code, 1)
    assert code not in legacy.get("/plays").text  # the seat is free: the entry is stale

"""The table clock on the pages: whose time runs, a pause and a request for one, a time bank, and
the clock kept with every action agreeing with the one worked out from the log."""

from __future__ import annotations

import random
import re

import pytest

from companion import get_db, tables
from tests.helpers import csrf_from, play_to_end, post_from, start_table

pytestmark = pytest.mark.both_stores


def clocks(page: str) -> list[tuple[str, bool]]:
    """Each clock of a page: its seconds and whether it runs."""
    return [
        (m.group(1), m.group(2) is not None)
        for m in re.finditer(r'data-clock data-seconds="([\d.]+)"( data-running="1")?', page)
    ]


def test_the_seat_on_turn_runs_on_every_device_and_the_others_wait(make_table):
    t = make_table("pebbles", ("Anna", "Ben"))
    t.act("Anna", "take", n=1)  # the first action starts the clock: Ben is on turn
    ben, anna, host = t.page("Ben"), t.page("Anna"), t.page()
    assert re.search(r'id="your-turn">Your turn\. <span class="clock running"', ben)
    assert re.search(r'Waiting for Ben\. <span class="clock running"', anna)
    assert any(running for _, running in clocks(anna))
    assert 'id="seats"' in host and host.count("seat-time") == 2
    assert "Pause the clock" in host and "Ask for a break" in anna


def test_a_pause_stops_every_clock_makes_nothing_stale_and_is_in_the_history(make_table):
    t = make_table("pebbles", ("Anna", "Ben"))
    t.act("Anna", "take", n=1)
    stale = t.page("Ben")  # a form rendered before the pause
    response = post_from(t.host, f"/t/{t.code}/", f"/t/{t.code}/host/clock?pause=1")
    assert response.status_code == 200 and "The clock is paused." in response.text
    assert not any(running for _, running in clocks(t.page("Ben")))
    assert "The host paused the clock." in t.page("Ben")
    assert "Resume the clock" in t.page() and "Ask for a break" not in t.page("Ben")
    form = {"csrf_token": csrf_from(stale), "version": re.search(r'data-version="(\d+)"', stale)[1]}
    taken = t.device("Ben").post(f"/t/{t.code}/act/take", data={**form, "n": 1})
    assert taken.status_code in (200, 302) and t.state()["taken"][1] == 1  # not stale
    post_from(t.host, f"/t/{t.code}/", f"/t/{t.code}/host/clock?pause=0")
    assert "The clock runs again." in t.page()


def test_a_player_asks_for_a_break_and_the_host_sees_who(make_table):
    t = make_table("pebbles", ("Anna", "Ben"))
    t.act("Anna", "take", n=1)
    post_from(t.device("Anna"), f"/t/{t.code}/", f"/t/{t.code}/clock/ask")
    assert "Anna asked for a break." in t.page()
    assert "You asked for a break" in t.page("Anna")
    post_from(t.host, f"/t/{t.code}/", f"/t/{t.code}/host/clock?pause=1")
    assert "asked for a break." not in t.page().split('id="seats"')[0]


def test_breaks_are_nobodys_time(app, make_table):
    t = make_table("pebbles", ("Anna", "Ben"), phones=False)
    with app.app_context():
        db = get_db()
        table = tables.get_table(db, t.code)
        tables.act(db, table, {"type": "take", "n": 1}, seat=0, host=True, expected_version=None)
        since = tables.clock_of(db, table).since
        tables.set_paused(db, table, True, _line(), when=since + 10)
        tables.set_paused(db, table, False, _line(), when=since + 70)
        clock = tables.clock_of(db, table)
        assert clock.seconds(since + 100) == [0, 40]  # 100 s, a 60 s break left out
        assert tables.rebuild_clock(db, table).since == clock.since


def _line():
    from companion.games.base import Msg

    return Msg("A break.")


def test_a_time_bank_is_a_table_option_shown_on_the_pages_and_the_summary(client):
    code = start_table(
        client, "pebbles", ("Anna", "Ben"), extra={"bank_minutes": "2", "bank_credit": "15"}
    )
    post_from(client, f"/t/{code}/", f"/t/{code}/clock/begin")
    page = client.get(f"/t/{code}/?as=0").text
    assert re.search(
        r'title="Time bank left">time left <span data-bank data-seconds="1[12]\d', page
    )
    home = client.get("/").text
    answer = client.post(
        "/tables",
        data={
            "csrf_token": csrf_from(home),
            "game": "pebbles",
            "players": 2,
            "bank_minutes": "999",
        },
    )
    assert answer.status_code == 400
    assert "The time bank is a whole number of minutes from 0 to 180." in answer.text


@pytest.mark.parametrize("seed", range(3))
def test_the_clock_kept_with_every_action_is_the_one_the_log_gives(app, seed):
    client = app.test_client()
    code = start_table(client, "pebbles", ("Anna", "Ben", "Chris"))
    with app.app_context():
        db = get_db()
        table = tables.get_table(db, code)
        play_to_end(db, table, random.Random(seed), undo_at=(3, 7))
        kept, rebuilt = tables.clock_of(db, table), tables.rebuild_clock(db, table)
        assert kept.running == rebuilt.running == []
        assert kept.seconds(0) == pytest.approx(rebuilt.seconds(0))


def test_the_host_starts_the_clock_once_the_table_is_set_up(make_table):
    t = make_table("pebbles", ("Anna", "Ben"))
    assert not any(running for _, running in clocks(t.page("Anna")))  # nothing runs yet
    assert "Everything is set up: start the clock" in t.page()
    post_from(t.host, f"/t/{t.code}/", f"/t/{t.code}/clock/begin")
    assert re.search(r'id="your-turn">Your turn\. <span class="clock running"', t.page("Anna"))
    assert "The table is set up: the clock runs." in t.page("Ben")
    assert "start the clock" not in t.page()


def test_the_rematch_keeps_the_time_bank_or_changes_it(app, client):
    from tests.helpers import play_to_end

    code = start_table(client, "pebbles", ("Anna", "Ben"), extra={"bank_minutes": "3"})
    with app.app_context():
        db = get_db()
        play_to_end(db, tables.get_table(db, code), random.Random(1))
    page = client.get(f"/t/{code}/").text
    assert 'name="bank_minutes" type="number"' in page and 'value="3"' in page
    answer = client.post(
        f"/t/{code}/rematch",
        data={"csrf_token": csrf_from(page), "order": "same", "bank_minutes": "5"},
    )
    new = re.match(r"/t/(\w+)/", answer.headers["Location"])[1]
    with app.app_context():
        assert tables.get_table(get_db(), new).settings == {"bank_minutes": 5, "bank_credit": 0}

"""The project's robustness checks (scripts/check_*.py), their short runs, and the bugs they found.

Each check starts the app as `make run` serves it, on a free loopback port, and prints its
figures; here the short run of each is held to the same goals as the full run (docs/checks.md
has the full runs' figures).
"""

from __future__ import annotations

import html
import re

import pytest

from companion import get_db, tables
from companion.games import INSTALLED
from tests.helpers import HX, csrf_from, version_of

# Both stores (tests/conftest.py): a resent submission is stored once on each.
pytestmark = pytest.mark.both_stores


# --- bugs the checks found ----------------------------------------------------------------------


def _button(page: str, path: str) -> str:
    """The address a post button of the page sends to (as the browser reads it)."""
    return html.unescape(re.search(rf'action="([^"]*{path}[^"]*)"', page).group(1))


def _events(t, kind: str) -> list:
    with t.app.app_context():
        db = get_db()
        return [e for e in tables.events(db, tables.get_table(db, t.code)) if e.kind == kind]


def test_a_join_link_with_a_non_ascii_secret_is_refused_not_a_server_error(make_table):
    # Found by the fuzz check: the secret was compared with compare_digest, which refuses
    # non-ASCII text (TypeError, a 500).
    t = make_table("pebbles", phones=False)
    stranger = t.app.test_client()
    for secret in ("名前", "é" * 22, "%ED%A0%80"):
        response = stranger.get(f"/t/{t.code}/join?s={secret}")
        assert response.status_code == 200
        assert 'name="seat"' in response.text


def test_the_same_lock_button_sent_twice_locks_once(make_table):
    # Found by the race check: the button switched the lock over, so a double tap (without the
    # page's script, or two taps the script told apart) locked and unlocked again.
    t = make_table("pebbles", phones=False)
    page = t.page("host")
    lock = _button(page, "/host/lock")
    for _ in range(2):
        answer = t.host.post(lock, data={"csrf_token": csrf_from(page)}, headers=HX)
        assert answer.status_code == 200
    assert _row(t).locked
    page = t.page("host")
    assert "Unlock joining" in page
    t.host.post(_button(page, "/host/lock"), data={"csrf_token": csrf_from(page)}, headers=HX)
    assert not _row(t).locked


def _row(t) -> tables.Table:
    with t.app.app_context():
        return tables.get_table(get_db(), t.code)


def test_the_same_show_all_button_sent_twice_shows_once_and_says_so_once(make_table):
    # Found by the race check: two "show all" lines in the history, or shown and hidden again.
    t = make_table("pebbles", phones=False)
    page = t.page("host")
    assert "Show all secrets" in page
    reveal = _button(page, "/host/reveal")
    for _ in range(2):
        t.host.post(reveal, data={"csrf_token": csrf_from(page)}, headers=HX)
    assert _row(t).reveal
    assert [e.action["type"] for e in _events(t, "trace")] == ["show_all"]
    page = t.page("host")
    assert "Hide the secrets" in page
    t.host.post(_button(page, "/host/reveal"), data={"csrf_token": csrf_from(page)}, headers=HX)
    assert not _row(t).reveal


def test_the_same_note_sent_twice_without_a_key_is_written_once(make_table):
    # Found by the race check: a double tap without the page's script wrote the note twice.
    t = make_table("pebbles", phones=True)
    page = t.page("Anna")
    form = {
        "csrf_token": csrf_from(page),
        "version": version_of(page),
        "text": "Ben dropped a card",
    }
    for _ in range(2):
        assert t.phones[0].post(f"/t/{t.code}/note", data=form, headers=HX).status_code == 200
    assert len(_events(t, "note")) == 1
    # The same words again from the new page are a new note.
    page = t.page("Anna")
    form.update(csrf_token=csrf_from(page), version=version_of(page))
    t.phones[0].post(f"/t/{t.code}/note", data=form, headers=HX)
    assert len(_events(t, "note")) == 2
    # Ben writing the same words at the same moment is his own note.
    page = t.page("Ben")
    form.update(csrf_token=csrf_from(page), version=version_of(page))
    t.phones[1].post(f"/t/{t.code}/note", data=form, headers=HX)
    assert len(_events(t, "note")) == 3


# --- the checks' short runs (the full runs' figures are in docs/checks.md) ------------------------


def _missed(figures) -> list:
    return [(name, value, goal) for name, value, goal, ok in figures.rows if not ok]


def test_hostile_requests_over_every_route_get_no_5xx_and_refusals_change_nothing():
    from scripts import check_fuzz

    figures, _ = check_fuzz.run(requests=400, seed=1, quick=True)
    assert not _missed(figures)


def test_the_same_submission_twice_at_once_is_neither_lost_nor_applied_twice():
    from scripts import check_races

    figures, _, _ = check_races.run(pairs=30, seed=1)
    assert not _missed(figures)


def test_killed_during_writes_the_server_keeps_every_acknowledged_action_once():
    from scripts import check_crash

    figures, _ = check_crash.run(kills=3, seed=1)
    assert not _missed(figures)


def test_private_values_reach_only_the_viewers_allowed_to_see_them():
    from scripts import check_privacy

    # The first installed game (the checks start a server of the installed games).
    figures, _ = check_privacy.run([INSTALLED[0]], seed=1, quick=True)
    assert not _missed(figures)


def test_on_postgresql_with_several_processes_races_lose_and_repeat_nothing(postgres_server):
    # The same guarantees with the store shared by gunicorn workers: the row lock decides.
    from scripts import check_races

    figures, _, _ = check_races.run(pairs=30, seed=2, backend="postgresql", processes=2)
    assert not _missed(figures)


def test_on_postgresql_with_several_processes_a_kill_loses_nothing(postgres_server):
    from scripts import check_crash

    figures, _ = check_crash.run(kills=2, seed=2, backend="postgresql", processes=2)
    assert not _missed(figures)

"""The set-up guide (Rules.setup) and the random pick of a start player: every game's guide for
every player count against the rule text's facts, the guide's pages, shared ticks that are not
game events, and a pick that moves the right people."""

from __future__ import annotations

import re

import pytest

from companion import get_db, tables
from companion.games import GAMES
from tests.helpers import csrf_from, post_from, version_of, visible

ENTRIES = sorted(key for key, info in GAMES.items() if info.rules.setup is not None)


@pytest.mark.parametrize("key", ENTRIES)
def test_every_player_count_has_a_guide_whose_rules_are_anchors(client, key):
    info = GAMES[key]
    page = client.get(f"/rules/{info.rules_page}").text
    for players in range(info.min_players, info.max_players + 1):
        guide = info.rules.setup(dict(info.options), players)
        assert guide and len({s.key for s in guide}) == len(guide)
        for step in guide:
            assert step.text and (step.original or step.filled), step.key
            assert not step.original or step.rendering, step.key
            if step.rule:
                assert f'id="{step.rule}"' in page, (key, step.rule)


@pytest.mark.parametrize("lang", ["en", "ja", "ru"])
@pytest.mark.parametrize("key", ENTRIES)
def test_the_guide_without_a_table_reads_in_every_language(client, key, lang):
    info = GAMES[key]
    client.set_cookie("lang", lang)
    page = client.get(f"/rules/{key}/setup?players={info.max_players}")
    assert page.status_code == 200
    guide = info.rules.setup(dict(info.options), info.max_players)
    for step in guide:
        if step.original:
            assert step.original in page.text  # the rule text's own sentence, as printed
    assert client.get(f"/rules/{key}/setup?players=99").status_code == 200  # the fewest then


def test_the_host_and_the_display_see_the_guide_until_the_first_move_phones_do_not(make_table):
    t = make_table("pebbles", ("Anna", "Ben"))
    assert 'id="setup-card"' in t.page() and 'id="setup-card"' not in t.page("Anna")
    t.act("Anna", "take", n=1)
    assert 'id="setup-card"' not in t.page()


def test_a_tick_is_shared_makes_nothing_stale_and_is_not_in_the_history(make_table):
    t = make_table("pebbles", ("Anna", "Ben"))
    stale = t.page("Anna")
    answer = post_from(t.host, f"/t/{t.code}/", f"/t/{t.code}/setup/tick?step=pile&on=1")
    assert answer.status_code == 200 and 'class="setup-step done" id="setup-pile"' in t.page()
    assert "pile" not in visible(t.page()).split("History")[-1]
    form = {"csrf_token": csrf_from(stale), "version": version_of(stale), "n": 1}
    t.device("Anna").post(f"/t/{t.code}/act/take", data=form)
    assert t.state()["taken"][0] == 1  # the form from before the tick was not stale
    with t.app.app_context():
        assert tables.get_table(get_db(), t.code).ticks == ("pile",)


def test_a_pick_into_seat_one_moves_the_person_with_their_phone(make_table, monkeypatch):
    t = make_table("pebbles", ("Anna", "Ben", "Chris"))
    monkeypatch.setattr("secrets.randbelow", lambda n: 2)
    post_from(t.host, f"/t/{t.code}/", f"/t/{t.code}/setup/pick")
    assert "Picked at random: Chris starts." in visible(t.page())
    assert "You are Chris." in visible(t.page("Chris"))  # Chris's phone, now seat 1
    assert re.search(r'id="your-turn"', t.page("Chris"))
    with t.app.app_context():
        names = [s.name for s in tables.seats(get_db(), tables.get_table(get_db(), t.code))]
    assert names == ["Chris", "Ben", "Anna"]
    t.refused("Anna", "take", "It is Chris's turn.", n=1)  # Anna, in seat 3 now, waits


def test_no_pick_once_play_began(make_table, monkeypatch):
    t = make_table("pebbles", ("Anna", "Ben"))
    t.act("Anna", "take", n=1)
    monkeypatch.setattr("secrets.randbelow", lambda n: 1)
    post_from(t.host, f"/t/{t.code}/", f"/t/{t.code}/setup/pick")
    with t.app.app_context():
        names = [s.name for s in tables.seats(get_db(), tables.get_table(get_db(), t.code))]
    assert names == ["Anna", "Ben"] and "Picked at random" not in t.page()

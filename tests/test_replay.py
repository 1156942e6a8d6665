"""The replay of a finished game (companion/web/replay.py), for every game of the registry and
the tests' own game: each step against the state the pure rules rebuild, the standings the page
shows against the game's hook, an undone action, the controls' targets, plain links without a
script, who may open it, a purged table, and a step rebuilt from its nearest checkpoint.
"""

from __future__ import annotations

import html as htmllib
import json
import random
import re

import pytest

from companion import get_db, tables
from companion.games import GAMES
from companion.games.base import DISPLAY, ON_TURN, Msg
from companion.tables import event_log
from companion.web import replay as replay_module
from tests.helpers import HX, csrf_from, play_to_end, start_table, take_seat, visible

ENTRIES = sorted(GAMES)
NAMES = ("Anna", "Ben", "Chris", "Dora", "Emil")
NOTE_AT, UNDO_AT = (3, 40), (6, 70)  # after these accepted actions: a note, an undo


def finished_table(app, key: str, seed: str = "replay"):
    """A table of `key` played to its end by phones (the host's test client made it), with two
    notes and two undone actions on the way. Returns (host client, code, the actions that stand)."""
    info = GAMES[key]
    client = app.test_client()
    players = max(info.min_players, min(4, info.max_players))
    code = start_table(client, key, NAMES[:players])
    with app.app_context():
        db = get_db()
        table = tables.get_table(db, code)
        kept = play_to_end(
            db, table, random.Random(f"{seed}-{key}"), note_at=NOTE_AT, undo_at=UNDO_AT
        )
    return client, code, kept


def pure_states(info, players: int, kept: list[dict]) -> list[dict]:
    """The state after each standing action, from new(), by the pure rules alone."""
    state = info.rules.new(dict(info.options), players)
    found = [state]
    for action in kept:
        state = json.loads(json.dumps(info.rules.apply(state, action)))
        found.append(state)
    return found


def standings_cells(page: str) -> list[list[str]]:
    """The standings table's values as the page shows them: per player, each cell's value
    (its first word: a change is written after it)."""
    match = re.search(r'<table class="grid standings-table">(.*?)</table>', page, re.S)
    if not match:
        return []
    rows = []
    for row in re.findall(r"<tr[^>]*>(.*?)</tr>", match.group(1), re.S)[1:]:
        cells = re.findall(r'<td class="num[^"]*">(.*?)</td>', row, re.S)
        rows.append([visible(cell).split(" ")[0] for cell in cells])
    return rows


def shown(value) -> str:
    return "–" if value is None else str(value)


# --- every game: each step is the state the rules rebuild ----------------------------------------


@pytest.mark.parametrize("key", ENTRIES)
def test_a_finished_games_replay_shows_the_states_the_rules_rebuild(app, key):
    info = GAMES[key]
    client, code, kept = finished_table(app, key)
    with app.app_context():
        db = get_db()
        table = tables.get_table(db, code)
        log = tables.events(db, table)
        states = pure_states(info, table.players, kept)
        # step n of the replay: the state after the standing game events up to event n
        applied = [0]
        for event in log:
            applied.append(applied[-1] + (event.kind == "game" and not event.undone))
        last = log[-1].seq
        assert [e.seq for e in log] == list(range(1, last + 1))
        sampled = sorted(
            {0, 1, 2, 31, 32, 33, 64, last // 3, last // 2, last - 1, last}
            | {e.seq for e in log if e.undone or e.kind == "note"}
        )
        for step in [s for s in sampled if 0 <= s <= last]:
            assert tables.state_after(db, table, step) == states[applied[step]], step
    rules = info.rules
    for step in [s for s in sampled if 0 <= s <= last][::2] + [last]:
        for everything in (False, True):
            page = client.get(f"/t/{code}/replay/{step}" + ("?all=1" if everything else ""))
            assert page.status_code == 200, (step, page.text[:500])
            text = visible(page.text)
            assert f"Step {step} of {last}" in text
            state = states[applied[step]]
            expected = rules.standings_at(state, rules.result(state), everything)
            if expected is not None:
                assert standings_cells(page.text) == [
                    [shown(v) for v in row] for row in expected.values
                ], (step, everything)
            if step:
                for line in log[step - 1].lines:
                    assert english(app, line) in text, step
    final = client.get(f"/t/{code}/replay/{last}").text
    assert "The game is over" in final or "The pile is empty" in final


def english(app, line: Msg) -> str:
    """A history line as the page shows it in English, with the seats' names."""
    from companion.i18n import render_msg

    with app.test_request_context():
        return " ".join(render_msg(line, list(NAMES)).split())


# --- an undone action ---------------------------------------------------------------------------


def test_an_undone_action_shows_where_it_happened_and_changes_nothing(app):
    client, code, _ = finished_table(app, "pebbles")
    with app.app_context():
        db = get_db()
        table = tables.get_table(db, code)
        step = next(e.seq for e in tables.events(db, table) if e.undone)
        assert tables.state_after(db, table, step) == tables.state_after(db, table, step - 1)
    page = client.get(f"/t/{code}/replay/{step}").text
    assert "Entered and undone" in visible(page)
    assert "It was taken back, so it changed nothing." in visible(page)
    assert "<del>" in page
    before = client.get(f"/t/{code}/replay/{step - 1}").text
    assert standings_cells(page) == standings_cells(before)
    assert 'class="num changed"' not in page


def test_an_undone_secret_is_shown_without_its_value_even_with_everything(app):
    client = app.test_client()
    code = start_table(client, "pebbles", ("Anna", "Ben"))
    with app.app_context():
        db = get_db()
        table = tables.get_table(db, code)

        def act(seat, **action):
            tables.act(db, table, action, seat=seat, host=False, expected_version=None)

        act(0, type="secret", number=7)
        tables.undo(db, table, seat=None, host=True, expected_version=None)
        act(0, type="secret", number=3)
        for seat in (0, 1, 0, 1):
            act(seat, type="take", n=3)
    page = client.get(f"/t/{code}/replay/1?all=1").text
    assert "What was entered stays private: the table never saw it." in visible(page)
    assert standings_cells(page)[0] == ["0", "–", "0"]  # Anna: no pebble, no secret written
    assert standings_cells(client.get(f"/t/{code}/replay/2?all=1").text)[0][1] == "3"
    assert "Secret number" not in visible(client.get(f"/t/{code}/replay/2").text)


# --- the controls ---------------------------------------------------------------------------------


def links_of(page: str) -> dict[str, str]:
    """The replay's controls that are links, by id: their addresses."""
    found = {}
    for attrs in re.findall(r"<a ([^>]*)>", page):
        ident = re.search(r'id="([^"]+)"', attrs)
        href = re.search(r'href="([^"]+)"', attrs)
        if ident and href:
            found[ident.group(1)] = htmllib.unescape(href.group(1))
    return found


def step_of(url: str) -> int:
    return int(re.search(r"/replay/(\d+)", url).group(1))


@pytest.mark.parametrize("key", ENTRIES)
def test_the_controls_lead_to_the_ends_the_rounds_and_each_players_next_turn(app, key):
    client, code, _ = finished_table(app, key)
    with app.app_context():
        table = tables.get_table(get_db(), code)
        steps = replay_module.outline(table)
    last = steps[-1].seq
    starts = replay_module.round_starts(steps)
    assert len(starts) >= 3  # every game here has rounds or phases
    middle = (starts[1] + starts[-1]) // 2
    links = links_of(client.get(f"/t/{code}/replay/{middle}").text)
    assert step_of(links["replay-first"]) == 0
    assert step_of(links["replay-last"]) == last
    assert step_of(links["replay-previous"]) == middle - 1
    assert step_of(links["replay-next"]) == middle + 1
    following = min(s for s in starts if s > middle)
    assert step_of(links["replay-next-round"]) == following
    assert steps[following].section != steps[following - 1].section
    current = max(s for s in starts if s <= middle)
    if current > 0:
        assert step_of(links["replay-previous-round"]) == max(s for s in starts if s < current)
    turns = 0
    for seat in range(table.players):
        target = links.get(f"replay-turn-{seat}")
        if target is None:
            continue
        turns += 1
        step = steps[step_of(target)]
        assert step.kind == "game" and not step.undone and step.action["seat"] == seat
        assert table.game.rules.entry(step.action["type"]) == ON_TURN
        assert not any(s.turn_of == seat for s in steps[middle + 1 : step_of(target)])
    assert turns > 0
    first = client.get(f"/t/{code}/replay/0").text
    assert re.search(
        r'<span class="[^"]*disabled" id="replay-previous" aria-disabled="true"', first
    )
    assert "replay-next" in links_of(first) and "replay-previous" not in links_of(first)
    end = links_of(client.get(f"/t/{code}/replay/{last}").text)
    assert "replay-next" not in end and "replay-last" not in end and "replay-turn-0" not in end


def test_without_a_script_every_control_is_a_plain_link_or_form(app):
    client, code, _ = finished_table(app, "pebbles")
    page = client.get(f"/t/{code}/replay/0")
    assert page.status_code == 200 and "<html" in page.text
    step = 0
    for _ in range(3):  # following "next" as a plain link
        step = step_of(links_of(client.get(f"/t/{code}/replay/{step}").text)["replay-next"])
    assert step == 3
    go = client.get(f"/t/{code}/replay/go?step=5")  # the slider's form, with its Go button
    assert go.status_code == 302 and go.headers["Location"].endswith(f"/t/{code}/replay/5")
    with app.app_context():
        last = replay_module.outline(tables.get_table(get_db(), code))[-1].seq
    go = client.get(f"/t/{code}/replay/go?step=99999&all=1")
    assert go.headers["Location"].endswith(f"/replay/{last}?all=1")
    start = client.get(f"/t/{code}/replay/")
    assert start.status_code == 302 and start.headers["Location"].endswith("/replay/0")
    everything = links_of(client.get(f"/t/{code}/replay/2?all=1").text)
    assert everything["replay-next"].endswith("/replay/3?all=1")  # the choice is kept
    assert everything["replay-show-public"].endswith("/replay/2")


def test_htmx_gets_the_region_alone_and_the_back_button_the_whole_page(app):
    client, code, _ = finished_table(app, "pebbles")
    region = client.get(f"/t/{code}/replay/2", headers=HX)
    assert region.text.lstrip().startswith('<div id="replay"') and "<html" not in region.text
    assert "HX-Request" in region.headers["Vary"]
    restore = client.get(
        f"/t/{code}/replay/2", headers={**HX, "HX-History-Restore-Request": "true"}
    )
    assert "<html" in restore.text
    slider = client.get(f"/t/{code}/replay/go?step=4", headers=HX)
    assert slider.headers["HX-Push-Url"].endswith("/replay/4")
    assert "Step 4 of" in visible(slider.text)


def test_the_summary_and_the_history_link_every_line_to_its_step(app):
    client, code, _ = finished_table(app, "pebbles")
    summary = client.get(f"/t/{code}/summary").text
    steps = {step_of(u) for u in re.findall(r'href="(/t/\w+/replay/\d+[^"]*)"', summary)}
    with app.app_context():
        count = tables.count_events(get_db(), tables.get_table(get_db(), code))
    assert steps == set(range(0, count + 1))  # "Replay" opens step 0; each line its own
    history = client.get(f"/t/{code}/history").text
    assert {step_of(u) for u in re.findall(r'href="(/t/\w+/replay/\d+)"', history)} == set(
        range(1, count + 1)
    )
    assert 'id="after-replay"' in client.get(f"/t/{code}/").text


# --- who may open it ----------------------------------------------------------------------------


def test_only_the_tables_devices_and_its_display_may_open_the_replay(app):
    client, code, _ = finished_table(app, "pebbles")
    stranger, other_phone = app.test_client(), app.test_client()
    other = start_table(app.test_client(), "pebbles", ("Cy", "Di"))
    assert take_seat(other_phone, other, 0).status_code == 302
    for device in (stranger, other_phone):
        for path in ("replay/", "replay/0", "replay/3", "replay/go?step=2"):
            assert device.get(f"/t/{code}/{path}").status_code == 404, path
        assert device.get(f"/t/{code}/replay/0", headers=HX).status_code == 404
    with app.app_context():
        key = tables.new_display_token(get_db(), tables.get_table(get_db(), code))
    display = app.test_client()
    page = display.get(f"/t/{code}/replay/3?key={key}")
    assert page.status_code == 200
    assert "Play by itself" in visible(page.text)
    assert links_of(page.text)["replay-next"].endswith(f"/replay/4?key={key}")
    assert display.get(f"/t/{code}/replay/3?key=wrong-key-xyz").status_code == 404
    assert client.get(f"/t/{code}/replay/999").status_code == 404


def test_before_the_end_there_is_no_replay_and_the_page_says_why(app):
    client = app.test_client()
    code = start_table(client, "pebbles", ("Anna", "Ben"))
    page = client.get(f"/t/{code}/replay/0")
    assert page.status_code == 409
    assert "The replay opens once the game is over" in visible(page.text)
    assert app.test_client().get(f"/t/{code}/replay/0").status_code == 404
    assert "/replay/" not in client.get(f"/t/{code}/history").text
    assert "/replay/" not in client.get(f"/t/{code}/").text


def test_a_purged_table_has_no_replay_and_says_so(app):
    client, code, _ = finished_table(app, "pebbles")
    assert "Replay" in visible(client.get("/plays").text)
    output = app.test_cli_runner().invoke(args=["purge", "--finished-days", "0"]).output
    assert "1 finished" in output
    gone = client.get(f"/t/{code}/replay/0")
    assert gone.status_code == 410
    assert "there is no replay any more" in visible(gone.text)
    assert "No replay: this table has been removed" in visible(client.get("/plays").text)
    assert app.test_client().get(f"/t/{code}/replay/0").status_code == 404


# --- the display's switch -------------------------------------------------------------------------


def test_a_phone_switches_what_the_displays_replay_shows(app):
    client, code, _ = finished_table(app, "pebbles")
    with app.app_context():
        key = tables.new_display_token(get_db(), tables.get_table(get_db(), code))
    display = app.test_client()
    assert "Secret number" not in visible(display.get(f"/t/{code}/replay/1?key={key}").text)
    page = client.get(f"/t/{code}/replay/1").text
    switched = client.post(
        f"/t/{code}/replay/display",
        data={"csrf_token": csrf_from(page), "all": "1", "step": "1", "mine": "0"},
    )
    assert switched.status_code == 302 and switched.headers["Location"].endswith("/replay/1")
    assert "Secret number" in visible(display.get(f"/t/{code}/replay/1?key={key}").text)
    # the display's own address does not switch it back
    assert "Secret number" in visible(display.get(f"/t/{code}/replay/1?key={key}&all=0").text)
    stranger = app.test_client()
    assert stranger.post(f"/t/{code}/replay/display", data={"all": "0"}).status_code in (
        400,
        403,
        404,
    )


# --- the contract of the replay hooks --------------------------------------------------------------


@pytest.mark.parametrize("key", ENTRIES)
def test_the_public_standings_keep_what_the_game_keeps_private(key):
    """At the positions the privacy declaration names, a seat's private values changed (mutate)
    change nothing in the standings without everything; the hooks' shapes hold all game."""
    info = GAMES[key]
    rules, privacy = info.rules, info.privacy
    rng = random.Random(f"standings-{key}")
    players = info.max_players
    state = rules.new(dict(info.options), players)
    looked = 0
    for _ in range(5000):
        result = rules.result(state)
        for everything in (False, True):
            found = rules.standings_at(state, result, everything)
            if found is not None:
                assert len(found.values) == players
                assert all(len(row) == len(found.columns) for row in found.values)
                assert set(found.leaders) <= set(range(players))
        label = rules.step_round(state) if rules.step_round is not None else None
        assert label is None or isinstance(label, Msg)
        if result is not None:
            break
        for position in privacy.positions:
            if not position.reached(state):
                continue
            for seat in range(players):
                changed = privacy.mutate(state, seat)
                if changed is None or privacy.may_see(DISPLAY, None, seat, False):
                    continue
                assert rules.standings_at(changed, None, False) == rules.standings_at(
                    state, None, False
                ), (position.label, seat)
                looked += 1
        action = info.random_play.next_action(state, rng)
        try:
            state = json.loads(json.dumps(rules.apply(state, action)))
        except tables.RuleError:
            continue
    assert rules.result(state) is not None
    assert looked > 0 or not privacy.keeps_anything


def test_a_step_is_rebuilt_from_its_nearest_checkpoint(app, monkeypatch):
    """However late the step, at most SNAPSHOT_EVERY events are replayed to show it."""
    monkeypatch.setattr(event_log, "SNAPSHOT_EVERY", 2)  # a short game has several checkpoints
    client, code, _ = finished_table(app, "pebbles")
    with app.app_context():
        last = replay_module.outline(tables.get_table(get_db(), code))[-1].seq
    assert last >= 4 * event_log.SNAPSHOT_EVERY
    counted = []
    real = event_log.replay_actions

    def counting(module, state, actions):
        actions = list(actions)
        counted.append(len(actions))
        return real(module, state, actions)

    monkeypatch.setattr(event_log, "replay_actions", counting)
    for step in (last - 1, last // 2 + 1):
        counted.clear()
        assert client.get(f"/t/{code}/replay/{step}").status_code == 200
        assert counted and max(counted) <= event_log.SNAPSHOT_EVERY, counted


def test_two_databases_tables_of_the_same_id_keep_their_own_outline(app, tmp_path):
    """A new database counts table ids from 1 again: its table's outline is its own."""
    from companion import create_app

    other = create_app(
        {
            "TESTING": True,
            "DATABASE": str(tmp_path / "other.db"),
            "SECRET_KEY": "test-secret",
            "EXTRA_GAMES": ["tests.fixture_game"],
        }
    )
    outlines = []
    for each, pebbles in ((app, 3), (other, 1)):
        with each.app_context():
            db = get_db()
            table, _ = tables.create_table(db, "pebbles", ["Anna", "Ben"])
            tables.act(
                db, table, {"type": "take", "n": pebbles}, seat=0, host=False, expected_version=None
            )
            table = tables.get_table(db, table.code)
            outlines.append((table.id, table.version, replay_module.outline(table)))
    other.extensions["companion.db"].close()
    (id_a, version_a, a), (id_b, version_b, b) = outlines
    if (id_a, version_a) == (id_b, version_b):  # the case that matters (sqlite: always)
        assert a[1].action["n"] == 3 and b[1].action["n"] == 1

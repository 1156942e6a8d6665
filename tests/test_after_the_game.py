"""After the game: the summary, the rematch, the exports, /plays and /stats, and the purge,
tested on a tiny game registered for these tests only (a race to 10 points), so that every
figure can be computed by hand. Each real game's own summary and exports are tested with it."""

from __future__ import annotations

import csv
import io
import json
import re
import sys
import types

import pytest
from flask_babel import lazy_gettext as _l

from companion import get_db, plays, tables
from companion.forms import VersionedForm, whole_number
from companion.games import GAMES
from companion.games.base import N_, GameInfo, Msg, RuleError, Seat
from companion.web import charts
from companion.web.adapter import GameAdapter, ScoreTable
from tests.helpers import HX, csrf_from, post_from, start_table, take_seat, visible

# Both stores (tests/conftest.py): plays, records (/plays, /stats), exports and the purge.
pytestmark = pytest.mark.both_stores

GOAL = 10


# --- a race to 10 points ---------------------------------------------------------------------------

race = types.ModuleType("companion.games.test_race.rules")
race.MIN_PLAYERS, race.MAX_PLAYERS, race.RULES, race.CLARIFICATIONS = 2, 4, {}, {}


def _new(options, players):
    if not 2 <= players <= 4:
        raise RuleError("players", N_("2 to 4 players."))
    return {"scores": [0] * players, "turn": 0, "players": players, "start": 0}


def _apply(state, action):
    if action.get("type") != "add":
        raise RuleError("action", N_("Unknown action."))
    if race.result(state) is not None:
        raise RuleError("game-over", N_("The race is over."))
    if action["seat"] != state["turn"]:
        raise RuleError("turn", N_("It is %(who)s's turn."), who=Seat(state["turn"]))
    scores = list(state["scores"])
    scores[action["seat"]] += action["n"]
    return {**state, "scores": scores, "turn": (state["turn"] + 1) % state["players"]}


def _result(state):
    if max(state["scores"]) < GOAL:
        return None
    best = max(state["scores"])
    return {
        "scores": state["scores"],
        "winners": [s for s, v in enumerate(state["scores"]) if v == best],
    }


race.new, race.apply, race.result = _new, _apply, _result
race.view = lambda state, seat, reveal=False: state
race.describe = lambda before, action, after: [
    Msg(N_("%(who)s runs %(n)s."), who=Seat(action["seat"]), n=action["n"])
]


class AddForm(VersionedForm):
    """Run n steps."""

    n = whole_number(_l("Steps"), 1, 9, _l("1 to 9."))

    def to_action(self):
        return {"n": self.n.data}


class RaceAdapter(GameAdapter):
    forms = {"add": AddForm}
    bgg_id = 12345

    def score_table(self, state, result):
        order = sorted(range(state["players"]), key=lambda s: -state["scores"][s])
        ranks = [
            1 + sum(1 for t in order if state["scores"][t] > state["scores"][s]) for s in order
        ]
        scores = [state["scores"][s] for s in order]
        return ScoreTable(order, ranks, result["winners"], [(N_("Points"), scores)], scores)

    def start_seat(self, state):
        return state["start"]

    def summary_chart(self, states, names):
        series = [(name, [s["scores"][i] for s in states]) for i, name in enumerate(names)]
        return charts.line_chart("Race", series, x_label="moves", data_label="points")


web = types.ModuleType("companion.games.test_race.web")
web.ADAPTER = RaceAdapter()


@pytest.fixture(autouse=True)
def race_game(monkeypatch):
    package = types.ModuleType("companion.games.test_race")
    monkeypatch.setitem(sys.modules, "companion.games.test_race", package)
    monkeypatch.setitem(sys.modules, "companion.games.test_race.rules", race)
    monkeypatch.setitem(sys.modules, "companion.games.test_race.web", web)
    monkeypatch.setitem(GAMES, "race", GameInfo("race", "Race", "companion.games.test_race", 2, 4))


def play(client, code, *steps):
    """The host acts for each seat in turn: steps are (seat, n)."""
    for seat, n in steps:
        page = client.get(f"/t/{code}/?as={seat}").text
        client.post(
            f"/t/{code}/act/add?as={seat}",
            headers=HX,
            data={
                "csrf_token": csrf_from(page),
                "version": re.search(r'data-version="(\d+)"', page).group(1),
                "n": n,
            },
        )


@pytest.fixture
def finished(app, client):
    """A race won by Anna (10) against Ben (8) and Chris (3)."""
    code = start_table(client, "race", ("Anna", 'Ben, "the"\nfast', "Chris"))
    play(client, code, (0, 5), (1, 4), (2, 3), (0, 5), (1, 4))
    return code


# --- the end, the summary and the exports ----------------------------------------------------------


def test_before_the_end_the_exports_keep_every_action_private(app, client):
    code = start_table(client, "race", ("Anna", "Ben"))
    play(client, code, (0, 3))
    data = json.loads(client.get(f"/t/{code}/export.json").data)
    assert data["result"] is None and data["table"]["ended"] is None
    game_events = [e for e in data["events"] if e["kind"] == "game"]
    assert game_events and all("action" not in e for e in game_events)
    assert game_events[0]["lines"] == ["Anna runs 3."]
    for kind in ("csv", "bgsplay"):
        response = client.get(f"/t/{code}/export.{kind}")
        assert response.status_code == 409 and "once the game is over" in response.text
    assert "still going" in client.get(f"/t/{code}/export.txt").text


def test_the_summary_shows_the_winner_the_duration_and_a_picture(app, client, finished):
    page = client.get(f"/t/{finished}/summary").text
    assert 'id="summary-scores"' in page and "Winner: Anna." in visible(page)
    assert '<svg class="chart"' in page and "<title" in page and 'class="chart-data"' in page
    assert "Played in 0 minutes." in visible(page)
    live = client.get(f"/t/{finished}/").text
    assert "Summary and exports" in live and "Start the rematch" in live


def test_the_json_export_is_lossless_once_the_game_is_over(client, finished):
    data = json.loads(client.get(f"/t/{finished}/export.json").data)
    assert data["table"]["code"] == finished and data["table"]["game"] == "race"
    assert [s["name"] for s in data["seats"]] == ["Anna", 'Ben, "the"\nfast', "Chris"]
    assert [e["action"]["n"] for e in data["events"] if e["kind"] == "game"] == [5, 4, 3, 5]
    assert data["result"] == {"scores": [10, 4, 3], "winners": [0]}
    assert data["scores"]["totals"] == [10, 4, 3] and data["table"]["ended"]


def test_the_csv_has_one_row_per_player_with_names_escaped(client, finished):
    response = client.get(f"/t/{finished}/export.csv")
    assert response.mimetype == "text/csv"
    assert "attachment" in response.headers["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.text)))
    assert rows[0] == [
        "date",
        "game",
        "duration_minutes",
        "seat",
        "name",
        "score",
        "rank",
        "winner",
        "Points",
    ]
    by_name = {r[4]: r for r in rows[1:]}
    assert set(by_name) == {"Anna", 'Ben, "the"\nfast', "Chris"}  # comma, quotes, newline
    assert by_name["Anna"][5:8] == ["10", "1", "yes"]
    assert by_name['Ben, "the"\nfast'][5:9] == ["4", "2", "no", "4"]


def test_the_bg_stats_file_has_the_shape_bg_stats_imports(client, finished):
    data = json.loads(client.get(f"/t/{finished}/export.bgsplay").data)
    assert set(data) >= {"players", "games", "plays"}
    for player in data["players"]:
        assert set(player) >= {"id", "uuid", "name", "isAnonymous"}
        assert isinstance(player["id"], int) and isinstance(player["isAnonymous"], bool)
    (game,) = data["games"]
    assert {"id", "uuid", "name", "highestWins", "noPoints", "cooperative", "usesTeams"} <= set(
        game
    )
    assert game["bggId"] == 12345 and game["highestWins"] is True
    (one,) = data["plays"]
    assert set(one) >= {
        "uuid",
        "gameRefId",
        "playDate",
        "entryDate",
        "durationMin",
        "comments",
        "playerScores",
    }
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", one["playDate"])
    scores = {s["playerRefId"]: s for s in one["playerScores"]}
    names = {p["id"]: p["name"] for p in data["players"]}
    anna = next(s for ref, s in scores.items() if names[ref] == "Anna")
    assert anna == {
        "playerRefId": anna["playerRefId"],
        "score": "10",
        "winner": True,
        "rank": 1,
        "seatOrder": 1,
        "startPlayer": True,
    }
    assert all(isinstance(s["score"], str) for s in scores.values())


def test_unicode_names_travel_through_every_export(client):
    code = start_table(client, "race", ("Анна", "花子"))
    play(client, code, (0, 9), (1, 2), (0, 1))
    assert "Анна" in client.get(f"/t/{code}/export.csv").text
    assert "花子" in json.loads(client.get(f"/t/{code}/export.bgsplay").data)["players"][1]["name"]
    assert "Анна" in client.get(f"/t/{code}/export.txt").text


def test_strangers_get_no_summary_and_no_export(app, finished):
    stranger = app.test_client()
    for path in ("summary", "export.json", "export.csv", "export.bgsplay", "export.txt"):
        assert stranger.get(f"/t/{finished}/{path}").status_code == 404


# --- the rematch -----------------------------------------------------------------------------------


def test_a_rematch_moves_everyone_one_seat_on_and_every_phone_follows(app, client):
    code = start_table(client, "race", ("Anna", "Ben", "Chris"))
    phones = [app.test_client() for _ in range(3)]
    for seat, phone in enumerate(phones):
        take_seat(phone, code, seat)
    play(client, code, (0, 9), (1, 1), (2, 1), (0, 1))
    response = post_from(client, f"/t/{code}/", f"/t/{code}/rematch", htmx=False, order="next")
    assert response.status_code == 302
    new = re.search(r"/t/(\w+)/", response.headers["Location"]).group(1)
    assert new != code and "This device is the host." in client.get(f"/t/{new}/").text
    assert "A rematch has started" in phones[0].get(f"/t/{code}/").text
    for seat, phone in enumerate(phones):
        response = phone.get(f"/t/{code}/rematch/follow")
        assert response.headers["Location"].endswith(f"/t/{new}/")
        name = ["Anna", "Ben", "Chris"][seat]
        assert f"You are {name}." in phone.get(f"/t/{new}/").text
    with app.app_context():
        db = get_db()
        rows = tables.seats(db, tables.get_table(db, new))
    assert [r.name for r in rows] == ["Chris", "Anna", "Ben"] and all(r.taken for r in rows)
    # Following twice changes nothing; a stranger is sent to the join page, seatless.
    assert phones[0].get(f"/t/{code}/rematch/follow").headers["Location"].endswith(f"/t/{new}/")
    stranger = app.test_client()
    response = stranger.get(f"/t/{code}/rematch/follow")
    assert response.status_code == 302 and "/join" in response.headers["Location"]
    assert "You are" not in stranger.get(f"/t/{new}/").text


def test_a_rematch_waits_for_the_end_and_is_the_hosts(app, client):
    code = start_table(client, "race", ("Anna", "Ben"))
    response = post_from(client, f"/t/{code}/", f"/t/{code}/rematch", htmx=False)
    assert response.status_code == 409 and "once this game is over" in response.text
    phone = app.test_client()
    take_seat(phone, code, 0)
    assert post_from(phone, f"/t/{code}/", f"/t/{code}/rematch").status_code == 403


# --- /plays, /stats and the purge --------------------------------------------------------------------


def test_plays_and_stats_match_the_figures_worked_out_by_hand(app, client):
    app.config["OPEN_STATS"] = True
    # Anna wins twice (10, then 12), Ben once (11); "ben " and "BEN" are the same person;
    # "Player 3" is a default name, no person.
    one = start_table(client, "race", ("Anna", "Ben"))
    play(client, one, (0, 9), (1, 5), (0, 1))  # Anna 10, Ben 5
    two = start_table(client, "race", ("anna", "ben "))
    play(client, two, (0, 3), (1, 9), (0, 4), (1, 2))  # Anna 7, Ben 11
    three = start_table(client, "race", ("ANNA", "BEN", ""))
    play(client, three, (0, 9), (1, 2), (2, 8), (0, 3))  # Anna 12, Ben 2, Player 3 8
    page = visible(client.get("/plays").text)
    assert page.count("Race") >= 3 and "★ Anna" in page and "★ ben" in page
    stats = client.get("/stats").text
    rows = {
        visible(r.split("</th>")[0]).strip(): [
            visible(c) for c in re.findall(r'<td class="num">(.*?)</td>', r)
        ]
        for r in stats.split('<tr><th scope="row">')[1:]
    }
    assert rows["ANNA"] == ["3", "2", "67%", "9.7", "12"]
    assert rows["BEN"] == ["3", "1", "33%", "6.0", "11"]
    assert "Player 3" not in rows
    assert "3 games played" in visible(stats)
    # Filters: by player name (any case and spacing) and by game.
    assert visible(client.get("/plays?player=  aNNa ").text).count("★") == 3
    assert "No finished game yet." in client.get("/plays?player=Zed").text


def test_a_device_sees_only_the_plays_of_its_own_tables_by_default(app, client):
    code = start_table(client, "race", ("Anna", "Ben"))
    play(client, code, (0, 9), (1, 1), (0, 1))
    assert "Anna" in client.get("/plays").text
    assert "Anna" not in app.test_client().get("/plays").text
    app.config["OPEN_STATS"] = True
    assert "Anna" in app.test_client().get("/plays").text


def test_undoing_the_last_action_takes_the_play_back(app, client):
    code = start_table(client, "race", ("Anna", "Ben"))
    play(client, code, (0, 9), (1, 1), (0, 1))
    assert "Anna" in client.get("/plays").text
    post_from(client, f"/t/{code}/", f"/t/{code}/undo")
    assert "No finished game yet." in client.get("/plays").text


def test_the_purge_removes_abandoned_tables_and_keeps_the_plays(app, client):
    done = start_table(client, "race", ("Anna", "Ben"))
    play(client, done, (0, 9), (1, 1), (0, 1))
    abandoned = start_table(client, "race", ("Cy", "Di"))
    with app.app_context():
        db = get_db()
        db.execute("UPDATE tables SET touched = touched - 40 * 86400 WHERE code = ?", [abandoned])
        db.conn.commit()
    runner = app.test_cli_runner()
    result = runner.invoke(args=["purge"])
    assert "removed 1 unfinished and 0 finished tables" in result.output
    assert client.get(f"/t/{done}/").status_code == 200
    result = runner.invoke(args=["purge", "--finished-days", "0"])
    assert "removed 0 unfinished and 1 finished tables" in result.output
    with app.app_context():
        found = plays.plays(get_db())
    assert [p.code for p in found] == [done]
    assert [p.name for p in found[0].players] == ["Anna", "Ben"]

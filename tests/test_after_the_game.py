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
from companion.games.base import (
    N_,
    GameInfo,
    Move,
    Moves,
    Msg,
    Privacy,
    RuleError,
    Rules,
    ScoreTable,
    Seat,
    acting_seat,
)
from companion.web import charts
from companion.web.adapter import GameAdapter
from tests.helpers import HX, csrf_from, post_from, start_table, take_seat, visible

# Both stores (tests/conftest.py): plays, records (/plays, /stats), exports and the purge.
pytestmark = pytest.mark.both_stores

GOAL = 10


# --- a race to 10 points ---------------------------------------------------------------------------


def _new(options, players):
    if not 2 <= players <= 4:
        raise RuleError("players", N_("2 to 4 players."))
    return {"scores": [0] * players, "turn": 0, "players": players, "start": 0}


def _add(state, action):
    seat = acting_seat(action)
    state["scores"][seat] += action["n"]
    state["turn"] = (seat + 1) % state["players"]


def _result(state):
    if max(state["scores"]) < GOAL:
        return None
    best = max(state["scores"])
    return {
        "scores": state["scores"],
        "winners": [s for s, v in enumerate(state["scores"]) if v == best],
    }


def _score_table(state, result):
    order = sorted(range(state["players"]), key=lambda s: -state["scores"][s])
    ranks = [1 + sum(1 for t in order if state["scores"][t] > state["scores"][s]) for s in order]
    scores = [state["scores"][s] for s in order]
    return ScoreTable(order, ranks, result["winners"], [(N_("Points"), scores)], scores)


race = types.ModuleType("companion.games.test_race.rules")
race.GAME = Rules(
    min_players=2,
    max_players=4,
    new=_new,
    moves=Moves(
        {"add": Move(_add)},
        is_over=lambda state: _result(state) is not None,
        over_message=lambda state: Msg(N_("The race is over.")),
        turn=lambda state: [state["turn"]] if _result(state) is None else [],
        not_on_turn=lambda state, action: RuleError(
            "turn", N_("It is %(who)s's turn."), who=Seat(state["turn"])
        ),
    ),
    view=lambda state, seat, reveal=False: state,
    result=_result,
    describe=lambda before, action, after: [
        Msg(N_("%(who)s runs %(n)s."), who=Seat(action["seat"]), n=action["n"])
    ],
    progress=lambda state: Msg(N_("%(who)s runs next."), who=Seat(state["turn"])),
    summaries={},
    score_table=_score_table,
    start_seat=lambda state: state["start"],
)


class AddForm(VersionedForm):
    """Run n steps."""

    n = whole_number(_l("Steps"), 1, 9, _l("1 to 9."))

    def to_action(self):
        return {"n": self.n.data}


class RaceAdapter(GameAdapter):
    forms = {"add": AddForm}

    def summary_chart(self, states, names):
        series = [(name, [s["scores"][i] for s in states]) for i, name in enumerate(names)]
        return charts.line_chart("Race", series, x_label="moves", data_label="points")


web = types.ModuleType("companion.games.test_race.web")
web.ADAPTER = RaceAdapter()
privacy = types.ModuleType("companion.games.test_race.privacy")
privacy.PRIVACY = Privacy("nothing: every score is public")


@pytest.fixture(autouse=True)
def race_game(monkeypatch):
    package = types.ModuleType("companion.games.test_race")
    monkeypatch.setitem(sys.modules, "companion.games.test_race", package)
    monkeypatch.setitem(sys.modules, "companion.games.test_race.rules", race)
    monkeypatch.setitem(sys.modules, "companion.games.test_race.web", web)
    monkeypatch.setitem(sys.modules, "companion.games.test_race.privacy", privacy)
    monkeypatch.setitem(
        GAMES, "race", GameInfo("race", "Race", "companion.games.test_race", 2, 4, bgg_id=12345)
    )


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
    code = start_table(client, "race", ("Anna", 'Ben, "the" fast', "Chris"))
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
    assert [s["name"] for s in data["seats"]] == ["Anna", 'Ben, "the" fast', "Chris"]
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
        "start_player",
        "thinking_seconds",
        "board",
        "location",
        "time_zone",
        "table",
        "play_id",
    ]
    by_name = {r[4]: r for r in rows[1:]}
    assert set(by_name) == {"Anna", 'Ben, "the" fast', "Chris"}  # a comma and quotes
    assert by_name["Anna"][5:10] == ["10", "1", "yes", "10", "yes"]
    assert by_name['Ben, "the" fast'][5:10] == ["4", "2", "no", "4", "no"]
    assert {r[12] for r in rows[1:]} == {"Table companion"} and by_name["Anna"][14] == finished


def test_the_bg_stats_file_has_the_shape_bg_stats_imports(client, finished):
    """The file's own shape is checked key by key for every real game (test_take_home); here, the
    figures of a race worked out by hand."""
    data = json.loads(client.get(f"/t/{finished}/export.bgsplay").data)
    assert set(data) == {"about", "userInfo", "players", "locations", "games", "plays"}
    (game,) = data["games"]
    assert game["name"] == "Race" and game["bggId"] == 12345 and game["highestWins"] is True
    (one,) = data["plays"]
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", one["playDate"])
    assert one["comments"].startswith(f"Table companion · {finished}")
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
        "newPlayer": False,
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
    again = phones[0].get(f"/t/{code}/rematch/follow")
    assert f"/t/{new}/" in again.headers["Location"]
    assert "You are Anna." in phones[0].get(again.headers["Location"]).text
    stranger = app.test_client()
    response = stranger.get(f"/t/{code}/rematch/follow")
    assert response.status_code == 404 and new not in response.text
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


# --- time per player, the whole record, player pages ----------------------------------------------


def _space_events(app, code: str, gaps: list[float]) -> None:
    """Store the table's events at these gaps in seconds after one another (the first at t0)."""
    with app.app_context():
        db = get_db()
        table = tables.get_table(db, code)
        moment = 1_800_000_000.0
        for event, gap in zip(tables.events(db, table), [0.0, *gaps], strict=True):
            moment += gap
            db.execute(
                "UPDATE events SET created = ? WHERE table_id = ? AND seq = ?",
                [moment, table.id, event.seq],
            )
        db.execute("UPDATE tables SET ended = ? WHERE id = ?", [moment, table.id])
        db.commit()


def test_each_players_time_is_counted_from_the_events_and_shown_everywhere(app, client):
    """The race waits for one seat at a time: the wait before each move is the mover's (Anna's
    first move, the table sitting down, is nobody's)."""
    code = start_table(client, "race", ("Anna", "Ben", "Chris"))
    play(client, code, (0, 5), (1, 4), (2, 3), (0, 5))  # Anna reaches 10 with her 2nd move
    _space_events(app, code, [10, 25, 95])  # Ben 10 s, Chris 25 s, Anna 1 min 35 s
    page = client.get(f"/t/{code}/summary").text
    times = page[page.index('id="summary-times"') :]
    rows = re.findall(r'<th scope="row">(.*?)</th><td class="num">(.*?)</td>', times)
    assert rows == [("Anna", "1:35"), ("Ben", "0:10"), ("Chris", "0:25")]
    csv_rows = {r[4]: r for r in csv.reader(io.StringIO(client.get(f"/t/{code}/export.csv").text))}
    assert [csv_rows[n][10] for n in ("Anna", "Ben", "Chris")] == ["95", "10", "25"]
    assert (
        "Thinking time: Anna 1:35, Ben 0:10, Chris 0:25" in client.get(f"/t/{code}/export.txt").text
    )
    comments = json.loads(client.get(f"/t/{code}/export.bgsplay").data)["plays"][0]["comments"]
    assert comments.endswith("Thinking time: Anna 1:35, Ben 0:10, Chris 0:25")
    data = json.loads(client.get(f"/t/{code}/export.json").data)
    assert data["thinking_seconds"] == [95.0, 10.0, 25.0]
    stamps = [e["created"] for e in data["events"]]
    assert all(re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d", s) for s in stamps)
    for lang, words in (("ja", "思考時間"), ("ru", "Время на раздумья")):
        text = client.get(f"/t/{code}/export.txt", headers={"Accept-Language": lang}).text
        assert words in text, text


def test_an_undone_move_does_not_stop_the_clock_of_whoever_was_waited_for(app, client):
    code = start_table(client, "race", ("Anna", "Ben"))
    play(client, code, (0, 5), (1, 4))
    post_from(client, f"/t/{code}/", f"/t/{code}/undo")  # Ben's 4 taken back ...
    play(client, code, (1, 2), (0, 5))  # ... he runs 2 instead; Anna wins
    _space_events(app, code, [30, 5, 40])  # Anna, Ben's 4 (undone), Ben's 2, Anna
    page = client.get(f"/t/{code}/summary").text
    times = page[page.index('id="summary-times"') :]
    rows = dict(re.findall(r'<th scope="row">(.*?)</th><td class="num">(.*?)</td>', times))
    # Ben: from Anna's move to his move that stood (30 + 5 s); Anna: 40 s.
    assert rows == {"Anna": "0:40", "Ben": "0:35"}


def _finished_race(client, names, *steps) -> str:
    code = start_table(client, "race", names)
    play(client, code, *steps)
    return code


def test_the_whole_record_is_one_file_with_the_tables_own_play_ids(app, client):
    one = _finished_race(client, ("Anna", "Ben"), (0, 9), (1, 5), (0, 1))
    two = _finished_race(client, ("ANNA", "Cy", ""), (0, 3), (1, 9), (2, 1), (0, 2), (1, 2))
    per_table = {
        code: json.loads(client.get(f"/t/{code}/export.bgsplay").data)["plays"][0]["uuid"]
        for code in (one, two)
    }
    bulk = json.loads(client.get("/plays/export.bgsplay").data)
    assert {p["uuid"] for p in bulk["plays"]} == set(per_table.values())
    # One Anna (names match as the record matches them), one anonymous player, one game, one place.
    assert sorted(p["name"] for p in bulk["players"]) == ["ANNA", "Anonymous player", "Ben", "Cy"]
    assert len(bulk["games"]) == 1 and len(bulk["locations"]) == 1
    assert bulk["userInfo"] == {}
    # Filters: by player name, as /plays filters.
    only_ben = json.loads(client.get("/plays/export.bgsplay?player=BEN").data)
    assert [p["uuid"] for p in only_ben["plays"]] == [per_table[one]]
    rows = list(csv.reader(io.StringIO(client.get("/plays/export.csv").text)))
    assert len(rows) == 1 + 2 + 3 and {r[15] for r in rows[1:]} == set(per_table.values())
    assert "plays.csv" in client.get("/plays/export.csv").headers["Content-Disposition"]
    page = client.get("/plays").text
    assert 'id="record-exports"' in page and "/plays/export.bgsplay" in page
    # Another device sees none of it; an open record shows it to every device.
    stranger = app.test_client()
    assert json.loads(stranger.get("/plays/export.bgsplay").data)["plays"] == []
    assert len(list(csv.reader(io.StringIO(stranger.get("/plays/export.csv").text)))) == 1
    app.config["OPEN_STATS"] = True
    assert len(json.loads(stranger.get("/plays/export.bgsplay").data)["plays"]) == 2


def test_plays_recorded_before_are_completed_from_their_table_or_export_what_they_have(app, client):
    kept = _finished_race(client, ("Anna", "Ben"), (0, 9), (1, 5), (0, 1))
    gone = _finished_race(client, ("Anna", "Cy"), (0, 9), (1, 5), (0, 3))
    client.get("/plays")  # both recorded
    old = [  # a play as the record held it before: no breakdown, no time
        {"seat": 0, "name": "Anna", "named": True, "score": 12, "rank": 1, "winner": True},
        {"seat": 1, "name": "Cy", "named": True, "score": 5, "rank": 2, "winner": False},
    ]
    with app.app_context():
        db = get_db()
        for column in ("created", "start_seat", "options", "board", "timezone", "location"):
            db.execute(f"UPDATE plays SET {column} = NULL")
        db.execute("UPDATE plays SET score_rows = NULL, decided_by = NULL")
        db.execute("UPDATE plays SET players = ? WHERE code = ?", [json.dumps(old), gone])
        db.execute("UPDATE tables SET ended = 1000 WHERE code = ?", [gone])
        db.commit()
        plays.purge(db, unfinished_days=None, finished_days=1)  # the table of `gone` only
    data = json.loads(client.get("/plays/export.bgsplay").data)
    by_code = {p["comments"].split("\n")[0].split(" · ")[1]: p for p in data["plays"]}
    assert set(by_code) == {kept, gone}
    completed, as_it_was = by_code[kept], by_code[gone]
    assert [s["startPlayer"] for s in completed["playerScores"]] == [True, False]
    assert "Thinking time" in completed["comments"]
    assert not any(s["startPlayer"] for s in as_it_was["playerScores"])  # not known any more
    assert [s["score"] for s in as_it_was["playerScores"]] == ["12", "5"]
    assert "Thinking time" not in as_it_was["comments"]
    with app.app_context():
        found = {p.code: p for p in plays.plays(get_db())}
    assert found[kept].complete and not found[gone].complete


def test_a_player_page_has_their_plays_wins_best_scores_head_to_head_and_streaks(app, client):
    """Anna wins, wins, loses to Ben, wins; Cy plays once with her. Worked out by hand."""
    _finished_race(client, ("Anna", "Ben"), (0, 9), (1, 5), (0, 1))  # Anna 10, Ben 5
    _finished_race(client, ("anna", "Ben", "Cy"), (0, 9), (1, 2), (2, 2), (0, 3))  # Anna 12
    _finished_race(client, ("Anna", "BEN"), (0, 3), (1, 9), (0, 4), (1, 2))  # Ben 11, Anna 7
    _finished_race(client, ("Anna ", "Ben"), (0, 9), (1, 1), (0, 2))  # Anna 11
    stats = client.get("/stats").text
    assert '/player?name=Anna"' in stats
    page = client.get("/player?name=ANNA").text
    text = visible(page)
    assert "4 games played" in text and "3 wins" in text and "Win rate: 75%" in text
    assert "Wins in a row now: 1" in text and "Longest run of wins: 2" in text
    start = page.index('id="player-games"')
    games = re.findall(r'<td class="num">(.*?)</td>', page[start : page.index("</table>", start)])
    assert games == ["4", "3", "12"]  # games, wins, best
    rivals = page[page.index('id="player-rivals"') :]
    rows = re.findall(r'<th scope="row"><a href="[^"]+">(.*?)</a></th>(.*?)</tr>', rivals)
    found = {name: re.findall(r'<td class="num">(.*?)</td>', cells) for name, cells in rows}
    assert found == {"Ben": ["4", "3 : 1"], "Cy": ["1", "1 : 0"]}  # games, her wins : theirs
    assert page.count("<li>", page.index('id="player-plays"')) == 4
    ben = visible(client.get("/player?name=ben").text)
    assert "4 games played" in ben and "1 win" in ben and "Longest run of wins: 1" in ben
    # The same rule as /plays: another device finds nobody.
    stranger = app.test_client().get("/player?name=Anna")
    assert stranger.status_code == 404 and "No finished game with a player" in stranger.text
    assert client.get("/player?name=").status_code == 404


def test_a_rematch_is_played_at_the_same_place_and_in_the_same_zone(app, client):
    code = _finished_race(client, ("Anna", "Ben"), (0, 9), (1, 1), (0, 1))
    with app.app_context():
        db = get_db()
        db.execute("UPDATE tables SET timezone = 'Europe/Moscow' WHERE code = ?", [code])
        db.commit()
    page = client.get(f"/t/{code}/summary").text
    client.post(f"/t/{code}/location", data={"csrf_token": csrf_from(page), "location": "Dacha"})
    response = post_from(client, f"/t/{code}/", f"/t/{code}/rematch", htmx=False)
    new = re.search(r"/t/(\w+)/", response.headers["Location"]).group(1)
    with app.app_context():
        table = tables.get_table(get_db(), new)
    assert (table.location, table.timezone) == ("Dacha", "Europe/Moscow")


def test_the_text_to_paste_is_a_page_with_a_copy_button_and_the_way_back(app, client, finished):
    page = client.get(f"/t/{finished}/text")
    assert page.status_code == 200
    assert '<textarea id="summary-text"' in page.text and "Anna" in page.text
    assert 'data-copy="summary-text"' in page.text
    assert f'href="/t/{finished}/summary"' in page.text
    assert f'href="/t/{finished}/export.txt"' in page.text
    assert app.test_client().get(f"/t/{finished}/text").status_code == 404

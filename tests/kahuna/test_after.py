"""After a Kahuna game: the final score table (result screen, summary, exports), the start seat
and the summary's picture of the islands held over the game, with the three scorings marked.

The fixed game: White builds Aloa-Bari and Aloa-Duda on the first turn (Aloa has 3 sites, so 2
bridges hold it), then both players only draw until the end. White holds 1 island against 0 at
every scoring: 1 + 2 + (1 - 0) = 4 points to 0. Round 1 has 15 deck cards and 3 face-up cards to
draw, one per turn: it is scored at the end of turn 18.
"""

from __future__ import annotations

import csv
import io
import json
import re
from html import unescape

import pytest

from companion.games.base import Msg, Seat
from companion.games.kahuna import rules as k
from companion.games.kahuna.course import islands_by_turn
from companion.games.kahuna.scoreboard import score_table
from tests.helpers import visible
from tests.kahuna.helpers import drive, finish_game

WHITE, BLACK = 0, 1
COLUMNS = [
    "Round 1 points",
    "Round 2 points",
    "Round 3 points",
    "Islands held at the end",
    "Bridges on the board at the end",
]


@pytest.fixture
def table(make_table):
    """White and Black's phones, the face-up cards entered, White's two bridges on Aloa."""
    driver = make_table("kahuna", ("Ann", "Bo"))
    for island in ("Coco", "Gola", "Lale"):
        driver.act(WHITE, "reveal", island=island)
    drive(
        driver,
        [
            {"type": "place", "seat": WHITE, "site": "Aloa-Bari", "card": "Aloa"},
            {"type": "place", "seat": WHITE, "site": "Aloa-Duda", "card": "Duda"},
        ],
    )
    return driver


def test_before_the_end_nothing_is_exported_but_the_public_lines(table):
    host = table.host
    data = json.loads(host.get(f"/t/{table.code}/export.json").data)
    assert data["result"] is None and "scores" not in data
    games = [e for e in data["events"] if e["kind"] == "game"]
    assert games and all("action" not in e for e in games)
    for kind in ("csv", "bgsplay"):
        assert host.get(f"/t/{table.code}/export.{kind}").status_code == 409
    page = host.get(f"/t/{table.code}/summary").text
    assert "still going" in page and '<svg class="chart"' not in page


def test_the_result_screen_shows_the_score_table_winner_first(table):
    finish_game(table)
    page = table.page(BLACK)
    found = re.search(r'<div class="score-wrap" id="k-score-table">.*?</table>', page, re.S)
    assert found, "no score table on the result screen"
    cells = visible(found.group(0))
    assert cells.index("Ann") < cells.index("Bo")  # the winner's column first
    rows = re.findall(r'<tr><th scope="row">(.*?)</th>(.*?)</tr>', found.group(0), re.S)
    values = {label: re.findall(r'class="num">(?:<strong>)?(\d+)', cells) for label, cells in rows}
    assert values == {
        "Round 1 points": ["1", "0"],
        "Round 2 points": ["2", "0"],
        "Round 3 points": ["1", "0"],
        "Islands held at the end": ["1", "0"],
        "Bridges on the board at the end": ["2", "0"],
        "Total points": ["4", "0"],
    }
    assert "Ann wins with 4 points to 0." in page and "Winner: Ann." in page


@pytest.mark.both_stores  # one whole game through the web on each store
def test_the_summary_draws_the_islands_held_with_the_three_scorings(table):
    finish_game(table)
    page = table.host.get(f"/t/{table.code}/summary").text
    assert 'id="summary-scores"' in page and "Winner: Ann." in visible(page)
    start = page.index('id="summary-chart"')
    chart = page[start : page.index("</section>", start)]  # the chart's card alone
    assert '<svg class="chart"' in chart and "Islands held over the game" in chart
    assert chart.count('class="mark"') == 3
    assert re.findall(r'<line class="mark"[^>]*/><text class="tick"[^>]*>(\d)</text>', chart) == [
        "1",
        "2",
        "3",
    ]
    data = chart[chart.index('class="chart-data"') :]
    rows = {
        visible(name): re.findall(r'<td class="num">(\d+)</td>', cells)
        for name, cells in re.findall(r'<tr><th scope="row">(.*?)</th>(.*?)</tr>', data, re.S)
    }
    turns = sum(1 for a in _actions(table) if a["type"] in ("draw", "end_turn"))
    assert rows["Ann"] == ["0"] + ["1"] * turns  # Aloa held from the end of turn 1 on
    assert rows["Bo"] == ["0"] * (turns + 1)
    lines = visible(chart[chart.index('class="k-course-scorings"') :])
    assert "After turn 18: Round 1 scored: islands held: White 1, Black 0" in lines
    assert f"After turn {turns}: Round 3 scored" in lines and "Ann scored 1 point" in lines


def test_the_csv_columns_come_from_the_score_table(table):
    finish_game(table)
    rows = list(csv.reader(io.StringIO(table.host.get(f"/t/{table.code}/export.csv").text)))
    assert rows[0][8:-7] == COLUMNS
    ann, bo = rows[1], rows[2]
    assert ann[4:-7] == ["Ann", "4", "1", "yes", "1", "2", "1", "1", "2"]
    assert bo[4:-7] == ["Bo", "0", "2", "no", "0", "0", "0", "0", "0"]
    bgs = json.loads(table.host.get(f"/t/{table.code}/export.bgsplay").data)
    starts = {s["seatOrder"]: s["startPlayer"] for s in bgs["plays"][0]["playerScores"]}
    assert starts == {1: True, 2: False}  # White (seat 1 of 2) starts


def test_the_summary_and_the_result_speak_japanese_without_english_joins(table):
    finish_game(table)
    ja = {"Accept-Language": "ja"}
    summary = unescape(table.host.get(f"/t/{table.code}/summary", headers=ja).text)
    page = unescape(table.device(BLACK).get(f"/t/{table.code}/", headers=ja).text)
    for text in (summary, page):
        assert "第1ラウンドの得点" in text and "Round 1 points" not in text
    assert "支配している島の数の推移" in summary
    scorings = visible(summary[summary.index('class="k-course-scorings"') :])
    assert "第18手番の後：" in scorings
    # Each sentence is its own line; none is glued to the next with an English ". ".
    assert not re.search(r"[\u3040-\u30ff\u4e00-\u9fff。]\. ", scorings + visible(page))


# --- the pure parts -------------------------------------------------------------------------------


def _actions(table):
    with table.app.app_context():
        from companion import get_db, tables

        db = get_db()
        stored = tables.get_table(db, table.code)
        return [e.action for e, _ in tables.game_states(db, stored)]


def test_islands_by_turn_samples_the_end_of_each_turn():
    state = k.new({}, 2)
    states = []

    def act(**action):
        nonlocal state
        state = k.apply(state, {"host": False, **action})
        states.append(state)

    for island in ("Coco", "Gola", "Lale"):
        act(type="reveal", seat=None, island=island)
    act(type="place", seat=0, site="Aloa-Bari", card="Aloa")
    act(type="place", seat=0, site="Aloa-Duda", card="Duda")  # White holds Aloa mid-turn
    act(type="draw", seat=0, source="deck")  # end of turn 1
    act(type="place", seat=1, site="Aloa-Huna", card="Huna")
    act(type="end_turn", seat=1)  # end of turn 2
    act(type="remove", seat=0, site="Aloa-Huna", cards=["Aloa", "Huna"])  # mid-turn 3
    assert islands_by_turn(states) == {"islands": [[0, 1, 1, 1], [0, 0, 0, 0]], "scorings": []}
    assert islands_by_turn([]) == {"islands": [[0], [0]], "scorings": []}


def test_the_score_table_orders_the_winner_first_and_says_the_tie_break():
    rounds = [
        {"round": 1, "islands": [2, 1], "points": [1, 0]},
        {"round": 2, "islands": [1, 2], "points": [0, 2]},
        {"round": 3, "islands": [3, 2], "points": [1, 0]},
    ]
    base = {"points": [2, 2], "rounds": rounds, "islands": [3, 2], "bridges": [9, 11]}
    table = score_table({}, {**base, "winner": 0, "tie_break": "round-3"})
    assert (table.seats, table.ranks, table.winners, table.totals) == ([0, 1], [1, 2], [0], [2, 2])
    assert table.rows[:3] == [
        ("Round 1 points", [1, 0]),
        ("Round 2 points", [0, 2]),
        ("Round 3 points", [1, 0]),
    ]
    assert table.decided_by == Msg(
        "Equal points: %(seat)s scored in round 3 and wins the tie.", seat=Seat(0)
    )
    black = score_table({}, {**base, "winner": 1, "tie_break": "bridges"})
    assert (black.seats, black.ranks, black.winners) == ([1, 0], [1, 2], [1])
    assert black.rows[4] == ("Bridges on the board at the end", [11, 9])
    assert black.decided_by.params == {"seat": Seat(1), "mine": 11, "theirs": 9}
    draw = score_table({}, {**base, "winner": None, "tie_break": "draw"})
    assert (draw.seats, draw.ranks, draw.winners) == ([0, 1], [1, 1], [0, 1])
    assert draw.decided_by.params == {"bridges": 9}
    plain = score_table({}, {**base, "points": [3, 2], "winner": 0, "tie_break": "points"})
    assert plain.decided_by is None and plain.totals == [3, 2]
    assert k.GAME.start_seat(k.new({}, 2)) == WHITE


# --- a scoring's arithmetic, on the table page and in the checker ----------------------------------


@pytest.mark.parametrize(
    "round_no,islands,text",
    [
        (
            1,
            [3, 1],
            "Islands held: White 3, Black 1; in round 1 whoever holds more scores 1 point.",
        ),
        (
            2,
            [1, 4],
            "Islands held: White 1, Black 4; in round 2 whoever holds more scores 2 points.",
        ),
        (
            3,
            [2, 5],
            "Islands held: White 2, Black 5; round 3 gives whoever holds more the difference: "
            "5 − 2 = 3 points.",
        ),
        (3, [4, 3], "round 3 gives whoever holds more the difference: 4 − 3 = 1 point."),
        (2, [2, 2], "Islands held: White 2, Black 2; with equal numbers nobody scores."),
    ],
)
def test_a_scoring_explains_its_arithmetic(app, round_no, islands, text):
    from companion.i18n import render_msg, use_part

    with app.test_request_context(headers={"Accept-Language": "en"}):
        assert text in render_msg(k.explain_round(round_no, islands))
    with app.test_request_context(headers={"Accept-Language": "ru"}):
        use_part("kahuna")
        russian = render_msg(k.explain_round(round_no, islands))
    if round_no == 3 and islands == [2, 5]:
        assert russian.endswith("5 − 2 = 3 очка.")


def test_the_table_and_the_checker_explain_a_scoring_alike(table):
    from tests.kahuna.helpers import finish_round

    finish_round(table)
    page = unescape(table.page(WHITE))
    sentence = "Islands held: White 1, Black 0; in round 1 whoever holds more scores 1 point."
    scorings = page[page.index('class="k-scorings"') :]
    assert '<details class="k-how"><summary>How is this counted?</summary>' in scorings
    assert sentence in scorings
    fresh = page[
        page.index('class="card k-scored"') : page.index("</section>", page.index("k-scored"))
    ]
    assert sentence in fresh
    checker = unescape(table.host.get("/tools/kahuna/?white=Aloa-Bari,Aloa-Duda").text)
    assert sentence in checker
    assert "round 3 gives whoever holds more the difference: 1 − 0 = 1 point." in checker

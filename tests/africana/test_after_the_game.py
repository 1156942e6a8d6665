"""Africana after the game: the comparison table on the result screen and the summary, the
summary's picture, the CSV export's columns, the start player, and nothing private exported
before the end. Every figure is worked out by hand in the comments."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest

from companion.games.africana import rules as af
from companion.games.base import Msg
from companion.i18n import render_msg
from tests.africana.helpers import choose, sheet, sheet_data
from tests.helpers import visible

COLUMNS = [
    "Expeditions",
    "Artifacts",
    "Artifact sets",
    "Guide adventures",
    "Coins",
    "Movement cards",
    "Unfinished adventures",
]


@pytest.fixture
def table(make_table):
    """Anna, Ben and Chris play a round (draw, draw, draw), then the host ends play."""
    t = make_table("africana")
    for phone in t.phones:
        choose(t, phone, "draw")
        t.act(phone, "end_turn")
    t.act("host", "finish_game")
    return t


def hand_in_all(t):
    """Anna 39 (23 silver), Ben 27, Chris 39 (95 silver): Chris wins on coins.

    Anna: expeditions 5 + 6 = 11, artifacts 3 * 2 + 3 * 1 = 9, sets A A (6) + A B C D (10) = 16,
    no guides, 23 silver = 2 points, 3 movement cards = 1 point: 11 + 9 + 16 + 2 + 1 = 39.
    Ben: 20 + 15 = 35, 3 guide adventures -10, 9 silver 0, 2 unfinished +2: 27.
    Chris: 30, 95 silver = 9 points: 39.
    """
    anna, ben, chris = t.phones
    t.act(
        anna,
        "submit_sheet",
        **sheet_data(
            expeditions=[5, 6],
            artifacts=[("A", 2)] * 3 + [("B", 1), ("C", 1), ("D", 1)],
            gold=4,
            silver=3,
            movement=3,
        ),
    )
    t.act(ben, "submit_sheet", **sheet_data(expeditions=[20, 15], guides=3, unfinished=2, silver=9))
    t.act(chris, "submit_sheet", **sheet_data(expeditions=[30], gold=19))


def test_the_score_table_has_the_parts_down_and_the_players_across_best_first(table):
    hand_in_all(table)
    state = table.state()
    score = af.GAME.score_table(state, af.result(state))
    assert score.seats == [2, 0, 1] and score.ranks == [1, 2, 3] and score.winners == [2]
    assert [label for label, _ in score.rows] == COLUMNS
    assert dict(score.rows) == {
        "Expeditions": [30, 11, 35],
        "Artifacts": [0, 9, 0],
        "Artifact sets": [0, 16, 0],
        "Guide adventures": [0, 0, -10],
        "Coins": [9, 2, 0],
        "Movement cards": [0, 1, 0],
        "Unfinished adventures": [0, 0, 2],
    }
    assert score.totals == [39, 39, 27]
    for i, total in enumerate(score.totals):  # the rows add up to the totals
        assert sum(values[i] for _, values in score.rows) == total
    assert af.GAME.start_seat(state) == 0


def test_the_tie_break_is_given_in_words_with_the_coins(app):
    def result_of(*sheets):
        state = af.new({}, len(sheets))
        state["phase"] = "over"
        for record, s in zip(state["seats"], sheets):
            record["sheet"] = s
        return af.result(state)

    names = ["Anna", "Ben", "Chris"]
    with app.test_request_context():
        one = result_of(sheet(expedition_points=[10]), sheet(expedition_points=[9]))
        assert af.decided_by(one) is None
        coins = result_of(
            sheet(expedition_points=[10], coins=4),
            sheet(expedition_points=[10], coins=7),
            sheet(expedition_points=[9]),
        )
        assert render_msg(af.decided_by(coins), names) == (
            "Equal totals, so the player with more coins wins (Ben: 7 silver and Anna: 4 silver)."
        )
        shared = result_of(
            sheet(expedition_points=[10], coins=1), sheet(expedition_points=[10], coins=1)
        )
        assert isinstance(af.decided_by(shared), Msg)
        assert render_msg(af.decided_by(shared), names) == (
            "Equal totals and equal coins (Anna: 1 silver and Ben: 1 silver): a shared victory."
        )


def test_the_result_screen_shows_the_comparison_table_and_keeps_the_breakdowns(table):
    hand_in_all(table)
    for who in (*table.phones, "host"):
        page = table.page(who)
        ranking = page[
            page.index('id="af-ranking"') : page.index("</table>", page.index('id="af-ranking"'))
        ]
        heads = re.findall(r'<span class="who">(.*?)</span>', ranking)
        assert heads == ["Chris", "Anna", "Ben"]
        assert re.findall(r"<strong>(-?\d+)</strong>", ranking) == ["39", "39", "27"]
        for label in COLUMNS:
            assert f'<th scope="row">{label}</th>' in ranking
        assert "Winner: Chris." in visible(page)
        assert (
            "Equal totals, so the player with more coins wins (Chris: 95 silver and Anna: 23 silver)."
            in visible(page)
        )
        # The detail of each score stays, folded, below the table.
        assert '<details class="af-player af-fold" id="af-score-0">' in page


@pytest.mark.both_stores  # one whole game through the web on each store
def test_the_summary_shows_the_table_and_the_stacked_bars_with_their_data(table):
    hand_in_all(table)
    page = table.host.get(f"/t/{table.code}/summary").text
    assert 'id="summary-scores"' in page and "Winner: Chris." in visible(page)
    chart = page[page.index('id="summary-chart"') :]
    assert '<svg class="chart"' in chart and "Where the points came from" in chart
    # One bar per player, labelled best first; segments only for what was gained.
    assert re.findall(r'<text class="label"[^>]*>(\w+)</text>', chart) == ["Chris", "Anna", "Ben"]
    assert "<title>Artifact sets: 16</title>" in chart and "Guide adventures: -10" not in chart
    data = chart[chart.index('class="chart-data"') :]
    assert "Points by part of the score" in data
    rows = re.findall(r'<tr><th scope="row">(.*?)</th>(.*?)</tr>', data)
    found = {label: re.findall(r'<td class="num">(-?\d+)</td>', cells) for label, cells in rows}
    assert found["Guide adventures"] == ["0", "0", "-10"]
    assert found["Expeditions"] == ["30", "11", "35"]


def test_the_summary_speaks_the_readers_language(table):
    hand_in_all(table)
    table.host.set_cookie("lang", "ja")
    page = table.host.get(f"/t/{table.code}/summary?lang=ja").text
    assert "Where the points came from" not in page and "Expeditions" not in visible(page)


def test_the_csv_columns_and_values_come_from_the_score_table(table):
    hand_in_all(table)
    rows = list(csv.reader(io.StringIO(table.host.get(f"/t/{table.code}/export.csv").text)))
    assert rows[0][8:-7] == COLUMNS  # then the start player, the time, the ids
    by_name = {r[4]: r for r in rows[1:]}
    assert by_name["Chris"][5:-7] == ["39", "1", "yes", "30", "0", "0", "0", "9", "0", "0"]
    assert by_name["Anna"][5:-7] == ["39", "2", "no", "11", "9", "16", "0", "2", "1", "0"]
    assert by_name["Ben"][5:-7] == ["27", "3", "no", "35", "0", "0", "-10", "0", "0", "2"]
    bg = json.loads(table.host.get(f"/t/{table.code}/export.bgsplay").data)
    starts = {s["seatOrder"]: s["startPlayer"] for s in bg["plays"][0]["playerScores"]}
    assert starts == {1: True, 2: False, 3: False} and bg["games"][0]["bggId"] == 0  # none cited


def test_before_the_result_no_sheet_or_card_point_is_exported(table):
    anna, ben, _ = table.phones
    table.act(anna, "submit_sheet", **sheet_data(expeditions=[17], silver=4321))
    table.act(ben, "submit_sheet", **sheet_data(expeditions=[19], gold=77))
    for path in ("export.json", "export.txt", "summary"):
        text = table.host.get(f"/t/{table.code}/{path}").text
        assert "4321" not in text and "385" not in text  # Ben's 77 gold are 385 silver
    for path in ("export.csv", "export.bgsplay"):
        assert table.host.get(f"/t/{table.code}/{path}").status_code == 409
    data = json.loads(table.host.get(f"/t/{table.code}/export.json").data)
    assert data["result"] is None and "scores" not in data
    assert all("action" not in e for e in data["events"] if e["kind"] == "game")

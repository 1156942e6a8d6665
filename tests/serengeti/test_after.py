"""Serengeti and Don after the game: the comparison table (score_table), the start player of the
record (start_seat), the summary's pictures (summary_chart), the exports read from them, and the
payout's explanation that the table and the calculator share."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest

from companion import get_db, tables
from companion.games.base import Msg
from companion.games.serengeti import rules as rules
from companion.games.serengeti import web as play_serengeti
from tests.helpers import visible
from tests.serengeti.helpers import card
from tests.serengeti.test_web import NAMES, play_whole_game, rounds_one_to_three

ADAPTER = play_serengeti.ADAPTER
TRIBE_LABELS = ["Nuba", "Massai", "Bantu", "Nandi", "Tonga", "Samburu"]


def _tie_on_chips() -> dict:
    """Anna: Nuba 1, Nuba 2 (3 points), Tonga 3 (1): 4 points, 3 cards, 6 chips. Ben: Massai 1,
    Massai 2 (3), Bantu 5 (1): 4 points, 3 cards, 5 chips. Chris: no card, 20 chips, so the
    chip bonus: 3 points. Anna and Ben tie on points and cards; Anna has more chips."""
    state = rules.new({"variant": "abacus"}, 3)
    state["cards"] = [
        [card("nuba1"), card("nuba2"), card("tonga3")],
        [card("massai1"), card("massai2"), card("bantu5")],
        [],
    ]
    state["chips"], state["bank"] = [6, 5, 20], 34
    state.update(phase="over", round=15)
    return state


def test_score_table_has_tribe_points_and_the_chip_bonus_down_and_players_in_ranking_order():
    state = _tie_on_chips()
    table = rules.GAME.score_table(state, rules.result(state))
    assert table.seats == [0, 1, 2] and table.ranks == [1, 2, 3] and table.winners == [0]
    assert table.rows == [
        ("Nuba", [3, 0, 0]),
        ("Massai", [0, 3, 0]),
        ("Bantu", [0, 1, 0]),
        ("Nandi", [0, 0, 0]),
        ("Tonga", [1, 0, 0]),
        ("Samburu", [0, 0, 0]),
        ("Most chips bonus", [0, 0, 3]),
    ]
    assert table.totals == [4, 4, 3]
    assert str(table.decided_by) == "Player 1 ties on points and cards and wins with more chips."
    # Each total is the sum of its column: the table explains the score.
    for i, total in enumerate(table.totals):
        assert sum(values[i] for _, values in table.rows) == total


def test_score_table_says_nothing_about_a_tie_break_when_points_decide():
    state = _tie_on_chips()
    state["cards"][0].append(card("nuba3"))  # Anna: 3 Nuba (6) + Tonga (1) = 7
    table = rules.GAME.score_table(state, rules.result(state))
    assert table.totals[0] == 7 and table.decided_by is None


def test_a_shared_win_is_told_in_words():
    state = rules.new({"variant": "don"}, 3)
    state["cards"] = [[card("nuba1")], [card("massai1")], [card("bantu1")]]
    state["chips"], state["pot"] = [12, 12, 12], 0
    state.update(phase="over", round=15)
    table = rules.GAME.score_table(state, rules.result(state))
    assert table.winners == [0, 1, 2] and table.ranks == [1, 1, 1]
    assert table.totals == [3, 3, 3]  # 1 point each and the Don bonus (+2) for all three
    assert table.rows[-1] == ("Most chips bonus", [2, 2, 2])
    assert "share the win" in str(table.decided_by)


def test_start_seat_is_who_started_round_one_not_the_latest_start_player():
    state = rules.new({"variant": "abacus", "start": 2}, 4)
    assert rules.GAME.start_seat(state) == 2
    state = rules.apply(state, {"type": "start", "player": 1, "seat": None, "host": True})
    assert rules.GAME.start_seat(state) == 1
    state["start"], state["round"] = 3, 7  # later rounds start with the last winner
    assert rules.GAME.start_seat(state) == 1
    del state["first_start"]  # a table stored before the start was recorded
    assert rules.GAME.start_seat(state) == 0


def _states(g) -> list[dict]:
    with g.app.app_context():
        db = get_db()
        return [s for _, s in tables.game_states(db, tables.get_table(db, g.code))]


def test_chips_by_round_reads_the_chips_when_each_round_ends(make_table):
    g = make_table("serengeti", NAMES)
    rounds_one_to_three(g)  # worked out by hand in its docstring
    rounds = play_serengeti.chips_by_round(_states(g))
    assert rounds == [[10, 10, 10], [12, 9, 12], [14, 11, 11], [1, 19, 19]]
    assert play_serengeti.summary_chart(_states(g), list(NAMES)) is None  # not over: private


def test_before_the_end_nothing_private_leaves_the_table(make_table):
    g = make_table("serengeti", NAMES)
    rounds_one_to_three(g)  # chips now 1, 19, 19: private
    g.act("host", "card", tribe="nuba", digit="4")
    g.act("Anna", "bid", amount="3")
    code = g.code
    summary = g.host.get(f"/t/{code}/summary").text
    assert "still going" in summary and 'class="chart"' not in summary
    assert 'id="summary-scores"' not in summary
    data = json.loads(g.host.get(f"/t/{code}/export.json").data)
    assert data["result"] is None and "scores" not in data
    assert all("action" not in e for e in data["events"] if e["kind"] == "game")
    assert '"chips"' not in json.dumps(data)
    # No chip count (1, 19, 19) in what the events say; their times may hold a 19 (16:19).
    told = json.dumps([{k: v for k, v in e.items() if k != "created"} for e in data["events"]])
    assert "19" not in told
    for kind in ("csv", "bgsplay"):
        assert g.host.get(f"/t/{code}/export.{kind}").status_code == 409


@pytest.mark.both_stores  # one whole game through the web on each store
@pytest.mark.parametrize("variant", ["serengeti", "don"])
def test_a_whole_game_ends_in_a_summary_with_pictures_and_exports_from_the_score_table(
    make_table, variant
):
    g = make_table(variant, NAMES)
    g.act("host", "start", player="1")  # Ben starts round 1
    code = g.code
    state = play_whole_game(g, variant)
    result = rules.result(state)
    score = rules.GAME.score_table(state, result)

    # The summary: the comparison table and two pictures, each with its numbers as a table.
    page = g.host.get(f"/t/{code}/summary").text
    text = visible(page)
    assert 'id="summary-scores"' in page
    assert page.count('<svg class="chart"') == 2
    assert "Chips round by round" in text and "Cards by tribe" in text
    ids = re.findall(r'\bid="([^"]+)"', page)
    assert len(ids) == len(set(ids)), "two charts on one page need ids of their own"
    chip_rows = play_serengeti.chips_by_round(_states(g))
    assert len(chip_rows) == rules.ROUNDS + 1
    assert chip_rows[0] == [rules.START_CHIPS[state["variant"]]] * 3 and chip_rows[-1] == list(
        state["chips"]
    )
    tables_html = re.findall(r'<details class="chart-data">.*?</details>', page, re.S)
    assert len(tables_html) == 2
    chips_table, tribes_table = tables_html
    for seat, name in enumerate(NAMES):
        cells = [
            int(c)
            for c in re.findall(rf"<th scope=\"row\">{name}</th>(.*?)</tr>", chips_table)[0]
            .replace('<td class="num">', " ")
            .replace("</td>", " ")
            .split()
        ]
        assert cells == [row[seat] for row in chip_rows]
    for tribe in TRIBE_LABELS:
        assert f'<th scope="row">{tribe}</th>' in tribes_table
    owned = [len(cards) for cards in state["cards"]]
    counted = [0, 0, 0]
    for row in re.findall(r'<tr><th scope="row">\w+</th>(.*?)</tr>', tribes_table):
        for seat, value in enumerate(re.findall(r'<td class="num">(\d+)</td>', row)):
            counted[seat] += int(value)
    assert counted == owned

    # The CSV: the score table's rows are the breakdown columns, its totals the scores.
    rows = list(csv.reader(io.StringIO(g.host.get(f"/t/{code}/export.csv").text)))
    assert rows[0][8:-7] == [*TRIBE_LABELS, "Most chips bonus"]
    by_seat = {int(r[3]) - 1: r for r in rows[1:]}
    for i, seat in enumerate(score.seats):
        row = by_seat[seat]
        assert (
            row[4] == NAMES[seat]
            and int(row[5]) == score.totals[i] == result["players"][i]["total"]
        )
        assert int(row[6]) == score.ranks[i] and row[7] == (
            "yes" if seat in score.winners else "no"
        )
        assert [int(v) for v in row[8:-7]] == [values[i] for _, values in score.rows]

    # BG Stats marks who started round 1 (Ben), not the start player of round 15.
    play = json.loads(g.host.get(f"/t/{code}/export.bgsplay").data)["plays"][0]
    starters = [s["seatOrder"] for s in play["playerScores"] if s["startPlayer"]]
    assert starters == [2]

    # The end screen shows the same table, with the detail behind it.
    end = g.page("Anna")
    assert 'id="sg-score-table"' in end and 'id="sg-result-detail"' in end


def test_the_payout_line_opens_to_the_same_explanation_as_the_calculator(make_table, client):
    g = make_table("serengeti", NAMES)
    rounds_one_to_three(g)  # round 3: Anna pays 13; Ben and Chris own a 3 and receive 6 each
    page = g.page("Ben")
    why = re.search(
        r'<details class="sg-payout-why" id="sg-payout-why">(.*?)</details>', page, re.S
    )
    assert why, "the payout line has no explanation"
    text = visible(why.group(1))
    assert "Anna paid 13: Ben 6, Chris 6, 1 to the bank" in text
    assert "Only the last digit counts: 13 → 3." in text
    assert "each card earns 6 chips (13 ÷ 2)." in text
    calc = client.get(
        "/tools/serengeti/?players=3&bid=13&winner=0&name_0=Anna&name_1=Ben&name_2=Chris"
        "&digits_1=3&digits_2=3"
    ).text
    calc_why = re.search(r'<ul class="sg-why">.*?</ul>', calc, re.S).group(0)
    table_why = re.search(r'<ul class="sg-why">.*?</ul>', why.group(1), re.S).group(0)
    assert calc_why == table_why


def test_payout_explanation_is_one_pure_function_for_every_method():
    def why(bid, holdings, players=None, **kw):
        pay = rules.payout(bid, "A", holdings, **kw)
        return [str(m) for m in rules.payout_explanation(pay, bid, players=players, **kw)]

    assert why(7, {"A": [], "B": [7, 7], "C": []})[1] == (
        "Only B owns a 7 (2 cards), so B takes the whole bid: a lone holder is not paid per card."
    )
    assert why(5, {"A": [], "B": [], "C": []}) == [
        "Only the last digit counts: 5 → 5.",
        "Nobody else owns a 5: the other players share it equally.",
    ]
    assert why(7, {"A": [], "B": [], "C": []}, players=3)[2] == (
        "Each of them receives 3 chips (7 ÷ 2)."
    )
    assert why(1, {"A": [], "B": [], "C": [], "D": []}, players=4)[2] == (
        "Each of them receives 0 chips (1 ÷ 3)."
    )
    don = why(13, {"A": [], "B": [3, 3], "C": [3]}, variant="don", pot=2)
    assert don[1] == "The pot of 2 is added: 15 chips to share."
    assert don[2].startswith("Don: whoever owns the most cards with a 3 takes it all")
    assert len(don) == 3  # B alone has the most: no division to show
    tied = why(13, {"A": [], "B": [3], "C": [3], "D": []}, variant="don", pot=2, players=4)
    assert tied[3] == "Each of them receives 7 chips (15 ÷ 2)."
    assert isinstance(
        rules.payout_explanation(rules.payout(1, "A", {"A": [], "B": [1]}), 1)[0], Msg
    )


def test_no_form_of_the_game_leaves_a_rule_limit_to_the_browser(make_table, client):
    """Rule limits are the app's own messages: every form is sent with novalidate and no box
    carries min, max, pattern or required (the browser would answer in its own words)."""
    g = make_table("serengeti", NAMES)
    g.act("host", "card", tribe="nuba", digit="3")
    pages = [g.page("host"), g.page("Anna"), g.page("host", "?as=0")]
    pages.append(client.get("/tools/serengeti/?bid=1000&players=3&winner=0").text)
    checked = []
    for page in pages:
        forms = re.findall(r"<form\b[^>]*>", page)
        game_forms = [f for f in forms if "/act/" in f or "payout-form" in f]
        assert game_forms and all("novalidate" in f for f in game_forms)
        inputs = re.findall(r"<(?:input|select)\b[^>]*>", page)
        named = r'name="(amount|bid|players|pot|card|tribe|digit)"'
        checked += [i for i in inputs if re.search(named, i)]
    assert len(checked) >= 5  # the bid box, the calculator's boxes
    assert [i for i in checked if re.search(r"\s(min|max|pattern|required)[=\s>]", i)] == []

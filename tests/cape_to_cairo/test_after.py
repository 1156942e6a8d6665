"""From Cape to Cairo after the game: the final score table (on the table page, the summary and
in the exports), the start seat, the summary's charts, and nothing sealed exported before the
end. The game is a fixed one whose every figure is worked out by hand below."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest

from companion.games.cape_to_cairo import course
from companion.games.cape_to_cairo import rules as g
from tests.cape_to_cairo.test_web import Table, act_direct
from tests.helpers import visible

ANNA, BEN = 0, 1


def round_of(t, lead_bids, take, building):
    """One acquisition round: a savanna (3 symbols, pays 10) and a mountain (0, pays 1)."""
    for action, seat in [
        ({"type": "card", "terrain": "savanna", "marks": 3, "income": 10}, None),
        ({"type": "card", "terrain": "mountain", "marks": 0, "income": 1}, None),
        ({"type": "bid", "amount": lead_bids[ANNA]}, ANNA),
        ({"type": "bid", "amount": lead_bids[BEN]}, BEN),
        take,
        *building,
    ]:
        act_direct(t, action, seat)


def play_fixed_game(t):
    """Round 1: Ben bids 1 and Anna 0, so Ben chooses first (the mountain) and builds first; he
    cannot afford the mountain (9 tracks, 3 symbols: 60 pounds... he has 99, so he could, but
    passes), Anna turns up 3 more symbols and crosses her savanna for free (6 symbols + 3 of the
    card). Rounds 2-8: Anna bids 1, takes the savanna and crosses it for free.

    By hand: Anna 8 crossed, income 8 x 10 = 80, money 100 + 10 + 7 x (10 - 1) = 173;
    Ben 0 crossed, 8 mountains in his row, money 100 - 1 = 99, no bonus track (no river)."""
    round_of(
        t,
        {ANNA: 0, BEN: 1},
        ({"type": "take", "card": 1}, BEN),
        [
            ({"type": "turn_up", "marks": 3}, None),
            ({"type": "pass"}, BEN),
            ({"type": "turn_up", "marks": 3}, None),
            ({"type": "cross"}, ANNA),
        ],
    )
    for _ in range(7):
        round_of(
            t,
            {ANNA: 1, BEN: 0},
            ({"type": "take", "card": 0}, ANNA),
            [({"type": "turn_up", "marks": 3}, None), ({"type": "cross"}, ANNA)],
        )


@pytest.fixture
def done(app):
    t = Table(app, "cape_to_cairo", ("Anna", "Ben"))
    play_fixed_game(t)
    assert t.state()["phase"] == "over"
    return t


def test_the_score_table_puts_the_winner_first_with_the_rows_worked_out_by_hand(done):
    state = done.state()
    score = g.GAME.score_table(state, g.result(state))
    assert score.seats == [ANNA, BEN] and score.ranks == [1, 2] and score.winners == [ANNA]
    assert score.rows == [
        ("Income earned", [80, 0]),
        ("Money left", [173, 99]),
        ("Bonus tracks left", [0, 0]),
        ("Cards not crossed", [0, 8]),
    ]
    assert score.totals == [8, 0] and score.total_label == "Terrains crossed"
    assert score.decided_by is None  # the 8th crossing ends the game: nothing to break


def test_places_after_the_winner_follow_the_terrains_crossed_and_equal_counts_share():
    def player(seat, crossed):
        return {
            "seat": seat,
            "crossed_count": crossed,
            "income": crossed * 5,
            "money": 50 + seat,
            "bonus": seat,
            "uncrossed": ["river"] * seat,
            "winner": False,
        }

    players = [player(0, 3), player(1, 5), player(2, 8), player(3, 5)]
    players[2]["winner"] = True
    table = course.standings({"winner": 2, "players": players})
    assert table["seats"] == [2, 1, 3, 0]
    assert table["ranks"] == [1, 2, 2, 4]
    assert table["totals"] == [8, 5, 5, 3]
    assert table["rows"][1] == ("Money left", [52, 51, 53, 50])
    assert table["rows"][3] == ("Cards not crossed", [2, 1, 3, 0])


def test_the_start_seat_is_the_highest_bidder_of_the_first_round(done):
    assert g.GAME.start_seat(done.state()) == BEN  # Anna led every later round
    assert g.GAME.start_seat(g.new({}, 3)) == 0  # not settled yet (or an old stored game)
    data = json.loads(done.host.get(f"/t/{done.code}/export.bgsplay").data)
    names = {p["id"]: p["name"] for p in data["players"]}
    starts = {names[s["playerRefId"]]: s["startPlayer"] for s in data["plays"][0]["playerScores"]}
    assert starts == {"Anna": False, "Ben": True}


def test_the_table_page_shows_the_core_score_table(done):
    page = done.page("Ben")
    assert 'id="ctc-scores"' in page
    text = visible(page)
    assert "Anna wins!" in text and "Winner: Anna." in text
    assert re.search(r"1\. ★ Anna 2\. Ben Income earned 80 0 Money left 173 99", text), text
    assert "Terrains crossed 8 0" in text


def test_the_game_by_round_worked_out_by_hand(done):
    found = course.by_round([s for s in states_of(done)])
    assert found["rounds"] == list(range(1, 9))
    assert found["crossed"] == [list(range(9)), [0] * 9]
    assert found["money"] == [[100, 110, *range(119, 174, 9)], [100] + [99] * 8]
    assert found["per_round"] == [[1, 0]] * 8
    assert course.by_round([]) == {"rounds": [], "crossed": [], "money": [], "per_round": []}


def states_of(t):
    from companion import get_db, tables

    with t.app.app_context():
        db = get_db()
        return [s for _, s in tables.game_states(db, tables.get_table(db, t.code))]


@pytest.mark.both_stores  # one whole game through the web on each store
def test_the_summary_shows_three_charts_with_their_data_tables(done):
    page = done.host.get(f"/t/{done.code}/summary").text
    assert 'id="summary-scores"' in page
    assert page.count('<svg class="chart"') == 3 and page.count('class="chart-data"') == 3
    for key in ("race", "rounds", "money"):
        assert f'id="ctc-chart-{key}"' in page
    # Each chart is labelled by a title and a description of its own (one id per chart).
    labels = re.findall(r'aria-labelledby="([\w-]+)-title \1-desc"', page)
    assert len(labels) == len(set(labels)) == 3
    for key in labels:
        assert page.count(f'id="{key}-title"') == 1
    text = visible(page)
    assert "The race to 8 terrains" in text and "Money over the game" in text
    # The data tables: the race (0 to 8 for Anna), the money (100, 110, 119 ... 173 for Anna).
    assert "Anna 0 1 2 3 4 5 6 7 8" in text
    assert "Anna 100 110 119 128 137 146 155 164 173" in text
    assert "Ben 100 99 99 99 99 99 99 99 99" in text
    assert "Round 1 1 0" in text  # the crossings of round 1: Anna 1, Ben 0


def test_the_summary_speaks_japanese_and_russian(done):
    for lang, words in (("ja", "8つの地形"), ("ru", "Раунд")):
        done.host.get(f"/lang/{lang}")
        text = visible(done.host.get(f"/t/{done.code}/summary").text)
        assert words in text, text[:2000]


def test_the_csv_columns_and_values_come_from_the_score_table(done):
    rows = list(csv.reader(io.StringIO(done.host.get(f"/t/{done.code}/export.csv").text)))
    assert rows[0][8:-7] == [
        "Income earned",
        "Money left",
        "Bonus tracks left",
        "Cards not crossed",
    ]
    by_name = {r[4]: r for r in rows[1:]}
    assert by_name["Anna"][5:-7] == ["8", "1", "yes", "80", "173", "0", "0"]
    assert by_name["Ben"][5:-7] == ["0", "2", "no", "0", "99", "0", "8"]


def test_before_the_end_no_sealed_bid_is_exported(app):
    t = Table(app, "cape_to_cairo", ("Anna", "Ben"))
    for terrain in ("savanna", "mountain"):
        t.act("host", "card", terrain=terrain, marks=0, income=1)
    t.act("Anna", "bid", amount=73)
    for path in ("export.json", "export.txt", "summary"):
        text = visible(t.host.get(f"/t/{t.code}/{path}").text)
        assert not re.search(r"\b73\b", text), (path, text)
    data = json.loads(t.host.get(f"/t/{t.code}/export.json").data)
    assert data["result"] is None and "scores" not in data
    for kind in ("csv", "bgsplay"):
        assert t.host.get(f"/t/{t.code}/export.{kind}").status_code == 409

"""The two open points a table may read literally (table options): each changes exactly the rule
it names (¶40: the last player alone; ¶119: who may put a card up for sale), and nothing else."""

from __future__ import annotations

import random

import pytest

from companion.games.base import RuleError
from companion.games.serengeti import rules as g
from companion.games.serengeti import scoreboard
from tests.serengeti.test_game import act, reveal, start

LITERAL_ALONE = {"readings": {"last-player-alone": "literal"}}
LITERAL_SALE = {"readings": {"sale-who-may": "literal"}}


def test_ours_gives_the_last_player_a_turn_the_literal_reading_ends_the_auction_at_once():
    ours = act(act(reveal(start(), "nuba4"), "pass", seat=0), "pass", seat=1)
    assert ours["phase"] == "auction" and ours["auction"]["turn"] == 2  # seat 3 still may bid
    literal = start(**LITERAL_ALONE)
    literal = act(act(reveal(literal, "nuba4"), "pass", seat=0), "pass", seat=1)
    assert literal["phase"] == "reveal" and literal["round"] == 2  # the lot went at once
    assert literal["cards"][0] == [{"tribe": "nuba", "digit": 4}]  # to the start player, free
    assert literal["chips"][2] == 10  # the last player got no turn and no pass bonus


def test_the_literal_reading_changes_nothing_once_someone_has_bid():
    for options in ({}, LITERAL_ALONE):
        state = act(reveal(start(**options), "nuba4"), "bid", seat=0, amount=3)
        state = act(act(state, "pass", seat=1), "pass", seat=2)
        assert state["cards"][0] == [{"tribe": "nuba", "digit": 4}] and state["round"] == 2


def test_literally_only_the_start_player_may_sell_in_don():
    ours = start("don", 3, start=1)
    ours["cards"][0] = [{"tribe": "nuba", "digit": 4}]
    assert act(ours, "sell", seat=0, tribe="nuba", digit=4)["auction"]["kind"] == "sale"
    literal = start("don", 3, start=1, **LITERAL_SALE)
    literal["cards"][0] = [{"tribe": "nuba", "digit": 4}]
    literal["cards"][1] = [{"tribe": "tonga", "digit": 1}]
    with pytest.raises(RuleError) as refused:
        act(literal, "sell", seat=0, tribe="nuba", digit=4)
    assert refused.value.rule == "sale" and "Player 2" in str(refused.value)
    assert act(literal, "sell", seat=1, tribe="tonga", digit=1)["auction"]["seller"] == 1
    # The panel (the view's may_sell) and the prompt offer the sale only where it is allowed.
    assert g.view(ours, 0)["me"]["may_sell"] and g.view(literal, 1)["me"]["may_sell"]
    assert not g.view(literal, 0)["me"]["may_sell"]
    assert "for sale" in g.GAME.prompt(literal, 1) and "for sale" not in g.GAME.prompt(literal, 0)


def test_a_reading_that_is_not_offered_is_refused_and_the_board_names_the_chosen_ones():
    with pytest.raises(RuleError):
        start(readings={"bid-digit": "literal"})
    with pytest.raises(RuleError):
        start(readings={"last-player-alone": "maybe"})
    assert scoreboard.variants(start()) == []
    assert scoreboard.variants(start(**LITERAL_ALONE)) == [
        "literal reading: an auction ends when all but one have passed"
    ]


@pytest.mark.parametrize("seed", range(4))
def test_chips_stay_conserved_whatever_the_table_reads(seed):
    from companion.games.serengeti import random_play

    rng = random.Random(seed)
    for options in (LITERAL_ALONE, LITERAL_SALE, {}):
        state = start("don" if seed % 2 else "abacus", 4, **options)
        total = g.total_chips(state)
        for _ in range(600):
            if g.result(state) is not None:
                break
            action = random_play.next_action(state, rng)
            try:
                state = g.apply(state, action)
            except RuleError:
                continue
            assert g.total_chips(state) == total


def test_a_table_started_with_a_literal_reading_and_a_house_rule_says_so_everywhere(client):
    from tests.helpers import start_table, visible

    code = start_table(
        client,
        "serengeti",
        ("Anna", "Ben", "Chris"),
        extra={"reading-last-player-alone": "literal", "house_rule": "Snacks before bids."},
    )
    page = visible(client.get(f"/t/{code}/").text)
    assert "This table reads it the other way: Read literally, the auction ends" in page
    assert "House rule: Snacks before bids." in page
    data = client.get(f"/t/{code}/export.json").get_json()
    assert data["table"]["settings"] == {"house_rule": "Snacks before bids."}
    assert data["table"]["options"]["readings"] == {"last-player-alone": "literal"}


def test_a_rematch_keeps_the_readings_or_changes_them_and_shows_them_in_the_replay(app, client):
    import random as rnd

    from companion import get_db, tables
    from tests.helpers import csrf_from, play_to_end, start_table, visible

    code = start_table(
        client,
        "serengeti",
        ("Anna", "Ben", "Chris"),
        extra={"reading-last-player-alone": "literal", "house_rule": "Snacks before bids."},
    )
    with app.app_context():
        db = get_db()
        play_to_end(db, tables.get_table(db, code), rnd.Random(5))
    page = client.get(f"/t/{code}/")
    form = visible(page.text.split('id="rematch-readings"')[1].split("</details>")[0])
    assert "Read literally, the auction ends" in form and "Snacks before bids." not in form
    replay = visible(client.get(f"/t/{code}/replay/0").text)
    assert "This table reads it the other way: Read literally" in replay
    asked = visible(client.get(f"/t/{code}/rules?q=pass").text)
    assert "House rule: Snacks before bids." in asked
    # The rematch switches Don's sale reading on, the other one back, and empties the rule.
    sent = client.post(
        f"/t/{code}/rematch",
        data={
            "csrf_token": csrf_from(page.text),
            "order": "same",
            "reading-last-player-alone": "app",
            "reading-sale-who-may": "literal",
            "house_rule": "",
        },
    )
    new = sent.headers["Location"].split("/t/")[1].strip("/")
    with app.app_context():
        table = tables.get_table(get_db(), new)
    assert table.options["readings"] == {"sale-who-may": "literal"}
    assert "house_rule" not in table.settings
    # Left out of the form (an older page), the readings stay as they were.
    with app.app_context():
        db = get_db()
        play_to_end(db, tables.get_table(db, new), rnd.Random(6))
    page = client.get(f"/t/{new}/")
    sent = client.post(
        f"/t/{new}/rematch", data={"csrf_token": csrf_from(page.text), "order": "next"}
    )
    third = sent.headers["Location"].split("/t/")[1].strip("/")
    with app.app_context():
        assert tables.get_table(get_db(), third).options["readings"] == {"sale-who-may": "literal"}

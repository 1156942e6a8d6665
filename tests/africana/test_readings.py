"""The open point a table may read the other way (a table option): the rule text gives each
company starting coins (2, 2, 3, 4) without saying silver or gold. We read silver; a table that
reads gold starts with 10, 10, 15 and 20 silver, and nothing else changes."""

from __future__ import annotations

import json
import random

import pytest

from companion.games.africana import random_play, scoreboard
from companion.games.africana import rules as af
from companion.games.base import RuleError
from tests.africana.helpers import sheet

GOLD = {"readings": {"starting-coins-silver": "literal"}}


def coins(state):
    return [record["coins"] for record in state["seats"]]


def test_ours_pays_the_printed_coins_as_silver_and_a_stored_state_without_readings_reads_ours():
    state = af.new({}, 4)
    assert coins(state) == [2, 2, 3, 4] and state["readings"] == []
    assert state["seats"][3]["ledger"] == [{"what": "start", "amount": 4, "balance": 4, "turn": 0}]
    assert scoreboard.variants(state) == []
    del state["readings"]  # stored before table readings existed
    assert scoreboard.variants(state) == []
    assert af.view(state, 0)["company"]["coins"] == 2


def test_read_as_gold_the_starting_coins_are_worth_five_times_as_much():
    state = af.new(GOLD, 4)
    assert coins(state) == [10, 10, 15, 20]
    assert [record["ledger"] for record in state["seats"]] == [
        [{"what": "start", "amount": n, "balance": n, "turn": 0}] for n in (10, 10, 15, 20)
    ]
    assert scoreboard.variants(state) == ["Starting coins in gold"]
    company = af.view(state, 2)["company"]
    assert (company["printed"], company["coins"], company["in_gold"]) == (3, 15, True)
    assert [c["coins"] for c in af.view(state, None)["setup"]["companies"]] == [10, 10, 15, 20]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_new_state_differs_only_in_the_starting_coins_and_the_reading_kept(players):
    ours, gold = af.new({}, players), af.new(GOLD, players)
    expected = json.loads(json.dumps(ours))
    for seat, record in enumerate(expected["seats"]):
        value = af.COMPANIES[seat]["coins"] * af.SILVER_PER_GOLD
        record["coins"] = value
        record["ledger"][0].update(amount=value, balance=value)
    expected["options"] = GOLD
    expected["readings"] = ["starting-coins-silver"]
    assert gold == expected


def shifted(state: dict, extra: list[int]) -> dict:
    """The state with each seat's coins and ledger balances lowered by its extra starting coins."""
    state = json.loads(json.dumps(state))
    for seat, record in enumerate(state["seats"]):
        record["coins"] -= extra[seat]
        for line in record["ledger"]:
            line["balance"] -= extra[seat]
        record["ledger"][0]["amount"] -= extra[seat]
    state["options"], state["readings"] = {}, []
    return state


@pytest.mark.parametrize("seed", range(6))
def test_the_same_game_read_as_gold_only_carries_the_extra_coins_along(seed):
    """Every entry ours accepts, the gold table accepts too, with the same effect: only the
    balances stay higher by the extra starting coins (money never makes an entry illegal)."""
    rng = random.Random(seed)
    players = 2 + seed % 3
    ours, gold = af.new({}, players), af.new(GOLD, players)
    extra = [c - o for c, o in zip(coins(gold), coins(ours), strict=True)]
    for _ in range(400):
        action = random_play.next_action(ours, rng)
        if action is None:
            break
        try:
            ours = af.apply(ours, action)
        except RuleError:
            continue
        gold = af.apply(gold, action)
        assert shifted(gold, extra) == ours


def test_the_extra_coins_buy_adventures_and_score_at_the_end():
    ours, gold = af.new({}, 2), af.new(GOLD, 2)
    buy = {"type": "buy_adventure", "seat": 0, "host": False, "cards": 1}
    with pytest.raises(RuleError) as refused:
        af.apply(ours, buy)
    assert refused.value.rule == "no-debt"
    assert af.apply(gold, buy)["seats"][0]["coins"] == 5
    # The game ends at once: each sheet counts the coins (10 silver = 1 point), the tie-break too.
    finish = {"type": "finish_game", "seat": None, "host": True}
    ours, gold = af.apply(ours, finish), af.apply(gold, finish)
    assert [scoreboard.points_now(ours, s) for s in (0, 1)] == [0, 0]
    assert [scoreboard.points_now(gold, s) for s in (0, 1)] == [1, 1]
    for seat in (0, 1):
        suggested = af.view(gold, seat)["seats"][seat]["suggested_sheet"]
        assert suggested["coins"] == 10
        gold = af.apply(
            gold,
            {
                "type": "submit_sheet",
                "seat": seat,
                "host": False,
                **sheet(coins=suggested["coins"]),
            },
        )
    result = af.result(gold)
    assert [s["total"] for s in result["scores"]] == [1, 1]


def test_a_reading_that_is_not_offered_is_refused_under_the_set_up_rule():
    for readings in ({"coins-by-value": "literal"}, {"starting-coins-silver": "gold"}, ["x"]):
        with pytest.raises(RuleError) as refused:
            af.new({"readings": readings}, 3)
        assert refused.value.rule == "set-up"
    assert coins(af.new({"readings": {"starting-coins-silver": "app"}}, 2)) == [2, 2]


def test_the_set_up_guide_names_the_coins_the_table_reads():
    ours = {step.key: step for step in af.GAME.setup({}, 3)}
    gold = {step.key: step for step in af.GAME.setup(GOLD, 3)}
    assert "3 silver," in ours["company-3"].text and "app reads silver" in ours["company-3"].filled
    assert "3 gold coins (15 silver)" in gold["company-3"].text
    assert "this table reads gold" in gold["company-3"].filled
    assert set(ours) == set(gold)
    changed = {key for key in ours if ours[key] != gold[key]}
    assert changed == {"company-1", "company-2", "company-3"}


def test_the_rules_declare_both_readings_with_the_sentence_they_read():
    assert set(af.GAME.other_readings) == {"starting-coins-silver"} <= set(af.GAME.readings)
    where, printed, rendering = af.GAME.reads_from["starting-coins-silver"]
    assert where == "ja L140" and "初期資金" in printed and "starting funds" in rendering
    assert "gold coins" in af.GAME.other_readings["starting-coins-silver"]


def test_the_home_page_offers_gold_and_a_table_started_with_it_says_so(client):
    from companion import get_db, tables
    from tests.helpers import play_to_end, start_table, take_seat, visible

    home = client.get("/").text
    box = home[home.index('data-games="africana"') :]
    box = box[: box.index("</fieldset>")]
    assert 'name="reading-starting-coins-silver" value="literal"' in box
    assert "ja L140" in visible(box) and "are gold coins, worth 10, 10, 15" in visible(box)
    code = start_table(
        client, "africana", ("Anna", "Ben"), extra={"reading-starting-coins-silver": "literal"}
    )
    page = visible(client.get(f"/t/{code}/").text)
    assert "This table reads it the other way: The starting coins in the company table" in page
    assert "2 gold coins (10 silver)" in page  # the host's set-up guide
    phone = client.application.test_client()
    assert take_seat(phone, code, 1, "Ben").status_code == 302
    mine = visible(phone.get(f"/t/{code}/").text)
    assert "Starting coins 2 gold coins, worth 10 silver" in mine  # the seat's own set-up
    data = client.get(f"/t/{code}/export.json").get_json()
    assert data["table"]["options"]["readings"] == {"starting-coins-silver": "literal"}
    with client.application.app_context():
        db = get_db()
        play_to_end(db, tables.get_table(db, code), random.Random(3))
    played = json.loads(client.get(f"/t/{code}/export.bgsplay").data)
    assert played["plays"][0]["board"] == "Starting coins in gold"
    # A table started without it reads ours and says nothing.
    other = start_table(client, "africana", ("Anna", "Ben"))
    assert "reads it the other way" not in visible(client.get(f"/t/{other}/").text)

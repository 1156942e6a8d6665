"""From Cape to Cairo: the pure rules, function by function and through whole phase cycles."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.base import Msg, RuleError
from companion.games.cape_to_cairo import rules as g
from tests.helpers import rule_ids_in

# ---------------------------------------------------------------------------------------------
# helpers


def act(state, type_, seat=None, host=False, **fields):
    return g.apply(state, {"type": type_, "seat": seat, "host": host, **fields})


def refused(state, rule, type_, seat=None, **fields):
    """The action is refused with `rule` and the state is untouched."""
    before = copy.deepcopy(state)
    with pytest.raises(RuleError) as err:
        act(state, type_, seat, **fields)
    assert err.value.rule == rule, (err.value.rule, str(err.value))
    assert state == before
    return err.value


def refused_action(state, action):
    """A whole action dict (or not a dict at all) is refused; the state is untouched."""
    before = copy.deepcopy(state)
    with pytest.raises(RuleError) as err:
        g.apply(state, action)
    assert state == before
    return err.value


def enter_cards(state, cards):
    for terrain, marks, income in cards:
        state = act(state, "card", None, terrain=terrain, marks=marks, income=income)
    return state


def bid_all(state, amounts):
    for seat, amount in enumerate(amounts):
        state = act(state, "bid", seat, amount=amount)
    return state


def two_player_round_one():
    """Round 1 of a 2-player game: P0 bids 30 and takes the river, P1 gets the savanna."""
    s = g.new({}, 2)
    s = enter_cards(s, [("river", 1, 5), ("savanna", 2, 3)])
    s = bid_all(s, [30, 10])
    s = act(s, "take", 0, card=0)
    return s


# ---------------------------------------------------------------------------------------------
# facts


def test_tracks_needed_is_the_terrain_card():
    assert g.TRACKS_NEEDED == {"river": 10, "mountain": 9, "desert": 8, "village": 7, "savanna": 6}


def test_every_rule_id_used_is_on_the_rules_page():
    # the pure modules of the package, read as one source so that a helper defined in one
    # module (facts.int_in) and called in another is still seen with its rule ids
    package = Path(g.__file__).parent
    source = "\n".join(
        path.read_text()
        for path in sorted(package.glob("*.py"))
        if path.name not in ("web.py", "calculator.py")
    )
    # every refusal is written  "rule-id", N_("message")
    used = set(re.findall(r'"([a-z-]+)",\s*N_\(', source)) | rule_ids_in(source)
    assert {"bid-range", "tie-draw", "cross-money", "acquisition-cards", "turn"} <= used
    assert used <= set(g.RULES), used - set(g.RULES)
    assert {"action", "game-over"} <= set(g.RULES)  # the shared dispatcher's refusals
    assert all(isinstance(v, str) and v for v in g.RULES.values())
    for key in ("which-symbols", "spent-money", "river-bonus", "nobody-affords", "phase-end"):
        assert key in g.CLARIFICATIONS


# ---------------------------------------------------------------------------------------------
# crossing arithmetic


@pytest.mark.parametrize(
    "terrain, marks, bonus, money, cost",
    [
        ("savanna", 6, 0, 0, 0),  # 6 symbols cover the 6 tracks
        ("savanna", 9, 0, 0, 0),  # extra symbols are simply not needed
        ("river", 4, 2, 100, 40),  # 10 - 4 symbols - 2 bonus = 4 bought = 40 pounds
        ("mountain", 0, 0, 90, 90),  # 9 bought = 90 pounds, exactly all the money
        ("mountain", 0, 0, 89, None),  # 90 needed, 89 held
        ("river", 0, 0, 99, None),  # 10 tracks = 100 pounds
        ("river", 0, 5, 50, 50),  # 5 bonus + 5 bought
        ("desert", 3, 5, 0, 0),  # 3 + 5 = 8 = desert
        ("desert", 3, 4, 9, None),  # 3 + 4 = 7, the 8th costs 10 > 9
        ("village", 5, 1, 10, 10),  # 7 - 5 - 1 = 1 bought
    ],
)
def test_crossing_cost_hand_cases(terrain, marks, bonus, money, cost):
    assert g.crossing_cost(terrain, marks, bonus, money) == cost


def test_cheapest_crossing_names_symbols_bonus_and_bought():
    # river, 4 symbols, 3 bonus held, 100 pounds: 4 symbols + 3 bonus + 3 bought (30 pounds)
    assert g.cheapest_crossing("river", 4, 3, 100) == {
        "terrain": "river",
        "needed": 10,
        "symbols": 4,
        "bonus": 3,
        "bought": 3,
        "pounds": 30,
    }
    # savanna with 8 symbols: only 6 of them are used, no bonus spent
    assert g.cheapest_crossing("savanna", 8, 2, 0) == {
        "terrain": "savanna",
        "needed": 6,
        "symbols": 6,
        "bonus": 0,
        "bought": 0,
        "pounds": 0,
    }
    assert g.cheapest_crossing("river", 0, 0, 0) is None


def test_crossing_plan_lets_the_player_keep_bonus_tracks():
    # village needs 7; 3 symbols; 3 bonus held. Spending 1 bonus: 7 - 3 - 1 = 3 bought = 30
    assert g.crossing_plan("village", 3, 3, 50, bonus=1)["pounds"] == 30
    assert g.crossing_plan("village", 3, 3, 50, bonus=0)["pounds"] == 40
    assert g.crossing_plan("village", 3, 3, 35, bonus=0) is None  # 40 > 35
    with pytest.raises(RuleError) as err:
        g.crossing_plan("village", 3, 3, 50, bonus=4)  # holds only 3
    assert err.value.rule == "cross-bonus"
    with pytest.raises(RuleError) as err:
        g.crossing_plan("village", 6, 3, 50, bonus=2)  # only 1 track is missing
    assert err.value.rule == "cross-bonus"


def test_crossing_choices_run_from_cheapest_to_no_bonus():
    # mountain 9, 5 symbols: 4 missing; 2 bonus held; 25 pounds
    choices = g.crossing_choices("mountain", 5, 2, 25)
    assert [
        (c["bonus"], c["bought"], c["pounds"], c["affordable"], c["cheapest"]) for c in choices
    ] == [(2, 2, 20, True, True), (1, 3, 30, False, False), (0, 4, 40, False, False)]
    # nothing missing: one choice, free
    assert [(c["bonus"], c["pounds"]) for c in g.crossing_choices("savanna", 6, 5, 0)] == [(0, 0)]


@pytest.mark.parametrize(
    "args",
    [
        ("lake", 0, 0, 0),
        (None, 0, 0, 0),
        ("river", -1, 0, 0),
        ("river", 1.5, 0, 0),
        ("river", True, 0, 0),
        ("river", 0, 6, 0),
        ("river", 0, -1, 0),
        ("river", 0, 0, -10),
        ("river", "3", 0, 0),
        ("river", 0, 0, "100"),
    ],
)
def test_crossing_cost_refuses_nonsense(args):
    with pytest.raises(RuleError):
        g.crossing_cost(*args)


terrains = st.sampled_from(sorted(g.TRACKS_NEEDED))


@settings(max_examples=200, deadline=None)
@given(terrains, st.integers(0, 40), st.integers(0, 5), st.integers(0, 300))
def test_crossing_cost_properties(terrain, marks, bonus, money):
    needed = g.TRACKS_NEEDED[terrain]
    cost = g.crossing_cost(terrain, marks, bonus, money)
    # possible exactly when symbols + bonus + whatever the money buys reach the need
    assert (cost is None) == (marks + bonus + money // 10 < needed)
    if cost is None:
        return
    assert cost == 10 * max(0, needed - marks - bonus)
    assert 0 <= cost <= money and cost % 10 == 0
    # more symbols or more bonus never cost more
    assert g.crossing_cost(terrain, marks + 1, bonus, money) <= cost
    if bonus < 5:
        assert g.crossing_cost(terrain, marks, bonus + 1, money) <= cost
    plan = g.cheapest_crossing(terrain, marks, bonus, money)
    assert plan["pounds"] == cost
    # the tracks add up to exactly what is needed, nothing wasted from bonus or money
    assert plan["symbols"] + plan["bonus"] + plan["bought"] == needed
    for choice in g.crossing_choices(terrain, marks, bonus, money):
        assert choice["pounds"] >= cost
        assert choice["affordable"] == (choice["pounds"] <= money)
        assert choice["cheapest"] == (choice["bonus"] == plan["bonus"])


# ---------------------------------------------------------------------------------------------
# bid order


def test_higher_bid_chooses_first():
    assert g.acquisition_order({"A": 30, "B": 10, "C": 20}, {"A": 100, "B": 100, "C": 100}) == [
        "A",
        "C",
        "B",
    ]


def test_equal_bids_less_money_left_first():
    # A: 100 - 20 = 80 left; B: 60 - 20 = 40 left -> B first
    assert g.acquisition_order({"A": 20, "B": 20}, {"A": 100, "B": 60}) == ["B", "A"]


def test_full_tie_needs_draws_and_says_who():
    bids, money = {"A": 20, "B": 20, "C": 5}, {"A": 100, "B": 100, "C": 100}
    assert g.tie_draws_needed(bids, money) == ["A", "B"]
    with pytest.raises(RuleError) as err:
        g.acquisition_order(bids, money)
    assert err.value.rule == "tie-draw"
    assert "A, B" in str(err.value)
    assert g.acquisition_order(bids, money, {"A": 3, "B": 8}) == ["B", "A", "C"]
    assert g.acquisition_order(bids, money, {"A": 9, "B": 8}) == ["A", "B", "C"]


def test_equal_draws_draw_again_and_the_first_draw_still_counts():
    bids = {"A": 10, "B": 10, "C": 10}
    money = {"A": 50, "B": 50, "C": 50}
    # A and B draw 5, C draws 3: C is last; A and B draw again
    assert g.tie_draws_needed(bids, money, {"A": 5, "B": 5, "C": 3}) == ["A", "B"]
    # second draws: A 7, B 2. C (3) stays last although 3 > 2: it lost the first draw
    order = g.acquisition_order(bids, money, {"A": [5, 7], "B": [5, 2], "C": 3})
    assert order == ["A", "B", "C"]
    reasons = g.order_reasons(bids, money, {"A": [5, 7], "B": [5, 2], "C": 3})
    assert [str(r) for r in reasons] == [
        "A before B: same bid and money left, higher drawn card (7 to 2, draw 2)",
        "B before C: same bid and money left, higher drawn card (5 to 3, draw 1)",
    ]


def test_order_reasons_in_words():
    bids, money = {"A": 30, "B": 20, "C": 20}, {"A": 100, "B": 100, "C": 50}
    # B and C both bid 20: C keeps 30, B keeps 80 -> C first
    assert [str(r) for r in g.order_reasons(bids, money)] == [
        "A before C: higher bid (30 to 20 pounds)",
        "C before B: same bid, less money left (30 to 80 pounds)",
    ]
    assert [str(r) for r in g.order_reasons(bids, money, ties_only=True)] == [
        "C before B: same bid, less money left (30 to 80 pounds)"
    ]


@pytest.mark.parametrize(
    "bids, money, draws",
    [
        ({"A": 50}, {"A": 40}, None),  # bid above money
        ({"A": -1}, {"A": 40}, None),
        ({"A": "5"}, {"A": 40}, None),
        ({"A": 5}, {"B": 40}, None),  # different players
        ({}, {}, None),
        ({"A": 5, "B": 5}, {"A": 40, "B": 40}, {"A": 0, "B": 3}),  # a card shows 1-10
        ({"A": 5, "B": 5}, {"A": 40, "B": 40}, {"A": 11, "B": 3}),
        ({"A": 5, "B": 5}, {"A": 40, "B": 40}, "A"),
    ],
)
def test_acquisition_order_refuses_nonsense(bids, money, draws):
    with pytest.raises(RuleError):
        g.acquisition_order(bids, money, draws)


players = st.lists(st.sampled_from("ABCD"), min_size=1, max_size=4, unique=True)


@st.composite
def bid_tables(draw):
    names = draw(players)
    money = {n: draw(st.integers(0, 150)) for n in names}
    bids = {n: draw(st.integers(0, money[n])) for n in names}
    draws = {n: draw(st.lists(st.integers(1, 10), min_size=1, max_size=3)) for n in names}
    return bids, money, draws


@settings(max_examples=200, deadline=None)
@given(bid_tables(), st.randoms(use_true_random=False))
def test_bid_order_properties(table, rnd):
    bids, money, draws = table
    if g.tie_draws_needed(bids, money, draws):
        with pytest.raises(RuleError):
            g.acquisition_order(bids, money, draws)
        return
    order = g.acquisition_order(bids, money, draws)
    assert sorted(order) == sorted(bids)  # a permutation of the players
    for a, b in zip(order, order[1:]):  # never a worse bid/money-left pair first
        assert (bids[a], -(money[a] - bids[a])) >= (bids[b], -(money[b] - bids[b]))
    # the order does not depend on the order the players are listed in
    keys = list(bids)
    rnd.shuffle(keys)
    shuffled = g.acquisition_order(
        {k: bids[k] for k in keys},
        {k: money[k] for k in keys},
        {k: draws[k] for k in reversed(keys)},
    )
    assert shuffled == order


# ---------------------------------------------------------------------------------------------
# the game: set-up and acquisition


@pytest.mark.parametrize("n", [2, 3, 4])
def test_new_game(n):
    s = g.new({}, n)
    assert s["money"] == [100] * n and s["bonus"] == [0] * n
    assert s["phase"] == "cards" and s["round"] == 1
    json.dumps(s)


@pytest.mark.parametrize("n", [1, 5, 0, "3", True, None])
def test_new_game_refuses_player_counts(n):
    with pytest.raises(RuleError) as err:
        g.new({}, n)
    assert err.value.rule in ("players", "action")


def test_cards_are_validated_and_counted():
    s = g.new({}, 2)
    refused(s, "card-values", "card", terrain="lake", marks=1, income=3)
    refused(s, "card-values", "card", terrain="river", marks=4, income=3)
    refused(s, "card-values", "card", terrain="river", marks=-1, income=3)
    refused(s, "card-values", "card", terrain="river", marks=1, income=0)
    refused(s, "card-values", "card", terrain="river", marks=1, income=11)
    refused(s, "card-values", "card", terrain="river", marks="1", income=3)
    s = act(s, "card", terrain="river", marks=0, income=10)
    refused(s, "bid-sealed", "bid", 0, amount=5)  # bids wait for all the cards
    s = act(s, "card", terrain="savanna", marks=3, income=1)
    assert s["phase"] == "bidding"
    refused(s, "acquisition-cards", "card", terrain="river", marks=1, income=3)


def test_bids_are_validated():
    s = enter_cards(g.new({}, 3), [("river", 1, 5), ("desert", 2, 3), ("village", 0, 7)])
    refused(s, "bid-range", "bid", 0, amount=101)
    refused(s, "bid-range", "bid", 0, amount=-1)
    refused(s, "bid-range", "bid", 0, amount="20")
    refused(s, "bid-range", "bid", 0, amount=2.5)
    refused(s, "bid-range", "bid", 0, amount=True)
    refused(s, "bid-range", "bid", 0)
    refused(s, "action", "bid", None, amount=5)
    refused(s, "action", "bid", 3, amount=5)
    s = act(s, "bid", 0, amount=100)  # all of it is allowed
    refused(s, "bid-once", "bid", 0, amount=10)
    s = act(s, "bid", 1, amount=0)  # a zero bid is allowed
    s = act(s, "bid", 2, amount=7)
    assert s["phase"] == "taking"
    refused(s, "bid-sealed", "bid", 0, amount=0)  # after the reveal


def test_a_bid_typed_in_an_earlier_round_is_refused():
    """A phone may show a bid form from an earlier phase: its round says so."""
    s = two_player_round_one()
    s = act(s, "turn_up", marks=3)
    s = act(s, "pass", 0)
    s = act(s, "turn_up", marks=0)
    s = act(s, "cross", 1)
    s = enter_cards(s, [("mountain", 0, 4), ("village", 3, 8)])
    assert s["round"] == 2 and s["phase"] == "bidding"
    err = refused(s, "bid-once", "bid", 0, amount=5, round=1)
    assert str(err) == (
        "This bid was typed in acquisition round 1; it is round 2 now. Look at "
        "the new cards and bid again."
    )
    s = act(s, "bid", 0, amount=5, round=2)
    assert s["bids"] == [5, None]
    s = act(s, "bid", 1, amount=5)  # without a round: no check
    assert s["phase"] == "taking"


def test_the_same_draw_sent_twice_does_not_count_as_the_next():
    s = enter_cards(g.new({}, 2), [("river", 1, 5), ("desert", 2, 3)])
    s = bid_all(s, [20, 20])
    s = act(s, "draw", 0, value=4, attempt=1)
    s = act(s, "draw", 1, value=4, attempt=1)  # equal: both draw again
    assert s["must_draw"] == [0, 1]
    err = refused(s, "tie-draw", "draw", 0, value=4, attempt=1)  # a double tap of draw 1
    assert str(err) == "You have already entered draw 1."
    refused(s, "tie-draw", "draw", 0, value=4, attempt=3)
    s = act(s, "draw", 0, value=9, attempt=2)
    s = act(s, "draw", 1, value=2)  # without an attempt: no check
    assert s["order"] == [0, 1] and s["reveal"]["draws"] == [[4, 9], [4, 2]]


def test_sealed_bids_are_invisible_until_all_are_in():
    s = enter_cards(g.new({}, 3), [("river", 1, 5), ("desert", 2, 3), ("village", 0, 7)])
    low = act(s, "bid", 1, amount=0)
    high = act(s, "bid", 1, amount=73)
    for seat in (0, 2, None):
        for reveal in (False, True):
            # everybody but the bidder sees exactly the same thing whatever the amount
            assert g.view(low, seat, reveal) == g.view(high, seat, reveal)
            v = g.view(high, seat, reveal)
            assert v["bidding"]["has_bid"] == [False, True, False]
            assert v["bidding"]["waiting_for"] == [0, 2]
            assert v["bidding"]["my_bid"] is None
            assert "73" not in json.dumps(v)
    assert g.view(high, 1)["bidding"]["my_bid"] == 73
    assert g.view(high, 1)["actions"] == []
    assert g.view(high, 0)["actions"] == ["bid"]
    # the history line does not give it away either
    lines = g.describe(s, {"type": "bid", "seat": 1, "amount": 73}, high)
    assert [str(x) for x in lines] == ["Player 2 has bid (sealed)."]
    # money only changes at the reveal
    assert high["money"] == [100, 100, 100]


def test_reveal_pays_orders_and_cannot_be_undone_by_a_seat():
    s = enter_cards(g.new({}, 3), [("river", 1, 5), ("desert", 2, 3), ("village", 0, 7)])
    a1 = {"type": "bid", "seat": 0, "host": False, "amount": 20}
    s1 = g.apply(s, a1)
    assert g.seat_may_undo(s, a1, s1)
    s2 = act(s1, "bid", 1, amount=35)
    a3 = {"type": "bid", "seat": 2, "host": False, "amount": 5}
    s3 = g.apply(s2, a3)
    assert not g.seat_may_undo(s2, a3, s3)  # the last bid revealed them all
    assert s3["money"] == [80, 65, 95]  # paid; the money left the game
    assert s3["order"] == [1, 0, 2]
    v = g.view(s3, None)
    assert v["reveal"]["bids"] == [20, 35, 5]
    assert v["reveal"]["tie_breaks"] == []
    lines = [str(x) for x in g.describe(s2, a3, s3)]
    assert "Player 2 bid 35 pounds and has 65 left." in lines
    assert "1. Player 2 chooses a card (bid 35 pounds)." in lines


def test_tie_draw_flow():
    s = enter_cards(g.new({}, 3), [("river", 1, 5), ("desert", 2, 3), ("village", 0, 7)])
    s = bid_all(s, [20, 20, 20])  # all equal, all with 80 left
    assert s["phase"] == "draw" and s["must_draw"] == [0, 1, 2]
    assert g.view(s, None)["must_draw"] == [0, 1, 2]
    assert g.view(s, 1)["actions"] == ["draw"]
    refused(s, "take-card", "take", 0, card=0)
    refused(s, "tie-draw", "draw", 0, value=0)
    refused(s, "tie-draw", "draw", 0, value=11)
    refused(s, "tie-draw", "draw", 0, value="7")
    s = act(s, "draw", 0, value=6)
    refused(s, "tie-draw", "draw", 0, value=6)  # drew already
    s = act(s, "draw", 1, value=6)
    before = s
    s = act(s, "draw", 2, value=2)
    # 0 and 1 tie again and draw again; 2 is already known to be last
    assert s["phase"] == "draw" and s["must_draw"] == [0, 1]
    lines = [str(x) for x in g.describe(before, {"type": "draw", "seat": 2, "value": 2}, s)]
    assert "Player 1 is still tied and must draw again." in lines
    refused(s, "tie-draw", "draw", 2, value=9)
    s = act(s, "draw", 1, value=3)
    s = act(s, "draw", 0, value=1)
    assert s["phase"] == "taking" and s["order"] == [1, 0, 2]
    breaks = [str(x) for x in g.view(s, None)["reveal"]["tie_breaks"]]
    assert breaks == [
        "Player 2 before Player 1: same bid and money left, higher drawn card (3 to 1, draw 2)",
        "Player 1 before Player 3: same bid and money left, higher drawn card (6 to 2, draw 1)",
    ]


def test_tie_broken_by_money_needs_no_draw():
    s = two_player_round_one()  # money now 70 / 90
    # P1 crosses savanna: see test_two_player_phase_cycle; here just check round 2 tie
    s = act(s, "turn_up", marks=3)
    s = act(s, "pass", 0)
    s = act(s, "turn_up", marks=0)
    s = act(s, "cross", 1)  # 3 + 2 = 5 symbols < 6: 1 bought (10), income 3 -> 83
    assert s["money"] == [70, 83] and s["phase"] == "cards"
    s = enter_cards(s, [("mountain", 0, 4), ("village", 3, 8)])
    s = bid_all(s, [10, 10])  # 60 left vs 73 left: P0 first, no draw
    assert s["phase"] == "taking" and s["order"] == [0, 1]
    assert [str(x) for x in g.view(s, 1)["reveal"]["tie_breaks"]] == [
        "Player 1 before Player 2: same bid, less money left (60 to 73 pounds)"
    ]


def test_taking_cards():
    s = enter_cards(g.new({}, 3), [("river", 1, 5), ("desert", 2, 3), ("village", 0, 7)])
    s = bid_all(s, [10, 30, 20])  # order 1, 2, 0
    refused(s, "take-card", "take", 0, card=0)  # not their turn
    refused(s, "take-card", "take", 1, card=3)
    refused(s, "take-card", "take", 1, card="0")
    refused(s, "take-card", "take", 1)
    assert g.view(s, 1)["actions"] == ["take"]
    s = act(s, "take", 1, card=1)
    refused(s, "take-card", "take", 2, card=1)  # already taken
    before = s
    s = act(s, "take", 2, card=2)
    # the last card goes to the last player by itself, and building starts with the top bidder
    assert s["rows"][0] == [{"terrain": "river", "marks": 1, "income": 5}]
    assert s["phase"] == "building" and s["active"] == 1 and s["lead"] == 1
    lines = [str(x) for x in g.describe(before, {"type": "take", "seat": 2, "card": 2}, s)]
    # (wording: "1 symbols" read wrong; the line now names its numbers like the card lines)
    assert lines == [
        "Player 1 takes the river (track symbols: 1, income: £5).",
        "Player 3 takes the village (track symbols: 0, income: £7).",
        "Building starts with Player 2, the highest bidder.",
    ]


# ---------------------------------------------------------------------------------------------
# building


def test_two_player_phase_cycle():
    s = two_player_round_one()
    assert s["money"] == [70, 90]
    assert s["rows"] == [
        [{"terrain": "river", "marks": 1, "income": 5}],
        [{"terrain": "savanna", "marks": 2, "income": 3}],
    ]
    assert s["phase"] == "building" and s["active"] == 0 and s["step"] == "turn_up"
    refused(s, "turn-up", "cross", 0)  # a card must be turned up first
    refused(s, "turn-up", "pass", 0)
    refused(s, "card-values", "turn_up", marks=4)
    s = act(s, "turn_up", marks=2)
    refused(s, "turn-up", "turn_up", marks=1)  # one card per turn
    refused(s, "turn", "cross", 1)  # not P1's turn
    # P0: river 10 needs; 2 turned + 1 own = 3 symbols; 7 bought = 70 pounds, all P0 has
    assert g.view(s, None)["seats"][0]["cheapest"]["pounds"] == 70
    s = act(s, "pass", 0)
    assert s["active"] == 1 and s["turned"] == [2]
    s = act(s, "turn_up", marks=3)
    # P1: savanna 6; 2 + 3 turned + 2 own = 7 symbols: free
    choices = g.view(s, 1)["my_choices"]
    assert [(c["bonus"], c["pounds"]) for c in choices] == [(0, 0)]
    assert g.view(s, 0)["my_choices"] is None
    before = s
    action = {"type": "cross", "seat": 1, "host": False}
    s = g.apply(s, action)
    assert s["money"] == [70, 93]  # income 3
    assert s["crossed"] == [0, 1]
    assert s["bonus"] == [1, 0]  # P0 faces a river when P1 crosses
    # P1's row is empty: the phase ends, the pile is gone, round 2 acquisition begins
    assert s["phase"] == "cards" and s["round"] == 2 and s["turned"] == []
    assert [str(x) for x in g.describe(before, action, s)] == [
        "Player 2 crosses the savanna (symbols: 6, bonus tracks: 0, bought tracks: 0 for £0) "
        "and earns £3.",
        "Player 1 faces a river and gains a bonus track.",
        "Player 2's row is empty: the building phase ends and acquisition round 2 begins.",
    ]
    assert g.seat_may_undo(before, action, s)
    # The crosser's panel moves on to round 2 at once: the new phase shows the crossing.
    shown = [str(line) for line in g.view(s, 1)["last_crossing"]]
    assert shown == [
        "Player 2 crosses the savanna (symbols: 6, bonus tracks: 0, bought tracks: 0 for £0) "
        "and earns £3.",
        "Player 2's row is empty: the building phase ends and acquisition round 2 begins.",
    ]
    assert g.view(s, None)["last_crossing"] == g.view(s, 0)["last_crossing"]  # public

    # round 2
    s = enter_cards(s, [("mountain", 0, 4), ("village", 3, 8)])
    assert len(g.view(s, 1)["last_crossing"]) == 2  # still there while bidding
    s = bid_all(s, [0, 0])  # equal bids: P0 has 70 left, P1 93 -> P0 first
    assert g.view(s, 1)["last_crossing"] == []  # bids revealed: the new phase has moved on
    s = act(s, "take", 0, card=1)  # village goes behind the river
    assert [c["terrain"] for c in s["rows"][0]] == ["river", "village"]
    assert [c["terrain"] for c in s["rows"][1]] == ["savanna", "mountain"]
    assert s["active"] == 0
    s = act(s, "turn_up", marks=1)
    # P0: river; 1 turned + 1 river + 3 village = 5 symbols, 1 bonus, 4 bought = 40 pounds
    assert g.view(s, 0)["seats"][0]["cheapest"] == {
        "terrain": "river",
        "needed": 10,
        "symbols": 5,
        "bonus": 1,
        "bought": 4,
        "pounds": 40,
    }
    s = act(s, "cross", 0)
    assert s["money"] == [70 - 40 + 5, 93] and s["bonus"] == [0, 0]
    # the crosser goes on with a fresh pile; P1 faces a mountain, no bonus
    assert s["phase"] == "building" and s["active"] == 0 and s["step"] == "turn_up"
    assert s["turned"] == []
    s = act(s, "turn_up", marks=0)
    # village 7: 3 symbols, 4 bought = 40 > 35 pounds
    err = refused(s, "cross-money", "cross", 0)
    assert "Pass" in str(err)
    assert g.view(s, 0)["actions"] == ["pass"]
    s = act(s, "pass", 0)
    s = act(s, "turn_up", marks=2)
    # P1: mountain 9; 0 + 2 symbols (the pile 0 + 2), 7 bought = 70 <= 93
    assert g.view(s, 1)["seats"][1]["marks"] == 2
    s = act(s, "cross", 1)
    assert s["money"] == [35, 93 - 70 + 4]
    assert s["phase"] == "cards" and s["round"] == 3  # P1's row is empty again
    assert str(g.view(s, 0)["last_crossing"][0]) == (
        "Player 2 crosses the mountain (symbols: 2, bonus tracks: 0, bought tracks: 7 for £70) "
        "and earns £4."
    )


def test_choosing_money_over_bonus_tracks():
    s = two_player_round_one()
    s["bonus"] = [3, 0]
    s = act(s, "turn_up", marks=3)
    # river: 3 + 1 = 4 symbols, 6 missing
    refused(s, "cross-bonus", "cross", 0, bonus=4)  # holds 3
    refused(s, "cross-bonus", "cross", 0, bonus=-1)
    refused(s, "cross-bonus", "cross", 0, bonus="2")
    s["money"][0] = 55
    err = refused(s, "cross-money", "cross", 0, bonus=0)  # 6 bought = 60 pounds > 55
    assert "cheapest way costs £30" in str(err)  # 3 bonus + 3 bought
    s["money"][0] = 70
    s2 = act(s, "cross", 0, bonus=1)  # 1 bonus + 5 bought = 50 pounds
    assert s2["money"][0] == 70 - 50 + 5 and s2["bonus"][0] == 2
    s3 = act(s, "cross", 0)  # default: the cheapest, 3 bonus + 3 bought
    assert s3["money"][0] == 70 - 30 + 5 and s3["bonus"][0] == 0


def test_no_overspending_bonus_tracks():
    s = two_player_round_one()
    s = act(s, "turn_up", marks=0)
    s = act(s, "pass", 0)
    s = act(s, "turn_up", marks=3)
    s["bonus"][1] = 2
    # savanna: 3 + 2 = 5 symbols, 1 missing; spending 2 bonus tracks would waste one
    refused(s, "cross-bonus", "cross", 1, bonus=2)
    s = act(s, "cross", 1, bonus=1)
    assert s["bonus"][1] == 1 and s["money"][1] == 93


def test_the_crossed_cards_income_cannot_pay_for_its_own_tracks():
    """Rule text: you lay the track, THEN you receive the crossed card's income. So the money
    for bought tracks must be in hand before the income arrives (our reading, on the rules page).
    P1's savanna needs 6: 2 on the card + 3 turned up = 5 symbols, 1 track missing = 10 pounds.
    With 7 pounds P1 cannot cross, although 7 + 3 income would be 10."""
    s = two_player_round_one()
    s = act(s, "turn_up", marks=0)
    s = act(s, "pass", 0)
    s = act(s, "turn_up", marks=3)
    s["money"][1] = 7
    refused(s, "cross-money", "cross", 1)
    assert g.view(s, 1)["actions"] == ["pass"]
    s["money"][1] = 10
    s = act(s, "cross", 1)
    assert s["money"][1] == 10 - 10 + 3
    assert "income-after-paying" in g.CLARIFICATIONS


def river_standoff():
    """Two players both facing a river, P0 to move with the card turned up."""
    s = two_player_round_one()
    s["rows"][1] = [
        {"terrain": "river", "marks": 0, "income": 2},
        {"terrain": "desert", "marks": 0, "income": 2},
    ]
    s["money"] = [0, 0]
    return s


def test_nobody_can_afford_so_the_pile_grows():
    s = river_standoff()
    # each turn adds one card; with no money and no bonus they must pass until 10 symbols
    for marks in (2, 3, 1):
        s = act(s, "turn_up", marks=marks)
        seat = s["active"]
        refused(s, "cross-money", "cross", seat)
        s = act(s, "pass", seat)
    assert s["turned"] == [2, 3, 1]
    s = act(s, "turn_up", marks=3)  # 9 in the pile
    assert s["active"] == 1
    refused(s, "cross-money", "cross", 1)  # P1: 9 + 0 on its own river = 9 < 10
    s = act(s, "pass", 1)
    s = act(s, "turn_up", marks=0)
    assert g.crossing_cost("river", g.marks_for(s, 0), 0, 0) == 0  # 9 + 1 own = 10
    s = act(s, "cross", 0)
    assert s["money"][0] == 5 and s["bonus"][1] == 1


def test_river_bonus_is_capped_at_five():
    s = river_standoff()
    s["bonus"] = [0, 5]
    s["money"][0] = 100
    s = act(s, "turn_up", marks=0)
    before = s
    action = {"type": "cross", "seat": 0, "host": False}
    s = g.apply(s, action)
    assert s["bonus"] == [0, 5]
    assert "Player 2 faces a river but already holds 5 bonus tracks." in [
        str(x) for x in g.describe(before, action, s)
    ]


def test_the_crosser_gets_no_river_bonus():
    s = river_standoff()
    s["money"][0] = 100
    s["rows"][0].append({"terrain": "river", "marks": 0, "income": 1})
    s = act(s, "turn_up", marks=0)
    s = act(s, "cross", 0)  # now faces another river itself
    assert s["bonus"] == [0, 1]


def winning_position():
    """P0 has crossed 7 terrains and faces a savanna; P1 has crossed 6."""
    s = two_player_round_one()
    s["rows"][0] = [{"terrain": "desert", "marks": 1, "income": 2}] * 7 + [
        {"terrain": "savanna", "marks": 3, "income": 4},
        {"terrain": "river", "marks": 0, "income": 1},
    ]
    s["crossed"] = [7, 6]
    s["rows"][1] = [{"terrain": "village", "marks": 0, "income": 2}] * 7
    return s


def test_eighth_crossing_wins_at_once():
    s = winning_position()
    s = act(s, "turn_up", marks=3)
    s = act(s, "cross", 0)
    assert s["phase"] == "over" and s["winner"] == 0
    r = g.result(s)
    assert r["winner"] == 0 and r["tie_break"] is None
    assert str(r["how"]) == (
        "Player 1 crossed their 8th terrain, a savanna, in acquisition round 1 and wins at once."
    )
    assert r["players"][0]["crossed"] == ["desert"] * 7 + ["savanna"]
    assert r["players"][0]["crossed_count"] == 8
    assert r["players"][0]["money"] == 74 and r["players"][1]["money"] == 90
    assert r["players"][1]["crossed"] == ["village"] * 6
    assert r["players"][1]["uncrossed"] == ["village"]
    json.dumps(r)
    err = refused(s, "game-over", "turn_up", marks=1)
    assert str(err) == "The game is over: Player 1 has crossed 8 terrains."
    refused(s, "game-over", "bid", 0, amount=1)
    assert g.view(s, None)["winner"] == 0


def test_result_is_none_while_playing():
    assert g.result(g.new({}, 2)) is None
    assert g.result(two_player_round_one()) is None


# ---------------------------------------------------------------------------------------------
# robustness


@pytest.mark.parametrize(
    "action",
    [
        None,
        [],
        "bid",
        {},
        {"type": "nonsense"},
        {"type": 3},
        {"type": "bid", "seat": "0", "amount": 3},
        {"type": "card", "terrain": ["river"]},
        {"type": "take", "seat": 0, "card": None},
        {"type": "cross", "seat": 0, "bonus": 1.0},
    ],
)
def test_malformed_actions_are_rule_errors(action):
    for s in (g.new({}, 2), two_player_round_one()):
        before = copy.deepcopy(s)
        with pytest.raises(RuleError):
            g.apply(s, action)
        assert s == before


@pytest.mark.parametrize(
    "action, message",
    [
        (None, "This game has no entry called None."),
        ([], "This game has no entry called None."),
        ({}, "This game has no entry called None."),
        ({"type": "nonsense"}, "This game has no entry called nonsense."),
        ({"type": 3}, "This game has no entry called 3."),
        ({"type": "pass", "seat": 0, "host": "yes"}, "The host flag must be true or false."),
    ],
)
def test_unknown_actions_are_refused_by_the_shared_dispatcher(action, message):
    err = refused_action(two_player_round_one(), action)
    assert (err.rule, str(err)) == ("action", message)


def test_messages_are_msgs_with_msgids():
    s = two_player_round_one()
    s2 = act(s, "turn_up", marks=1)
    for line in g.describe(s, {"type": "turn_up", "seat": None, "marks": 1}, s2):
        assert isinstance(line, Msg) and "%(" in line.msgid
        Msg.from_json(json.loads(json.dumps(line.to_json())))


def test_view_tells_who_and_what_is_awaited():
    s = g.new({}, 3)
    v = g.view(s, None)
    assert v["actions"] == ["card"] and v["cards_to_enter"] == 3 and v["table_entry"] == "card"
    s = two_player_round_one()
    v = g.view(s, None)
    assert v["waiting_for"] == [0] and v["table_entry"] == "turn_up"
    assert v["building"] == {
        "lead": 0,
        "active": 0,
        "step": "turn_up",
        "turned": [],
        "turned_marks": 0,
    }
    s = act(s, "turn_up", marks=2)
    assert g.view(s, 0)["actions"] == ["cross", "pass"]  # 70 pounds reach the 70 needed
    assert g.view(s, 1)["actions"] == []
    me = g.view(s, 0)["seats"][0]
    assert me["row"] == [{"terrain": "river", "marks": 1, "income": 5, "needed": 10}]
    assert me["to_win"] == 8 and me["marks"] == 3

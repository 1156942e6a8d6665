"""Serengeti / Don properties: payout and scoring arithmetic, and random complete games driven
through apply() with every invariant checked after every step (chips conserved, deck valid,
input never changed, chips private, JSON-able state, RuleError as the only refusal)."""

import json
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.base import Msg, RuleError, copy_state
from companion.games.serengeti import rules as g
from companion.games.serengeti.random_play import (
    auction_action,
    discard,
    junk_action,
    next_action,
    random_deck,
    sale_offer,
)
from tests.helpers import examples

FAST = settings(max_examples=200, deadline=None)
# Whole random games: a few in `make test`, 15 in `make test-deep` (tests/helpers.examples).
GAMES = settings(
    max_examples=examples(3, 15), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)

digits_st = st.lists(st.integers(0, 9), max_size=8)
holdings_st = st.lists(digits_st, min_size=3, max_size=5)


# ---------------------------------------------------------------- payout


@FAST
@given(
    bid=st.integers(1, 200),
    hands=holdings_st,
    winner_index=st.integers(0, 4),
    variant=st.sampled_from(g.VARIANTS),
    pot=st.integers(0, 9),
)
def test_payout_conserves_and_never_pays_the_winner(bid, hands, winner_index, variant, pot):
    pot = pot if variant == "don" else 0
    holdings = {f"P{i}": d for i, d in enumerate(hands)}
    winner = f"P{winner_index % len(hands)}"
    pay = g.payout(bid, winner, holdings, variant=variant, pot=pot)
    others = [p for p in holdings if p != winner]
    matches = {p: holdings[p].count(bid % 10) for p in others if bid % 10 in holdings[p]}
    assert sum(pay.shares.values()) + pay.remainder == bid + pot
    assert winner not in pay.shares
    assert all(amount > 0 for amount in pay.shares.values())
    assert pay.remainder >= 0
    if len(matches) == 1 and variant == "abacus":
        # one other player owns matching cards: they take the whole bid, however many they own
        assert pay.shares == {next(iter(matches)): bid} and pay.remainder == 0
    elif matches and variant == "abacus":
        # two or more holders: every matching card earns the same; the rest is less than a card
        cards = sum(matches.values())
        assert set(pay.shares) <= set(matches)
        for p, amount in pay.shares.items():
            assert amount == matches[p] * (bid // cards)
        assert pay.remainder < cards
    elif matches:
        most = max(matches.values())
        leaders = {p for p, count in matches.items() if count == most}
        assert set(pay.shares) <= leaders and len(set(pay.shares.values())) <= 1
        assert pay.remainder < len(leaders)
    else:
        assert set(pay.shares) <= set(others) and len(set(pay.shares.values())) <= 1
        assert pay.remainder < len(others)


@FAST
@given(
    bid=st.integers(1, 99),
    hands=holdings_st,
    variant=st.sampled_from(g.VARIANTS),
    seed=st.integers(0, 2**16),
)
def test_payout_ignores_order(bid, hands, variant, seed):
    rnd = random.Random(seed)
    holdings = {f"P{i}": d for i, d in enumerate(hands)}
    shuffled = list(holdings.items())
    rnd.shuffle(shuffled)
    shuffled = {p: rnd.sample(d, len(d)) for p, d in shuffled}
    a = g.payout(bid, "P0", holdings, variant=variant)
    b = g.payout(bid, "P0", shuffled, variant=variant)
    assert a.shares == b.shares and a.remainder == b.remainder


@FAST
@given(bid=st.integers(1, 89), hands=holdings_st)
def test_only_the_last_digit_picks_the_receivers(bid, hands):
    holdings = {f"P{i}": d for i, d in enumerate(hands)}
    a = g.payout(bid, "P0", holdings)
    b = g.payout(bid + 10, "P0", holdings)
    assert a.method == b.method and a.matches == b.matches
    # more chips never means less for anybody
    assert all(b.shares.get(p, 0) >= amount for p, amount in a.shares.items())


# ---------------------------------------------------------------- bids


@FAST
@given(bid=st.integers(-5, 150), own=digits_st, high=st.none() | st.integers(0, 120))
def test_bid_error_is_exactly_the_three_rules(bid, own, high):
    legal = bid >= 1 and (high is None or bid > high) and bid % 10 not in own
    assert (g.bid_error(bid, own, high) is None) == legal
    assert (g.bid_rule(bid, own, high) is None) == legal


@FAST
@given(own=digits_st, high=st.none() | st.integers(0, 120))
def test_bid_hint_lists_the_smallest_legal_bids(own, high):
    hint = g.bid_hint(own, high, 6)
    floor = (high or 0) + 1
    expected = [b for b in range(floor, floor + 70) if g.bid_error(b, own, high) is None][:6]
    assert hint["legal_bids"] == expected
    assert hint["min_bid"] == (expected[0] if expected else None)


# ---------------------------------------------------------------- scoring

tribe_lists = st.lists(st.sampled_from(list(g.TRIBES)), max_size=12).filter(
    lambda ts: max(Counter(ts).values(), default=0) <= 5
)


@FAST
@given(
    collections=st.lists(tribe_lists, min_size=3, max_size=5),
    data=st.data(),
    variant=st.sampled_from(g.VARIANTS),
)
def test_score_order_independent_and_bounded(collections, data, variant):
    players = [f"P{i}" for i in range(len(collections))]
    chips = {p: data.draw(st.integers(0, 30)) for p in players}
    coll = dict(zip(players, collections))
    scores = g.score(coll, chips, variant=variant)
    reversed_coll = {p: list(reversed(coll[p])) for p in reversed(players)}
    assert g.score(reversed_coll, chips, variant=variant) == scores
    most = max(chips.values())
    for p in players:
        card_points = sum(n * (n + 1) // 2 for n in Counter(coll[p]).values())
        bonus = g.CHIP_BONUS[variant] if chips[p] == most and most > 0 else 0
        assert scores[p] == card_points + bonus
        assert 0 <= scores[p] <= 90 + g.CHIP_BONUS[variant]


# ---------------------------------------------------------------- random complete games


def check_invariants(state, total, drawn):
    assert g.total_chips(state) == total
    assert all(c >= 0 for c in state["chips"])
    assert (state["bank"] or 0) >= 0 and (state["pot"] or 0) >= 0
    every = [c for cards in state["cards"] for c in cards] + state["out"] + state["lot"]
    assert len(every) == drawn
    assert len({(c["tribe"], c["digit"]) for c in every}) == len(every)
    assert max(Counter(c["tribe"] for c in every).values(), default=0) <= 5
    assert max(Counter(c["digit"] for c in every).values(), default=0) <= 3
    assert 1 <= state["round"] <= 15
    assert json.loads(json.dumps(state)) == state
    if state["phase"] == "auction":
        auction = state["auction"]
        assert auction["turn"] not in auction["passed"] + auction["excluded"]
        assert auction["turn"] != auction["seller"]
        assert len(state["lot"]) == g.lot_size(state["round"]) or auction["kind"] == "sale"
    # chips are private: count every "chips" key anywhere in each view (a JSON text search is
    # as thorough as walking the dicts, and fast)
    over = state["phase"] == "over"
    for seat in range(state["players"]):
        phone = g.view(state, seat)
        assert json.dumps(phone).count('"chips":') == 1 + (state["players"] if over else 0)
        assert phone["me"]["chips"] == state["chips"][seat]
    assert json.dumps(g.view(state, None)).count('"chips":') == (state["players"] if over else 0)
    assert json.dumps(g.view(state, None, reveal=True)).count('"chips":') == state["players"]


def expected_result(state):
    """Scores and ranking worked out here, independently of the module."""
    bonus = 3 if state["variant"] == "abacus" else 2
    chips = state["chips"]
    most = max(chips)
    totals = []
    for seat, cards in enumerate(state["cards"]):
        points = sum(n * (n + 1) // 2 for n in Counter(c["tribe"] for c in cards).values())
        totals.append(points + (bonus if chips[seat] == most and most > 0 else 0))
    if state["variant"] == "abacus":
        keys = [(totals[s], len(state["cards"][s]), chips[s]) for s in range(len(chips))]
    else:
        keys = [(totals[s], sum(c["digit"] for c in state["cards"][s])) for s in range(len(chips))]
    ranking = sorted(range(len(chips)), key=lambda s: keys[s], reverse=True)
    return totals, ranking


def attempt(state, action, total, drawn, seen):
    """Apply an action that may be refused: a RuleError leaves the state alone; anything else
    raised is a bug. Returns (new state or None, the RuleError or None)."""
    before = copy_state(state)
    try:
        after = g.apply(state, action)
    except RuleError as err:
        assert state == before
        assert err.rule in g.RULES, err.rule
        return None, err
    assert state == before
    lines = g.describe(before, action, after)
    assert lines and all(isinstance(line, Msg) for line in lines)
    assert isinstance(g.seat_may_undo(before, action, after), bool)
    check_invariants(after, total, drawn)
    seen.update(e["e"] for e in after["events"])
    return after, None


def play_random_game(seed, variant, players):
    rnd = random.Random(seed)
    state = g.new(
        {"variant": variant, "start": rnd.randrange(players), "penalty": rnd.random() < 0.8},
        players,
    )
    total = g.total_chips(state)
    assert total == (65 if variant == "abacus" else 12 * players)
    deck = random_deck(rnd)
    drawn = 0
    seen_events = Counter()
    for _ in range(3000):
        if state["phase"] == "over":
            break
        if rnd.random() < 0.05:  # junk from a careless phone: refused, or legal and taken
            action = junk_action(rnd, players)
            if not (state["phase"] == "reveal" and action["type"] == "card"):
                new_state, _err = attempt(state, action, total, drawn, seen_events)
                state = new_state or state
                continue
        phase = state["phase"]
        if phase == "reveal":
            action = sale_offer(state, rnd)
            if action is None:
                action = {"type": "card", "seat": None, **deck[drawn]}
                drawn += 1
        elif phase == "discard":
            action = discard(state, rnd)
        else:
            action, fined = auction_move(state, rnd, total, drawn, seen_events)
            if action is None:
                state = fined
                continue
        new_state, err = attempt(state, action, total, drawn, seen_events)
        assert err is None, (action, err)
        state = new_state
    assert state["phase"] == "over", "the game must end after 15 rounds"
    assert drawn == 30 and len(state["out"]) + sum(map(len, state["cards"])) == 30
    res = g.result(state)
    totals, ranking = expected_result(state)
    assert {row["player"]: row["total"] for row in res["players"]} == dict(enumerate(totals))
    keys = {row["player"]: row for row in res["players"]}
    assert [totals[s] for s in res["ranking"]] == [totals[s] for s in ranking]
    assert res["winners"] == [s for s in res["ranking"] if keys[s]["rank"] == 1]
    assert res["tie_break"] in ("points", "cards", "chips", "digit_sum", "shared")
    return seen_events


def auction_move(state, rnd, total, drawn, seen):
    """The player on turn bids or passes: (action, None). Or they blunder into an illegal bid,
    which is refused and maybe fined (and the fine maybe waived): (None, the state after that)."""
    action, legal = auction_action(state, rnd)
    if legal:
        return action, None
    seat, bid = action["seat"], action["amount"]
    new_state, err = attempt(state, action, total, drawn, seen)
    assert new_state is None and err is not None
    if g.penalty_applies(state, err.rule):
        fined, err = attempt(
            state, {"type": "penalty", "seat": seat, "bid": bid}, total, drawn, seen
        )
        assert err is None
        if rnd.random() < 0.3:
            waived, err = attempt(
                fined, {"type": "waive", "seat": seat, "host": True}, total, drawn, seen
            )
            fined = waived or fined
        return None, fined
    return None, state


@GAMES
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(3, 5))
def test_random_abacus_games(seed, players):
    play_random_game(seed, "abacus", players)


@GAMES
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(3, 5))
def test_random_don_games(seed, players):
    play_random_game(seed, "don", players)


@GAMES
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.integers(3, 5),
    variant=st.sampled_from(g.VARIANTS),
)
def test_games_of_the_contract_generator_keep_every_invariant(seed, players, variant):
    """legal.next_action (the contract test's generator) deals a deck that can exist, reaches the
    end, and every state on the way keeps the invariants."""
    rnd = random.Random(seed)
    state = g.new({"variant": variant}, players)
    total, drawn, seen, refused = g.total_chips(state), 0, Counter(), 0
    for _ in range(3000):
        if state["phase"] == "over":
            break
        action = next_action(state, rnd)
        dealt = drawn + (action.get("type") == "card")
        new_state, err = attempt(state, action, total, dealt, seen)
        if err is None:
            state, drawn = new_state, dealt
        else:
            refused += 1
    assert state["phase"] == "over" and drawn == 30
    assert next_action(state, rnd) is None
    assert refused < 200


@pytest.mark.deep  # 16 whole games: `make test-deep`
def test_random_games_reach_every_situation():
    """The random walk really exercises the rare paths (so the properties above mean something)."""
    seen = Counter()
    for seed in range(8):
        seen += play_random_game(seed, "abacus", 3 + seed % 3)
        seen += play_random_game(seed, "don", 3 + seed % 3)
    for event in (
        "payout",
        "free",
        "cannot_pay",
        "discard",
        "penalty",
        "waive",
        "offer",
        "sold",
        "kept",
        "over",
    ):
        assert seen[event] > 0, event

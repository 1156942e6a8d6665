"""From Cape to Cairo: random legal games driven through apply(), checking invariants each step."""

from __future__ import annotations

import copy
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.base import Msg, RuleError
from companion.games.cape_to_cairo import rules as g
from companion.games.cape_to_cairo.random_play import legal_action, nonsense_action
from tests.helpers import examples


class Ledger:
    """The test's own book-keeping of money, kept from the actions it chose."""

    def __init__(self, n):
        self.paid_bids = 0
        self.paid_tracks = 0
        self.income = 0
        self.n = n

    def expected_total(self):
        return 100 * self.n - self.paid_bids - self.paid_tracks + self.income


def check_invariants(s, ledger):
    n = s["players"]
    assert json.loads(json.dumps(s)) == s  # plain JSON data
    assert all(m >= 0 for m in s["money"])  # money never negative
    assert all(0 <= b <= g.BONUS_MAX for b in s["bonus"])  # bonus tracks never above 5
    assert sum(s["money"]) == ledger.expected_total()  # spent money left the game, income came in
    for seat in range(n):
        assert 0 <= s["crossed"][seat] <= len(s["rows"][seat])
        assert s["crossed"][seat] <= g.TERRAINS_TO_WIN
    if s["order"] is not None:
        assert sorted(s["order"]) == list(range(n))  # the bid order is a permutation
    if s["phase"] == "building":
        assert all(g.next_terrain(s, seat) is not None for seat in range(n))
        assert s["step"] in ("turn_up", "decide")
        assert len(s["turned"]) >= (s["step"] == "decide")
    if s["phase"] == "over":
        assert s["crossed"][s["winner"]] == 8
        assert sum(c == 8 for c in s["crossed"]) == 1
    else:
        assert s["winner"] is None


def check_sealed(s, rnd):
    """While bidding, nobody sees another seat's bid: changing it changes nobody else's view."""
    if s["phase"] != "bidding":
        return
    bidders = [seat for seat, b in enumerate(s["bids"]) if b is not None]
    if not bidders:
        return
    other = copy.deepcopy(s)
    for seat in bidders:
        other["bids"][seat] = rnd.randint(0, other["money"][seat])
    changed = [seat for seat in bidders if other["bids"][seat] != s["bids"][seat]]
    for viewer in [None, *range(s["players"])]:
        if viewer in changed:
            continue
        for reveal in (False, True):
            assert g.view(s, viewer, reveal) == g.view(other, viewer, reveal)


def probe_nonsense(s, rnd):
    """A random, mostly illegal action: only RuleError, and the state stays as it was."""
    before = copy.deepcopy(s)
    action = nonsense_action(rnd)
    try:
        after = g.apply(s, action)
    except RuleError:
        after = None
    assert s == before
    if after is not None:
        json.dumps(after)
        assert all(m >= 0 for m in after["money"])
        assert all(0 <= b <= g.BONUS_MAX for b in after["bonus"])


def book(s, action, after, ledger):
    """Update the test's ledger from what it chose and its own arithmetic."""
    if action["type"] == "bid" and after["phase"] != "bidding":
        ledger.paid_bids += sum(after["reveal"]["bids"])
    if action["type"] == "cross":
        seat = action["seat"]
        card = s["rows"][seat][s["crossed"][seat]]
        marks = sum(s["turned"]) + sum(c["marks"] for c in s["rows"][seat][s["crossed"][seat] :])
        bought = max(0, g.TRACKS_NEEDED[card["terrain"]] - marks - action["bonus"])
        ledger.paid_tracks += 10 * bought
        ledger.income += card["income"]
        assert after["bonus"][seat] == s["bonus"][seat] - action["bonus"]
        assert after["turned"] == []
        # river bonus: exactly the other players facing a river gain one, up to 5
        if after["phase"] != "over":
            for other in range(s["players"]):
                if other == seat:
                    continue
                faces_river = g.next_terrain(after, other) == "river"
                gain = 1 if faces_river and s["bonus"][other] < 5 else 0
                assert after["bonus"][other] == s["bonus"][other] + gain
            # the phase ends exactly when the crosser's row is empty
            assert (after["phase"] == "cards") == (g.next_terrain(after, seat) is None)
            if after["phase"] == "building":
                assert after["active"] == seat and after["step"] == "turn_up"
    if action["type"] == "pass":
        assert after["active"] == (action["seat"] + 1) % s["players"]
        assert after["turned"] == s["turned"]  # the pile keeps growing
    if action["type"] == "turn_up":
        assert after["turned"] == s["turned"] + [action["marks"]]


def play(seed, n):
    rnd = random.Random(seed)
    s = g.new({}, n)
    ledger = Ledger(n)
    rounds_seen = set()
    stats = {"draw_phases": 0, "bonus_gained": 0, "phase_ends": 0, "passes": 0}
    for _ in range(6000):
        check_invariants(s, ledger)
        check_sealed(s, rnd)
        if s["phase"] == "over":
            break
        if rnd.random() < 0.1:
            probe_nonsense(s, rnd)
        action = legal_action(s, rnd)
        before = copy.deepcopy(s)
        after = g.apply(s, action)
        assert s == before  # apply never changes its input
        book(s, action, after, ledger)
        lines = g.describe(s, action, after)
        assert all(isinstance(line, Msg) for line in lines)
        revealed = s["phase"] == "bidding" and after["phase"] != "bidding"
        assert g.seat_may_undo(s, action, after) == (not revealed)
        rounds_seen.add(after["round"])
        stats["draw_phases"] += after["phase"] == "draw" and s["phase"] != "draw"
        stats["bonus_gained"] += sum(max(0, a - b) for a, b in zip(after["bonus"], s["bonus"]))
        stats["phase_ends"] += s["phase"] == "building" and after["phase"] == "cards"
        stats["passes"] += action["type"] == "pass"
        s = after
    assert s["phase"] == "over", "the game did not end"
    r = g.result(s)
    json.dumps(r)
    assert r["players"][r["winner"]]["crossed_count"] == 8
    assert [p["money"] for p in r["players"]] == s["money"]
    return s, rounds_seen, stats


@settings(max_examples=examples(5, 40), deadline=None)  # whole games: 40 in `make test-deep`
@given(st.integers(0, 2**32 - 1), st.integers(2, 4))
def test_random_games_keep_the_invariants(seed, n):
    s, rounds, _ = play(seed, n)
    assert len(rounds) >= 8  # one card a player per acquisition phase: at least 8 phases


@pytest.mark.deep  # 12 whole games: `make test-deep`
def test_the_driver_reaches_the_rarer_corners():
    """Ties broken by draws, river bonuses, passes and phase ends really happen in the driven
    games, so the invariants above are checked there too."""
    total = {"draw_phases": 0, "bonus_gained": 0, "phase_ends": 0, "passes": 0}
    for seed in range(12):
        _, _, stats = play(seed, 2 + seed % 3)
        for key in total:
            total[key] += stats[key]
    assert all(v > 0 for v in total.values()), total

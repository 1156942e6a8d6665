"""Africana scoring rules: artifact sets, the final score, the ranking and the set-up facts."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.africana import rules as af
from companion.games.base import RuleError
from tests.africana.helpers import brute_force, printed_value, sheet

KINDS = "ABCDE"


def all_holdings():
    """Every holding of 0-4 copies of each of 5 kinds: 5**5 = 3125 of them."""
    for counts in itertools.product(range(5), repeat=5):
        yield tuple(kind for kind, n in zip(KINDS, counts) for _ in range(n))


def test_set_bonus_matches_brute_force_for_every_holding():
    holdings = list(all_holdings())
    assert len(holdings) == 3125
    mismatches = [
        (cards, af.artifact_bonus(list(cards)), brute_force(cards))
        for cards in holdings
        if af.artifact_bonus(list(cards)) != brute_force(cards)
    ]
    assert mismatches == []


def test_grouping_returned_is_valid_and_adds_up_for_every_holding():
    for cards in all_holdings():
        bonus, groups = af.best_artifact_sets(list(cards))
        assert bonus == af.artifact_bonus(list(cards))
        # every group is a real set, the values add up, and no card is used twice
        assert sum(printed_value(tuple(g)) for g in groups) == bonus
        used = [kind for group in groups for kind in group]
        for kind in KINDS:
            assert used.count(kind) <= cards.count(kind)


def test_brute_force_itself_on_hand_cases():
    # guard the oracle: a wrong brute force would make the exhaustive test meaningless
    assert brute_force(()) == 0
    assert brute_force(("A",)) == 0
    assert brute_force(("A", "A")) == 6
    assert brute_force(("A", "B")) == 2
    assert brute_force(("A", "B", "C")) == 2
    assert brute_force(("A", "A", "A")) == 12
    assert brute_force(("A", "B", "C", "D")) == 10


@pytest.mark.parametrize(
    "cards, bonus",
    [
        ("", 0),
        ("A", 0),
        ("AB", 2),  # 2 different
        ("AA", 6),  # 2 identical
        ("AAA", 12),  # 3 identical
        ("AAAA", 12),  # two pairs 6 + 6 = 12 = triple 12 (+1 left over)
        ("ABC", 2),  # 3 different is no set: one pair of different, 1 left
        ("ABCD", 10),  # 4 different
        ("ABCDE", 10),  # 4 different + 1 left (two different pairs only 4)
        ("AAABCD", 16),  # greedy triple 12 + BC 2 = 14; best AA 6 + ABCD 10 = 16
        ("AABB", 12),  # 6 + 6 beats AB AB (4)
        ("AABBCCDD", 24),  # 6*4 = 24 beats ABCD+ABCD = 20
        ("AAABBBCCCDDD", 48),  # 4 triples 48 beats 3 * ABCD (30) + ...
        ("AAAABBBBCCCCDDDDEEEE", 70),  # 5 triples 60 + ABCDE four different 10, 1 left
    ],
)
def test_set_bonus_hand_cases(cards, bonus):
    assert af.artifact_bonus(list(cards)) == bonus


def test_greedy_example_from_the_issue_returns_the_better_grouping():
    bonus, groups = af.best_artifact_sets(["vase", "vase", "vase", "mask", "idol", "scroll"])
    assert bonus == 16
    assert sorted(map(sorted, groups)) == [["idol", "mask", "scroll", "vase"], ["vase", "vase"]]


holding = st.lists(st.sampled_from(KINDS), max_size=20).filter(
    lambda cards: all(cards.count(k) <= 4 for k in KINDS)
)


@settings(max_examples=200)
@given(holding, st.randoms(use_true_random=False))
def test_input_order_never_matters(cards, rnd):
    shuffled = list(cards)
    rnd.shuffle(shuffled)
    assert af.best_artifact_sets(shuffled) == af.best_artifact_sets(cards)


@settings(max_examples=200)
@given(holding, st.sampled_from(KINDS))
def test_adding_a_card_never_lowers_the_bonus(cards, extra):
    if cards.count(extra) < 4:
        assert af.artifact_bonus(cards + [extra]) >= af.artifact_bonus(cards)


def test_adding_a_card_never_lowers_the_bonus_exhaustively():
    for cards in all_holdings():
        for extra in KINDS:
            if cards.count(extra) < 4:
                assert af.artifact_bonus(list(cards) + [extra]) >= af.artifact_bonus(list(cards))


def test_kind_labels_are_arbitrary_strings():
    assert af.artifact_bonus(["Mask", "Mask", "Idol"]) == 6
    assert af.artifact_bonus(("x", "y")) == 2


@pytest.mark.parametrize(
    "cards, fragment",
    [
        (["A"] * 5, "only 4 artifact cards of each kind"),
        (list("ABCDEF"), "only 5 artifact kinds"),
        (["A"] * 4 + ["B"] * 4 + ["C"] * 4 + ["D"] * 4 + ["E"] * 4 + ["A"], "only 20"),
        (["A", ""], "needs its kind"),
        (["A", 3], "needs its kind"),
        ("AB", "must be a list"),
    ],
)
def test_impossible_holdings_are_refused(cards, fragment):
    with pytest.raises(RuleError) as err:
        af.artifact_bonus(cards)
    assert fragment in str(err.value)
    assert err.value.rule in af.RULES


# ---------------------------------------------------------------------------------------------
# The final score
# ---------------------------------------------------------------------------------------------


def test_final_score_hand_computed_full_sheet():
    score = af.final_score(
        sheet(
            expedition_points=[3, 5, 4],  # 12
            artifact_cards=[("A", 2), ("A", 3), ("A", 1), ("B", 2), ("C", 4), ("D", 1)],  # 13
            guide_adventures=2,  # -5
            coins=27,  # 27 // 10 = 2
            movement_cards=5,  # 5 // 2 = 2
            unfinished_artifacts=3,  # +3
        )
    )
    # sets: AA 6 + ABCD 10 = 16; total 12 + 13 + 16 - 5 + 2 + 2 + 3 = 43
    assert score["expedition_points"] == 12
    assert score["artifact_points"] == 13
    assert score["set_bonus"] == 16
    assert score["guide_penalty"] == -5
    assert score["coin_points"] == 2
    assert score["movement_points"] == 2
    assert score["unfinished_points"] == 3
    assert score["total"] == 43
    assert score["coins"] == 27
    assert sorted(s["bonus"] for s in score["sets"]) == [6, 10]


def test_final_score_empty_sheet_is_zero():
    assert af.final_score(sheet())["total"] == 0


@pytest.mark.parametrize(
    "guides, penalty", [(0, 0), (1, 0), (2, -5), (3, -10), (4, -10), (10, -10)]
)
def test_guide_penalty(guides, penalty):
    assert af.final_score(sheet(guide_adventures=guides))["guide_penalty"] == penalty
    assert af.final_score(sheet(guide_adventures=guides))["total"] == penalty


@pytest.mark.parametrize("coins, points", [(0, 0), (9, 0), (10, 1), (19, 1), (20, 2), (105, 10)])
def test_coins_score_one_point_per_ten_silver(coins, points):
    assert af.final_score(sheet(coins=coins))["total"] == points


def test_coins_are_counted_by_value():
    # 2 gold + 0 silver = 10 silver = 1 point; 3 gold + 4 silver = 19 silver = 1 point
    assert af.coin_value(2, 0) == 10
    assert af.coin_value(3, 4) == 19
    assert af.final_score(sheet(coins=af.coin_value(2, 0)))["coin_points"] == 1
    with pytest.raises(RuleError):
        af.coin_value(-1, 0)


@pytest.mark.parametrize("cards, points", [(0, 0), (1, 0), (2, 1), (3, 1), (5, 2)])
def test_movement_cards_score_one_point_per_two(cards, points):
    assert af.final_score(sheet(movement_cards=cards))["total"] == points


def test_hand_computed_sheet_with_all_twenty_artifacts():
    cards = [(k, 1) for k in KINDS for _ in range(4)]  # 20 points printed
    score = af.final_score(sheet(artifact_cards=cards, expedition_points=[7]))
    # 7 + 20 + 70 = 97
    assert score["total"] == 97


@pytest.mark.parametrize(
    "changes, rule, fragment",
    [
        ({"guide_adventures": -1}, "sheet-values", "cannot be negative"),
        ({"coins": -3}, "sheet-values", "cannot be negative"),
        ({"movement_cards": -1}, "sheet-values", "cannot be negative"),
        ({"movement_cards": 6}, "sheet-values", "at most 5"),
        ({"unfinished_artifacts": 4}, "sheet-values", "at most 3"),
        ({"unfinished_artifacts": -1}, "sheet-values", "cannot be negative"),
        ({"guide_adventures": 11}, "sheet-values", "at most 10"),
        ({"coins": 2.5}, "sheet-values", "whole number"),
        ({"coins": True}, "sheet-values", "whole number"),
        ({"expedition_points": [3, -1]}, "sheet-values", "expedition"),
        ({"expedition_points": "35"}, "sheet-values", "list"),
        ({"expedition_points": [1] * 31}, "sheet-values", "At most 30"),
        ({"artifact_cards": [("A", -2)]}, "sheet-values", "points"),
        ({"artifact_cards": [("A",)]}, "sheet-values", "kind and its points"),
        ({"artifact_cards": [("A", 1)] * 5}, "artifact-limits", "5 cards of A"),
        (
            {"artifact_cards": [(k, 1) for k in KINDS for _ in range(4)] + [("F", 1)]},
            "artifact-limits",
            "only 20",
        ),
        (
            {
                "artifact_cards": [(k, 1) for k in KINDS for _ in range(4)],
                "unfinished_artifacts": 1,
            },
            "artifact-limits",
            "together are 21",
        ),
    ],
)
def test_bad_sheets_are_refused_with_the_reason(changes, rule, fragment):
    with pytest.raises(RuleError) as err:
        af.final_score(sheet(**changes))
    assert err.value.rule == rule
    assert fragment in str(err.value)


scores_sheet = st.fixed_dictionaries(
    {
        "expedition_points": st.lists(st.integers(0, 12), max_size=12),
        "artifact_cards": holding.flatmap(
            lambda kinds: st.tuples(*[st.tuples(st.just(k), st.integers(0, 6)) for k in kinds])
        ).map(list),
        "guide_adventures": st.integers(0, 10),
        "coins": st.integers(0, 200),
        "movement_cards": st.integers(0, 5),
        "unfinished_artifacts": st.integers(0, 3),
    }
).filter(
    # a sheet the game allows: completed and unfinished artifact cards are at most the twenty
    # printed (more is refused by the artifact-limits rule, tested on its own)
    lambda sheet: len(sheet["artifact_cards"]) + sheet["unfinished_artifacts"] <= af.ARTIFACT_CARDS
)


@settings(max_examples=200)
@given(scores_sheet, st.randoms(use_true_random=False))
def test_final_score_is_the_sum_of_its_lines_and_ignores_order(data, rnd):
    score = af.final_score(data)
    assert score["total"] == sum(score[key] for key, _ in af.SCORE_LINES)
    shuffled = dict(
        data,
        expedition_points=list(data["expedition_points"]),
        artifact_cards=list(data["artifact_cards"]),
    )
    rnd.shuffle(shuffled["expedition_points"])
    rnd.shuffle(shuffled["artifact_cards"])
    assert af.final_score(shuffled)["total"] == score["total"]
    # bounds: the bonus is at most 70 (all twenty cards), the penalty at most 10
    assert 0 <= score["set_bonus"] <= 70
    assert score["guide_penalty"] in (0, -5, -10)


# ---------------------------------------------------------------------------------------------
# Ranking
# ---------------------------------------------------------------------------------------------


def test_ranking_highest_total_wins():
    ranking = af.rank_scores(
        [{"total": 40, "coins": 3}, {"total": 52, "coins": 0}, {"total": 45, "coins": 30}]
    )
    assert ranking["order"] == [1, 2, 0]
    assert ranking["places"] == [3, 1, 2]
    assert ranking["winners"] == [1]
    assert ranking["tie_break"] == "none"


def test_ranking_tie_goes_to_more_coins():
    ranking = af.rank_scores(
        [{"total": 50, "coins": 8}, {"total": 50, "coins": 12}, {"total": 20, "coins": 99}]
    )
    assert ranking["winners"] == [1]
    assert ranking["places"] == [2, 1, 3]
    assert ranking["tie_break"] == "coins"


def test_ranking_still_tied_is_a_shared_victory():
    ranking = af.rank_scores(
        [
            {"total": 50, "coins": 8},
            {"total": 30, "coins": 1},
            {"total": 50, "coins": 8},
            {"total": 30, "coins": 1},
        ]
    )
    assert ranking["winners"] == [0, 2]
    assert ranking["places"] == [1, 3, 1, 3]
    assert ranking["tie_break"] == "shared"


def test_ranking_tie_below_first_place_does_not_change_the_tie_break():
    ranking = af.rank_scores(
        [{"total": 60, "coins": 0}, {"total": 30, "coins": 5}, {"total": 30, "coins": 9}]
    )
    assert ranking["tie_break"] == "none"
    assert ranking["places"] == [1, 3, 2]


@settings(max_examples=200)
@given(st.lists(st.tuples(st.integers(-10, 80), st.integers(0, 60)), min_size=2, max_size=4))
def test_ranking_properties(pairs):
    scores = [{"total": t, "coins": c} for t, c in pairs]
    ranking = af.rank_scores(scores)
    assert sorted(ranking["order"]) == list(range(len(scores)))
    best = max(pairs)
    assert ranking["winners"] == [i for i, p in enumerate(pairs) if p == best]
    for i, j in itertools.combinations(range(len(pairs)), 2):
        if pairs[i] > pairs[j]:
            assert ranking["places"][i] < ranking["places"][j]
        elif pairs[i] == pairs[j]:
            assert ranking["places"][i] == ranking["places"][j]


# ---------------------------------------------------------------------------------------------
# Set-up facts
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "players, removed, deck, refills",
    [
        (4, 4, 30, 25),  # 34 - 4 = 30 cards, 5 dealt to the row, 25 refills
        (3, 7, 27, 22),
        (2, 10, 24, 19),
    ],
)
def test_setup_facts_by_player_count(players, removed, deck, refills):
    facts = af.setup_facts(players)
    assert facts["c_cards_removed"] == removed
    assert facts["expedition_deck"] == deck
    assert facts["refills"] == refills
    assert len(facts["companies"]) == players
    assert af.new({}, players)["deck"] == refills


def test_companies_in_seat_order():
    facts = af.setup_facts(4)
    rows = [
        (c["number"], c["name"], c["colour"], c["start"], c["coins"]) for c in facts["companies"]
    ]
    assert rows == [
        (1, "Italy", "white", "Napoli", 2),
        (2, "France", "blue", "Cape Town", 2),
        (3, "Germany", "yellow", "Lagos", 3),
        (4, "England", "red", "Jidda", 4),
    ]
    assert [c["name"] for c in facts["companies"]] == list(af.SEAT_LABELS)
    assert any("joker" in text for text in facts["receives"])
    assert any("4 company markers" in text for text in facts["receives"])


@pytest.mark.parametrize("players", [0, 1, 5, "3", None, 2.0])
def test_setup_refuses_other_player_counts(players):
    with pytest.raises(RuleError) as err:
        af.setup_facts(players)
    assert err.value.rule == "players"
    with pytest.raises(RuleError):
        af.new({}, players)


def test_rules_and_clarifications_are_listed():
    assert all(isinstance(v, str) and v for v in af.RULES.values())
    for key in ("coins-by-value", "sets-best", "guide-penalty", "last-round", "page-turn"):
        assert key in af.CLARIFICATIONS


def test_the_greedy_grouping_shown_on_the_rules_page_is_never_better_and_sometimes_worse():
    assert af.greedy_artifact_sets(list("AAABCD")) == (14, [["A", "A", "A"], ["B", "C"]])
    assert af.best_artifact_sets(list("AAABCD"))[0] == 16
    assert af.greedy_artifact_sets(list("AABBCCDD"))[0] == 20
    assert af.best_artifact_sets(list("AABBCCDD"))[0] == 24
    worse = 0
    for counts in itertools.product(range(5), repeat=5):
        kinds = [k for k, n in zip("ABCDE", counts) for _ in range(n)]
        greedy, groups = af.greedy_artifact_sets(kinds)
        assert greedy == sum(af.set_bonus_of(g) for g in groups)
        best = af.artifact_bonus(kinds)
        assert greedy <= best
        worse += greedy < best
    assert worse > 0

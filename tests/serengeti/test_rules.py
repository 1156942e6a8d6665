"""Serengeti / Don pure functions: payout, bid_error, score, standings.

Every worked example of the rule text (seeds/002) is a test here, plus hand-computed cases.
"""

import re
from pathlib import Path

import pytest

from companion.games.base import Msg, RuleError, Seat
from companion.games.serengeti import rules as g
from tests.serengeti.helpers import cards

ABACUS_PLAYERS = ("Anne", "Bert", "Chris", "Rich")  # the names the rule text's examples use


def holdings(**digits):
    """Every example player with the digits given (others hold nothing)."""
    return {p: list(digits.get(p, [])) for p in ABACUS_PLAYERS}


# ---------------------------------------------------------------- payout: rule-text examples


def test_example_single_holder_takes_it_all():
    # Line 65: Anne wins at 7; only Bert owns a 7 -> Anne pays Bert all 7.
    pay = g.payout(7, "Anne", holdings(Bert=[7]))
    assert pay.shares == {"Bert": 7}
    assert pay.remainder == 0
    assert pay.method == "alone"


def test_example_three_holders_share_per_card():
    # Rich wins at 9; Anne, Bert and Chris each own one 9 -> 9 / 3 = 3 each.
    pay = g.payout(9, "Rich", holdings(Anne=[9], Bert=[9], Chris=[9]))
    assert pay.shares == {"Anne": 3, "Bert": 3, "Chris": 3}
    assert pay.remainder == 0


def test_example_two_cards_earn_two_shares():
    # Chris wins at 6; Anne owns two 6s, Rich one -> 6 / 3 = 2 a card: Anne 4, Rich 2.
    pay = g.payout(6, "Chris", holdings(Anne=[6, 6, 1], Rich=[6], Bert=[2]))
    assert pay.shares == {"Anne": 4, "Rich": 2}
    assert pay.remainder == 0
    assert pay.matches == {"Anne": 2, "Rich": 1}


def test_example_no_match_splits_among_the_others():
    # Anne wins at 5, nobody owns a 5: Bert, Chris, Rich split it: 5 // 3 = 1 each, 2 to the bank.
    pay = g.payout(5, "Anne", holdings(Bert=[1], Chris=[2, 3]))
    assert pay.shares == {"Bert": 1, "Chris": 1, "Rich": 1}
    assert pay.remainder == 2
    assert pay.method == "split"


def test_example_two_digit_bid_counts_its_last_digit():
    # Chris wins at 12; only Bert owns a 2 -> Bert receives all 12.
    pay = g.payout(12, "Chris", holdings(Bert=[2], Anne=[1]))
    assert pay.shares == {"Bert": 12}
    assert pay.digit == 2


def test_example_odd_chips_go_to_the_bank():
    # Anne wins at 13; Bert and Chris own a 3 each -> 13 // 2 = 6 each, 1 to the bank.
    pay = g.payout(13, "Anne", holdings(Bert=[3], Chris=[3]))
    assert pay.shares == {"Bert": 6, "Chris": 6}
    assert pay.remainder == 1


@pytest.mark.parametrize("bid,digit", [(14, 4), (10, 0), (20, 0), (3, 3), (99, 9)])
def test_example_last_digit(bid, digit):
    # 14 matches 4, 10 matches 0: a lone holder of that digit takes the whole bid.
    pay = g.payout(bid, "Anne", holdings(Bert=[digit], Chris=[(digit + 1) % 10]))
    assert pay.digit == digit
    assert pay.shares == {"Bert": bid}


# ---------------------------------------------------------------- payout: one holder or several
# Line 63: when only ONE other player owns cards with the last digit, that player receives the
# whole bid however many such cards they own; the per-card division (line 67) is for two or more
# holders. Same positions, one holder and then two, hand-computed.


@pytest.mark.parametrize(
    "bid,bert",
    [
        (7, [7, 7]),  # odd bid, 2 cards: per card it would be 3 + 3 and 1 to the bank
        (17, [7, 7]),  # odd two-digit bid, 2 cards
        (8, [8, 8]),  # even bid, 2 cards
        (9, [9, 9, 9]),  # 9 / 3 would divide evenly: still all 9 to Bert
        (16, [6, 6, 6]),  # even bid, 3 cards: per card it would be 5 x 3 and 1 to the bank
        (13, [3, 3, 3, 1]),  # odd bid, 3 cards among others
        (12, [2, 2]),  # like line 81, with two 2s
    ],
)
def test_lone_holder_takes_the_whole_bid_however_many_cards(bid, bert):
    pay = g.payout(bid, "Anne", holdings(Bert=bert, Chris=[5], Rich=[]))
    assert pay.shares == {"Bert": bid}
    assert pay.remainder == 0
    assert pay.method == "alone"
    assert pay.matches == {"Bert": bert.count(bid % 10)}


@pytest.mark.parametrize("bid,bert", [(1, [1, 1]), (1, [1, 1, 1]), (2, [2, 2]), (2, [2, 2, 2])])
def test_lone_holder_takes_a_bid_smaller_than_their_cards(bid, bert):
    # Per card 1 // 2 = 0 would send everything to the bank; a lone holder takes it all.
    pay = g.payout(bid, "Anne", holdings(Bert=bert))
    assert pay.shares == {"Bert": bid}
    assert pay.remainder == 0


def test_lone_holder_of_two_sevens_among_three_players():
    # Shared per card this gave B 6 (3 a card) and the bank 1; a lone holder takes all 7.
    pay = g.payout(7, "A", {"A": [], "B": [7, 7], "C": []})
    assert pay.shares == {"B": 7} and pay.remainder == 0


@pytest.mark.parametrize(
    "bid,bert,chris,shares,remainder",
    [
        # bid, Bert's and Chris's digits -> shares (per card bid // cards), rest to the bank
        (7, [7, 7], [7], {"Bert": 4, "Chris": 2}, 1),  # 7 // 3 = 2 a card
        (17, [7, 7], [7], {"Bert": 10, "Chris": 5}, 2),  # 17 // 3 = 5 a card
        (8, [8, 8], [8], {"Bert": 4, "Chris": 2}, 2),  # 8 // 3 = 2 a card
        (8, [8], [8], {"Bert": 4, "Chris": 4}, 0),  # 8 // 2 = 4 a card
        (9, [9, 9], [9], {"Bert": 6, "Chris": 3}, 0),  # 9 // 3 = 3 a card
        (16, [6, 6], [6, 6], {"Bert": 8, "Chris": 8}, 0),  # 16 // 4 = 4 a card
        (13, [3, 3], [3], {"Bert": 8, "Chris": 4}, 1),  # 13 // 3 = 4 a card
        (3, [3, 3], [3], {"Bert": 2, "Chris": 1}, 0),  # 3 // 3 = 1 a card
        (1, [1], [1], {}, 1),  # 1 // 2 = 0 a card
        (1, [1, 1], [1], {}, 1),  # 1 // 3 = 0 a card
        (2, [2, 2], [2], {}, 2),  # 2 // 3 = 0 a card
        (2, [2], [2], {"Bert": 1, "Chris": 1}, 0),  # 2 // 2 = 1 a card
    ],
)
def test_two_holders_share_per_card_with_the_rest_to_the_bank(bid, bert, chris, shares, remainder):
    pay = g.payout(bid, "Anne", holdings(Bert=bert, Chris=chris))
    assert pay.shares == shares
    assert pay.remainder == remainder
    assert pay.method == "match"


def test_the_winners_cards_do_not_make_a_second_holder():
    # Anne wins at 7 owning a 7 herself; Bert owns two 7s: he is the only other holder -> all 7.
    pay = g.payout(7, "Anne", holdings(Anne=[7], Bert=[7, 7]))
    assert pay.shares == {"Bert": 7} and pay.remainder == 0


def test_winners_own_cards_never_count_even_the_ones_just_won():
    # Anne wins at 7 and the lot she just took has a 7: only Bert's 7 counts.
    pay = g.payout(7, "Anne", holdings(Anne=[7, 7], Bert=[7]))
    assert pay.shares == {"Bert": 7}
    # The winner alone owns the digit: that is "no match", so the others split it (7 // 3 = 2).
    pay = g.payout(7, "Anne", holdings(Anne=[7]))
    assert pay.shares == {"Bert": 2, "Chris": 2, "Rich": 2}
    assert pay.remainder == 1


def test_three_player_split():
    # 3 players, bid 5, no match: 5 // 2 = 2 each, 1 to the bank.
    pay = g.payout(5, 0, {0: [], 1: [], 2: []})
    assert pay.shares == {1: 2, 2: 2}
    assert pay.remainder == 1


def test_bid_smaller_than_matching_cards_goes_to_the_bank():
    # Bid 1, Bert and Chris own a 1 each: 1 // 2 = 0 a card, so nobody gets a chip (two holders;
    # a lone holder would take it, see test_lone_holder_takes_a_bid_smaller_than_their_cards).
    pay = g.payout(1, "Anne", holdings(Bert=[1], Chris=[1]))
    assert pay.shares == {}
    assert pay.remainder == 1


def test_split_with_more_players_than_chips():
    # Bid 2, 4 others, no match: 2 // 4 = 0 each; both chips to the bank.
    pay = g.payout(2, "E", {"A": [], "B": [], "C": [], "D": [], "E": []})
    assert pay.shares == {}
    assert pay.remainder == 2


def test_abacus_uneven_per_card_shares():
    # Bid 17, Bert two 7s, Chris one, Rich one: 17 // 4 = 4 a card -> Bert 8, Chris 4, Rich 4, 1 left.
    pay = g.payout(17, "Anne", holdings(Bert=[7, 7], Chris=[7], Rich=[7]))
    assert pay.shares == {"Bert": 8, "Chris": 4, "Rich": 4}
    assert pay.remainder == 1


# ---------------------------------------------------------------- payout: Don


def test_don_most_matching_cards_takes_it_all():
    # The rule text's 6-example under Don: Anne (two 6s) beats Rich (one 6) and takes all 6.
    pay = g.payout(6, "Chris", holdings(Anne=[6, 6], Rich=[6]), variant="don")
    assert pay.shares == {"Anne": 6}
    assert pay.remainder == 0
    assert pay.method == "most"


def test_don_tie_for_most_splits_and_odd_chip_goes_to_pot():
    # Bid 13, Bert and Chris one 3 each: 13 // 2 = 6 each, 1 to the pot.
    pay = g.payout(13, "Anne", holdings(Bert=[3], Chris=[3]), variant="don")
    assert pay.shares == {"Bert": 6, "Chris": 6}
    assert pay.remainder == 1


def test_don_old_pot_is_added_before_sharing():
    # Bid 13 + pot 1 = 14; Bert and Chris tie: 7 each; new pot 0.
    pay = g.payout(13, "Anne", holdings(Bert=[3], Chris=[3]), variant="don", pot=1)
    assert pay.shares == {"Bert": 7, "Chris": 7}
    assert pay.remainder == 0
    assert pay.pool == 14


def test_don_no_match_split_with_pot():
    # Bid 5 + pot 2 = 7, no 5 anywhere, 3 others: 7 // 3 = 2 each, new pot 1.
    pay = g.payout(5, "Anne", holdings(), variant="don", pot=2)
    assert pay.shares == {"Bert": 2, "Chris": 2, "Rich": 2}
    assert pay.remainder == 1


@pytest.mark.parametrize("bid,bert", [(7, [7, 7]), (1, [1, 1]), (2, [2, 2, 2]), (16, [6, 6, 6])])
def test_don_lone_holder_takes_it_all_too(bid, bert):
    # Don's "most cards takes all": a lone holder has the most, so the same answer as Abacus.
    pay = g.payout(bid, "Anne", holdings(Bert=bert), variant="don")
    assert pay.shares == {"Bert": bid} and pay.remainder == 0 and pay.method == "most"


def test_don_most_cards_beat_per_card_sharing():
    # Bid 7, Bert two 7s and Chris one: Abacus shares per card (4, 2, 1 to the bank); Don gives
    # Bert, who owns the most, all 7.
    pay = g.payout(7, "Anne", holdings(Bert=[7, 7], Chris=[7]), variant="don")
    assert pay.shares == {"Bert": 7} and pay.remainder == 0


def test_don_lone_holder_takes_bid_and_pot():
    # Bid 9 + pot 3 = 12; only Rich owns a 9 -> Rich 12, pot 0.
    pay = g.payout(9, "Anne", holdings(Rich=[9], Bert=[1]), variant="don", pot=3)
    assert pay.shares == {"Rich": 12}
    assert pay.remainder == 0


# ---------------------------------------------------------------- payout: bad input


@pytest.mark.parametrize(
    "kwargs",
    [
        dict(bid=0),
        dict(bid=-3),
        dict(bid=1000),
        pytest.param(dict(bid=10**5000), id="huge"),
        dict(bid=2.5),
        dict(bid=True),
        dict(bid="7"),
        dict(variant="queen"),
        dict(pot=-1),
        dict(pot=2),  # Abacus has no pot
        dict(holdings={"Anne": [10]}),
        dict(holdings={"Anne": "12"}),
        dict(holdings=[1, 2]),
        dict(holdings={"Anne": [1.0]}),
    ],
)
def test_payout_refuses_bad_input(kwargs):
    args = dict(bid=7, winner="Anne", holdings=holdings(Bert=[7]))
    args.update(kwargs)
    with pytest.raises(g.InputError) as err:
        g.payout(args.pop("bid"), args.pop("winner"), args.pop("holdings"), **args)
    assert isinstance(err.value, ValueError) and isinstance(err.value, RuleError)
    assert err.value.rule in g.RULES


def test_payout_line_reads_plainly():
    pay = g.payout(13, "Anna", {"Anna": [], "Ben": [3], "Chris": [3]})
    assert g.payout_line("Anna", 13, pay) == "Anna paid 13: Ben 6, Chris 6, 1 to the bank"
    pay = g.payout(7, "Anna", {"Anna": [], "Ben": [7], "Chris": []})
    assert g.payout_line("Anna", 7, pay) == "Anna paid 7: Ben 7"
    pay = g.payout(13, "Anna", {"Anna": [], "Ben": [3], "Chris": []}, variant="don", pot=2)
    line = g.payout_line("Anna", 13, pay, variant="don", pot=2)
    assert line == "Anna paid 13, plus 2 from the pot: Ben 15"
    assert "pot" not in str(g.payout_line("Anna", 13, pay, variant="don"))  # an empty pot unlisted
    pay = g.payout(13, "Anna", {"Anna": [], "Ben": [3], "Chris": [3]}, variant="don")
    assert (
        g.payout_line("Anna", 13, pay, variant="don")
        == "Anna paid 13: Ben 6, Chris 6, 1 in the pot"
    )
    assert isinstance(line, Msg) and line.msgid.startswith("%(winner)s")
    pay = g.payout(1, "Anna", {"Anna": [], "Ben": [1], "Chris": [1]})
    assert g.payout_line(Seat(0), 1, pay) == "Player 1 paid 1: 1 to the bank"
    pay = g.payout(7, "Anna", {"Anna": [], "Ben": [7, 7], "Chris": []})
    assert g.payout_line("Anna", 7, pay) == "Anna paid 7: Ben 7"


# ---------------------------------------------------------------- bid_error


def test_example_forbidden_digits_4_and_6():
    # Anne owns a 4 and a 6: she may not bid 4, 6, 14 or 16 (nor 24, 26...).
    for bid in (4, 6, 14, 16, 24, 26, 104):
        assert g.bid_error(bid, [4, 6]) is not None, bid
        assert g.bid_rule(bid, [4, 6]) == "bid-digit"
    for bid in (1, 2, 3, 5, 7, 8, 9, 10, 11, 13, 15, 17, 20):
        assert g.bid_error(bid, [4, 6]) is None, bid


def test_bid_must_beat_the_high_bid():
    assert g.bid_error(7, [], 7) == "The high bid is 7: bid at least 8, or pass."
    assert g.bid_rule(5, [], 7) == "bid-higher"
    assert g.bid_error(8, [], 7) is None
    # the suggestion skips forbidden digits: above 7 while owning 8 and 9 -> 10
    assert g.bid_error(3, [8, 9], 7) == "The high bid is 7: bid at least 10, or pass."


@pytest.mark.parametrize(
    "bid", [0, -1, 2.0, "5", None, True, 1000, pytest.param(10**5000, id="huge")]
)
def test_bid_must_be_a_positive_whole_number(bid):
    assert g.bid_rule(bid, []) == "bid-number"
    assert "positive whole number" in g.bid_error(bid, [])


def test_bid_digit_message_suggests_neighbours():
    assert g.bid_error(14, [4]) == "You own a 4, so no bid may end in 4: try 13 or 15."
    # nothing legal below 16 above the high bid 14 -> only the higher suggestion
    assert g.bid_error(16, [6, 5], 14) == "You own a 6, so no bid may end in 6: try 17."
    assert g.bid_error(1, [1]) == "You own a 1, so no bid may end in 1: try 2."
    assert g.bid_error(10, [0, 9, 1]) == "You own a 0, so no bid may end in 0: try 8 or 12."


def test_owning_every_digit_leaves_only_pass():
    assert g.bid_rule(5, range(10)) == "bid-digit"
    assert "cannot bid" in g.bid_error(5, range(10))
    assert g.bid_hint(range(10))["min_bid"] is None


def test_bid_error_accepts_any_iterable_and_duplicates():
    assert g.bid_error(24, (d for d in [4, 4])) is not None
    assert g.bid_error(23, {4}) is None


def test_bid_hint_lists_the_lowest_legal_bids():
    # owns 4 and 6, high bid 12 -> 13, 15, 17, 18, 19
    hint = g.bid_hint([6, 4, 6], 12)
    assert hint == {"forbidden_digits": [4, 6], "min_bid": 13, "legal_bids": [13, 15, 17, 18, 19]}
    assert g.bid_hint([], None, 3)["legal_bids"] == [1, 2, 3]


# ---------------------------------------------------------------- score


def test_tribe_points_table():
    # 1/3/6/10/15 points for 1-5 cards of a tribe
    for count, points in [(0, 0), (1, 1), (2, 3), (3, 6), (4, 10), (5, 15)]:
        assert g.score({"A": ["nuba"] * count}, {"A": 0}) == {"A": points}


def test_score_sums_tribes_and_gives_chip_bonus():
    # A: nuba x3 (6) + tonga x1 (1) = 7, most chips +3 = 10. B: bantu x2 = 3, no bonus.
    collections = {"A": ["nuba", "tonga", "nuba", "nuba"], "B": ["bantu", "bantu"]}
    assert g.score(collections, {"A": 5, "B": 4}) == {"A": 10, "B": 3}
    # Don: bonus +2
    assert g.score(collections, {"A": 5, "B": 4}, variant="don") == {"A": 9, "B": 3}


def test_every_player_tied_for_most_chips_gets_the_bonus():
    collections = {"A": ["nuba"], "B": ["tonga"], "C": []}
    assert g.score(collections, {"A": 7, "B": 7, "C": 2}) == {"A": 4, "B": 4, "C": 0}
    assert g.score(collections, {"A": 7, "B": 7, "C": 7}, variant="don") == {"A": 3, "B": 3, "C": 2}


def test_no_chip_bonus_when_nobody_has_a_chip():
    assert g.score({"A": ["nuba"], "B": []}, {"A": 0, "B": 0}) == {"A": 1, "B": 0}


def test_score_players_missing_from_one_mapping():
    # C owns cards but has no chip entry (0 chips); D has chips but no cards.
    assert g.score({"C": ["nuba", "nuba"]}, {"D": 3}) == {"C": 3, "D": 3}


@pytest.mark.parametrize(
    "collections,chips",
    [
        ({"A": ["nuba"] * 6}, {"A": 1}),
        ({"A": "nuba"}, {"A": 1}),
        ({"A": [1, 2]}, {"A": 1}),
        ({"A": []}, {"A": -1}),
        ({"A": []}, {"A": 1.5}),
        ([["nuba"]], {"A": 1}),
    ],
)
def test_score_refuses_impossible_input(collections, chips):
    with pytest.raises(g.InputError):
        g.score(collections, chips)


# ---------------------------------------------------------------- standings / tie-breaks


def test_standings_breakdown():
    table = g.standings({0: cards("nuba1", "nuba2", "tonga3"), 1: cards("bantu5")}, {0: 4, 1: 9})
    top, second = table["players"]
    assert top["player"] == 0 and top["total"] == 4  # nuba 3 + tonga 1, no bonus
    assert top["tribes"]["nuba"] == {"cards": 2, "points": 3}
    assert top["tribes"]["samburu"] == {"cards": 0, "points": 0}
    assert list(top["tribes"]) == list(g.TRIBES)
    assert second["total"] == 4 and second["chip_bonus"] == 3 and second["card_points"] == 1
    # tied on 4 points: seat 0 has 3 cards, seat 1 has 1 -> cards decide
    assert table["ranking"] == [0, 1]
    assert table["tie_break"] == "cards"
    assert top["rank"] == 1 and second["rank"] == 2
    assert table["tie_break_text"] == "Player 1 ties on points and wins with more cards."
    assert table["chip_bonus_to"] == [1]


def test_standings_chips_break_a_tie_on_points_and_cards():
    # A: nuba x2 = 3, 5 chips. B: tonga x2 = 3, 4 chips. C: bantu x2 = 3, 6 chips (+3 -> 6).
    # A and B tie on 3 points and 2 cards: A has more chips.
    table = g.standings(
        {
            "A": cards("nuba1", "nuba2"),
            "B": cards("tonga1", "tonga2"),
            "C": cards("bantu1", "bantu2"),
        },
        {"A": 5, "B": 4, "C": 6},
    )
    assert table["ranking"] == ["C", "A", "B"]
    assert table["tie_break"] == "points"
    rows = {r["player"]: r for r in table["players"]}
    assert rows["A"]["decided_by"] == "chips" and rows["A"]["rank"] == 2
    assert rows["B"]["decided_by"] == "chips" and rows["B"]["rank"] == 3


def test_standings_shared_win():
    table = g.standings({"A": cards("nuba1"), "B": cards("tonga1")}, {"A": 2, "B": 2})
    assert table["winners"] == ["A", "B"]
    assert table["tie_break"] == "shared"
    assert [r["rank"] for r in table["players"]] == [1, 1]
    assert table["tie_break_text"] == "A, B share the win: every tie-break is equal."


def test_standings_don_tie_break_is_digit_sum():
    # Don: A nuba 1 + nuba 2 = 3 points, digit sum 3; B tonga 8 + tonga 9 = 3 points, sum 17.
    # Chips equal (4 each -> both +2). More cards would not help: the Don tie-break is the sum.
    table = g.standings(
        {"A": cards("nuba1", "nuba2"), "B": cards("tonga8", "tonga9")},
        {"A": 4, "B": 4},
        variant="don",
    )
    assert table["ranking"] == ["B", "A"]
    assert table["tie_break"] == "digit_sum"
    assert table["players"][0]["total"] == 5
    assert table["players"][0]["digit_sum"] == 17


def test_don_ignores_card_count_and_chips_in_tie_break():
    # A: 3 cards of 3 tribes = 1+1+1 = 3 points, digits 0+1+2 = 3.
    # B: 2 massai = 3 points, digits 5+6 = 11. Equal chips, so both get the chip bonus.
    # Abacus: tied on points, A has more cards -> A. Don: B has the higher digit sum -> B.
    holdings = {"A": cards("nuba0", "tonga1", "bantu2"), "B": cards("massai5", "massai6")}
    chips = {"A": 3, "B": 3}
    assert g.standings(holdings, chips)["ranking"] == ["A", "B"]
    assert g.standings(holdings, chips)["tie_break"] == "cards"
    assert g.standings(holdings, chips, variant="don")["ranking"] == ["B", "A"]


def test_lot_sizes_repeat_1_2_3_and_use_all_cards():
    assert [g.lot_size(r) for r in range(1, 16)] == [1, 2, 3] * 5
    assert sum(g.lot_size(r) for r in range(1, 16)) == g.DECK_SIZE


def test_rule_ids_and_clarifications_are_documented():
    assert all(isinstance(k, str) and v for k, v in g.RULES.items())
    assert list(g.RULE_SUMMARIES) == list(g.RULES)
    assert len(g.CLARIFICATIONS) >= 10
    for rule in g.PENALTY_RULES:
        assert rule in g.RULES
    assert list(g.CLARIFICATION_QUESTIONS) == list(g.CLARIFICATIONS)
    assert not set(g.RULES) & set(g.CLARIFICATIONS), "ids share one rules page: keep them unique"
    assert {"action", "game-over"} <= set(g.RULES)  # the shared dispatcher's refusals


# The package's pure modules (rules.py is the entry point; the rules live beside it).
PURE_SOURCES = [
    path
    for path in sorted(Path(g.__file__).parent.glob("*.py"))
    if path.name not in ("web.py", "calculator.py")
]


def test_every_rule_id_the_module_raises_is_on_the_rules_page():
    assert len(PURE_SOURCES) >= 10, "the rules have moved: read them where they are"
    source = "\n".join(path.read_text() for path in PURE_SOURCES)
    raised = set(re.findall(r'(?:RuleError|InputError)\(\s*"([a-z-]+)"', source))
    raised |= set(re.findall(r'return \(\s*"([a-z-]+)",', source))  # bid_problem's rule ids
    assert {"bid-digit", "bid-higher", "bid-number", "turn", "deck", "sale"} <= raised
    assert raised - set(g.RULES) == set()


def test_every_translatable_is_marked():
    # every Msg/RuleError in the module uses an N_() literal or a table of N_() literals
    unmarked = re.compile(r'(?:Msg\(\s*"|(?:RuleError|InputError)\(\s*"[a-z-]+",\s*")')
    assert unmarked.search('RuleError("turn", "Not yours")')  # the check itself works
    assert unmarked.search('Msg("Hello")') and not unmarked.search('Msg(N_("Hello"))')
    for path in PURE_SOURCES:
        assert not unmarked.search(path.read_text()), path.name

"""Serengeti / Don: the prompt under "Your turn." (Rules.prompt), hand-computed: the lowest legal
bid, the digits a bid may not end in, the pass bonus, the discard, the cards and the Don sale."""

from __future__ import annotations

import re

import pytest

from companion.games.serengeti import rules
from companion.games.serengeti.bids import bid_problem
from tests.serengeti.helpers import cards


def act(state, type_, seat=None, **fields):
    return rules.apply(state, {"type": type_, "seat": seat, "host": False, **fields})


def auction(variant="abacus", players=3, **own):
    """Round 1 after its one card (Nuba 4) is turned up: seat 0 opens; `own` gives seats their
    cards, e.g. p1=["massai3"]."""
    state = rules.new({"variant": variant}, players)
    for key, specs in own.items():
        state["cards"][int(key[1:])] = cards(*specs)
    return act(state, "card", tribe="nuba", digit=4)


def said(state, seat):
    found = rules.prompt(state, seat)
    return None if found is None else str(found)


def test_the_first_bid_of_a_lot_with_no_high_bid_and_the_pass_bonus():
    state = auction()
    assert said(state, 0) == "Bid 1 or more, or pass for 2 chips."
    assert said(state, 1) is None and said(state, None) is None  # they wait; nothing to enter


def test_the_issue_example_more_than_4_not_ending_in_3():
    state = act(auction(p1=["massai3"]), "bid", 0, amount=4)
    assert said(state, 1) == "Bid 5 or more, not ending in 3, or pass for 2 chips."
    don = act(auction("don", p1=["massai3"]), "bid", 0, amount=4)
    assert said(don, 1) == "Bid 5 or more, not ending in 3, or pass."  # Don: no pass bonus


def test_the_lowest_legal_bid_skips_forbidden_digits():
    # Anna's example: she owns a 4 and a 6, the high bid is 4: 5 is fine
    state = act(auction(p1=["massai4", "bantu6"]), "bid", 0, amount=4)
    assert said(state, 1) == "Bid 5 or more, not ending in 4 or 6, or pass for 2 chips."
    # owning a 5 and a 6 over a high bid of 4: 5 and 6 are out, so 7
    state = act(auction(p1=["massai5", "bantu6"]), "bid", 0, amount=4)
    assert said(state, 1) == "Bid 7 or more, not ending in 5 or 6, or pass for 2 chips."


def test_three_forbidden_digits_are_listed_with_or():
    state = act(auction(p1=["massai3", "bantu7", "tonga9"]), "bid", 0, amount=12)
    assert said(state, 1) == "Bid 14 or more, not ending in 3, 7 or 9, or pass for 2 chips."


def test_with_most_digits_forbidden_the_allowed_ones_are_named():
    # seat 1 owns every digit but 2 and 8: a bid must end in 2 or 8
    own = ["nuba0", "nuba1", "nuba3", "massai5", "massai6", "massai7", "bantu9", "bantu4"]
    state = act(auction(p1=own), "bid", 0, amount=2)
    assert said(state, 1) == "Bid 8 or more, ending in 2 or 8, or pass for 2 chips."


def test_a_player_who_owns_every_digit_may_only_pass():
    own = ["nuba0", "nuba1", "nuba2", "nuba3", "massai5", "massai6", "massai7", "massai8"]
    own += ["bantu9", "bantu4"]
    state = auction(p0=own)
    assert said(state, 0) == "You own every digit, so you cannot bid: pass for 2 chips."
    state["bank"] = 1  # the bank pays what it has left
    assert said(state, 0) == "You own every digit, so you cannot bid: pass for 1 chip."
    state["bank"] = 0
    assert said(state, 0) == "You own every digit, so you cannot bid: pass."


def test_no_pass_bonus_once_the_player_has_bid_this_lot():
    state = act(auction(), "bid", 0, amount=3)
    state = act(state, "bid", 1, amount=5)
    state = act(state, "bid", 2, amount=6)
    assert said(state, 0) == "Bid 7 or more, or pass."


@pytest.mark.parametrize(
    "own, high",
    [
        ([], None),
        (["massai3"], 4),
        (["massai5", "bantu6"], 4),
        (["tonga0", "bantu9"], 8),
        (["nuba0", "nuba1", "nuba3", "massai5", "massai6", "massai7", "bantu9", "bantu4"], 2),
    ],
)
def test_the_numbers_are_exactly_the_bids_the_rules_accept(own, high):
    state = auction(p1=own)
    if high is not None:
        state = act(state, "bid", 0, amount=high)
    else:
        state = act(state, "pass", 0)
    msg = rules.prompt(state, 1)
    least = msg.params["least"]
    listed = {int(d) for d in re.findall(r"\d", str(msg.params.get("digits", "")))}
    ending_in = "digits" in msg.params and "not ending" not in msg.msgid
    digits = [c["digit"] for c in state["cards"][1]]
    for bid in range(1, 120):
        said_legal = bid >= least and (
            (bid % 10 in listed) if ending_in else (bid % 10 not in listed)
        )
        assert said_legal == (bid_problem(bid, digits, high) is None), bid


def test_a_winner_who_cannot_pay_is_told_to_discard():
    state = auction(p0=["massai3"])
    state = act(state, "bid", 0, amount=12)  # seat 0 holds 10 chips
    state = act(state, "pass", 1)
    state = act(state, "pass", 2)
    assert state["phase"] == "discard"
    assert said(state, 0) == "You cannot pay 12: discard one of your cards."
    assert said(state, 1) is None and said(state, None) is None


def test_turning_up_cards_anyone_may_enter_the_next_one():
    state = rules.new({"variant": "abacus"}, 4)
    assert said(state, None) == "Enter card 1 of 1 turned up."
    assert said(state, 2) == "Enter card 1 of 1 turned up."
    state["round"] = 3
    state["lot"] = cards("nuba4")
    assert said(state, None) == "Enter card 2 of 3 turned up."


def test_don_a_player_with_a_card_may_offer_it_before_the_first_card():
    state = rules.new({"variant": "don"}, 3)
    state["round"] = 2
    state["cards"][1] = cards("massai3")
    sale = "Enter card 1 of 2, or first offer one of your cards for sale."
    assert said(state, 1) == sale
    assert said(state, 0) == "Enter card 1 of 2 turned up."  # nothing to sell
    assert said(state, None) == "Enter card 1 of 2 turned up."
    state["lot"] = cards("nuba4")  # the first card is in: too late to sell
    assert said(state, 1) == "Enter card 2 of 2 turned up."
    state["lot"] = []
    state["sold_this_round"] = [1]  # once a round
    assert said(state, 1) == "Enter card 1 of 2 turned up."


def test_don_read_literally_only_the_first_player_may_sell():
    state = rules.new({"variant": "don", "readings": {"sale-who-may": "literal"}}, 3)
    state["cards"][1] = cards("massai3")
    state["cards"][0] = cards("bantu7")
    assert said(state, 0) == "Enter card 1 of 1, or first offer one of your cards for sale."
    assert said(state, 1) == "Enter card 1 of 1 turned up."


def test_don_a_sale_auction_bidder_and_seller():
    state = rules.new({"variant": "don"}, 3)
    state["cards"][1] = cards("massai3")
    state["cards"][2] = cards("bantu3")
    state = act(state, "sell", 1, tribe="massai", digit=3)
    assert state["phase"] == "auction" and state["auction"]["turn"] == 2
    assert said(state, 2) == "Bid 1 or more, not ending in 3, or pass."
    assert said(state, 1) is None  # the seller waits


def test_nothing_once_the_game_is_over():
    state = rules.new({"variant": "abacus"}, 3)
    state["phase"] = "over"
    assert all(said(state, s) is None for s in (0, 1, 2, None))

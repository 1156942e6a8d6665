"""From Cape to Cairo: the prompt under "Your turn." (Rules.prompt), hand-computed for every
phase: the cards, the sealed bids' range, a tie's draw, choosing a card, turning up a card, and
crossing at the cheapest price (money, bonus tracks, free) or passing."""

from __future__ import annotations

from companion.games.cape_to_cairo import rules as g
from tests.cape_to_cairo.test_rules import act, bid_all, enter_cards, two_player_round_one


def said(state, seat):
    found = g.prompt(state, seat)
    return None if found is None else str(found)


def test_the_acquisition_cards_are_anyones_to_enter():
    s = g.new({}, 3)
    assert said(s, None) == "Enter terrain card 1 of 3 turned up."
    assert said(s, 1) == "Enter terrain card 1 of 3 turned up."
    s = enter_cards(s, [("river", 1, 5)])
    assert said(s, None) == "Enter terrain card 2 of 3 turned up."


def test_sealed_bids_range_from_0_to_the_money_held():
    s = enter_cards(g.new({}, 2), [("river", 1, 5), ("savanna", 2, 3)])
    assert said(s, 0) == "Place a sealed bid of 0 to 100 pounds."
    assert said(s, None) is None  # the table enters nothing while the bids are sealed
    s = act(s, "bid", 0, amount=30)
    assert said(s, 0) is None  # has bid: waits for the others
    assert said(s, 1) == "Place a sealed bid of 0 to 100 pounds."
    s["money"][1] = 1
    assert said(s, 1) == "Place a sealed bid of 0 to 1 pound."
    s["money"][1] = 0
    assert said(s, 1) == "You hold no money: place a sealed bid of 0."


def test_a_tie_asks_the_tied_players_to_draw():
    s = enter_cards(g.new({}, 3), [("river", 1, 5), ("savanna", 2, 3), ("desert", 0, 2)])
    s = bid_all(s, [10, 10, 20])  # seats 0 and 1: same bid, same money left
    assert s["phase"] == "draw"
    assert said(s, 0) == "You are tied: draw a card and enter its number (1 to 10)."
    assert said(s, 1) == said(s, 0)
    assert said(s, 2) is None and said(s, None) is None


def test_choosing_a_card_names_how_many_are_left():
    s = enter_cards(g.new({}, 3), [("river", 1, 5), ("savanna", 2, 3), ("desert", 0, 2)])
    s = bid_all(s, [30, 20, 10])
    assert said(s, 0) == "Choose a terrain card: 3 are left."
    s = act(s, "take", 0, card=1)
    assert said(s, 1) == "Choose a terrain card: 2 are left."
    assert said(s, 0) is None and said(s, 2) is None


def test_building_turning_up_then_crossing_for_money_or_passing():
    s = two_player_round_one()  # P0 holds 70 and faces the river (1 symbol)
    assert said(s, 0) == "Turn up a card and enter its track symbols (0 to 3)."
    assert said(s, None) == "Enter the track symbols (0 to 3) of the card Player 1 turns up."
    assert said(s, 1) is None
    s = act(s, "turn_up", marks=2)
    # river 10: 2 turned + 1 own = 3 symbols, 7 bought for 70 pounds, all P0 holds
    assert said(s, 0) == "Cross the river for £70, or pass."
    assert said(s, None) is None and said(s, 1) is None


def test_crossing_for_free_or_with_bonus_tracks():
    s = two_player_round_one()
    s = act(s, "turn_up", marks=3)
    s = act(s, "pass", 0)
    s = act(s, "turn_up", marks=1)
    # P1: savanna 6; 3 + 1 turned + 2 own = 6 symbols: free
    assert said(s, 1) == "Cross the savanna for free, or pass."
    s["bonus"][1] = 2
    s["turned"] = [1]  # 1 + 2 own = 3 symbols: 3 missing, 2 from bonus tracks, 1 bought
    assert said(s, 1) == "Cross the savanna for £10 and 2 bonus tracks, or pass."
    s["turned"] = [2]  # 4 symbols: the 2 bonus tracks cover the rest
    assert said(s, 1) == "Cross the savanna for 2 bonus tracks, or pass."


def test_a_crossing_out_of_reach_leaves_only_the_pass():
    s = two_player_round_one()
    s["money"][0] = 60
    s = act(s, "turn_up", marks=2)  # river: 3 symbols, 70 pounds needed, 60 held
    assert said(s, 0) == "You cannot afford the river yet: pass."
    assert g.view(s, 0)["actions"] == ["pass"]


def test_nothing_once_the_game_is_over():
    s = g.new({}, 2)
    s["phase"], s["winner"] = "over", 0
    assert all(said(s, seat) is None for seat in (0, 1, None))

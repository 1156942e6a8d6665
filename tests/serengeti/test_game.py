"""Serengeti / Don played through apply(): set-up, auctions, payouts, cannot-pay, fines, sales,
views and history. Every number in the comments is worked out by hand from the rules."""

import json

import pytest

from companion.games.base import Msg, RuleError, copy_state
from companion.games.serengeti import rules as g
from tests.serengeti.helpers import DECK, card


def start(variant="abacus", players=3, **options):
    return g.new({"variant": variant, **options}, players)


def act(state, kind, seat=None, host=False, **fields):
    before = copy_state(state)
    after = g.apply(state, {"type": kind, "seat": seat, "host": host, **fields})
    assert state == before, "apply() must not change its input"
    return after


def reveal(state, *specs):
    """reveal(state, "nuba4", "tonga1"): the table enters the lot's cards."""
    for spec in specs:
        state = act(state, "card", tribe=spec[:-1], digit=int(spec[-1]))
    return state


def refused(state, kind, seat=None, host=False, **fields):
    """The rule id of a refused action (and check the state was left alone)."""
    before = copy_state(state)
    with pytest.raises(RuleError) as err:
        g.apply(state, {"type": kind, "seat": seat, "host": host, **fields})
    assert state == before
    assert err.value.rule in g.RULES, err.value.rule
    return err.value.rule


# ---------------------------------------------------------------- set-up


@pytest.mark.parametrize("players,bank", [(3, 35), (4, 25), (5, 15)])
def test_abacus_setup(players, bank):
    state = start(players=players)
    assert state["chips"] == [10] * players
    assert state["bank"] == bank and state["pot"] is None
    assert g.total_chips(state) == 65
    assert state["round"] == 1 and state["phase"] == "reveal" and state["start"] == 0
    json.dumps(state)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_don_setup(players):
    state = start("don", players)
    assert state["chips"] == [12] * players
    assert state["bank"] is None and state["pot"] == 0
    assert g.total_chips(state) == 12 * players


@pytest.mark.parametrize(
    "options,players",
    [
        ({"variant": "queen"}, 3),
        ({}, 2),
        ({}, 6),
        ({}, "3"),
        ({"start": 3}, 3),
        ({"start": "1"}, 3),
        ({"penalty": "no"}, 4),
    ],
)
def test_setup_refuses_bad_options(options, players):
    with pytest.raises(RuleError):
        g.new(options, players)


def test_start_option_picks_the_first_bidder():
    state = reveal(start(start=2), "nuba4")
    assert state["auction"]["turn"] == 2


# ---------------------------------------------------------------- a hand-played Abacus game


def test_round_one_by_hand():
    state = reveal(start(), "nuba4")  # round 1: one card; the auction opens with seat 0
    assert state["phase"] == "auction" and state["auction"]["turn"] == 0
    state = act(state, "bid", 0, amount=3)
    state = act(state, "pass", 1)  # first turn pass: +2 from the bank -> 12, bank 33
    assert state["chips"][1] == 12 and state["bank"] == 33
    state = act(state, "bid", 2, amount="5")  # forms may send digit strings
    state = act(state, "pass", 0)  # seat 0 bid before: no bonus
    # seat 2 wins at 5 and owns the 4 now; nobody else owns a 5: seats 0 and 1 split 5 -> 2 each,
    # 1 to the bank. Chips: 10+2=12, 12+2=14, 10-5=5; bank 33+1=34; 31 + 34 = 65.
    assert state["chips"] == [12, 14, 5] and state["bank"] == 34
    assert state["cards"][2] == [card("nuba4")]
    assert state["round"] == 2 and state["start"] == 2 and state["phase"] == "reveal"
    assert (
        g.view(state, None)["payout_line"]
        == "Player 3 paid 5: Player 1 2, Player 2 2, 1 to the bank"
    )


def play_to_round_three():
    state = reveal(start(), "nuba4")
    state = act(state, "bid", 0, amount=3)
    state = act(state, "pass", 1)
    state = act(state, "bid", 2, amount=5)
    state = act(state, "pass", 0)
    return state  # chips [12, 14, 5], bank 34; round 2 starts with seat 2


def test_winner_who_cannot_pay_discards_and_the_auction_restarts():
    state = reveal(play_to_round_three(), "tonga1", "bantu7")
    assert state["auction"]["turn"] == 2
    state = act(state, "bid", 2, amount=9)  # legal though seat 2 has only 5 chips (hidden)
    state = act(state, "pass", 0)  # +2 -> 14, bank 32
    state = act(state, "pass", 1)  # +2 -> 16, bank 30
    assert state["phase"] == "discard" and state["auction"]["defaulter"] == 2
    assert g.view(state, 2)["me"]["must_discard"] and not g.view(state, 0)["me"]["must_discard"]
    assert g.view(state, None)["to_act"] == 2
    assert state["chips"] == [14, 16, 5]  # nothing paid
    assert refused(state, "discard", 0, tribe="nuba", digit=4) == "cannot-pay"
    assert refused(state, "discard", 2, tribe="tonga", digit=1) == "card-owned"  # in the lot
    assert refused(state, "bid", 0, amount=3) == "phase"
    state = act(state, "discard", 2, tribe="Nuba", digit="4")
    assert state["cards"][2] == [] and state["out"] == [card("nuba4")]
    # restart without seat 2: the round's start player dropped out, so seat 0 begins
    assert state["phase"] == "auction"
    assert state["auction"]["excluded"] == [2] and state["auction"]["turn"] == 0
    state = act(state, "pass", 0)  # bonus already paid this round: no second one
    assert refused(state, "bid", 2, amount=3) == "turn"  # seat 2 is out
    state = act(state, "pass", 1)
    # nobody bid in the restart: its start player (seat 0) takes the lot free
    assert state["cards"][0] == [card("tonga1"), card("bantu7")]
    assert state["chips"] == [14, 16, 5] and state["bank"] == 30
    assert state["round"] == 3 and state["start"] == 0
    assert g.total_chips(state) == 65


def round_three_state():
    state = reveal(play_to_round_three(), "tonga1", "bantu7")
    state = act(state, "bid", 2, amount=9)
    state = act(state, "pass", 0)
    state = act(state, "pass", 1)
    state = act(state, "discard", 2, tribe="nuba", digit=4)
    state = act(state, "pass", 0)
    state = act(state, "pass", 1)
    return reveal(state, "nuba0", "massai2", "samburu3")  # chips [14, 16, 5], bank 30


def test_winner_with_no_card_drops_out_without_discarding():
    state = round_three_state()
    state = act(state, "pass", 0)  # +2 -> 16, bank 28
    state = act(state, "pass", 1)  # +2 -> 18, bank 26
    state = act(state, "bid", 2, amount=20)  # last one in: the bid wins at once
    # seat 2 has 5 chips and no card: drops out, the auction restarts with seat 0
    assert state["phase"] == "auction" and state["auction"]["excluded"] == [2]
    assert state["auction"]["turn"] == 0 and state["auction"]["passed"] == []
    state = act(state, "bid", 0, amount=2)
    state = act(state, "pass", 1)  # no second bonus
    # seat 0 pays 2 -> 14; seat 0 owns 1, 7, 0, 2, 3 but its own cards never count; seats 1 and 2
    # own no 2: they split 2 -> 1 each. Chips [14, 19, 6], bank 26: 39 + 26 = 65.
    assert state["chips"] == [14, 19, 6] and state["bank"] == 26
    assert len(state["cards"][0]) == 5 and state["start"] == 0 and state["round"] == 4


def test_everyone_drops_out_and_the_lot_leaves_the_game():
    state = start()
    state["chips"], state["bank"] = [0, 0, 0], 65  # everybody broke (the bank holds it all)
    state = reveal(state, "nuba4")
    state = act(state, "bid", 0, amount=1)
    state = act(state, "pass", 1)  # +2
    state = act(state, "pass", 2)  # +2
    # seat 0 cannot pay 1 and has no card: restart with seat 1
    assert state["auction"]["turn"] == 1
    state = act(state, "bid", 1, amount=5)
    state = act(state, "pass", 2)
    # seat 1 cannot pay 5 (has 2): restart with seat 2, the only one left
    assert state["auction"]["turn"] == 2
    state = act(state, "bid", 2, amount=3)
    assert state["out"] == [card("nuba4")]
    assert state["round"] == 2 and state["start"] == 0
    assert state["chips"] == [0, 2, 2] and state["bank"] == 61
    assert "the lot leaves the game" in " ".join(g.describe(None, {}, state))


def test_free_lot_start_player_gets_bonus_too():
    state = reveal(start(), "nuba4")
    state = act(state, "pass", 0)
    state = act(state, "pass", 1)
    assert state["auction"]["turn"] == 2  # the last one still has a turn
    state = act(state, "pass", 2)
    # everyone passed at once: +2 each (bank 35 - 6 = 29), seat 0 takes the card free
    assert state["chips"] == [12, 12, 12] and state["bank"] == 29
    assert state["cards"][0] == [card("nuba4")] and state["start"] == 0
    assert g.view(state, None)["payout_line"] == "Nobody bid: Player 1 takes the lot free."


def test_last_player_alone_may_bid_and_wins_at_once():
    state = reveal(start(), "nuba4")
    state = act(state, "pass", 0)
    state = act(state, "pass", 1)
    state = act(state, "bid", 2, amount=1)
    # seat 2 pays 1; nobody else owns a 1: 1 // 2 = 0 each, the chip goes to the bank.
    # bank 35 - 4 (bonuses) + 1 = 32; chips 12, 12, 9.
    assert state["cards"][2] == [card("nuba4")]
    assert state["chips"] == [12, 12, 9] and state["bank"] == 32
    assert state["start"] == 2


def test_bidding_goes_round_until_all_but_one_pass():
    state = reveal(start(players=4), "nuba4")
    state = act(state, "bid", 0, amount=2)
    state = act(state, "bid", 1, amount=3)
    state = act(state, "pass", 2)  # +2
    state = act(state, "bid", 3, amount=5)
    assert state["auction"]["turn"] == 0
    state = act(state, "bid", 0, amount=7)
    assert state["auction"]["turn"] == 1  # seat 2 passed: skipped from now on
    state = act(state, "pass", 1)
    assert state["auction"]["turn"] == 3
    state = act(state, "pass", 3)
    # seat 0 wins at 7, pays 7 -> 3. Nobody else owns a 7: 3 others split 7 -> 2 each, 1 to bank.
    # Seat 2 also had +2. Bank 25 - 2 + 1 = 24; chips [3, 12, 14, 12]: 41 + 24 = 65.
    assert state["chips"] == [3, 12, 14, 12] and state["bank"] == 24
    assert state["start"] == 0


def test_lone_holder_of_two_matching_cards_takes_the_whole_bid_in_play():
    # Rounds 1-2 give seat 1 two 7s; in round 3 seat 0 wins at 7 and seat 1, the only other
    # player with a 7, receives all 7 (shared per card it would be 3 + 3 and 1 to the bank).
    state = reveal(start(), "massai7")
    state = act(state, "pass", 0)  # +2 -> 12, bank 33
    state = act(state, "bid", 1, amount=1)
    state = act(state, "pass", 2)  # +2 -> 12, bank 31
    # seat 1 wins at 1 (-> 9); nobody else owns a 1: seats 0 and 2 split 1 -> 0 each, bank 32
    assert state["chips"] == [12, 9, 12] and state["bank"] == 32
    state = reveal(state, "nandi7", "nuba0")  # round 2: seat 1 starts
    state = act(state, "bid", 1, amount=2)
    state = act(state, "pass", 2)  # +2 -> 14, bank 30
    state = act(state, "pass", 0)  # +2 -> 14, bank 28
    # seat 1 wins at 2 (-> 7); nobody else owns a 2: 2 // 2 = 1 each -> 15, 15
    assert state["chips"] == [15, 7, 15] and state["bank"] == 28
    assert g.view(state, None)["seats"][1]["forbidden_digits"] == [0, 7]
    state = reveal(state, "nuba1", "nuba2", "nuba3")  # round 3: seat 1 starts
    state = act(state, "pass", 1)  # +2 -> 9, bank 26
    state = act(state, "pass", 2)  # +2 -> 17, bank 24
    before = state
    state = act(state, "bid", 0, amount=7)  # the last one in: wins at once
    # seat 0 pays 7 (15 -> 8); seat 1 owns two 7s and is the only holder: +7 -> 16; bank stays 24
    assert state["chips"] == [8, 16, 17] and state["bank"] == 24
    assert g.total_chips(state) == 65
    assert state["last_payout"]["method"] == "alone"
    assert state["last_payout"]["matches"] == [[1, 2]]
    assert "Player 1 paid 7: Player 2 7" in g.describe(before, {"type": "bid"}, state)
    assert g.view(state, None)["payout_line"] == "Player 1 paid 7: Player 2 7"


# ---------------------------------------------------------------- refusals


def test_bids_are_checked():
    state = round_three_state()  # seat 0 owns 1, 7 and is on turn
    assert refused(state, "bid", 1, amount=5) == "turn"
    assert refused(state, "bid", 0, amount=7) == "bid-digit"
    assert refused(state, "bid", 0, amount=21) == "bid-digit"
    assert refused(state, "bid", 0, amount=0) == "bid-number"
    assert refused(state, "bid", 0, amount="five") == "bid-number"
    assert refused(state, "bid", 0, amount=None) == "bid-number"
    assert refused(state, "bid", 0, amount=2.5) == "bid-number"
    assert refused(state, "bid", 0, amount=1000) == "bid-number"  # a typo: nobody has 1000 chips
    assert refused(state, "bid", 0, amount=10**5000) == "bid-number"
    assert refused(state, "bid", 0, amount="9" * 5000) == "bid-number"
    assert refused(state, "bid", 0, amount="٣") == "bid-number"  # digits we cannot read back
    state = act(state, "bid", 0, amount=5)
    assert refused(state, "bid", 1, amount=5) == "bid-higher"
    with pytest.raises(RuleError) as err:
        g.apply(state, {"type": "bid", "seat": 1, "amount": 4})
    assert str(err.value) == "The high bid is 5: bid at least 6, or pass."


@pytest.mark.parametrize(
    "action",
    [
        None,
        [],
        "bid",
        {},
        {"type": "dance"},
        {"type": 3},
        {"type": "bid", "seat": 7, "amount": 3},
        {"type": "bid", "seat": "0", "amount": 3},
        {"type": "bid", "seat": True, "amount": 3},
        {"type": "pass", "seat": None},
        {"type": "bid", "seat": 0, "amount": 3, "host": "yes"},
        {"type": "card", "tribe": "zulu", "digit": 1},
        {"type": "card", "tribe": 4, "digit": 1},
        {"type": "card", "tribe": "nuba", "digit": 10},
        {"type": "card", "tribe": "nuba"},
        {"type": "card", "tribe": "nuba", "digit": "²"},
        pytest.param({"type": 10**5000}, id="huge"),
        {"type": "card", "tribe": "x" * 10**5, "digit": 1},
        {"type": "card", "seat": 9, "tribe": "nuba", "digit": 1},
        {"type": "waive", "seat": 0},
        {"type": "sell", "seat": 0, "tribe": "nuba", "digit": 4},
        {"type": "discard", "seat": 0, "tribe": "nuba", "digit": 4},
        {"type": "penalty", "seat": 0},
    ],
)
def test_bad_actions_raise_rule_error_only(action):
    state = start()
    before = copy_state(state)
    with pytest.raises(RuleError):
        g.apply(state, action)
    assert state == before


def test_the_shared_dispatcher_refuses_unknown_entries_and_anything_after_the_end():
    state = start()
    with pytest.raises(RuleError) as err:
        g.apply(state, {"type": "dance", "seat": 0})
    assert err.value.rule == "action" and str(err.value) == "This game has no entry called dance."
    with pytest.raises(RuleError) as err:
        g.apply(state, None)
    assert err.value.rule == "action"
    with pytest.raises(RuleError) as err:
        g.apply(state, {"type": "card", "tribe": "nuba", "digit": 4, "host": "yes"})
    assert err.value.rule == "action" and str(err.value) == "The host flag must be true or false."
    state["phase"] = "over"
    with pytest.raises(RuleError) as err:
        g.apply(state, {"type": "card", "seat": None, "tribe": "nuba", "digit": 4})
    assert err.value.rule == "game-over" and str(err.value) == "The game is over."
    assert err.value.msg.msgid == "The game is over."


def all_pass(state):
    for _ in range(3):
        state = act(state, "pass", state["auction"]["turn"])
    return state


def test_deck_invariants():
    state = all_pass(reveal(start(), "nuba4"))
    assert refused(state, "card", tribe="nuba", digit=4) == "deck"  # nuba 4 is owned already
    state = reveal(state, "nuba0")
    assert refused(state, "card", tribe="nuba", digit=0) == "deck"  # already in this lot
    state = all_pass(reveal(state, "tonga4"))
    state = reveal(state, "bantu4", "nuba1")  # the third 4
    assert refused(state, "card", tribe="massai", digit=4) == "deck"  # a fourth 4
    state = all_pass(reveal(state, "nuba2"))
    state = all_pass(reveal(state, "nuba3"))  # the fifth nuba
    assert refused(state, "card", tribe="nuba", digit=5) == "deck"  # a sixth nuba
    assert refused(state, "card", tribe="nuba", digit=12) == "card-digit"
    assert refused(state, "card", tribe="lion", digit=3) == "card-tribe"
    state = reveal(state, "tonga3", "massai5")
    assert state["phase"] == "auction" and state["round"] == 5
    assert refused(state, "card", tribe="tonga", digit=5) == "phase"


def test_discarded_cards_still_count_for_the_deck():
    state = round_three_state()  # nuba 4 was discarded in round 2
    state = act(state, "pass", 0)
    state = act(state, "pass", 1)
    state = act(state, "pass", 2)
    assert refused(state, "card", tribe="nuba", digit=4) == "deck"


# ---------------------------------------------------------------- fines


def test_illegal_bid_fine_and_waiver():
    state = round_three_state()  # seat 0 on turn, owns a 7; chips [14, 16, 5], bank 30
    assert refused(state, "bid", 0, amount=17) == "bid-digit"
    assert g.penalty_applies(state, "bid-digit")
    assert not g.penalty_applies(state, "bid-higher")
    assert not g.penalty_applies(state, "turn")
    assert refused(state, "penalty", 1) == "penalty"  # only the player on turn
    state = act(state, "penalty", 0, bid=17)
    assert state["chips"][0] == 13 and state["bank"] == 31
    assert state["auction"]["turn"] == 0  # the same player bids again or passes
    assert g.describe(None, {}, state) == [
        "Player 1 paid a 1-chip fine to the bank for an illegal bid."
    ]
    assert refused(state, "waive", 0) == "host"
    assert refused(state, "waive", 1, host=True) == "waive"
    state = act(state, "waive", 0, host=True)
    assert state["chips"][0] == 14 and state["bank"] == 30
    assert state["penalties"][-1]["waived"] is True
    assert refused(state, "waive", 0, host=True) == "waive"  # nothing left to waive
    assert g.total_chips(state) == 65


def fined_bid(state, seat, amount):
    """A refused bid as the table applies it: the refusal, then its 1-chip fine (the web
    layer's follow-up)."""
    assert refused(state, "bid", seat, amount=amount) == "bid-digit"
    return act(state, "penalty", seat, bid=amount)


def test_the_same_illegal_bid_again_is_a_second_tap_not_a_second_fine():
    state = round_three_state()  # seat 0 on turn, owns a 7; chips [14, 16, 5], bank 30
    assert g.just_fined_bid(state, 0) is None
    state = fined_bid(state, 0, 17)  # 14 - 1 = 13, bank 31
    assert state["chips"][0] == 13 and state["bank"] == 31
    assert g.just_fined_bid(state, 0) == 17
    assert g.just_fined_bid(state, 1) is None  # only the fined seat, and it is on turn
    # The same 17 again: refused under its own rule, and the follow-up would not fine it.
    assert refused(state, "bid", 0, amount=17) == "penalty-again"
    assert not g.penalty_applies(state, "penalty-again")
    assert refused(state, "bid", 0, amount="17") == "penalty-again"  # digits as typed
    assert state["chips"][0] == 13 and state["bank"] == 31
    # Another illegal bid is a new call: refused under the digit rule, fined (13 - 1 = 12).
    state = fined_bid(state, 0, 27)
    assert state["chips"][0] == 12 and g.just_fined_bid(state, 0) == 27
    assert refused(state, "bid", 0, amount=17) == "bid-digit"  # 17 was not the newest fine
    # The player says it again on purpose: the digit rule, so another fine (12 - 1 = 11).
    with pytest.raises(RuleError) as err:
        g.apply(state, {"type": "bid", "seat": 0, "host": False, "amount": 27, "again": True})
    assert err.value.rule == "bid-digit"
    state = act(state, "penalty", 0, bid=27)
    assert state["chips"][0] == 11 and state["bank"] == 33
    assert g.total_chips(state) == 65
    # A legal bid is a bid as always (again or not); the auction moved, so nothing is "just
    # fined" any more.
    state = act(state, "bid", 0, amount=20, again=True)
    assert state["auction"]["high"] == 20 and state["auction"]["turn"] == 1
    assert g.just_fined_bid(state, 0) is None


def test_a_fine_is_no_longer_just_fined_once_it_is_waived_or_the_auction_moved():
    state = fined_bid(round_three_state(), 0, 17)
    waived = act(state, "waive", None, host=True, player=0)
    assert g.just_fined_bid(waived, 0) is None
    assert refused(waived, "bid", 0, amount=17) == "bid-digit"
    # The player passes; when the turn comes back round, 17 is a new illegal call.
    state = act(state, "pass", 0)
    assert g.just_fined_bid(state, 0) is None
    # Without fines nothing is ever "just fined": the digit rule refuses as always.
    friendly = act(round_three_state(), "fines", None, host=True, on=False)
    assert refused(friendly, "bid", 0, amount=17) == "bid-digit"
    assert g.just_fined_bid(friendly, 0) is None


def test_fine_with_no_chip_pays_nothing():
    state = start()
    state["chips"], state["bank"] = [0, 10, 10], 45
    state = reveal(state, "nuba4")
    state = act(state, "penalty", 0)
    assert state["chips"][0] == 0 and state["bank"] == 45
    assert state["penalties"][-1]["paid"] == 0
    assert refused(state, "waive", 0, host=True) == "waive"


def test_friendly_table_plays_without_fines():
    state = reveal(start(penalty=False), "nuba4")
    assert not g.penalty_applies(state, "bid-digit")
    assert refused(state, "penalty", 0) == "penalty"


def test_waive_needs_a_chip_in_the_bank():
    state = reveal(start(), "nuba4")
    state = act(state, "penalty", 0)
    state["bank"], state["chips"][1] = 0, state["chips"][1] + 26  # the bank ran dry meanwhile
    assert refused(state, "waive", 0, host=True) == "waive"


# ---------------------------------------------------------------- Don


def don_round_two():
    state = reveal(start("don"), "nuba4")
    state = act(state, "bid", 0, amount=3)
    state = act(state, "pass", 1)  # Don: no pass bonus
    assert state["chips"][1] == 12
    state = act(state, "pass", 2)
    # seat 0 pays 3 -> 9; nobody else owns a 3: seats 1 and 2 split 3 -> 1 each, 1 into the pot.
    assert state["chips"] == [9, 13, 13] and state["pot"] == 1
    return state


def test_don_sale_pays_the_seller():
    state = don_round_two()
    assert state["start"] == 0 and state["round"] == 2
    assert g.view(state, 0)["me"]["may_sell"]
    state = act(state, "sell", 0, tribe="nuba", digit=4)
    assert state["phase"] == "auction" and state["auction"]["kind"] == "sale"
    assert state["auction"]["turn"] == 1  # the seller's left begins; the seller does not bid
    state = act(state, "bid", 1, amount=5)
    state = act(state, "pass", 2)
    # seat 1 pays 5 to the seller: [14, 8, 13]; the pot (1) is untouched; 35 + 1 = 36
    assert state["chips"] == [14, 8, 13] and state["pot"] == 1
    assert state["cards"][1] == [card("nuba4")] and state["cards"][0] == []
    assert state["phase"] == "reveal" and state["round"] == 2 and state["start"] == 0
    assert g.view(state, None)["payout_line"] == "Player 2 paid 5 to Player 1 for Nuba 4."
    assert refused(state, "sell", 0, tribe="nuba", digit=4) == "sale"  # once a round
    assert refused(state, "sell", 2, tribe="nuba", digit=4) == "card-owned"
    state = reveal(state, "tonga5", "bantu6")
    assert refused(state, "sell", 1, tribe="nuba", digit=4) == "phase"
    state = act(state, "bid", 0, amount=5)
    state = act(state, "bid", 1, amount=6)
    state = act(state, "pass", 2)
    state = act(state, "pass", 0)
    # seat 1 pays 6 -> 2; pool 6 + pot 1 = 7; nobody else owns a 6: 7 // 2 = 3 each, pot 1.
    assert state["chips"] == [17, 2, 16] and state["pot"] == 1
    assert g.total_chips(state) == 36
    assert g.view(state, None)["payout_line"] == (
        "Player 2 paid 6, plus 1 from the pot: Player 1 3, Player 3 3, 1 in the pot"
    )


def test_don_sale_not_before_cards_and_not_in_abacus():
    state = reveal(don_round_two(), "tonga5")
    assert refused(state, "sell", 0, tribe="nuba", digit=4) == "sale"
    abacus = play_to_round_three()
    assert refused(abacus, "sell", 2, tribe="nuba", digit=4) == "sale"


def test_don_unsold_card_stays_and_failed_buyer_drops_out():
    state = act(don_round_two(), "sell", 0, tribe="nuba", digit=4)
    state = act(state, "bid", 1, amount=30)  # seat 1 has 13 chips and no card
    state = act(state, "pass", 2)
    # seat 1 cannot pay: drops out; the sale restarts with seat 2, who passes -> nobody bought it
    assert state["phase"] == "auction" and state["auction"]["turn"] == 2
    state = act(state, "pass", 2)
    assert state["cards"][0] == [card("nuba4")]
    assert state["chips"] == [9, 13, 13] and state["phase"] == "reveal"
    assert "Nobody bought it: Player 1 keeps Nuba 4." in g.describe(None, {}, state)


def test_don_fine_goes_to_the_pot_and_is_shared_next():
    state = reveal(start("don"), "nuba4")
    state = act(state, "penalty", 0)
    assert state["chips"][0] == 11 and state["pot"] == 1
    state = act(state, "bid", 0, amount=3)
    state = act(state, "pass", 1)
    state = act(state, "pass", 2)
    # pool 3 + 1 = 4, nobody else owns a 3: 2 each, pot 0
    assert state["chips"] == [8, 14, 14] and state["pot"] == 0
    assert g.total_chips(state) == 36


def test_don_most_matching_cards_in_play():
    state = start("don")
    state["cards"] = [[], [card("nuba5"), card("tonga5")], [card("bantu5")]]
    state = reveal(state, "massai1")
    state = act(state, "bid", 0, amount=5)
    state = act(state, "pass", 1)
    state = act(state, "pass", 2)
    # seat 1 owns two 5s, seat 2 one: seat 1 takes all 5
    assert state["chips"] == [7, 17, 12] and state["pot"] == 0


# ---------------------------------------------------------------- views


def chip_keys(value, path=""):
    """Every path in a view where a 'chips' key appears."""
    found = []
    if isinstance(value, dict):
        for k, v in value.items():
            if k == "chips":
                found.append(f"{path}.{k}")
            found += chip_keys(v, f"{path}.{k}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            found += chip_keys(v, f"{path}[{i}]")
    return found


def test_chips_are_private():
    state = round_three_state()  # chips [14, 16, 5]
    table = g.view(state, None)
    assert chip_keys(table) == [] and table["me"] is None
    assert table["bank"] == 30 and table["pot"] is None
    phone = g.view(state, 1)
    assert chip_keys(phone) == [".me.chips"] and phone["me"]["chips"] == 16
    shown = g.view(state, None, reveal=True)
    assert [s["chips"] for s in shown["seats"]] == [14, 16, 5]
    json.dumps(table), json.dumps(phone)


def test_table_view_shows_the_auction():
    state = act(round_three_state(), "bid", 0, amount=5)
    table = g.view(state, None)
    assert table["round"] == 3 and table["lot_size"] == 3 and table["start"] == 0
    assert table["lot"] == [card("nuba0"), card("massai2"), card("samburu3")]
    assert table["auction"]["high"] == 5 and table["auction"]["high_seat"] == 0
    assert table["auction"]["turn"] == 1 and table["to_act"] == 1
    assert table["seats"][0]["cards"] == {"tonga": [1], "bantu": [7]}
    assert table["seats"][0]["forbidden_digits"] == [1, 7]
    assert table["out"] == [card("nuba4")]
    assert table["cards_left"] == 30 - 6
    assert table["waiting_for"] == "Player 2 bids or passes."


def test_phone_view_on_turn():
    state = act(round_three_state(), "bid", 0, amount=5)
    me = g.view(state, 1)["me"]
    assert me["my_turn"] and me["may_bid"] and me["min_bid"] == 6
    assert me["forbidden_digits"] == [] and me["legal_bids"][:3] == [6, 7, 8]
    assert g.bid_warning(state, 1, 17) is not None  # seat 1 has 16 chips
    assert g.bid_warning(state, 1, 16) is None
    other = g.view(state, 0)["me"]
    assert not other["my_turn"] and other["min_bid"] is None and other["forbidden_digits"] == [1, 7]


def test_view_refuses_unknown_seat():
    with pytest.raises(RuleError):
        g.view(start(), 3)


# ---------------------------------------------------------------- a complete game


def test_complete_game_where_nobody_ever_bids():
    state = start()
    deck = iter(DECK)
    for round_number in range(1, 16):
        state = reveal(state, *[next(deck) for _ in range(g.lot_size(round_number))])
        for seat in (0, 1, 2):
            before = state
            state = act(state, "pass", seat)
            if round_number == 6 and seat == 2:
                # the bank is down to 1: seat 2 gets just that
                assert state["chips"][2] == 21
                assert g.describe(before, {}, state)[0] == (
                    "Player 3 passes at once; the bank has only 1 chip to give."
                )
            if round_number == 7 and seat == 0:
                # the bank is empty: the line says so, not "only 0 chips to give"
                assert state["bank"] == 0 and state["chips"][0] == 22
                assert g.describe(before, {}, state)[0] == (
                    "Player 1 passes at once, but the bank is empty: no chips to take."
                )
        if round_number < 15:
            assert g.result(state) is None and state["phase"] == "reveal"
    # rounds 1-5 pay 6 each (bank 35 -> 5); round 6 pays 2, 2, 1; then the bank is empty.
    assert state["chips"] == [22, 22, 21] and state["bank"] == 0
    assert state["phase"] == "over" and len(state["cards"][0]) == 30
    res = g.result(state)
    # seat 0 owns all 30 cards: 6 tribes x 15 = 90, tied most chips +3 -> 93; seat 1: 3; seat 2: 0
    assert [(r["player"], r["total"]) for r in res["players"]] == [(0, 93), (1, 3), (2, 0)]
    assert res["chip_bonus_to"] == [0, 1] and res["tie_break"] == "points"
    assert res["winners"] == [0]
    end_view = g.view(state, None)  # at the end every chip count is shown
    assert [row["chips"] for row in end_view["seats"]] == [22, 22, 21]
    assert refused(state, "card", tribe="nuba", digit=1) == "game-over"
    assert refused(state, "fines", None, host=True, on=False) == "game-over"


# ---------------------------------------------------------------- history and undo


def test_describe_lines():
    state = start()
    after = act(state, "card", tribe="nuba", digit=4)
    lines = g.describe(state, {"type": "card"}, after)
    assert lines == ["Round 1: Nuba 4 turned up.", "The auction opens: Player 1 bids first."]
    assert all(isinstance(line, Msg) for line in lines)
    assert lines[0].params["card"].params["tribe"].msgid == "Nuba"
    state = act(act(after, "bid", 0, amount=3), "pass", 1)
    final = act(state, "pass", 2)
    lines = g.describe(state, {"type": "pass"}, final)
    assert lines == [
        "Player 3 passes at once and takes 2 chips from the bank.",
        "Player 1 won with 3.",
        "Player 1 paid 3: Player 2 1, Player 3 1, 1 to the bank",
        "Round 2: a lot of 2 cards; Player 1 starts.",
    ]
    for line in lines:  # history lines survive a JSON round trip
        assert Msg.from_json(json.loads(json.dumps(line.to_json()))) == line


def test_seat_may_undo_what_it_entered_but_not_a_fine_nor_a_shown_secret():
    """The one undo policy (companion.games.base.Rules.seat_may_undo) and Serengeti's exceptions:
    a fine (the rules' answer, refunded only by the host's waive), the move that showed the
    winner cannot pay, the move that ended the game (every chip count shows); a host action."""
    may = g.GAME.seat_may_undo
    state = reveal(start(), "nuba4")
    bid = {"type": "bid", "seat": 0, "amount": 3}
    after = g.apply(state, bid)
    assert may(state, bid, after)
    after2 = g.apply(after, {"type": "pass", "seat": 1})
    final = g.apply(after2, {"type": "pass", "seat": 2})
    assert final["phase"] == "reveal"  # the auction settled: nothing private shown
    assert may(after2, {"type": "pass", "seat": 2}, final)
    entered = g.apply(start(), {"type": "card", "seat": None, "tribe": "nuba", "digit": 4})
    assert may(start(), {"type": "card"}, entered)
    fined = g.apply(state, {"type": "penalty", "seat": 0})
    assert not may(state, {"type": "penalty", "seat": 0}, fined)
    waived = g.apply(fined, {"type": "waive", "player": 0, "seat": None, "host": True})
    assert not may(fined, {"type": "waive", "player": 0, "seat": None, "host": True}, waived)
    assert not may(after2, {"type": "pass", "seat": 2}, {**final, "phase": "discard"})
    assert not may(after2, {"type": "pass", "seat": 2}, {**final, "phase": "over"})


# ---------------------------------------------------------------- host switches, pass bonus, JSON


def test_host_waives_from_the_table_view_by_naming_the_player():
    state = reveal(start(), "nuba4")
    state = act(state, "bid", 0, amount=3)
    assert refused(state, "bid", 1, amount=3) == "bid-higher"
    state = act(state, "pass", 1)
    state = reveal(act(state, "pass", 2), "tonga4", "bantu1")  # seat 0 owns nuba 4, starts
    assert refused(state, "bid", 0, amount=14) == "bid-digit"
    state = act(state, "penalty", 0, bid=14)
    chips = state["chips"][0]
    assert refused(state, "waive", None, host=True, player=5) == "seat"
    assert refused(state, "waive", None, host=False, player=0) == "host"
    state = act(state, "waive", None, host=True, player=0)
    assert state["chips"][0] == chips + 1 and state["penalties"][-1]["waived"]
    assert g.total_chips(state) == 65


def test_host_switches_fines_off_and_on():
    state = reveal(start(), "nuba4")
    assert refused(state, "fines", 0, on=False) == "host"
    assert refused(state, "fines", None, host=True, on="no") == "waive"
    assert refused(state, "fines", None, host=True, on=True) == "waive"  # already on
    state = act(state, "fines", None, host=True, on=False)
    assert not state["penalty_on"] and not g.penalty_applies(state, "bid-digit")
    assert g.describe(None, {}, state) == ["The host switched fines for illegal bids off."]
    assert refused(state, "penalty", 0) == "penalty"
    state = act(state, "fines", None, host=True, on=True)
    assert g.penalty_applies(state, "bid-digit")


def test_host_picks_the_start_player_before_the_first_card_only():
    state = start()
    assert refused(state, "start", 1, player=2) == "host"
    assert refused(state, "start", None, host=True, player=3) == "seat"
    assert refused(state, "start", None, host=True, player="x") == "seat"
    state = act(state, "start", None, host=True, player=2)
    assert state["start"] == 2
    assert g.describe(None, {}, state) == ["Player 3 starts round 1."]
    state = reveal(state, "nuba4")
    assert state["auction"]["turn"] == 2
    assert refused(state, "start", None, host=True, player=0) == "setup"


def test_pass_bonus_due_is_what_a_pass_earns():
    state = reveal(start(), "nuba4")
    assert g.pass_bonus_due(state, 0) == 2 and g.pass_bonus_due(state, 1) == 0  # not on turn
    assert g.view(state, 0)["me"]["pass_bonus"] == 2
    state = act(state, "bid", 0, amount=3)
    state = act(state, "bid", 1, amount=5)
    state = act(state, "pass", 2)
    assert g.pass_bonus_due(state, 0) == 0  # seat 0 has bid
    state["bank"] = 1
    state = act(state, "bid", 0, amount=6)
    assert g.pass_bonus_due(state, 1) == 0
    don = reveal(start("don"), "nuba4")
    assert g.pass_bonus_due(don, 0) == 0
    short = reveal(start(), "nuba4")
    short["bank"], short["chips"][1] = 1, short["chips"][1] + 34
    assert g.pass_bonus_due(short, 0) == 1


def test_state_survives_json_and_its_messages_keep_their_msgids():
    state = reveal(start(), "nuba4")
    state = act(state, "bid", 0, amount=3)
    state = act(state, "pass", 1)
    state = act(state, "pass", 2)  # payout line exists now
    stored = json.loads(json.dumps(state))
    assert stored == state
    line = g.view(stored, None)["payout_line"]
    assert isinstance(line, Msg) and line.msgid == "%(winner)s paid %(bid)s: %(shares)s"
    again = Msg.from_json(json.loads(json.dumps(line.to_json())))
    assert again.msgid == line.msgid and str(again) == str(line)
    for text in g.describe(None, {}, stored):
        assert isinstance(text, Msg) and Msg.from_json(text.to_json()).msgid == text.msgid

    def no_msg(value):
        if isinstance(value, dict):
            return all(no_msg(v) for v in value.values())
        if isinstance(value, list):
            return all(no_msg(v) for v in value)
        return not isinstance(value, Msg)

    assert no_msg(state)


def test_a_fined_player_who_then_passes_gets_no_pass_bonus():
    # Rule text (Abacus): the 2-chip bonus is for a player who declares no price at all, that is,
    # who passes at once when their turn comes. A player who called out an illegal bid did declare
    # one (the text voids it and makes them bid again or pass), so passing afterwards is not
    # "passing at once": no bonus.
    state = round_three_state()  # seat 0 on turn, owns 1 and 7; chips [14, 16, 5], bank 30
    assert g.pass_bonus_due(state, 0) == 2
    state = act(state, "penalty", 0, bid=17)  # 14 - 1 = 13, bank 31
    assert g.pass_bonus_due(state, 0) == 0
    assert g.view(state, 0)["me"]["pass_bonus"] == 0
    state = act(state, "pass", 0)  # no bonus: still 13, bank still 31
    assert state["chips"][0] == 13 and state["bank"] == 31
    assert g.describe(None, {}, state) == ["Player 1 passed."]
    # The next player passes at once and does take the bonus: 16 + 2 = 18, bank 29.
    state = act(state, "pass", 1)
    assert state["chips"][1] == 18 and state["bank"] == 29
    assert g.total_chips(state) == 65


def test_a_waived_fine_does_not_bring_the_pass_bonus_back():
    # Waiving gives the chip back; the illegal bid was still called out, so no bonus either.
    state = round_three_state()
    state = act(state, "penalty", 0, bid=17)
    state = act(state, "waive", None, host=True, player=0)  # back to 14, bank 30
    state = act(state, "pass", 0)
    assert state["chips"][0] == 14 and state["bank"] == 30

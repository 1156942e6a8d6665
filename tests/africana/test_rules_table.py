"""Africana at the table: the coin ledger, the turn tracker, the end of the game, sheets, views."""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.africana import random_play as legal
from companion.games.africana import rules as af
from companion.games.base import Msg, RuleError
from tests.africana.helpers import sheet
from tests.helpers import examples


def act(state, seat, type_, host=False, **fields):
    """apply() with an action for `seat` (None: the whole table), built as the web layer does."""
    return af.apply(state, dict(fields, type=type_, seat=seat, host=host))


def refused(state, seat, type_, host=False, **fields) -> RuleError:
    """The refusal of an action (which must leave the state as it was), to check its rule."""
    before = copy.deepcopy(state)
    with pytest.raises(RuleError) as err:
        act(state, seat, type_, host, **fields)
    assert state == before, "a refused action must not change the state"
    assert err.value.rule in af.RULES
    return err.value


def coins(state):
    return [record["coins"] for record in state["seats"]]


def end(state, seat, **fields):
    return act(state, seat, "end_turn", **fields)


def draw_turn(state):
    seat = state["turn"]["seat"]
    return end(act(state, seat, "choose_action", action="draw"), seat)


def give(state, seat, amount):
    return act(state, seat, "correct_coins", host=True, amount=amount)


# ---------------------------------------------------------------------------------------------
# Set-up
# ---------------------------------------------------------------------------------------------


def test_new_game_pays_starting_coins_and_deals_the_row():
    state = af.new({}, 4)
    assert coins(state) == [2, 2, 3, 4]
    assert [r["ledger"][0]["what"] for r in state["seats"]] == ["start"] * 4
    assert state["turn"]["seat"] == 0 and state["turn"]["number"] == 1
    assert all(card is not None for card in state["row"]) and len(state["row"]) == 5
    assert state["deck"] == 25
    json.dumps(state)  # plain JSON-able data


def test_each_seat_sees_its_company_and_what_it_receives():
    state = af.new({}, 3)
    for seat, (name, start, money) in enumerate(
        [("Italy", "Napoli", 2), ("France", "Cape Town", 2), ("Germany", "Lagos", 3)]
    ):
        seen = af.view(state, seat)
        assert (seen["company"]["name"], seen["company"]["start"], seen["company"]["coins"]) == (
            name,
            start,
            money,
        )
        assert seen["setup"]["c_cards_removed"] == 7
        assert len(seen["setup"]["receives"]) == 4


# ---------------------------------------------------------------------------------------------
# The ledger
# ---------------------------------------------------------------------------------------------


def test_buying_an_adventure_costs_five_and_chooses_the_buy_action():
    state = give(af.new({}, 3), 0, 10)  # Italy: 2 + 10 = 12 silver
    state = act(state, 0, "buy_adventure")
    assert state["turn"]["action"] == "buy"
    assert coins(state)[0] == 7
    assert state["seats"][0]["adventures_open"] == 1
    entry = state["seats"][0]["ledger"][-1]
    assert (entry["what"], entry["amount"], entry["balance"]) == ("buy_adventure", -5, 7)
    state = act(state, 0, "buy_adventure")
    assert coins(state)[0] == 2
    err = refused(state, 0, "buy_adventure")
    assert err.rule == "no-debt"
    assert "1 card costs 5 silver" in str(err) and "you have 2 silver" in str(err)


def test_buying_several_at_once_says_how_many_are_affordable():
    state = give(af.new({}, 2), 0, 12)  # 14 silver
    err = refused(state, 0, "buy_adventure", cards=3)
    assert "3 cards cost 15 silver" in str(err) and "enough for 2)" in str(err)
    state = act(state, 0, "buy_adventure", cards=2)
    assert coins(state)[0] == 4 and state["seats"][0]["adventures_open"] == 2


def test_page_turns_first_free_then_one_each_within_the_turn():
    state = af.new({}, 2)  # Italy has 2 silver
    state = act(state, 0, "turn_pages", pages=1)
    assert coins(state)[0] == 2  # the first page is free
    state = act(state, 0, "turn_pages", pages=2)
    assert coins(state)[0] == 0  # two more pages: 1 each
    err = refused(state, 0, "turn_pages", pages=1)
    assert err.rule == "no-debt"
    # next turn (France) starts with a free page again
    state = end(state, 0)
    assert state["turn"]["pages"] == 0
    state = act(state, 1, "turn_pages", pages=3)  # 1 free + 2 paid
    assert coins(state)[1] == 0


def test_page_turns_refusal_says_how_many_pages_are_affordable():
    state = af.new({}, 2)  # 2 silver: the free page + 2 paid = 3 pages
    err = refused(state, 0, "turn_pages", pages=4)
    assert "Turning 4 pages costs 3 silver" in str(err) and "enough for 3)" in str(err)


def test_page_cost_function():
    assert af.page_cost(0, 1) == 0
    assert af.page_cost(0, 5) == 4
    assert af.page_cost(1, 1) == 1
    assert af.page_cost(3, 2) == 2


def test_pages_and_buying_in_any_order():
    state = give(af.new({}, 2), 0, 8)  # 10 silver
    state = act(state, 0, "turn_pages", pages=2)  # 1 paid -> 9
    state = act(state, 0, "buy_adventure")  # -> 4
    state = act(state, 0, "turn_pages", pages=1)  # -> 3
    assert coins(state)[0] == 3


def test_change_colour_costs_five_each_and_belongs_to_moving():
    state = give(af.new({}, 2), 0, 9)  # 11 silver
    state = act(state, 0, "change_colour", cards=2)
    assert coins(state)[0] == 1 and state["turn"]["action"] == "move"
    err = refused(state, 0, "change_colour")
    assert err.rule == "no-debt" and "enough for 0)" in str(err)
    # buying is another action: refused during a move turn
    err = refused(give(state, 0, 10), 0, "buy_adventure")
    assert err.rule == "one-action"


def test_each_payment_says_its_sum_in_words():
    """Prices from the rule texts: adventure cards and colour changes 5 silver each, the first
    page of a turn free and then 1 silver per page. Worked out by hand: 3 pages then 1 page cost
    2 + 1 silver, 2 cards 10 silver."""
    state = give(af.new({}, 2), 0, 18)  # Italy: 2 + 18 = 20 silver
    state = act(state, 0, "choose_action", action="buy")
    state = act(state, 0, "turn_pages", pages=3)
    state = act(state, 0, "turn_pages", pages=1)
    state = act(state, 0, "buy_adventure", cards=2)
    ledger = af.view(state, 1)["seats"][0]["ledger"]  # the ledgers are public
    assert [line["amount"] for line in ledger] == [2, 18, -2, -1, -10]
    assert [str(line["why"]) if line["why"] else None for line in ledger] == [
        None,  # starting coins: nothing to work out
        None,  # the host's correction: typed
        "3 pages: the first page of a turn is free, the other 2 cost 1 silver each: 2 silver.",
        "1 page at 1 silver (the free page of this turn was turned already): 1 silver.",
        "2 adventure cards at 5 silver each: 10 silver.",
    ]
    state = act(af.new({}, 2), 0, "choose_action", action="buy")
    state = act(state, 0, "turn_pages", pages=1)
    assert str(af.view(state, 0)["seats"][0]["ledger"][-1]["why"]) == (
        "1 page: the first page of a turn is free."
    )
    state = act(give(af.new({}, 2), 0, 8), 0, "choose_action", action="move")
    state = act(state, 0, "change_colour", cards=2)
    assert str(af.view(state, 0)["seats"][0]["ledger"][-1]["why"]) == (
        "2 cards played as another colour at 5 silver each: 10 silver."
    )


def test_join_bonus_markers_and_once_per_expedition():
    state = af.new({}, 2)
    state = act(state, 0, "join_expedition", slot=1, bonus_coins=2)
    assert coins(state)[0] == 4
    assert state["row"][0]["joined"] == [0]
    assert refused(state, 0, "join_expedition", slot=1, bonus_coins=2).rule == "join-expedition"
    for slot in (2, 3, 4):
        state = act(state, 0, "join_expedition", slot=slot, bonus_coins=0)  # card bonus
    assert af.view(state, 0)["seats"][0]["markers_free"] == 0
    err = refused(state, 0, "join_expedition", slot=5, bonus_coins=0)
    assert "All 4 of your markers" in str(err)
    # A space outside the row, or none picked, is refused under the move's own rule (its link
    # explains the row), never as a malformed entry.
    assert refused(state, 0, "join_expedition", slot=6, bonus_coins=0).rule == "join-expedition"
    err = refused(state, 0, "join_expedition", bonus_coins=0)
    assert err.rule == "join-expedition" and "Expedition space" in str(err)
    assert refused(state, 0, "complete_expedition", coins=1, points=1).rule == (
        "complete-expedition"
    )


def test_completing_an_expedition_pays_and_returns_every_marker():
    state = af.new({}, 2)
    state = end(act(state, 0, "join_expedition", slot=3, bonus_coins=1), 0)  # Italy joins 3
    state = act(state, 1, "join_expedition", slot=3, bonus_coins=1)  # France joins 3
    err = refused(state, 1, "complete_expedition", slot=2, coins=3, points=2)
    assert "no marker" in str(err)
    state = act(state, 1, "complete_expedition", slot=3, coins=4, points=5)
    assert coins(state) == [3, 2 + 1 + 4]
    assert state["row"][2] is None
    assert [af.markers_used(state, s) for s in (0, 1)] == [0, 0]  # Italy's marker went home
    assert state["seats"][1]["tally"]["expeditions"] == [5]
    assert (
        refused(state, 1, "complete_expedition", slot=3, coins=4, points=5).rule
        == "complete-expedition"
    )
    # the empty space is refilled at the end of the turn and the deck counts down
    deck = state["deck"]
    state = end(state, 1)
    assert state["row"][2] is not None and state["row"][2]["joined"] == []
    assert state["deck"] == deck - 1
    assert state["last_end"]["filled"] == [3]


def test_completing_adventures_needs_a_bought_card():
    state = give(af.new({}, 2), 0, 8)
    state = end(act(state, 0, "buy_adventure", cards=2), 0)
    state = draw_turn(state)
    assert refused(state, 1, "complete_artifact", kind="A", coins=2, points=3).rule == "turn-order"
    state = act(state, 0, "complete_artifact", kind="B", coins=3, points=4)
    assert coins(state)[0] == 0 + 3
    state = act(state, 0, "complete_guide")
    assert state["seats"][0]["adventures_open"] == 0
    assert state["seats"][0]["tally"] == {"expeditions": [], "artifacts": [["B", 4]], "guides": 1}
    err = refused(state, 0, "complete_guide")
    assert err.rule == "complete-adventure"
    assert (
        refused(state, 0, "complete_artifact", kind="Z", coins=1, points=1).rule
        == "artifact-limits"
    )


def test_only_four_artifacts_of_a_kind_can_be_completed_at_the_table():
    state = give(af.new({}, 2), 0, 100)
    # 5 unfinished adventures may only stay over the turn's end by the host's override
    state = act(act(state, 0, "buy_adventure", cards=5), 0, "end_turn", host=True, override=True)
    state = draw_turn(state)
    for _ in range(4):
        state = act(state, 0, "complete_artifact", kind="C", coins=0, points=1)
    err = refused(state, 0, "complete_artifact", kind="C", coins=0, points=1)
    assert "All 4 artifact cards of kind C" in str(err)


def test_no_more_than_thirty_adventures_can_be_bought():
    state = give(af.new({}, 2), 0, 500)
    state = act(state, 0, "buy_adventure", cards=30)
    assert refused(state, 0, "buy_adventure").rule == "buy-adventure"


@pytest.mark.parametrize(
    "fields",
    [
        {"cards": 0},
        {"cards": -1},
        {"cards": "2"},
        {"cards": True},
        {"cards": 1.0},
    ],
)
def test_bad_numbers_are_refused(fields):
    state = give(af.new({}, 2), 0, 50)
    with pytest.raises(RuleError):
        act(state, 0, "buy_adventure", **fields)


@pytest.mark.parametrize(
    "action",
    [
        {"type": "join_expedition", "seat": 0, "host": False, "slot": 1, "bonus_coins": -2},
        {"type": "complete_expedition", "seat": 0, "host": False, "slot": 1, "coins": 1},
        {"type": "turn_pages", "seat": 0, "host": False},
        {"type": "choose_action", "seat": 0, "host": False, "action": "fly"},
        {"type": "buy_adventure", "seat": 7, "host": False},
        {"type": "buy_adventure", "seat": "0", "host": False},
        {"type": "nonsense", "seat": 0, "host": False},
        {"seat": 0},
        {"type": "rename_kinds", "seat": 0, "names": "ABCDE"},
        {"type": "submit_sheet", "seat": 0, "artifact_cards": "AA"},
        {"type": "submit_sheet", "seat": 0, "artifact_cards": [["A", 1, 2]]},
        {"type": "submit_sheet", "seat": 0, "artifact_cards": [5]},
    ],
)
def test_malformed_actions_raise_only_rule_errors(action):
    state = af.new({}, 2)
    before = copy.deepcopy(state)
    with pytest.raises(RuleError):
        af.apply(state, action)
    assert state == before


def test_unknown_or_malformed_entries_carry_the_shared_rule_id():
    """The shared dispatcher (companion.games.base.Moves) refuses what no handler takes, and a
    host flag that is not true or false, with rule "action", which the rules page explains."""
    state = af.new({}, 2)
    for action in (
        {"type": "nonsense", "seat": 0, "host": False},
        {"seat": 0},
        ["buy_adventure"],
        {"type": "buy_adventure", "seat": 0, "host": "yes"},
    ):
        with pytest.raises(RuleError) as err:
            af.apply(state, action)
        assert err.value.rule == "action" and err.value.rule in af.RULES
    # A play entry once play is over: "game-over", with the game's own sentence.
    over = act(state, None, "finish_game", host=True)
    err = refused(over, 0, "choose_action", action="draw")
    assert err.rule == "game-over"
    assert str(err) == "The game is over: only scoring sheets can be entered now."


def test_apply_refuses_a_non_dict_action():
    with pytest.raises(RuleError):
        af.apply(af.new({}, 2), ["buy_adventure"])


def test_host_corrections():
    state = af.new({}, 2)
    assert refused(state, 0, "correct_coins", amount=3).rule == "host-only"
    state = give(state, 1, 3)
    assert coins(state)[1] == 5
    assert refused(state, 1, "correct_coins", host=True, amount=-6).rule == "no-debt"
    state = give(state, 1, -5)
    assert coins(state)[1] == 0


# ---------------------------------------------------------------------------------------------
# The turn tracker
# ---------------------------------------------------------------------------------------------


def test_only_the_current_player_acts():
    state = af.new({}, 3)
    err = refused(state, 1, "choose_action", action="draw")
    assert err.rule == "turn-order"
    err = refused(state, 2, "end_turn")
    assert err.rule == "turn-order"
    # the host sends actions for the current seat, not for another one
    assert refused(state, 1, "choose_action", host=True, action="draw").rule == "turn-order"


def test_a_turn_needs_exactly_one_action():
    state = af.new({}, 3)
    assert refused(state, 0, "end_turn").rule == "one-action"
    state = act(state, 0, "choose_action", action="draw")
    assert refused(state, 0, "choose_action", action="draw").rule == "one-action"
    state = act(state, 0, "choose_action", action="buy")  # nothing entered yet: may change
    state = act(state, 0, "turn_pages", pages=1)
    assert refused(state, 0, "choose_action", action="move").rule == "one-action"
    assert refused(state, 0, "join_expedition", slot=1, bonus_coins=0).rule == "one-action"
    state = end(state, 0)
    assert state["turn"] == {"seat": 1, "number": 2, "action": None, "pages": 0, "entries": 0}


def test_turns_go_clockwise_and_wrap():
    state = af.new({}, 3)
    seen = []
    for _ in range(7):
        seen.append(state["turn"]["seat"])
        state = draw_turn(state)
    assert seen == [0, 1, 2, 0, 1, 2, 0]
    assert af.view(state, None)["turn"]["round"] == 3


def test_end_of_turn_reminders():
    state = give(af.new({}, 2), 0, 20)
    state = act(state, 0, "buy_adventure", cards=4)
    checks = af.view(state, 0)["checks"]
    assert any("more than 5 cards" in c for c in checks)
    assert any("4 unfinished adventures: discard 1" in c for c in checks)
    after = end(state, 0, discarded_adventures=1)
    assert after["seats"][0]["adventures_open"] == 3
    err = refused(state, 0, "end_turn", discarded_adventures=5)
    assert err.rule == "adventure-limit" and "at most 4" in str(err)


def test_the_hand_limit_stays_a_reminder_since_the_app_does_not_see_hands():
    """Rule "end-of-turn": more than 5 cards in hand is discarded by the players; the app only
    reminds, and a turn with nothing entered about the hand ends."""
    state = act(af.new({}, 2), 0, "choose_action", action="draw")
    assert any("more than 5 cards" in c for c in af.view(state, 0)["checks"])
    assert end(state, 0)["turn"]["seat"] == 1


def five_open():
    """Italy, in its first turn, holding 5 unfinished adventures (25 silver spent, 5 left)."""
    state = give(af.new({}, 2), 0, 28)
    return act(state, 0, "buy_adventure", cards=5)


def test_a_turn_cannot_end_with_more_than_3_unfinished_adventures():
    """Both rule texts: at the end of a turn a player with more than 3 unfinished adventures
    discards the extra ones. The app counts them from the entries, so it refuses to end the turn
    until the discards entered bring the count to 3, and says how many to discard."""
    state = five_open()
    err = refused(state, 0, "end_turn")
    assert err.rule == "adventure-limit"
    assert str(err) == (
        "You have 5 unfinished adventures, and at most 3 may stay at the end "
        "of a turn: discard 2 (they leave the game) to end the turn."
    )
    err = refused(state, 0, "end_turn", discarded_adventures=1)
    assert err.rule == "adventure-limit"
    assert str(err) == (
        "You have 5 unfinished adventures, and at most 3 may stay at the end "
        "of a turn: discard 2 (they leave the game), not 1."
    )
    # The host too: ending the turn plainly is refused, the override has to be asked for.
    assert refused(state, 0, "end_turn", host=True).rule == "adventure-limit"
    after = end(state, 0, discarded_adventures=2)
    assert after["seats"][0]["adventures_open"] == 3 and after["turn"]["seat"] == 1
    lines = [str(m) for m in af.describe(state, {"type": "end_turn", "seat": 0}, after)]
    assert "Player 1 discarded 2 unfinished adventures." in lines
    assert not any("limit" in line for line in lines)
    # During the turn more than 3 are fine: the limit is checked only at its end.
    assert act(state, 0, "buy_adventure")["seats"][0]["adventures_open"] == 6


def test_the_host_can_end_a_turn_over_the_adventure_limit_and_the_history_says_so():
    """The count comes from entries, which can miss one (a completion nobody entered): the host
    can end such a turn anyway. The override is explicit and written in the history; a seat
    cannot ask for it."""
    state = five_open()
    err = refused(state, 0, "end_turn", override=True)
    assert err.rule == "host-only" and "discard 2" in str(err)
    after = act(state, 0, "end_turn", host=True, override=True, discarded_adventures=1)
    assert after["turn"]["seat"] == 1 and after["seats"][0]["adventures_open"] == 4
    assert after["last_end"]["override"] is True
    action = {"type": "end_turn", "seat": 0, "host": True, "override": True}
    lines = [str(m) for m in af.describe(state, action, after)]
    assert lines[:3] == [
        "Player 1 ended the turn.",
        "Player 1 discarded 1 unfinished adventure.",
        "The host ended the turn of Player 1 with 4 unfinished adventures (limit 3).",
    ]
    assert af.GAME.seat_may_undo(state, action, after)  # entered for the seat: its own to undo
    # An override where nothing is over the limit is just an ordinary end of the turn.
    calm = act(af.new({}, 2), 0, "choose_action", action="draw")
    after = act(calm, 0, "end_turn", host=True, override=True)
    assert after["last_end"]["override"] is False
    assert not any("limit" in str(m) for m in af.describe(calm, action, after))


def test_refill_reminder_counts_the_deck():
    state = af.new({}, 2)
    state = act(state, 0, "join_expedition", slot=2, bonus_coins=0)
    state = act(state, 0, "complete_expedition", slot=2, coins=0, points=1)
    checks = af.view(state, None)["checks"]
    # one new card, 19 in the deck (24 - 5 dealt); no "1 new cards"
    assert any("(new: 1; in the deck: 19)" in c for c in checks)


def test_refill_row_function():
    row = [None, {"card": 2, "joined": [1]}, None, None, {"card": 5, "joined": []}]
    new_row, deck, filled, gap = af.refill_row(row, 2)
    assert filled == [0, 2] and deck == 0 and gap is True
    assert new_row[3] is None and row[0] is None  # input untouched
    _, deck, filled, gap = af.refill_row(row, 5)
    assert filled == [0, 2, 3] and deck == 2 and gap is False


# ---------------------------------------------------------------------------------------------
# The end of the game
# ---------------------------------------------------------------------------------------------


def expedition_turn(state):
    """The current player joins and completes the expedition in space 1, then ends the turn."""
    seat = state["turn"]["seat"]
    state = act(state, seat, "join_expedition", slot=1, bonus_coins=0)
    state = act(state, seat, "complete_expedition", slot=1, coins=1, points=2)
    return end(state, seat)


def turns_taken(state_history):
    return [sum(1 for s in state_history if s == seat) for seat in range(3)]


@pytest.mark.parametrize(
    "lead_in, trigger_seat, extra_turns",
    [
        (0, 1, 1),  # trigger in France's turn: Germany still plays, then the game ends
        (1, 2, 0),  # trigger in Germany's (the last seat's) turn: the round is complete, game over
        (2, 0, 2),  # trigger in Italy's turn: France and Germany still play
    ],
)
def test_game_ends_after_the_round_in_which_the_row_cannot_be_refilled(
    lead_in, trigger_seat, extra_turns
):
    state = af.new({}, 3)  # 22 refills
    played = []
    for _ in range(lead_in):
        played.append(state["turn"]["seat"])
        state = draw_turn(state)
    for _ in range(22):  # each turn empties one space and uses one refill
        played.append(state["turn"]["seat"])
        state = expedition_turn(state)
    assert state["deck"] == 0 and not state["last_round"]  # row full, deck empty: not yet
    assert state["turn"]["seat"] == trigger_seat
    played.append(trigger_seat)
    before = state
    state = expedition_turn(state)
    assert state["last_round"]
    lines = af.describe(before, {"type": "end_turn", "seat": trigger_seat}, state)
    if extra_turns:
        assert any("last round" in line for line in lines)
        assert state["phase"] == "playing"
    for _ in range(extra_turns):
        played.append(state["turn"]["seat"])
        state = draw_turn(state)
    assert state["phase"] == "over" and state["ended_by"] == "deck"
    assert played[-1] == 2  # the player to the right of the start player ends the game
    counts = turns_taken(played)
    assert len(set(counts)) == 1, counts  # everybody had the same number of turns
    assert refused(state, 0, "choose_action", action="draw").rule == "game-over"
    assert af.view(state, None)["checks"] == []


def test_two_players_end_after_the_second_seat():
    state = af.new({}, 2)  # 19 refills
    for _ in range(19):
        state = expedition_turn(state)
    assert state["turn"]["seat"] == 1
    state = expedition_turn(state)  # France is the last seat: the game is over at once
    assert state["phase"] == "over"
    assert state["turn"]["number"] == 20


def test_the_host_can_end_the_game_early():
    state = af.new({}, 2)
    assert refused(state, 0, "finish_game").rule == "host-only"
    state = act(state, None, "finish_game", host=True)
    assert state["phase"] == "over" and state["ended_by"] == "host"
    assert refused(state, None, "finish_game", host=True).rule == "game-over"
    assert refused(state, 0, "correct_coins", host=True, amount=1).rule == "game-over"


# ---------------------------------------------------------------------------------------------
# Scoring sheets, privacy and the result
# ---------------------------------------------------------------------------------------------


def finished(players=3):
    return act(af.new({}, players), None, "finish_game", host=True)


def test_sheets_are_private_until_the_result():
    state = finished()
    state = act(
        state,
        0,
        "submit_sheet",
        **sheet(expedition_points=[4], artifact_cards=[["A", 3]], coins=12),
    )
    assert af.view(state, 0)["seats"][0]["sheet"]["expedition_points"] == [4]
    assert af.view(state, 0)["seats"][0]["score"] == 4 + 3 + 1
    for seat in (1, 2, None):
        seen = af.view(state, seat)
        assert "sheet" not in seen["seats"][0] and "score" not in seen["seats"][0]
        assert seen["seats"][0]["sheet_submitted"] is True
        assert "expedition_points" not in json.dumps(seen["seats"][0], default=str)
    assert af.view(state, None, reveal=True)["seats"][0]["sheet"]["coins"] == 12
    assert af.result(state) is None  # not every seat has a sheet yet


def test_tallies_of_completed_cards_are_private():
    state = give(af.new({}, 2), 0, 10)
    state = end(act(state, 0, "buy_adventure"), 0)
    state = draw_turn(state)
    before = state
    state = act(state, 0, "complete_artifact", kind="D", coins=2, points=7)
    assert af.view(state, 0)["seats"][0]["tally"]["artifacts"] == [["D", 7]]
    assert "tally" not in af.view(state, 1)["seats"][0]
    assert "tally" not in af.view(state, None)["seats"][0]
    line = af.describe(before, {"type": "complete_artifact", "seat": 0}, state)
    assert "7" not in " ".join(line) and "D" not in " ".join(line)
    # the suggestion for the sheet comes from the entries
    assert af.view(state, 0)["seats"][0]["suggested_sheet"]["artifact_cards"] == [["D", 7]]
    assert af.view(state, 0)["seats"][0]["suggested_sheet"]["coins"] == 9


def unfinished_suggested(state, seat=0):
    return af.view(state, seat)["seats"][seat]["suggested_sheet"]["unfinished_artifacts"]


def test_the_suggested_sheet_does_not_count_unfinished_guides_as_artifacts():
    """Rule "other-points": only unfinished ARTIFACT adventures score, 1 each; unfinished guide
    adventures score nothing. A purchase does not say which it is, so the entries cannot tell
    them apart: the suggestion leaves the number to the player instead of guessing, except when
    it is certain."""
    state = give(af.new({}, 2), 0, 8)
    assert unfinished_suggested(state) == 0  # nothing bought: certainly none
    state = end(act(state, 0, "buy_adventure", cards=2), 0)
    assert unfinished_suggested(state) is None  # two guides, two artifacts or one of each
    state = draw_turn(state)
    state = act(state, 0, "complete_guide")
    state = act(state, 0, "complete_artifact", kind="A", coins=0, points=1)
    assert unfinished_suggested(state) == 0  # both completed
    # Once all 10 guide adventures are completed, every unfinished adventure is an artifact.
    state = give(af.new({}, 2), 0, 18)
    state = act(state, 0, "buy_adventure", cards=4)
    state["completed_guides"] = af.GUIDE_ADVENTURES
    assert unfinished_suggested(state) == 3  # 4, but at most 3 stay at the end of a turn
    # Once all 20 artifact adventures are completed, every unfinished adventure is a guide.
    state["completed_guides"] = 0
    state["completed_kinds"] = {key: af.ARTIFACT_COPIES for key in af.KIND_KEYS}
    assert unfinished_suggested(state) == 0


def test_a_sheet_must_say_how_many_unfinished_adventures_are_artifacts_when_the_app_cannot():
    """The app leaves the box empty when it cannot tell guides from artifacts: an empty box is
    then refused with the reason, not scored as 0 behind the player's back."""
    state = give(af.new({}, 2), 0, 8)
    state = act(state, 0, "buy_adventure", cards=2)
    state = act(state, None, "finish_game", host=True)
    err = refused(state, 0, "submit_sheet", **sheet(unfinished_artifacts=None))
    assert err.rule == "other-points"
    assert "2 unfinished adventures" in str(err) and "guide" in str(err)
    assert act(state, 0, "submit_sheet", **sheet(unfinished_artifacts=0))
    assert act(state, 0, "submit_sheet", **sheet(unfinished_artifacts=2))
    # Without unfinished adventures in the app an empty box is 0, as everywhere else.
    assert act(state, 1, "submit_sheet", **sheet(unfinished_artifacts=None))


def test_result_has_breakdowns_grouping_ranking_and_tie_break():
    state = act(finished(), None, "rename_kinds", names=["Mask", "Idol", "Vase", "Drum", "Bow"])
    state = act(
        state,
        0,
        "submit_sheet",
        **sheet(
            expedition_points=[5, 6],
            coins=23,
            movement_cards=3,
            artifact_cards=[
                ["Mask", 2],
                ["Mask", 2],
                ["Mask", 2],
                ["Idol", 1],
                ["Vase", 1],
                ["Drum", 1],
            ],
        ),
    )
    # Italy: 11 + 9 + 16 (Mask Mask + Mask Idol Vase Drum) + 2 + 1 = 39
    state = act(
        state,
        1,
        "submit_sheet",
        **sheet(expedition_points=[20, 15], coins=9, guide_adventures=3, unfinished_artifacts=2),
    )
    # France: 35 - 10 + 0 + 2 = 27
    state = act(state, 2, "submit_sheet", **sheet(expedition_points=[30], coins=95))
    # Germany: 30 + 9 = 39, with 95 silver against Italy's 23: Germany wins on coins
    res = af.result(state)
    totals = [s["total"] for s in res["scores"]]
    assert totals == [39, 27, 39]
    assert res["winners"] == [2] and res["tie_break"] == "coins"
    assert res["order"] == [2, 0, 1]
    assert [s["place"] for s in res["scores"]] == [2, 3, 1]
    italy = res["scores"][0]
    assert sorted(sorted(s["kinds"]) for s in italy["sets"]) == [
        ["Drum", "Idol", "Mask", "Vase"],
        ["Mask", "Mask"],
    ]
    assert [key for key, _, _ in italy["lines"]] == [k for k, _ in af.SCORE_LINES]
    assert italy["guide_penalty"] == 0 and res["scores"][1]["guide_penalty"] == -10
    assert isinstance(res["tie_break_text"], Msg)
    assert res["warnings"] == []
    # everything is visible after the result
    assert af.view(state, 1)["seats"][0]["sheet"]["coins"] == 23


def test_shared_victory():
    state = finished(2)
    for seat in (0, 1):
        state = act(state, seat, "submit_sheet", **sheet(expedition_points=[10], coins=4))
    res = af.result(state)
    assert res["tie_break"] == "shared" and res["winners"] == [0, 1]


def test_sheet_refusals_with_reasons():
    state = finished()
    err = refused(state, 0, "submit_sheet", **sheet(artifact_cards=[["A", 1]] * 5))
    assert err.rule == "artifact-limits" and "5 cards of A" in str(err)
    err = refused(state, 0, "submit_sheet", **sheet(movement_cards=-1))
    assert err.rule == "sheet-values" and "negative" in str(err)
    err = refused(state, 0, "submit_sheet", **sheet(artifact_cards=[["Q", 1]]))
    assert "A, B, C, D and E" in str(err)
    renamed = act(state, 1, "rename_kinds", names=["Mask", "Idol", "Vase", "Drum", "Bow"])
    err = refused(renamed, 0, "submit_sheet", **sheet(artifact_cards=[["Mask", 1]] * 5))
    assert "5 cards of Mask" in str(err)


def test_sheet_may_be_submitted_again_to_correct_it():
    state = finished(2)
    state = act(state, 0, "submit_sheet", **sheet(coins=10))
    state = act(state, 0, "submit_sheet", **sheet(coins=30))
    assert state["seats"][0]["sheet"]["coins"] == 30


def test_kinds_can_be_renamed_once_and_sheets_follow():
    state = finished(2)
    state = act(state, 0, "submit_sheet", **sheet(artifact_cards=[["B", 2], ["B", 2]]))
    state = act(state, None, "rename_kinds", names=[" Mask ", "Idol", "Vase", "Drum", "Bow"])
    assert state["kind_names"] == ["Mask", "Idol", "Vase", "Drum", "Bow"]
    assert af.view(state, 0)["seats"][0]["sheet"]["artifact_cards"] == [["Idol", 2], ["Idol", 2]]
    err = refused(state, None, "rename_kinds", names=list("VWXYZ"))
    assert err.rule == "kind-names" and "once" in str(err)
    # both the letter and the new name choose a kind
    state = act(state, 1, "submit_sheet", **sheet(artifact_cards=[["Mask", 1], ["C", 1]]))
    assert state["seats"][1]["sheet"]["artifact_cards"] == [["A", 1], ["C", 1]]


@pytest.mark.parametrize(
    "names, fragment",
    [
        (["a", "b", "c", "d"], "all five"),
        (["a", "b", "c", "d", " "], "needs a name"),
        (["a", "b", "c", "d", "a"], "same name"),
        (["a", "b", "c", "d", "x" * 21], "at most 20"),
        (["B", "A", "c", "d", "e"], "another kind's letter"),
        (["a", "b", "c", "d", 5], "needs a name"),
    ],
)
def test_bad_kind_names_are_refused(names, fragment):
    err = refused(af.new({}, 2), None, "rename_kinds", names=names)
    assert fragment in str(err)


def test_result_warns_when_sheets_claim_too_many_of_a_kind():
    state = finished(2)
    state = act(state, 0, "submit_sheet", **sheet(artifact_cards=[["A", 1]] * 3))
    state = act(state, 1, "submit_sheet", **sheet(artifact_cards=[["A", 1]] * 2))
    assert any("5 artifact cards of kind A" in w for w in af.result(state)["warnings"])


# ---------------------------------------------------------------------------------------------
# History lines and undo
# ---------------------------------------------------------------------------------------------


def test_describe_speaks_in_messages():
    state = give(af.new({}, 2), 0, 8)
    action = {"type": "buy_adventure", "seat": 0, "host": False}
    after = af.apply(state, action)
    lines = af.describe(state, action, after)
    assert all(isinstance(line, Msg) for line in lines)
    assert lines[0].msgid == "%(seat)s chose to %(action)s."
    assert "bought 1 adventure card for 5 silver (5 silver left)" in lines[1]
    assert af.GAME.seat_may_undo(state, action, after)
    correction = {"type": "correct_coins", "seat": 0, "host": True}
    assert not af.GAME.seat_may_undo(state, correction, state)  # the host's correction


# ---------------------------------------------------------------------------------------------
# Random games through apply(): invariants at every step (the games come from legal.py)
# ---------------------------------------------------------------------------------------------

LEGAL_STEPS = 3000  # actions of a legal game at most (they end by the deck in a few hundred)


@settings(
    max_examples=examples(10, 60),  # 60 in `make test-deep`
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(st.integers(2, 4), st.data())
def test_random_games_keep_every_invariant(players, data):
    rng = data.draw(st.randoms(use_true_random=False))
    state = af.new({}, players)
    turns = [0] * players
    for _ in range(data.draw(st.integers(20, 150))):
        if state["phase"] != "playing":
            break
        action = legal.random_action(state, rng)
        before = copy.deepcopy(state)
        try:
            after = af.apply(state, action)
        except RuleError as err:
            assert err.rule in af.RULES
            assert state == before
            continue
        assert state == before  # apply never mutates its input
        json.loads(json.dumps(after))  # plain JSON-able data
        for line in af.describe(before, action, after):
            assert isinstance(line, Msg)
        if action["type"] == "end_turn":
            turns[action["seat"]] += 1
        check_invariants(after)
        for seat in [None, *range(players)]:
            af.view(after, seat)
        state = after
    if state["phase"] == "over" and state["ended_by"] == "deck":
        assert len(set(turns)) == 1


def assert_no_msg(value, path="state"):
    """A Msg is a str: stored in the JSON state it would turn into plain English and lose its
    msgid, so nothing translatable may be kept in the state except as Msg.to_json() dicts."""
    assert not isinstance(value, Msg), f"{path} holds a Msg: {value!r}"
    if isinstance(value, dict):
        for key, item in value.items():
            assert_no_msg(item, f"{path}[{key!r}]")
    elif isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            assert_no_msg(item, f"{path}[{i}]")


def test_assert_no_msg_finds_a_msg_anywhere():
    with pytest.raises(AssertionError):
        assert_no_msg({"seats": [{"ledger": [{"label": Msg("Join bonus")}]}]})
    assert_no_msg({"seats": [{"ledger": [{"label": "Join bonus"}]}]})


def check_invariants(state):
    assert_no_msg(state)
    assert json.loads(json.dumps(state)) == state
    for seat, record in enumerate(state["seats"]):
        assert record["coins"] >= 0
        assert record["coins"] == sum(entry["amount"] for entry in record["ledger"])
        assert record["ledger"][-1]["balance"] == record["coins"]
        assert 0 <= af.markers_used(state, seat) <= af.MARKERS
        assert record["adventures_open"] >= 0
    assert state["deck"] >= 0
    facts = af.setup_facts(state["players"])
    cards_out = sum(len(r["tally"]["expeditions"]) for r in state["seats"])
    in_row = sum(1 for card in state["row"] if card is not None)
    # conservation: every expedition card is in the deck, the row or under a company card
    assert state["deck"] + in_row + cards_out == facts["expedition_deck"]
    assert all(0 <= n <= 4 for n in state["completed_kinds"].values())
    assert state["bought"] <= af.ADVENTURE_CARDS


@settings(
    max_examples=examples(4, 25),  # whole games: 25 in `make test-deep`
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(st.integers(2, 4), st.data())
def test_legal_games_run_to_the_end_with_equal_turns(players, data):
    # A seeded generator: a whole legal game is too many choices for hypothesis to shrink.
    rng = data.draw(st.randoms(use_true_random=True))
    state = af.new({}, players)
    turns = [0] * players
    for _ in range(LEGAL_STEPS):
        if state["phase"] == "over":
            break
        action = legal.legal_action(state, rng)
        if action["type"] == "end_turn":
            turns[action["seat"]] += 1
        state = af.apply(state, action)  # legal: never refused
        check_invariants(state)
    if state["phase"] == "over":
        assert state["ended_by"] == "deck"
        assert len(set(turns)) == 1, turns
        assert state["last_round"]
    else:  # few completions were drawn: the host may always end the game
        state = act(state, None, "finish_game", host=True)
    for seat in range(players):
        state = act(state, seat, "submit_sheet", **legal.sheet_for(state, seat, rng))
    res = af.result(state)
    assert res is not None
    assert sorted(res["order"]) == list(range(players))


def test_every_action_type_leaves_no_msg_in_the_state():
    """One of each action, legal, through a whole game: the state stays plain data."""
    state = give(af.new({}, 2), 0, 30)
    steps = [
        ("turn_pages", 0, {"pages": 2}),
        ("buy_adventure", 0, {"cards": 3}),
        ("end_turn", 0, {}),
        ("choose_action", 1, {"action": "draw"}),
        ("end_turn", 1, {}),
        ("join_expedition", 0, {"slot": 1, "bonus_coins": 2}),
        ("change_colour", 0, {"cards": 1}),
        ("complete_expedition", 0, {"slot": 1, "coins": 3, "points": 4}),
        ("complete_artifact", 0, {"kind": "B", "coins": 1, "points": 2}),
        ("complete_guide", 0, {}),
        ("end_turn", 0, {"discarded_adventures": 1}),
        ("rename_kinds", None, {"names": ["Mask", "Idol", "Vase", "Drum", "Bow"]}),
    ]
    for type_, seat, fields in steps:
        state = act(state, seat, type_, **fields)
        check_invariants(state)
    state = act(state, None, "finish_game", host=True)
    state = act(state, 0, "submit_sheet", **sheet(artifact_cards=[["Idol", 2]]))
    state = act(state, 1, "submit_sheet", **sheet(coins=None, gold=1, silver=2))
    check_invariants(state)
    assert af.result(state) is not None


def test_sheet_coins_may_be_given_as_gold_and_silver_pieces():
    pieces = sheet(coins=None, gold=3, silver=4)
    assert af.check_sheet(pieces)["coins"] == 19
    assert "gold" not in af.check_sheet(pieces)
    assert af.final_score(sheet(coins=None, gold=2))["coin_points"] == 1  # 2 gold = 10
    err = pytest.raises(RuleError, af.check_sheet, sheet(coins=None, gold=-1)).value
    assert err.rule == "sheet-values" and "Gold coins" in str(err) and "negative" in str(err)
    err = pytest.raises(RuleError, af.check_sheet, sheet(coins=5, silver=1)).value
    assert err.rule == "sheet-values" and "not both" in str(err)
    err = pytest.raises(RuleError, af.check_sheet, sheet(coins=None, gold=2000)).value
    assert "at most 9999" in str(err)


def test_refusals_name_fields_in_words_that_can_be_translated():
    err = refused(af.new({}, 2), 0, "buy_adventure", cards="two")
    assert err.msg.params["field"].msgid == "Cards"
    err = pytest.raises(RuleError, af.check_sheet, sheet(movement_cards=6)).value
    assert str(err) == "'Movement cards in hand' can be at most 5."
    assert isinstance(err.msg.params["field"], Msg)


def test_a_scoring_sheet_is_refused_while_the_game_is_on():
    """Rule "game-over"/"game-end": the scoring is done once the game has ended. A sheet handed
    in during play (a crafted post, or a sheet form left open while the host undid the last
    turn) would be stale, yet the result would use it as soon as the last other sheet came in."""
    state = af.new({}, 2)
    err = refused(state, 0, "submit_sheet", **sheet(expedition_points=[4]))
    assert err.rule == "game-end"
    state = act(state, None, "finish_game", host=True)
    assert act(state, 0, "submit_sheet", **sheet())["seats"][0]["sheet"] is not None


def test_end_of_turn_reminders_about_the_row_tell_what_ending_the_turn_really_does():
    """Rule "game-end": the trigger is the first refill that leaves a space empty. Once the last
    round is on, the reminder must not announce it again (nor ask to refill from an empty deck);
    when the trigger falls in the last seat's turn, ending it ends the game at once."""
    state = af.new({}, 2)
    state["deck"] = 0
    state = act(state, 0, "join_expedition", slot=1, bonus_coins=0)
    state = act(state, 0, "complete_expedition", slot=1, coins=0, points=1)
    checks = af.view(state, 0)["checks"]
    assert any("ending this turn starts the last round" in c for c in checks)
    assert not any("Refill the expedition row" in c for c in checks)  # the deck is empty
    state = end(state, 0)
    assert state["last_round"] and state["turn"]["seat"] == 1
    checks = af.view(state, 1)["checks"]
    assert not any("last round" in c or "Refill" in c for c in checks), checks
    # The trigger in the last seat's own turn: ending it ends the game.
    state = af.new({}, 2)
    state = draw_turn(state)
    state["deck"] = 0
    state = act(state, 1, "join_expedition", slot=1, bonus_coins=0)
    state = act(state, 1, "complete_expedition", slot=1, coins=0, points=1)
    checks = af.view(state, 1)["checks"]
    assert any("ending this turn ends the game" in c for c in checks), checks
    assert end(state, 1)["phase"] == "over"

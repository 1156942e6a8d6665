"""Africana's line under "Your turn." (Rules.prompt): hand-computed cases of every phase, for the
seat on turn, the seats waiting and the table. The prices are the rule text's: an adventure card
5 silver, the first page of a turn free and each further one 1 silver, 4 markers a company."""

from __future__ import annotations

from companion.games.africana import rules as af
from companion.games.base import Msg


def act(state: dict, seat: int | None, kind: str, host: bool = False, **fields) -> dict:
    """The state after `seat` enters an action of this kind."""
    return af.apply(state, {"type": kind, "seat": seat, "host": host, **fields})


def said(state: dict, seat: int | None) -> str | None:
    """The prompt in English with its numbers, or None."""
    msg = af.GAME.prompt(state, seat)
    assert msg is None or isinstance(msg, Msg)
    return None if msg is None else str(msg)


def rich(state: dict, seat: int, silver: int) -> dict:
    """The host's correction gives `seat` this many silver coins in all."""
    have = state["seats"][seat]["coins"]
    return act(state, seat, "correct_coins", host=True, amount=silver - have)


def test_the_first_turn_offers_the_three_actions_and_the_others_wait():
    state = af.new({}, 3)
    assert said(state, 0) == "Choose one action: draw 2 movement cards, buy or move."
    assert said(state, 1) is None and said(state, 2) is None  # nothing to enter meanwhile
    # The table's one entry, the kinds' names, before play starts; not once they are named.
    assert said(state, None) == "The table may name the 5 artifact kinds once."
    named = act(state, None, "rename_kinds", names=["Masks", "Drums", "Gold", "Ivory", "Jade"])
    assert said(named, None) is None
    assert said(act(state, 0, "choose_action", action="draw"), None) is None


def test_drawing_takes_2_cards_then_ends_the_turn():
    state = act(af.new({}, 2), 0, "choose_action", action="draw")
    assert said(state, 0) == "Take 2 movement cards from the deck, then end your turn."
    after = act(state, 0, "end_turn")
    assert said(after, 0) is None
    assert said(after, 1).startswith("Choose one action")


def test_buying_counts_the_cards_the_coins_pay_for_and_the_page_price():
    state = act(rich(af.new({}, 3), 0, 17), 0, "choose_action", action="buy")
    # 17 silver at 5 a card: 3 cards; no page turned yet, so the next one is free.
    assert said(state, 0) == "Buy up to 3 adventures at 5 silver; first page free."
    state = act(state, 0, "turn_pages", pages=3)  # free, 1, 1: 15 silver left
    assert said(state, 0) == "Buy up to 3 adventures at 5 silver; each page 1 silver."
    state = act(state, 0, "buy_adventure", cards=2)  # 5 left: one more
    assert said(state, 0) == "Buy up to 1 adventure at 5 silver; each page 1 silver."
    state = act(state, 0, "turn_pages", pages=1)  # 4 left: no card, pages still
    assert said(state, 0) == "Turn pages at 1 silver each, or end your turn."
    state = act(state, 0, "turn_pages", pages=4)
    assert state["seats"][0]["coins"] == 0
    assert said(state, 0) == "No silver left: end your turn."


def test_buying_with_less_than_5_silver_offers_the_free_page():
    state = act(af.new({}, 3), 0, "choose_action", action="buy")  # Italy starts with 2 silver
    assert said(state, 0) == "Turn pages (the first is free) or end your turn."


def test_buying_when_all_30_adventures_are_bought():
    state = act(rich(af.new({}, 2), 0, 50), 0, "choose_action", action="buy")
    state["bought"] = 30
    assert said(state, 0) == "All 30 adventure cards are bought: end your turn."


def test_over_the_adventure_limit_the_prompt_says_how_many_to_discard():
    state = act(rich(af.new({}, 3), 0, 30), 0, "buy_adventure", cards=5)
    # 5 unfinished, 3 may stay: 2 to discard (rule "adventure-limit").
    assert said(state, 0) == "To end your turn, discard 2 adventures: 3 may stay."
    # The host ends the turn over the limit with 1 discarded: 4 stay, and next turn 1 is due.
    state = act(state, 0, "end_turn", discarded_adventures=1, override=True, host=True)
    for seat in (1, 2):
        state = act(act(state, seat, "choose_action", action="draw"), seat, "end_turn")
    state = act(state, 0, "choose_action", action="draw")
    assert said(state, 0) == "To end your turn, discard 1 adventure: 3 may stay."
    # A move may still complete one of them: there the move itself is prompted.
    state = act(state, 0, "choose_action", action="move")
    assert said(state, 0).startswith("Enter joins")


def test_moving_names_the_free_markers():
    state = act(af.new({}, 2), 0, "choose_action", action="move")
    assert said(state, 0) == "Enter joins (4 markers free), completions, colour changes."
    state = act(state, 0, "join_expedition", slot=1, bonus_coins=0)
    state = act(state, 0, "join_expedition", slot=2, bonus_coins=0)
    state = act(state, 0, "join_expedition", slot=3, bonus_coins=0)
    assert said(state, 0) == "Enter joins (1 marker free), completions, colour changes."
    state = act(state, 0, "join_expedition", slot=4, bonus_coins=0)
    assert said(state, 0) == "All 4 markers out: enter completions, colour changes."
    # Completing frees the marker (and every marker on that card).
    state = act(state, 0, "complete_expedition", slot=4, coins=3, points=2)
    assert said(state, 0) == "Enter joins (1 marker free), completions, colour changes."


def test_after_play_each_seat_hands_in_its_sheet_and_then_is_told_nothing():
    state = act(af.new({}, 2), None, "finish_game", host=True)
    assert af.GAME.turn(state) == []
    assert said(state, 0) == "Check your sheet against your cards and hand it in."
    assert said(state, None) is None
    sheet = {"expedition_points": [], "artifact_cards": [], "guide_adventures": 0, "coins": 2}
    state = act(state, 0, "submit_sheet", **sheet, movement_cards=0, unfinished_artifacts=0)
    assert said(state, 0) is None  # its card says it is handed in and may be corrected
    assert said(state, 1) == "Check your sheet against your cards and hand it in."
    state = act(state, 1, "submit_sheet", **sheet, movement_cards=0, unfinished_artifacts=0)
    assert af.GAME.result(state) is not None
    assert [said(state, s) for s in (0, 1, None)] == [None, None, None]

"""Kahuna's line under "Your turn." (Rules.prompt): hand-computed cases of every phase, for the
seat on turn, the seat waiting and the table. The numbers are the rule text's: 3 cards turned
face up at a round's start, at most 5 cards played a turn, at most 5 in hand."""

from __future__ import annotations

from companion.games.base import Msg
from companion.games.kahuna import rules as k

WHITE, BLACK = 0, 1


def act(state: dict, seat: int | None, kind: str, **fields) -> dict:
    """The state after `seat` (None: the table) enters an action of this kind."""
    return k.apply(state, {"type": kind, "seat": seat, "host": False, **fields})


def said(state: dict, seat: int | None) -> str | None:
    """The prompt in English with its numbers, or None."""
    msg = k.GAME.prompt(state, seat)
    assert msg is None or isinstance(msg, Msg)
    return None if msg is None else str(msg)


def started() -> dict:
    """A new game with its three face-up cards entered (Coco, Gola, Lale)."""
    state = k.new({}, 2)
    for island in ("Coco", "Gola", "Lale"):
        state = act(state, None, "reveal", island=island)
    return state


def test_the_face_up_cards_come_first_for_everybody():
    state = k.new({}, 2)
    for seat in (WHITE, BLACK, None):
        assert said(state, seat) == "Turn up 3 cards and enter their islands."
    state = act(act(state, None, "reveal", island="Coco"), BLACK, "reveal", island="Gola")
    assert said(state, None) == "Turn up 1 card and enter its island."
    state = act(state, WHITE, "reveal", island="Lale")
    # Then White's turn: Black and the table have nothing to enter.
    assert said(state, BLACK) is None and said(state, None) is None
    assert said(state, WHITE) == "Play up to 3 cards, then draw or end the turn."


def test_the_cards_left_to_play_are_the_hand_and_the_turns_5():
    state = started()
    state["hands"][WHITE] = 5
    state["known"][WHITE] = ["Aloa", "Aloa", "Bari", "Bari", "Elai"]
    assert said(state, WHITE) == "Play up to 5 cards, then draw or end the turn."
    state = act(state, WHITE, "place", site="Aloa-Bari", card="Aloa")
    assert said(state, WHITE) == "Play up to 4 cards, then draw or end the turn."
    for site, card in (("Aloa-Duda", "Aloa"), ("Bari-Elai", "Bari"), ("Bari-Coco", "Bari")):
        state = act(state, WHITE, "place", site=site, card=card)
    assert said(state, WHITE) == "Play up to 1 card, then draw or end the turn."
    state = act(state, WHITE, "place", site=k.SITES_OF["Elai"][-1], card="Elai")
    # 5 played (and the hand empty): only the turn's end is left.
    assert said(state, WHITE) == "Draw a card, or end the turn without drawing."


def test_after_a_turn_without_drawing_the_opponent_must_draw():
    state = act(started(), WHITE, "end_turn")
    assert state["must_draw"]
    assert said(state, BLACK) == "Play up to 3 cards; this turn you must draw."
    assert said(state, WHITE) is None
    state = act(state, BLACK, "discard", count=3)  # face down: no card may be played now
    assert said(state, BLACK) == "Draw a card: this turn you must draw."


def test_a_discard_leaves_the_draw_or_the_end():
    state = act(started(), WHITE, "discard", count=2)
    assert said(state, WHITE) == "Draw a card, or end the turn without drawing."


def test_the_last_turns_of_round_3_have_no_draw():
    state = started()
    state.update(round=3, deck=0, display=[], final_turns=2)
    assert said(state, WHITE) == "Play up to 3 cards, then end the turn: no draw is left."
    state["hands"][WHITE] = 0
    assert said(state, WHITE) == "End the turn: no draw is left."
    state = act(state, WHITE, "end_turn")
    assert said(state, BLACK) == "Play up to 3 cards, then end the turn: no draw is left."
    state = act(state, BLACK, "end_turn")
    assert state["over"] and k.GAME.result(state) is not None
    assert [said(state, s) for s in (WHITE, BLACK, None)] == [None, None, None]

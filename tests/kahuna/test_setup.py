"""Kahuna's set-up guide against the rule text (L17-29) and GAME_FACTS' piece counts."""

from companion.games.kahuna import rules as k


def test_pieces_hands_and_the_face_up_cards():
    found = {s.key: s for s in k.GAME.setup({}, 2)}
    assert "bridges (25) and the Kahuna stones (10)" in str(found["pieces"].text)
    assert found["pieces"].filled  # the counts are GAME_FACTS', not the rule text's
    assert str(found["hands"].text) == "Shuffle the cards (24) and deal 3 face down to each player."
    assert k.GAME.start_pick == "first-seat"

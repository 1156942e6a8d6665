"""From Cape to Cairo's set-up guide against the rule text (L25-26, L54, L68)."""

from companion.games.cape_to_cairo import rules as g


def test_one_card_per_player_to_begin_100_pounds_and_no_start_player():
    for players in (2, 3, 4):
        found = [str(s.text) for s in g.GAME.setup({}, players)]
        assert f"To begin, turn up {players} terrain cards for the bidding." in found
        assert "Everyone starts with £100: the app keeps the ledger." in found
    assert g.GAME.start_pick == ""

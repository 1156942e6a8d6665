"""Africana's set-up guide against the rule text (ja L113-143): the C cards removed by player
count, and each seat's company."""

from companion.games.africana import rules as af


def test_the_c_cards_removed_and_one_company_per_seat():
    for players, removed, deck in ((2, 10, 24), (3, 7, 27), (4, 4, 30)):
        found = [str(s.text) for s in af.GAME.setup({}, players)]
        assert any(f"put {removed} C cards back in the box unseen: {deck}" in t for t in found)
        assert sum(t.startswith("Player ") for t in found) == players
        assert any("back in the box" in t and "companies" in t for t in found) == (players < 4)
    italy = str(af.GAME.setup({}, 3)[5].text)
    assert italy.startswith("Player 1: company 1, Italy: the white explorer on Napoli")

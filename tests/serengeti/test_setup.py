"""Serengeti's and Don's set-up guide against the rule text (¶22-25, ¶114, ¶117)."""

from companion.games import GAMES


def texts(key: str, players: int) -> list[str]:
    info = GAMES[key]
    return [str(s.text) for s in info.rules.setup(dict(info.options), players)]


def test_the_bank_is_what_is_left_of_65_chips_after_10_each():
    for players, bank in ((3, 35), (4, 25), (5, 15)):
        assert f"The other {bank} chips go in the middle as the bank." in texts(
            "serengeti", players
        )


def test_don_has_12_chips_each_no_bank_and_a_pot():
    found = texts("don", 4)
    assert "Each player takes 12 chips and keeps them hidden." in found
    info = GAMES["don"]
    keys = [s.key for s in info.rules.setup(dict(info.options), 4)]
    assert "bank" not in keys and "pot" in keys

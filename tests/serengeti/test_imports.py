"""Serengeti's and Don's plays in a BG Stats export: Serengeti by its name, Don by its board."""

import json

from companion.games import GAMES
from companion.imports import game_finder, read_bgstats

FIND = game_finder(GAMES, lambda info: [info.bgg_name or info.label, info.label])


def test_serengeti_by_name_and_don_by_its_board():
    data = {
        "players": [{"id": 1, "uuid": "U1", "name": "Anna"}],
        "games": [{"id": 1, "uuid": "G1", "name": "Serengeti", "bggId": 0}],
        "plays": [
            {"uuid": "P1", "gameRefId": 1, "playDate": "2024-01-01 20:00:00", "playerScores": []},
            {
                "uuid": "P2",
                "gameRefId": 1,
                "playDate": "2024-01-02 20:00:00",
                "board": "Don rules",
                "playerScores": [],
            },
        ],
    }
    found = read_bgstats(json.dumps(data).encode(), FIND)
    assert [p.game for p in found.plays] == ["serengeti", "don"]

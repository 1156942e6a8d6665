"""Reading past plays a person brings (companion/imports.py): a BG Stats export as BG Stats
writes it and BGG plays XML, with the plays of this app's games found by BGG id or name (a rule
set by its board), the rest counted, ignored and deleted plays left out, scores summed, and
hostile files refused. The games here are made up: the reader is the same for every game."""

from __future__ import annotations

import json

import pytest

from companion.games.base import GameInfo
from companion.imports import (
    ImportRefused,
    game_finder,
    read_bgg,
    read_bgstats,
    score_of,
)

GAMES = {
    "stones": GameInfo("stones", "Stones", "x.stones", 2, 4, bgg_id=12345, bgg_name="Stones"),
    "stones-long": GameInfo(
        "stones-long", "Stones (long)", "x.stones", 2, 4, bgg_game="stones", variant="Long rules"
    ),
    "reeds": GameInfo("reeds", "Reeds", "x.reeds", 2, 4, bgg_name="Reeds"),
}
OTHER_NAMES = {"reeds": ["Камыши"]}  # a name in another of the app's languages
FIND = game_finder(
    GAMES, lambda info: [info.bgg_name or info.label, *OTHER_NAMES.get(info.key, [])]
)


def export(**more) -> bytes:
    """A BG Stats backup in BG Stats' own shape: four games (one not ours), three players (one
    anonymous without a BGG name), two places, plays of each kind."""
    data = {
        "about": "This is a Play file that can be read by Board Game Stats.",
        "userInfo": {"meRefId": 1},
        "players": [
            {"id": 1, "uuid": "a1b2c3d4-0000-4000-8000-000000000001", "name": "Anna"},
            {"id": 2, "uuid": "a1b2c3d4-0000-4000-8000-000000000002", "name": "Boris"},
            {"id": 3, "uuid": "a1b2c3d4-0000-4000-8000-000000000003", "name": "Chris"},
        ],
        "locations": [{"id": 1, "uuid": "L1", "name": "Home"}],
        "games": [
            {"id": 1, "uuid": "G1", "name": "Stones (2001)", "bggId": 12345},
            {"id": 2, "uuid": "G2", "name": "Reeds", "bggId": 0},
            {"id": 3, "uuid": "G3", "name": "Catan", "bggId": 13},
            {"id": 4, "uuid": "G4", "name": "камыши", "bggId": 0},
        ],
        "plays": [
            _play("P1", 1, "2024-05-01 20:15:00", [(1, "10+3+0", True), (2, "7", False)]),
            _play(
                "P2", 1, "2024-05-02 20:15:00", [(2, "4", True), (3, "", False)], board="Long rules"
            ),
            _play("P3", 2, "2024-05-03 20:15:00", [(1, "-10+7+22", True), (3, "12", False)]),
            _play("P4", 3, "2024-05-04 20:15:00", [(1, "1", True)]),
            _play("P5", 1, "2024-05-05 20:15:00", [(1, "1", True)], ignored=True),
            _play("P6", 1, "2024-05-06 20:15:00", [(1, "1", True)]),
            _play("P7", 4, "2024-05-07 20:15:00", [(3, "2", True)]),
        ],
        "deletedObjects": [{"uuid": "p6", "type": "play"}],
    }
    data.update(more)
    return json.dumps(data).encode()


def _play(uuid, game, date, scores, *, board="", ignored=False) -> dict:
    return {
        "uuid": uuid.lower(),
        "gameRefId": game,
        "playDate": date,
        "durationMin": 45,
        "ignored": ignored,
        "locationRefId": 1,
        "board": board,
        "playerScores": [
            {
                "playerRefId": who,
                "score": score,
                "winner": won,
                "rank": 1 if won else 2,
                "seatOrder": i + 1,
                "startPlayer": i == 0,
            }
            for i, (who, score, won) in enumerate(scores)
        ],
    }


def test_the_plays_of_our_games_are_found_by_bgg_id_name_and_board_the_rest_counted():
    found = read_bgstats(export(), FIND)
    assert [(p.source_id, p.game) for p in found.plays] == [
        ("P1", "stones"),
        ("P2", "stones-long"),  # the rule set, by its board
        ("P3", "reeds"),  # by its name
        ("P4", ""),  # not ours: kept for the person to match or skip
        ("P7", "reeds"),  # by its name in another language, any case
    ]
    catan = found.plays[3]
    assert (catan.game_name, catan.game_id, catan.game_choice) == ("Catan", 13, "bgg:13")
    assert found.other_games == {"Catan": 1}
    assert found.ignored == 2  # one marked ignored, one deleted
    assert found.me == "uuid:A1B2C3D4-0000-4000-8000-000000000001"


def test_a_play_keeps_its_players_scores_winners_seats_place_and_length():
    first = read_bgstats(export(), FIND).plays[0]
    assert first.location == "Home" and first.minutes == 45
    assert first.played.isoformat() == "2024-05-01T20:15:00"
    anna, boris = first.players
    assert (anna.name, anna.score, anna.winner, anna.rank, anna.seat, anna.start) == (
        "Anna",
        13.0,
        True,
        1,
        1,
        True,
    )
    assert boris.source_id.endswith("0002") and boris.score == 7.0 and not boris.winner
    assert read_bgstats(export(), FIND).plays[1].players[1].score is None  # "": no score


def test_a_single_shared_play_reads_too():
    one = json.loads(export())
    one["plays"] = one["plays"][:1]
    del one["deletedObjects"]
    assert [p.source_id for p in read_bgstats(json.dumps(one).encode(), FIND).plays] == ["P1"]


@pytest.mark.parametrize(
    "text,value",
    [("", None), ("47", 47.0), ("10+3+0", 13.0), ("-10+7+22", 19.0), ("2.5", 2.5), (12, 12.0)],
)
def test_a_score_is_a_number_or_a_sum(text, value):
    assert score_of(text) == value


@pytest.mark.parametrize("text", ["ten", "1e9999", "3*4", "=1+1", True, "1" * 300])
def test_anything_else_as_a_score_is_refused(text):
    with pytest.raises(ImportRefused):
        score_of(text)


@pytest.mark.parametrize(
    "data",
    [
        b"not json",
        b"[]",
        b'{"plays": 3}',
        json.dumps({"plays": [5]}).encode(),
        export(plays=[_play("X", 9, "2024-01-01 10:00:00", [])]),  # no such game
        export(plays=[_play("X", 1, "1066-10-14 10:00:00", [])]),  # out of range
        export(plays=[_play("X", 1, "yesterday", [])]),
        export(plays=[_play("X", 1, "2024-01-01 10:00:00", [(9, "1", True)])]),  # no such player
        b"x" * (10 * 1024 * 1024 + 1),
    ],
)
def test_a_broken_export_is_refused_with_its_reason(data):
    with pytest.raises(ImportRefused) as refused:
        read_bgstats(data, FIND)
    assert str(refused.value)


BGG = b"""<?xml version="1.0" encoding="utf-8"?>
<plays username="anna" userid="1" total="3" page="1">
  <play id="501" date="2023-02-01" quantity="1" length="30" incomplete="0" nowinstats="0" location="Club">
    <item name="Stones" objecttype="thing" objectid="12345"><subtypes><subtype value="boardgame"/></subtypes></item>
    <players>
      <player username="anna" userid="1" name="Anna" startposition="1" score="10+2" win="1"/>
      <player username="" userid="0" name="Boris" startposition="2" color="" score="8" new="0" rating="0" win="0"/>
    </players>
  </play>
  <play id="502" date="2023-02-02" quantity="2" length="0" location="">
    <item name="Catan" objecttype="thing" objectid="13"/>
  </play>
  <play id="503" date="2023-02-03" quantity="1" length="0" location="">
    <item name="Reeds" objecttype="thing" objectid="999"/>
    <players><player username="" name="Chris" startposition="" score="" win="1"/></players>
  </play>
</plays>"""


def test_bgg_plays_read_from_one_or_several_pages_once_each():
    found = read_bgg([BGG, BGG], FIND)  # the same page twice: each play once
    assert [(p.source_id, p.game) for p in found.plays] == [
        ("501", "stones"),
        ("502", ""),
        ("503", "reeds"),
    ]
    assert found.other_games == {"Catan": 2}  # logged as played twice
    anna, boris = found.plays[0].players
    assert (anna.username, anna.score, anna.score_text) == ("anna", 12.0, "10+2")
    assert (anna.winner, anna.start, anna.key) == (True, True, "bgg:anna")
    assert (boris.name, boris.seat, boris.winner, boris.key) == ("Boris", 2, False, "name:boris")
    assert found.plays[0].location == "Club" and found.plays[0].minutes == 30
    assert found.plays[2].minutes is None


ENTITIES = b"""<?xml version="1.0"?>
<!DOCTYPE plays [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>
<plays><play id="1" date="2023-01-01"><item name="&b;" objectid="1"/></play></plays>"""
EXTERNAL = b"""<?xml version="1.0"?>
<!DOCTYPE plays [<!ENTITY x SYSTEM "file:///etc/passwd">]>
<plays><play id="1" date="2023-01-01"><item name="&x;" objectid="1"/></play></plays>"""


@pytest.mark.parametrize(
    "page",
    [
        ENTITIES,
        EXTERNAL,
        b"<notplays/>",
        b"{}",
        b"<plays><play id='x' date='2023-01-01'><item name='Stones'/></play></plays>",
    ],
)
def test_hostile_or_broken_xml_is_refused(page):
    with pytest.raises(ImportRefused):
        read_bgg([page], FIND)

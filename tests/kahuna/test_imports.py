"""Kahuna's plays found by its BoardGameGeek id (394) whatever the name a file gives it."""

from companion.games import GAMES
from companion.imports import game_finder, read_bgg

FIND = game_finder(GAMES, lambda info: [info.bgg_name or info.label, info.label])


def test_kahuna_by_its_bgg_id():
    page = b"""<plays username="a" userid="1" total="1" page="1">
      <play id="7" date="2022-06-01" quantity="1" length="25" location="Cafe">
        <item name="Kahuna (Kosmos edition)" objecttype="thing" objectid="394"/>
        <players><player username="" name="Anna" startposition="1" score="9" win="1"/></players>
      </play></plays>"""
    assert [p.game for p in read_bgg([page], FIND).plays] == ["kahuna"]

"""Serengeti's and Don's plays in a BG Stats export: Serengeti by its name, Don by its board;
an evening's backup brought to /plays/import."""

import json
import random
import re

from companion import get_db, tables
from companion.games import GAMES
from companion.imports import game_finder, read_bgstats
from tests.helpers import play_to_end, visible
from tests.support.bgstats_export import Export
from tests.support.forms import start_table
from tests.test_import_plays import confirm, preview, summary

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


def evening_backup() -> Export:
    """A BG Stats backup of 200 plays: 20 of Serengeti, 10 of them with the Don rules (BG Stats
    keeps the rule set in the board), and 170 of games the app does not have. Mia (the owner)
    and Oleg played them with Pia, who has no uuid in this old file."""
    e = Export()
    mia, oleg, pia = e.player("Mia"), e.player("Oleg"), e.player("Pia", uid=None)
    e.me = mia
    serengeti = e.game("Serengeti")
    others = [e.game(f"Game {n}", 100_000 + n) for n in range(17)]
    for n in range(20):
        board = "Don rules" if n % 2 else ""
        day = f"2024-{1 + n // 10:02d}-{1 + n % 10:02d} 20:00:00"
        e.play(
            serengeti,
            day,
            [(mia, str(10 + n), n % 3 == 0), (oleg, "9+2", n % 3 != 0), (pia, "5", False)],
            minutes=60,
            board=board,
        )
    for n in range(170):
        e.play(others[n % 17], f"2023-03-{1 + n % 28:02d} 19:00:00", [(mia, "1", True)])
    return e


def test_an_evenings_backup_joins_the_player_pages_with_the_plays_made_here(app, client):
    # Two plays here first: Maria (Mia in BG Stats) and Oleg, with Boris.
    for seed in (1, 2):
        code = start_table(client, "serengeti", ("Maria", "Oleg", "Boris"))
        with app.app_context():
            db = get_db()
            play_to_end(db, tables.get_table(db, code), random.Random(seed))
    address, page = preview(client, evening_backup().bytes())
    said = summary(page.text)
    assert "20 new plays of these games: Serengeti 10, Serengeti — original Don rules 10" in said
    text = visible(page.text)
    assert "Game 0 · 10 plays" in text  # the other games: 170 plays, each named
    rows = dict(
        (m.group(2), m.group(1))
        for m in re.finditer(
            r'name="(player:[^"]+)">\s*<option value="">A new person: ([^<]+)</option>', page.text
        )
    )
    assert re.search(
        rf'name="{re.escape(rows["Oleg"])}">.*?<option value="Oleg" selected>', page.text, re.S
    )
    # Two players matched by hand: Mia is Maria; Pia stays a new person.
    done = confirm(client, address, page, **{rows["Mia"]: "Maria"})
    assert "imported=20" in done.headers["Location"]
    maria = visible(client.get("/player?name=Maria").text)
    assert "22 games played" in maria  # 2 here, 20 imported
    assert re.search(r"Oleg 22 ", maria) and re.search(r"Pia 20 ", maria)
    assert re.search(r"Boris 2 ", maria)
    listed = visible(client.get("/plays?game=don").text)
    assert listed.count("Imported from BG Stats") == 10 and "Oleg 11" in listed  # "9+2"
    # The same file again adds nothing.
    again, page = preview(client, evening_backup().bytes())
    assert "0 new plays" in summary(page.text)
    assert "imported=0" in confirm(client, again, page).headers["Location"]
    # BG Stats gets them back with the rule set as the board and Mia's own uuid for Maria.
    exported = json.loads(client.get("/plays/export.bgsplay").get_data())
    mia_uuid = evening_backup().players[0]["uuid"]
    assert [p["name"] for p in exported["players"] if p["uuid"] == mia_uuid] == ["Maria"]
    boards = [p["board"] for p in exported["plays"] if p["board"]]
    assert boards.count("Don rules") == 10

"""Kahuna in BG Stats: the game's BoardGameGeek id in the file and the link, its score table
(points per round, islands, bridges) in the comments since it is no sum of the score, and the
Arabana option as the play's board."""

from __future__ import annotations

import json
import random
import re
from urllib.parse import unquote

from companion import get_db, tables
from companion.exports.bgstats import LINK_BASE
from companion.games.kahuna import rules as kahuna
from tests.helpers import play_to_end


def finished(make_table, names=("Anna", "Ben")):
    """A Kahuna table played to its end by the game's random generator."""
    table = make_table("kahuna", names, phones=False)
    with table.app.app_context():
        db = get_db()
        play_to_end(db, tables.get_table(db, table.code), random.Random(1))
    return table


def test_the_file_and_the_link_carry_kahunas_boardgamegeek_id(make_table):
    table = finished(make_table)
    data = json.loads(table.host.get(f"/t/{table.code}/export.bgsplay").data)
    (game,) = data["games"]
    assert game["bggId"] == 394  # https://boardgamegeek.com/boardgame/394/kahuna
    assert game["name"] == game["bggName"] == "Kahuna"
    summary = table.host.get(f"/t/{table.code}/summary", headers={"Accept-Language": "ja"}).text
    link = re.search(r'id="bgstats-link" href="([^"]+)"', summary).group(1).replace("&amp;", "&")
    assert link.startswith(LINK_BASE)
    pushed = json.loads(unquote(link[len(LINK_BASE) :]))["game"]
    assert pushed["bggId"] == 394 and pushed["name"] == "Kahuna"


def test_the_scores_are_totals_and_the_comments_hold_the_rounds(make_table):
    """Kahuna's rows (points per round, islands and bridges at the end) are no sum of the
    score: BG Stats gets each total, and the rows go to the play's comments."""
    table = finished(make_table)
    play = json.loads(table.host.get(f"/t/{table.code}/export.bgsplay").data)["plays"][0]
    assert all(re.fullmatch(r"-?\d+", s["score"]) for s in play["playerScores"])
    assert "Anna: Round 1 points" in play["comments"]


def test_table_options_in_force_are_the_plays_board():
    state = kahuna.new({}, 2)
    assert kahuna.variants(state) == []
    state["options"]["arabana"] = True
    assert kahuna.variants(state) == ["Arabana"]

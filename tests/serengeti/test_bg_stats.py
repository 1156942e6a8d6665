"""Serengeti and Don in BG Stats: BoardGameGeek files Don as Serengeti, so a Don play is a
Serengeti play there (one game, the same name in every language) with "Don rules" as its board."""

from __future__ import annotations

import json
import random
import re
from urllib.parse import unquote

import pytest

from companion import get_db, tables
from companion.exports.bgstats import LINK_BASE
from tests.helpers import play_to_end

NAMES = ("Anna", "Ben", "Chris")


def finished(make_table, key: str):
    """A table of this entry played to its end by the game's random generator."""
    table = make_table(key, NAMES, phones=False)
    with table.app.app_context():
        db = get_db()
        play_to_end(db, tables.get_table(db, table.code), random.Random(1))
    return table


def exported(table, lang: str = "en") -> tuple[dict, dict]:
    """(the play file, the play the summary's one-tap link carries), read in this language."""
    headers = {"Accept-Language": lang}
    data = json.loads(table.host.get(f"/t/{table.code}/export.bgsplay", headers=headers).data)
    summary = table.host.get(f"/t/{table.code}/summary", headers=headers).text
    link = re.search(r'id="bgstats-link" href="([^"]+)"', summary).group(1).replace("&amp;", "&")
    assert link.startswith(LINK_BASE)
    return data, json.loads(unquote(link[len(LINK_BASE) :]))


@pytest.mark.parametrize("lang", ["ja", "ru"])
def test_a_don_play_is_serengeti_played_with_don_rules(make_table, lang):
    don, pushed = exported(finished(make_table, "don"), lang)
    serengeti, _ = exported(finished(make_table, "serengeti"), lang)
    (game,) = don["games"]
    assert game["name"] == game["bggName"] == "Serengeti"
    assert game["uuid"] == serengeti["games"][0]["uuid"]  # one game in BG Stats
    assert don["plays"][0]["board"] == "Don rules"
    assert pushed["game"]["name"] == "Serengeti" and pushed["board"] == "Don rules"


def test_a_serengeti_play_has_no_don_rules_board(make_table):
    data, pushed = exported(finished(make_table, "serengeti"))
    assert data["games"][0]["name"] == "Serengeti"
    assert data["plays"][0]["board"] != "Don rules" and "board" not in pushed

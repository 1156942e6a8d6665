"""A phone's table and join pages of a game with a style sheet of its own load one sheet, the
game's table.css (the core's table.css and the game's sheet, scripts/bundle_css.py), and not the
two; every other page that shows the game (the display, the rules page) links the game's own."""

from __future__ import annotations

import pytest

from companion.games import GAMES, INSTALLED
from tests.support.forms import start_table

SHEETS = [key for key, info in GAMES.items() if info.name in INSTALLED]


@pytest.mark.parametrize("key", SHEETS)
def test_the_table_pages_load_the_games_table_sheet_alone(client, key):
    info = GAMES[key]
    code = start_table(client, key, names=[f"P{i}" for i in range(info.min_players)])
    own = f"/static/games/{info.name}/{info.name}.css"
    combined = f"/static/games/{info.name}/table.css"
    for path in (f"/t/{code}/", f"/t/{code}/join"):
        page = client.get(path).text
        assert combined in page and own not in page and "/static/css/table.css" not in page, path
    assert own in client.get(f"/rules/{info.rules_page}").text
    sheet = client.get(combined)
    assert sheet.status_code == 200 and sheet.mimetype == "text/css"

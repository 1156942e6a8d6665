"""A display link (a TV or a tablet showing the table) enters nothing: over random games of
every game, its region holds no form, so no session's token either, and every display link of
a table can share one render of it (companion/web/stream_region.py, DisplayRegions)."""

from __future__ import annotations

import random

import pytest

from companion import create_app, get_db, tables
from companion.games import GAMES
from tests.helpers import HX, TableDriver, play_on


@pytest.mark.parametrize("key", [k for k in GAMES if k != "pebbles"])
def test_a_display_links_region_holds_no_form_in_any_phase(key, tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "tv.db"), "SECRET_KEY": "tv"})
    info = GAMES[key]
    rng = random.Random(f"tv-{key}")
    players = max(info.min_players, min(4, info.max_players))
    table = TableDriver(app, key, ["Anna", "Ben", "Chris", "Dana"][:players], phones=False)
    with app.app_context():
        link = tables.new_display_token(get_db(), tables.get_table(get_db(), table.code))
    tv = app.test_client()
    seen = 0
    for _ in range(120):
        region = tv.get(f"/t/{table.code}/display/live?key={link}&v=0", headers=HX)
        assert region.status_code == 200
        assert 'name="csrf_token"' not in region.text and "<form" not in region.text, (
            key,
            table.state().get("phase"),
        )
        seen += 1
        if not play_on(app, table.code, rng, 1):
            break
    assert seen > 10

"""The games' own bundles: a game's table script (its own, then app.js) and table sheet (the
core's table.css and the game's sheet without what only other pages use), as the phone's table
pages load them (scripts/bundle_js.py, scripts/bundle_css.py)."""

from __future__ import annotations

from scripts import bundle_css, bundle_js


def test_a_games_table_script_is_its_own_script_then_app_js():
    for own, target in bundle_js.game_scripts().items():
        built = bundle_js.build_game(own.read_text(encoding="utf-8"))
        assert target.name == "table.js" and target.parent == own.parent
        mine = own.read_text(encoding="utf-8").strip()
        app = bundle_js.build("app.js")[len(bundle_js.HEADER) :]
        # The game's script first: it ran first as the page's earlier <script>.
        assert built.index(mine) < built.index(app) and built.endswith(app)
    assert {own.parent.parent.name for own in bundle_js.game_scripts()} >= {"kahuna", "africana"}


def test_a_phones_table_pages_load_their_games_one_script(client):
    from tests.support.forms import start_table, take_seat

    code = start_table(client, "kahuna", ("Ann", "Bob"))
    join = client.get(f"/t/{code}/join").text
    assert "/static/games/kahuna/table.js" in join and "js/app.js" not in join
    take_seat(client, code, 0)
    page = client.get(f"/t/{code}/").text
    assert page.count("<script") == 1 and "/static/games/kahuna/table.js" in page
    # Other pages load app.js (and the game's own script where they show its panel).
    assert "/static/js/app.js" in client.get("/").text


def test_the_table_display_and_calculator_rules_stay_out_of_a_phones_table_sheets():
    from pathlib import Path

    games = Path(bundle_css.ROOT) / "companion" / "games"
    for game, tv, other in (
        ("kahuna", "body.display #game-panel", ".k-control"),
        ("africana", "body.display .af-result", ".af-calc-players"),
    ):
        sheet = (games / game / "static" / "table.css").read_text(encoding="utf-8")
        own = (games / game / "static" / f"{game}.css").read_text(encoding="utf-8")
        assert tv in own and other in own
        assert tv not in sheet and other not in sheet

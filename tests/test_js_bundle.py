"""static/js/app.js and pages.js are generated from static/js/src (scripts/bundle_js.py, `make
js`): a source edited without rebuilding, or a bundle edited by hand, fails here."""

from __future__ import annotations

from scripts import bundle_js


def test_every_source_is_in_a_bundle():
    assert bundle_js.unlisted() == [], "add them to BUNDLES in scripts/bundle_js.py"
    for names in bundle_js.BUNDLES.values():
        for name in names:
            assert (bundle_js.SOURCES / name).is_file(), name


def test_app_js_is_what_the_sources_build():
    assert bundle_js.stale() == [], "static/js/app.js is stale: run `make js`"


def test_the_bundle_is_built_the_same_every_time():
    built = bundle_js.build("app.js")
    assert built == bundle_js.build("app.js")
    assert built.startswith(
        "// Generated from static/js/src by scripts/bundle_js.py: edit the sources"
    )
    assert built.endswith("})();\n") and "\r" not in built


def test_check_says_stale_when_a_source_changed(tmp_path, monkeypatch):
    # A copy of the sources with one edit: --check answers 1 until the bundle is rebuilt.
    sources = tmp_path / "src"
    sources.mkdir()
    for path in bundle_js.SOURCES.glob("*.js"):
        (sources / path.name).write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    for bundle in bundle_js.BUNDLES:
        (tmp_path / bundle).write_text(bundle_js.build(bundle), encoding="utf-8")
    monkeypatch.setattr(bundle_js, "SOURCES", sources)
    monkeypatch.setattr(bundle_js, "JS", tmp_path)
    monkeypatch.setattr(bundle_js, "GAMES", tmp_path / "games")  # no game's script written
    assert bundle_js.main(["--check"]) == 0
    last = bundle_js.BUNDLES["app.js"][-1]
    with (sources / last).open("a", encoding="utf-8") as fh:
        fh.write("var edited = true;\n")
    assert bundle_js.main(["--check"]) == 1
    assert bundle_js.main([]) == 0
    assert bundle_js.main(["--check"]) == 0
    assert "  var edited = true;\n" in (tmp_path / "app.js").read_text(encoding="utf-8")


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

"""static/js/app.js and pages.js are generated from static/js/src (scripts/bundle_js.py, `make
js`): a source edited without rebuilding, or a bundle edited by hand, fails here."""

from __future__ import annotations

import hashlib

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


# --- the minified twins (scripts/minify_js.py) ------------------------------------------------


def test_every_generated_script_has_a_fresh_minified_twin():
    from scripts import minify_js

    assert minify_js.stale() == [], "run `make js` with terser (npm ci --prefix scripts/minify)"


def test_the_server_serves_the_twin_only_when_it_was_made_from_the_script(tmp_path):
    from companion.web.assets import TWIN_HEAD, minified

    script = tmp_path / "table.js"
    script.write_text("// a comment\nvar answer = 42;\n", encoding="utf-8")
    data = script.read_bytes()
    own = TWIN_HEAD.format(name="table.js", digest=hashlib.sha256(data).hexdigest())
    (tmp_path / "table.min.js").write_text(own + "var a=42;", encoding="utf-8")
    assert minified(str(script), data) == b"var a=42;"
    edited = data + b"var more = 1;\n"  # the script rebuilt, its twin not: rjsmin's answer
    assert minified(str(script), edited) == b"var answer=42;var more=1;"
    (tmp_path / "table.min.js").unlink()
    assert minified(str(script), data) == b"var answer=42;"


def test_a_twin_keeps_the_vendored_scripts_as_their_authors_ship_them():
    from scripts import bundle_js, minify_js

    built = bundle_js.build("app.js")
    twin = minify_js.twin_of(bundle_js.JS / "app.js").read_text(encoding="utf-8")
    for name in bundle_js.VENDORED["app.js"]:
        text = (bundle_js.VENDOR / name).read_text(encoding="utf-8").replace("\r\n", "\n").strip()
        assert text in built and text in twin, name
    # and the app's own code is terser's: its long local names are gone
    assert "function swapRegion(" in built and "function swapRegion(" not in twin

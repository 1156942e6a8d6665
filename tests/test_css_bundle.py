"""static/css/table.css is built from static/css/app.css (scripts/bundle_css.py, `make css`):
app.css edited without rebuilding fails here, and the phone's table pages load it."""

from __future__ import annotations

from scripts import bundle_css


def test_table_css_is_what_app_css_builds():
    assert not bundle_css.stale(), "static/css/table.css is stale: run `make css`"


def test_the_marked_regions_and_only_they_are_left_out():
    source = (
        ".a { color: red; }\n/* @other-pages: the display */\n.tv { x: 1; }\n/* @end */\n"
        ".b { color: blue; }\n"
    )
    built = bundle_css.build(source)
    assert ".a {" in built and ".b {" in built and ".tv" not in built
    assert built.startswith("/* Generated from app.css")


def test_an_unclosed_region_is_refused():
    import pytest

    with pytest.raises(ValueError):
        bundle_css.build("/* @other-pages: x */\n.a { b: c; }\n")


def test_a_phones_table_pages_load_table_css_and_the_others_app_css(client):
    from tests.support.forms import start_table

    code = start_table(client)
    assert "css/table.css" in client.get(f"/t/{code}/").text
    assert "css/table.css" in client.get(f"/t/{code}/join").text
    assert "css/app.css" in client.get("/").text and "css/table.css" not in client.get("/").text


def test_a_games_table_sheet_leaves_out_the_games_marked_regions_too():
    own = ".k-a { x: 1; }\n/* @other-pages: the calculator */\n.k-calc { y: 2; }\n/* @end */\n"
    built = bundle_css.build_game(".a { color: red; }\n", own)
    assert ".a {" in built and ".k-a {" in built and ".k-calc" not in built

"""Serengeti on the table's TV (1920x1080): whose turn and what is on offer read from across the
room, 36 px or more (1.3rem of the display's type scale is 37 px there)."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import expect

from scripts.check_kit import Store, advance
from tests.helpers import caught_up, font_px, shot, table_on_tv

pytestmark = pytest.mark.browser
SOON = 6000  # ms: a page polls every 2 s; an update must show within this
LARGE = 36  # px: read from across the table


def test_the_tv_shows_the_turn_and_the_lot_large(server, phone):
    tv, code = table_on_tv(phone, server, "serengeti", ("Anna", "Ben", "Chris"))
    store = Store(server.database)
    advance(store, code, "serengeti", 400, random.Random(5), until=lambda s: s["round"] == 3)
    advance(store, code, "serengeti", 40, random.Random(6), until=lambda s: s["phase"] == "auction")
    caught_up(tv, store, code)
    expect(tv.locator("#display-turn")).to_contain_text("Waiting for", timeout=SOON)
    expect(tv.locator(".sg-lot")).to_contain_text("On offer:", timeout=SOON)
    for selector in ("#display-turn", ".sg-lot", ".sg-lot .sg-tribe", ".sg-next"):
        assert font_px(tv, selector) >= LARGE, selector
    shot(tv, "tv-serengeti-auction", full_page=False)


def test_the_host_tablets_first_screen_shows_the_game(server, phone):
    """A 1024x768 tablet in landscape that hosts the table: the lot, the bank and everyone's
    cards in the first screen; the players' seat tools below the game."""
    from tests.helpers import in_first_screen, open_table

    host = phone(viewport={"width": 1024, "height": 768})
    code = open_table(
        host, server, "serengeti", players="4", names=("Anna", "Ben", "Chris", "Dana")
    )
    store = Store(server.database)
    advance(store, code, "serengeti", 40, random.Random(5), until=lambda s: s["phase"] == "auction")
    host.reload()
    host.wait_for_load_state("load")
    for selector in (".sg-lot", "#sg-bank", "#sg-players-title"):
        assert in_first_screen(host, selector), selector
    players = host.locator("#seats-region").bounding_box()
    panel = host.locator("#game-panel").bounding_box()
    assert players["y"] >= panel["y"] + panel["height"] - 1  # the seat tools come after
    shot(host, "tablet-serengeti-host", full_page=False)

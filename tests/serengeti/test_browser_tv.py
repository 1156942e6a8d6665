"""Serengeti on the table's TV (1920x1080): whose turn and what is on offer read from across the
room, 36 px or more (1.3rem of the display's type scale is 37 px there)."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import expect

from scripts.check_kit import Store, advance
from tests.helpers import font_px, shot, table_on_tv

pytestmark = pytest.mark.browser
SOON = 6000  # ms: a page polls every 2 s; an update must show within this
LARGE = 36  # px: read from across the table


def test_the_tv_shows_the_turn_and_the_lot_large(server, phone):
    tv, code = table_on_tv(phone, server, "serengeti", ("Anna", "Ben", "Chris"))
    store = Store(server.database)
    advance(store, code, "serengeti", 400, random.Random(5), until=lambda s: s["round"] == 3)
    advance(store, code, "serengeti", 40, random.Random(6), until=lambda s: s["phase"] == "auction")
    expect(tv.locator("#display-turn")).to_contain_text("Waiting for", timeout=SOON)
    expect(tv.locator(".sg-lot")).to_contain_text("On offer:", timeout=SOON)
    for selector in ("#display-turn", ".sg-lot", ".sg-lot .sg-tribe", ".sg-next"):
        assert font_px(tv, selector) >= LARGE, selector
    shot(tv, "tv-serengeti-auction", full_page=False)

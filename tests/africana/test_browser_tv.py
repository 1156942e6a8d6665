"""Africana on the table's TV (1920x1080): whose turn and what is on offer read from across the
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


def test_the_tv_shows_whose_turn_and_the_action_large(server, phone):
    tv, code = table_on_tv(phone, server, "africana", ("Anna", "Ben", "Chris"))
    store = Store(server.database)
    advance(store, code, "africana", 12, random.Random(5))
    caught_up(tv, store, code)
    expect(tv.locator(".af-whose")).to_be_visible()
    for selector in ("#display-turn", ".af-whose", ".af-action-now"):
        assert font_px(tv, selector) >= LARGE, selector
    shot(tv, "tv-africana", full_page=False)

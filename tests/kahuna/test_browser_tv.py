"""Kahuna on the table's TV (1920x1080): whose turn, the round and the face-up cards read from
across the room (36 px or more), the board large, and the final score table large."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import expect

from scripts.check_kit import Store, advance
from tests.helpers import caught_up, font_px, shot, table_on_tv

pytestmark = pytest.mark.browser
SOON = 6000  # ms: a page polls every 2 s; an update must show within this


def test_the_tv_shows_the_round_the_board_and_the_final_table_large(server, phone):
    tv, code = table_on_tv(phone, server, "kahuna", ("Anna", "Ben"))
    # Round 2, the face-up cards revealed.
    store = Store(server.database)
    rng = random.Random(3)
    advance(store, code, "kahuna", 400, rng, until=lambda s: s["round"] == 2)
    advance(store, code, "kahuna", 400, rng, until=lambda s: not s["pending_reveals"])
    caught_up(tv, store, code)
    expect(tv.locator("#display-turn")).to_contain_text("Waiting for", timeout=SOON)
    assert font_px(tv, "#display-turn") >= 36
    expect(tv.locator(".k-round p").filter(has_text="Face up:")).to_be_visible()
    assert font_px(tv, ".k-turn") >= 36  # the turn line
    assert tv.eval_on_selector_all(
        ".k-round p:not(.muted)",
        "ps => ps.every(p => parseFloat(getComputedStyle(p).fontSize) >= 36)",
    )  # the deck and the face-up cards
    board = tv.evaluate("document.querySelector('.k-board').getBoundingClientRect().height")
    assert board >= 700, board
    shot(tv, "evening-tv-kahuna", full_page=False)
    # The end: a big final table.
    advance(store, code, "kahuna", 5000, rng)
    expect(tv.locator("#display-turn")).to_contain_text("Winner", timeout=SOON)
    assert font_px(tv, ".k-result .score-table td") >= 30
    shot(tv, "evening-tv-kahuna-end", full_page=False)

"""Kahuna on the table's TV (1920x1080): the round and the board read from across the room, and
the final score table large."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import expect

from scripts.check_kit import Store, advance
from tests.helpers import SMALL_PHONE, open_table, shot

pytestmark = pytest.mark.browser
SOON = 6000  # ms: a page polls every 2 s; an update must show within this
TV = {"width": 1920, "height": 1080}


def font_px(page, selector: str) -> float:
    return page.eval_on_selector(selector, "e => parseFloat(getComputedStyle(e).fontSize)")


def test_the_tv_shows_the_round_the_board_and_the_final_table_large(server, phone):
    host = phone(viewport=SMALL_PHONE)
    code = open_table(host, server, game="kahuna", players="2", names=("Anna", "Ben"))
    host.locator("#table-menu summary").click()
    host.get_by_role("button", name="Table display: make a link").click()
    tv = phone(viewport=TV)
    tv.goto(host.locator("#link-box .join-url a").inner_text())
    for name in ("Anna", "Ben"):  # every seat taken: no way to join takes the TV's room
        page = phone(viewport=SMALL_PHONE)
        page.goto(f"{server.url}/t/{code}/join")
        page.get_by_role("button", name=name).click()
        expect(page.get_by_text(f"You are {name}.")).to_be_visible()
    expect(tv.locator("#display-join")).to_have_count(0, timeout=SOON)
    # Round 2, the face-up cards revealed.
    store = Store(server.database)
    rng = random.Random(3)
    advance(store, code, "kahuna", 400, rng, until=lambda s: s["round"] == 2)
    advance(store, code, "kahuna", 400, rng, until=lambda s: not s["pending_reveals"])
    expect(tv.locator("#display-turn")).to_contain_text("Waiting for", timeout=SOON)
    assert font_px(tv, ".k-round p") >= 28
    board = tv.evaluate("document.querySelector('.k-board').getBoundingClientRect().height")
    assert board >= 700, board
    shot(tv, "evening-tv-kahuna", full_page=False)
    # The end: a big final table.
    advance(store, code, "kahuna", 5000, rng)
    expect(tv.locator("#display-turn")).to_contain_text("Winner", timeout=SOON)
    assert font_px(tv, ".k-result .score-table td") >= 30
    shot(tv, "evening-tv-kahuna-end", full_page=False)

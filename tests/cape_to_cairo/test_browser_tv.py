"""From Cape to Cairo on the table's TV (1920x1080): whose turn and what is on offer read from across the
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


def test_the_tv_shows_the_turn_and_the_cards_on_offer_large(server, phone):
    tv, code = table_on_tv(phone, server, "cape_to_cairo", ("Anna", "Ben", "Chris"))
    store = Store(server.database)
    rng = random.Random(5)
    # The sealed bids: the cards they are for, on the TV.
    advance(store, code, "cape_to_cairo", 40, rng, until=lambda s: s["phase"] == "bidding")
    caught_up(tv, store, code)
    expect(tv.locator(".ctc-lot")).to_be_visible(timeout=SOON)
    assert font_px(tv, "#display-turn") >= LARGE
    assert font_px(tv, ".ctc-lot li") >= LARGE
    shot(tv, "tv-cape-bidding", full_page=False)
    # Building: whose turn, and the cards turned up since the last crossing.
    advance(store, code, "cape_to_cairo", 400, rng, until=lambda s: s["phase"] == "building")
    caught_up(tv, store, code)
    # (The choosing phase has a turn line too: wait for the building phase's own.)
    expect(tv.locator("#ctc-turn")).to_be_visible(timeout=SOON)
    expect(tv.locator("#ctc-turned")).to_be_attached()
    assert font_px(tv, "#ctc-turn") >= LARGE
    assert font_px(tv, "#ctc-turned") >= LARGE
    shot(tv, "tv-cape-building", full_page=False)


def test_the_host_tablet_shows_the_revealed_bids_in_its_first_screen(server, phone):
    """A 1024x768 host tablet in landscape at the reveal: the bids just opened and the round's
    question are in the first screen, the race beside them."""
    from tests.helpers import in_first_screen, open_table

    host = phone(viewport={"width": 1024, "height": 768})
    code = open_table(
        host, server, "cape_to_cairo", players="4", names=("Anna", "Ben", "Chris", "Dana")
    )
    store = Store(server.database)
    advance(
        store,
        code,
        "cape_to_cairo",
        200,
        random.Random(5),
        until=lambda s: s["phase"] in ("draw", "taking"),
    )
    host.reload()
    host.wait_for_load_state("load")
    for selector in ("#ctc-now h2", "#ctc-bids table"):
        assert in_first_screen(host, selector), selector
    shot(host, "tablet-cape-reveal", full_page=False)

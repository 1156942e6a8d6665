"""From Cape to Cairo on a small phone (360x740), four players (the most): the first screen of a
turn holds its controls with the facts to decide (the lot and the bid form; the cards to take;
the crossing's question, choices and Pass), nothing is wider than the screen, a bid above one's
money is the app's own refusal (no browser bubble), undo appears after one's own action and
brings the waiting panel back, the crossing's price opens in words, and the result and summary
fit the phone.

Screenshots to look at go to screenshots/ctc-phone-*.png (English, Japanese, Russian; light and
dark; 360x740 and 390x844).
"""

from __future__ import annotations

import random
import re

import pytest
from playwright.sync_api import expect

from companion.games.cape_to_cairo.random_play import legal_action
from companion.i18n import LANGUAGES
from tests.helpers import (
    PHONE,
    SMALL_PHONE,
    dark,
    in_first_screen,
    open_table,
    overflowing,
    shot,
    sit_down,
)
from tests.helpers import ServerStore as Store

pytestmark = pytest.mark.browser
NAMES = ("Anna", "Ben", "Chris", "Dora")
LOT = [("river", 1, 5), ("savanna", 2, 3), ("desert", 0, 7), ("village", 3, 9)]


def height(page) -> int:
    return page.evaluate("document.documentElement.scrollHeight")


def look(page, name: str) -> None:
    """The first screen, as the phone shows it before any scrolling."""
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, name, full_page=False)


def seat_phone(phone, server, code: str, url: str, name: str):
    """A phone at 360x740 that takes the seat called `name` through the join link `url`."""
    page = phone(viewport=SMALL_PHONE)
    sit_down(page, server, code, name, join=url)
    expect(page.get_by_text(f"You are {name}.")).to_be_visible()
    return page


def four_at_the_table(server, phone):
    """The host's device and four phones at 360x740; the lot of round 1 entered."""
    host = phone(viewport=SMALL_PHONE)
    code = open_table(host, server, game="cape_to_cairo", players="4", names=NAMES)
    url = host.locator(".join-url a").inner_text()
    phones = [seat_phone(phone, server, code, url, name) for name in NAMES]
    table = Store(server.database, code)
    table.act(
        *({"type": "card", "seat": None, "terrain": t, "marks": m, "income": i} for t, m, i in LOT)
    )
    for page in (host, *phones):
        page.reload()
    return host, phones, table, code


def test_each_turn_fits_the_first_screen_of_a_small_phone(server, phone):
    host, (anna, ben, chris, dora), table, code = four_at_the_table(server, phone)

    # Bidding: the lot and the bid form on the first screen.
    expect(ben.locator("[data-turn-panel] #ctc-bid-form")).to_be_visible()
    assert in_first_screen(ben, "[data-turn-panel]") and in_first_screen(ben, ".ctc-lot")
    assert overflowing(ben) == []
    print("bidding at 360x740:", height(ben), "px")
    look(ben, "ctc-phone-bid-en-360")

    # A bid above one's money: the request reaches the server, whose refusal shows in the page
    # with its rule; what was typed stays.
    dora.fill("#ctc-amount", "500")
    dora.click("#ctc-bid-form button[type=submit]")
    alert = dora.locator(".alert")
    expect(alert).to_contain_text("You hold 100 pounds: bid a whole number from 0 to 100.")
    expect(alert.get_by_role("link")).to_have_attribute("href", re.compile(r"#bid-range$"))
    expect(dora.locator("#ctc-amount")).to_have_value("500")
    look(dora, "ctc-phone-refusal-en-360")

    # One's own bid: "Undo" right above the panel; after the undo the bid form is back in view.
    anna.fill("#ctc-amount", "40")
    anna.click("#ctc-bid-form button[type=submit]")
    undo = anna.locator("#undo-here button")
    expect(undo).to_have_text("Undo: Anna has bid (sealed).")
    gap = anna.evaluate(
        """() => document.getElementById('game-panel').getBoundingClientRect().top
                 - document.getElementById('undo-here').getBoundingClientRect().bottom"""
    )
    assert 0 <= gap <= 16
    assert in_first_screen(anna, "#undo-here") and in_first_screen(anna, "#ctc-own-bid")
    look(anna, "ctc-phone-after-bid-en-360")
    anna.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    undo.click()
    expect(anna.locator("#ctc-bid-form")).to_be_visible()
    anna.wait_for_function(
        """() => { const box = document.querySelector('[data-turn-panel]').getBoundingClientRect();
                   return box.top >= -1 && box.top < window.innerHeight / 2; }""",
        timeout=5000,
    )

    # The host acting for a seat, and the table view: nothing wider than the screen.
    host.goto(f"{server.url}/t/{code}/?as=2")
    expect(host.locator("[data-turn-panel] #ctc-bid-form")).to_be_visible()
    assert overflowing(host) == []
    look(host, "ctc-phone-host-as-chris-360")
    host.goto(f"{server.url}/t/{code}/")
    assert overflowing(host) == []
    look(host, "ctc-phone-host-table-360")

    # Taking: the cards on offer are the buttons, all on the first screen.
    table.act(*({"type": "bid", "seat": s, "amount": a} for s, a in enumerate((40, 30, 20, 10))))
    anna.reload()
    expect(anna.locator("[data-turn-panel] #ctc-take-form")).to_be_visible()
    assert in_first_screen(anna, "[data-turn-panel]")
    assert overflowing(anna) == []
    print("taking at 360x740:", height(anna), "px")
    look(anna, "ctc-phone-take-en-360")

    # Building: Anna crosses or passes; the question, her choices and Pass on the first screen.
    table.act(
        {"type": "take", "seat": 0, "card": 0},
        {"type": "take", "seat": 1, "card": 1},
        {"type": "take", "seat": 2, "card": 2},
    )
    anna.reload()
    # First the card turned up from the deck: its symbols are four buttons on the first screen.
    expect(anna.locator("[data-turn-panel] #ctc-turn-up-form")).to_be_visible()
    assert in_first_screen(anna, "[data-turn-panel]")
    look(anna, "ctc-phone-turn-up-en-360")
    anna.locator("#ctc-turn-up-form button", has_text="3").click()
    expect(anna.locator("#ctc-cross .ctc-best")).to_contain_text("Cross for 60 pounds")
    assert in_first_screen(anna, "[data-turn-panel]") and in_first_screen(anna, "#ctc-pass-form")
    assert overflowing(anna) == []
    print("crossing at 360x740:", height(anna), "px")
    look(anna, "ctc-phone-cross-en-360")
    # Why 60 pounds: the arithmetic opens in words.
    anna.locator(".ctc-why summary").click()
    expect(anna.locator(".ctc-why")).to_contain_text("Tracks bought: 6 × £10 = £60.")
    shot(anna, "ctc-phone-cross-why-en-360")

    # Every language, light and dark, 360 and 390 wide: the crossing still fits.
    for lang in ("ja", "ru", "en"):
        anna.goto(f"{server.url}/lang/{lang}")
        anna.goto(f"{server.url}/t/{code}/")
        expect(anna.locator("html")).to_have_attribute("lang", lang)
        for theme in ("light", "dark"):
            anna.emulate_media(color_scheme="light")
            if theme == "dark":
                dark(anna)
            for size, viewport in (("360", SMALL_PHONE), ("390", PHONE)):
                anna.set_viewport_size(viewport)
                look(anna, f"ctc-phone-cross-{lang}-{theme}-{size}")
                assert overflowing(anna) == [], (lang, theme, size)
                # the controls: every way to pay and Pass (the arithmetic may follow below)
                assert in_first_screen(anna, ".ctc-choices"), (lang, theme, size)
                assert in_first_screen(anna, "#ctc-pass-form"), (lang, theme, size)
        anna.set_viewport_size(SMALL_PHONE)
    for lang in ("ja", "ru"):
        ben.goto(f"{server.url}/lang/{lang}")
        ben.goto(f"{server.url}/t/{code}/")
        assert overflowing(ben) == []
        look(ben, f"ctc-phone-watching-{lang}-360")


def test_the_result_and_the_summary_fit_a_small_phone(server, phone):
    host, (anna, *_), table, code = four_at_the_table(server, phone)
    rng = random.Random(7)
    for _ in range(5000):  # a random game to its end (a few hundred actions)
        state = table.state()
        if state["phase"] == "over":
            break
        table.act(legal_action(state, rng))
    assert table.state()["phase"] == "over"
    for lang in LANGUAGES:
        anna.goto(f"{server.url}/lang/{lang}")
        anna.goto(f"{server.url}/t/{code}/")
        expect(anna.locator("#ctc-scores")).to_be_visible()
        for theme in ("light", "dark"):
            anna.emulate_media(color_scheme=theme)
            assert overflowing(anna) == [], (lang, theme)
            assert anna.evaluate(
                "() => { const w = document.querySelector('#ctc-scores');"
                " return w.scrollWidth <= w.clientWidth; }"
            ), (lang, theme)  # the four players' table fits without scrolling sideways
            look(anna, f"ctc-phone-result-{lang}-{theme}-360")
            anna.goto(f"{server.url}/t/{code}/summary")
            expect(anna.locator("svg.chart")).to_have_count(3)
            assert overflowing(anna) == [], (lang, theme)
            shot(anna, f"ctc-phone-summary-{lang}-{theme}-360")
            anna.goto(f"{server.url}/t/{code}/")

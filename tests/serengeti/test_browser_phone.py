"""Serengeti on a small phone (360x740): the first screen holds the turn and what it needs, the
undo appears after one's own action, the payout opens to its arithmetic, a refusal is the app's
own message; and the screenshots to look at (three languages, light and dark, two sizes)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.helpers import (
    PHONE,
    SMALL_PHONE,
    dark,
    in_first_screen,
    open_table,
    overflowing,
    shot,
    sit_down,
    speak,
)
from tests.serengeti.test_browser import bid, enter_card, submit, sync, version

pytestmark = pytest.mark.browser

NAMES = ["Anna", "Ben", "Chris"]


def _seat(phone, server, join_url: str, seat: int, locale: str = "en-US", viewport=SMALL_PHONE):
    page = phone(locale=locale, viewport=viewport)
    code = join_url.split("/t/", 1)[1].split("/", 1)[0]
    sit_down(page, server, code, seat, join=join_url)
    expect(page.locator("#live")).to_be_visible()
    return page


def _table(phone, server, locale: str = "en-US", viewport=SMALL_PHONE):
    """A host and Anna's phone; the host enters a Tonga 7 so that Anna is to bid."""
    host = phone(viewport=viewport)
    open_table(host, server, "serengeti", names=NAMES)
    join_url = host.locator(".join-url a").inner_text()
    anna = _seat(phone, server, join_url, 0, locale, viewport)
    v = enter_card(host, "Tonga", 7)
    sync(anna, v)
    return host, anna, join_url


def page_height(page) -> int:
    return page.evaluate("document.documentElement.scrollHeight")


def test_the_bidding_turn_fits_the_first_screen_of_a_small_phone(server, phone):
    host, anna, _ = _table(phone, server)
    expect(anna.locator("#keypad")).to_be_visible()
    print("bidding page height at 360x740:", page_height(anna))
    # The turn, the lot on auction, the high bid and the controls: no scrolling.
    assert anna.locator("[data-turn-panel]").count() == 1
    shot(anna, "serengeti-bid-360-first-screen", full_page=False)
    for selector in ("#your-turn", "#sg-keypad-lot", "#sg-keypad-high", ".sg-quick", ".sg-pass"):
        assert in_first_screen(anna, selector), selector
    assert overflowing(anna) == []
    assert "Tonga" in anna.locator("#sg-keypad-lot").inner_text()
    # The host acting for Anna sees the same on its first screen (once joining is locked: while
    # seats are free, the core puts the invitation with its QR code first).
    submit(host, lambda: host.get_by_role("button", name="Lock joining").click())
    host.goto(host.url.split("?")[0] + "?as=0")
    expect(host.locator("#keypad")).to_be_visible()
    print("host acting for Anna, page height:", page_height(host))
    shot(host, "serengeti-host-as-anna-360-first-screen", full_page=False)
    shot(host, "serengeti-host-as-anna-360")
    for selector in ("#sg-keypad-lot", "#sg-keypad-high", ".sg-quick"):
        assert in_first_screen(host, selector), selector
    assert overflowing(host) == []
    # The table's own view (nobody's seat): whose turn, the lot and the high bid.
    host.goto(host.url.split("?")[0])
    expect(host.locator("#sg-high")).to_be_visible()
    shot(host, "serengeti-table-view-360-first-screen", full_page=False)
    for selector in (".waiting-for", "#sg-high", ".sg-status .sg-lot", ".sg-turn-name"):
        assert in_first_screen(host, selector), selector


def test_entering_a_card_fits_the_first_screen(server, phone):
    host = phone(viewport=SMALL_PHONE)
    open_table(host, server, "serengeti", names=NAMES)
    anna = _seat(phone, server, host.locator(".join-url a").inner_text(), 0)
    expect(anna.locator("#card-form")).to_be_visible()
    shot(anna, "serengeti-card-form-360-first-screen", full_page=False)
    assert in_first_screen(anna, "#card-form")
    assert overflowing(anna) == []


def test_undo_appears_above_the_panel_after_ones_own_bid_and_brings_the_keypad_back(server, phone):
    host, anna, _ = _table(phone, server)
    submit(anna, lambda: anna.locator('.sg-quick button:has-text("1")').first.click())
    undo = anna.locator("#undo-here button")
    expect(undo).to_contain_text("Undo")
    expect(undo).to_contain_text("Anna bid 1.")
    assert in_first_screen(anna, "#undo-here")
    submit(anna, undo.click)
    expect(anna.locator("#keypad")).to_be_visible()
    assert in_first_screen(anna, ".sg-quick")


def test_a_refused_bid_is_the_apps_own_message_with_its_rule(server, phone):
    host, anna, _ = _table(phone, server)
    # Anna owns no card, so the digit rule cannot refuse her: take a bid that is too high.
    anna.fill("#sg-amount", "1000")
    before = version(anna)
    anna.locator(".sg-bid-form button").click()
    alert = anna.locator("#live .alert")
    expect(alert).to_be_visible()
    expect(alert).to_contain_text("from 1 to 999")
    assert version(anna) == before  # the request reached the server; nothing was stored
    assert anna.locator("#sg-amount").get_attribute("max") is None
    assert anna.locator("#sg-amount").get_attribute("min") is None


def test_the_calculator_answers_a_bid_out_of_range_itself(server, phone):
    page = phone(viewport=SMALL_PHONE)
    page.goto(server.url + "/tools/serengeti/?variant=abacus&players=3&winner=0")
    page.fill("#bid", "1000")
    page.locator("#payout-form button[type=submit]").click()
    expect(page.locator("#bid-error")).to_have_text("The bid is a whole number from 1 to 999.")
    assert "bid=1000" in page.url  # the form was sent: no browser bubble stopped it
    expect(page.locator(".alert")).to_be_visible()
    assert overflowing(page) == []


def test_the_payout_line_opens_to_its_arithmetic(server, phone):
    host, anna, join_url = _table(phone, server)
    ben = _seat(phone, server, join_url, 1)
    chris = _seat(phone, server, join_url, 2)
    # Round 1: Tonga 7 to Anna for 7; nobody else owns a 7: Ben and Chris get 3, 1 to the bank.
    sync(ben, bid(anna, 7))
    v = submit(ben, lambda: ben.locator(".sg-pass button").click())
    sync(chris, v)
    v = submit(chris, lambda: chris.locator(".sg-pass button").click())
    sync(anna, v)
    why = anna.locator("#sg-payout-why")
    expect(why).to_contain_text("Anna paid 7: Ben 3, Chris 3, 1 to the bank")
    why.locator("summary").click()
    expect(why.locator(".sg-why")).to_contain_text("Only the last digit counts: 7 → 7.")
    expect(why.locator(".sg-why")).to_contain_text("the other players share it equally")
    expect(why.locator(".sg-why")).to_contain_text("Each of them receives 3 chips (7 ÷ 2).")
    assert overflowing(anna) == []


def test_screenshots_of_the_turn_in_three_languages_light_and_dark(server, phone):
    # One table: Anna's phone switches language (the cookie the footer's links set).
    host, anna, _ = _table(phone, server, "en-US", SMALL_PHONE)
    for locale in ("en-US", "ja-JP", "ru-RU"):
        anna.set_viewport_size(SMALL_PHONE)
        if locale != "en-US":
            speak(anna, server, locale[:2])
            anna.reload()
        expect(anna.locator("html")).to_have_attribute("lang", locale[:2])
        expect(anna.locator("#keypad")).to_be_visible()
        for viewport in (SMALL_PHONE, PHONE):  # the same phone turned wider: the page reflows
            anna.set_viewport_size(viewport)
            anna.emulate_media(color_scheme="light")
            size = f"{viewport['width']}"
            shot(anna, f"serengeti-turn-{locale}-{size}", full_page=False)
            assert overflowing(anna) == [], (locale, size)
            dark(anna)
            shot(anna, f"serengeti-turn-{locale}-{size}-dark", full_page=False)
            shot(anna, f"serengeti-turn-{locale}-{size}-dark-full")


LONG_NAMES = ["Alexandra", "Benjamin", "Christopher", "Dominique", "Evangeline"]


def _finish(server, code: str, variant: str) -> None:
    """Play the table to its end behind the server's back, on its database file (the way the
    Flask tests play a whole game), so the browser sees a finished game with its whole log."""
    from types import SimpleNamespace

    from companion import create_app
    from tests.serengeti.test_web import play_whole_game

    app = create_app(
        {"TESTING": True, "DATABASE": str(server.database), "SECRET_KEY": "browser-tests"}
    )
    play_whole_game(SimpleNamespace(app=app, code=code), variant)


@pytest.mark.parametrize(
    "variant,locales", [("serengeti", ("en-US", "ja-JP")), ("don", ("ru-RU",))]
)
def test_the_final_table_of_five_fits_360_px_and_the_summary_draws_the_game(
    server, phone, variant, locales
):
    host = phone(viewport=SMALL_PHONE)
    code = open_table(host, server, game=variant, players="5", names=LONG_NAMES)
    _finish(server, code, variant)
    for locale in locales:  # the same game, read in each language (the footer's links)
        speak(host, server, locale[:2])
        host.emulate_media(color_scheme="light")
        host.goto(f"{server.url}/t/{code}/")
        expect(host.locator("html")).to_have_attribute("lang", locale[:2])
        table = host.locator("#sg-score-table")
        expect(table).to_be_visible()
        # The comparison table fits: its wrapper never needs to scroll sideways.
        assert table.evaluate("e => e.scrollWidth <= e.clientWidth")
        assert overflowing(host) == []
        table.scroll_into_view_if_needed()
        shot(host, f"serengeti-final-{variant}-{locale}-360", full_page=False)
        host.locator("#sg-result-detail summary").click()
        shot(host, f"serengeti-final-{variant}-{locale}-360-detail")
        host.goto(f"{server.url}/t/{code}/summary")
        expect(host.locator("#summary-chart svg.chart")).to_have_count(2)
        assert overflowing(host) == []
        assert host.locator("#summary-scores").evaluate("e => e.scrollWidth <= e.clientWidth")
        shot(host, f"serengeti-summary-{variant}-{locale}-360")
        dark(host)
        shot(host, f"serengeti-summary-{variant}-{locale}-360-dark")


def test_tribe_buttons_keep_their_names_whole_in_japanese_at_360_px(server, phone):
    host = phone(locale="ja-JP", viewport=SMALL_PHONE)
    open_table(host, server, "serengeti", names=NAMES)
    tribes = host.locator("#card-form .sg-tribes label")
    tribes.first.click()  # a chosen one carries its tick too
    heights = host.evaluate(
        """() => [...document.querySelectorAll('#card-form .sg-tribes label > span')]
            .map(e => [e.textContent.trim(), e.getBoundingClientRect().height])"""
    )
    assert len(heights) == 6
    # One line each: the buttons' minimum height (48 px), not two lines of text.
    assert all(height <= 50 for _, height in heights), heights
    shot(host, "serengeti-tribes-ja-360", full_page=False)


def test_a_phone_left_scrolled_down_shows_its_next_step_when_the_table_moves_on(server, phone):
    """Anna's phone sits at the foot of the page (the history) while the others finish the
    auction: once the table moves on by itself, her next step (the card to turn up, said in
    the prompt under the turn line) comes into view."""
    from tests.helpers import ServerStore

    host = phone(viewport=SMALL_PHONE)
    code = open_table(host, server, "serengeti", names=NAMES)
    table = ServerStore(server.database, code)
    table.act({"type": "card", "seat": None, "tribe": "tonga", "digit": 7})
    anna = phone(viewport=SMALL_PHONE)
    sit_down(anna, server, code, 0)
    anna.wait_for_function("() => window.htmx && document.readyState === 'complete'")
    expect(anna.locator("#prompt")).to_contain_text("Bid ")
    anna.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    assert not in_view(anna, "#prompt")
    table.act(
        {"type": "pass", "seat": 0, "host": True},
        {"type": "bid", "seat": 1, "amount": 1},
        {"type": "pass", "seat": 2},
    )
    expect(anna.locator("#prompt")).to_contain_text("turned up", timeout=8000)
    anna.wait_for_function(
        """() => { const b = document.getElementById('prompt').getBoundingClientRect();
                   return b.top >= 0 && b.bottom <= innerHeight; }""",
        timeout=4000,
    )
    shot(anna, "serengeti-next-step-360", full_page=False)


def in_view(page, selector: str) -> bool:
    return page.eval_on_selector(
        selector,
        "e => { const b = e.getBoundingClientRect(); return b.top >= 0 && b.bottom <= innerHeight; }",
    )

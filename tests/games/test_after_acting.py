"""After acting, on a small phone (360x740), in every game (issue 24, item 4): the page had
scrolled the turn's panel to the top of the screen when the turn came, and the undo line that
appears above the panel after one's own entry must be on the screen as it is then (not only on
the first screen of the page: the phone is not scrolled back to the top for the check). And a
5-player Serengeti result fits 360 px: the page never scrolls sideways, and a table still wider
than its frame scrolls inside it with the row names fixed and a line that says so.

Screenshots to look at: screenshots/after-acting-<game>-<lang>-<width>.png,
screenshots/result-5-serengeti-<lang>-360*.png.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from companion.i18n import LANGUAGES
from tests.helpers import PHONE, SMALL_PHONE, open_table, overflowing, shot, sit_down, speak
from tests.helpers import ServerStore as Store

pytestmark = pytest.mark.browser

ON_SCREEN = """(selector) => {
    const box = document.querySelector(selector).getBoundingClientRect();
    return {top: box.top, bottom: box.bottom, screen: window.innerHeight, scrolled: scrollY};
}"""


def seated(phone, server, code: str, seat: int, locale: str, viewport: dict):
    """A phone that takes a seat; returned once its scripts run and the page stopped scrolling
    to the turn's panel (a smooth scroll)."""
    page = phone(locale=locale, viewport=viewport)
    sit_down(page, server, code, seat)
    expect(page.locator("#live")).to_be_visible()
    page.wait_for_function("() => window.htmx && document.readyState === 'complete'")
    settle(page)
    return page


def settle(page) -> None:
    """Wait until the page stops scrolling (its smooth scrolls end within a second)."""
    before = None
    for _ in range(30):
        now = page.evaluate("scrollY")
        if now == before:
            return
        before = now
        page.wait_for_timeout(150)


# Each game: a table where the phone of seat 0 is to act, and its entry (a tap or two).


def serengeti(server, host, code, game="serengeti"):
    Store(server.database, code).act({"type": "card", "seat": None, "tribe": "tonga", "digit": 7})
    return lambda page: page.locator(".sg-quick button").first.click()


def don(server, host, code):
    return serengeti(server, host, code, "don")


def cape_to_cairo(server, host, code):
    Store(server.database, code).act(
        *(
            {"type": "card", "seat": None, "terrain": t, "marks": m, "income": i}
            for t, m, i in [("river", 1, 5), ("savanna", 2, 3), ("desert", 0, 7)]
        )
    )

    def bid(page):
        page.fill("#ctc-amount", "40")
        page.click("#ctc-bid-form button[type=submit]")

    return bid


def africana(server, host, code):
    return lambda page: page.locator("#af-choose button[value=draw]").click()


def kahuna(server, host, code):
    Store(server.database, code).act(
        *({"type": "reveal", "seat": None, "island": i} for i in ("Coco", "Gola", "Lale"))
    )

    def build(page):
        # A finger on the middle of the site's line (the board is below the turn's panel: the
        # page scrolls down to it), then the card played, in the sheet that opens.
        link = page.locator('svg.k-board a[aria-label^="Bridge site Elai–Huna,"]')
        link.scroll_into_view_if_needed()
        x, y = link.evaluate(MIDDLE)
        page.touchscreen.tap(x, y)
        page.locator("#k-sheet").get_by_role("button", name="Card Elai").click()

    return build


MIDDLE = """a => {
    const line = a.querySelector('.k-hit');
    const m = line.getPointAtLength(line.getTotalLength() / 2);
    const p = new DOMPoint(m.x, m.y).matrixTransform(line.getScreenCTM());
    return [p.x, p.y];
}"""


GAMES = {
    "serengeti": (serengeti, ("Anna", "Ben", "Chris")),
    "don": (don, ("Anna", "Ben", "Chris")),
    "cape_to_cairo": (cape_to_cairo, ("Anna", "Ben", "Chris")),
    "africana": (africana, ("Anna", "Ben")),
    "kahuna": (kahuna, ()),
}


@pytest.mark.parametrize("game", list(GAMES))
def test_the_undo_line_is_on_the_screen_after_ones_own_entry(server, phone, game):
    prepare, names = GAMES[game]
    host = phone(viewport=SMALL_PHONE)
    code = open_table(host, server, game, str(max(len(names), 2)), names=names)
    entry = prepare(server, host, code)
    page = seated(phone, server, code, 0, "en-US", SMALL_PHONE)
    expect(page.locator("[data-turn-panel]").first).to_be_visible()
    scrolled = page.evaluate("scrollY")
    version = page.get_attribute("#live", "data-version")
    entry(page)
    expect(page.locator("#undo-here")).to_be_visible()
    assert page.get_attribute("#live", "data-version") != version
    settle(page)
    where = page.evaluate(ON_SCREEN, "#undo-here")
    print(game, "scrolled to the turn:", scrolled, "px; after the entry:", where)
    assert where["top"] >= 0 and where["bottom"] <= where["screen"], where
    expect(page.locator("#undo-here")).to_contain_text("Undo")
    shot(page, f"after-acting-{game}-en-360", full_page=False)


@pytest.mark.parametrize("locale", ["ja-JP", "ru-RU"])
@pytest.mark.parametrize("viewport", [SMALL_PHONE, PHONE], ids=["360", "390"])
def test_the_undo_line_after_a_bid_in_other_languages_and_widths(server, phone, locale, viewport):
    host = phone(viewport=viewport)
    code = open_table(host, server, "serengeti", "3", names=("Anna", "Ben", "Chris"))
    entry = serengeti(server, host, code)
    page = seated(phone, server, code, 0, locale, viewport)
    entry(page)
    expect(page.locator("#undo-here")).to_be_visible()
    settle(page)
    where = page.evaluate(ON_SCREEN, "#undo-here")
    assert where["top"] >= 0 and where["bottom"] <= where["screen"], where
    assert overflowing(page) == []
    shot(page, f"after-acting-serengeti-{locale[:2]}-{viewport['width']}", full_page=False)


LONG_NAMES = ("Anastasia", "Bartholomew", "Christina", "Dorothea", "Emmanuel")


def test_a_five_player_serengeti_result_fits_a_small_phone(server, phone):
    host = phone(viewport=SMALL_PHONE)
    code = open_table(host, server, "serengeti", "5", names=LONG_NAMES)
    Store(server.database, code).play_to_end(5)
    page = seated(phone, server, code, 0, "en-US", SMALL_PHONE)
    for lang in LANGUAGES:  # one table; the phone switches language
        speak(page, server, lang)
        page.goto(f"{server.url}/t/{code}/")
        expect(page.locator("html")).to_have_attribute("lang", lang)
        page.wait_for_function("() => window.htmx && document.readyState === 'complete'")
        settle(page)
        result_fits(page, lang)


def result_fits(page, lang: str) -> None:
    """The five players' result fits 360 px; the wider cards per tribe scroll in their frame."""
    expect(page.locator("#sg-result")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert overflowing(page) == []
    # The scores table fits as it is: nothing to scroll, nothing to say.
    table = page.locator("#sg-score-table")
    assert table.evaluate("e => e.scrollWidth <= e.clientWidth")
    assert page.locator("#sg-result > .scroll-hint").count() == 0
    shot(page, f"result-5-serengeti-{lang}-360")
    # The cards per tribe, five players across, are wider: they scroll inside their frame, the
    # row names stay in view, and a line above says so.
    page.locator("#sg-result-detail summary").click()
    wide = page.locator("#sg-result-detail .score-wrap")
    expect(wide).to_have_class("score-wrap sg-scroll scrolls")
    hint = page.locator("#sg-result-detail .scroll-hint")
    expect(hint).to_be_visible()
    if lang == "en":
        expect(hint).to_have_text("Swipe the table sideways to see all of it.")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    first = wide.locator("tbody th").first
    left = first.evaluate("e => e.getBoundingClientRect().left")
    wide.evaluate("e => { e.scrollLeft = e.scrollWidth; }")
    assert abs(first.evaluate("e => e.getBoundingClientRect().left") - left) < 1
    last = wide.locator("thead th").last
    assert last.evaluate("e => e.getBoundingClientRect().right") <= 360
    wide.scroll_into_view_if_needed()
    shot(page, f"result-5-serengeti-{lang}-360-detail", full_page=False)

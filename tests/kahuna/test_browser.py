"""Kahuna from two phones: enter the face-up cards, tap sites on the SVG board, say which cards.

White builds four bridges on Elai and takes it, destroying Black's two bridges there (the page
highlights them and the history says so); Black then removes a white bridge with two cards and
White loses Elai again. Screenshots at 390x844 go to screenshots/kahuna-*.png.
"""

from __future__ import annotations

import itertools
import re
from contextlib import contextmanager

import pytest
from playwright.sync_api import expect

from tests.helpers import open_table, shot, sit_down
from tests.kahuna.helpers import site

pytestmark = pytest.mark.browser


def screen(page, name: str) -> None:
    """What the phone's screen shows now, not the whole page as shot() saves it (the card
    question is fixed at the bottom of the screen)."""
    shot(page, name, full_page=False)


def seat_phone(phone, server, code: str, seat_name: str):
    """A new phone that takes the seat named seat_name (the join page's form)."""
    page = phone()
    sit_down(page, server, code, seat_name)
    expect(page.get_by_text(f"You are {seat_name}.")).to_be_visible()
    return page


# Where a finger goes on a site: the middle of its line (some lines are curved), once the board
# stands still and the site is what is drawn there. A live update arriving just now may move the
# board (on a busy machine the test read the place, then the page moved, then it tapped), and
# once the place read was not where the site was drawn (the tap met the sea): the place is read
# again, 150 ms apart, until two readings agree (a tap there is the site's: drawing.site_at, the
# middle of every line, tests/kahuna/test_drawing_taps.py).
SITE_UNDER_FINGER = """([selector, touch]) => {
    const a = document.querySelector(selector);
    if (!a) return false;
    const line = a.querySelector('.k-hit');
    const m = line.getPointAtLength(line.getTotalLength() / 2);
    const p = new DOMPoint(m.x, m.y).matrixTransform(line.getScreenCTM());
    const last = window.testFingerAt;
    window.testFingerAt = [touch, p.x, p.y];
    const still = !!last && last[0] === touch && last[1] === p.x && last[2] === p.y;
    return still && [p.x, p.y];
}"""


TOUCHES = itertools.count()


def touch(page, key: str) -> None:
    """A finger on the middle of a site's line, where the page draws that site."""
    page.locator(site(key)).scroll_into_view_if_needed()
    touch_id = next(TOUCHES)  # this touch's readings, not an earlier one's
    where = page.wait_for_function(
        SITE_UNDER_FINGER, arg=[site(key), touch_id], polling=150, timeout=5000
    )
    page.touchscreen.tap(*where.json_value())


def tap_site(page, key: str) -> None:
    """Tap a site on the SVG board and wait for the card question about that site."""
    touch(page, key)
    expect(page.locator("#k-sheet-title")).to_contain_text(key.replace("-", "–"))


def build(page, key: str, card: str) -> None:
    """Tap a free site, say the card, and see the bridge built (marked as just played)."""
    tap_site(page, key)
    page.locator("#k-sheet").get_by_role("button", name=f"Card {card}").tap()
    expect(page.locator("#k-sheet")).to_have_count(0)
    expect(page.locator(site(key))).to_have_class(
        "k-site " + ("white" if page.get_by_text("You are White.").count() else "black") + " played"
    )


@contextmanager
def poll_answered_late(page):
    """A poll that leaves now and is answered only after what the block does: on a slow network
    the answers to a phone's requests can come back in any order."""
    late = re.compile(r"/live\?")
    held: list = []
    page.route(late, lambda route: held.append(route))
    # The poller drops a poll while one is on its way (hx-sync="this:drop"): a poll that left
    # just before the route was set may take this one's place, so the poll is asked again.
    for _ in range(20):
        page.evaluate("htmx.trigger(document.querySelector('#live .poller'), 'poll')")
        for _ in range(10):
            if held:
                break
            page.wait_for_timeout(20)
        if held:
            break
    assert held, "the poll did not leave"
    yield
    with page.expect_response(late):
        for route in held:
            route.continue_()
    page.unroute(late)


def draw_from_deck(page) -> None:
    """End the turn with the deck's top card."""
    page.get_by_role("button", name="Draw from the deck").tap()
    expect(page.get_by_role("button", name="Draw from the deck")).to_have_count(0)


def test_two_phones_play_by_tapping_the_board(server, phone):
    host = phone()
    code = open_table(host, server, "kahuna", "2", names=())

    white = seat_phone(phone, server, code, "White")
    black = seat_phone(phone, server, code, "Black")
    expect(white.locator("#seats li").nth(1)).to_contain_text("phone online", timeout=5000)

    # The table enters the three face-up cards from any phone: one tap each.
    screen(white, "kahuna-0-face-up-picker")
    for island in ("Coco", "Gola", "Lale"):
        white.locator(".k-islands-pick").get_by_role("button", name=island, exact=True).tap()
        expect(white.locator(".log")).to_contain_text(f"Face-up card entered: {island}")
    expect(white.locator(".k-round")).to_contain_text("Face up: Coco, Gola, Lale.")
    expect(black.get_by_text("Waiting for White to play.")).to_be_visible(timeout=5000)
    shot(white, "kahuna-1-start")

    # White: two bridges on Elai, then a card from the deck.
    tap_site(white, "Elai-Huna")
    sheet = white.locator("#k-sheet")
    expect(sheet).to_contain_text("Which card did you play")
    expect(sheet.get_by_role("button")).to_have_text(["Card Elai", "Card Huna"])
    # The tapped site (low on the screen after the tap) is scrolled up above the question.
    white.wait_for_function(
        """() => {
        const site = document.querySelector('svg.k-board .k-site.selected');
        const sheet = document.getElementById('k-sheet');
        return site && sheet && site.getBoundingClientRect().bottom < sheet.getBoundingClientRect().top;
    }""",
        timeout=3000,
    )
    screen(white, "kahuna-2-card-question")
    sheet.get_by_role("button", name="Card Elai").tap()
    expect(sheet).to_have_count(0)
    # A poll's answer comes after the build's own, into the region the build replaced: the board
    # keeps its look and its tap areas (its stylesheet was once lost that way: a black box).
    with poll_answered_late(white):
        build(white, "Duda-Elai", "Duda")
    expect(white.locator("svg.k-board .k-sea")).to_have_css("fill", "rgb(207, 228, 236)")
    draw_from_deck(white)

    # Black sees the bridges arrive by polling; a tap on White's bridge offers nothing yet
    # (it is White's turn) - after White's draw it is Black's turn: two bridges on Elai.
    expect(black.locator(site("Elai-Huna"))).to_have_class("k-site white", timeout=5000)
    expect(black.locator(".k-turn")).to_contain_text("Your turn.", timeout=5000)
    build(black, "Elai-Faaa", "Faaa")
    build(black, "Elai-Jojo", "Jojo")
    draw_from_deck(black)

    # White's third and fourth bridge on Elai take it: Black's two bridges there are destroyed.
    expect(white.locator(".k-turn")).to_contain_text("Your turn.", timeout=5000)
    build(white, "Bari-Elai", "Bari")
    tap_site(white, "Elai-Iffi")
    white.locator("#k-sheet").get_by_role("button", name="Card Iffi").tap()
    expect(white.locator('.k-island[aria-label^="Elai."]')).to_have_class("k-island gained white")
    for key in ("Elai-Faaa", "Elai-Jojo"):
        expect(white.locator(f"{site(key)} .k-fx-destroyed")).to_have_count(1)
    expect(white.locator(".k-last")).to_contain_text(
        "White took Elai: black bridges Elai–Faaa and Elai–Jojo destroyed."
    )
    expect(white.locator(".log")).to_contain_text(
        "White took Elai: black bridges Elai–Faaa and Elai–Jojo destroyed."
    )
    white.wait_for_timeout(600)  # mid-flash
    shot(white, "kahuna-3-white-takes-elai")
    expect(black.locator('.k-island[aria-label^="Elai."] .k-stone.white')).to_have_count(
        1, timeout=5000
    )
    draw_from_deck(white)

    # Black removes White's bridge Elai-Huna with Elai + Huna: White loses Elai.
    expect(black.locator(".k-turn")).to_contain_text("Your turn.", timeout=5000)
    tap_site(black, "Elai-Huna")
    sheet = black.locator("#k-sheet")
    expect(sheet).to_contain_text("Which two cards did you play to remove this bridge?")
    screen(black, "kahuna-4-removal-question")
    sheet.get_by_role("button", name="Cards Elai + Huna").tap()
    expect(black.locator('.k-island[aria-label^="Elai."]')).to_have_class("k-island lost")
    expect(black.locator(".log")).to_contain_text("White lost Elai")
    black.wait_for_timeout(600)
    shot(black, "kahuna-5-black-removes")

    # A refusal: White's phone taps a site while it is Black's turn.
    tap_site(white, "Aloa-Bari")
    expect(white.locator("#k-sheet [role=alert]")).to_contain_text(
        "It is not your turn: Black plays now."
    )
    expect(white.locator("#k-sheet a", has_text="Why? Read the rule")).to_have_attribute(
        "href", "/rules/kahuna#turn-order"
    )
    screen(white, "kahuna-6-not-your-turn")
    # The question stays open while the table moves on: Black's draw reaches White's phone by
    # the poll, which keeps the tapped site, so the same question now offers White's cards.
    draw_from_deck(black)
    sheet = white.locator("#k-sheet")
    expect(sheet).to_contain_text("Which card did you play to build here?", timeout=5000)
    expect(sheet.get_by_role("button")).to_have_text(["Card Aloa", "Card Bari"])
    expect(sheet).to_contain_text("Aloa–Bari")
    white.locator("#k-sheet").get_by_role("link", name="Cancel").tap()
    expect(white.locator("#k-sheet")).to_have_count(0)


def test_the_control_checker_by_tapping(server, phone):
    page = phone()
    page.goto(server.url + "/tools/kahuna/")
    page.evaluate("window.scrollTo(0, 0)")
    # Aloa has 3 sites: two white bridges hold it. Tap once for white, twice for black.
    for key in ("Aloa-Bari", "Aloa-Duda"):
        touch(page, key)
        expect(page.locator(site(key))).to_have_class("k-site white")
    expect(page.locator("#k-held-white")).to_have_text("1")
    expect(page.locator('.k-island[aria-label^="Aloa."] .k-stone.white')).to_have_count(1)
    expect(page.locator("#k-round-points")).to_contain_text("Round 1: White +1")
    assert "white=Aloa-Bari,Aloa-Duda" in page.url  # the position is in the address
    for key in ("Aloa-Huna", "Duda-Huna", "Elai-Huna"):  # Aloa-Huna is drawn curved round Duda
        touch(page, key)
        expect(page.locator(site(key))).to_have_class("k-site white")
        touch(page, key)
        expect(page.locator(site(key))).to_have_class("k-site black")
    expect(page.locator("#k-held-black")).to_have_text("1")  # Huna: 3 of 5
    expect(page.locator("#k-round-points")).to_contain_text("Round 3: nobody scores")
    shot(page, "kahuna-7-checker")
    page.go_back()
    expect(page.locator(site("Elai-Huna"))).to_have_class("k-site white")


def test_kahuna_pages_pass_axe_and_fit_a_phone(server, phone):
    from axe_playwright_python.sync_playwright import Axe

    host = phone()
    code = open_table(host, server, "kahuna", "2", names=())
    white = seat_phone(phone, server, code, "White")
    for island in ("Coco", "Gola", "Lale"):
        white.locator(".k-islands-pick").get_by_role("button", name=island, exact=True).tap()
        expect(white.locator(".log")).to_contain_text(f"Face-up card entered: {island}")
    tap_site(white, "Elai-Huna")
    dark = phone()
    dark.emulate_media(color_scheme="dark")
    dark.goto(server.url + "/tools/kahuna/?white=Aloa-Bari,Aloa-Duda&black=Elai-Faaa")
    shot(dark, "kahuna-8-checker-dark")
    rules = phone()
    rules.goto(server.url + "/rules/kahuna#chain")
    problems, wide = {}, {}
    for name, page in [("table", white), ("host", host), ("checker", dark), ("rules", rules)]:
        serious = [
            (v["id"], v["help"], [n["target"] for n in v["nodes"]][:3])
            for v in Axe().run(page).response["violations"]
            if v["impact"] in ("serious", "critical")
        ]
        if serious:
            problems[name] = serious
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > 390:
            wide[name] = width
    assert problems == {} and wide == {}

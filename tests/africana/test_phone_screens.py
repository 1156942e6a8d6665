"""Africana on a small phone (360x740): a move turn shows one entry at a time with the facts to
decide it in the first screen, undo sits right above the panel, refusals are the app's own
messages (no browser bubble), and the result and the summary fit with four players.

Screenshots (screenshots/africana-phone-*.png) are written in three languages, light and dark,
at 360x740 and 390x844, to look at."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from companion.i18n import LANGUAGES
from tests.games.prompt_fit import prompts_too_long
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

pytestmark = pytest.mark.browser

MOVE_FORMS = ("#af-join", "#af-complete-exp", "#af-artifact", "#af-guide", "#af-colour")


def seated(phone, server, code, names, viewport=SMALL_PHONE):
    """One page per seat, joined under these names."""
    pages = []
    for seat, name in enumerate(names):
        page = phone(viewport=viewport)
        sit_down(page, server, code, seat, name)
        expect(page.locator("#live")).to_be_visible()
        pages.append(page)
    return pages


def start(phone, server, viewport=SMALL_PHONE):
    """A 2-player table; Anna draws and ends her turn; Ben's phone chooses to move."""
    host = phone(viewport=viewport)
    code = open_table(host, server, game="africana", players="2", names=())
    anna, ben = seated(phone, server, code, ("Anna", "Ben"), viewport)
    for page in (anna, ben, host):
        expect(page.locator("#seats")).to_contain_text("Ben", timeout=6000)
    anna.locator("#af-choose button[value=draw]").click()
    anna.locator("#af-end button[type=submit]").first.click()
    expect(ben.locator("#af-turn[data-turn-panel]")).to_be_visible(timeout=6000)
    ben.locator("#af-choose button[value=move]").click()
    expect(ben.locator("#af-move-pick")).to_be_visible()
    return host, anna, ben, code


def visible_move_forms(page) -> list[str]:
    return [sel for sel in MOVE_FORMS if page.locator(sel).is_visible()]


def test_a_move_turn_shows_one_entry_at_a_time_in_the_first_screen(server, phone):
    host, anna, ben, code = start(phone, server)
    ben.evaluate("window.scrollTo(0, 0)")
    # Whose turn, the choice and the facts to decide it (coins, markers, the row): no scrolling.
    # The free markers are in the line under "Your turn." (Rules.prompt), the coins just below.
    for selector in ("#your-turn", "#prompt", "#af-turn h2", "#af-move-facts", "#af-move-pick"):
        assert in_first_screen(ben, selector), selector
    expect(ben.locator("#prompt")).to_have_text(
        "Enter joins (4 markers free), completions, colour changes."
    )
    expect(ben.locator("#af-move-facts")).to_contain_text("You have 2 silver.")
    assert visible_move_forms(ben) == []  # nothing picked yet: no form at all
    assert overflowing(ben) == []
    shot(ben, "africana-phone-move-360", full_page=False)
    # Picking an entry shows its form, and only it.
    ben.locator("label[for=af-pick-join]").click()
    assert visible_move_forms(ben) == ["#af-join"]
    expect(ben.locator("#af-join")).to_be_in_viewport()
    ben.locator("label[for=af-pick-colour]").click()
    assert visible_move_forms(ben) == ["#af-colour"]
    # Joining: the entry goes in, the row shows it, the undo sits right above the panel.
    ben.locator("label[for=af-pick-join]").click()
    ben.check("#af-join-slot-2")
    ben.fill("#af-join-bonus", "3")
    ben.locator("#af-join button[type=submit]").click()
    expect(ben.locator("#af-account-1 .af-balance")).to_have_text("5 silver")
    expect(ben.locator(".af-mini-row li.af-mine")).to_have_count(1)
    undo = ben.locator("#undo-here")
    expect(undo).to_contain_text("Undo: Ben joined the expedition in space 2")
    above = ben.evaluate("() => document.querySelector('#undo-here').nextElementSibling.id")
    assert above == "game-panel"
    height = ben.evaluate("document.documentElement.scrollHeight")
    shot(ben, "africana-phone-after-join-360")
    # Undo takes the entry back and the waiting panel is in view.
    undo.locator("button").click()
    expect(ben.locator("#af-account-1 .af-balance")).to_have_text("2 silver")
    expect(ben.locator("#af-turn")).to_be_in_viewport()
    assert height < 3200, height  # was 3583 px with every move form open


def test_a_refusal_is_the_apps_message_not_a_browser_bubble(server, phone):
    host, anna, ben, code = start(phone, server)
    # No space picked, a negative bonus: the browser sends it, the app says which rule.
    ben.locator("label[for=af-pick-join]").click()
    ben.fill("#af-join-bonus", "-3")
    with ben.expect_response(lambda r: "/act/join_expedition" in r.url):
        ben.locator("#af-join button[type=submit]").click()
    alert = ben.locator("#af-join .af-inline-alert")
    expect(alert).to_be_visible()
    expect(alert.locator("a")).to_have_attribute("href", "/rules/africana#join-expedition")
    assert visible_move_forms(ben) == ["#af-join"]  # the refused form stays picked
    expect(ben.locator("#af-join-bonus")).to_have_value("-3")  # and keeps what was typed
    expect(ben.locator(".alert:visible")).to_have_count(1)  # shown once, next to its form
    # Too many colour changes for the coins: "you have", with the rule.
    ben.locator("label[for=af-pick-colour]").click()
    ben.fill("#af-colour-cards", "2")
    with ben.expect_response(lambda r: "/act/change_colour" in r.url):
        ben.locator("#af-colour button[type=submit]").click()
    expect(ben.locator("#af-colour .af-inline-alert")).to_contain_text(
        "but you have 2 silver (enough for 0)"
    )
    expect(ben.locator("#af-colour .af-inline-alert")).to_be_in_viewport()
    shot(ben, "africana-phone-refusal-360", full_page=False)


def test_a_payment_opens_to_show_its_sum(server, phone):
    host = phone(viewport=SMALL_PHONE)
    code = open_table(host, server, game="africana", players="2", names=())
    anna, ben = seated(phone, server, code, ("Anna", "Ben"))
    expect(anna.locator("#seats")).to_contain_text("Ben", timeout=6000)
    anna.locator("#af-choose button[value=buy]").click()
    anna.fill("#af-pages-n", "3")
    anna.locator("#af-pages button[type=submit]").click()
    expect(anna.locator("#af-account-0 .af-balance")).to_have_text("0 silver")
    anna.locator("#af-account-0 > summary").click()
    why = anna.locator("#af-account-0 .af-why").first
    why.locator("summary").click()
    expect(why).to_contain_text(
        "3 pages: the first page of a turn is free, the other 2 cost 1 silver each: 2 silver."
    )
    assert overflowing(anna) == []
    why.scroll_into_view_if_needed()
    shot(anna, "africana-phone-payment-360", full_page=False)


def test_the_host_entering_a_turn_and_the_table_view_fit_too(server, phone):
    host, anna, ben, code = start(phone, server)
    host.goto(f"{server.url}/t/{code}/?as=1")
    expect(host.locator("#af-turn[data-turn-panel]")).to_be_visible()
    host.evaluate("window.scrollTo(0, 0)")
    assert in_first_screen(host, "#af-move-facts")
    assert overflowing(host) == []
    shot(host, "africana-phone-host-as-360", full_page=False)
    host.goto(f"{server.url}/t/{code}/")
    expect(host.locator("#af-turn")).to_contain_text("Enter the turn of Ben")
    assert in_first_screen(host, "#af-turn a.button")
    assert overflowing(host) == []
    shot(host, "africana-phone-table-360", full_page=False)


def test_screenshots_of_a_move_turn_in_each_language_light_and_dark(server, phone):
    host, anna, ben, code = start(phone, server)
    for lang in LANGUAGES:  # Ben's phone switched to each language in the footer
        speak(ben, server, lang)
        ben.set_viewport_size(SMALL_PHONE)
        ben.emulate_media(color_scheme="light")
        ben.reload()
        expect(ben.locator("html")).to_have_attribute("lang", lang)
        ben.locator("label[for=af-pick-join]").click()
        for viewport in (SMALL_PHONE, PHONE):  # the same phone turned to 390 px: the page reflows
            ben.set_viewport_size(viewport)
            assert overflowing(ben) == []
            ben.evaluate("window.scrollTo(0, 0)")
            name = f"africana-phone-move-{lang}-{viewport['width']}"
            shot(ben, name, full_page=False)
            assert in_first_screen(ben, "#af-move-pick")
        dark(ben)
        shot(ben, f"africana-phone-move-{lang}-{PHONE['width']}-dark")


def test_the_result_and_the_summary_fit_a_small_phone_with_four_players(server, phone):
    host = phone(viewport=SMALL_PHONE)
    host.on("dialog", lambda dialog: dialog.accept())
    code = open_table(
        host, server, game="africana", players="4", names=("Annabelle", "Benedikt", "Chris", "Dora")
    )
    host.locator("#af-host button").click()
    expect(host.locator("#af-over")).to_be_visible()
    for seat, points in enumerate((31, 27, 44, 12)):
        host.goto(f"{server.url}/t/{code}/?as={seat}")
        host.fill("#expedition_points-0", str(points))
        host.fill("#silver", str(seat + 2))
        with host.expect_response(lambda r: "/act/submit_sheet" in r.url):
            host.locator("#af-sheet button[type=submit]").click()
    host.goto(f"{server.url}/t/{code}/")
    table = host.locator("#af-ranking")
    expect(table).to_be_visible()
    expect(table.locator("thead .who")).to_have_text(["Chris", "Annabelle", "Benedikt", "Dora"])
    assert overflowing(host) == []
    fits = host.evaluate(
        "() => { const t = document.querySelector('#af-ranking table');"
        " return t.getBoundingClientRect().right <= document.documentElement.clientWidth; }"
    )
    assert fits  # the whole table, not only its scrolling wrapper
    table.scroll_into_view_if_needed()
    shot(host, "africana-phone-result-360", full_page=False)
    host.goto(f"{server.url}/t/{code}/summary")
    expect(host.locator("#summary-chart svg")).to_be_visible()
    assert overflowing(host) == []
    shot(host, "africana-phone-summary-360")
    dark(host)
    shot(host, "africana-phone-summary-360-dark")


def test_every_prompt_fits_two_lines_on_a_small_phone_in_every_language(app, phone, server):
    """The line under "Your turn." (Rules.prompt), every one a random game reaches, with its
    numbers, in English, Japanese and Russian: at most two lines at 360 px."""
    assert prompts_too_long(app, phone, server, "africana") == {}

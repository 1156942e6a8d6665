"""Ask the rules on a 360 px phone: results come as you type, in the reader's language, and a
result opens its entry on the game's rules page."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.helpers import (
    SMALL_PHONE,
    dark,
    open_table,
    overflowing,
    serious_accessibility_problems,
    shot,
    speak,
)

pytestmark = pytest.mark.browser


# What a reader in each language types, and a word of the entry that should come first.
SEARCHES = (
    ("en-US", "pebble falls", "pebble"),
    ("ja-JP", "落ちた石", "石"),
    ("ru-RU", "упавший камешек", "камеш"),
)


def test_results_come_as_you_type_and_open_the_entry(server, phone):
    page = phone(viewport=SMALL_PHONE)
    for locale, query, title in SEARCHES:  # one phone, its language switched in the footer
        speak(page, server, locale[:2])
        page.goto(f"{server.url}/rules/")
        page.locator("#rule-search-q").press_sequentially(query, delay=20)
        first = page.locator(".answer")  # the best entry, in full
        expect(first).to_be_visible()
        expect(first.locator(".answer-title")).to_contain_text(title, ignore_case=True)
        assert page.url.endswith("/rules/")  # htmx: the results came into the page
        assert not overflowing(page)
        shot(page, f"search-{locale}")
        if locale == "en-US":
            dark(page)
            shot(page, "search-dark")
            assert not serious_accessibility_problems(page)
            page.emulate_media(color_scheme="light")
        href = first.locator(".answer-title a").get_attribute("href")
        first.locator(".answer-title a").click()
        page.wait_for_url(f"**{href}")
        anchor = href.split("#")[1]
        expect(page.locator(f"[id='{anchor}']")).to_be_in_viewport()


def test_without_javascript_the_form_still_answers(server, browser):
    context = browser.new_context(viewport=SMALL_PHONE, java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(f"{server.url}/rules/search?game=pebbles")  # one game's search
        page.fill("#rule-search-q", "pile")
        page.locator(".rule-search button[type=submit]").click()
        page.wait_for_url("**/rules/search?q=pile&game=pebbles")
        expect(page.locator(".answer")).to_contain_text("pile")
        expect(page.locator('.answer a[href^="/rules/pebbles#"]').first).to_be_visible()
    finally:
        context.close()


# A question about the table's game in each language, its entry, and the way back.
TABLE_QUESTIONS = (
    ("en-US", "what if a pebble falls?", "drop", "Back to the table"),
    ("ja-JP", "石は何個取れる？", "take", "テーブルに戻る"),
    ("ru-RU", "кто может задать размер кучи?", "pile", "Вернуться к столу"),
)


def test_a_table_asks_the_rules_from_its_menu_and_goes_back(server, phone):
    game = "pebbles"
    page = phone(viewport=SMALL_PHONE)
    code = open_table(page, server, game=game)
    table_url = page.url
    for locale, question, anchor, label in TABLE_QUESTIONS:
        speak(page, server, locale[:2])
        page.goto(table_url)
        page.locator("#table-menu summary").click()
        page.locator(f'#table-menu a[href="/t/{code}/rules"]').click()
        page.wait_for_url(f"**/t/{code}/rules")
        expect(page.locator("#table-menu")).to_be_visible()  # the table's bar stays
        page.locator("#rule-search-q").press_sequentially(question, delay=10)
        answer = page.locator(".answer")
        expect(answer.locator(f'a[href="/rules/{game}#{anchor}"]')).to_be_visible()
        assert page.url.endswith(f"/t/{code}/rules")  # htmx: the results came into the page
        pages = page.locator(".search-results a[href^='/rules/']").evaluate_all(
            "links => links.map(a => a.getAttribute('href').split('/')[2].split('#')[0])"
        )
        assert set(pages) == {game}  # the table's game only
        expect(page.get_by_role("link", name=label)).to_be_visible()
        assert not overflowing(page)
        shot(page, f"table-search-{locale}")
        page.get_by_role("link", name=label).click()
        page.wait_for_url(table_url)
        expect(page.locator("#live")).to_be_visible()


def test_a_table_search_of_all_games_is_one_tap_away(server, phone):
    page = phone(viewport=SMALL_PHONE)
    code = open_table(page, server)
    page.goto(f"{server.url}/t/{code}/rules?q=tie")
    expect(page.locator(".answer")).to_be_visible()
    page.get_by_role("link", name="Search all games").click()
    page.wait_for_url(f"**/t/{code}/rules?q=tie&all=1")
    page.locator("#rule-search-q").fill("")
    page.locator("#rule-search-q").press_sequentially("how many pebbles can I take", delay=10)
    expect(page.locator('.search-results a[href="/rules/pebbles#take"]')).to_be_visible()
    pages = page.locator(".search-results a[href^='/rules/']").evaluate_all(
        "links => links.map(a => a.getAttribute('href').split('/')[2].split('#')[0])"
    )
    assert set(pages) - {"pebbles"}, pages  # the other games' rules answer too
    dark(page)
    shot(page, "table-search-all-dark")
    assert not serious_accessibility_problems(page)

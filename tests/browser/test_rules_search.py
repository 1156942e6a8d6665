"""Ask the rules on a 360 px phone: results come as you type, in the reader's language, and a
result opens its entry on the game's rules page."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.helpers import SMALL_PHONE, dark, overflowing, serious_accessibility_problems, shot

pytestmark = pytest.mark.browser


@pytest.mark.parametrize(
    "locale, query, title",
    [
        ("en-US", "bonus track", "bonus"),
        ("ja-JP", "川 ボーナス 何枚", "川"),
        ("ru-RU", "сколько приключений", "приключ"),
    ],
)
def test_results_come_as_you_type_and_open_the_entry(server, phone, locale, query, title):
    page = phone(locale=locale, viewport=SMALL_PHONE)
    page.goto(f"{server.url}/rules/")
    page.locator("#rule-search-q").press_sequentially(query, delay=20)
    first = page.locator(".search-hits li").first
    expect(first).to_be_visible()
    expect(first.locator(".hit-title")).to_contain_text(title, ignore_case=True)
    assert page.url.endswith("/rules/")  # htmx: the results came into the page
    assert not overflowing(page)
    shot(page, f"search-{locale}")
    if locale == "en-US":
        dark(page)
        shot(page, "search-dark")
        assert not serious_accessibility_problems(page)
    href = first.locator("a").get_attribute("href")
    first.locator("a").click()
    page.wait_for_url(f"**{href}")
    anchor = href.split("#")[1]
    expect(page.locator(f"[id='{anchor}']")).to_be_in_viewport()


def test_without_javascript_the_form_still_answers(server, browser):
    context = browser.new_context(viewport=SMALL_PHONE, java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(f"{server.url}/rules/kahuna")
        page.fill("#rule-search-q", "Aloa")
        page.locator(".rule-search button[type=submit]").click()
        page.wait_for_url("**/rules/search?q=Aloa&game=kahuna")
        expect(page.locator(".search-hits li").first).to_contain_text("island")
    finally:
        context.close()

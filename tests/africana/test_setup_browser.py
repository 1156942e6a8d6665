"""The start of an Africana evening for 3, as the issue's newcomers play it: the host's tablet and
the TV show the set-up guide, a tick shows on the TV, the start player is picked at random on the
TV, the clock runs on the start player's phone and the TV, pauses for a break, survives a reload
and runs on. Screenshots: screenshots/africana-setup-*.png (`make screenshots`)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.helpers import SMALL_PHONE, TV, open_table, shot, sit_down

pytestmark = pytest.mark.browser
NAMES = ("Anna", "Ben", "Chris")
SOON = 6000  # ms: a page polls every 2 s; an update must show within this
TABLET = {"width": 1024, "height": 768}


def clock_seconds(page, selector: str) -> int:
    text = page.locator(selector).first.inner_text()
    minutes, seconds = text.replace("\u2212", "").split(":")[-2:]
    return int(minutes) * 60 + int(seconds)


def test_set_up_pick_and_a_clock_that_pauses_on_the_phones_and_the_tv(server, phone):
    host = phone(viewport=TABLET)
    code = open_table(host, server, "africana", "3", names=NAMES)
    expect(host.locator("#setup-card")).to_be_visible()
    expect(host.locator("#setup-company-1")).to_contain_text("Italy")
    shot(host, "africana-setup-host-tablet")
    host.locator("#table-menu summary").click()
    host.get_by_role("button", name="Table display: make a link").click()
    link = host.locator("#link-box .join-url a").inner_text()
    tv = phone(viewport=TV)
    tv.goto(link)
    expect(tv.locator("#setup-card")).to_be_visible()
    expect(tv.locator("#setup-expeditions")).to_contain_text("7 C cards")

    # A tick on the host's tablet shows on the TV; nothing is written in the history.
    host.locator("#setup-bank button.tick").click()
    expect(tv.locator("#setup-bank")).to_have_class(re.compile("done"), timeout=SOON)

    # The pick: the TV says who starts; that person is in seat 1 now.
    host.get_by_role("button", name="Pick the start player at random").click()
    expect(tv.locator(".display-history")).to_contain_text("Picked at random", timeout=SOON)
    starter = re.search(r"Start player: (\w+)", tv.locator("#start-pick").inner_text())[1]
    shot(tv, "africana-setup-tv")

    # The start player's phone; the host starts the clock: it runs on the phone and the TV.
    first = phone(viewport=SMALL_PHONE)
    sit_down(first, server, code, starter)
    expect(first.get_by_text(f"You are {starter}.")).to_be_visible()
    host.get_by_role("button", name="Everything is set up: start the clock").click()
    expect(first.locator("#your-turn .clock.running")).to_be_visible(timeout=SOON)
    expect(tv.locator("#display-turn .clock")).to_be_visible(timeout=SOON)
    before = clock_seconds(first, "#your-turn .clock")
    first.wait_for_timeout(3500)  # the page shows whole seconds, once a second
    assert clock_seconds(first, "#your-turn .clock") >= before + 2  # it counts on by itself
    shot(first, "africana-clock-phone-360", full_page=False)

    # A break: the host pauses; the phone and the TV say so and their clocks stand still.
    host.get_by_role("button", name="Pause the clock").click()
    expect(first.locator("#clock-paused")).to_be_visible(timeout=SOON)
    expect(tv.locator("#clock-paused")).to_be_visible(timeout=SOON)
    first.wait_for_timeout(1200)  # the last second shown before the pause has been drawn
    stopped = clock_seconds(first, "#your-turn .clock")
    first.wait_for_timeout(2200)
    assert clock_seconds(first, "#your-turn .clock") == stopped
    first.reload()  # a reload counts from the server's figures: still paused, the same time
    expect(first.locator("#clock-paused")).to_be_visible()
    assert abs(clock_seconds(first, "#your-turn .clock") - stopped) <= 1
    shot(tv, "africana-clock-tv-paused")
    host.get_by_role("button", name="Resume the clock").click()
    expect(first.locator("#clock-paused")).to_have_count(0, timeout=SOON)
    first.wait_for_timeout(2200)
    assert clock_seconds(first, "#your-turn .clock") >= stopped + 1

"""A whole evening's devices at one table: a host tablet, phones and a TV. The host role handed
to a seated phone (it keeps its seat) and to a phone without a seat; the old host's tablet told
so, staying as the table display; the TV at 1080p: full width, type read from across the table,
the join code while seats are free, the final table, and the rematch followed by itself."""

from __future__ import annotations

import random
import re

import pytest
from playwright.sync_api import expect

from scripts.check_kit import Store, advance
from tests.helpers import SMALL_PHONE, TV, font_px, open_table, shot

pytestmark = pytest.mark.browser
NAMES = ("Anna", "Ben", "Chris")
SOON = 6000  # ms: a page polls every 2 s; an update must show within this
TABLET = {"width": 1024, "height": 768}


def seat(phone, server, code: str, name: str, viewport=SMALL_PHONE):
    page = phone(viewport=viewport)
    page.goto(f"{server.url}/t/{code}/join")
    page.get_by_role("button", name=name).click()
    expect(page.get_by_text(f"You are {name}.")).to_be_visible()
    return page


def menu(page, item: str) -> str:
    """Tap an item of the table menu that makes a link; the link it shows."""
    page.locator("#table-menu summary").click()
    page.get_by_role("button", name=item).click()
    return page.locator("#link-box .join-url a").inner_text()


def take_over(page, link: str) -> None:
    page.goto(link)
    page.get_by_role("button", name="Become the host").click()
    expect(page.get_by_text("This device is the host.")).to_be_visible()


def take(page, n: int) -> None:
    """The phone on turn takes n pebbles."""
    page.locator("#take-form button", has_text=str(n)).click()


def test_a_seated_phone_takes_the_host_role_and_the_tablet_stays_as_the_table_display(
    server, phone
):
    tablet = phone(viewport=TABLET)
    code = open_table(tablet, server, names=NAMES)
    anna, ben, chris = (seat(phone, server, code, n) for n in NAMES)
    anna.fill("#secret-number", "2")
    anna.locator("#secret-form button[type=submit]").click()
    expect(anna.locator("#live")).to_contain_text("Anna: 0 pebbles · secret: 2")
    take_over(anna, menu(tablet, "Hand the host role to another device"))
    # Anna's phone keeps her seat: her turn, her secret number, the host's tools added.
    expect(anna.locator(".status")).to_contain_text("You are Anna.")
    expect(anna.locator(".act-as")).not_to_contain_text("the table")
    expect(anna.locator(".act-as [aria-current]")).to_have_text("Anna (you)")
    expect(anna.locator("#pile-form")).to_be_visible()  # a host's entry
    expect(anna.locator(".log")).to_contain_text("Anna's phone is the host now.")
    expect(anna.locator(".log")).not_to_contain_text("looked at")
    # The old host's tablet is told, and stays as the table display.
    expect(tablet.locator("#handed h1")).to_have_text(
        "You handed the host role to Anna.", timeout=SOON
    )
    shot(tablet, "evening-handed-tablet")
    tablet.get_by_role("button", name="Stay as the table display").click()
    expect(tablet.locator("body.display.table-device")).to_be_visible()
    # Each seat takes a pebble: Anna's turn again, a pebble in her heap.
    for page in (anna, ben, chris):
        take(page, 1)
    expect(tablet.locator("#live")).to_contain_text("9 pebbles in the pile", timeout=SOON)
    # The tablet may enter the pebble that fell (anyone may), and shows no secret.
    tablet.locator("#drop-form button").click()
    expect(tablet.locator(".display-history")).to_contain_text(
        "A pebble falls from Anna's heap", timeout=SOON
    )
    expect(anna.locator("#your-turn")).to_be_visible(timeout=SOON)
    expect(anna.locator("#take-form")).to_contain_text("How many pebbles do you take?")
    expect(anna.locator("#live")).to_contain_text("Anna: 0 pebbles · secret: 2", timeout=SOON)
    expect(anna).to_have_title(re.compile("Your turn"))
    assert tablet.locator("#take-form, #secret-form, #pile-form").count() == 0
    assert "secret: 2" not in tablet.locator("#live").inner_text()
    shot(anna, "evening-seated-host-360")
    shot(tablet, "evening-table-device-1024", full_page=False)
    # The tablet's list of tables no longer says it is the host: it is the table display,
    # which keeps the table's record.
    other = tablet.context.new_page()
    other.goto(server.url + "/")
    listed = other.locator("#my-tables").inner_text()
    assert code in listed and "table display" in listed and "host" not in listed
    assert ben.locator(".status").inner_text().count("host") == 0


def test_a_phone_without_a_seat_takes_the_host_role_and_the_old_host_leaves(server, phone):
    host = phone(viewport=SMALL_PHONE)
    code = open_table(host, server, names=NAMES)
    seat(phone, server, code, "Anna")
    helper = phone(viewport=SMALL_PHONE)
    take_over(helper, menu(host, "Hand the host role to another device"))
    expect(helper.locator(".act-as")).to_contain_text("the table")
    expect(helper.locator(".log")).to_contain_text("The host role moved to another device.")
    expect(host.locator("#handed h1")).to_have_text(
        "You handed the host role to another device.", timeout=SOON
    )
    expect(host.get_by_role("link", name="Or take a free seat and play")).to_be_visible()
    shot(host, "evening-handed-360")
    host.get_by_role("button", name="Leave this table").click()
    expect(host.locator("#new-table")).to_be_visible()
    assert code not in host.locator("body").inner_text()
    host.goto(f"{server.url}/t/{code}/")
    expect(host.locator("h1")).to_have_text("Join the table")


def test_the_hosts_invitation_closes_once_every_seat_is_taken(server, phone):
    host = phone()
    code = open_table(host, server, names=NAMES)
    invite = host.locator("#invite")
    expect(invite).to_have_attribute("open", "")
    for name in NAMES[:2]:
        seat(phone, server, code, name)
    host.wait_for_timeout(2500)
    expect(invite).to_have_attribute("open", "")  # a seat is still free
    seat(phone, server, code, NAMES[2])
    expect(invite).not_to_have_attribute("open", "", timeout=SOON)
    expect(host.locator("#seats")).to_contain_text("Chris")


def test_the_tv_shows_the_table_large_and_follows_the_rematch_by_itself(server, phone):
    host = phone(viewport=SMALL_PHONE)
    code = open_table(host, server, players="2", names=("Anna", "Ben"))
    link = menu(host, "Table display: make a link")
    tv = phone(viewport=TV)
    tv.goto(link)
    # The whole width, large type, the way to join while a seat is free.
    width = tv.evaluate("document.querySelector('#live').getBoundingClientRect().width")
    assert width >= 1850, width
    expect(tv.locator("#display-join")).to_be_visible()
    expect(tv.locator("#display-code")).to_have_text(code)
    assert font_px(tv, "#display-code") >= 48
    assert tv.evaluate("document.querySelector('#display-qr').getBoundingClientRect().width") >= 300
    assert tv.evaluate("document.querySelector('#display-qr').naturalWidth") > 0  # it loaded
    anna = seat(phone, server, code, "Anna")
    seat(phone, server, code, "Ben")
    expect(tv.locator("#display-join")).to_have_count(0, timeout=SOON)
    # Whose turn, read from across the room; no link or button to tap.
    store = Store(server.database)
    rng = random.Random(3)
    advance(store, code, "pebbles", 400, rng, until=lambda s: s["started"])
    expect(tv.locator("#display-turn")).to_contain_text("Waiting for", timeout=SOON)
    assert font_px(tv, "#display-turn") >= 48
    assert font_px(tv, "#game-panel li") >= 28  # the game's own text
    tappable = tv.evaluate(
        """() => [...document.querySelectorAll('#live a, #live button, #live summary')]
              .filter(e => e.offsetParent !== null && getComputedStyle(e).pointerEvents !== 'none')
              .map(e => e.textContent.trim()).slice(0, 5)"""
    )
    assert tappable == [], tappable
    shot(tv, "evening-tv", full_page=False)
    # The end: the winner at the top, a big final table.
    advance(store, code, "pebbles", 5000, rng)
    expect(tv.locator("#display-turn")).to_contain_text("Winner", timeout=SOON)
    assert font_px(tv, ".score-table td") >= 30
    shot(tv, "evening-tv-end", full_page=False)
    # The host starts the rematch: the TV goes to the new table's display by itself.
    host.reload()
    host.get_by_role("button", name="Start the rematch").click()
    new = re.search(r"/t/(\w+)/", host.url).group(1)
    assert new != code
    expect(tv).to_have_url(re.compile(f"/t/{new}/display/"), timeout=SOON)
    expect(tv.locator(".display-game")).to_contain_text(new)
    expect(anna).to_have_url(re.compile(f"/t/{new}/"), timeout=SOON)
    shot(tv, "evening-tv-rematch", full_page=False)

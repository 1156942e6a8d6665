"""The live table never fails silently: several phones (browser contexts) at one table, with the
connection dropping, the turn moving, presence, the host's hand-over and the table display."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from companion import db as database
from companion import tables
from tests.conftest import BLOCK_PUSH
from tests.helpers import PHONE, SMALL_PHONE, Server, open_table, shot, sit_down

pytestmark = pytest.mark.browser
NAMES = ("Anna", "Ben", "Chris")
SOON = 5000  # ms: an update must show within this (pushed at once; polled every 2 s)


def seat(phone, server, code: str, name: str, viewport=PHONE):
    """A phone joins the table on the seat called `name`."""
    page = phone(viewport=viewport)
    sit_down(page, server, code, NAMES.index(name))
    expect(page.get_by_text(f"You are {name}.")).to_be_visible()
    return page


def set_pile(page, size: int) -> None:
    """The host sets the pile's size (a host's entry, before the first take)."""
    page.fill("#pile-size", str(size))
    page.locator("#pile-form button[type=submit]").click()


def take(page, n: int) -> None:
    """The phone on turn takes n pebbles."""
    page.locator("#take-form button", has_text=str(n)).click()


def table_of_three(server, phone, viewport=PHONE):
    host = phone(viewport=viewport)
    code = open_table(host, server, names=NAMES)
    return host, code, [seat(phone, server, code, n, viewport) for n in NAMES]


def test_a_tapped_choice_survives_a_live_update_or_the_phone_says_the_table_changed(server, phone):
    host, code, (anna, ben, chris) = table_of_three(server, phone)
    # The host types a size for the pile but does not send it; Anna takes the first pebbles.
    host.fill("#pile-size", "8")
    take(anna, 2)
    # The pile is set before the first take only: the host's form is gone, so its page says so
    # at once...
    expect(host.locator("#changed")).to_be_visible(timeout=SOON)
    shot(host, "live-table-changed-bar", full_page=False)
    expect(host.locator("#pile-size")).to_have_value("8")  # ...keeping what was typed
    host.get_by_role("button", name="Show the new state").click()
    expect(host.locator("#live")).to_contain_text("10 pebbles in the pile")
    expect(host.locator("#pile-form")).to_have_count(0)
    expect(host.locator("#changed")).to_be_hidden()


def test_a_tapped_choice_is_kept_while_the_rest_of_the_page_moves_on(server, phone):
    host, code, (anna, ben, chris) = table_of_three(server, phone)
    # Chris types a secret number and leaves the box; then Ben writes his own down.
    chris.fill("#secret-number", "7")
    chris.locator("body").click(position={"x": 5, "y": 5})  # focus leaves the form
    ben.fill("#secret-number", "4")
    ben.locator("#secret-form button[type=submit]").click()
    # Chris's page moved on (Ben's secret is written), and kept the number Chris typed.
    expect(chris.locator("#live")).to_contain_text("Ben: 0 pebbles · secret written", timeout=SOON)
    expect(chris.locator("#secret-number")).to_have_value("7")
    expect(chris.locator("#changed")).to_be_hidden()


def test_a_tap_while_offline_is_sent_once_when_the_connection_is_back(server, phone):
    host, code, (anna, ben, chris) = table_of_three(server, phone)
    context = ben.context
    context.set_offline(True)
    ben.fill("#note-text", "typed in the tunnel")
    ben.click(".note-form button")
    expect(ben.locator("#unsent")).to_contain_text("Not sent yet", timeout=SOON)
    expect(ben.locator("#conn")).to_contain_text("No connection", timeout=SOON)
    shot(ben, "live-table-offline", full_page=False)
    # The page has room for the banners below its last line: nothing stays under them (the
    # room follows the banners' height once they are laid out: a ResizeObserver, a frame later).
    ben.wait_for_function(
        "() => document.body.style.paddingBottom === "
        "Math.ceil(document.querySelector('.banners').getBoundingClientRect().height) + 'px'",
        timeout=2000,
    )
    context.set_offline(False)
    expect(ben.locator("#unsent")).to_be_hidden(timeout=8000)
    expect(host.locator(".log")).to_contain_text("Ben: typed in the tunnel", timeout=SOON)
    # Sending the very same submission again (its key) applies nothing more.
    ben.wait_for_timeout(2500)
    assert host.locator(".log li", has_text="typed in the tunnel").count() == 1


def test_an_unsent_tap_is_offered_again_after_a_reload(server, phone):
    host, code, (anna, ben, chris) = table_of_three(server, phone)
    ben.context.set_offline(True)
    ben.fill("#note-text", "before the reload")
    ben.click(".note-form button")
    expect(ben.locator("#unsent")).to_contain_text("Not sent yet", timeout=SOON)
    ben.context.set_offline(False)
    ben.evaluate("() => sessionStorage.getItem('companion.unsent')")  # kept for the reload
    ben.reload()
    banner = ben.locator("#unsent")
    if banner.is_visible():  # the resend may have gone out before the reload
        expect(banner).to_contain_text("Not sent")
        ben.get_by_role("button", name="Send again").click()
    expect(host.locator(".log")).to_contain_text("Ben: before the reload", timeout=SOON)
    assert host.locator(".log li", has_text="before the reload").count() == 1


def test_the_title_says_whose_turn_it_is_and_moves_from_seat_to_seat(server, phone):
    host, code, (anna, ben, chris) = table_of_three(server, phone, SMALL_PHONE)
    expect(anna).to_have_title("● Your turn · Pebbles", timeout=SOON)  # the first seat starts
    expect(ben).to_have_title(f"Pebbles · {code}", timeout=SOON)
    expect(ben.locator(".waiting-for")).to_contain_text("Waiting for Anna.")
    shot(anna, "live-table-your-turn-360")
    take(anna, 1)
    expect(ben).to_have_title("● Your turn · Pebbles", timeout=SOON)
    expect(anna).to_have_title(f"Pebbles · {code}", timeout=SOON)
    # Ben's panel is in view without scrolling.
    expect(ben.locator("#take-form")).to_be_in_viewport(timeout=SOON)


def test_home_lists_your_tables_after_a_reload(server, phone):
    host = phone()
    code = open_table(host, server, names=NAMES)
    ben = seat(phone, server, code, "Ben")
    for page in (host, ben):
        page.goto(server.url + "/")
        page.reload()
        expect(page.locator("#my-tables")).to_contain_text(code)
    ben.locator("#my-tables a").first.click()
    expect(ben.get_by_text("You are Ben.")).to_be_visible()
    # The host typing its own code lands as the host.
    host.fill("#join-code input[name=code]", code.lower())
    host.locator("#join-code button").click()
    expect(host.get_by_text("This device is the host.")).to_be_visible()


def test_presence_goes_away_when_a_phone_stops_polling(tmp_path, phone):
    server = Server(tmp_path / "presence.db", env={"COMPANION_ONLINE_WITHIN": "3"})
    server.start()
    try:
        host = phone()
        code = open_table(host, server, names=NAMES)
        ben = seat(phone, server, code, "Ben")
        expect(host.locator("#seats li").nth(1)).to_contain_text("phone online", timeout=SOON)
        ben.context.close()
        expect(host.locator("#seats li").nth(1)).to_contain_text("phone away", timeout=15_000)
    finally:
        server.kill()


def test_the_host_hands_over_and_the_display_shows_no_secret(server, phone):
    host, code, (anna, ben, chris) = table_of_three(server, phone, SMALL_PHONE)
    # The table display: a link from the host's menu, opened on a "tablet".
    host.locator("#table-menu summary").click()
    host.get_by_role("button", name="Table display: make a link").click()
    link = host.locator("#link-box .join-url a").inner_text()
    tablet = phone(viewport={"width": 1024, "height": 768})
    tablet.goto(link)
    expect(tablet.locator("#live")).to_contain_text("Pebbles")
    expect(tablet.locator("#live")).to_contain_text("Waiting for Anna.", timeout=SOON)
    # Anna writes down her secret number (hers alone) and takes 2: the display follows the
    # game but never shows the number.
    anna.fill("#secret-number", "7")
    anna.locator("#secret-form button[type=submit]").click()
    expect(tablet.locator("#live")).to_contain_text(
        "Anna: 0 pebbles · secret written", timeout=SOON
    )
    take(anna, 2)
    expect(tablet.locator("#live")).to_contain_text("Waiting for Ben.", timeout=SOON)
    expect(anna.locator("#live")).to_contain_text("secret: 7")
    assert "secret: 7" not in tablet.locator("#live").inner_text()
    shot(tablet, "live-table-display")
    # Hand-over: the host's menu makes a link; another device opens it and becomes the host.
    host.locator("#table-menu summary").click()
    host.get_by_role("button", name="Hand the host role to another device").click()
    link = host.locator("#link-box .join-url a").inner_text()
    shot(host, "live-table-handover-360")
    new_host = phone()
    new_host.goto(link)
    new_host.get_by_role("button", name="Become the host").click()
    expect(new_host.get_by_text("This device is the host.")).to_be_visible()
    expect(new_host.locator(".log")).to_contain_text("The host role moved to another device.")
    try:
        host.reload()
    except PlaywrightError:  # the page had just reloaded itself, told by the stream
        pass
    expect(host.get_by_text("This device is the host.")).to_have_count(0, timeout=SOON)


# --- push, and polling when push cannot be held ----------------------------------------------------


def watched(page, part: str) -> list[str]:
    """The addresses of the requests this page makes that contain `part`, from now on."""
    seen: list[str] = []
    page.on("request", lambda request: seen.append(request.url) if part in request.url else None)
    return seen


def seated_watching(phone, server, code: str, name: str):
    """A phone that joins the seat `name`, its requests watched from before its first page."""
    page = phone()
    streams, polls = watched(page, "/push"), watched(page, "/live")
    page.goto(f"{server.url}/t/{code}/join")
    page.get_by_role("button", name=name).click()
    expect(page.get_by_text(f"You are {name}.")).to_be_visible()
    return page, streams, polls


@pytest.mark.skipif(BLOCK_PUSH, reason="push is blocked in this run")
def test_moves_reach_every_phone_and_the_display_by_push_without_polling(tmp_path, phone):
    # Served as `make run` serves on two cores: two gevent processes, so that a table's phones
    # hold their streams in different processes and a move made in one wakes the other's.
    server = Server(tmp_path / "two.db", env={"COMPANION_PROCESSES": "2"})
    server.start()
    try:
        moves_reach_every_phone_and_the_display(server, phone)
    finally:
        server.kill()


def moves_reach_every_phone_and_the_display(server, phone) -> None:
    host = phone()
    code = open_table(host, server, names=NAMES)
    phones = [seated_watching(phone, server, code, name) for name in NAMES]
    host.locator("#table-menu summary").click()
    host.get_by_role("button", name="Table display: make a link").click()
    tablet = phone(viewport={"width": 1024, "height": 768})
    display_polls = watched(tablet, "/display/live")
    tablet.goto(host.locator("#link-box .join-url a").inner_text())
    tablet.wait_for_timeout(1000)  # each phone fetched what changed since it loaded (joins)
    fetched = [len(polls) for _, _, polls in phones]
    tablet.wait_for_timeout(3000)  # the streams are open and nothing moves: nobody polls
    assert [len(polls) for _, _, polls in phones] == fetched
    assert all(len(streams) == 1 for _, streams, _ in phones)
    assert not display_polls
    set_pile(host, 8)  # each stream brings its own page's region: no phone fetches it
    for page, _, _ in phones:
        expect(page.locator("#live")).to_contain_text("8 pebbles in the pile", timeout=1500)
    expect(tablet.locator("#live")).to_contain_text("8 pebbles in the pile", timeout=1500)
    assert [len(polls) for _, _, polls in phones] == fetched
    assert not display_polls
    # A phone's own entry: its answer brings its page's region (its stream sends none, the
    # server renders none for it), the others' streams bring theirs. Still nobody fetches.
    ben = phones[1][0]
    ben.fill("#note-text", "Ben counts the pile")
    ben.click(".note-form button")
    for page, _, _ in phones:
        expect(page.locator(".log")).to_contain_text("Ben counts the pile", timeout=1500)
    expect(ben.locator("#note-text")).to_have_value("")
    assert [len(polls) for _, _, polls in phones] == fetched
    # A hidden page closes its stream (the phone is "away"); shown again, it opens a new one.
    anna, streams, _ = phones[0]
    anna.evaluate(
        "() => { Object.defineProperty(document, 'visibilityState', {value: 'hidden',"
        " configurable: true}); document.dispatchEvent(new Event('visibilitychange')); }"
    )
    anna.evaluate(
        "() => { Object.defineProperty(document, 'visibilityState', {value: 'visible',"
        " configurable: true}); document.dispatchEvent(new Event('visibilitychange')); }"
    )
    anna.wait_for_timeout(500)
    assert len(streams) == 2


def test_with_the_stream_refused_the_pages_poll(server, phone):
    host = phone()
    code = open_table(host, server, names=NAMES)
    anna, _, polls = seated_watching(phone, server, code, "Anna")
    anna.context.route(re.compile(r"/push(\?|$)"), lambda route: route.abort())
    anna.reload()
    anna.wait_for_timeout(4500)
    assert len(polls) >= 2  # polling every 2 s
    set_pile(host, 8)
    expect(anna.locator("#live")).to_contain_text("8 pebbles in the pile", timeout=SOON)


def test_a_stream_that_never_speaks_falls_back_to_polling(server, phone):
    """A proxy that buffers the stream delivers nothing: the first message does not come."""
    host = phone()
    code = open_table(host, server, names=NAMES)
    anna, _, polls = seated_watching(phone, server, code, "Anna")
    held = []
    anna.context.route(re.compile(r"/push(\?|$)"), lambda route: held.append(route))  # unanswered
    anna.reload()
    anna.wait_for_timeout(500)
    assert held  # the page asked for its stream...
    before = len(polls)
    anna.wait_for_timeout(5500)
    assert len(polls) - before >= 2  # ...heard nothing in 3 s, and polls
    set_pile(host, 8)
    expect(anna.locator("#live")).to_contain_text("8 pebbles in the pile", timeout=SOON)
    expect(anna.locator("#conn")).to_be_hidden()  # not offline: only the stream is missing


def test_the_rematch_takes_every_phone_along(server, phone):
    """The host starts the rematch elsewhere (here: behind the server's back, another process):
    the seated phones follow to their seats at the new table."""
    host = phone()
    code = open_table(host, server, names=NAMES)
    ben = seat(phone, server, code, "Ben")
    store = database.connect(server.database)
    try:
        table = tables.get_table(store, code)
        new, _ = tables.create_table(store, "pebbles", list(NAMES), [True] * len(NAMES))
        tables.start_rematch(store, table, new.code, 1)
    finally:
        store.conn.close()
    expect(ben.locator("#rematch-started")).to_be_visible(timeout=SOON)
    expect(ben).to_have_url(re.compile(f"/t/{new.code}/"), timeout=SOON)
    expect(ben.get_by_text("You are Chris.")).to_be_visible()  # one seat on


def test_a_typed_number_survives_a_reload_until_the_table_moves_on(server, phone):
    host, code, (anna, ben, chris) = table_of_three(server, phone)
    chris.fill("#secret-number", "7")
    chris.reload()
    expect(chris.locator("#secret-number")).to_have_value("7")  # not lost with the page
    # Once the table has moved on, an old draft is not put back: it may no longer fit.
    ben.fill("#secret-number", "4")
    ben.locator("#secret-form button[type=submit]").click()
    expect(chris.locator("#live")).to_contain_text("Ben: 0 pebbles · secret written", timeout=SOON)
    chris.reload()
    expect(chris.locator("#secret-number")).to_have_value("")

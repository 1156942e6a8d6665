"""A table as people use it: the host starts it, phones scan the QR code and join, see each other."""

from __future__ import annotations

import io

import pytest
import zxingcpp
from PIL import Image
from playwright.sync_api import expect

from tests.helpers import open_table as start_table
from tests.helpers import shot

pytestmark = pytest.mark.browser


def scan_qr(page) -> str:
    """Screenshot the QR element and decode it with a real decoder, as a phone camera would."""
    png = page.locator("#join-qr").screenshot()
    results = zxingcpp.read_barcodes(Image.open(io.BytesIO(png)))
    assert results, "the QR code could not be decoded"
    return results[0].text


def test_a_phone_scans_the_qr_code_joins_and_the_host_sees_it_live(server, phone):
    host = phone()
    code = start_table(host, server)
    shot(host, "host-table")
    url = scan_qr(host)
    assert url.startswith(f"{server.url}/t/{code}/join?s=")  # with the table's join secret

    ben = phone()
    ben.goto(url)
    shot(ben, "join-page")
    ben.fill("#name", "Ben")
    ben.get_by_role("button", name="Player 2").click()
    expect(ben.get_by_text("You are Ben.")).to_be_visible()
    shot(ben, "phone-seat")

    # The host's page was not reloaded: the poll brings the new seat within a couple of seconds.
    expect(host.locator("#seats")).to_contain_text("Ben", timeout=5000)
    expect(host.locator("#seats li").nth(1)).to_contain_text("phone online")

    # A note from the phone appears on the host's screen, and the phone may undo it.
    ben.fill("#note-text", "Ben shuffles the deck")
    ben.click(".note-form button")
    expect(host.locator(".log")).to_contain_text("Ben: Ben shuffles the deck", timeout=5000)
    ben.get_by_role("button", name="Undo: Ben: Ben shuffles the deck").click()
    expect(host.locator(".log del")).to_contain_text("Ben shuffles the deck", timeout=5000)

    # Reloading the phone (or waking it from sleep) returns to its seat.
    ben.reload()
    expect(ben.get_by_text("You are Ben.")).to_be_visible()


def test_typing_the_code_joins_too(server, phone):
    host = phone()
    code = start_table(host, server, players="2", names=())
    anna = phone()
    anna.goto(server.url + "/")
    anna.fill("#code", code.lower())
    anna.click("#join-code button")
    anna.get_by_role("button", name="Player 2").click()
    expect(anna.get_by_text("You are Player 2.")).to_be_visible()


def test_nothing_is_lost_when_the_server_is_killed(own_server, phone):
    server = own_server
    host = phone()
    start_table(host, server)
    host.fill("#note-text", "before the crash")
    host.click(".note-form button")
    expect(host.locator(".log")).to_contain_text("before the crash")
    server.kill()
    server.start()
    host.reload()
    expect(host.locator(".log")).to_contain_text("before the crash")
    expect(host.locator("#live")).to_contain_text("This device is the host.")


def test_host_frees_a_seat_and_the_phone_is_asked_to_join_again(server, phone):
    host = phone()
    start_table(host, server)
    ben = phone()
    ben.goto(host.locator(".join-url a").inner_text())
    ben.get_by_role("button", name="Player 2").click()
    expect(host.locator("#seats li").nth(1)).to_contain_text("phone online", timeout=5000)
    host.once("dialog", lambda dialog: dialog.accept())
    host.locator("#seats li").nth(1).get_by_role("button", name="Free seat").click()
    expect(ben.get_by_text("no longer holds a seat")).to_be_visible(timeout=5000)


def test_pages_have_no_serious_accessibility_violations(server, phone):
    from axe_playwright_python.sync_playwright import Axe

    axe = Axe()
    host = phone()
    host.goto(server.url + "/")
    pages = {"home": host}
    start_table(host, server)
    pages["table"] = host
    join = phone()
    join.goto(host.locator(".join-url a").inner_text())
    problems = {}
    for name, page in [("home", phone()), ("table", host), ("join", join)]:
        if name == "home":
            page.goto(server.url + "/")
        results = axe.run(page)
        serious = [
            v for v in results.response["violations"] if v["impact"] in ("serious", "critical")
        ]
        if serious:
            problems[name] = [
                (v["id"], v["help"], [n["target"] for n in v["nodes"]][:3]) for v in serious
            ]
    assert problems == {}


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_screens_at_phone_width(server, phone, scheme):
    page = phone()
    page.emulate_media(color_scheme=scheme)
    page.goto(server.url + "/")
    shot(page, f"home-{scheme}")
    # Nothing wider than the screen: no sideways scrolling on a 390 px phone.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    start_table(page, server)
    shot(page, f"table-{scheme}")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    # Every button and link in the page body is at least 44 px high (thumb-sized).
    small = page.evaluate("""() => [...document.querySelectorAll('main button, main a.button, main input, main select')]
        .filter(e => e.offsetParent !== null && e.getBoundingClientRect().height < 44)
        .map(e => e.outerHTML.slice(0, 80))""")
    assert small == []


def test_japanese_and_russian_phones_get_their_language(server, phone):
    for locale, word in [("ja-JP", "テーブル"), ("ru-RU", "стол")]:
        page = phone(locale=locale)
        page.goto(server.url + "/")
        expect(page.locator("h1").first).to_contain_text(word)
        shot(page, f"home-{locale}")


def test_a_hidden_tab_neither_polls_nor_holds_a_stream(server, phone):
    host = phone()
    asked = []  # polls of the live region, and push streams opened
    host.on(
        "request",
        lambda request: (
            asked.append(request.url)
            if "/live?" in request.url or request.url.endswith("/push")
            else None
        ),
    )
    start_table(host, server)
    host.wait_for_timeout(2500)
    assert asked, "a visible page holds a push stream, or polls every 2 s"
    # Pretend the phone went to sleep / switched tabs: its stream is closed, nothing polls.
    host.evaluate("""() => {
        Object.defineProperty(document, 'visibilityState', {configurable: true, get: () => 'hidden'});
        document.dispatchEvent(new Event('visibilitychange'));
    }""")
    host.wait_for_timeout(500)
    asked.clear()
    host.wait_for_timeout(4500)
    assert asked == []
    # Back in view: it asks at once, without waiting for the next tick (and opens its stream).
    host.evaluate("""() => {
        Object.defineProperty(document, 'visibilityState', {configurable: true, get: () => 'visible'});
        document.dispatchEvent(new Event('visibilitychange'));
    }""")
    host.wait_for_timeout(300)
    assert any("/live?" in url for url in asked), asked


def test_larger_text_on_a_phone_in_three_languages_at_360_px(server, phone):
    from tests.helpers import SMALL_PHONE, overflowing, sit_down, speak

    host = phone()
    code = start_table(host, server, names=("Anna", "Ben"))
    anna = phone(viewport=SMALL_PHONE)
    sit_down(anna, server, code, 0)
    before = anna.evaluate("parseFloat(getComputedStyle(document.body).fontSize)")
    for _ in range(3):  # the largest size: three taps on A+
        anna.locator("#text-larger").click()
        anna.wait_for_load_state("load")
    assert anna.url.endswith(f"/t/{code}/")  # back to the table
    after = anna.evaluate("parseFloat(getComputedStyle(document.body).fontSize)")
    assert after >= before * 1.45, (before, after)
    for lang in ("en", "ja", "ru"):
        speak(anna, server, lang)
        anna.reload()
        anna.wait_for_load_state("load")
        assert overflowing(anna) == [], lang
        shot(anna, f"text-size-largest-{lang}-360", full_page=False)


def test_every_page_kind_has_no_serious_accessibility_violations(server, phone, tmp_path):
    """Once per page kind (not per game and language): axe finds nothing serious or critical."""
    from axe_playwright_python.sync_playwright import Axe

    from tests.browser.test_take_home import finish
    from tests.support.bgstats_export import Export

    axe = Axe()
    host = phone()
    code = start_table(host, server, names=("Anna", "Ben"))
    finish(server, code)
    e = Export()
    anna = e.player("Anna")
    e.play(e.game("Pebbles"), "2024-03-01 20:00:00", [(anna, "3", True)])
    backup = tmp_path / "backup.json"
    backup.write_bytes(e.bytes())
    kinds = {
        "summary": f"/t/{code}/summary",
        "replay": f"/t/{code}/replay/1",
        "plays": "/plays",
        "stats": "/stats",
        "player": "/player?name=Anna",
        "import": "/plays/import",
        "rules index": "/rules/",
        "rules page": "/rules/pebbles",
        "search": "/rules/search?q=pile",
        "table search": f"/t/{code}/rules?q=pile",
        "calculators": "/tools/",
    }
    problems = {}
    for kind, path in [*kinds.items(), ("import preview", None)]:
        if path is None:
            host.goto(server.url + "/plays/import")
            host.set_input_files("#import-file", str(backup))
            host.click("#import button[type=submit]")
            expect(host.locator("#import-summary")).to_be_visible()
        else:
            host.goto(server.url + path)
        results = axe.run(host)
        serious = [
            (v["id"], [n["target"] for n in v["nodes"]][:3])
            for v in results.response["violations"]
            if v["impact"] in ("serious", "critical")
        ]
        if serious:
            problems[kind] = serious
    assert problems == {}


def test_the_home_page_shows_as_many_name_boxes_as_players(server, phone):
    """The home page's own script (pages.js: a phone at a table never loads it) shows a name
    box per player, and the table page does not load it."""
    page = phone(viewport={"width": 360, "height": 740})
    page.goto(server.url + "/")
    page.wait_for_load_state("load")
    page.fill("#players", "2")
    page.dispatch_event("#players", "input")
    expect(page.locator("#names-1")).to_be_visible()
    expect(page.locator("#names-2")).to_be_hidden()
    page.fill("#players", "3")
    page.dispatch_event("#players", "input")
    expect(page.locator("#names-2")).to_be_visible()
    scripts = page.eval_on_selector_all("script[src]", "s => s.map(e => e.src)")
    assert any("/js/pages.js" in src for src in scripts), scripts
    code = start_table(page, server, players="2", names=("Anna", "Bo"))
    scripts = page.eval_on_selector_all("script[src]", "s => s.map(e => e.src)")
    assert code and not any("/js/pages.js" in src for src in scripts), scripts

"""From Cape to Cairo on three phones (real Chromium, real server): two whole rounds, acquisition
and building, with sealed bids that no other screen shows until the last one is in."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.helpers import PHONE, open_table, shot

pytestmark = pytest.mark.browser
POLL = 5000  # the other screens learn of a change by their 2-second poll


def enter_card(page, terrain, marks, income):
    page.locator(f'#ctc-card-form input[name=terrain][value="{terrain}"]').check()
    page.locator(f'#ctc-card-form input[name=marks][value="{marks}"]').check()
    page.fill("#ctc-income", str(income))
    page.click("#ctc-card-form button[type=submit]")


def bid(page, amount):
    page.fill("#ctc-amount", str(amount))
    page.click("#ctc-bid-form button[type=submit]")
    expect(page.locator("#ctc-own-bid")).to_contain_text(f"Your bid: {amount} pounds.")


def live_text(page):
    return page.locator("#live").inner_text()


def traces(page, amount):
    """Where the amount shows on a screen: as a number in the live region's text, as a form
    value anywhere in the page."""
    text = live_text(page)
    found = re.finditer(rf"\b{amount}\b", text)
    return (
        [text[max(0, m.start() - 60) : m.end() + 40] for m in found],
        page.content().count(f'value="{amount}"'),
    )


def assert_sealed(page, amount, baseline=([], 0)):
    """No trace of a sealed bid on this screen: the amount shows nowhere, or no more often than
    in `baseline`, the traces of the same screen taken just before the bid was made. A number
    the screen shows for other reasons (a river "needs 10", an income "1 to 10", a previous
    round's bids) is then not mistaken for a leak, and a leak still adds a trace."""
    text, values = traces(page, amount)
    assert len(text) <= len(baseline[0]), (text, baseline[0])
    assert values <= baseline[1]


def serious_violations(page):
    from axe_playwright_python.sync_playwright import Axe

    return [
        (v["id"], [n["target"] for n in v["nodes"]][:3])
        for v in Axe().run(page).response["violations"]
        if v["impact"] in ("serious", "critical")
    ]


def check_phone_layout(page, scope="#live", radios=False):
    """No sideways scrolling on a phone, and every visible control inside `scope` at least 44 px
    tall; radio inputs are left out unless `radios` (in the panel their labels are the targets)."""
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    small = page.evaluate(
        """([scope, radios]) => [...document.querySelectorAll(
            `${scope} button, ${scope} input, ${scope} select`)]
        .filter(e => e.offsetParent !== null && (radios || e.type !== 'radio')
                     && e.getBoundingClientRect().height < 44)
        .map(e => e.outerHTML.slice(0, 80))""",
        [scope, radios],
    )
    assert small == []


def test_two_rounds_on_three_phones_with_sealed_bids(server, phone):
    host = phone()
    open_table(host, server, game="cape_to_cairo", players="3", names=("Anna", "Ben", "Chris"))
    join_url = host.locator(".join-url a").inner_text()
    anna, ben, chris = phone(), phone(), phone()
    for page, name in [(anna, "Anna"), (ben, "Ben"), (chris, "Chris")]:
        page.goto(join_url)
        page.get_by_role("button", name=name).click()
        expect(page.get_by_text(f"You are {name}.")).to_be_visible()

    # Everybody's page is up to date (a form from before the last join would be refused as
    # stale: the table changed).
    for page in (anna, ben, host):
        expect(page.locator("#seats .seat-state.on")).to_have_count(3, timeout=POLL)

    # --- round 1: Anna enters the three cards turned up for bidding.
    expect(anna.locator("#ctc-now")).to_contain_text("Acquisition round 1: turn up the cards")
    shot(anna, "ctc-1-card-form")
    check_phone_layout(anna)
    enter_card(anna, "river", 1, 5)
    expect(anna.locator("#ctc-card-form button")).to_contain_text("Enter card 2 of 3")
    enter_card(anna, "savanna", 2, 3)
    expect(anna.locator("#ctc-card-form button")).to_contain_text("Enter card 3 of 3")
    enter_card(anna, "desert", 0, 7)
    expect(anna.locator("#ctc-waiting")).to_contain_text("Waiting for Anna, Ben and Chris.")

    # Sealed bids: Anna's 37 shows on her phone only.
    bid(anna, 37)
    shot(anna, "ctc-2-own-bid")
    expect(ben.locator("#ctc-waiting")).to_contain_text("Waiting for Ben and Chris.", timeout=POLL)
    expect(host.locator("#ctc-waiting")).to_contain_text("Waiting for Ben and Chris.", timeout=POLL)
    expect(chris.locator("#ctc-bidders")).to_contain_text("Anna has bid")
    for page in (ben, chris, host):
        assert_sealed(page, 37)
    host.reload()  # a fresh page from the server shows no bid either (no "show all" here)
    expect(host.locator("#ctc-waiting")).to_contain_text("Waiting for Ben and Chris.")
    assert_sealed(host, 37)
    shot(ben, "ctc-3-other-phone-while-bidding")
    bid(ben, 30)
    expect(chris.locator("#ctc-waiting")).to_contain_text("Waiting for Chris.", timeout=POLL)
    for page in (anna, chris, host):
        expect(page.locator("#ctc-waiting")).to_contain_text("Waiting for Chris.", timeout=POLL)
        assert_sealed(page, 30)
    assert_sealed(chris, 37)
    chris.fill("#ctc-amount", "20")
    chris.click("#ctc-bid-form button[type=submit]")
    # All in: revealed everywhere, paid, and Anna chooses first.
    expect(chris.locator("#ctc-bids")).to_contain_text("Bids of round 1")
    expect(anna.locator("#ctc-take-form")).to_be_visible(timeout=POLL)
    expect(host.locator("#ctc-bids")).to_contain_text("Anna", timeout=POLL)
    assert "37" in host.locator("#ctc-bids").inner_text()
    shot(anna, "ctc-4-take")
    anna.locator("#ctc-take-form button", has_text="river").click()
    expect(ben.locator("#ctc-take-form")).to_be_visible(timeout=POLL)
    ben.locator("#ctc-take-form button", has_text="savanna").click()
    expect(ben.locator("#ctc-turn")).to_contain_text("Anna's turn.")

    # Building: Anna turns up a card with 3 symbols and sees what crossing costs now.
    expect(anna.locator("#ctc-turn-up-form")).to_be_visible(timeout=POLL)
    anna.locator("#ctc-turn-up-form button", has_text="3").click()
    expect(anna.locator("#ctc-cross")).to_contain_text("Symbols that count now: 4")
    expect(anna.locator(".ctc-best")).to_contain_text("Cheapest")
    expect(anna.locator(".ctc-best")).to_contain_text("Cross for 60 pounds")
    shot(anna, "ctc-5-crossing-cost")
    check_phone_layout(anna)
    assert serious_violations(anna) == []
    anna.locator("#ctc-pass-form button").click()
    expect(ben.locator("#ctc-turn")).to_contain_text("Your turn.", timeout=POLL)
    ben.locator("#ctc-turn-up-form button", has_text="2").click()
    expect(ben.locator(".ctc-best")).to_contain_text("Cross for free")
    ben.locator(".ctc-best").click()
    expect(ben.locator("#ctc-now")).to_contain_text("Acquisition round 2")
    expect(anna.locator("#ctc-mine")).to_contain_text("Bonus tracks: 1 of 5", timeout=POLL)

    # --- round 2: Chris enters the cards; equal bids, broken by the money left.
    expect(chris.locator("#ctc-card-form")).to_be_visible(timeout=POLL)
    enter_card(chris, "village", 1, 4)
    expect(chris.locator("#ctc-card-form button")).to_contain_text("Enter card 2 of 3")
    enter_card(chris, "mountain", 0, 6)
    expect(chris.locator("#ctc-card-form button")).to_contain_text("Enter card 3 of 3")
    enter_card(chris, "savanna", 3, 2)
    bid(chris, 0)
    # Ben's screen just before Anna bids, then just after: Anna's 10 must add no trace.
    expect(ben.locator("#ctc-waiting")).to_contain_text("Waiting for Anna and Ben.", timeout=POLL)
    before = traces(ben, 10)
    expect(anna.locator("#ctc-bid-form")).to_be_visible(timeout=POLL)
    bid(anna, 10)
    expect(ben.locator("#ctc-waiting")).to_contain_text("Waiting for Ben.", timeout=POLL)
    assert_sealed(ben, 10, before)
    ben.fill("#ctc-amount", "10")
    ben.click("#ctc-bid-form button[type=submit]")
    expect(host.locator("#ctc-bids")).to_contain_text(
        "Anna before Ben: same bid, less money left (53 to 63 pounds)", timeout=POLL
    )
    shot(host, "ctc-6-table-tie-break")
    expect(anna.locator("#ctc-take-form")).to_be_visible(timeout=POLL)
    anna.locator("#ctc-take-form button", has_text="savanna").click()
    expect(ben.locator("#ctc-take-form")).to_be_visible(timeout=POLL)
    ben.locator("#ctc-take-form button", has_text="mountain").click()

    # Anna crosses her river with money instead of her bonus track, then her savanna for free.
    expect(anna.locator("#ctc-turn-up-form")).to_be_visible(timeout=POLL)
    anna.locator("#ctc-turn-up-form button", has_text="3").click()
    expect(anna.locator(".ctc-best")).to_contain_text("Cross for 20 pounds")
    choice = anna.locator(".ctc-choice-button", has_text="bonus tracks: 0")
    expect(choice).to_contain_text("Cross for 30 pounds")
    shot(anna, "ctc-7-bonus-or-money")
    choice.click()
    expect(anna.locator("#ctc-mine")).to_contain_text("Money: 28 pounds")  # 53 - 30 + 5
    expect(anna.locator("#ctc-mine")).to_contain_text("Bonus tracks: 1 of 5")
    anna.locator("#ctc-turn-up-form button", has_text="3").click()
    anna.locator(".ctc-best", has_text="Cross for free").click()
    expect(anna.locator("#ctc-now")).to_contain_text("Acquisition round 3")
    expect(host.locator("#ctc-race")).to_contain_text(
        re.compile(r"Anna\s+2 of 8 crossed"), timeout=POLL
    )
    expect(host.locator("#ctc-race")).to_contain_text(re.compile(r"Ben\s+1 of 8 crossed"))
    shot(host, "ctc-8-table-round-3")
    expect(chris.locator("#ctc-now")).to_contain_text("Acquisition round 3", timeout=POLL)
    shot(chris, "ctc-9-phone-round-3")

    # The same screen in Japanese, for a person to look at.
    chris.get_by_role("link", name="日本語").click()
    expect(chris.locator("#ctc-now")).to_contain_text("地形獲得フェイズ（第3ラウンド）")
    shot(chris, "ctc-10-phone-ja")


def test_the_calculator_and_rules_page_on_a_phone(server, phone):
    page = phone()
    page.goto(server.url + "/tools/cape_to_cairo/")
    page.select_option("#terrain", "river")
    page.fill("#marks", "4")
    page.fill("#bonus", "2")
    page.fill("#money", "50")
    page.click("#crossing-form button[type=submit]")
    expect(page.locator("#crossing-result")).to_contain_text(
        "The cheapest way to cross the river costs 40 pounds."
    )
    check_phone_layout(page, "main", radios=True)
    shot(page, "ctc-11-calculator-crossing")
    page.fill("#p-0-name", "Ann")
    page.fill("#p-0-bid", "20")
    page.fill("#p-0-money", "50")
    page.fill("#p-1-name", "Bo")
    page.fill("#p-1-bid", "20")
    page.fill("#p-1-money", "60")
    page.click("#bids-form button[type=submit]")
    expect(page.locator("#bids-result")).to_contain_text(
        "Ann before Bo: same bid, less money left (30 to 40 pounds)"
    )
    shot(page, "ctc-12-calculator-bids")
    problems = {}
    for name, url in [("calculator", page.url), ("rules", server.url + "/rules/cape_to_cairo")]:
        page.goto(url)
        if serious_violations(page):
            problems[name] = serious_violations(page)
    assert problems == {}
    shot(page, "ctc-13-rules")

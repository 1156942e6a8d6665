"""Taps that never confuse (issue 24, item 3), on a small phone in real Chromium: taps made while
offline on the same form with the same values are one tap (the first one's submission key), so
the server applies it once, also when the first did reach it and only its answer was lost; a
different value, or another kind of entry (Pass after a bid), replaces the waiting one only after
the phone asks; once the connection is back the phone says what was applied ("Your bid of 1 was
sent."), or that a waiting tap was not applied and why (what the table did meanwhile). A Serengeti
bid refused with a fine clears its field, and the same bid again asks before a second fine.

Screenshots to look at: screenshots/taps-*.png (the sent banner, the ask boxes; 360 and 390 px,
English, Japanese, Russian).
"""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from tests.helpers import PHONE, SMALL_PHONE, open_table, overflowing, shot, sit_down
from tests.helpers import ServerStore as Store

pytestmark = pytest.mark.browser

NAMES = ("Anna", "Ben", "Chris")
SENT_WITHIN = 15_000  # ms: the polls (every 2 s) find the connection back, then the tap goes


def seated(phone, server, code: str, seat: int, locale: str = "en-US", viewport=SMALL_PHONE):
    page = phone(locale=locale, viewport=viewport)
    sit_down(page, server, code, seat)
    expect(page.locator("#live")).to_be_visible()
    # Every script ran (a tap before htmx took the forms over would be a plain form post).
    page.wait_for_function("() => window.htmx && document.readyState === 'complete'")
    return page


def anna_to_bid(server, phone, locale: str = "en-US", viewport=SMALL_PHONE):
    """A Serengeti table, a Tonga 7 entered: Anna's phone is to bid (she owns no card yet)."""
    host = phone(viewport=viewport)
    code = open_table(host, server, "serengeti", names=NAMES)
    table = Store(server.database, code)
    table.act({"type": "card", "seat": None, "tribe": "tonga", "digit": 7})
    anna = seated(phone, server, code, 0, locale, viewport)
    expect(anna.locator("#keypad")).to_be_visible()
    return anna, table


def quick_bid(page, amount: int) -> None:
    page.locator(".sg-quick button").filter(has_text=re.compile(rf"^\s*{amount}\b")).click()


def waiting_taps(page) -> dict:
    """The taps this page keeps until they are answered (its sessionStorage)."""
    return json.loads(page.evaluate("sessionStorage.getItem('companion.unsent') || '{}'"))


def history(page) -> str:
    return page.locator(".history").inner_text()


def test_two_taps_while_offline_are_one_bid_and_the_phone_says_it_was_sent(server, phone):
    anna, table = anna_to_bid(server, phone)
    anna.context.set_offline(True)
    quick_bid(anna, 1)
    unsent = anna.locator("#unsent")
    expect(unsent).to_contain_text("Not sent yet: bid 1.")
    quick_bid(anna, 1)  # the same tap again, still offline
    expect(unsent.locator("p")).to_have_count(1)
    assert len(waiting_taps(anna)) == 1
    shot(anna, "taps-waiting-360", full_page=False)

    anna.context.set_offline(False)
    sent = anna.locator("#sent")
    expect(sent).to_have_text("Your bid of 1 was sent.", timeout=SENT_WITHIN)
    expect(unsent).to_be_hidden()
    expect(anna.locator("#live .alert")).to_have_count(0)  # no "not applied"
    expect(anna.locator("#undo-here")).to_contain_text("Undo: Anna bid 1.")
    assert [a["amount"] for a in table.actions("bid")] == [1]
    assert history(anna).count("Anna bid 1.") == 1
    assert waiting_taps(anna) == {}
    assert overflowing(anna) == []
    shot(anna, "taps-sent-en-360", full_page=False)


def test_a_tap_whose_answer_was_lost_and_the_same_tap_again_are_applied_once(server, phone):
    """The first tap reached the server, only its answer was lost; the second tap (same form,
    same values) goes with the first one's key: the server knows it, applies nothing more, and
    the phone says the bid was sent, not that the table changed."""
    anna, table = anna_to_bid(server, phone)
    reached = []

    def lose_answers(route):
        if "/act/" in route.request.url:
            reached.append(route.fetch().status)  # the server gets it and answers...
        route.abort()  # ...and the phone never hears (every poll fails too)

    anna.route(re.compile(r"/t/"), lose_answers)
    quick_bid(anna, 1)
    expect(anna.locator("#unsent")).to_contain_text("Not sent yet: bid 1.")
    quick_bid(anna, 1)
    for _ in range(100):  # the second tap on its way (the route answers it meanwhile)
        if len(reached) == 2:
            break
        anna.wait_for_timeout(100)
    expect(anna.locator("#unsent p")).to_have_count(1)
    assert reached == [200, 200]  # the first applied it, the second was known already
    assert [a["amount"] for a in table.actions("bid")] == [1]

    anna.unroute(re.compile(r"/t/"))
    expect(anna.locator("#sent")).to_have_text("Your bid of 1 was sent.", timeout=SENT_WITHIN)
    expect(anna.locator("#unsent")).to_be_hidden()
    expect(anna.locator("#live .alert")).to_have_count(0)
    assert "not applied" not in anna.locator("body").inner_text()
    assert [a["amount"] for a in table.actions("bid")] == [1]


def test_another_value_replaces_the_waiting_tap_only_after_the_phone_asks(server, phone):
    anna, table = anna_to_bid(server, phone)
    anna.context.set_offline(True)
    quick_bid(anna, 1)
    expect(anna.locator("#unsent")).to_contain_text("Not sent yet: bid 1.")
    ask = anna.locator("#ask")
    # Another value: a question, in the page, and nothing changes until it is answered.
    quick_bid(anna, 2)
    expect(ask).to_be_visible()
    expect(ask.locator("#ask-text")).to_have_text(
        "“bid 1” is still waiting to be sent. Send “bid 2” instead?"
    )
    expect(ask.locator("#ask-yes")).to_have_text("Send the new one")
    expect(ask.locator("#ask-no")).to_have_text("Keep the first")
    assert overflowing(anna) == []
    shot(anna, "taps-ask-replace-en-360", full_page=False)
    ask.locator("#ask-no").click()
    expect(ask).to_be_hidden()
    expect(anna.locator("#unsent p")).to_have_count(1)
    expect(anna.locator("#unsent")).to_contain_text("bid 1")
    # Asked again, and this time replaced.
    quick_bid(anna, 2)
    ask.locator("#ask-yes").click()
    expect(anna.locator("#unsent p")).to_have_count(1)
    expect(anna.locator("#unsent")).to_contain_text("Not sent yet: bid 2.")
    assert [item["params"] for item in waiting_taps(anna).values()][0].count(["amount", "2"]) == 1

    anna.context.set_offline(False)
    expect(anna.locator("#sent")).to_have_text("Your bid of 2 was sent.", timeout=SENT_WITHIN)
    expect(anna.locator("#live .alert")).to_have_count(0)
    assert [a["amount"] for a in table.actions("bid")] == [2]
    expect(anna.locator("#sg-high")).to_contain_text("2 · Anna")


def test_a_pass_after_a_waiting_bid_asks_first_and_sends_only_what_was_chosen(server, phone):
    """A different kind of entry (Pass after a bid) while the bid waits for the connection asks
    too: both would reach the table, the second against a table the first had changed."""
    anna, table = anna_to_bid(server, phone)
    anna.context.set_offline(True)
    quick_bid(anna, 1)
    expect(anna.locator("#unsent")).to_contain_text("Not sent yet: bid 1.")
    ask = anna.locator("#ask")
    anna.locator(".sg-pass button").click()
    expect(ask.locator("#ask-text")).to_have_text(
        "“bid 1” is still waiting to be sent. Send “pass” instead?"
    )
    # The question is above the banners and the controls stay reachable.
    assert overflowing(anna) == []
    shot(anna, "taps-ask-other-kind-en-360", full_page=False)
    ask.locator("#ask-yes").click()
    expect(anna.locator("#unsent p")).to_have_count(1)
    expect(anna.locator("#unsent")).to_contain_text("Not sent yet: pass.")
    anna.context.set_offline(False)
    expect(anna.locator("#unsent")).to_be_hidden(timeout=SENT_WITHIN)
    assert table.actions("bid") == []
    assert len(table.actions("pass")) == 1


def test_a_waiting_tap_the_table_refuses_is_said_not_applied_with_the_reason(server, phone):
    """After reconnecting, a queued tap is either applied or shown as not applied, with the
    table's own reason; it never just disappears from the "not sent yet" banner."""
    anna, table = anna_to_bid(server, phone)
    anna.context.set_offline(True)
    quick_bid(anna, 1)
    expect(anna.locator("#unsent")).to_contain_text("Not sent yet: bid 1.")
    table.act({"type": "pass", "seat": 0, "host": True})  # the host passed for her meanwhile
    anna.context.set_offline(False)
    sent = anna.locator("#sent")
    expect(sent.locator("p.refused")).to_contain_text("Not applied: bid 1.", timeout=SENT_WITHIN)
    # The table's own reason: what happened while the bid waited.
    expect(sent.locator("p.refused")).to_contain_text(
        "The table moved on meanwhile: Anna passes at once and takes 2 chips from the bank."
    )
    expect(anna.locator("#unsent")).to_be_hidden()
    assert table.actions("bid") == []
    shot(anna, "taps-not-applied-en-360", full_page=False)


def anna_owns_a_seven(server, phone, locale: str = "en-US", viewport=SMALL_PHONE):
    """Round 2 of a Serengeti table with fines on: Anna won the Tonga 7 for 1 (9 chips left),
    starts the round and is to bid on Nuba 0 and Massai 5."""
    host = phone(viewport=viewport)
    code = open_table(host, server, "serengeti", names=NAMES)
    table = Store(server.database, code)
    table.act(
        {"type": "card", "seat": None, "tribe": "tonga", "digit": 7},
        {"type": "bid", "seat": 0, "amount": 1},
        {"type": "pass", "seat": 1},
        {"type": "pass", "seat": 2},
        {"type": "card", "seat": None, "tribe": "nuba", "digit": 0},
        {"type": "card", "seat": None, "tribe": "massai", "digit": 5},
    )
    anna = seated(phone, server, code, 0, locale, viewport)
    expect(anna.locator("#keypad")).to_be_visible()
    expect(anna.locator("#sg-my-chips")).to_have_text("9")
    return anna, table


def bid_typed(page, amount: str) -> None:
    page.fill("#sg-amount", amount)
    page.locator(".sg-bid-form button[type=submit]").click()


def test_a_refused_bid_is_fined_once_then_asks_and_a_yes_fines_again(server, phone):
    anna, table = anna_owns_a_seven(server, phone)
    chips = anna.locator("#sg-my-chips")
    # 17 ends in a digit Anna owns: refused, a 1-chip fine (9 -> 8), and the box is empty again.
    bid_typed(anna, "17")
    alert = anna.locator("#live .alert")
    expect(alert).to_contain_text("You own a 7, so no bid may end in 7")
    expect(alert.get_by_role("link")).to_have_attribute("href", re.compile(r"#bid-digit$"))
    expect(chips).to_have_text("8")
    expect(anna.locator("#sg-amount")).to_have_value("")
    expect(alert).to_be_in_viewport()
    # 17 again: the phone asks before it costs another chip; "no" sends nothing.
    bid_typed(anna, "17")
    ask = anna.locator("#ask")
    expect(ask).to_be_visible()
    expect(ask.locator("#ask-text")).to_have_text(
        "A bid of 17 was just refused and cost a 1-chip fine. Bid 17 again and pay another chip?"
    )
    shot(anna, "taps-ask-fined-en-360", full_page=False)
    version = anna.get_attribute("#live", "data-version")
    expect(ask.locator("#ask-no")).to_be_focused()  # the answer that costs nothing
    ask.locator("#ask-no").click()
    expect(ask).to_be_hidden()
    expect(anna.locator("#sg-amount")).to_have_value("")  # ready for another number
    anna.wait_for_timeout(300)
    assert anna.get_attribute("#live", "data-version") == version  # nothing was sent
    expect(chips).to_have_text("8")
    assert len(table.actions("penalty")) == 1
    # Asked again and confirmed: it is a new illegal call, fined again (8 -> 7).
    bid_typed(anna, "17")
    ask.locator("#ask-yes").click()
    expect(chips).to_have_text("7")
    expect(anna.locator("#live .alert")).to_contain_text("no bid may end in 7")
    expect(anna.locator("#sg-amount")).to_have_value("")
    assert [a["bid"] for a in table.actions("penalty")] == [17, 17]
    # A refusal that costs nothing keeps what was typed, and its warning still looks like one
    # once htmx has swapped and settled the keypad.
    bid_typed(anna, "1000")
    expect(anna.locator("#live .alert")).to_contain_text("from 1 to 999")
    expect(anna.locator("#sg-amount")).to_have_value("1000")
    expect(anna.locator("#sg-bid-live")).to_have_class("sg-live sg-warn")
    expect(chips).to_have_text("7")
    # Another number is a bid as always, without a question.
    bid_typed(anna, "20")
    expect(anna.locator("#undo-here")).to_contain_text("Undo: Anna bid 20.")
    expect(ask).to_be_hidden()
    assert [a["amount"] for a in table.actions("bid")] == [1, 20]


def fits_both_widths(page, name: str) -> None:
    """Nothing wider than the screen at 360 and at 390 px (a screenshot of each), back at 360."""
    for viewport in (PHONE, SMALL_PHONE):
        page.set_viewport_size(viewport)
        assert overflowing(page) == [], viewport
        shot(page, f"{name}-{viewport['width']}", full_page=False)


@pytest.mark.parametrize("locale", ["en-US", "ja-JP", "ru-RU"])
def test_screenshots_of_the_sent_banner_and_the_ask_boxes(server, phone, locale):
    # One table per language; each state is checked at both widths (the layout is redone on a
    # resize, and nothing here depends on where the page was scrolled).
    lang = locale[:2]
    anna, table = anna_owns_a_seven(server, phone, locale, SMALL_PHONE)
    anna.context.set_offline(True)
    quick_bid(anna, 1)
    expect(anna.locator("#unsent")).to_be_visible()
    quick_bid(anna, 2)
    expect(anna.locator("#ask")).to_be_visible()
    fits_both_widths(anna, f"taps-ask-replace-{lang}")
    anna.locator("#ask-yes").click()
    anna.context.set_offline(False)
    expect(anna.locator("#sent")).to_be_visible(timeout=SENT_WITHIN)
    expect(anna.locator("#live .alert")).to_have_count(0)
    fits_both_widths(anna, f"taps-sent-{lang}")
    assert [a["amount"] for a in table.actions("bid")] == [1, 2]
    # Ben passes, Chris bids 3: Anna is to bid again.
    table.act({"type": "pass", "seat": 1}, {"type": "bid", "seat": 2, "amount": 3})
    anna.reload()
    anna.wait_for_function("() => window.htmx && document.readyState === 'complete'")
    bid_typed(anna, "17")
    expect(anna.locator("#sg-amount")).to_have_value("")
    fits_both_widths(anna, f"taps-fined-{lang}")
    bid_typed(anna, "17")
    expect(anna.locator("#ask")).to_be_visible()
    fits_both_widths(anna, f"taps-ask-fined-{lang}")


def ctc_bid(server, phone):
    host = phone(viewport=SMALL_PHONE)
    code = open_table(host, server, "cape_to_cairo", "3", names=NAMES)
    Store(server.database, code).act(
        *(
            {"type": "card", "seat": None, "terrain": t, "marks": m, "income": i}
            for t, m, i in [("river", 1, 5), ("savanna", 2, 3), ("desert", 0, 7)]
        )
    )
    page = seated(phone, server, code, 0)

    def tap():
        page.fill("#ctc-amount", "40")
        page.click("#ctc-bid-form button[type=submit]")

    return page, tap


def kahuna_reveal(server, phone):
    host = phone(viewport=SMALL_PHONE)
    code = open_table(host, server, "kahuna", "2", names=())
    page = seated(phone, server, code, 0)
    pick = page.locator(".k-islands-pick")
    return page, lambda: pick.get_by_role("button", name="Coco", exact=True).click()


def africana_choice(server, phone):
    host = phone(viewport=SMALL_PHONE)
    code = open_table(host, server, "africana", "2", names=("Anna", "Ben"))
    page = seated(phone, server, code, 0)
    return page, lambda: page.locator("#af-choose button[value=buy]").click()


@pytest.mark.parametrize(
    "start, waiting, sent",
    [
        (
            ctc_bid,
            "Not sent yet: sealed bid (in pounds: 40).",
            "Your sealed bid was sent (in pounds: 40).",
        ),
        (kahuna_reveal, "Not sent yet: face-up card: Coco.", "Sent: face-up card: Coco."),
        (africana_choice, "Not sent yet: Buy adventures.", "Sent: Buy adventures."),
    ],
    ids=["cape_to_cairo", "kahuna", "africana"],
)
def test_every_game_says_what_a_waiting_tap_was_and_that_it_was_sent(
    server, phone, start, waiting, sent
):
    page, tap = start(server, phone)
    page.context.set_offline(True)
    tap()
    expect(page.locator("#unsent p")).to_have_text(
        waiting + " It will be sent when the connection is back."
    )
    page.context.set_offline(False)
    expect(page.locator("#sent")).to_have_text(sent, timeout=SENT_WITHIN)
    expect(page.locator("#live .alert")).to_have_count(0)
    expect(page.locator("#unsent")).to_be_hidden()

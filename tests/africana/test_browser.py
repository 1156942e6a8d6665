"""Africana with three phones in real Chromium: a few ledger entries, then the scoring sheets.

The expected ranking is worked out here (with the brute force of tests/africana/helpers.py),
independently of the app's rules module.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.africana.helpers import brute_force
from tests.helpers import SMALL_PHONE, open_table, shot

pytestmark = pytest.mark.browser

# What each phone types on its sheet (its own cards), Anna, Ben, Chris.
SHEETS = [
    {
        "expeditions": [5, 6],
        "artifacts": {"A": [2, 2, 2], "B": [1], "C": [1], "D": [1]},
        "guides": 0,
        "gold": 4,
        "silver": 3,
        "movement": 3,
        "unfinished": 0,
    },
    {
        "expeditions": [20, 15],
        "artifacts": {},
        "guides": 3,
        "gold": 1,
        "silver": 4,
        "movement": 0,
        "unfinished": 2,
    },
    {
        "expeditions": [30],
        "artifacts": {},
        "guides": 0,
        "gold": 19,
        "silver": 0,
        "movement": 1,
        "unfinished": 0,
    },
]


def expected_score(sheet: dict) -> tuple[int, int]:
    kinds = tuple(k for k, points in sorted(sheet["artifacts"].items()) for _ in points)
    coins = sheet["gold"] * 5 + sheet["silver"]
    penalty = 10 if sheet["guides"] >= 3 else 5 if sheet["guides"] == 2 else 0
    total = (
        sum(sheet["expeditions"])
        + sum(sum(p) for p in sheet["artifacts"].values())
        + brute_force(kinds)
        - penalty
        + coins // 10
        + sheet["movement"] // 2
        + sheet["unfinished"]
    )
    return total, coins


def fill_sheet(page, sheet: dict) -> None:
    boxes = page.locator("#af-sheet input[name^='expedition_points-']")
    for i in range(boxes.count()):
        boxes.nth(i).fill("")
    for i, points in enumerate(sheet["expeditions"]):
        page.fill(f"#expedition_points-{i}", str(points))
    for kind, points in sheet["artifacts"].items():
        for i, value in enumerate(points):
            page.fill(f"#art_{kind}-{i}", str(value))
    for name in ("guides", "gold", "silver", "movement", "unfinished"):
        field = {
            "guides": "guide_adventures",
            "movement": "movement_cards",
            "unfinished": "unfinished_artifacts",
        }.get(name, name)
        page.fill(f"#{field}", str(sheet[name]))


def test_three_phones_enter_coins_fill_their_sheets_and_see_the_ranking(server, phone):
    host = phone()
    host.on("dialog", lambda dialog: dialog.accept())
    code = open_table(host, server, game="africana", players="3", names=())
    phones = []
    for company, name in (("Italy", "Anna"), ("France", "Ben"), ("Germany", "Chris")):
        page = phone()
        page.goto(f"{server.url}/t/{code}/join")
        page.fill("#name", name)
        page.get_by_role("button", name=company).click()
        expect(page.get_by_text(f"You are {name}.")).to_be_visible()
        phones.append(page)
    anna, ben, chris = phones
    # Every join changes the table: let each page catch up (a form from an older version of
    # the table is refused with "the table changed", as it should be).
    for page in (*phones, host):
        expect(page.locator("#seats")).to_contain_text("Chris", timeout=6000)
    expect(ben.locator("#af-setup")).to_contain_text("Cape Town")
    shot(ben, "africana-setup-phone")

    # Anna draws and ends her turn.
    anna.get_by_role("button", name="draw 2 movement cards").click()
    anna.get_by_role("button", name="End my turn").click()
    expect(ben.locator("#your-turn")).to_be_visible(timeout=6000)

    # Ben joins the expedition in space 1 (3 silver bonus) and completes it (4 silver).
    ben.get_by_role("button", name="move the explorer").click()
    ben.locator("label[for=af-pick-join]").click()  # one entry at a time
    ben.check("#af-join-slot-1")
    ben.fill("#af-join-bonus", "3")
    ben.get_by_role("button", name="Join and take the bonus").click()
    expect(ben.locator("#af-account-1 .af-balance")).to_have_text("5 silver")
    ben.locator("label[for=af-pick-expedition]").click()
    ben.check("#af-done-slot-1")
    ben.fill("#af-exp-coins", "4")
    ben.fill("#af-exp-points", "6")
    ben.get_by_role("button", name="Complete and take the reward").first.click()
    expect(ben.locator("#af-account-1 .af-balance")).to_have_text("9 silver")
    ben.locator("#af-account-1 summary").click()  # folded on the phone: open it
    expect(ben.locator("#af-account-1")).to_contain_text("Expedition reward")
    shot(ben, "africana-ledger-phone")
    ben.get_by_role("button", name="End my turn").click()

    # Chris cannot afford an adventure card: refused with the reason; pages cost after the first.
    expect(chris.locator("#your-turn")).to_be_visible(timeout=6000)
    chris.get_by_role("button", name="buy adventures").click()
    chris.get_by_role("button", name="Buy and pay").click()
    expect(chris.locator(".alert[role=alert]:visible")).to_contain_text(
        "but you have 3 silver (enough for 0)"
    )
    expect(chris.locator(".alert[role=alert]:visible a")).to_have_attribute(
        "href", "/rules/africana#no-debt"
    )
    expect(chris.locator("#af-buy .af-inline-alert")).to_be_in_viewport()  # not only at the top
    # Shown once: next to the form, the region's own copy at the top hidden.
    expect(chris.locator("#live .alert:visible")).to_have_count(1)
    shot(chris, "africana-refusal-viewport", full_page=False)
    shot(chris, "africana-refusal-phone")
    chris.fill("#af-pages-n", "3")
    chris.get_by_role("button", name="Turn and pay").click()
    expect(chris.locator("#af-account-2 .af-balance")).to_have_text("1 silver")
    expect(host.locator("#af-account-2 .af-balance")).to_have_text("1 silver", timeout=6000)
    shot(host, "africana-host-playing")

    # The host ends the game; every phone gets its sheet.
    host.get_by_role("button", name="End the game now").click()
    expect(host.locator("#af-over")).to_be_visible()
    for page in phones:
        expect(page.locator("#af-sheet")).to_be_visible(timeout=6000)

    # Anna starts typing; meanwhile Ben and Chris hand in theirs. Her typing survives the polls.
    anna.fill("#expedition_points-0", "5")
    anna.fill("#expedition_points-1", "6")
    for page, sheet in ((ben, SHEETS[1]), (chris, SHEETS[2])):
        fill_sheet(page, sheet)
        page.get_by_role("button", name="Hand in my sheet").click()
        expect(page.locator(".af-done")).to_be_visible()
    # While her cursor is in the sheet, her page is not replaced under her fingers ...
    anna.wait_for_timeout(2500)
    expect(anna.locator("#af-sheets")).to_contain_text("Chris (Germany): not yet")
    expect(anna.locator("#expedition_points-1")).to_be_focused()
    # ... once she taps outside it, the news arrives and what she typed is still there.
    anna.locator("#af-sheets h2").click()
    expect(anna.locator("#af-sheets")).to_contain_text("Chris (Germany): handed in", timeout=6000)
    expect(anna.locator("#expedition_points-0")).to_have_value("5")
    expect(anna.locator("#expedition_points-1")).to_have_value("6")
    fill_sheet(anna, SHEETS[0])
    totals = [expected_score(sheet) for sheet in SHEETS]
    expect(anna.locator("#af-preview")).to_contain_text(f"Total so far: {totals[0][0]} points")
    expect(anna.locator("#af-preview .af-set")).to_have_count(2)
    shot(anna, "africana-sheet-phone")
    anna.get_by_role("button", name="Hand in my sheet").click()

    order = sorted(range(3), key=lambda i: (-totals[i][0], -totals[i][1]))
    assert totals[order[0]][0] == totals[order[1]][0]  # the tie-break on coins is shown
    for page in (*phones, host):
        ranking = page.locator("#af-ranking")
        expect(ranking).to_be_visible(timeout=6000)
        heads = ranking.locator("thead .who")
        expect(heads).to_have_count(3)
        names = ["Anna", "Ben", "Chris"]
        expect(heads).to_have_text([names[i] for i in order])
        expect(ranking.locator("tfoot td")).to_have_text([str(totals[i][0]) for i in order])
        expect(page.locator("#af-result")).to_contain_text("more coins wins")
    anna.locator("#af-score-0 summary").click()  # the breakdown, folded below the table
    expect(anna.locator("#af-score-0 .af-set")).to_have_count(2)
    shot(anna, "africana-result-phone")
    shot(host, "africana-result-host")


def test_the_calculator_updates_as_you_type(server, phone):
    page = phone()
    page.goto(f"{server.url}/tools/africana/?players=2")
    page.fill("#p0-expedition_points-0", "7")
    for i in range(3):
        page.fill(f"#p0-art_A-{i}", "1")
    for kind in "BCD":
        page.fill(f"#p0-art_{kind}-0", "1")
    for i in range(6):  # boxes appear as they fill up
        page.fill(f"#p1-expedition_points-{i}", "1")
    page.fill("#p1-gold", "4")
    expect(page.locator("#af-total-0")).to_have_text("29 points")  # 7 + 6 + 16
    expect(page.locator("#af-total-1")).to_have_text("8 points")  # 6 + 20 silver
    expect(page.locator("#af-ranking tbody tr").first).to_have_attribute("data-player", "0")
    page.fill("#p1-movement_cards", "-1")
    expect(page.locator("#af-results .alert")).to_contain_text("cannot be negative")
    shot(page, "africana-calculator")


def test_the_adventure_limit_refuses_a_seat_and_the_host_can_override_it(server, phone):
    """Rule "adventure-limit": with 5 unfinished adventures, ending the turn with too few
    discards is refused next to the form; the phone gets no way around it, the host gets an
    explicit "end the turn anyway", and every phone reads the override in the history."""
    host = phone(viewport=SMALL_PHONE)
    code = open_table(host, server, game="africana", players="2", names=())
    phones = []
    for company, name in (("Italy", "Anna"), ("France", "Ben")):
        page = phone(viewport=SMALL_PHONE)
        page.goto(f"{server.url}/t/{code}/join")
        page.fill("#name", name)
        page.get_by_role("button", name=company).click()
        expect(page.get_by_text(f"You are {name}.")).to_be_visible()
        phones.append(page)
    anna, ben = phones
    for page in (*phones, host):
        expect(page.locator("#seats")).to_contain_text("Ben", timeout=6000)

    # The host gives Anna 23 silver; she buys 5 adventure cards (25 silver).
    host.goto(f"{server.url}/t/{code}/?as=0")
    host.fill("#af-correct-amount", "23")
    host.get_by_role("button", name="Correct the coins").click()
    expect(host.locator("#af-account-0 .af-balance")).to_have_text("25 silver")
    expect(anna.locator("#af-account-0 .af-balance")).to_have_text("25 silver", timeout=6000)
    anna.get_by_role("button", name="buy adventures").click()
    anna.fill("#af-buy-cards", "5")
    anna.get_by_role("button", name="Buy and pay").click()
    expect(anna.locator("#af-end")).to_contain_text("You have 5 unfinished adventures: discard 2")
    expect(anna.locator("#af-discard")).to_have_value("2")  # the discards the limit needs

    # Anna discards too few: refused, next to the form, with the rule; no override for her.
    anna.fill("#af-discard", "1")
    anna.get_by_role("button", name="End my turn").click()
    refusal = anna.locator("#af-end .af-inline-alert")
    expect(refusal).to_contain_text(
        "You have 5 unfinished adventures, and at most 3 may stay "
        "at the end of a turn: discard 2 (they leave the game), not 1."
    )
    expect(refusal.locator("a")).to_have_attribute("href", "/rules/africana#adventure-limit")
    expect(anna.locator("#af-end")).to_contain_text("the host can end the turn anyway")
    expect(anna.locator("#af-end [name=override]")).to_have_count(0)
    anna.locator("#af-end").scroll_into_view_if_needed()
    shot(anna, "africana-adventure-limit-seat-360", full_page=False)
    assert "It is your turn." in anna.locator("#af-turn").inner_text()

    # The host, acting for Anna, is refused the same way and then offered the override.
    host.reload()
    expect(host.locator("#af-end [name=override]")).to_have_count(0)  # not before a refusal
    host.fill("#af-discard", "1")
    host.get_by_role("button", name="End the turn of Anna").click()
    expect(host.locator("#af-end .af-inline-alert")).to_contain_text(
        "discard 2 (they leave the game), not 1."
    )
    override = host.get_by_role("button", name="End the turn anyway (host)")
    expect(override).to_be_visible()
    override.evaluate("button => button.scrollIntoView({block: 'end'})")
    shot(host, "africana-adventure-limit-host-360", full_page=False)
    # Enter in the discard box is the ordinary end of the turn, never the override.
    with host.expect_response(lambda response: "/act/end_turn" in response.url):
        host.locator("#af-discard").press("Enter")
    expect(host.locator("#af-end .af-inline-alert")).to_contain_text("not 1.")
    expect(host.locator(".history")).not_to_contain_text("The host ended the turn")
    expect(override).to_be_visible()
    override.click()
    line = "The host ended the turn of Anna with 4 unfinished adventures (limit 3)."
    expect(host.locator(".history")).to_contain_text(line)
    expect(ben.locator("#your-turn")).to_be_visible(timeout=6000)
    expect(ben.locator(".history")).to_contain_text(line)
    expect(anna.locator("#af-account-0")).to_contain_text("Unfinished adventures: 4.", timeout=6000)

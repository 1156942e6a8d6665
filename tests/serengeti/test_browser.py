"""Serengeti on three phones in real Chromium, checked against an independent model.

The test keeps its own small model of the game (chips, bank, cards, the Abacus payout, the pass
bonus, the fine, the scoring), written here without the rules module: the phones enter the cards
and bid or pass from their keypads, and after every round the bank the app shows must be the
model's. `make test` plays the first 5 rounds (every size of lot, outbidding, passes, the fine);
`make test-deep` and `make screenshots` play all 15, and at the end the scores the app shows
must be the model's. Phones are brought up to date by the same poll htmx runs every 2 s, fired at once
(a visibilitychange event), so the test never sleeps.
"""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import expect

from tests.helpers import open_table, shot

pytestmark = pytest.mark.browser

NAMES = ["Anna", "Ben", "Chris"]
TRIBES = ["Nuba", "Massai", "Bantu", "Nandi", "Tonga", "Samburu"]
POINTS = [0, 1, 3, 6, 10, 15]


def deck() -> list[tuple[str, int]]:
    """30 cards: no digit twice in a tribe, each digit on three cards; a fixed shuffle."""
    cards = [
        (t, d) for i, t in enumerate(TRIBES) for d in (range(5) if i % 2 == 0 else range(5, 10))
    ]
    random.Random(2024).shuffle(cards)
    return cards


class Model:
    """Serengeti (Abacus rules) for three players, written independently of the app."""

    def __init__(self):
        self.chips = [10, 10, 10]
        self.bank = 35
        self.cards: list[list[tuple[str, int]]] = [[], [], []]
        self.start = 0
        self.lone_holders = 0  # lone holders paid a bid that their card count does not divide

    def digits(self, seat):
        return {d for _, d in self.cards[seat]}

    def lowest_legal(self, seat, floor):
        for bid in range(max(floor, 1), max(floor, 1) + 10):
            if bid % 10 not in self.digits(seat):
                return bid
        return None

    def fine(self, seat):
        if self.chips[seat] >= 1:
            self.chips[seat] -= 1
            self.bank += 1

    def pass_bonus(self, seat):
        bonus = min(2, self.bank)
        self.bank -= bonus
        self.chips[seat] += bonus
        return bonus

    def win(self, seat, bid, lot):
        self.chips[seat] -= bid
        self.cards[seat].extend(lot)
        digit = bid % 10
        others = [s for s in range(3) if s != seat]
        matches = {s: sum(1 for _, d in self.cards[s] if d == digit) for s in others}
        holders = [s for s in others if matches[s]]
        total = sum(matches.values())
        paid = 0
        for s in others:
            if len(holders) == 1:  # the only other player with the digit takes the whole bid
                share = bid if s in holders else 0
                self.lone_holders += s in holders and bid % matches[s] != 0
            elif holders:  # two or more holders: the same share for every matching card
                share = matches[s] * (bid // total)
            else:  # nobody: the other players split it
                share = bid // len(others)
            self.chips[s] += share
            paid += share
        self.bank += bid - paid
        self.start = seat

    def scores(self):
        most = max(self.chips)
        result = []
        for seat in range(3):
            tribes = [t for t, _ in self.cards[seat]]
            points = sum(POINTS[tribes.count(t)] for t in set(tribes))
            result.append(points + (3 if most > 0 and self.chips[seat] == most else 0))
        return result


def version(page) -> int:
    return int(page.get_attribute("#live", "data-version"))


def sync(page, v: int) -> None:
    """Bring a phone up to version v now: fire the poll htmx would run within 2 s."""
    if version(page) != v:
        page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
        page.wait_for_selector(f'#live[data-version="{v}"]')


def submit(page, click) -> int:
    """Click something that changes the table; wait for the swapped live region; its version."""
    old = version(page)
    click()
    page.wait_for_function(
        "old => document.getElementById('live').dataset.version != old", arg=str(old)
    )
    return version(page)


def enter_card(page, tribe: str, digit: int) -> int:
    form = page.locator("#card-form")
    form.locator(".sg-tribes label", has_text=tribe).click()
    form.locator(".sg-digits label", has_text=str(digit)).click()
    return submit(page, lambda: form.locator("button[type=submit]").click())


def bid(page, amount: int) -> int:
    keypad = page.locator("#keypad")
    quick = keypad.locator(f'.sg-quick input[name=amount][value="{amount}"] + button')
    if quick.count():
        return submit(page, quick.click)
    page.fill("#sg-amount", str(amount))
    return submit(page, lambda: keypad.locator(".sg-bid-form button").click())


ROUNDS = 15


def test_the_first_rounds_on_three_phones_match_an_independent_model(server, phone):
    play_on_three_phones(server, phone, rounds=5)


@pytest.mark.deep  # 46 s of a worker's time in `make test`: its first 5 rounds stay there
def test_a_whole_game_on_three_phones_matches_an_independent_model(server, phone):
    play_on_three_phones(server, phone, rounds=ROUNDS)


def play_on_three_phones(server, phone, rounds: int) -> None:
    """The first `rounds` rounds of a game, each checked against the model; the scores too once
    the game is over."""
    host = phone()
    open_table(host, server, "serengeti", names=NAMES)
    join_url = host.locator(".join-url a").inner_text()
    phones = []
    for seat in range(3):
        page = phone()
        page.goto(join_url)
        page.get_by_role("button", name=NAMES[seat]).click()
        expect(page.get_by_text(f"You are {NAMES[seat]}.")).to_be_visible()
        phones.append(page)
    v = version(phones[-1])

    model = Model()
    cards = deck()
    fined = False
    keypad_shot = False
    sold = 0  # lots won by a bid (not taken free)
    for rnd in range(1, rounds + 1):
        lot = [cards.pop(0) for _ in range((rnd - 1) % 3 + 1)]
        for k, (tribe, digit) in enumerate(lot):
            page = phones[(rnd + k) % 3]  # every phone enters cards
            sync(page, v)
            if rnd == 2 and k == 0:
                shot(page, "serengeti-phone-card-entry")
            v = enter_card(page, tribe, digit)
        # The auction, clockwise from the start player, decided by the test's own policy.
        active, high, high_seat, bid_this_round = [0, 1, 2], None, None, set()
        turn = model.start
        while True:
            if high is not None and active == [high_seat]:
                model.win(high_seat, high, lot)
                sold += 1
                break
            if high is None and not active:
                model.cards[model.start].extend(lot)  # nobody bid: the start player takes it
                break
            page = phones[turn]
            sync(page, v)
            expect(page.locator("#keypad")).to_be_visible()
            assert page.locator("#sg-my-chips").inner_text() == str(model.chips[turn])
            if not keypad_shot and high is not None and model.digits(turn):
                shot(page, "serengeti-phone-keypad")
                keypad_shot = True
            if not fined and rnd >= 4 and model.digits(turn):
                # One illegal bid, typed: the phone warns before it is sent, the app refuses
                # it with the reason and fines a chip (its own history entry).
                wrong = next(
                    b
                    for b in range((high or 0) + 1, (high or 0) + 11)
                    if b % 10 in model.digits(turn)
                )
                page.fill("#sg-amount", str(wrong))
                expect(page.locator("#sg-bid-live")).to_contain_text(f"You own a {wrong % 10}")
                v = submit(page, lambda p=page: p.locator("#keypad .sg-bid-form button").click())
                expect(page.locator(".alert")).to_contain_text(
                    f"You own a {wrong % 10}, so no bid may end in {wrong % 10}"
                )
                expect(page.locator(".sg-fine-note")).to_contain_text("paid a 1-chip fine")
                # The fined bid leaves the field (a second tap must not be a second fine), and
                # its warning with it.
                expect(page.locator("#sg-amount")).to_have_value("")
                expect(page.locator("#sg-bid-live")).to_have_text("")
                # A fined player has called out a price: passing now earns no bonus.
                expect(page.locator("#keypad .sg-pass button")).to_have_text("Pass")
                shot(page, "serengeti-phone-fine")
                model.fine(turn)
                fined = True
                bid_this_round.add(turn)  # a price was called out: a pass now earns no bonus
            # Each player has a budget this round (none for one of them): they outbid while
            # the lowest legal bid fits it, so auctions go round several times.
            budget = (
                0 if (rnd + turn) % 3 == 2 else min(model.chips[turn], 2 + (rnd * (turn + 1)) % 9)
            )
            want = model.lowest_legal(turn, (high or 0) + 1)
            if want is not None and want <= budget:
                v = bid(page, want)
                high, high_seat = want, turn
                bid_this_round.add(turn)
            else:
                pass_button = page.locator("#keypad .sg-pass button")
                if turn not in bid_this_round:
                    expect(pass_button).to_contain_text(
                        f"Pass and take {min(2, model.bank)}" if model.bank else "Pass"
                    )
                    model.pass_bonus(turn)
                v = submit(page, pass_button.click)
                active.remove(turn)
            if active:
                following = [s for s in ((turn + i) % 3 for i in range(1, 4)) if s in active]
                turn = following[0]
        # After every round the table view agrees with the model (bank, payout line).
        sync(host, v)
        assert host.locator("#sg-bank").inner_text() == str(model.bank), f"round {rnd}"
        assert sum(model.chips) + model.bank == 65
        if rnd == 8:
            shot(host, "serengeti-host-table")

    assert fined and keypad_shot, (fined, keypad_shot)
    if rounds < ROUNDS:
        return
    assert sold >= 8, sold
    assert model.lone_holders >= 1  # the game met a case where sharing per card would differ
    expected = model.scores()
    for page in [host, *phones]:
        sync(page, v)
        expect(page.locator("#sg-result")).to_be_visible()
        # The comparison table: players in ranking order, each total under its name.
        totals = page.locator("#sg-score-table tfoot td").all_inner_texts()
        heads = page.locator("#sg-score-table thead .who").all_inner_texts()
        assert {h: int(t) for h, t in zip(heads, totals)} == {
            NAMES[s]: expected[s] for s in range(3)
        }
        page.locator("#sg-result-detail summary").click()  # the detail behind it
        for seat in range(3):
            assert page.locator(f"#sg-total-{seat}").inner_text() == str(expected[seat])
            assert page.locator(f"#sg-chips-{seat}").inner_text() == str(model.chips[seat])
    shot(phones[1], "serengeti-phone-end")
    assert phones[1].evaluate("document.documentElement.scrollWidth") <= 390
    ranking = sorted(range(3), key=lambda s: (-expected[s], -len(model.cards[s]), -model.chips[s]))
    listed = phones[0].locator(".sg-ranking li strong").all_inner_texts()
    assert listed == [NAMES[s] for s in ranking]


def test_keypad_calculator_and_rules_fit_a_phone(server, phone):
    """The screens at 390 px: no sideways scrolling, thumb-sized controls, no serious
    accessibility problem (axe); the live bid hint."""
    from axe_playwright_python.sync_playwright import Axe

    axe = Axe()
    host = phone()
    open_table(host, server, "serengeti", names=NAMES)
    host.once("dialog", lambda dialog: dialog.accept())  # "The history will say you looked"
    host.get_by_role("button", name="Show all chips").click()
    expect(host.get_by_role("button", name="Hide the chips")).to_be_visible()
    host.locator("#card-form .sg-tribes label", has_text="Nuba").click()
    host.locator("#card-form .sg-digits label", has_text="4").click()
    submit(host, lambda: host.locator("#card-form button[type=submit]").click())
    host.get_by_role("link", name="Act for Anna").first.click()
    expect(host.locator("#keypad")).to_be_visible()
    host.fill("#sg-amount", "25")
    expect(host.locator("#sg-bid-live")).to_contain_text(
        "Your chips: 10. If you win at 25 you cannot pay"
    )
    shot(host, "serengeti-host-acting-keypad")
    for page_url, name in [
        (host.url, "keypad"),
        (
            server.url + "/tools/serengeti/?variant=abacus"
            "&players=4&bid=13&winner=0&name_0=Anna&digits_1=3"
            "&digits_2=3&digits_3=",
            "calculator",
        ),
        (server.url + "/rules/serengeti#cannot-pay-no-card", "rules"),
    ]:
        host.goto(page_url)
        shot(host, f"serengeti-{name}")
        serious = [
            (v["id"], v["help"], [n["target"] for n in v["nodes"]][:3])
            for v in axe.run(host).response["violations"]
            if v["impact"] in ("serious", "critical")
        ]
        assert serious == [], name
        assert host.evaluate("document.documentElement.scrollWidth") <= 390, name
        controls = (
            "main button, main a.button, main input:not([type=radio]):not([type=hidden]),"
            " main select, main .sg-choice > span"
        )
        small = host.evaluate(
            """(controls) => [...document.querySelectorAll(controls)]
            .filter(e => e.offsetParent !== null && e.getBoundingClientRect().height < 44)
            .map(e => e.outerHTML.slice(0, 80))""",
            controls,
        )
        assert small == [], name
    expect(host.locator("#payout-line")).to_have_count(0)
    host.goto(
        server.url + "/tools/serengeti/?variant=abacus&players=3&bid=13&winner=0"
        "&name_0=Anna&name_1=Ben&name_2=Chris&digits_1=3&digits_2=3"
    )
    expect(host.locator("#payout-line")).to_have_text("Anna paid 13: Ben 6, Chris 6, 1 to the bank")


@pytest.mark.parametrize(
    "locale,words",
    [
        ("ja-JP", ["あなたの手番", "パスして銀行からチップ2枚を受け取る"]),
        ("ru-RU", ["Ваш ход", "Пасовать и взять из банка 2 фишки"]),
    ],
)
def test_a_japanese_and_a_russian_phone_play_in_their_language(server, phone, locale, words):
    host = phone()
    open_table(host, server, "serengeti", names=NAMES)
    join_url = host.locator(".join-url a").inner_text()
    anna = phone(locale=locale)
    anna.goto(join_url)
    anna.locator(".seat-button").first.click()
    expect(anna.locator("#card-form")).to_be_visible()
    anna.locator("#card-form .sg-tribes label").nth(4).click()  # Tonga, in any language
    anna.locator("#card-form .sg-digits label", has_text="7").click()
    submit(anna, lambda: anna.locator("#card-form button[type=submit]").click())
    for word in words:
        expect(anna.locator("#keypad")).to_contain_text(word)
    anna.fill("#sg-amount", "17")
    expect(anna.locator("#sg-bid-live")).not_to_be_empty()  # no digit owned: the chips warning
    shot(anna, f"serengeti-keypad-{locale}")
    assert anna.evaluate("document.documentElement.scrollWidth") <= 390

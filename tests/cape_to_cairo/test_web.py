"""From Cape to Cairo at the table, through Flask's test client: the panel in every phase, sealed
bids that no other device sees, every form with bad input, the calculator and the rules page."""

from __future__ import annotations

import json
import re

import pytest

from companion import get_db, tables
from companion.games.base import Msg, Seat
from companion.games.cape_to_cairo import rules as rules
from tests.helpers import (
    HX,
    TableDriver,
    alert_text,
    csrf_from,
    live_region,
    post_from,
    version_of,
    visible,
)

NAMES = ("Anna", "Ben", "Chris")
ANNA, BEN, CHRIS = 0, 1, 2


# ---------------------------------------------------------------------------------------------
# helpers


class Table(TableDriver):
    """The shared table driver; through htmx a refusal is answered 422 and a conflict (a stale
    form) 409, each with the live region and the message."""

    def refused(self, *args, **kwargs):
        response = super().refused(*args, **kwargs)
        conflict = (
            "The table changed while you were entering this" in response.text
            or "already entered this" in response.text
        )
        assert response.status_code == (409 if conflict else 422)
        return response


@pytest.fixture
def t(app):
    """A 3-player table: the host's device and a phone on each seat."""
    return Table(app, "cape_to_cairo", NAMES)


@pytest.fixture
def t2(app):
    """A 2-player table: the host's device and a phone on each seat."""
    return Table(app, "cape_to_cairo", NAMES[:2])


def enter_cards(t, cards):
    """The host enters the cards turned up for an acquisition phase."""
    for terrain, marks, income in cards:
        t.act("host", "card", terrain=terrain, marks=marks, income=income)


def bid_all(t, amounts):
    """Each seat bids from its own phone, in seat order."""
    for seat, amount in enumerate(amounts):
        t.act(seat, "bid", amount=amount)


def act_direct(t, action, seat=None):
    """An action stored the way the routes store it, without rendering a page."""
    with t.app.app_context():
        db = get_db()
        tables.act(
            db, tables.get_table(db, t.code), action, seat=seat, host=False, expected_version=None
        )


ROUND_ONE = [("river", 1, 5), ("savanna", 2, 3), ("desert", 0, 7)]


def to_building(t, bids=(37, 30, 20)):
    """Round 1 up to building: Anna takes the river, Ben the savanna, Chris gets the desert."""
    enter_cards(t, ROUND_ONE)
    bid_all(t, bids)
    t.act("Anna", "take", card=0)
    t.act("Ben", "take", card=1)


# ---------------------------------------------------------------------------------------------
# the panel through a whole round


def test_a_round_from_turned_up_cards_to_the_end_of_building(t):
    anna, ben, chris = NAMES
    first = t.page("host")
    assert "Acquisition round 1: turn up the cards" in first
    assert 'id="ctc-card-form"' in first and 'id="ctc-card-form"' in t.page(chris)
    # Anybody at the table enters the cards: two phones and the host.
    t.act(ben, "card", terrain="river", marks=1, income=5)
    t.act(chris, "card", terrain="savanna", marks=2, income=3)
    text = visible(t.act("host", "card", terrain="desert", marks=0, income=7).text)
    assert "Acquisition round 1: sealed bids" in text
    assert "river needs 10 tracks · 1 symbol · pays 5 pounds" in text
    assert "Waiting for Anna, Ben and Chris." in text
    # Under the turn line, what a phone may enter now (Rules.prompt): the bid's range.
    assert "Place a sealed bid of 0 to 100 pounds." in visible(t.page(anna))

    bid_all(t, [37, 30, 20])
    text = visible(t.page("host"))
    assert "Anna chooses a card." in text
    assert re.search(r"Bids of round 1 .* 1 Anna 37 63 2 Ben 30 70 3 Chris 20 80", text)
    assert "Ties broken" not in text  # no tie-break was needed
    assert 'name="card"' in t.page(anna) and 'name="card"' not in t.page(ben)
    t.act(anna, "take", card=0)
    text = visible(t.act(ben, "take", card=1).text)  # Chris is given the last card
    assert "Building phase (round 1)" in text and "Anna's turn." in text
    assert "desert needs 8 tracks" in visible(t.page(chris))

    # Chris, not the active player, enters the card Anna turned up: a table entry.
    assert "Your turn." in visible(t.page(anna))
    t.act(chris, "turn_up", marks=3)
    mine = t.page(anna)
    text = visible(mine)
    assert "Cross the river now?" in text
    assert re.search(r'id="prompt">Cross the river for £60, or pass\.<', mine)
    assert 'id="prompt"' not in t.page(ben)
    assert "Tracks needed: 10. Symbols that count now: 4 (3 turned up, 1 on your row)." in text
    # The cheapest way is highlighted in words, not only by its look.
    best = re.search(
        r'<button[^>]*class="ctc-choice-button ctc-best"[^>]*>(.*?)</button>', mine, re.S
    )
    assert best and "Cheapest" in best.group(1) and "Cross for 60 pounds" in visible(best.group(1))
    assert "Pass: Ben goes on" in text
    assert 'id="ctc-cross-form"' not in t.page(ben)  # not Ben's turn
    assert "Waiting for Anna to cross or pass." in visible(t.page(ben))
    # Everybody's cheapest crossing is on the table view (nobody-affords).
    table_text = visible(t.page("host"))
    assert "Anna 0 of 8 crossed" in table_text and "could cross now for 60 pounds" in table_text
    assert "1 card turned up, 3 track symbols in all" in table_text

    t.act(anna, "pass")
    t.act("host", "turn_up", marks=2)
    text = visible(t.page(ben))
    assert "Cross for free" in text and "symbols: 6 + bonus tracks: 0 + bought tracks: 0" in text
    text = visible(t.act(ben, "cross").text)  # the cheapest way: the default
    # Ben's row is empty: round 2 begins; Anna faces a river and gained a bonus track.
    assert "Acquisition round 2: turn up the cards" in text
    assert "Ben crosses the savanna (symbols: 6, bonus tracks: 0" in text
    # Not only in the history: the new phase's panel says what the crossing that ended the
    # last one cost, to the crosser and to the table.
    for page in (text, visible(t.page("host"))):
        last = page.split("Last crossing", 1)[1]
        assert last.startswith(
            " Ben crosses the savanna (symbols: 6, bonus tracks: 0, bought tracks: 0 for £0) "
            "and earns £3. Ben's row is empty"
        )
    assert "Anna faces a river and gains a bonus track." in text
    assert "Ben 1 of 8 crossed" in text
    assert "63 pounds · 1 bonus track · next: river" in text  # one track, not "1 bonus tracks"
    assert "Bonus tracks: 1 of 5" in visible(t.page(anna))
    assert "You face a river" in visible(t.page(anna))
    s = t.state()
    assert s["money"] == [63, 73, 80] and s["bonus"] == [1, 0, 0] and s["crossed"] == [0, 1, 0]

    # Round 2: equal bids, different money left: the tie-break is explained in words.
    enter_cards(t, [("village", 1, 4), ("mountain", 0, 6), ("savanna", 3, 2)])
    bid_all(t, [10, 10, 0])
    text = visible(t.page(chris))
    assert "Ties broken" in text
    assert "Anna before Ben: same bid, less money left (53 to 63 pounds)" in text
    assert "Anna chooses a card." in text


def test_the_race_track_is_told_in_words_and_marks_not_colour_alone(t):
    to_building(t)
    t.act("host", "turn_up", marks=3)
    t.act("Anna", "pass")
    t.act("host", "turn_up", marks=3)
    t.act("Ben", "cross")
    race = t.page("host")
    lanes = re.findall(r'<li class="ctc-lane[^"]*">(.*?)</p>\s*</li>', race, re.S)
    assert len(lanes) == 3
    assert "1 of 8 crossed" in visible(lanes[BEN]) and "✔" in lanes[BEN]
    assert "0 of 8 crossed" in visible(lanes[ANNA]) and "✔" not in lanes[ANNA]
    assert "▶" in lanes[ANNA]  # the next terrain is marked with a sign, not only a colour


def test_nobody_can_afford_to_cross_is_shown_and_crossing_is_refused(t):
    to_building(t, bids=(95, 90, 85))
    t.act("host", "turn_up", marks=0)
    text = visible(t.page("Anna"))
    assert "Even with all your bonus tracks (0) and all your money (£5) this is not enough" in text
    assert 'id="ctc-cross-form"' not in t.page("Anna")
    assert "Pass: Ben goes on" in text
    table_text = visible(t.page("host"))
    assert table_text.count("cannot afford to cross now") == 3
    assert "Nobody can afford to cross now" in table_text
    assert '/rules/cape_to_cairo#nobody-affords"' in t.page("host")
    t.refused("Anna", "cross", "are not enough. Pass.", rule="cross-money")


# ---------------------------------------------------------------------------------------------
# sealed bids


def no_amount(markup, amount):
    """The amount appears nowhere a person could read it, nor in any form value."""
    return (
        not re.search(rf"\b{amount}\b", visible(live_region(markup)))
        and f'value="{amount}"' not in markup
    )


def test_a_sealed_bid_is_seen_only_by_the_phone_that_made_it(t):
    anna, ben, chris = NAMES
    enter_cards(t, ROUND_ONE)
    version = version_of(t.page("host"))
    t.act(anna, "bid", amount=37)
    assert "Your bid: 37 pounds." in visible(t.page(anna))
    # The host's "show all" switch has nothing to show in this game: it is refused.
    refused = post_from(t.host, f"/t/{t.code}/", f"/t/{t.code}/host/reveal")
    assert "keeps nothing hidden from the host" in visible(refused.text)
    others = {
        "Ben": t.page(ben),
        "Chris": t.page(chris),
        "host": t.page("host"),
        "host reveal": t.page("host", "?reveal=1"),
        "host acting for Anna": t.page("host", "?as=0&reveal=1"),
        "host acting for Ben": t.page("host", "?as=1&reveal=1"),
        "Ben's poll": t.device(ben).get(f"/t/{t.code}/live?v={version}").text,
        "host's poll": t.host.get(f"/t/{t.code}/live?v={version}&reveal=1").text,
    }
    for who, markup in others.items():
        assert no_amount(markup, 37), who
        assert "Waiting for Ben and Chris." in visible(markup), who
        assert "Anna has bid" in visible(markup), who
    # The undo button tells what it undoes without the amount.
    assert "Undo: Anna has bid (sealed)." in visible(t.page(anna))

    t.act(ben, "bid", amount=41)
    for markup in (t.page(anna), t.page(chris), t.page("host", "?as=1&reveal=1")):
        assert no_amount(markup, 41)
        assert "Waiting for Chris." in visible(markup)
    assert no_amount(t.page(chris), 37) and no_amount(t.page("host", "?reveal=1"), 37)
    assert "Your bid: 41 pounds." in visible(t.page(ben))

    t.act(chris, "bid", amount=5)
    for device in (anna, ben, chris, "host"):
        text = visible(t.page(device))
        assert "Anna bid 37 pounds and has 63 left." in text
        assert "Ben bid 41 pounds and has 59 left." in text
        # Nobody's bid is awaited any more (the status line now waits for the taker).
        assert "Waiting for Chris." not in text and "Waiting for Ben and Chris." not in text


def test_the_host_acting_for_a_seat_enters_its_bid_but_never_shows_it(t):
    enter_cards(t, ROUND_ONE)
    form = t.page("host", "?as=2")
    assert "Hand this device to Chris" in form and 'id="ctc-bid-form"' in form
    t.act("host", "bid", "?as=2", amount=23)
    after = t.page("host", "?as=2&reveal=1")
    assert no_amount(after, 23)
    assert "Chris has bid. The amount stays sealed on this device." in visible(after)
    assert "Your bid: 23 pounds." in visible(t.page("Chris"))  # Chris's own phone
    assert no_amount(t.page("Anna"), 23)


def test_a_phone_may_take_back_its_bid_until_the_last_one_is_in(t):
    anna, ben, chris = NAMES
    enter_cards(t, ROUND_ONE)
    t.act(anna, "bid", amount=37)
    post_from(t.device(anna), f"/t/{t.code}/", f"/t/{t.code}/undo")
    assert t.state()["bids"] == [None, None, None]
    t.act(anna, "bid", amount=12)
    t.act(ben, "bid", amount=10)
    t.act(chris, "bid", amount=11)
    assert "Undo:" not in t.page(chris)  # the last bid revealed them all: only the host undoes
    assert "Undo:" in t.page("host")


# ---------------------------------------------------------------------------------------------
# bad input: a clear message, 200 for htmx, nothing stored


def test_bad_bids_are_refused(t):
    anna, ben, chris = NAMES
    t.refused(
        anna,
        "bid",
        "Bidding opens once all 3 cards are turned up (0 so far).",
        rule="bid-sealed",
        amount=10,
    )
    enter_cards(t, ROUND_ONE)
    t.refused(
        anna,
        "bid",
        "You hold 100 pounds: bid a whole number from 0 to 100.",
        rule="bid-range",
        amount=101,
    )
    t.refused(anna, "bid", "A bid is a whole number of pounds, 0 or more.", amount="ten")
    t.refused(anna, "bid", "A bid is a whole number of pounds, 0 or more.", amount="12.5")
    t.refused(anna, "bid", "A bid is a whole number of pounds, 0 or more.", amount=-5)
    t.refused(anna, "bid", "Type your bid in pounds (0 is allowed).", amount="")
    t.refused("host", "bid", "This entry must say which player it is for.", amount=5)
    # The refused form keeps what was typed, with the field marked.
    kept = t.refused(anna, "bid", "You hold 100 pounds", amount=150).text
    assert 'value="150"' in kept and 'aria-invalid="true"' not in kept  # a rule, not a shape
    kept = t.refused(anna, "bid", "whole number", amount="abc").text
    assert 'value="abc"' in kept and 'aria-invalid="true"' in kept
    t.act(anna, "bid", amount=0)  # a bid of 0 is allowed
    t.refused(anna, "bid", "You have already bid in this phase.", rule="bid-once", amount=5)
    t.act(ben, "bid", amount=5)
    t.act(chris, "bid", amount=6)
    t.refused(
        anna, "bid", "The bids of this phase are already revealed", rule="bid-sealed", amount=5
    )
    t.refused(ben, "bid", "already revealed", amount=5)


def test_stale_forms_and_missing_csrf_tokens_store_nothing(t):
    anna = "Anna"
    old = version_of(t.page(anna))
    t.act("Ben", "card", terrain="river", marks=1, income=5)
    # The same card entered from a second phone at the same moment is not entered twice, and
    # the second phone is told who entered it and what.
    t.refused(
        anna,
        "card",
        "Ben already entered this: Turned up for bidding: river",
        status=409,
        version=old,
        terrain="river",
        marks=1,
        income=5,
    )
    # Without its CSRF token the app refuses the post before the game sees it (the htmx
    # configuration swaps that error page into the main area).
    before = t.snapshot()
    response = t.post(anna, "card", csrf=False, terrain="river", marks=1, income=5)
    assert response.status_code == 400 and "This form has expired" in response.text
    assert t.snapshot() == before
    # A plain (non-htmx) post with bad input gets the whole page back, with the message.
    enter_cards(t, ROUND_ONE[1:])
    response = t.refused(
        anna, "bid", "A bid is a whole number of pounds", htmx=False, amount="lots"
    )
    assert "<html" in response.text


def test_bids_typed_at_the_same_time_are_all_accepted(t):
    """Everybody bids at once: another phone's bid must not make mine "stale"."""
    enter_cards(t, ROUND_ONE)
    pages = [t.page(phone) for phone in t.phones]
    for seat, phone in enumerate(t.phones):
        response = phone.post(
            f"/t/{t.code}/act/bid",
            headers=HX,
            data={
                "csrf_token": csrf_from(pages[seat]),
                "version": version_of(pages[seat]),
                "round": 1,
                "amount": 10 + seat,
            },
        )
        assert alert_text(response.text) == ""
    assert t.state()["reveal"]["bids"] == [10, 11, 12]


def test_a_bid_form_left_open_since_an_earlier_round_is_refused(t):
    to_building(t)
    t.act("host", "turn_up", marks=3)
    t.act("Anna", "pass")
    t.act("host", "turn_up", marks=3)
    t.act("Ben", "cross")
    enter_cards(t, [("village", 1, 4), ("mountain", 0, 6), ("savanna", 3, 2)])
    assert 'name="round" value="2"' in t.page("Anna")
    t.refused(
        "Anna",
        "bid",
        "This bid was typed in acquisition round 1; it is round 2 now.",
        rule="bid-once",
        round=1,
        amount=5,
    )
    t.refused("Anna", "bid", "The bid form is incomplete", round="x", amount=5)
    t.act("Anna", "bid", round=2, amount=5)


def test_a_draw_sent_twice_counts_once(t):
    enter_cards(t, ROUND_ONE)
    bid_all(t, [20, 20, 10])
    first = t.page("Anna")
    assert 'name="attempt" value="1"' in first
    t.act("Anna", "draw", value=4, attempt=1)
    t.act("Ben", "draw", value=4, attempt=1)  # equal: both draw again
    t.refused(
        "Anna",
        "draw",
        "You have already entered draw 1.",
        rule="tie-draw",
        value=4,
        attempt=1,
    )
    assert 'name="attempt" value="2"' in t.page("Anna")


def test_bad_cards_are_refused(t):
    t.refused("host", "card", "Choose the terrain of the card.", terrain="swamp", marks=1, income=3)
    t.refused("host", "card", "Choose the terrain of the card.", marks=1, income=3)
    t.refused(
        "Ben",
        "card",
        "track symbols is a whole number from 0 to 3",
        terrain="river",
        marks=4,
        income=3,
    )
    t.refused(
        "Ben",
        "card",
        "track symbols is a whole number from 0 to 3",
        terrain="river",
        marks="two",
        income=3,
    )
    for income in (0, 11, "ten", ""):
        t.refused(
            "host",
            "card",
            "The income is a whole number from 1 to 10.",
            terrain="river",
            marks=1,
            income=income,
        )
    enter_cards(t, ROUND_ONE)
    t.refused(
        "host",
        "card",
        "All 3 cards of this acquisition phase are already turned up.",
        rule="acquisition-cards",
        terrain="river",
        marks=1,
        income=3,
    )


def card_form(markup: str) -> str:
    """The card entry form of a page or region."""
    found = re.search(r'<form[^>]*id="ctc-card-form".*?</form>', markup, re.S)
    assert found, "no card form"
    return found.group(0)


def test_a_refused_card_keeps_what_was_entered_on_that_device_only(t):
    """The form's inside is kept and shared by every screen (fragments): the device whose entry
    was refused sees its choices and the errors under the fields; the others, and the same
    device on its next fetch, see the empty form."""
    refused = t.refused(
        "Ben",
        "card",
        "The income is a whole number from 1 to 10.",
        terrain="desert",
        marks=2,
        income="ten",
    ).text
    form = card_form(refused)
    assert re.search(r'value="desert"\s+checked', form) and re.search(r'value="2"\s+checked', form)
    assert 'value="ten"' in form and 'id="income-error"' in form
    assert 'id="terrain-error"' not in form and 'id="marks-error"' not in form
    for who in ("Anna", "Ben", "host"):
        clean = card_form(t.page(who))
        assert "checked" not in clean and 'value="ten"' not in clean and "-error" not in clean
    missing = card_form(t.refused("Anna", "card", "Choose the terrain", marks=1, income=3).text)
    assert 'id="terrain-error"' in missing and 'value="3"' in missing
    assert re.search(r'value="1"\s+checked', missing)


def test_a_refused_turn_up_on_another_phone_opens_its_folded_form(t):
    to_building(t)
    region = live_region(t.page("Ben"))
    assert '<details class="ctc-for-other" id="ctc-for-other">' in region
    refused = t.refused("Ben", "turn_up", "whole number from 0 to 3", marks=7).text
    assert '<details class="ctc-for-other" id="ctc-for-other" open>' in refused
    assert 'id="marks-error"' in refused
    again = t.page("Ben")
    assert '<details class="ctc-for-other" id="ctc-for-other">' in again
    assert 'id="marks-error"' not in again and 'id="marks-error"' not in t.page("Anna")


def test_bad_draws_are_refused(t):
    t.refused("Anna", "draw", "Nobody needs to draw a card now.", rule="tie-draw", value=5)
    enter_cards(t, ROUND_ONE)
    bid_all(t, [20, 20, 10])
    text = visible(t.page("host"))
    assert "Anna and Ben bid the same and have the same money left" in text
    assert 'id="ctc-draw-form"' in t.page("Anna")
    assert 'id="ctc-draw-form"' not in t.page("Chris")
    t.refused("Chris", "draw", "You do not need to draw a card now.", value=5)
    for value in (0, 11, "x", ""):
        t.refused("Anna", "draw", "The drawn card shows a number from 1 to 10.", value=value)
    t.refused("host", "draw", "must say which player", value=5)
    t.act("Anna", "draw", value=4)
    t.refused("Anna", "draw", "You do not need to draw a card now.", value=5)
    t.act("Ben", "draw", value=4)  # equal draws: draw again
    assert "Waiting for Anna and Ben." in visible(t.page("host"))
    t.act("Anna", "draw", value=2)
    t.act("Ben", "draw", value=9)
    text = visible(t.page("Chris"))
    assert "Ben before Anna: same bid and money left, higher drawn card (9 to 2, draw 2)" in text
    assert "Ben chooses a card." in text


def test_bad_takes_are_refused(t):
    t.refused(
        "Anna",
        "take",
        "No terrain cards are being handed out now.",
        rule="take-card",
        card=0,
    )
    enter_cards(t, ROUND_ONE)
    bid_all(t, [37, 30, 20])
    t.refused("Ben", "take", "It is Anna's turn to choose a card.", rule="take-card", card=1)
    t.refused("host", "take", "must say which player", card=1)
    for card in ("x", "", 7, -1):
        t.refused("Anna", "take", "Choose one of the cards on offer.", card=card)
    t.act("Anna", "take", card=0)
    t.refused("Ben", "take", "Choose one of the cards still on offer (1, 2).", card=0)


def test_bad_building_actions_are_refused(t):
    t.refused("host", "turn_up", "only in the building phase", rule="turn-up", marks=1)
    t.refused("Anna", "pass", "Nobody builds now", rule="turn")
    to_building(t)
    t.refused("Anna", "cross", "First turn up a card", rule="turn-up")
    for marks in (4, -1, "two", ""):
        t.refused("host", "turn_up", "track symbols is a whole number from 0 to 3", marks=marks)
    t.act("Ben", "turn_up", marks=1)
    t.refused(
        "host", "turn_up", "A card is already turned up: Anna now crosses or passes.", marks=1
    )
    t.refused("Ben", "cross", "It is Anna's turn to build.", rule="turn")
    t.refused("Ben", "pass", "It is Anna's turn to build.", rule="turn")
    t.refused("host", "pass", "must say which player")
    t.refused("Anna", "cross", "You hold 0 bonus tracks", rule="cross-bonus", bonus=2)
    for bonus in (6, "some", -1):
        t.refused("Anna", "cross", "Bonus tracks are a whole number from 0 to 5.", bonus=bonus)
    # 2 symbols count; 8 bought tracks would cost 80 pounds and Anna holds 63.
    t.refused(
        "Anna",
        "cross",
        "Tracks needed to cross the river: 10. The symbols (2), "
        "all bonus tracks (0) and all money (£63) are not enough. Pass.",
        rule="cross-money",
    )
    t.act("Anna", "pass")
    assert "Ben's turn." in visible(t.page("host"))


def test_an_unknown_action_type_is_refused(t):
    t.refused("Anna", "teleport", "This game has no such action.", version=False)


# ---------------------------------------------------------------------------------------------
# the end of the game, and messages that survive being stored


def walk(value):
    """Every value inside a JSON-like structure."""
    yield value
    if isinstance(value, dict):
        for item in value.values():
            yield from walk(item)
    elif isinstance(value, list):
        for item in value:
            yield from walk(item)


def play_to_the_end(t):
    """A 2-player game: every round Anna buys a savanna and crosses it for free; Ben collects
    mountains. Anna crosses her 8th terrain in round 8. Returns the states after each action."""
    states = []
    for _ in range(rules.TERRAINS_TO_WIN):
        for action, seat in [
            ({"type": "card", "terrain": "savanna", "marks": 3, "income": 10}, None),
            ({"type": "card", "terrain": "mountain", "marks": 0, "income": 1}, None),
            ({"type": "bid", "amount": 1}, ANNA),
            ({"type": "bid", "amount": 0}, BEN),
            ({"type": "take", "card": 0}, ANNA),
            ({"type": "turn_up", "marks": 3}, BEN),
            ({"type": "cross"}, ANNA),
        ]:
            act_direct(t, action, seat)
            states.append(t.state())
    return states


def test_the_game_ends_with_the_8th_crossing_and_nothing_more_is_accepted(t2):
    play_to_the_end(t2)
    text = visible(t2.page("host"))
    assert "Anna wins!" in text
    assert (
        "Anna crossed their 8th terrain, a savanna, in acquisition round 8 and wins at once."
        in text
    )
    assert "Anna 8 of 8 crossed" in text and "Ben 0 of 8 crossed" in text
    assert "1. ★ Anna 2. Ben Income earned 80 0 Money left 172 100" in text
    assert "Terrains crossed 8 0 Winner: Anna." in text
    assert 'id="ctc-card-form"' not in t2.page("Ben")
    t2.refused(
        "Ben",
        "card",
        "The game is over: Anna has crossed 8 terrains.",
        rule="game-over",
        terrain="river",
        marks=1,
        income=1,
    )
    t2.refused("Ben", "bid", "The game is over", amount=1)


def test_the_state_holds_no_message_objects_and_messages_keep_their_msgid(t):
    """A Msg is a str: stored in the JSON state it would turn into English for good. The state
    must hold plain data only; messages are made from it when a page is rendered, and history
    lines are stored as Msg.to_json() dicts."""
    enter_cards(t, ROUND_ONE)
    bid_all(t, [20, 20, 10])
    for seat, value in [(ANNA, 4), (BEN, 4), (ANNA, 2), (BEN, 9)]:
        t.act(t.phones[seat], "draw", value=value)
    # The rules module's own states (before any JSON) hold no Msg anywhere.
    s = rules.new({}, 3)
    for action in [
        {"type": "card", "terrain": tr, "marks": m, "income": i} for tr, m, i in ROUND_ONE
    ]:
        s = rules.apply(s, {**action, "seat": None, "host": False})
    for seat, amount in enumerate([20, 20, 10]):
        s = rules.apply(s, {"type": "bid", "amount": amount, "seat": seat, "host": False})
        assert not any(isinstance(v, Msg) for v in walk(s))
    for seat, value in [(ANNA, 4), (BEN, 4), (ANNA, 2), (BEN, 9)]:
        s = rules.apply(s, {"type": "draw", "value": value, "seat": seat, "host": False})
        assert not any(isinstance(v, Msg) for v in walk(s))
    stored = t.state()  # read back from the database's JSON
    assert stored == json.loads(json.dumps(s))
    ties = rules.view(stored, None)["reveal"]["tie_breaks"]
    assert [m.msgid for m in ties] == [
        "%(first)s before %(second)s: same bid and money left, higher drawn card (%(a)s to "
        "%(b)s, draw %(round)s)"
    ]
    assert ties[0].params["first"] == Seat(BEN) and isinstance(ties[0].params["first"], Seat)
    with t.app.app_context():
        db = get_db()
        log = tables.events(db, tables.get_table(db, t.code))
    assert all(isinstance(line, Msg) for e in log for line in e.lines)
    assert log[-1].lines[-1].msgid == ties[0].msgid  # the history keeps the msgid too
    for event in log:
        for line in event.lines:
            assert Msg.from_json(json.loads(json.dumps(line.to_json()))) == line


def test_the_result_message_keeps_its_msgid_after_storage(t2):
    play_to_the_end(t2)
    how = rules.result(t2.state())["how"]
    assert how.msgid.startswith("%(seat)s crossed their 8th terrain")
    assert how.params["terrain"].msgid == "savanna"


# ---------------------------------------------------------------------------------------------
# the calculator


CALC = "/tools/cape_to_cairo/"


def calc(client, **query):
    response = client.get(CALC, query_string=query)
    assert response.status_code == 200
    return response.text


def test_the_calculator_is_listed_and_opens_empty(client):
    assert CALC in client.get("/tools/").text
    text = calc(client)
    assert 'id="crossing-form"' in text and 'id="bids-form"' in text
    assert 'id="crossing-result"' not in text and 'id="bids-result"' not in text
    assert client.get("/tools/cape_to_cairo").status_code in (301, 308)  # to the slash


@pytest.mark.parametrize(
    "terrain, marks, bonus, money, expected",
    [
        ("river", 4, 2, 40, "cross the river costs 40 pounds"),  # 4 symbols, 2 bonus, 4 bought
        ("savanna", 6, 3, 0, "costs nothing"),
        ("savanna", 9, 0, 0, "costs nothing"),  # more symbols than needed
        ("mountain", 0, 5, 40, "cross the mountain costs 40 pounds"),
        ("river", 3, 2, 40, "You cannot cross the river now."),
    ],
)
def test_the_crossing_cost(client, terrain, marks, bonus, money, expected):
    markup = calc(client, terrain=terrain, marks=marks, bonus=bonus, money=money)
    text = visible(markup)
    assert expected in text
    assert rules.crossing_cost(terrain, marks, bonus, money) == (
        None
        if "cannot" in expected
        else int(re.search(r"(\d+) pounds", expected).group(1))
        if "pounds" in expected
        else 0
    )


def test_the_crossing_cost_lists_every_way_with_the_cheapest_marked(client):
    text = visible(calc(client, terrain="river", marks=4, bonus=2, money=50))
    assert (
        "Cross for 40 pounds Cheapest symbols: 4 + bonus tracks: 2 + bought tracks: 4 "
        "Cross for 50 pounds symbols: 4 + bonus tracks: 1 + bought tracks: 5 "
        "Cross for 60 pounds not enough money symbols: 4 + bonus tracks: 0 + "
        "bought tracks: 6"
    ) in text
    text = visible(calc(client, terrain="river", marks=3, bonus=2, money=40))
    assert "buy tracks for £50, £10 more than you hold" in text
    assert "What happens when nobody can afford to cross?" in text


@pytest.mark.parametrize(
    "query, expected",
    [
        ({"terrain": "swamp", "marks": 1, "bonus": 0, "money": 0}, "Not a valid choice"),
        ({"terrain": "river", "marks": "many", "bonus": 0, "money": 0}, "Track symbols: a whole"),
        ({"terrain": "river", "marks": 100, "bonus": 0, "money": 0}, "from 0 to 99"),
        ({"terrain": "river", "marks": 1, "bonus": 6, "money": 0}, "Bonus tracks: a whole number"),
        ({"terrain": "river", "marks": 1, "bonus": -1, "money": 0}, "Bonus tracks: a whole number"),
        ({"terrain": "river", "marks": 1, "bonus": 0, "money": "£5"}, "Money: a whole number"),
        ({"terrain": "river", "marks": 1, "bonus": 0, "money": ""}, "Money: a whole number"),
        ({"terrain": "river", "marks": 1, "bonus": 0}, "Money: a whole number"),
    ],
)
def test_the_crossing_calculator_explains_bad_input(client, query, expected):
    markup = calc(client, **query)
    assert expected in markup
    assert 'id="crossing-result"' not in markup


def bids_query(*players):
    query = {}
    for i, (name, bid, money, draws) in enumerate(players):
        query.update(
            {f"p-{i}-name": name, f"p-{i}-bid": bid, f"p-{i}-money": money, f"p-{i}-draws": draws}
        )
    return query


def test_the_bid_order_with_each_tie_break(client):
    text = visible(
        calc(
            client,
            **bids_query(
                ("Ann", 20, 50, "7 3"),
                ("Bo", 30, 100, ""),
                ("Cy", 20, 60, ""),
                ("Di", 20, 50, "7 9"),
            ),
        )
    )
    assert (
        "Bo — bid 30, 70 pounds left Di — bid 20, 30 pounds left, drew 7, 9 "
        "Ann — bid 20, 30 pounds left, drew 7, 3 Cy — bid 20, 40 pounds left"
    ) in text
    assert "Bo before Di: higher bid (30 to 20 pounds)" in text
    assert "Di before Ann: same bid and money left, higher drawn card (9 to 3, draw 2)" in text
    assert "Ann before Cy: same bid, less money left (30 to 40 pounds)" in text


def test_the_bid_order_says_who_must_draw(client):
    text = visible(calc(client, **bids_query(("Ann", 10, 40, ""), ("", 10, 40, ""))))
    assert "Ann and Player 2 are tied on bid and money left." in text
    # Less money left goes first.
    text = visible(calc(client, **bids_query(("Ann", 10, 40, ""), ("Bo", 10, 30, ""))))
    assert "Bo before Ann: same bid, less money left (20 to 30 pounds)" in text


@pytest.mark.parametrize(
    "players, expected",
    [
        (
            [("Ann", 10, 5, ""), ("Bo", 1, 5, "")],
            "A bid is a whole number from 0 to the money held",
        ),
        ([("Ann", 10, 50, "")], "Fill in the bid and money of 2 to 4 players."),
        ([("Ann", 10, "", ""), ("Bo", 1, 5, "")], "Ann: give both the bid and the money held"),
        ([("Ann", "ten", 50, ""), ("Bo", 1, 5, "")], "A bid is a whole number of pounds."),
        ([("Ann", 1, 50, "x"), ("Bo", 1, 50, "")], "Ann: drawn cards are numbers from 1 to 10"),
        ([("Ann", 1, 50, "11"), ("Bo", 1, 50, "3")], "A drawn card shows a number from 1 to 10."),
        ([("Ann", -1, 50, ""), ("Bo", 1, 50, "")], "A bid is 0 or more pounds."),
    ],
)
def test_the_bid_order_explains_bad_input(client, players, expected):
    markup = calc(client, **bids_query(*players))
    assert expected in visible(markup)
    assert 'id="bids-result"' not in markup


# ---------------------------------------------------------------------------------------------
# the rules page


def test_the_rules_page_opens_with_your_first_game(client):
    page = client.get("/rules/cape_to_cairo").text
    assert page.index("Your first game") < page.index('id="players"')
    text = visible(page)
    assert "Everyone starts with 100 pounds." in text
    assert "river 10, mountain 9, desert 8, village 7, savanna 6" in text
    assert "The first to cross 8 terrains wins at once." in text
    client.set_cookie("lang", "ru")
    assert "Рельсов нужно: Река 10" in client.get("/rules/cape_to_cairo").text


def test_the_rules_page_has_an_entry_for_every_rule_and_reading(client):
    markup = client.get("/rules/cape_to_cairo").text
    ids = re.findall(r'id="([^"]+)"', markup)
    for key in list(rules.RULES) + list(rules.CLARIFICATIONS):
        assert key in ids, key
    assert len(ids) == len(set(ids))  # no id twice, although some readings share a rule's id
    text = visible(markup)
    for reading in ("which-symbols", "spent-money", "river-bonus", "nobody-affords"):
        assert visible(rules.CLARIFICATIONS[reading]) in text
    assert "river 10 mountain 9 desert 8 village 7 savanna 6" in text


# ---------------------------------------------------------------------------------------------
# languages


@pytest.mark.parametrize(
    "lang, words",
    [
        (
            "ja",
            [
                "地形獲得フェイズ（第1ラウンド）：同点の決着",
                "引いたカードの数字が大きいためです（9対2、2回目）",
                "AnnaとBenを待っています。",
                "線路マーク1個",
            ],
        ),
        (
            "ru",
            [
                "Фаза приобретения, раунд 1: ничья в ставках",
                "вытянутая карта старше (9 против 2, попытка 2)",
                "Ждём: Anna и Ben.",
                "1 знак рельсов",
            ],
        ),
    ],
)
def test_the_panel_and_stored_messages_in_japanese_and_russian(t, lang, words):
    enter_cards(t, ROUND_ONE)
    bid_all(t, [20, 20, 10])
    t.act("Anna", "draw", value=4)
    t.act("Ben", "draw", value=4)
    # Mid-way through the second draw: the table waits for both again.
    text = visible(t.device("Chris").get(f"/t/{t.code}/", headers={"Accept-Language": lang}).text)
    assert words[0] in text and words[2] in text and words[3] in text
    t.act("Anna", "draw", value=2)
    t.act("Ben", "draw", value=9)
    text = visible(t.device("Chris").get(f"/t/{t.code}/", headers={"Accept-Language": lang}).text)
    assert words[1] in text  # in the bid results and in the stored history line
    assert text.count(words[1]) == 2
    assert "higher drawn card" not in text

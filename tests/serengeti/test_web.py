"""Serengeti and Don at the table through Flask's test client: the panel, every form with good and
bad input, the 1-chip fine and its waiver, private chips, the end screen, the payout calculator
and the rules page."""

from __future__ import annotations

import dataclasses
import json
import re

import pytest

from companion import get_db, tables
from companion.games.base import Msg, RuleError
from companion.games.serengeti import rules as rules
from tests.helpers import csrf_from, post_from, rule_link, take_seat, version_of, visible
from tests.serengeti.helpers import DECK, card
from tests.support.pages import without_clock

NAMES = ("Anna", "Ben", "Chris")


# ---------------------------------------------------------------- helpers


@pytest.fixture
def game(make_table):
    """An Abacus table for Anna, Ben and Chris, each with a phone (a TableDriver)."""
    return make_table("serengeti", NAMES)


@pytest.fixture
def don(make_table):
    """The same with the original Don rules."""
    return make_table("don", NAMES)


def turn_up(table, who, spec):
    """Enter a turned-up card ("nuba4") from this device's page; the rules must accept it."""
    return table.act(who, "card", tribe=spec[:-1], digit=spec[-1])


def _strip_tokens(html: str) -> str:
    """The page without its CSRF tokens (signed with a timestamp, so they change every second)
    and without the table clock's figures (they run with time)."""
    return without_clock(re.sub(r'"[\w-]{20,}\.[\w-]{5,}\.[\w-]{20,}"', '"TOKEN"', html))


def rounds_one_to_three(g):
    """The rule text's example at the table: in round 3 Anna wins with 13, Ben and Chris each own
    a 3 and receive 6, 1 chip goes to the bank. Worked out by hand:
    round 1 (Anna starts): Nuba 3. Anna passes (+2), Ben bids 1, Chris passes (+2): Ben pays 1,
      nobody else owns a 1, 1 // 2 = 0 each, 1 to the bank.  Anna 12, Ben 9, Chris 12, bank 32.
    round 2 (Ben starts): Tonga 3, Bantu 5. Ben passes (+2), Chris bids 1, Anna passes (+2):
      Chris pays 1 to the bank.  Anna 14, Ben 11, Chris 11, bank 29.
    round 3 (Chris starts): Massai 0, Nandi 1, Samburu 2. Chris passes (+2), Anna bids 13, Ben
      passes (+2): Anna pays 13; Ben (Nuba 3) and Chris (Tonga 3) get 6 each, 1 to the bank.
      Anna 1, Ben 19, Chris 19, bank 26 (65 in all)."""
    turn_up(g, "host", "nuba3")
    g.act("Anna", "pass")
    g.act("Ben", "bid", amount="1")
    g.act("Chris", "pass")
    turn_up(g, "Chris", "tonga3")  # any seated phone may enter a card
    turn_up(g, "Anna", "bantu5")
    g.act("Ben", "pass")
    g.act("Chris", "bid", amount="1")
    g.act("Anna", "pass")
    turn_up(g, "host", "massai0")
    turn_up(g, "host", "nandi1")
    turn_up(g, "host", "samburu2")
    g.act("Chris", "pass")
    g.act("Anna", "bid", amount="13")
    g.act("Ben", "pass")
    state = g.state()
    assert state["chips"] == [1, 19, 19] and state["bank"] == 26 and state["round"] == 4


# ---------------------------------------------------------------- the table view


def test_table_view_shows_round_lot_turn_high_bid_bank_and_cards(game):
    text = visible(game.page())
    assert "Round 1 of 15" in text and "lot of 1 card" in text
    assert "Start player Anna" in text and "Bank 35" in text and "Cards left 30" in text
    assert "Round 1: enter card 1 of 1" in text
    turn_up(game, "host", "nuba4")
    game.act("Anna", "bid", amount="3")
    text = visible(game.page())
    assert "Turn Ben" in text and "High bid 3 · Anna" in text and "On offer: Nuba 4" in text
    assert "▶ on turn" in text and "Act for Ben" in text  # the host may act for a seat on turn
    assert "a pass now earns 2" in text


def test_payout_line_after_an_auction_reads_like_the_rule_example(game):
    rounds_one_to_three(game)
    host = visible(game.page())
    assert "Last auction: Anna paid 13: Ben 6, Chris 6, 1 to the bank" in host
    assert "Round 4 of 15" in host and "Start player Anna" in host and "Bank 26" in host
    # Every player's cards, grouped by tribe, and the digits they may not end a bid in.
    anna = re.search(r'id="sg-seat-0".*?</li>', game.page(), re.S).group(0)
    assert "Massai" in anna and "Nandi" in anna and "Samburu" in anna
    assert "No bid ending in: 0 1 2" in visible(anna)
    ben = visible(re.search(r'id="sg-seat-1".*?</li>', game.page(), re.S).group(0))
    assert "Nuba 3" in ben and "1 card" in ben
    # The history has it too, and the phones see the same line.
    assert "Anna paid 13: Ben 6, Chris 6, 1 to the bank" in visible(game.page("Ben"))


def _toggle_show_all(game, who="host", query=""):
    return post_from(
        game.device(who), f"/t/{game.code}/{query}", f"/t/{game.code}/host/reveal{query}"
    )


def test_host_show_all_toggle_reveals_every_chip_count_only_to_the_host(game):
    rounds_one_to_three(game)
    hidden = game.page()
    assert "sg-chips-tag" not in hidden and "Show all chips" in hidden
    assert f'action="/t/{game.code}/host/reveal?on=1"' in hidden  # a POST switch, not a link
    # A URL argument no longer shows anything.
    assert "sg-chips-tag" not in game.page(query="?reveal=1")
    response = _toggle_show_all(game)
    assert response.status_code == 200
    page = game.page()
    for seat, chips in [(0, "1 chip"), (1, "19 chips"), (2, "19 chips")]:
        block = re.search(rf'id="sg-seat-{seat}".*?</li>', page, re.S).group(0)
        assert f'<span class="sg-chips-tag">{chips}</span>' in block
    shown = visible(page)
    assert "Hide the chips" in shown
    # Everyone reads in the history that the host looked, once per switch-on.
    assert visible(game.page("Ben")).count("The host looked at everyone's chips.") == 1
    # A phone cannot switch it, and gets its own view only.
    assert _toggle_show_all(game, "Ben").status_code == 403
    assert "sg-chips-tag" not in game.page("Ben")
    # The switch is the table's: it stays on across reloads and "act as", until switched off.
    assert "sg-chips-tag" in game.page(query="?as=1")
    _toggle_show_all(game, query="?as=1")
    assert "sg-chips-tag" not in game.page() and "Show all chips" in game.page()
    _toggle_show_all(game)
    assert visible(game.page()).count("The host looked at everyone's chips.") == 2


def test_a_trace_line_is_not_an_action_undo_skips_it_and_no_form_goes_stale(game):
    rounds_one_to_three(game)
    turn_up(game, "host", "tonga9")  # round 4: Anna's turn to bid
    game.act("Anna", "bid", amount="5")
    anna_page = game.page("Anna")  # her undo button, rendered before the host's traces
    assert "Undo" in anna_page
    _toggle_show_all(game)
    game.page(query="?as=2")  # the host opens Chris's seat: a second trace
    assert "The host looked at Chris's chips." in visible(game.page())
    # Anna may still undo her own bid: a trace is nobody acting, and her button is not stale.
    response = game.device("Anna").post(
        f"/t/{game.code}/undo",
        headers={"HX-Request": "true"},
        data={"csrf_token": csrf_from(anna_page), "version": version_of(anna_page)},
    )
    assert game.state()["auction"]["high"] is None, visible(response.text)[:800]
    # A game form rendered before a trace is not stale either.
    anna_form = game.page("Anna")
    game.page(query="?as=0")  # trace: the host looks at Anna's chips
    response = game.device("Anna").post(
        f"/t/{game.code}/act/bid",
        headers={"HX-Request": "true"},
        data={"csrf_token": csrf_from(anna_form), "version": version_of(anna_form), "amount": "7"},
    )
    assert game.state()["auction"]["high"] == 7, visible(response.text)[:800]
    # The host's undo takes back the last action, never a trace line.
    game.page(query="?as=1")  # one more trace after the last action
    post_from(game.host, f"/t/{game.code}/", f"/t/{game.code}/undo")
    assert game.state()["auction"]["high"] is None
    history = visible(game.page())
    for line in ("everyone's chips", "Anna's chips", "Ben's chips", "Chris's chips"):
        assert history.count(f"The host looked at {line}.") == 1


def test_the_host_opening_a_seat_with_a_phone_is_written_once(game):
    rounds_one_to_three(game)
    line = "The host looked at Ben's chips."
    game.page(query="?as=1")
    game.page(query="?as=1")
    assert visible(game.page("Ben")).count(line) == 1
    # Freed and joined again by a phone: the next look is written again.
    post_from(game.host, f"/t/{game.code}/", f"/t/{game.code}/host/free/1")
    phone = game.app.test_client()
    assert take_seat(phone, game.code, 1).status_code == 302
    game.phones[1] = phone
    game.page(query="?as=1")
    assert visible(game.page("Ben")).count(line) == 2


def test_a_seat_without_a_phone_is_run_from_the_host_device_without_a_trace(make_table):
    table = make_table("serengeti", NAMES, phones=False)  # nobody has joined from a phone
    client, code = table.host, table.code
    assert client.get(f"/t/{code}/?as=1").status_code == 200
    assert "looked at" not in visible(client.get(f"/t/{code}/").text)


# ---------------------------------------------------------------- the phone view


def test_phone_shows_my_chips_cards_forbidden_digits_and_the_keypad(game):
    rounds_one_to_three(game)
    turn_up(game, "host", "tonga9")  # round 4: Anna starts
    anna = game.page("Anna")
    text = visible(anna)
    assert "Your turn: bid or pass" in text
    # Under "Your turn.": what she may enter, with the digit rule's numbers (Rules.prompt).
    assert re.search(
        r'id="prompt">Bid 3 or more, not ending in 0, 1 or 2, or pass for 2 chips\.<', anna
    )
    assert "Your chips: 1 (only you see this)" in text
    assert re.search(r'id="sg-my-chips">1<', anna)
    assert "You may not bid a number ending in: 0 1 2" in text
    assert "Such a bid is refused and costs a 1-chip fine." in text
    # The lowest legal bids as buttons; all above her 1 chip, so marked and explained.
    quick = re.findall(r'name="amount" value="(\d+)"', anna)
    assert quick == ["3", "4", "5", "6", "7"]
    assert anna.count("sg-quick-bid sg-over") == 5
    assert "Bids marked ⚠ are more than the chips you have (1)" in text
    assert 'data-forbidden="0,1,2"' in anna and 'data-chips="1"' in anna
    assert "Pass and take 2 chips from the bank" in text
    # Ben's phone: not his turn, no keypad, but his own chips and cards.
    ben = game.page("Ben")
    assert "Your turn" not in visible(ben) and 'id="keypad"' not in ben
    assert 'id="prompt"' not in ben  # nothing for him to enter while Anna bids
    assert re.search(r'id="sg-my-chips">19<', ben)


def test_quick_bids_within_my_chips_carry_no_warning(game):
    turn_up(game, "host", "nuba4")
    anna = game.page("Anna")
    assert re.findall(r'name="amount" value="(\d+)"', anna) == ["1", "2", "3", "4", "5"]
    assert "sg-over" not in anna.split('id="keypad"')[1].split("</section>")[0]


def test_another_phone_never_sees_my_chip_count(game):
    """Ben's and Chris's pages do not depend on Anna's chips at all: change them in the stored
    state and their pages stay byte for byte the same (the CSRF token aside), while Anna's
    page and the host's "show all" page change."""
    rounds_one_to_three(game)
    turn_up(game, "host", "tonga9")
    before = {who: _strip_tokens(game.page(who)) for who in ("Ben", "Chris")}
    host_before = _strip_tokens(game.page())
    anna_before = game.page("Anna")
    state = game.state()
    state["chips"][0], state["bank"] = 7, state["bank"]  # only Anna's private count changes
    game.set_state(state)
    for who in ("Ben", "Chris"):
        assert _strip_tokens(game.page(who)) == before[who]
    assert _strip_tokens(game.page()) == host_before  # the table view hides chips too
    anna_after = game.page("Anna")
    assert _strip_tokens(anna_after) != _strip_tokens(anna_before)  # the check can tell
    assert re.search(r'id="sg-my-chips">7<', anna_after)
    _toggle_show_all(game)
    assert "7 chips" in visible(game.page())


# ---------------------------------------------------------------- fines


def test_illegal_bid_is_refused_with_the_reason_and_costs_a_chip_the_host_can_waive(game):
    rounds_one_to_three(game)
    turn_up(game, "host", "tonga9")
    before = game.state()
    response = game.post("Anna", "bid", amount="12")
    assert response.status_code == 422  # a refusal (with its fine)
    text = visible(response.text)
    assert "You own a 2, so no bid may end in 2: try 9 or 13." in text
    assert 'href="/rules/serengeti#bid-digit"' in response.text
    assert "Anna paid a 1-chip fine for an illegal bid." in text
    # The fined bid is not kept in the box: a second tap there would be a second fine.
    assert re.search(r'id="sg-amount"[^>]*value=""', response.text)
    after = game.state()
    assert after["chips"][0] == before["chips"][0] - 1 and after["bank"] == before["bank"] + 1
    assert after["auction"]["turn"] == 0  # Anna bids again or passes
    # Its own history entry, seen by everyone.
    assert "Anna paid a 1-chip fine to the bank for an illegal bid." in visible(game.page("Chris"))
    # Only the host sees the waive buttons.
    assert "Waive this fine" not in game.page("Ben")
    game.refused("Ben", "waive", "Only the host's device can enter this.", player="0")
    host = game.page()
    assert "Waive this fine" in host and "Waive Anna's latest fine (1 chip back)" in host
    game.act("host", "waive", player="0")
    state = game.state()
    assert state["chips"][0] == before["chips"][0] and state["bank"] == before["bank"]
    assert "The host waived Anna's fine: 1 chip back." in visible(game.page())
    assert "waived" in visible(game.page())
    game.refused("host", "waive", "Anna has no fine to waive.", player="0")


def test_the_same_fined_bid_again_costs_nothing_unless_the_player_confirms_it(game):
    rounds_one_to_three(game)
    turn_up(game, "host", "tonga9")
    state = game.state()
    state["chips"][0], state["bank"] = state["chips"][0] + 5, state["bank"] - 5  # chips to pay
    game.set_state(state)
    chips = state["chips"][0]
    assert game.post("Anna", "bid", amount="12").status_code == 422
    assert game.state()["chips"][0] == chips - 1
    # The bid form now asks before 12 is sent again, and says it costs a chip.
    page = game.page("Anna")
    assert 'data-ask-field="amount" data-ask-value="12" data-ask-add="again"' in page
    assert "A bid of 12 was just refused and cost a 1-chip fine. Bid 12 again and pay" in page
    # Sent again without the confirmation (a second tap, or no script): refused, no fine.
    response = game.refused("Anna", "bid", "Not fined again: 12 was refused", amount="12")
    assert rule_link(response.text) == "penalty-again"
    assert game.state()["chips"][0] == chips - 1
    # Confirmed (again=1, as the phone's "yes" or the checkbox sends it): a new fine.
    response = game.post("Anna", "bid", amount="12", again="1")
    assert response.status_code == 422 and rule_link(response.text) == "bid-digit"
    assert game.state()["chips"][0] == chips - 2
    assert [p["bid"] for p in game.state()["penalties"]] == [12, 12]
    # A legal bid goes through as always, and nothing asks any more.
    game.act("Anna", "bid", amount="13")
    assert "data-ask-field" not in game.page("Anna")


def test_a_double_tap_on_an_illegal_bid_is_fined_once(game, monkeypatch):
    """Two identical illegal bids posted at the same moment, from the same rendered form: the
    fine is applied in the refusal's own transaction, behind its version check, so the second
    request finds the table changed (Conflict) instead of paying a second fine. The barrier lets
    both requests reach the fine together where that is possible (it was, before the fix)."""
    import threading

    rounds_one_to_three(game)
    turn_up(game, "host", "tonga9")
    page = game.page("Anna")
    form = {"version": version_of(page), "csrf_token": csrf_from(page), "amount": "12"}
    barrier = threading.Barrier(2, timeout=2)
    original = rules.GAME.follow_up

    def slow_follow_up(state, action, error):
        try:
            barrier.wait()
        except threading.BrokenBarrierError:
            pass  # the other request cannot get here while this one holds the write lock
        return original(state, action, error)

    monkeypatch.setattr(rules, "GAME", dataclasses.replace(rules.GAME, follow_up=slow_follow_up))
    chips = game.state()["chips"][0]
    statuses = []

    def tap():
        response = game.phones[0].post(
            f"/t/{game.code}/act/bid", data=form, headers={"HX-Request": "true"}
        )
        statuses.append(response.status_code)

    threads = [threading.Thread(target=tap) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(statuses) == 2
    state = game.state()
    assert len(state["penalties"]) == 1
    assert state["chips"][0] == chips - 1


def test_a_fine_that_cannot_be_paid_shows_everyone_that_the_player_has_no_chip(game, client):
    """What the app reveals is what a real table sees (CLARIFICATIONS["chips-public"]): Anna (1
    chip) pays one fine, then cannot pay the next; every phone reads that, no page shows a count."""
    rounds_one_to_three(game)  # Anna 1 chip, owns 0, 1 and 2
    turn_up(game, "host", "tonga9")
    assert "Anna paid a 1-chip fine" in visible(game.post("Anna", "bid", amount="12").text)
    assert "Anna made an illegal bid (no chip to pay the fine)." in visible(
        game.post("Anna", "bid", amount="10").text
    )
    state = game.state()
    assert state["chips"][0] == 0 and [p["paid"] for p in state["penalties"]] == [1, 0]
    for who in ("Ben", "Chris", "host"):
        page = game.page(who)
        assert "Anna made an illegal bid but has no chip to pay the fine." in visible(page), who
        assert "sg-chips-tag" not in page and "had no chip to pay" in visible(page), who
    rules_page = visible(client.get("/rules/serengeti").text)
    assert "a player who cannot pay a fine has no chip left" in rules_page
    assert "the table learns that this player has no chip left" in rules_page
    assert "never shows anyone's chip count" not in rules_page


def test_bids_that_are_too_low_or_not_numbers_are_refused_without_a_fine(game):
    turn_up(game, "host", "nuba4")
    game.act("Anna", "bid", amount="5")
    game.refused("Ben", "bid", "The high bid is 5: bid at least 6, or pass.", amount="5")
    response = game.refused("Ben", "bid", "The high bid is 5", amount="3")
    assert 'href="/rules/serengeti#bid-higher"' in response.text
    assert game.state()["penalties"] == []


def test_friendly_table_switches_fines_off_and_illegal_bids_cost_nothing(game):
    turn_up(game, "host", "nuba4")
    game.act("Anna", "bid", amount="1")
    game.act("Ben", "pass")
    game.act("Chris", "pass")  # Anna owns Nuba 4
    game.refused("Anna", "fines", "Only the host's device can enter this.", on="off")
    assert "Play friendly: switch fines off" in game.page()
    game.act("host", "fines", on="off")
    assert "Fines are off: an illegal bid is only refused." in visible(game.page())
    assert "The host switched fines for illegal bids off." in visible(game.page("Anna"))
    turn_up(game, "host", "tonga1")
    turn_up(game, "host", "bantu2")
    before = game.state()
    response = game.post("Anna", "bid", amount="4")
    assert "You own a 4" in visible(response.text)
    assert "fine" not in visible(response.text).split("Your turn")[0].lower()
    assert game.state() == before
    assert "costs a 1-chip fine" not in visible(game.page("Anna"))
    game.act("host", "fines", on="on")
    assert "costs a 1-chip fine" in visible(game.page("Anna"))
    game.post("Anna", "bid", amount="4")
    assert game.state()["chips"][0] == before["chips"][0] - 1


def test_follow_up_returns_the_penalty_only_for_the_digit_rule():
    state = rules.new({"variant": "abacus"}, 3)
    state = rules.apply(state, {"type": "card", "seat": None, "tribe": "nuba", "digit": 4})
    digit = RuleError("bid-digit", "x")
    higher = RuleError("bid-higher", "x")
    assert rules.GAME.follow_up(state, {"type": "bid", "amount": 14}, digit) == {
        "type": "penalty",
        "bid": 14,
    }
    assert rules.GAME.follow_up(state, {"type": "bid", "amount": 14}, higher) is None
    assert rules.GAME.follow_up(state, {"type": "pass"}, digit) is None
    friendly = dict(state, penalty_on=False)
    assert rules.GAME.follow_up(friendly, {"type": "bid", "amount": 14}, digit) is None


# ---------------------------------------------------------------- cannot pay, discard


def test_winner_who_cannot_pay_discards_a_card_of_their_choice(game):
    rounds_one_to_three(game)  # Anna has 1 chip and Massai 0, Nandi 1, Samburu 2
    turn_up(game, "host", "tonga9")
    game.act("Anna", "bid", amount="3")
    game.act("Ben", "pass")
    game.act("Chris", "pass")
    anna = game.page("Anna")
    assert "You cannot pay: discard a card" in visible(anna)
    assert re.findall(r'name="card" value="([^"]+)"', anna) == ["massai:0", "nandi:1", "samburu:2"]
    assert "Anna won at 3 but cannot pay, and is choosing a card to discard." in visible(
        game.page("Ben")
    )
    assert "Anna cannot pay 3 and must discard a card." in visible(game.page())
    game.refused("Ben", "discard", "Only Anna, who cannot pay, discards a card now.", card="nuba:3")
    game.refused("Anna", "discard", "You own no Tonga 9", card="tonga:9")
    for bad in ["nuba:x", "zulu:3", "", "massai"]:
        game.refused("Anna", "discard", "Choose one of your cards to discard.", card=bad)
    game.act("Anna", "discard", card="nandi:1")
    state = game.state()
    assert {"tribe": "nandi", "digit": 1} in state["out"]
    assert state["phase"] == "auction" and state["auction"]["turn"] == 1  # restarts with Ben
    text = visible(game.page())
    assert "out: could not pay" in text and "Out of the game: Nandi 1" in text
    # The pass bonus is paid once per round: no second bonus for Ben now.
    assert "Pass and take" not in visible(game.page("Ben"))


# ---------------------------------------------------------------- bad input on every form


def test_card_form_refuses_bad_input(game):
    for data, expect in [
        ({"tribe": "zulu", "digit": "3"}, "Choose the tribe shown on the card."),
        ({"digit": "3"}, "Choose the tribe shown on the card."),
        ({"tribe": "nuba", "digit": "x"}, "Choose the digit on the card: 0 to 9."),
        ({"tribe": "nuba", "digit": "12"}, "Choose the digit on the card: 0 to 9."),
        ({"tribe": "nuba", "digit": "-1"}, "Choose the digit on the card: 0 to 9."),
        ({"tribe": "nuba"}, "Choose the digit on the card: 0 to 9."),
        ({"tribe": "nuba", "digit": "3" * 500}, "Choose the digit on the card"),
    ]:
        game.refused("host", "card", expect, **data)
    turn_up(game, "Ben", "nuba3")
    # A card that cannot exist, and a card during the auction.
    game.refused("host", "card", "Not now: Anna bids or passes.", tribe="tonga", digit="1")
    game.act("Anna", "pass")
    game.act("Ben", "pass")
    game.act("Chris", "pass")
    response = game.refused(
        "host", "card", "Nuba 3 is already in the game", tribe="nuba", digit="3"
    )
    assert 'href="/rules/serengeti#deck"' in response.text


def test_a_refused_card_keeps_its_choice_only_in_its_own_answer(game):
    """The card form is one fragment for every device at the table (serengeti/_card_form.html):
    a refused entry's choice comes back checked in that device's answer, and in no page after."""

    def checked(html):
        return re.findall(r'name="(tribe|digit)" value="([^"]+)" checked>', html)

    refused = game.refused(
        "host", "card", "Choose the digit on the card: 0 to 9.", tribe="nuba", digit="12"
    )
    assert checked(refused.text) == [("tribe", "nuba")]
    refused = game.refused(
        "Ben", "card", "Choose the tribe shown on the card.", tribe="zulu", digit="3"
    )
    assert checked(refused.text) == [("digit", "3")]
    for who in ("host", "Anna", "Ben", "Chris"):
        page = game.page(who)
        assert 'id="card-form"' in page and checked(page) == []


def test_bid_and_pass_forms_refuse_bad_input_wrong_seat_and_wrong_phase(game):
    game.refused("Anna", "bid", "Not now: the table enters card 1 of 1 for round 1.", amount="3")
    game.refused("Anna", "pass", "Not now: the table enters card 1 of 1 for round 1.")
    turn_up(game, "host", "nuba4")
    for amount, expect in [
        ("abc", "A bid is a whole number of chips, from 1 to 999."),
        ("0", "A bid is a whole number of chips, from 1 to 999."),
        ("-3", "A bid is a whole number of chips, from 1 to 999."),
        ("1000", "A bid is a whole number of chips, from 1 to 999."),
        ("2.5", "A bid is a whole number of chips, from 1 to 999."),
        ("9" * 400, "A bid is a whole number of chips"),
        ("", "Type your bid, or pass."),
    ]:
        game.refused("Anna", "bid", expect, amount=amount)
    response = game.refused(
        "Ben", "bid", "It is not your turn: Anna bids or passes now.", amount="3"
    )
    assert 'href="/rules/serengeti#turn"' in response.text
    game.refused("Chris", "pass", "It is not your turn")
    game.refused("host", "bid", "This entry must say which player it is for.", amount="3")
    assert game.state()["penalties"] == []


def test_host_acting_for_a_seat_bids_for_it(game):
    turn_up(game, "host", "nuba4")
    response = game.post("host", "bid", query="?as=0", amount="2")
    assert response.status_code == 200 and "Acting for Anna." in visible(response.text)
    assert game.state()["auction"]["high"] == 2


def test_stale_version_and_missing_csrf_token_store_nothing(game):
    turn_up(game, "host", "nuba4")
    stale = game.version() - 1
    game.refused(
        "Anna",
        "bid",
        "The table changed while you were entering this",
        amount="3",
        version=stale,
    )
    for who, action, fields in [
        ("Anna", "bid", {"amount": "3"}),
        ("host", "card", {"tribe": "tonga", "digit": "1"}),
    ]:
        before = game.snapshot()
        response = game.post(who, action, csrf=False, **fields)
        assert response.status_code == 400
        assert "This form has expired" in visible(response.text), visible(response.text)[:800]
        assert game.snapshot() == before


def test_host_only_forms_refuse_bad_input_and_phones(game):
    for bad in ["x", "9", "", "-1"]:
        game.refused("host", "waive", "Choose whose fine to waive.", player=bad)
        game.refused("host", "start", "Choose the start player.", player=bad)
    for bad in ["maybe", ""]:
        game.refused("host", "fines", "Choose fines on or off.", on=bad)
    game.refused("host", "start", "Choose a seat from 1 to 3.", player="4")  # 5 seats max, 3 here
    game.refused("Ben", "start", "Only the host's device can enter this.", player="1")
    game.refused("host", "fines", "Fines are already on.", on="on")
    game.refused("host", "waive", "Ben has no fine to waive.", player="1")


def test_host_picks_the_start_player_before_the_first_card(game):
    assert "Who starts round 1?" in game.page()
    assert "Who starts round 1?" not in game.page("Anna")
    game.act("host", "start", player="2")
    assert "Start player Chris" in visible(game.page())
    turn_up(game, "host", "nuba4")
    assert "Your turn" in visible(game.page("Chris"))
    assert "Who starts round 1?" not in game.page()
    game.refused(
        "host",
        "start",
        "The start player can only be chosen before the first card",
        player="0",
    )


def test_sale_is_a_don_rule(game):
    turn_up(game, "host", "nuba4")
    game.act("Anna", "bid", amount="1")
    game.act("Ben", "pass")
    game.act("Chris", "pass")
    assert "sell one of your cards" not in visible(game.page("Anna"))
    game.refused("Anna", "sell", "Selling one of your own cards is a Don rule", card="nuba:4")
    game.refused("Anna", "sell", "Choose one of your cards to sell.", card="nuba")


def test_unknown_action_is_refused(game):
    game.refused("Anna", "penalty", "This game has no such action.")


# ---------------------------------------------------------------- Don


def test_don_shows_the_pot_and_no_pass_bonus_and_a_sale_pays_the_seller(don):
    text = visible(don.page())
    assert "Pot 0" in text and "Bank" not in text.split("Players")[0]
    assert "Serengeti — original Don rules" in text
    turn_up(don, "host", "nuba4")
    assert "Pass and take" not in visible(don.page("Anna"))
    don.act("Anna", "pass")
    don.act("Ben", "bid", amount="2")
    don.act("Chris", "pass")  # Ben pays 2: nobody owns a 2, Anna and Chris get 1 each
    text = visible(don.page())
    assert "Ben paid 2: Anna 1, Chris 1" in text and not re.search(r"\b0 in the pot", text)
    # Round 2, before the first card: Ben may sell his card.
    ben = don.page("Ben")
    assert "Don: sell one of your cards" in visible(ben)
    assert re.findall(r'name="card" value="([^"]+)"', ben) == ["nuba:4"]
    assert "sell one of your cards" not in visible(don.page("Anna"))  # Anna owns none
    for bad in ["", "nuba:x", "lion:1"]:
        don.refused("Ben", "sell", "Choose one of your cards to sell.", card=bad)
    don.refused("Ben", "sell", "You own no Tonga 1", card="tonga:1")
    don.act("Ben", "sell", card="nuba:4")
    text = visible(don.page())
    assert "On sale Nuba 4 · Ben" in text and "selling" in text and "Turn Chris" in text
    don.act("Chris", "bid", amount="5")
    don.act("Anna", "pass")
    assert "Chris paid 5 to Ben for Nuba 4." in visible(don.page())
    state = don.state()
    assert state["chips"] == [13, 15, 8] and state["pot"] == 0
    assert {"tribe": "nuba", "digit": 4} in state["cards"][2]
    don.refused("Ben", "sell", "You have already offered a card this round.", card="nuba:4")


def test_don_fine_goes_to_the_pot(don):
    turn_up(don, "host", "nuba4")
    don.act("Anna", "bid", amount="1")
    don.act("Ben", "pass")
    don.act("Chris", "pass")
    turn_up(don, "host", "tonga1")
    turn_up(don, "host", "bantu2")
    don.post("Anna", "bid", amount="14")
    assert "Anna paid a 1-chip fine into the pot for an illegal bid." in visible(don.page())
    assert "Pot 2" in visible(don.page())  # 1 left over from Anna's bid of 1, and the fine


# ---------------------------------------------------------------- the end screen


def play_whole_game(game, variant):
    """15 rounds through tables.act (fast), with a simple policy: on your turn, if nobody has bid
    yet and it is your "lucky" round, bid the lowest legal bid you can pay; else pass."""
    with game.app.app_context():
        db = get_db()
        table = tables.get_table(db, game.code)
        deck = list(DECK)
        deck = deck[::2] + deck[1::2]
        while True:
            state = tables.state_of(db, table)
            if state["phase"] == "over":
                return state
            if state["phase"] == "reveal":
                spec = deck.pop(0)
                action, seat = {"type": "card", "tribe": spec[:-1], "digit": int(spec[-1])}, None
            else:
                seat = state["auction"]["turn"]
                me = rules.view(state, seat)["me"]
                lucky = (state["round"] + seat) % 3 == 0
                if (
                    state["auction"]["high"] is None
                    and lucky
                    and me["min_bid"]
                    and me["min_bid"] <= me["chips"]
                ):
                    action = {"type": "bid", "amount": me["min_bid"]}
                else:
                    action = {"type": "pass"}
            tables.act(db, table, action, seat=seat, host=seat is None, expected_version=None)
            table = tables.get_table(db, game.code)


@pytest.mark.parametrize("variant", ["serengeti", "don"])
def test_end_screen_shows_breakdown_bonus_ranking_and_tie_break(make_table, variant):
    g = make_table(variant, NAMES)
    state = play_whole_game(g, variant)
    result = rules.result(state)
    page = g.page("Ben")
    text = visible(page)
    assert "Final scores" in text and "The game is over" in text
    for row in result["players"]:
        assert re.search(rf'id="sg-total-{row["player"]}">{row["total"]}<', page)
        assert re.search(rf'id="sg-chips-{row["player"]}">{row["chips"]}<', page)
    bonus = "+3" if variant == "serengeti" else "+2"
    assert bonus in text and "Most chips bonus" in text and "Card points" in text
    for tribe in ("Nuba", "Massai", "Bantu", "Nandi", "Tonga", "Samburu"):
        assert tribe in text
    winner = NAMES[result["winners"][0]]
    verdict = {
        "points": f"Winner: {winner}.",
        "cards": f"{winner} ties on points and wins with more cards.",
        "chips": f"{winner} ties on points and cards and wins with more chips.",
        "digit_sum": f"{winner} ties on points and wins with the higher sum of card digits.",
    }.get(result["tie_break"], "share the win")
    assert verdict in text
    ranking = [NAMES[p] for p in result["ranking"]]
    listed = re.findall(r"<li value=\"\d\"><strong>(\w+)</strong>", page)
    assert listed == ranking
    # Nothing can be entered any more, nobody is told which bids they may not make, nor invited.
    assert 'id="card-form"' not in page and 'id="keypad"' not in page
    assert "No bid ending in" not in text and "You may not bid" not in text
    assert "Invite players" not in text and 'id="invite"' not in page
    g.refused("host", "card", "The game is over.", tribe="nuba", digit="1")


def test_end_screen_names_the_tie_break_that_decided(make_table):
    g = make_table("serengeti", NAMES)
    state = rules.new({"variant": "abacus"}, 3)
    # Anna: Nuba 1, Nuba 2 (3 points), Tonga 3 (1): 4 points, 3 cards, 6 chips.
    # Ben: Massai 1, Massai 2 (3), Bantu 5 (1): 4 points, 3 cards, 5 chips.
    # Chris: no card, 20 chips: the chip bonus, 3 points. Anna wins on chips.
    state["cards"] = [
        [card("nuba1"), card("nuba2"), card("tonga3")],
        [card("massai1"), card("massai2"), card("bantu5")],
        [],
    ]
    state["chips"], state["bank"] = [6, 5, 20], 34
    state.update(phase="over", round=15)
    g.set_state(state)
    assert rules.result(state)["tie_break"] == "chips"
    page = g.page()
    text = visible(page)
    assert "Anna ties on points and cards and wins with more chips." in text
    assert "tie on points and cards broken by more chips" in text
    assert re.search(r'id="sg-total-0">4<', page) and re.search(r'id="sg-total-2">3<', page)
    assert "Nuba 3 (2)" in text  # per tribe: points (cards)


# ---------------------------------------------------------------- history, languages, rules page


def test_payout_line_and_history_are_translated_from_their_msgids(game, app):
    """The state and the history keep msgids (JSON), so a Japanese phone reads them in Japanese."""
    from companion.i18n import render_msg, use_part

    rounds_one_to_three(game)
    line = rules.view(game.state(), None)["payout_line"]
    with app.test_request_context(headers={"Cookie": "lang=ja"}):
        use_part("serengeti")  # as the table's pages do
        japanese = render_msg(Msg.from_json(json.loads(json.dumps(line.to_json()))), list(NAMES))
    assert japanese != str(line) and "13" in japanese
    game.device("Ben").set_cookie("lang", "ja")
    page = game.page("Ben")
    assert japanese in page
    assert "Anna paid 13" not in page


def test_rules_page_opens_with_your_first_game_and_dons_changes(client):
    """One page serves Serengeti and Don (its info is Serengeti's): the first-game steps give
    the Abacus numbers and Don's differences as a last step, in each language."""
    page = client.get("/rules/serengeti").text
    assert page.index("Your first game") < page.index('id="rules"')
    steps = re.findall(r"<li>(.*?)</li>", page.split('class="first-game"')[1].split("</ol>")[0])
    assert len(steps) == len(rules.GAME.first_game) == 7
    text = visible(page)
    assert "Each player takes 10 hidden chips" in text
    assert "(own a 4: no 4, 14, 24…): a 1-chip fine." in text
    assert steps[-1].startswith("Don: 12 chips, no bank or pass bonus")
    client.set_cookie("lang", "ja")
    assert "はじめての1ゲーム" in client.get("/rules/serengeti").text
    client.set_cookie("lang", "ru")
    assert "Don: 12 фишек" in client.get("/rules/serengeti").text


def test_rules_page_has_an_entry_for_every_rule_and_clarification(client):
    page = client.get("/rules/serengeti")
    assert page.status_code == 200
    ids = re.findall(r'id="([^"]+)"', page.text)
    assert len(ids) == len(set(ids)), "duplicate ids"
    for rule in [*rules.RULES, *rules.CLARIFICATIONS]:
        assert rule in ids, rule
    text = visible(page.text)
    for key, summary in rules.RULE_SUMMARIES.items():
        assert visible(summary) in text, key
    for question in [
        "Nobody bids: does the start player also get the pass bonus?",
        "What if a winner who cannot pay owns no card?",
        "What if several players tie for the most chips?",
        "Don: who is paid in a sale?",
    ]:
        assert question in text
    assert "Don: what changes" in text
    assert client.get("/rules/don").status_code == 404  # Don's entries are on this page


# ---------------------------------------------------------------- the payout calculator


def calc(client, **args):
    query = {"variant": "abacus", "players": "3", "bid": "", "winner": "0", **args}
    return client.get("/tools/serengeti/", query_string=query)


def test_calculator_is_listed_and_answers_empty(client):
    assert "/tools/serengeti/" in client.get("/tools/").text
    page = client.get("/tools/serengeti/")
    assert (
        page.status_code == 200 and "Share the bid" in page.text and 'id="outcome"' not in page.text
    )


@pytest.mark.parametrize(
    "args,line,shares,remainder",
    [
        # The rule text's examples (Abacus).
        (dict(bid="7", winner="0", digits_1="7"), "Player 1 paid 7: Player 2 7", [0, 7, 0], 0),
        (
            dict(players="4", bid="9", winner="3", digits_0="9", digits_1="9", digits_2="9"),
            "Player 4 paid 9: Player 1 3, Player 2 3, Player 3 3",
            [3, 3, 3, 0],
            0,
        ),
        (
            dict(players="4", bid="6", winner="2", digits_0="6 6", digits_3="6"),
            "Player 3 paid 6: Player 1 4, Player 4 2",
            [4, 0, 0, 2],
            0,
        ),
        (
            dict(players="4", bid="5", winner="0", digits_1="1 2"),
            "Player 1 paid 5:",
            [0, 1, 1, 1],
            2,
        ),
        (dict(bid="12", winner="2", digits_1="2"), "Player 3 paid 12: Player 2 12", [0, 12, 0], 0),
        (
            dict(
                bid="13",
                winner="0",
                name_0="Anna",
                name_1="Ben",
                name_2="Chris",
                digits_1="3",
                digits_2="3",
                digits_0="3",
            ),
            "Anna paid 13: Ben 6, Chris 6, 1 to the bank",
            [0, 6, 6],
            1,
        ),
        # Don: the most matching cards take it all; the old pot is added; odd chips to the pot.
        (
            dict(variant="don", players="4", bid="6", winner="2", digits_0="6 6", digits_3="6"),
            "Player 3 paid 6: Player 1 6",
            [6, 0, 0, 0],
            0,
        ),
        (
            dict(variant="don", bid="7", pot="2", winner="0", digits_1="7", digits_2="7"),
            "Player 1 paid 7, plus 2 from the pot: Player 2 4, Player 3 4, 1 in the pot",
            [0, 4, 4],
            1,
        ),
        (
            dict(
                variant="don",
                players="5",
                bid="10",
                winner="4",
                digits_0="0",
                digits_1="0 5",
                digits_2="5",
                digits_4="0",
            ),
            "Player 5 paid 10: Player 1 5, Player 2 5",
            [5, 5, 0, 0, 0],
            0,
        ),
        (
            dict(variant="don", bid="5", winner="1", pot=""),
            "Player 2 paid 5: Player 1 2, Player 3 2, 1 in the pot",
            [2, 0, 2],
            1,
        ),
    ],
)
def test_calculator_shares_the_bid(client, args, line, shares, remainder):
    page = calc(client, **args)
    assert page.status_code == 200, visible(page.text)[:2000]
    text = visible(page.text)
    assert line in text, text[:1500]
    assert not re.search(r"\b0 in the pot", text)  # an empty pot is not listed
    for seat, amount in enumerate(shares):
        row = visible(
            re.search(rf'<tr id="share-{seat}">.*?</tr>', page.text, re.S).group(0)
        ).strip()
        if seat == int(args.get("winner", "0")):
            assert "−" in row
        else:
            assert row.endswith(f"+{amount}"), row
    assert (
        visible(re.search(r'<tr id="remainder">.*?</tr>', page.text, re.S).group(0))
        .strip()
        .endswith(str(remainder))
    )


ABC = dict(name_0="Anna", name_1="Ben", name_2="Chris")


@pytest.mark.parametrize(
    "args,line,shares,remainder,explains",
    [
        # Only Ben owns 7s: he takes the whole bid however many (shared per card: 3 + 3, 1 to the bank).
        (
            dict(bid="7", digits_1="7 7"),
            "Anna paid 7: Ben 7",
            [0, 7, 0],
            0,
            "Only Ben owns a 7 (2 cards), so Ben takes the whole bid: a lone holder is not paid per card.",
        ),
        (
            dict(bid="7", digits_1="7"),
            "Anna paid 7: Ben 7",
            [0, 7, 0],
            0,
            "Only Ben owns a 7 (1 card), so Ben takes the whole bid.",
        ),
        (
            dict(bid="1", digits_1="1 1 1"),
            "Anna paid 1: Ben 1",
            [0, 1, 0],
            0,
            "Only Ben owns a 1 (3 cards), so Ben takes the whole bid",
        ),
        (
            dict(bid="17", digits_0="7", digits_2="7 7"),
            "Anna paid 17: Chris 17",
            [0, 0, 17],
            0,
            "Only Chris owns a 7 (2 cards)",
        ),  # the winner's own 7 never counts
        # Ben and Chris both own 7s: per card, 7 // 3 = 2, so Ben 4, Chris 2, 1 to the bank.
        (
            dict(bid="7", digits_1="7 7", digits_2="7"),
            "Anna paid 7: Ben 4, Chris 2, 1 to the bank",
            [0, 4, 2],
            1,
            "Two or more players own a 7, so the bid is shared per card: each card earns 2 chips (7 ÷ 3).",
        ),
        (
            dict(bid="1", digits_1="1", digits_2="1"),
            "Anna paid 1: 1 to the bank",
            [0, 0, 0],
            1,
            "each card earns 0 chips (1 ÷ 2)",
        ),
    ],
)
def test_calculator_explains_a_lone_holder_and_sharing_per_card(
    client, args, line, shares, remainder, explains
):
    page = calc(client, winner="0", **ABC, **args)
    assert page.status_code == 200, visible(page.text)[:2000]
    text = visible(page.text)
    assert line in text and explains in text, text[:1500]
    if "Only" in explains:
        assert "earns" not in text and "per card:" not in text
    for seat, amount in enumerate(shares[1:], start=1):
        row = visible(re.search(rf'<tr id="share-{seat}">.*?</tr>', page.text, re.S).group(0))
        assert row.strip().endswith(f"+{amount}"), row
    assert (
        visible(re.search(r'<tr id="remainder">.*?</tr>', page.text, re.S).group(0))
        .strip()
        .endswith(str(remainder))
    )


def test_calculator_escapes_a_typed_name_in_its_explanation(client):
    page = calc(client, bid="7", winner="0", name_1="<b>Ben</b>", digits_1="7 7")
    assert (
        "<b>Ben</b>" not in page.text and "&lt;b&gt;Ben&lt;/b&gt; takes the whole bid" in page.text
    )


@pytest.mark.parametrize(
    "args,expect",
    [
        (dict(bid="x"), "The bid is a whole number from 1 to 999."),
        (dict(bid="0"), "The bid is a whole number from 1 to 999."),
        (dict(bid="1000"), "The bid is a whole number from 1 to 999."),
        (dict(bid=""), "Type the winning bid."),
        (dict(bid="5", winner=""), "Choose who won the auction."),
        (dict(bid="5", winner="3"), "Choose who won the auction."),  # only 3 players
        (dict(bid="5", winner="x"), "Choose who won the auction."),
        (dict(bid="5", players="6"), "Serengeti is for 3 to 5 players."),
        (dict(bid="5", players="two"), "Serengeti is for 3 to 5 players."),
        (dict(bid="5", variant="poker"), "Not a valid choice"),
        (dict(bid="5", digits_1="4a"), "Type only digits 0 to 9"),
        (
            dict(bid="5", digits_1="4 4", digits_2="4 4"),
            "Only 3 cards show a 4, but 4 cards were entered.",
        ),
        (dict(bid="5", pot="3"), "Abacus has no pot"),
        (dict(bid="5", variant="don", pot="-1"), "The pot is a whole number of chips, 0 or more."),
        (dict(bid="5", digits_1="1" * 61), "Field cannot be longer than 60 characters."),
    ],
)
def test_calculator_refuses_bad_input(client, args, expect):
    page = calc(client, **args)
    assert page.status_code == 400
    assert expect in visible(page.text), visible(page.text)[:2000]
    assert 'id="outcome"' not in page.text


def test_calculator_without_a_rule_set_plays_abacus(client):
    page = client.get("/tools/serengeti/?bid=13&winner=0&players=3&digits_1=3&digits_2=3")
    assert page.status_code == 200
    assert "Player 1 paid 13: Player 2 6, Player 3 6, 1 to the bank" in visible(page.text)


def test_calculator_keeps_what_was_typed(client):
    page = calc(client, bid="x", name_1="Ben", digits_1="3 3")
    assert 'value="Ben"' in page.text and 'value="3 3"' in page.text


def test_calculator_links_to_the_payout_rule_of_the_chosen_rule_set(client):
    # Don shares the bid differently (most matching cards), so its explanation is another entry.
    abacus = client.get("/tools/serengeti/?variant=abacus&players=3&bid=6&winner=0").text
    assert 'href="/rules/serengeti#payout"' in abacus
    don = client.get("/tools/serengeti/?variant=don&players=3&bid=6&winner=0").text
    assert 'href="/rules/serengeti#payout-don"' in don

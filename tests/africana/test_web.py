"""Africana through Flask's test client: set-up, ledger, turn tracker, sheets, result, calculator.

Every form is also sent bad input: a clear message in the page (status 200 for htmx posts, a link
to the rule when the rules refused it), never a 500, and nothing stored.
"""

from __future__ import annotations

import html
import re

import pytest

from companion.games.africana import rules as af
from tests.africana.helpers import choose, sheet_data
from tests.helpers import HX, alert_text, csrf_from, post_from, rule_link

WHY = "Why? Read the rule"  # the refusal box's link to the rule, after the message


# --- helpers -------------------------------------------------------------------------------------


def send(table, who, action_type: str, fields: dict, query: str = "", **options):
    """Post a form's fields to any action, the choice of action included (see choose)."""
    if action_type == "choose_action":
        return choose(table, who, fields["action"], query, **options)
    return table.post(who, action_type, query, **options, **fields)


def section(page: str, id_: str) -> str:
    """The element with this id up to the end of the first section closing after it."""
    start = page.index(f'id="{id_}"')
    return page[start : page.index("</section>", start)]


def prompt_line(page: str) -> str | None:
    """The line under the turn line that says what may be entered now, or None."""
    found = re.search(r'<p class="prompt" id="prompt">(.*?)</p>', page, re.S)
    return html.unescape(found.group(1)) if found else None


def section_form(page: str, id_: str) -> str:
    """The element with this id up to the end of the first form closing after it."""
    start = page.index(f'id="{id_}"')
    return page[start : page.index("</form>", start)]


@pytest.fixture
def table(make_table):
    """Anna, Ben and Chris, each with a phone, and the host's device."""
    return make_table("africana")


def finished(table):
    """The host ends play: every seat gets its scoring sheet."""
    table.act("host", "finish_game")
    assert table.state()["phase"] == "over"


# --- set-up ------------------------------------------------------------------------------------


def test_each_seat_sees_its_company_start_region_coins_and_what_it_receives(table):
    expected = [
        ("Italy", "white", "Napoli", 2),
        ("France", "blue", "Cape Town", 2),
        ("Germany", "yellow", "Lagos", 3),
    ]
    for phone, (country, colour, start, coins) in zip(table.phones, expected):
        page = table.page(phone)
        setup = page[page.index('id="af-setup"') :]
        setup = setup[: setup.index("</details>")]
        assert "<details" not in setup and country in setup and colour in setup
        assert f"<dd>{start}</dd>" in setup and f"{coins} silver" in setup
        assert "the explorer of your colour" in setup and "1 joker and 1 movement card" in setup
        assert "7 C cards are removed" in setup and "27 cards" in setup
        assert "the other 22 refill them" in setup
    host = table.page(table.host)
    for country, _, start, _ in expected:
        assert country in host and start in host
    assert "England" not in host  # 3 players: company 4 stays in the box


def test_two_and_four_players_show_their_deck_sizes(make_table):
    two = make_table("africana", ("Anna", "Ben"))
    assert "10 C cards are removed" in two.page(two.phones[0])
    four = make_table("africana", ("A1", "B2", "C3", "D4"))
    page = four.page(four.phones[3])
    assert "England" in page and "Jidda" in page and "4 silver" in page
    assert "4 C cards are removed" in page and "30 cards" in page


# --- the ledger and the turn tracker -----------------------------------------------------------


def test_ledger_entries_with_names_amounts_and_balances(table):
    anna, ben, chris = table.phones
    # Anna has 2 silver: buying an adventure is refused with the reason, nothing stored.
    choose(table, anna, "buy")
    before = table.version()
    response = table.post(anna, "buy_adventure", cards=1)
    assert response.status_code == 422  # a refusal
    assert alert_text(response.text) == (
        "Adventure cards cost 5 silver each: 1 card costs 5 silver, but you have 2 silver "
        "(enough for 0). " + WHY
    )
    assert rule_link(response.text) == "no-debt"
    assert table.version() == before
    # The reason is repeated next to the form that was refused, and only there.
    assert "af-inline-alert" in section_form(response.text, "af-buy")
    assert response.text.count("af-inline-alert") == 1
    # Pages: the first of the turn is free, then 1 silver each.
    response = table.post(anna, "turn_pages", pages=2)
    assert alert_text(response.text) == ""
    assert table.state()["seats"][0]["coins"] == 1
    assert "Turned pages" in response.text
    assert "Pages turned this turn: 2; each further page costs 1 silver." in response.text
    response = table.post(anna, "end_turn")
    assert alert_text(response.text) == "" and "It is the turn of Ben" in response.text
    # Ben moves: joins space 2 with a bonus of 3, completes it for 4 silver and 5 points.
    choose(table, ben, "move")
    table.act(ben, "join_expedition", slot=2, bonus_coins=3)
    response = table.post(ben, "complete_expedition", slot=2, coins=4, points=5)
    assert alert_text(response.text) == ""
    assert table.state()["seats"][1]["coins"] == 2 + 3 + 4
    ledger = response.text[response.text.index('id="af-account-1"') :]
    ledger = ledger[: ledger.index("</details>")]
    assert "Join bonus" in ledger and "Expedition reward" in ledger and "Starting coins" in ledger
    assert "+3" in ledger and "+4" in ledger and "9 silver" in ledger
    # Ben's colour change: 5 silver each, and 2 cards are more than he can pay.
    response = table.post(ben, "change_colour", cards=2)
    assert "10 silver, but you have 9 silver (enough for 1)" in alert_text(response.text)
    response = table.post(ben, "end_turn")
    assert "Refill the expedition row" not in alert_text(response.text)
    state = table.state()
    assert state["deck"] == 21 and state["turn"]["seat"] == 2
    # The row shows who joined what; Chris sees it too, the deck counted down.
    page = table.page(chris)
    assert "Expedition deck: 21 cards left." in page and "It is your turn." in page


def test_every_entry_belongs_to_the_current_player_and_the_chosen_action(table):
    anna, ben, _ = table.phones
    before = table.version()
    response = choose(table, ben, "draw")
    assert alert_text(response.text) == f"It is Anna's turn, not Ben's. {WHY}"
    assert rule_link(response.text) == "turn-order"
    choose(table, anna, "draw")
    response = table.post(anna, "join_expedition", slot=1, bonus_coins=0)
    assert "a turn has only one" in alert_text(response.text)
    assert rule_link(response.text) == "one-action"
    assert table.version() == before + 1


def test_only_the_current_phone_gets_the_entry_forms_and_the_host_can_act_for_it(table):
    anna, ben, _ = table.phones
    assert 'id="af-choose"' in table.page(anna)
    assert 'id="af-choose"' not in table.page(ben)
    assert "Wait for your turn" in table.page(ben)
    # Under "Your turn.", the line that says what may be entered now (Rules.prompt); the phone
    # that waits has nothing to enter, so no such line.
    assert prompt_line(table.page(anna)) == (
        "Choose one action: draw 2 movement cards, buy or move."
    )
    assert prompt_line(table.page(ben)) is None
    host = table.page(table.host)
    assert 'id="af-choose"' not in host and "Enter the turn of Anna" in host
    response = choose(table, table.host, "buy", "?as=0")
    assert alert_text(response.text) == "" and table.state()["turn"]["action"] == "buy"


def test_end_of_turn_reminders_and_discarding_extra_adventures(table):
    anna = table.phones[0]
    table.act(table.host, "correct_coins", "?as=0", amount=20)
    table.act(anna, "buy_adventure", cards=4)
    page = table.page(anna)
    end = page[page.index('id="af-end"') :]
    assert "If you hold more than 5 cards" in end
    assert "You have 4 unfinished adventures: discard 1" in html.unescape(end)
    assert prompt_line(page) == "To end your turn, discard 1 adventure: 3 may stay."
    # The table's screen names the company: "you" is only for the player (or the host entering
    # the turn for them).
    assert "Italy has 4 unfinished adventures: discard 1" in html.unescape(table.page(table.host))
    assert "You have 4 unfinished" in html.unescape(table.page(table.host, "?as=0"))
    assert 'name="discarded_adventures"' in end and 'value="1"' in end
    response = table.post(anna, "end_turn", discarded_adventures=1)
    assert alert_text(response.text) == ""
    assert table.state()["seats"][0]["adventures_open"] == 3


def five_unfinished(table):
    """Anna buys 5 adventure cards in her turn (25 silver)."""
    table.act(table.host, "correct_coins", "?as=0", amount=23)
    response = table.post(table.phones[0], "buy_adventure", cards=5)
    assert alert_text(response.text) == "" and table.state()["seats"][0]["adventures_open"] == 5


def end_form(text: str) -> str:
    return html.unescape(section_form(text, "af-end"))


def test_a_seat_cannot_end_its_turn_over_the_adventure_limit(table):
    """Rule "adventure-limit": more than 3 unfinished adventures at the end of a turn must be
    discarded. The phone is refused with the count and what to discard, in the page and next to
    the form; it gets no way around it (only the host has the override)."""
    five_unfinished(table)
    anna = table.phones[0]
    response = table.post(anna, "end_turn", discarded_adventures=1)
    message = (
        "You have 5 unfinished adventures, and at most 3 may stay at the end of a turn: "
        "discard 2 (they leave the game), not 1."
    )
    assert alert_text(response.text) == f"{message} {WHY}"
    assert rule_link(response.text) == "adventure-limit"
    form = end_form(response.text)
    assert message in form  # next to the form too
    assert 'name="override"' not in form
    assert "the host can end the turn anyway" in form
    assert table.state()["turn"] == {
        "seat": 0,
        "number": 1,
        "action": "buy",
        "pages": 0,
        "entries": 1,
    }
    # A crafted override from a phone is refused as well.
    response = table.post(anna, "end_turn", discarded_adventures=0, override="1")
    assert rule_link(response.text) == "host-only" and "discard 2 of them first" in alert_text(
        response.text
    )
    assert table.state()["turn"]["seat"] == 0
    response = table.post(anna, "end_turn", discarded_adventures=2)
    assert alert_text(response.text) == "" and table.state()["turn"]["seat"] == 1
    assert table.state()["seats"][0]["adventures_open"] == 3


def test_the_host_sees_the_refusal_and_can_end_the_turn_anyway(table):
    """The count comes from entries, which can miss one: the host, acting for the seat, is
    refused like everyone, then offered an explicit override, which the history records."""
    five_unfinished(table)
    response = table.post(table.host, "end_turn", "?as=0", discarded_adventures=1)
    assert rule_link(response.text) == "adventure-limit"
    form = end_form(response.text)
    assert 'name="override"' in form and "End the turn anyway (host)" in form
    assert table.state()["turn"]["seat"] == 0
    # Not offered before a refusal: the host first ends the turn like anybody else.
    assert 'name="override"' not in end_form(table.page(table.host, "?as=0"))
    response = table.post(table.host, "end_turn", "?as=0", discarded_adventures=1, override="1")
    assert alert_text(response.text) == ""
    state = table.state()
    assert state["turn"]["seat"] == 1 and state["seats"][0]["adventures_open"] == 4
    for client in (table.host, *table.phones):
        assert (
            "The host ended the turn of Anna with 4 unfinished adventures (limit 3)."
            in html.unescape(table.page(client))
        )


def test_the_last_round_is_announced_and_the_game_ends_after_the_last_seat(make_table):
    t = make_table("africana", ("Anna", "Ben"))
    anna, ben = t.phones
    # Anna draws first; then each turn completes the expedition in space 1: 19 refills, and
    # the 20th completion (Anna's, in turn 21) leaves a gap in the row.
    for turn in range(40):
        state = t.state()
        if state["last_round"]:
            break
        seat = state["turn"]["seat"]
        phone = t.phones[seat]
        if turn == 0:
            choose(t, phone, "draw")
        else:
            t.act(phone, "join_expedition", slot=1, bonus_coins=0)
            response = t.post(phone, "complete_expedition", slot=1, coins=1, points=1)
            assert alert_text(response.text) == ""
        response = t.post(phone, "end_turn")
        assert alert_text(response.text) == ""
    state = t.state()
    assert state["last_round"] and state["phase"] == "playing" and state["deck"] == 0
    assert state["turn"]["seat"] == 1  # Anna triggered it: Ben still plays
    for phone in (anna, ben):
        page = t.page(phone)
        assert 'id="af-last-round"' in page and "the game ends after the turn of Ben" in page
    choose(t, ben, "draw")
    response = t.post(ben, "end_turn")
    assert t.state()["phase"] == "over"
    assert "The game is over" in response.text and 'id="af-sheet"' in response.text


def test_host_corrections_and_refused_ones(table):
    response = table.post(table.host, "correct_coins", "?as=1", amount=-5)
    assert alert_text(response.text) == (
        f"France has 2 silver: a correction can take at most that much. {WHY}"
    )
    assert rule_link(response.text) == "no-debt"
    response = table.post(table.host, "correct_coins", "?as=1", amount=7)
    assert alert_text(response.text) == "" and table.state()["seats"][1]["coins"] == 9
    assert "Correction by the host" in response.text
    # A phone cannot correct coins (no form for it, and the rules refuse it).
    assert 'id="af-correct"' not in table.page(table.phones[1])
    response = table.post(table.phones[1], "correct_coins", amount=7)
    assert rule_link(response.text) == "host-only"


# --- bad input for every form ------------------------------------------------------------------

GOOD = {
    "choose_action": {"action": "buy"},
    "buy_adventure": {"cards": 1},
    "turn_pages": {"pages": 1},
    "change_colour": {"cards": 1},
    "join_expedition": {"slot": 1, "bonus_coins": 0},
    "complete_expedition": {"slot": 1, "coins": 1, "points": 1},
    "complete_artifact": {"kind": "A", "coins": 1, "points": 1},
    "complete_guide": {},
    "end_turn": {},
    "rename_kinds": {
        f"names-{i}": n for i, n in enumerate(["Mask", "Idol", "Vase", "Drum", "Bow"])
    },
    "submit_sheet": sheet_data(expeditions=[3]),
    "correct_coins": {"amount": 1},
    "finish_game": {},
}

BAD_INPUT = [
    ("choose_action", {"action": "dance"}, "Choose draw, buy or move.", "one-action"),
    ("choose_action", {"action": "x" * 40}, "Field cannot be longer than 10 characters.", None),
    ("buy_adventure", {"cards": "two"}, "Adventure cards: type a whole number, such as 3.", None),
    ("buy_adventure", {"cards": "0"}, "'Cards' must be at least 1.", "buy-adventure"),
    ("buy_adventure", {"cards": "31"}, "'Cards' can be at most 30.", "buy-adventure"),
    ("turn_pages", {"pages": "1.5"}, "Pages turned: type a whole number", None),
    ("turn_pages", {"pages": "-2"}, "'Pages' must be at least 1.", "page-turn"),
    ("change_colour", {"cards": "9" * 5000}, "Cards changed: type a whole number", None),
    ("change_colour", {"cards": "100"}, "'Cards' can be at most 99.", "change-colour"),
    (
        "join_expedition",
        {"slot": "6", "bonus_coins": 0},
        "'Expedition space' can be at most 5.",
        "join-expedition",
    ),
    (
        "join_expedition",
        {"slot": "", "bonus_coins": 0},
        "needs a value for 'Expedition space'",
        "join-expedition",
    ),
    (
        "join_expedition",
        {"slot": 1, "bonus_coins": "-1"},
        "'Join bonus (silver)' cannot be negative",
        "join-expedition",
    ),
    (
        "complete_expedition",
        {"slot": 1, "coins": 1, "points": 1},
        "You have no marker on the expedition in space 1",
        "complete-expedition",
    ),
    ("complete_expedition", {"slot": "one"}, "Expedition space: type a whole number", None),
    (
        "complete_artifact",
        {"kind": "Q", "coins": 1, "points": 1},
        "Choose one of the five artifact kinds: A, B, C, D and E.",
        "artifact-limits",
    ),
    (
        "complete_artifact",
        {"kind": "A", "coins": "lots", "points": 1},
        "Silver printed on the card: type a whole number",
        None,
    ),
    ("complete_guide", {}, "You have no unfinished adventure card", "complete-adventure"),
    ("end_turn", {}, "Choose the turn's action first", "one-action"),
    (
        "end_turn",
        {"discarded_adventures": "x"},
        "Unfinished adventures discarded: type a whole",
        None,
    ),
    (
        "rename_kinds",
        {"names-0": "Mask", "names-1": "Mask", "names-2": "c", "names-3": "d", "names-4": "e"},
        "Two artifact kinds cannot have the same name.",
        "kind-names",
    ),
    (
        "rename_kinds",
        {"names-0": "M" * 21, "names-1": "b", "names-2": "c", "names-3": "d", "names-4": "e"},
        "at most 20 characters",
        "kind-names",
    ),
    ("rename_kinds", {"names-0": "Mask"}, "Every artifact kind needs a name.", "kind-names"),
    (
        "correct_coins",
        {"amount": "ten"},
        "Silver to add (or take away with a minus sign): type",
        None,
    ),
    ("correct_coins", {"amount": "0"}, "A correction needs an amount other than 0.", "action"),
    (
        "submit_sheet",
        sheet_data(movement=-1),
        "'Movement cards in hand' cannot be negative",
        "sheet-values",
    ),
    (
        "submit_sheet",
        sheet_data(movement=6),
        "'Movement cards in hand' can be at most 5.",
        "sheet-values",
    ),
    ("submit_sheet", sheet_data(gold="a lot"), "Gold coins: type a whole number", None),
    (
        "submit_sheet",
        sheet_data(expeditions=[3, -4]),
        "Each expedition's points must be a whole",
        "sheet-values",
    ),
    (
        "submit_sheet",
        sheet_data(artifacts=[("A", 1)] * 5),
        "There are only 4 artifact cards of each kind; the sheet lists 5 cards of A.",
        "artifact-limits",
    ),
    (
        "submit_sheet",
        sheet_data(artifacts=[(k, 1) for k in "ABCDE" for _ in range(4)] + [("E", 2)]),
        "the sheet lists 5 cards of E",
        "artifact-limits",
    ),
    (
        "submit_sheet",
        sheet_data(unfinished=-1),
        "'Unfinished artifact adventures' cannot be negative",
        "sheet-values",
    ),
]


@pytest.mark.parametrize(
    "action_type, data, message, rule",
    BAD_INPUT,
    ids=[f"{a}-{i}" for i, (a, *_) in enumerate(BAD_INPUT)],
)
def test_bad_input_is_refused_with_the_reason_and_nothing_is_stored(
    table, action_type, data, message, rule
):
    anna = table.phones[0]
    if action_type in ("complete_expedition", "complete_artifact", "complete_guide"):
        choose(table, anna, "move")
    if action_type == "submit_sheet":
        finished(table)  # sheets are handed in once the game is over
    client, query = (table.host, "?as=0") if action_type == "correct_coins" else (anna, "")
    table.page(client, query)  # the host's first look at Anna's seat is a history line: done
    before = table.version()
    state = table.state()
    response = send(table, client, action_type, data, query)
    assert response.status_code == 422  # a refusal
    assert message in alert_text(response.text), alert_text(response.text)
    if rule is None:  # a typing slip caught by the form: no rule to link to, anywhere
        assert WHY not in response.text
    else:
        assert rule_link(response.text) == rule
    assert table.version() == before and table.state() == state
    # The page still works and keeps what was typed.
    assert 'id="live"' in response.text


def test_more_than_twenty_artifact_cards_are_refused(table):
    finished(table)
    cards = [(k, 1) for k in "ABCDE" for _ in range(4)]
    data = sheet_data(artifacts=cards)
    data["art_A-4"] = 2  # a 21st card, a 5th of kind A: whichever limit speaks, it is refused
    response = table.post(table.phones[0], "submit_sheet", **data)
    assert rule_link(response.text) == "artifact-limits"
    assert table.state()["seats"][0]["sheet"] is None
    response = table.post(
        table.phones[0], "submit_sheet", **sheet_data(artifacts=cards, unfinished=1)
    )
    assert "completed and unfinished together are 21" in alert_text(response.text)


@pytest.mark.parametrize("action_type", sorted(GOOD))
def test_every_form_without_csrf_token_is_refused_and_nothing_stored(table, action_type):
    before = table.version()
    response = send(table, table.phones[0], action_type, GOOD[action_type], csrf=False)
    assert response.status_code == 400 and "This form has expired" in response.text
    assert table.version() == before


@pytest.mark.parametrize("action_type", sorted(set(GOOD) - {"submit_sheet"}))
def test_every_form_with_a_stale_version_is_refused_and_nothing_stored(table, action_type):
    client = table.host if action_type in ("correct_coins", "finish_game") else table.phones[0]
    query = "?as=0" if action_type == "correct_coins" else ""
    table.page(client, query)  # the host's first look at Anna's seat is a history line: done
    stale = table.version()
    # Someone else changes the game meanwhile (a note or a join alone would not make it stale).
    response = table.post(table.host, "correct_coins", "?as=2", amount=1)
    assert alert_text(response.text) == ""
    state, changed = table.state(), table.version()
    response = send(table, client, action_type, GOOD[action_type], query, version=stale)
    assert response.status_code == 409  # a conflict
    assert "The table changed while you were entering this" in alert_text(response.text)
    assert table.state() == state and table.version() == changed


def test_a_sheet_sent_without_a_version_is_taken_but_a_stale_one_is_refused(table):
    """Sheets do not depend on other players' entries, so the sheet form carries no version
    (everybody fills one in at once); a version sent anyway is still checked."""
    finished(table)
    assert (
        'name="version"'
        not in table.page(table.phones[0]).split('id="af-sheet"')[1].split("</form>")[0]
    )
    response = table.post(
        table.phones[0], "submit_sheet", version=False, **sheet_data(expeditions=[4])
    )
    assert alert_text(response.text) == ""
    assert table.state()["seats"][0]["sheet"]["expedition_points"] == [4]
    stale = table.version() - 1
    response = table.post(table.phones[1], "submit_sheet", version=stale, **sheet_data())
    assert "The table changed" in alert_text(response.text)
    assert table.state()["seats"][1]["sheet"] is None


def test_after_the_game_only_sheets_may_change(table):
    finished(table)
    for action_type in ("choose_action", "buy_adventure", "end_turn", "finish_game"):
        client = table.host if action_type == "finish_game" else table.phones[0]
        response = send(table, client, action_type, GOOD[action_type])
        assert rule_link(response.text) == "game-over", action_type
    response = table.post(table.host, "correct_coins", "?as=0", amount=1)
    assert rule_link(response.text) == "game-over"


def test_a_bad_form_without_htmx_is_not_a_500(table):
    response = table.post(table.phones[0], "buy_adventure", htmx=False, cards="x")
    assert response.status_code == 422 and "type a whole number" in response.text


def test_a_phone_cannot_end_the_game(table):
    response = table.post(table.phones[0], "finish_game")
    assert rule_link(response.text) == "host-only"
    assert table.state()["phase"] == "playing"


# --- sheets, privacy, result -------------------------------------------------------------------


def test_the_sheet_is_prefilled_from_the_entries(table):
    anna = table.phones[0]
    table.act(table.host, "correct_coins", "?as=0", amount=21)  # 23 silver
    table.act(anna, "join_expedition", slot=3, bonus_coins=0)
    table.act(anna, "complete_expedition", slot=3, coins=0, points=7)
    finished(table)
    form = table.page(anna).split('id="af-sheet"')[1].split("</form>")[0]
    assert 'name="expedition_points-0" value="7"' in form
    assert 'name="gold" value="4"' in form and 'name="silver" value="3"' in form
    assert "The ledger says 23 silver." in form
    assert "Total so far: 9 points" in form  # 7 + 23 // 10


def test_the_sheet_leaves_unfinished_artifacts_to_the_player_when_guides_may_be_among_them(table):
    """Rule "other-points": only unfinished ARTIFACT adventures score 1 each; unfinished guide
    adventures score nothing. The entries know how many adventures are unfinished but not which
    are guides, so the box is left empty with the reason, instead of a count that may hold
    guides, and an empty box is refused rather than scored as 0."""
    anna, ben = table.phones[:2]
    table.act(table.host, "correct_coins", "?as=0", amount=8)  # 10 silver
    table.act(anna, "buy_adventure", cards=2)
    finished(table)
    form = table.page(anna).split('id="af-sheet"')[1].split("</form>")[0]
    assert 'name="unfinished_artifacts" value=""' in form
    assert (
        "The entries leave 2 unfinished adventure cards in front of you, and the app cannot "
        "tell guides from artifacts: count only the artifact adventures."
    ) in html.unescape(form)
    response = table.post(anna, "submit_sheet", **{**sheet_data(), "unfinished_artifacts": ""})
    assert rule_link(response.text) == "other-points"
    assert "You have 2 unfinished adventures in the app" in alert_text(response.text)
    assert table.state()["seats"][0]["sheet"] is None
    response = table.post(anna, "submit_sheet", **sheet_data(unfinished=1))
    assert (
        alert_text(response.text) == ""
        and table.state()["seats"][0]["sheet"]["unfinished_artifacts"] == 1
    )
    other = table.page(ben).split('id="af-sheet"')[1].split("</form>")[0]
    assert 'name="unfinished_artifacts" value="0"' in other  # Ben has none: certainly 0
    assert "The entries leave" not in other


def test_sheets_are_private_until_the_result_and_the_host_sees_all(table):
    anna, ben, chris = table.phones
    finished(table)
    response = table.post(anna, "submit_sheet", **sheet_data(expeditions=[7], silver=4321))
    assert alert_text(response.text) == ""
    assert "4321" in table.page(anna)
    for client in (ben, chris, table.host):
        assert "4321" not in table.page(client)
    assert "Anna (Italy): handed in" in table.page(ben)
    assert "Ben (France): not yet" in table.page(ben)
    assert "4321" not in table.page(table.host, "?reveal=1")  # a URL shows nothing
    post_from(table.host, f"/t/{table.code}/", f"/t/{table.code}/host/reveal")
    revealed = table.page(table.host)
    assert "4321 silver" in revealed and 'id="af-sheet-0"' in revealed
    assert "Hide the sheets" in revealed
    assert "The host looked at everyone's scoring sheets." in html.unescape(table.page(ben))
    # A phone cannot reveal: the switch is the host's only.
    assert post_from(ben, f"/t/{table.code}/", f"/t/{table.code}/host/reveal").status_code == 403
    assert "4321" not in table.page(ben)


def test_result_shows_breakdown_grouping_ranking_and_tie_break(table):
    anna, ben, chris = table.phones
    table.act(table.host, "rename_kinds", **GOOD["rename_kinds"])
    finished(table)
    # Anna: 5 + 6 + 2*3 + 1*3 = 20 card points, sets Mask Mask + Mask Idol Vase Drum = 16,
    # 23 silver = 2, 3 movement cards = 1: 39
    table.act(
        anna,
        "submit_sheet",
        **sheet_data(
            expeditions=[5, 6],
            artifacts=[("A", 2)] * 3 + [("B", 1), ("C", 1), ("D", 1)],
            gold=4,
            silver=3,
            movement=3,
        ),
    )
    # Ben: 35 - 10 + 2 unfinished = 27
    table.act(
        ben, "submit_sheet", **sheet_data(expeditions=[20, 15], guides=3, unfinished=2, silver=9)
    )
    assert 'id="af-result"' not in table.page(ben)
    # Chris: 30 + 95 silver = 39, ties Anna and wins on coins
    response = table.post(chris, "submit_sheet", **sheet_data(expeditions=[30], gold=19))
    assert alert_text(response.text) == ""
    for client in (anna, ben, chris, table.host):
        page = table.page(client)
        ranking = page[
            page.index('id="af-ranking"') : page.index("</table>", page.index('id="af-ranking"'))
        ]
        assert re.findall(r'<span class="who">(.*?)</span>', ranking) == ["Chris", "Anna", "Ben"]
        assert re.findall(r"<strong>(\d+)</strong>", ranking) == ["39", "39", "27"]
        assert "Equal totals, so the player with more coins wins" in page
        anna_score = page[
            page.index('id="af-score-0"') : page.index("</details>", page.index('id="af-score-0"'))
        ]
        for line in (
            "Completed expeditions",
            "Completed artifact adventures",
            "Artifact set bonus",
            "Completed guide adventures",
            "Coins (1 point per 10 silver)",
            "Movement cards in hand",
            "Unfinished artifact adventures",
        ):
            assert line in anna_score
        sets = re.findall(
            r'<span class="af-set">(.*?)</span> <span class="af-bonus">\+(\d+)', anna_score, re.S
        )
        groups = sorted(
            (sorted(re.findall(r"</span> (\w+)</span>", chips)), int(bonus))
            for chips, bonus in sets
        )
        assert groups == [(["Drum", "Idol", "Mask", "Vase"], 10), (["Mask", "Mask"], 6)]
        ben_score = page[
            page.index('id="af-score-1"') : page.index("</details>", page.index('id="af-score-1"'))
        ]
        assert "-10" in ben_score and "3 cards" in ben_score


def test_a_shared_victory_is_announced(make_table):
    t = make_table("africana", ("Anna", "Ben"))
    finished(t)
    for phone in t.phones:
        t.act(phone, "submit_sheet", **sheet_data(expeditions=[10], silver=4))
    page = t.page(t.phones[0])
    assert "Equal totals and equal coins (Anna: 4 silver and Ben: 4 silver)" in page
    assert "Winners: Anna and Ben." in page


def test_the_host_fills_in_the_sheet_of_a_player_without_a_phone(table):
    finished(table)
    response = table.post(table.host, "submit_sheet", "?as=2", **sheet_data(expeditions=[12]))
    assert alert_text(response.text) == "" and "Scoring sheet of Chris" in response.text
    assert table.state()["seats"][2]["sheet"]["expedition_points"] == [12]


def test_kinds_renamed_once_appear_in_the_forms(table):
    anna = table.phones[0]
    response = table.post(table.phones[1], "rename_kinds", **GOOD["rename_kinds"])
    assert alert_text(response.text) == ""
    page = table.page(anna)
    assert "The table has named the kinds." in page and 'id="af-rename"' not in page
    response = table.post(anna, "rename_kinds", **GOOD["rename_kinds"])
    assert "the table may rename them once" in alert_text(response.text)
    assert rule_link(response.text) == "kind-names"
    table.act(table.host, "correct_coins", "?as=0", amount=5)
    table.act(anna, "buy_adventure", cards=1)
    table.act(anna, "end_turn")
    for phone in table.phones[1:]:
        choose(table, phone, "draw")
        table.act(phone, "end_turn")
    choose(table, anna, "move")
    page = table.page(anna)
    assert 'name="kind" value="B"' in page and "Idol" in page
    response = table.post(anna, "complete_artifact", kind="B", coins=2, points=3)
    assert alert_text(response.text) == ""
    assert table.state()["seats"][0]["tally"]["artifacts"] == [["B", 3]]


def test_names_with_markup_are_escaped_once(make_table):
    t = make_table("africana", ("Tom & Jerry", "<b>Ben</b>"))
    page = t.page(t.phones[0])
    assert "Tom &amp; Jerry" in page and "&amp;amp;" not in page
    assert "<b>Ben</b>" not in page and "&lt;b&gt;Ben&lt;/b&gt;" in page


# --- the live preview of a sheet ---------------------------------------------------------------


def test_the_preview_renders_the_breakdown_without_storing(table):
    finished(table)
    anna = table.phones[0]
    token = csrf_from(table.page(anna))
    before = table.version()
    data = sheet_data(
        expeditions=[5], artifacts=[("A", 2)] * 3 + [("B", 1), ("C", 1), ("D", 1)], gold=2
    )
    data["kind_names"] = ["Mask", "Idol", "Vase", "Drum", "Bow"]
    response = anna.post(
        "/tools/africana/preview", data=data, headers=dict(HX, **{"X-CSRFToken": token})
    )
    assert response.status_code == 200
    assert "Total so far: 31 points" in response.text  # 5 + 9 + 16 + 1
    assert "Mask" in response.text and "+16" not in response.text and "+10" in response.text
    assert table.version() == before and table.state()["seats"][0]["sheet"] is None


def test_the_breakdown_counts_one_card_and_one_set_in_the_singular(client):
    """A count of 1 reads "1 card", "1 set", "1 point" (the screenshot showed "1 cards")."""
    token = csrf_from(client.get("/tools/africana/").text)
    # 1 guide adventure (no penalty), 1 movement card, 1 unfinished artifact: 1 point in all;
    # two different artifacts worth 0 points each make 1 set of 2.
    data = sheet_data(artifacts=[("A", 0), ("B", 0)], guides=1, movement=1, unfinished=1)
    response = client.post(
        "/tools/africana/preview", data=data, headers=dict(HX, **{"X-CSRFToken": token})
    )
    text = " ".join(html.unescape(response.text).split())
    assert "Total so far: 3 points" in text  # 0 + 2 (set) + 0 + 0 + 1
    assert "1 set" in text and "1 sets" not in text
    assert "1 card" in text and "1 cards" not in text
    data = sheet_data(unfinished=1)
    response = client.post(
        "/tools/africana/preview", data=data, headers=dict(HX, **{"X-CSRFToken": token})
    )
    assert "Total so far: 1 point<" in response.text


@pytest.mark.parametrize(
    "data, message, rule",
    [
        (sheet_data(artifacts=[("C", 1)] * 5), "the sheet lists 5 cards of C", "artifact-limits"),
        (sheet_data(guides=-1), "'Completed guide adventures' cannot be negative", "sheet-values"),
        (sheet_data(silver="x"), "Silver coins: type a whole number", None),
        ({"expedition_points-0": "100"}, "from 0 to 99", "sheet-values"),
    ],
)
def test_the_preview_shows_refusals_with_their_rule(client, data, message, rule):
    token = csrf_from(client.get("/tools/africana/").text)
    response = client.post(
        "/tools/africana/preview", data=data, headers=dict(HX, **{"X-CSRFToken": token})
    )
    assert response.status_code == 200
    assert message in html.unescape(response.text)
    if rule:
        assert f"/rules/africana#{rule}" in response.text
    else:
        assert "/rules/africana#" not in response.text


def test_the_preview_needs_the_csrf_token(client):
    assert client.post("/tools/africana/preview", data={}).status_code == 400


# --- the calculator -----------------------------------------------------------------------------


def calc_post(client, players, sheets, names=(), htmx=False):
    token = csrf_from(client.get(f"/tools/africana/?players={players}").text)
    data = {"csrf_token": token, "players": players}
    for i, sheet in enumerate(sheets):
        data.update(sheet_data(prefix=f"p{i}-", **sheet))
    for i, name in enumerate(names):
        data[f"names-{i}"] = name
    return client.post("/tools/africana/", data=data, headers=HX if htmx else {})


def test_the_calculator_page_offers_two_to_four_players(client):
    page = client.get("/tools/africana/").text
    assert page.count('class="card af-calc-player"') == 3
    for n in (2, 3, 4):
        page = client.get(f"/tools/africana/?players={n}").text
        assert page.count('class="card af-calc-player"') == n
    for bad in ("1", "5", "x", "-3"):
        page = client.get(f"/tools/africana/?players={bad}").text
        assert page.count('class="card af-calc-player"') == 3
    assert "Africana: final scoring" in client.get("/tools/").text


def test_the_calculator_ranks_with_breakdowns_sets_and_tie_break(client):
    sheets = [
        {
            "expeditions": [5, 6],
            "artifacts": [("A", 2)] * 3 + [("B", 1), ("C", 1), ("D", 1)],
            "gold": 4,
            "silver": 3,
            "movement": 3,
        },  # 39, 23 silver
        {"expeditions": [20, 15], "guides": 3, "unfinished": 2, "silver": 9},  # 27
        {"expeditions": [30], "gold": 19},  # 39, 95 silver
        {
            "artifacts": [
                ("A", 1),
                ("A", 1),
                ("B", 1),
                ("B", 1),
                ("C", 1),
                ("C", 1),
                ("D", 1),
                ("D", 1),
            ]
        },  # 8 + 24 = 32
    ]
    response = calc_post(client, 4, sheets, names=["Anna", "", "Chris"])
    assert response.status_code == 200
    ranking = response.text[response.text.index('id="af-ranking"') :]
    ranking = ranking[: ranking.index("</table>")]
    assert re.findall(r'data-player="(\d)"', ranking) == ["2", "0", "3", "1"]
    assert re.findall(r"<strong>(\d+)</strong>", ranking) == ["39", "39", "32", "27"]
    assert "Chris" in ranking and "Player 2" in ranking and "Anna" in ranking
    assert "Equal totals: the player with more coins wins." in response.text
    fourth = response.text[response.text.index('id="af-calc-score-3"') :]
    assert fourth.count('class="af-bonus">+6') == 4  # four pairs beat two sets of four
    # htmx gets the result alone, with the totals next to each sheet out of band
    response = calc_post(client, 4, sheets, htmx=True)
    assert response.text.lstrip().startswith("<section") and "<html" not in response.text
    assert 'id="af-total-2" hx-swap-oob="true">39 points' in response.text


def test_the_calculator_refuses_out_of_game_sheets_with_the_reason(client):
    sheets = [{"artifacts": [("A", 1)] * 5}, {"movement": -2}, {"expeditions": ["abc"]}]
    response = calc_post(client, 3, sheets)
    assert response.status_code == 200
    text = html.unescape(response.text)
    assert "the sheet lists 5 cards of A" in text and "/rules/africana#artifact-limits" in text
    assert "'Movement cards in hand' cannot be negative" in text
    assert "Expedition points: type a whole number" in text
    assert 'id="af-ranking"' not in response.text
    assert "The ranking appears when every sheet is within the game's limits" in text
    # What was typed stays in the boxes.
    assert 'name="p0-art_A-4" value="1"' in response.text
    assert 'name="p2-expedition_points-0" value="abc"' in response.text


def test_the_calculator_handles_garbage_without_a_500(client):
    token = csrf_from(client.get("/tools/africana/").text)
    response = client.post(
        "/tools/africana/",
        data={
            "csrf_token": token,
            "players": "99",
            "names-0": "x" * 500,
            "p0-art_Z-0": "1",
            "p0-expedition_points-999": "3",
        },
    )
    assert response.status_code == 200
    assert 'id="af-results"' in response.text


def test_the_calculator_needs_the_csrf_token(client):
    response = client.post("/tools/africana/", data={"players": 2})
    assert response.status_code == 400 and "This form has expired" in response.text


# --- rules page and languages ------------------------------------------------------------------


def test_the_rules_page_opens_with_a_first_game_in_the_rule_texts_numbers(client):
    page = client.get("/rules/africana").text
    assert page.index("Your first game") < page.index('id="players"')  # before the first rule
    section = page[page.index('<section class="first-game">') :]
    steps = [
        html.unescape(s)
        for s in re.findall(r"<li>(.*?)</li>", section[: section.index("</section>")])
    ]
    assert steps == list(af.GAME.first_game) and 5 <= len(steps) <= 7
    text = " ".join(steps)
    sets = af.SET_BONUS
    for fact in (
        f"{af.MARKERS} markers",
        f"draw 2 movement cards, buy adventures ({af.ADVENTURE_PRICE} silver each",
        f"at most {af.HAND_LIMIT} cards and {af.OPEN_ADVENTURE_LIMIT} unfinished adventures",
        f"2 alike {sets[2, True]}, 3 alike {sets[3, True]}, 2 different {sets[2, False]}, "
        f"4 different {sets[4, False]}",
        "2 guides −5, 3 or more −10",
        "a point per 10 silver, 2 movement cards",
    ):
        assert fact in text, fact
    for lang, word in (("ja", "会社マーカー4つ"), ("ru", "4 маркера")):
        translated = client.get("/rules/africana", headers={"Accept-Language": lang}).text
        assert word in translated[translated.index('<section class="first-game">') :][:3000], lang


def test_the_rules_page_has_an_entry_for_every_rule_and_reading(client):
    page = client.get("/rules/africana").text
    ids = re.findall(r'id="([^"]+)"', page)
    for rule_id in list(af.RULES) + list(af.CLARIFICATIONS):
        assert ids.count(rule_id) == 1, rule_id
    assert "12 + 2 = 14" in page and "6 + 10 = 16" in page
    examples = page[page.index('class="af-examples"') :]
    assert "<strong>14</strong>" in examples and "<strong>16</strong>" in examples
    assert "<strong>20</strong>" in examples and "<strong>24</strong>" in examples
    assert "Coins are counted by value in silver" in page
    assert "An unfinished guide adventure scores nothing" in page
    limit = html.unescape(page[page.index('id="adventure-limit"') :])
    limit = limit[: limit.index("</div>")]
    assert "the app refuses to end the turn" in limit and "the host" in limit
    assert "hand limit of 5 is only a reminder" in page


@pytest.mark.parametrize(
    "lang, words",
    [
        ("ja", ["会社", "銀貨"]),
        ("ru", ["компани", "серебр"]),
    ],
)
def test_the_panel_calculator_and_rules_speak_the_language(make_table, lang, words):
    t = make_table("africana")
    headers = {"Accept-Language": lang}
    for page in (
        t.phones[0].get(f"/t/{t.code}/", headers=headers).text,
        t.host.get("/tools/africana/", headers=headers).text,
        t.host.get("/rules/africana", headers=headers).text,
    ):
        assert any(word in page for word in words), page[:300]
        assert "Completed expeditions" not in page and "Expedition deck:" not in page


def test_a_refused_naming_of_the_kinds_keeps_what_was_typed_on_that_phone_only(table):
    """The kinds card is a fragment, the same for every viewer; after a refused entry the phone
    that sent it sees its names again, the card open and why, and nobody else does."""
    too_long = "x" * 61
    before = table.state()
    answer = table.post(0, "rename_kinds", **{"names-0": "Masks", "names-1": too_long})
    assert table.state() == before  # refused
    kinds = section_form(answer.text, "af-kinds")
    assert ' id="af-kinds" open' in answer.text
    assert 'value="Masks"' in kinds and f'value="{too_long}"' in kinds
    for other in (1, "host"):
        page = table.page(other)
        assert 'id="af-kinds" open' not in page and "Masks" not in section_form(page, "af-kinds")
    assert "Masks" not in section_form(table.page(0), "af-kinds")  # its next look: unbound


def test_a_display_link_shows_the_kinds_but_no_form_to_name_them(table, app):
    """A TV enters nothing: it lists the kinds; the phones (and the host) get the form."""
    from companion import get_db, tables

    with app.app_context():
        key = tables.new_display_token(get_db(), tables.get_table(get_db(), table.code))
    tv = app.test_client().get(f"/t/{table.code}/display/live?key={key}&v=0", headers=HX).text
    assert 'id="af-kinds"' in tv and 'id="af-rename"' not in tv and "csrf_token" not in tv
    assert 'id="af-rename"' in table.page(1) and 'id="af-rename"' in table.page("host")

"""From Cape to Cairo's panel for a phone, through Flask's test client: the part a seat acts in
is marked for the page to scroll to, every form leaves the limits to the rules (no browser
bubble), refusals speak to the player as "you", and each way to cross explains its price with
the same words as the calculator."""

from __future__ import annotations

import re

import pytest

from companion.games.base import Msg
from companion.games.cape_to_cairo import rules as g
from tests.cape_to_cairo.test_web import ROUND_ONE, Table, bid_all, enter_cards, to_building
from tests.helpers import alert_text, visible


@pytest.fixture
def t(app):
    return Table(app, "cape_to_cairo", ("Anna", "Ben", "Chris"))


def turn_panel(page: str) -> str | None:
    """The id of the element marked data-turn-panel (None if there is none)."""
    found = re.findall(r'<[^>]*\bid="([^"]+)"[^>]*\bdata-turn-panel\b', page)
    assert len(found) <= 1
    return found[0] if found else None


def test_the_turn_panel_is_marked_only_for_the_seats_the_game_waits_for(t):
    assert turn_panel(t.page("Anna")) is None  # the cards: nobody's turn yet
    enter_cards(t, ROUND_ONE)
    for who in ("Anna", "Ben", "Chris"):
        assert turn_panel(t.page(who)) == "ctc-act"
    assert turn_panel(t.page("host")) is None  # the table view acts for nobody
    assert turn_panel(t.page("host", "?as=1")) == "ctc-act"  # acting for Ben
    t.act("Anna", "bid", amount=5)
    assert turn_panel(t.page("Anna")) is None and turn_panel(t.page("Ben")) == "ctc-act"
    # The marked part holds the lot on auction and the bid form together.
    page = t.page("Ben")
    act = page[page.index('id="ctc-act"') :]
    assert act.index("ctc-lot") < act.index('id="ctc-bid-form"')


def test_forms_leave_every_limit_to_the_rules(t):
    pages = [t.page("Anna")]
    enter_cards(t, ROUND_ONE)
    pages.append(t.page("Anna"))
    for page in pages:
        for form in re.findall(r"<form[^>]*>", live(page)):
            assert "novalidate" in form, form
        for tag in re.findall(r"<input[^>]*>", live(page)):
            assert not re.search(r"\b(max|min|required|pattern)\b", tag), tag
    # A bid above the money is the app's own refusal, with its rule and "you".
    response = t.refused("Anna", "bid", "You hold 100 pounds", rule="bid-range", amount=150)
    assert "You hold 100 pounds: bid a whole number from 0 to 100." in alert_text(response.text)


def live(page: str) -> str:
    return page[page.index('id="game-panel"') :]


def test_refusals_about_oneself_say_you(t):
    enter_cards(t, ROUND_ONE)
    t.act("Anna", "bid", amount=5)
    t.refused("Anna", "bid", "You have already bid in this phase.", rule="bid-once", amount=5)


def test_the_price_of_each_way_to_cross_is_worked_out_in_words(app):
    with app.test_request_context():
        check_explanations()


def check_explanations():
    plans = g.crossing_choices("river", 4, 2, 50)
    words = [[render(m) for m in g.explain_plan(p, 4)] for p in plans]
    assert words[0] == [
        "The river needs 10 tracks.",
        "Track symbols that count: 4, so 6 tracks are missing.",
        "Bonus tracks spent: 2; still missing: 4.",
        "Tracks bought: 4 × £10 = £40.",
    ]
    assert words[2][2:] == ["Tracks bought: 6 × £10 = £60."]
    free = g.crossing_plan("savanna", 7, 0, 0)
    assert [render(m) for m in g.explain_plan(free, 7)] == [
        "The savanna needs 6 tracks.",
        "Track symbols that count: 7, enough on their own.",
    ]
    one = g.crossing_plan("savanna", 5, 1, 0)
    assert [render(m) for m in g.explain_plan(one, 5)][1:] == [
        "Track symbols that count: 5, so 1 track is missing.",
        "Bonus tracks spent: 1; still missing: 0.",
        "Nothing to buy: this way costs no money.",
    ]


def render(msg: Msg) -> str:
    from companion.i18n import render_msg

    return render_msg(msg)


def test_the_panel_and_the_calculator_explain_a_crossing_with_the_same_lines(app, t):
    to_building(t)
    t.act("host", "turn_up", marks=3)  # Anna: river, 3 turned up + 1 on her row
    panel = t.page("Anna")
    why = panel[panel.index('class="ctc-why"') :].split("</details>")[0]
    assert "How is the price worked out?" in visible(why)
    # First which symbols count now (the panel knows the pile and the row), then the lines.
    assert "Symbols that count now: 4 (3 turned up, 1 on your row)." in visible(why)
    lines = [visible(li) for li in re.findall(r"<li>(.*?)</li>", why)]
    assert lines == [
        "The river needs 10 tracks.",
        "Track symbols that count: 4, so 6 tracks are missing.",
        "Tracks bought: 6 × £10 = £60.",
    ]
    calc = t.host.get("/tools/cape_to_cairo/?terrain=river&marks=4&bonus=0&money=63").text
    calc_why = calc[calc.index('class="ctc-why"') :].split("</details>")[0]
    assert [visible(li) for li in re.findall(r"<li>(.*?)</li>", calc_why)] == lines
    # The calculator, too, leaves its limits to its own messages (its forms are novalidate, so
    # the min/max that WTForms renders only shape the phone's number keys and spinner).
    forms = re.findall(r'<form[^>]*id="(?:crossing|bids)-form"[^>]*>', calc)
    assert len(forms) == 2 and all("novalidate" in f for f in forms)
    # The others see whose turn it is, no choices to explain.
    assert 'class="ctc-why"' not in t.page("Ben")


def test_the_bids_fold_away_once_the_cards_are_chosen(t):
    enter_cards(t, ROUND_ONE)
    bid_all(t, (37, 30, 20))
    assert re.search(r'id="ctc-bids">\s*<details open>', t.page("Ben"))
    t.act("Anna", "take", card=0)
    t.act("Ben", "take", card=1)
    assert re.search(r'id="ctc-bids">\s*<details>', t.page("Ben"))

"""Kahuna through Flask's test client: the board page, every form with good and bad input, the
card question, the Arabana option, round scoring, the control checker and the rules page.

Seat 0 is White's phone, seat 1 Black's (the tables start without typed names, so the seats
carry the game's labels)."""

from __future__ import annotations

import json
import re
from html import unescape

import pytest
from flask import url_for

from companion import get_db, tables
from companion.games.kahuna import rules as k
from companion.games.kahuna.drawing import WIDTH, drawing, island_xy
from companion.games.kahuna.web import ADAPTER, Board, act_links, site_link_pattern
from tests.helpers import HX, alert_text, csrf_from, rule_link, take_seat, version_of
from tests.kahuna.helpers import drive, finish_round, reveal_pending, sheet

WHITE, BLACK = 0, 1


@pytest.fixture
def table(make_table):
    """A Kahuna table: the host, White's phone and Black's phone, the face-up cards entered."""
    driver = make_table("kahuna", ("", ""))
    for island in ("Coco", "Gola", "Lale"):
        driver.act(WHITE, "reveal", island=island)
    return driver


# --- the page -----------------------------------------------------------------------------------


def test_each_phone_sees_the_board_with_27_named_sites_and_12_islands(table):
    page = table.page(WHITE)
    assert page.count('<a class="k-site') == 27
    assert 'aria-label="Bridge site Aloa–Bari, free"' in page
    assert len(re.findall(r'<g class="k-island[ "]', page)) == 12
    assert "Elai. Sites: 6. Bridges to hold it: 4. White 0, Black 0; held by nobody" in page
    # The page's one sheet holds kahuna.css (bundle_css), its one script kahuna.js (bundle_js).
    assert "/static/games/kahuna/table.css" in page and "/static/games/kahuna/table.js" in page
    assert "/static/games/kahuna/kahuna.js" not in page and "/static/js/app.js" not in page
    assert "Your turn." in page and "Take Coco (face up)" in page
    # Under it, what White may enter now (Rules.prompt): the 3 cards in hand bound the play.
    assert (
        '<p class="prompt" id="prompt">Play up to 3 cards, then draw or end the turn.</p>' in page
    )
    black = table.page(BLACK)
    assert black.count('<a class="k-site') == 27 and "Waiting for White to play." in black
    assert 'id="prompt"' not in black  # nothing to enter while White plays
    assert "Take Coco (face up)" not in black
    # The host's table view shows the board without links and offers to act for White.
    host = table.page("host")
    assert '<a class="k-site' not in host and host.count('role="img" aria-label="Bridge site') == 27
    assert "Act for White" in host


def test_the_face_up_cards_are_entered_by_any_phone_with_an_island_picker(make_table):
    table = make_table("kahuna", ("", ""), phones=False)
    black = table.app.test_client()  # only Black's phone has joined
    take_seat(black, table.code, BLACK)
    page = table.page(black)
    assert "Turn up a card" in page and page.count('name="island" value=') == 12
    # Every phone, and the table, is told how many to enter; said once, the panel leaves it out.
    assert '<p class="prompt" id="prompt">Turn up 3 cards and enter their islands.</p>' in page
    assert "Turn the top card" not in page and "Waiting for the face-up cards" not in page
    assert "Turn up 3 cards and enter their islands." in table.page("host")
    response = table.act(black, "reveal", island="Aloa")
    assert "Face-up card entered: Aloa" in response.text
    table.act(black, "reveal", island="Aloa")
    page = table.page(black)
    assert re.search(r'value="Aloa" class="secondary" disabled', page)
    assert "Both cards already seen: Aloa." in page
    # Bad input: a third Aloa, an unknown island, nothing at all, a very long name.
    before = table.state()
    for island, text, rule in [
        ("Aloa", "Both Aloa cards are already accounted for", "card-count"),
        ("Atlantis", "Atlantis is not an island", "island-unknown"),
    ]:
        response = table.refused(black, "reveal", text, rule=rule, island=island)
        assert response.status_code == 422
    for fields in ({}, {"island": ""}, {"island": "x" * 500}):
        response = table.refused(black, "reveal", "", **fields)
        assert response.status_code == 422 and alert_text(response.text)
    assert table.state() == before


def test_tapping_a_site_asks_for_the_card_and_offers_only_legal_ones(table):
    white = table.device(WHITE)
    response = white.get(f"/t/{table.code}/?site=Iffi-Lale", headers=HX)
    assert response.status_code == 200
    question = sheet(response.text)
    assert "Bridge site Iffi–Lale: free" in question and "Which card did you play" in question
    assert "Card Iffi" in question and "Card Lale" in question
    assert 'aria-label="Bridge site Iffi–Lale, free" aria-current="true"' in response.text
    # Site names are forgiving (order, case) and unknown ones are explained.
    assert "Bridge site Iffi–Lale" in sheet(table.page(WHITE, "?site=lale-iffi"))
    for bad, text in [
        ("Aloa-Lale", "No bridge site joins Aloa and Lale"),
        ("Nowhere", "is not a bridge site"),
        ("x" * 300, "is not a bridge site"),
        ("", None),
    ]:
        question = sheet(table.page(WHITE, f"?site={bad}"))
        if text is None:
            assert question == ""
        else:
            assert text in question
            assert "#site-unknown" in question or "#island-unknown" in question
    # Black may look, but it is not Black's turn: the reason and the rule link.
    question = sheet(table.page(BLACK, "?site=Iffi-Lale"))
    assert "It is not your turn: White plays now." in question and "#turn-order" in question
    assert "Card Iffi" not in question
    # The card question is this phone's own: Black's page never shows White's.
    assert "Which card did you play" not in table.page(BLACK)


def test_a_card_that_cannot_be_in_the_hand_is_refused_with_its_reason(table):
    # Both Lale cards out of reach: one is face up; White plays the other, then asks for a third.
    table.act(WHITE, "place", site="Iffi-Lale", card="Lale")
    question = sheet(table.page(WHITE, "?site=Huna-Lale"))
    assert "Card Huna" in question and "Card Lale" not in question
    assert "Not Lale:" in question and "There are only 2 Lale cards" in question
    assert "#card-count" in question


def test_building_taking_an_island_highlights_and_writes_the_history(table):
    for site, card in [("Elai-Huna", "Elai"), ("Duda-Elai", "Duda")]:
        assert table.act(WHITE, "place", site=site, card=card).status_code == 200
    table.act(WHITE, "draw", source="deck")
    for site, card in [("Elai-Faaa", "Faaa"), ("Elai-Jojo", "Jojo")]:
        table.act(BLACK, "place", site=site, card=card)
    table.act(BLACK, "draw", source="deck")
    table.act(WHITE, "place", site="Bari-Elai", card="Bari")
    response = table.act(WHITE, "place", site="Elai-Iffi", card="Iffi")
    page = response.text
    assert "White took Elai: black bridges Elai–Faaa and Elai–Jojo destroyed." in page
    assert 'class="k-island gained white"' in page
    for key in ("Elai-Faaa", "Elai-Jojo"):
        name = key.replace("-", "–")
        assert re.search(
            rf'aria-label="Bridge site {name}, free">(?:(?!</a>).)*k-fx-destroyed', page, re.S
        )
    assert 'class="k-site white played"' in page and 'data-play="' in page
    assert table.state()["last_changes"]["destroyed"] == ["Elai-Faaa", "Elai-Jojo"]
    # Black removes Elai-Huna with two cards: White loses Elai.
    table.act(WHITE, "draw", source="deck")
    question = sheet(table.page(BLACK, "?site=Elai-Huna"))
    assert "Which two cards did you play to remove this bridge?" in question
    assert "Cards Elai + Huna" in question and "Cards Huna + Huna" in question
    assert "Not Elai + Elai:" in question
    response = table.act(BLACK, "remove", site="Elai-Huna", first="Elai", second="Huna")
    assert "Black removed the white bridge on Elai–Huna (cards Elai and Huna)." in response.text
    assert "White lost Elai" in response.text and 'class="k-island lost"' in response.text
    # Every phone's history says the same.
    assert "White took Elai: black bridges Elai–Faaa and Elai–Jojo destroyed." in table.page("host")


@pytest.mark.parametrize(
    "action,fields,text,rule",
    [
        (
            "place",
            {"site": "Aloa-Bari", "card": "Coco"},
            "A Coco card builds only on a site touching Coco",
            "place-card",
        ),
        ("place", {"site": "Aloa-Bari", "card": "Zzz"}, "Zzz is not an island", "island-unknown"),
        ("place", {"site": "Aloa-Zzz", "card": "Aloa"}, "Zzz is not an island", "island-unknown"),
        ("place", {"site": "Aloa", "card": "Aloa"}, "Aloa is not a bridge site", "site-unknown"),
        ("place", {"site": "Aloa-Bari"}, "Say which card was played.", None),
        ("place", {"card": "Aloa"}, "Tap a bridge site on the board first.", None),
        (
            "place",
            {"site": "Aloa-Bari", "card": "A" * 300},
            "Field cannot be longer than 40 characters",
            None,
        ),
        (
            "remove",
            {"site": "Aloa-Bari", "first": "Aloa", "second": "Bari"},
            "Site Aloa–Bari is free",
            "remove-opponent",
        ),
        (
            "remove",
            {"site": "Aloa-Bari", "first": "Aloa"},
            "Say which two cards were played.",
            None,
        ),
        ("discard", {"count": "abc"}, "Not a valid integer value", None),
        ("discard", {"count": "9"}, "a number from 1 to 5", None),
        ("discard", {"count": "0"}, "a number from 1 to 5", None),
        ("discard", {"count": "-1"}, "a number from 1 to 5", None),
        ("discard", {"count": "4"}, "Discard between 1 and 3 cards", "discard"),
        ("discard", {}, "Say how many cards were discarded", None),
        ("draw", {"source": "sky"}, "Draw from the deck or from the face-up cards.", "draw"),
        (
            "draw",
            {"source": "display", "island": "Aloa"},
            "Aloa is not face up; the face-up cards are Coco, Gola, Lale",
            "draw",
        ),
        ("draw", {"source": "display"}, "None is not an island", "island-unknown"),
        ("draw", {}, "Say where the card was drawn from.", None),
        (
            "set_option",
            {"arabana": "on"},
            "Only the host's device can enter this.",
            "arabana",
        ),
    ],
)
def test_bad_input_is_refused_in_the_page_and_nothing_is_stored(table, action, fields, text, rule):
    version = table.version()
    response = table.refused(WHITE, action, text, rule=rule, **fields)
    assert response.status_code == 422
    if rule is None:  # the form refused it: no rule of the game, no link
        assert rule_link(response.text) is None
    assert version_of(response.text) == version


def test_the_wrong_seat_and_the_wrong_phase_are_refused(table):
    for action, fields in [
        ("place", {"site": "Aloa-Bari", "card": "Aloa"}),
        ("draw", {"source": "deck"}),
        ("end_turn", {}),
        ("discard", {"count": "1"}),
    ]:
        response = table.refused(
            BLACK, action, "It is not your turn: White plays now.", rule="turn-order", **fields
        )
        assert response.status_code == 422
    # Wrong phase: discarding after a card was played, drawing with a face-up card to enter.
    table.act(WHITE, "place", site="Aloa-Bari", card="Aloa")
    table.refused(
        WHITE, "discard", "discarding face down is only for a turn without playing", count="1"
    )
    table.act(WHITE, "draw", source="display", island="Coco")
    response = table.refused(
        BLACK, "draw", "First enter the face-up card just turned over", rule="reveal", source="deck"
    )
    assert "Turn up a card" in response.text
    # A reveal when none is waiting.
    table.act(BLACK, "reveal", island="Huna")
    table.refused(BLACK, "reveal", "No face-up card is waiting to be entered.", island="Iffi")


def test_declining_to_draw_obliges_the_opponent(table):
    response = table.act(WHITE, "end_turn")
    assert "White ended the turn without drawing" in response.text
    assert "Black must draw next turn" in response.text
    page = table.page(BLACK)
    assert "White did not draw, so Black must draw this turn." in page
    assert "End the turn without drawing" not in page
    table.refused(
        BLACK, "end_turn", "did not draw, so you must draw a card this turn", rule="must-draw"
    )


def test_a_full_hand_must_discard_before_drawing(table):
    for seat in (WHITE, BLACK, WHITE, BLACK):
        assert "drew the top card" in table.act(seat, "draw", source="deck").text
    page = table.page(WHITE)  # White holds 5 now
    assert re.search(r"Cards in hand</th><td class=\"num\">5<", page)
    assert "Draw from the deck" not in page
    assert "You hold 5 cards: to draw, first discard at least one face down." in page
    table.refused(
        WHITE, "draw", "You hold 5 cards, the most allowed", rule="hand-limit", source="deck"
    )
    response = table.act(WHITE, "discard", count="2")
    assert "White discarded 2 cards face down" in response.text


def test_stale_version_and_missing_csrf_store_nothing(table):
    stale = table.version()
    table.act(WHITE, "place", site="Aloa-Bari", card="Aloa")
    before = table.state()
    response = table.refused(
        WHITE, "place", "The table changed", version=stale, site="Aloa-Duda", card="Aloa"
    )
    assert response.status_code == 409
    snapshot = table.snapshot()
    response = table.post(WHITE, "place", csrf=False, site="Aloa-Duda", card="Aloa")
    assert response.status_code == 400 and "This form has expired" in response.text
    assert table.snapshot() == snapshot
    response = table.post(WHITE, "place", version="not a number", site="Aloa-Duda", card="Duda")
    assert response.status_code == 200  # no version: applied as the rules allow
    assert table.state()["bridges"] == {**before["bridges"], "Aloa-Duda": "white"}
    # A stranger without a seat cannot act.
    stranger = table.app.test_client()
    csrf = csrf_from(table.page(WHITE))
    response = stranger.post(f"/t/{table.code}/act/end_turn", data={"csrf_token": csrf})
    assert response.status_code in (400, 403)


def test_plain_form_posts_work_without_htmx(table):
    response = table.post(WHITE, "place", htmx=False, site="Aloa-Bari", card="Aloa")
    assert response.status_code == 302
    page = table.device(WHITE).get(response.headers["Location"]).text
    assert "White built a bridge on Aloa–Bari (card Aloa)." in page
    # Tapping a site without htmx is an ordinary link to the whole page with the question.
    page = table.page(WHITE, "?site=Aloa-Duda")
    assert "<html" in page and "Which card did you play" in page


def test_the_host_sets_the_arabana_option_before_the_first_turn_action(table):
    page = table.page("host")
    assert "Arabana is off." in page and "Switch Arabana on" in page
    assert "Switch Arabana on" not in table.page(WHITE)
    table.refused("host", "set_option", "The Arabana option is on or off.", arabana="maybe")
    response = table.act("host", "set_option", arabana="on")
    assert "Table option Arabana switched on" in response.text and "Arabana is on." in response.text
    assert table.state()["options"] == {"arabana": True}
    drive(
        table,
        [
            {"type": "place", "seat": 0, "site": "Aloa-Bari", "card": "Aloa"},
            {"type": "place", "seat": 0, "site": "Aloa-Duda", "card": "Duda"},
            {"type": "draw", "seat": 0, "source": "deck"},
        ],
    )
    # White holds Aloa: with Arabana, Black may not build on Aloa-Huna.
    question = sheet(table.page(BLACK, "?site=Aloa-Huna"))
    assert "Table option Arabana: no bridge may touch Aloa while white controls it." in question
    assert "#arabana" in question
    page = table.page("host")
    assert "Switch Arabana" not in page and "Table option Arabana is on" in page
    table.refused("host", "set_option", "only change before the first turn action", arabana="off")


def test_round_end_scoring_is_shown_as_a_clear_message(table):
    drive(
        table,
        [
            {"type": "place", "seat": 0, "site": "Aloa-Bari", "card": "Aloa"},
            {"type": "place", "seat": 0, "site": "Aloa-Duda", "card": "Duda"},
        ],
    )
    finish_round(table)
    page = table.page(WHITE)
    assert "Round 1 is over" in page
    assert "Round 1 scored: islands held: White 1, Black 0" in page
    assert "White scored 1 point" in page
    first = k.SEAT_LABELS[table.state()["turn"]]
    assert f"Turn up 3 cards for round 2: {first} plays first." in page
    assert "Round 2 of 3" in page
    # Round 2 and 3, then the last turns and the result.
    for _ in range(3):
        s = reveal_pending(table)
        if s["over"]:
            break
        finish_round(table)
        s = table.state()
        if s["final_turns"] is not None:
            page = table.page(WHITE)
            assert "No cards left to draw: each player has one last turn" in page
            # The panel says whose last turn it is: the other player, then the one who drew last.
            first, second = k.SEAT_LABELS[s["turn"]], k.SEAT_LABELS[1 - s["turn"]]
            assert f"Now {first}'s last turn, then {second}'s." in unescape(page)
            drive(table, [{"type": "end_turn", "seat": s["turn"]}])
            s = table.state()
            page = table.page(WHITE)
            assert f"Now {second}'s last turn, then round 3 is scored." in unescape(page)
            while not s["over"]:
                drive(table, [{"type": "end_turn", "seat": s["turn"]}])
                s = table.state()
            break
    page = table.page(WHITE)
    assert "Game over" in page
    assert "White wins with 4 points to 0." in page
    assert '<a class="k-site' not in page  # nothing more to tap


def test_the_state_stored_for_a_table_keeps_translatable_lines(table):
    """History lines keep their msgid (stored as Msg.to_json), the state holds plain data only."""
    table.act(WHITE, "place", site="Aloa-Bari", card="Aloa")
    with table.app.app_context():
        db = get_db()
        stored = tables.get_table(db, table.code)
        raw = db.execute("SELECT state FROM tables WHERE id = ?", [stored.id]).fetchone()[0]
        lines = db.execute(
            "SELECT lines FROM events WHERE table_id = ? ORDER BY seq DESC LIMIT 1", [stored.id]
        ).fetchone()[0]
    assert json.loads(raw)["last_changes"]["site"] == "Aloa-Bari"
    assert json.loads(lines)[0]["id"] == "%(seat)s built a bridge on %(site)s (card %(card)s)."
    page = table.device(WHITE).get(f"/t/{table.code}/", headers={"Accept-Language": "ja"}).text
    assert "Aloa–Bari" in page and "built a bridge" not in page


# --- the control checker --------------------------------------------------------------------------


def test_the_checker_starts_empty_and_each_site_links_to_its_next_state(client):
    page = client.get("/tools/kahuna/")
    assert page.status_code == 200
    assert page.text.count('<a class="k-site') == 27
    assert 'href="/tools/kahuna/?white=Aloa-Bari"' in page.text
    assert "Bridge site Aloa–Bari, free: tap for a White bridge" in page.text
    assert "Round 1: nobody scores (equal islands)" in page.text
    assert "/tools/kahuna/" in client.get("/tools/").text


def test_a_tap_on_the_checkers_board_goes_to_the_nearest_sites_position(client):
    # kahuna.js adds the tap's place to the board's data-tap: the answer is the position that
    # site's link gives (Aloa-Bari's middle is at 109, 63.5), or the same one where it met none.
    page = client.get("/tools/kahuna/?white=Duda-Elai").text
    assert 'data-tap="/tools/kahuna/?white=Duda-Elai&amp;tap="' in page
    tapped = client.get("/tools/kahuna/?white=Duda-Elai&tap=109,50")
    assert tapped.status_code == 302
    assert tapped.headers["Location"] == "/tools/kahuna/?white=Aloa-Bari,Duda-Elai"
    x, y = island_xy("Gola")
    missed = client.get(f"/tools/kahuna/?white=Duda-Elai&tap={x},{y}")
    assert missed.headers["Location"] == "/tools/kahuna/?white=Duda-Elai"
    assert 'data-tap="/tools/kahuna/?tap="' in client.get("/tools/kahuna/").text


def test_the_checker_reports_control_and_round_points(client):
    white = "Elai-Huna,Duda-Elai,Bari-Elai,Elai-Iffi,Aloa-Bari,Aloa-Duda,Aloa-Huna,Huna-Iffi"
    page = client.get(f"/tools/kahuna/?white={white}&black=Faaa-Jojo,Faaa-Gola,Coco-Faaa").text
    assert re.search(r'id="k-held-white">3<', page) and re.search(r'id="k-held-black">1<', page)
    for expected in ("Round 1: White +1", "Round 2: White +2", "Round 3: White +2"):
        assert expected in page
    row = re.search(r'<tr data-island="Elai">(.*?)</tr>', page, re.S).group(1)
    assert ">6<" in row and ">4<" in row and "White" in row
    # Cycling: a white bridge's link makes it black, a black bridge's link frees it.
    assert (
        'href="/tools/kahuna/?white=Aloa-Bari,Aloa-Duda,Aloa-Huna,Bari-Elai,Duda-Elai,'
        'Elai-Iffi,Huna-Iffi&amp;black=Coco-Faaa,Elai-Huna,Faaa-Gola,Faaa-Jojo"'
    ) in page
    assert "Bridge site Faaa–Gola, Black bridge: tap to make it free" in page
    assert "k-stone white" in page and "k-stone black" in page


@pytest.mark.parametrize(
    "query,text",
    [
        ("white=Atlantis-Bari", "Atlantis is not an island"),
        ("white=Aloa-Lale", "No bridge site joins Aloa and Lale"),
        ("black=Aloa", "Aloa is not a bridge site"),
        ("white=Aloa-Bari&black=Bari-Aloa", "Site Aloa–Bari was given both colours"),
        ("white=" + "Aloa-Bari," * 300, "The list of white bridges is too long."),
        ("white=%00%ff", "is not a bridge site"),
    ],
)
def test_the_checker_explains_bad_input(client, query, text):
    response = client.get(f"/tools/kahuna/?{query}")
    assert response.status_code == 422  # the page again with what is wrong
    assert text in unescape(response.text)
    assert '<a class="k-site' in response.text  # the board is still there to tap


def test_the_checker_warns_about_impossible_positions(client):
    every = ",".join(k.site_key(s) for s in k.SITES)
    page = client.get(f"/tools/kahuna/?white={every}")
    assert page.status_code == 200
    assert "white has 27 bridges on the board, more than the 25 in the box." in page.text
    assert "white holds 12 islands, more than its 10 Kahuna stones can mark." in page.text


# --- the rules page -------------------------------------------------------------------------------


def test_the_rules_page_has_an_entry_for_every_rule_and_reading(client):
    page = client.get("/rules/kahuna").text
    ids = re.findall(r'id="([\w-]+)"', page)
    for rule in list(k.RULES) + list(k.CLARIFICATIONS):
        assert rule in ids, rule
    assert len(ids) == len(set(ids)), "duplicate ids"
    for phrase in (
        "strictly more than half of ALL",
        "One bridge counts for both islands",
        "Nothing goes further",
        "Arabana",
        "obliges the opponent to draw",
        "one more turn",
        "if neither did, the player with more bridges on the board",
    ):
        assert phrase in unescape(page), phrase


def first_game(page: str) -> list[str]:
    """The steps of "Your first game" on a rules page, as text."""
    section = page[page.index('<section class="first-game">') :]
    section = section[: section.index("</section>")]
    return [unescape(step) for step in re.findall(r"<li>(.*?)</li>", section, re.S)]


def test_the_rules_page_opens_with_a_first_game_in_the_rule_texts_numbers(client):
    page = client.get("/rules/kahuna").text
    assert page.index("Your first game") < page.index('id="board"')  # before the first rule
    steps = first_game(page)
    assert steps == list(k.GAME.first_game) and 5 <= len(steps) <= 7
    text = " ".join(steps)
    for fact in (
        f"{k.BRIDGES_PER_COLOUR} bridges and {k.STONES_PER_COLOUR} Kahuna stones",
        f"deal {k.START_HAND} cards each and turn {k.DISPLAY_SIZE} face up",
        f"White starts. Play up to {k.MAX_CARDS_PER_TURN} cards",
        f"Hand: at most {k.HAND_LIMIT}",
        f"{k.ROUND_POINTS[1]} point (round 1), {k.ROUND_POINTS[2]} (round 2)",
    ):
        assert fact in text, fact
    for lang, word in (("ja", "カフナストーン10個"), ("ru", "10 камней Кахуны")):
        steps = first_game(client.get("/rules/kahuna", headers={"Accept-Language": lang}).text)
        assert len(steps) == len(k.GAME.first_game) and word in steps[0], lang


@pytest.mark.parametrize("lang,words", [("ja", ["予定地", "支配"]), ("ru", ["мост", "остров"])])
def test_kahuna_pages_are_translated(table, lang, words):
    headers = {"Accept-Language": lang}
    for url in (f"/t/{table.code}/?site=Aloa-Bari", "/tools/kahuna/", "/rules/kahuna"):
        page = table.device(WHITE).get(url, headers=headers).text
        for word in words:
            assert word in page, (url, word)


@pytest.mark.parametrize(
    "lang,unsure,order",
    [
        ("en", "unconfirmed", ["round 3", "more bridges", "draw"]),
        ("ja", "未確認", ["第3ラウンド", "橋", "引き分け"]),
        ("ru", "не подтвержд", ["3-м раунде", "мостов", "ничья"]),
    ],
)
def test_the_winner_tie_break_is_the_rule_texts_not_an_unconfirmed_guess(
    client, lang, unsure, order
):
    """Rule "winner": the rule text itself breaks equal points by the round-3 scorer, then by
    more bridges built at the end, else a draw. The page states it without calling it
    unconfirmed, in every language."""
    page = unescape(client.get("/rules/kahuna", headers={"Accept-Language": lang}).text)
    winner = page[page.index('id="winner"') :]
    winner = winner[: winner.index("</section>")]
    assert unsure not in winner.lower()
    positions = [winner.find(word) for word in order]
    assert -1 not in positions and positions == sorted(positions), (winner, positions)
    # Printed rule text, so stated as the rule (its summary), not as one of our readings.
    assert "k-reading" not in winner and "winner" not in k.CLARIFICATIONS
    readings = page[page.index("<nav") : page.index("</nav>")]
    assert 'href="#winner"' not in readings


def test_the_host_acting_for_a_seat_taps_sites_for_that_seat(table):
    code = table.code
    page = table.page("host", "?as=0")
    assert (
        f'href="/t/{code}/?site=Aloa-Bari&amp;as=0"' in page
        or f'href="/t/{code}/?as=0&amp;site=Aloa-Bari"' in page
    )
    assert '<input type="hidden" name="as" value="0">' in page  # the list form keeps "act as"
    assert 'name="site"' in page and '<optgroup label="free"><option>Aloa–Bari</option>' in page
    # The list sends an option's text, "Aloa–Bari", as the site: the same question.
    assert sheet(table.page("host", "?as=0&site=Aloa–Bari")) == sheet(
        table.page("host", "?as=0&site=Aloa-Bari")
    )
    question = sheet(table.page("host", "?as=0&site=Aloa-Bari"))
    # A tap on the board sends its place (kahuna.js, the board's data-tap): the same question.
    assert f'data-tap="/t/{code}/?as=0&amp;tap="' in page
    assert sheet(table.page("host", "?as=0&tap=109,50")) == question
    x, y = island_xy("Gola")
    assert sheet(table.page("host", f"?as=0&tap={x},{y}")) == ""  # an island's core: nobody's
    assert "Card Aloa" in question and f"/t/{code}/act/place?as=0" in question
    response = table.act("host", "place", "?as=0", site="Aloa-Bari", card="Bari")
    assert "White built a bridge on Aloa–Bari (card Bari)." in response.text
    assert table.state()["bridges"] == {"Aloa-Bari": "white"}
    # In the list the site now stands in its own group, after the free ones.
    listed = table.page("host", "?as=0")
    free, white = listed.index('<optgroup label="free">'), listed.index('<optgroup label="White')
    assert (
        free < white
        and '<optgroup label="White bridge"><option>Aloa–Bari</option></optgroup>' in listed
    )
    assert 'Black bridge"><option>' not in listed  # no empty group


@pytest.mark.parametrize("args", [{}, {"as": 1}, {"as": 0, "reveal": "1"}])
def test_each_sites_link_is_the_address_url_for_builds(app, args):
    """The board puts each site's key into one built address: the same as url_for's, site by
    site; the board is the drawing of its position. The turn's buttons' addresses likewise."""
    bridges, changes = {"Aloa-Bari": "white"}, {"site": "Aloa-Bari"}
    with app.test_request_context("/"):
        board = Board(bridges, changes, "Coco-Gola", links=site_link_pattern("ABCD234", args))
        expected = {
            k.site_key(s): url_for("table.page", code="ABCD234", **args, site=k.site_key(s))
            for s in k.SITES
        }
        tap = url_for("table.page", code="ABCD234", **args, tap="")
    links = {s["key"]: s["href"] for s in board.sites}
    assert links == expected and links["Aloa-Bari"].endswith("site=Aloa-Bari")
    # A tap's place is added to the same address, at its end (kahuna.js: ?tap=x,y).
    assert board.tap == tap and tap.endswith("tap=")
    assert board.drawn == drawing(bridges, expected.get, changes, selected="Coco-Gola")
    assert board.width == WIDTH and Board(bridges, changes, None, None).sites[0]["href"] is None
    with pytest.raises(AttributeError):
        board.no_such_part  # noqa: B018
    with app.test_request_context("/"):
        posts = act_links("ABCD234", args)
        for kind in ADAPTER.forms:
            assert posts(kind) == url_for("table.act", code="ABCD234", action_type=kind, **args)


def _drawn_points(key: str, steps: int = 48) -> list[tuple[float, float]]:
    """Points along a site as the board draws it (straight, or the quadratic curve of its path)."""
    from companion.games.kahuna import drawing as pk

    a, b = key.split("-")
    path, _, _ = pk.site_path(a, b)
    numbers = [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", path)]
    if "Q" in path:
        (x1, y1, cx, cy, x2, y2) = numbers
    else:
        (x1, y1, x2, y2) = numbers
        cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
    return [
        (
            (1 - t) ** 2 * x1 + 2 * (1 - t) * t * cx + t * t * x2,
            (1 - t) ** 2 * y1 + 2 * (1 - t) * t * cy + t * t * y2,
        )
        for t in (i / steps for i in range(steps + 1))
    ]


def test_the_drawn_sites_never_cross_nor_run_over_a_third_island():
    """The printed board is drawn without crossings. Coco-Kahu used to bend west of Gola: it
    crossed Faaa-Gola and Gola-Jojo, grazed Jojo's rim, and its tap area covered the whole middle
    of Coco-Faaa, so that site could not be tapped at all. Every site must keep clear of the
    islands it does not join (radius + half a bridge + a margin) and stay inside the drawing."""
    import math

    from companion.games.kahuna import drawing as pk

    def crosses(p, q, r, s):
        def turn(a, b, c):
            return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])

        return turn(p, q, r) * turn(p, q, s) < 0 and turn(r, s, p) * turn(r, s, q) < 0

    drawn = {k.site_key(s): _drawn_points(k.site_key(s)) for s in k.SITES}
    crossings = set()
    for one, line in drawn.items():
        for two, other in drawn.items():
            if one < two and not set(one.split("-")) & set(two.split("-")):
                if any(
                    crosses(line[i], line[i + 1], other[j], other[j + 1])
                    for i in range(len(line) - 1)
                    for j in range(len(other) - 1)
                ):
                    crossings.add((one, two))
    assert crossings == set()
    for key, line in drawn.items():
        for island in k.ISLANDS:
            if island in key.split("-"):
                continue
            gap = min(math.dist(p, pk.island_xy(island)) for p in line)
            assert gap >= pk.ISLAND_R + 12, (key, island, round(gap))
        assert all(6 <= x <= pk.WIDTH - 6 and 6 <= y <= pk.HEIGHT - 6 for x, y in line), key


def test_the_turn_panel_comes_first_with_named_buttons(table):
    """On White's turn the panel opens with White's controls (marked for the core's scrolling),
    then the board, then the standings; buttons that show a short label carry the whole name
    as a real attribute (it used to be rendered escaped, as text inside the tag)."""
    page = table.page(WHITE)
    turn = page.index("data-turn-panel>")
    assert turn < page.index('class="card k-board-card"') < page.index('class="card k-round"')
    draw = page[page.index('class="k-draw"') : page.index('class="card k-board-card"')]
    assert '<button type="submit" class="" aria-label="Take Coco (face up)">Coco</button>' in draw
    assert 'aria-label="Discard 2 cards face down">2</button>' in page
    assert "&#34;" not in page[turn : page.index('class="card k-board-card"')]
    assert "data-turn-panel" not in table.page(BLACK)


def test_the_rarer_choices_fold_away_only_while_a_draw_is_on_offer(table):
    page = table.page(WHITE)
    more = page[
        page.index('<details class="k-more"') : page.index("</section>", page.index("k-more"))
    ]
    assert "End the turn without drawing" in more and "Discard face down instead of playing" in more
    # The last turns of round 3: nothing to draw, so ending the turn is the way on, in plain view.
    state = table.state()
    state.update(round=3, final_turns=2, deck=0, display=[])
    table.set_state(state)
    page = table.page(WHITE)
    assert 'class="k-more"' not in page and "End the turn without drawing" in page
    assert "End the turn by drawing" not in page

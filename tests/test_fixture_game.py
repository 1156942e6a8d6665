"""The core with the tests' own game (Pebbles, tests/fixture_game): one whole game through the
table pages, every kind of entry (on turn, a seat's own, the host's, anyone's), the one private
value, the refusals and the result. No installed game is named here."""

from __future__ import annotations

import json
import re

from tests.helpers import alert_text, rule_link, visible

GAME = "pebbles"


def test_a_whole_game_through_the_pages(make_table):
    t = make_table(GAME, ("Anna", "Ben", "Chris"))
    # The host sets the pile (a host entry); a phone cannot.
    t.refused("Ben", "pile", "Only the host's device can enter this.", size=8)
    t.act("host", "pile", size=8)
    # Each seat writes its own secret; nobody else sees it.
    # Each phone says what it may enter now, with the game's numbers (Rules.prompt).
    assert "Take 1 to 3 pebbles." in visible(t.page("Anna"))
    assert "You may write down a secret number from 0 to 9" in visible(t.page("Ben"))
    t.act("Anna", "secret", number=2)
    t.act("Ben", "secret", number=9)
    assert "You may write down" not in visible(t.page("Ben"))
    assert "secret: 2" in visible(t.page("Anna"))
    for other in ("Ben", "Chris", "host"):
        assert "secret: 2" not in visible(t.page(other))
    assert "secret written" in visible(t.page("Chris"))
    # On turn: Anna takes; Ben may not take before his turn (refused with the game's words).
    response = t.refused("Ben", "take", "It is Anna's turn.", n=1)
    assert rule_link(response.text) == "turn"
    t.act("Anna", "take", n=2)
    # Anyone: Chris enters the pebble that fell from Ben's heap... Ben has none yet: refused.
    t.refused("Chris", "drop", "Ben has no pebble that could have fallen.")
    t.act("Ben", "take", n=3)
    t.act("Chris", "take", n=1)
    # Anna's turn now; Chris enters the pebble that fell from Anna's heap: the line says so.
    t.act("Chris", "drop")
    history = visible(t.page("Anna"))
    assert (
        "A pebble falls from Anna's heap back on the pile (pile: 3). (entered by Chris)" in history
    )
    # A secret is written before the first take only.
    t.refused("Chris", "secret", "Not any more", number=1)
    t.act("Anna", "take", n=1)
    t.act("Ben", "take", n=2)
    result = visible(t.page("Ben"))
    assert "The pile is empty." in result
    # Anna: 2 pebbles, her secret 2: 7 points; Ben: 5 (his secret was 9); Chris: 1.
    assert "secret: 2" in result and "secret: 9" in result and "Winner: Anna." in result


def test_a_refusal_keeps_what_was_typed_and_links_its_rule(make_table):
    t = make_table(GAME, ("Anna", "Ben"))
    response = t.refused("Anna", "take", "Take 1, 2 or 3 pebbles.", n=7)
    assert "Take 1, 2 or 3 pebbles." in alert_text(response.text)
    response = t.refused("Anna", "secret", "A number from 0 to 9.", number=12)
    assert 'value="12"' in response.text  # the box keeps the number typed


def test_the_export_withholds_an_undone_secret_once_the_game_is_over(make_table):
    t = make_table(GAME, ("Anna", "Ben"))
    t.act("Anna", "secret", number=7)
    page = t.page("Anna")
    t.device("Anna").post(
        f"/t/{t.code}/undo",
        data={"csrf_token": re.search(r'name="csrf_token" value="([^"]+)"', page).group(1),
              "version": re.search(r'data-version="(\d+)"', page).group(1)},
    )  # fmt: skip
    for seat, n in ((0, 3), (1, 3), (0, 3), (1, 3)):
        t.act(seat, "take", n=n)
    data = json.loads(t.host.get(f"/t/{t.code}/export.json").text)
    undone = [e for e in data["events"] if e["undone"]]
    assert undone and undone[0]["action"] == {
        "type": "secret",
        "seat": 0,
        "host": False,
        "withheld": True,
    }
    assert '"number"' not in json.dumps(undone)


def test_its_rules_are_searched_in_three_languages_from_its_table(make_table):
    t = make_table(GAME, ("Anna", "Ben"))
    for lang, question in (("en", "how many pebbles may I take"), ("ru", "сколько камешков брать")):
        t.host.set_cookie("lang", lang)
        page = t.host.get(f"/t/{t.code}/rules", query_string={"q": question}).text
        assert '/rules/pebbles#take"' in page, (lang, visible(page)[:300])


def test_its_rules_page_opens_with_your_first_game(client):
    page = client.get("/rules/pebbles").get_data(as_text=True)
    first = page.index("Your first game")
    assert first < page.index("Rules the app checks")
    assert "In seat order, take 1 to 3 pebbles on your turn." in visible(page)

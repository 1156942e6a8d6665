"""Taking the game home, as people do it on their phones (360 px wide): the summary's BG Stats
button and its QR code, which another phone's camera reads (decoded here with a real decoder; the
longest link there is, every seat of the largest game with a long name), the time per player,
the record's exports and a player page, in English, Japanese and Russian."""

from __future__ import annotations

import io
import random
from urllib.parse import unquote

import pytest
import zxingcpp
from PIL import Image
from playwright.sync_api import expect

from companion import db as database
from companion import tables
from companion.games import GAMES
from companion.games.base import RuleError
from companion.i18n import LANGUAGES
from tests.helpers import SMALL_PHONE, open_table, shot, speak

pytestmark = pytest.mark.browser

FIVE = ("Alexandra", "Bartholomew", "Christopher", "Dmitri Ivanov", "Emiko Tanaka")
# The longest link: the game that takes the most players (of those registered), every seat
# with a long name.
MOST = max(GAMES, key=lambda key: GAMES[key].max_players)


def finish(server, code: str) -> None:
    """Play the table's game to its end through the server's database, as the host enters it."""
    store = database.connect(server.database)
    try:
        table = tables.get_table(store, code)
        rng = random.Random(code)
        for _ in range(20_000):
            state = tables.state_of(store, table)
            if table.game.rules.result(state) is not None:
                return
            action = table.game.random_play.next_action(state, rng)
            try:
                tables.act(
                    store, table, action, seat=action.get("seat"), host=True, expected_version=None
                )
            except RuleError:
                pass
    finally:
        store.conn.close()
    raise AssertionError("the game did not end")


def scan(locator) -> str:
    """Screenshot an element and decode its QR code, as a phone camera would."""
    results = zxingcpp.read_barcodes(Image.open(io.BytesIO(locator.screenshot())))
    assert results, "the QR code could not be decoded"
    return results[0].text


def test_the_summary_logs_the_largest_game_in_bg_stats_with_a_tap_or_a_scan(server, phone):
    host = phone(viewport=SMALL_PHONE)
    names = FIVE[: GAMES[MOST].max_players]
    code = open_table(host, server, MOST, str(len(names)), names)
    # The host's browser sent its time zone with the new table: the play is dated by it.
    zone = host.evaluate("Intl.DateTimeFormat().resolvedOptions().timeZone")
    store = database.connect(server.database)
    try:
        assert tables.get_table(store, code).timezone == zone
    finally:
        store.conn.close()
    finish(server, code)
    for lang in LANGUAGES:  # the same play, read in each language
        speak(host, server, lang)
        host.goto(f"{server.url}/t/{code}/summary")
        expect(host.locator("html")).to_have_attribute("lang", lang)
        button = host.locator("#bgstats-link")
        expect(button).to_be_visible()
        link = button.get_attribute("href")
        assert link.startswith("bgstats://app.bgstatsapp.com/createPlay.html?data=")
        assert '"Alexandra"' in unquote(link)
        assert f'"name":"{GAMES[MOST].export_name}"' in unquote(link)
        qr = host.locator("#bgstats-qr")
        qr.scroll_into_view_if_needed()
        box = qr.bounding_box()
        assert box["width"] >= 280 and box["x"] >= 0 and box["x"] + box["width"] <= 360
        assert scan(qr) == link  # another phone's camera reads the whole link
        # Nothing wider than the phone: the page does not scroll sideways.
        assert host.evaluate("document.documentElement.scrollWidth") <= 360
        expect(host.locator("#summary-times")).to_be_visible()
        assert host.locator("#summary-times tbody tr").count() == len(names)
        shot(host, f"take-home-summary-{lang}")


def test_a_player_page_from_the_statistics(server, phone):
    host = phone(viewport=SMALL_PHONE)
    for _ in range(2):
        code = open_table(host, server, "pebbles", "4", FIVE[:4])
        finish(server, code)
        host.goto(f"{server.url}/t/{code}/summary")  # the summary records the play
    for lang in LANGUAGES:  # the same plays, read in each language
        speak(host, server, lang)
        host.goto(f"{server.url}/stats")
        expect(host.locator("html")).to_have_attribute("lang", lang)
        host.get_by_role("link", name="Dmitri Ivanov").first.click()
        expect(host.locator("#player-facts")).to_be_visible()
        expect(host.locator("#player-rivals tbody tr")).to_have_count(3)
        expect(host.locator("#player-plays li")).to_have_count(2)
        assert host.evaluate("document.documentElement.scrollWidth") <= 360
        shot(host, f"take-home-player-{lang}")
        host.goto(f"{server.url}/plays")
        expect(host.locator("#record-exports a")).to_have_count(2)
        with host.expect_download() as download:
            host.locator("#record-exports a").first.click()
        assert download.value.suggested_filename == "plays.bgsplay"
        shot(host, f"take-home-plays-{lang}")

"""The replay in a browser: stepping through a finished game at 360 px (one step, the ends, the
rounds, a player's next turn, the slider, the back button, the keyboard), without JavaScript,
the table display playing it by itself at 1920x1080 and following a phone's switch, and every
game's step in English, Japanese and Russian at phone and TV width (screenshots to look at).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

import pytest
from playwright.sync_api import expect

from companion import create_app, get_db, tables
from companion.games import GAMES
from companion.i18n import LANGUAGES
from tests.helpers import (
    SMALL_PHONE,
    TV,
    Server,
    in_first_screen,
    overflowing,
    play_to_end,
    serious_accessibility_problems,
    shot,
    speak,
)

pytestmark = pytest.mark.browser
NAMES = ("Anna", "Ben", "Chris", "Dora")


@dataclass
class Finished:
    code: str
    host: str  # the host's token (its cookie makes a browser the table's device)
    key: str  # a display link's key
    last: int  # the last step


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """A server with one finished game of every entry (notes and undone actions on the way)."""
    database = tmp_path_factory.mktemp("replay") / "replay.db"
    app = create_app(
        {
            "DATABASE": str(database),
            "SECRET_KEY": "browser-tests",
            "EXTRA_GAMES": ["tests.fixture_game"],
        }
    )
    games = {}
    with app.app_context():
        db = get_db()
        for key, info in GAMES.items():
            players = max(info.min_players, min(len(NAMES), info.max_players))
            table, host = tables.create_table(db, key, list(NAMES[:players]), [True] * players)
            display = tables.new_display_token(db, table)
            play_to_end(db, table, random.Random(f"browser-{key}"), note_at=(3,), undo_at=(6,))
            games[key] = Finished(table.code, host, display, tables.count_events(db, table))
    app.extensions["companion.db"].close()
    server = Server(database, env={"COMPANION_EXTRA_GAMES": "tests.fixture_game"})
    server.start()
    yield server, games
    server.kill()


@pytest.fixture
def screen(browser):
    """A factory of big screens (a TV, a computer): not a phone, no touch."""
    contexts = []

    def make(locale: str = "en-US", viewport: dict = TV):
        context = browser.new_context(viewport=viewport, locale=locale)
        context.set_default_timeout(10_000)
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()


def at_table(page, server, game: Finished) -> None:
    """This browser is the table's host device (as the phone that started it)."""
    page.context.add_cookies(
        [{"name": f"host_{game.code}", "value": game.host, "url": f"{server.url}/t/{game.code}/"}]
    )


def step_shown(page) -> int:
    return int(re.search(r"/replay/(\d+)", page.url).group(1))


def test_a_phone_steps_through_a_finished_game_at_360_px(finished, phone):
    server, games = finished
    game = games["pebbles"]
    page = phone(viewport=SMALL_PHONE)
    at_table(page, server, game)
    page.goto(f"{server.url}/t/{game.code}/replay/0")
    expect(page.locator("#replay-where")).to_contain_text(f"Step 0 of {game.last}")
    assert in_first_screen(page, "#replay-next") and in_first_screen(page, "#replay-what")
    assert overflowing(page) == []
    shot(page, "replay-pebbles-360-start", full_page=False)
    page.evaluate("window.notReloaded = true")
    page.locator("#replay-next").click()
    expect(page).to_have_url(re.compile(r"/replay/1$"))
    expect(page.locator("#replay-where")).to_contain_text(f"Step 1 of {game.last}")
    expect(page.locator("#replay-announce")).to_contain_text(f"Step 1 of {game.last}")
    page.locator("#replay-last").click()
    expect(page).to_have_url(re.compile(rf"/replay/{game.last}$"))
    expect(page.locator("#replay-what")).to_contain_text("takes")
    page.locator("#replay-first").click()
    expect(page).to_have_url(re.compile(r"/replay/0$"))
    # the rounds (Pebbles: before the first take, taking, the end) and a player's next turn
    target = page.locator("#replay-next-round").get_attribute("href")
    page.locator("#replay-next-round").click()
    expect(page).to_have_url(re.compile(re.escape(target) + "$"))
    expect(page.locator("#replay-where")).to_contain_text("Taking pebbles")
    turn = page.locator("#replay-turn-1")
    target = turn.get_attribute("href")
    turn.click()
    expect(page).to_have_url(re.compile(re.escape(target) + "$"))
    expect(page.locator("#replay-what .replay-lines")).to_contain_text("Ben takes")
    # the slider, then the back button (each step is its own address)
    page.locator("#replay-step-input").fill("5")
    expect(page).to_have_url(re.compile(r"/replay/5$"))
    expect(page.locator("#replay-where")).to_contain_text("Step 5 of")
    page.go_back()
    expect(page).to_have_url(re.compile(re.escape(target) + "$"))
    expect(page.locator("#replay-what .replay-lines")).to_contain_text("Ben takes")
    assert page.evaluate("window.notReloaded === true")  # htmx swapped the steps
    # the panel is the table's, read-only: nothing to enter
    assert page.locator("#game-panel form:visible, #game-panel button:visible").count() == 0
    shot(page, "replay-pebbles-360-step")


def test_an_undone_action_is_a_step_of_its_own(finished, phone):
    server, games = finished
    game = games["pebbles"]  # the sixth action was undone (the fixture `finished`)
    page = phone(viewport=SMALL_PHONE)
    at_table(page, server, game)
    page.goto(f"{server.url}/t/{game.code}/history")
    undone = page.locator("li.undone a").first
    undone.click()
    expect(page.locator("#replay-what-title")).to_have_text("Entered and undone")
    expect(page.locator("#replay-what del").first).to_be_visible()
    expect(page.locator("#replay-what del").first).to_contain_text("takes")
    shot(page, "replay-pebbles-360-undone", full_page=False)


def test_a_computer_steps_with_the_arrow_keys(finished, screen):
    server, games = finished
    game = games["pebbles"]
    middle = game.last // 2
    page = screen(viewport={"width": 1280, "height": 800})
    at_table(page, server, game)
    page.goto(f"{server.url}/t/{game.code}/replay/{middle}")
    page.keyboard.press("ArrowRight")
    expect(page).to_have_url(re.compile(rf"/replay/{middle + 1}$"))
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    expect(page).to_have_url(re.compile(rf"/replay/{middle - 1}$"))
    page.keyboard.press("End")
    expect(page).to_have_url(re.compile(rf"/replay/{game.last}$"))
    page.keyboard.press("Home")
    expect(page).to_have_url(re.compile(r"/replay/0$"))


def test_without_javascript_the_links_and_the_slider_still_work(finished, browser):
    server, games = finished
    game = games["pebbles"]
    context = browser.new_context(viewport=SMALL_PHONE, java_script_enabled=False)
    try:
        page = context.new_page()
        at_table(page, server, game)
        page.goto(f"{server.url}/t/{game.code}/replay/0")
        page.locator("#replay-next").click()
        expect(page).to_have_url(re.compile(r"/replay/1$"))
        expect(page.locator("#replay-where")).to_contain_text("Step 1 of")
        page.locator("#replay-show-all").click()
        expect(page).to_have_url(re.compile(r"/replay/1\?all=1$"))
        page.locator("#replay-step-input").fill("4")
        page.locator(".replay-go").click()
        expect(page).to_have_url(re.compile(r"/replay/4\?all=1$"))
        expect(page.locator("#replay-standings")).to_contain_text("Secret number")
    finally:
        context.close()


def test_the_display_plays_the_replay_and_follows_a_phones_switch(finished, phone, screen):
    server, games = finished
    game = games["pebbles"]
    tv = screen()
    tv.goto(f"{server.url}/t/{game.code}/display/?key={game.key}")
    tv.locator("#display-replay").click()
    expect(tv).to_have_url(re.compile(r"/replay/0\?key=.*play=1"))
    expect(tv).to_have_url(re.compile(r"/replay/1\?"), timeout=6000)  # by itself
    assert tv.locator("#replay-standings").inner_text().count("Secret number") == 0
    host = phone(viewport=SMALL_PHONE)
    at_table(host, server, game)
    host.goto(f"{server.url}/t/{game.code}/replay/0")
    host.locator("#replay-display-switch").click()
    expect(host.locator("#replay-view")).to_contain_text(
        "The table display's replay shows everything"
    )
    expect(tv.locator("#replay-standings")).to_contain_text("Secret number", timeout=8000)
    shot(tv, "replay-pebbles-tv-everything", full_page=False)
    tv.locator("#replay-pause").click()
    step = step_shown(tv)
    tv.wait_for_timeout(3500)
    assert step_shown(tv) == step  # paused
    host.locator("#replay-display-switch").click()  # back to the public view for other tests
    expect(host.locator("#replay-view")).to_contain_text("shows what the table saw")


@pytest.mark.parametrize("key", sorted(GAMES))
def test_every_games_step_reads_well_at_phone_and_tv_width(finished, phone, screen, key):
    # One phone and one TV per game; the language cookie switches them between the languages.
    server, games = finished
    game = games[key]
    middle = game.last // 2
    page = phone(viewport=SMALL_PHONE)
    at_table(page, server, game)
    tv = screen()
    for lang in LANGUAGES:
        for browser in (page, tv):
            speak(browser, server, lang)
        for query in ("", "?all=1"):
            page.goto(f"{server.url}/t/{game.code}/replay/{middle}{query}")
            expect(page.locator("html")).to_have_attribute("lang", lang)
            expect(page.locator("#replay-what")).to_be_visible()
            assert overflowing(page) == [], (key, lang, query)
            assert page.locator("#game-panel form:visible, #game-panel button:visible").count() == 0
            assert in_first_screen(page, "#replay-next")
        if lang == "en":
            assert serious_accessibility_problems(page) == []
        shot(page, f"replay-{key}-{lang}-360")
        tv.goto(f"{server.url}/t/{game.code}/replay/{middle}?key={game.key}")
        expect(tv.locator("html")).to_have_attribute("lang", lang)
        assert in_first_screen(tv, "#replay-what") and in_first_screen(tv, "#replay-next")
        assert overflowing(tv) == []
        # The display's type scale (html.tv), as its live screen: read from across the room.
        text = tv.evaluate(
            "parseFloat(getComputedStyle(document.querySelector('#replay-what p')).fontSize)"
        )
        assert text >= 24, (key, lang, text)
        shot(tv, f"replay-{key}-{lang}-tv", full_page=False)

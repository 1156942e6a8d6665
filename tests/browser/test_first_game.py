"""Each rules page opens with "Your first game" (Rules.first_game), and it fits one screen of a
small phone (360x740) in every language."""

from __future__ import annotations

import pytest

from companion.games import GAMES
from companion.i18n import LANGUAGES
from tests.helpers import SMALL_PHONE, shot, speak

pytestmark = pytest.mark.browser

PAGES = sorted({info.rules_page for info in GAMES.values() if info.rules.first_game})


def test_your_first_game_fits_one_small_phone_screen_in_every_language(server, phone):
    page = phone(viewport=SMALL_PHONE)
    tall = {}
    for lang in LANGUAGES:
        speak(page, server, lang)
        for rules in PAGES:
            page.goto(f"{server.url}/rules/{rules}")
            height = page.evaluate(
                "document.querySelector('.first-game').getBoundingClientRect().height"
            )
            if height > SMALL_PHONE["height"]:
                tall[(rules, lang)] = round(height)
    assert PAGES and tall == {}
    shot(page, "rules-first-game-360", full_page=False)

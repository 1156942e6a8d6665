"""Whether a game's prompts (Rules.prompt, the line under "Your turn.") fit two lines on a small
phone in every language: the prompts a random game reaches, rendered in each language, are put
one after the other into a phone's own prompt line and measured there.

Shared by the games' phone tests (tests/<game>/)."""

from __future__ import annotations

import json

from companion.games import GAMES
from companion.i18n import LANGUAGES, render_msg, use_part
from tests.helpers import random_states


def prompts_reached(key: str, games: int = 40, steps: int = 600) -> list:
    """Every distinct prompt (a Msg, with its numbers) random games of this entry reach, for any
    seat and the table."""
    rules = GAMES[key].rules
    found: dict[str, object] = {}
    for players, _, state, _ in random_states(key, "prompt-fit", games=games, steps=steps):
        for seat in [*range(players), None]:
            msg = rules.prompt(state, seat)
            if msg is not None:
                found.setdefault(json.dumps(msg.to_json(), sort_keys=True), msg)
    return list(found.values())


def prompt_texts(app, key: str) -> dict[str, list[str]]:
    """The prompts random games of this entry reach, in each language (seat names: the longest
    plausible, 12 letters), rendered by the app as its pages do."""
    part = GAMES[key].name
    messages = prompts_reached(key)
    names = ["Maximilianus"] * GAMES[key].max_players
    texts = {}
    for language in LANGUAGES:
        with app.test_request_context(headers={"Cookie": f"lang={language}"}):
            use_part(part)
            texts[language] = sorted({render_msg(m, names) for m in messages})
    return texts


# The prompt line's own box: each text in turn, its height in lines of its own line height.
LINES_OF = """(texts) => {
    const p = document.querySelector('#prompt');
    const keep = p.textContent;
    const lines = {};
    for (const text of texts) {
        p.textContent = text;
        lines[text] = Math.round(p.getBoundingClientRect().height
                                 / parseFloat(getComputedStyle(p).lineHeight));
    }
    p.textContent = keep;
    return lines;
}"""


def too_long(page, texts: list[str], most: int = 2) -> dict[str, int]:
    """The texts that take more than `most` lines in the page's prompt line, with their lines."""
    lines = page.evaluate(LINES_OF, texts)
    return {text: n for text, n in lines.items() if n > most}


def prompts_too_long(app, phone, server, key: str, most: int = 2) -> dict[str, int]:
    """The prompts of a game (random games' worth, in every language) that take more than
    `most` lines at 360 px, each measured in the prompt line of a phone that reads that
    language (its fonts: Japanese glyphs are wider than Latin ones)."""
    from playwright.sync_api import expect

    from tests.helpers import SMALL_PHONE, open_table, sit_down, speak

    texts = prompt_texts(app, key)
    host = phone(viewport=SMALL_PHONE)
    code = open_table(host, server, game=key, players=str(GAMES[key].min_players), names=())
    page = phone(viewport=SMALL_PHONE)
    sit_down(page, server, code, 0)
    found: dict[str, int] = {}
    for language, shown in texts.items():
        speak(page, server, language)
        page.reload()
        expect(page.locator("#prompt")).to_be_visible()  # every game prompts seat 1 at the start
        found.update(too_long(page, shown, most))
    return found

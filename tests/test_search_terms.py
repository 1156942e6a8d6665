"""The games' search vocabularies (companion/games/<game>/search_terms.py): every id a phrase, a
reading link or a number hint names is an anchor of the game's rules page, every phrase can match
something, and docs/terms/<game>.md lists every phrase."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion import search
from companion.games import GAMES, INSTALLED
from companion.web.rules import vocabulary

ROOT = Path(__file__).resolve().parent.parent
# The installed games' rules pages (the tests' own game has no vocabulary: it is searched with
# the pages' own words, tests/test_fixture_game.py).
PAGES = {
    key: info for key, info in GAMES.items() if info.rules_page == key and info.name in INSTALLED
}


@pytest.mark.parametrize("page", sorted(PAGES))
def test_every_id_a_vocabulary_names_is_an_anchor_of_the_rules_page(client, page):
    words = vocabulary(PAGES[page])
    html = client.get(f"/rules/{page}").text
    anchors = set(re.findall(r'\sid="([^"]+)"', html))
    named = {i for phrases in words.phrases.values() for ids in phrases.values() for i in ids}
    named |= set(words.reads) | set(words.reads.values())
    if words.numbers:
        named |= set(words.numbers([15, 5])) | set(words.numbers([4, 14]))
    assert named, f"{page} has no search vocabulary"
    assert not named - anchors, f"ids without an anchor on /rules/{page}: {named - anchors}"
    assert set(words.phrases) == {"en", "ja", "ru"}
    for lang, phrases in words.phrases.items():
        for phrase, ids in phrases.items():
            assert ids and search.phrase_pattern(phrase), (lang, phrase)


@pytest.mark.parametrize("page", sorted(PAGES))
def test_the_terms_document_lists_every_phrase(page):
    text = (ROOT / "docs" / "terms" / f"{PAGES[page].name}.md").read_text(encoding="utf-8")
    assert "## Asking the rules" in text
    section = text.split("## Asking the rules", 1)[1]
    missing = [
        phrase
        for phrases in vocabulary(PAGES[page]).phrases.values()
        for phrase in phrases
        if f"`{phrase}`" not in section
    ]
    assert not missing, f"docs/terms/{PAGES[page].name}.md lacks {missing}"

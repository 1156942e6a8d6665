"""Ask the rules about Kahuna: known questions in three languages find their entry
first, and the game's own words find it without naming the game."""

from __future__ import annotations

import pytest

from tests.helpers import found_first, found_unscoped

# (query, anchors of which one must come first)
QUESTIONS = [
    ("Aloa", ["island-unknown"]),
    ("bridges removed", ["remove-cards", "remove-opponent"]),
    ("橋を取り除く", ["remove-cards", "remove-opponent"]),
    ("島の支配", ["control"]),
    ("убрать мост", ["remove-opponent"]),
    ("контроль острова", ["control"]),
]


@pytest.mark.parametrize("query, anchors", QUESTIONS)
def test_a_known_question_finds_its_entry_first(rules_index, query, anchors):
    found_first(rules_index, query, "kahuna", anchors)


@pytest.mark.parametrize("query, anchor", [("Aloa", "island-unknown")])
def test_the_games_own_word_finds_it_without_a_scope(rules_index, query, anchor):
    found_unscoped(rules_index, query, "kahuna", anchor)

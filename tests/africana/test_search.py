"""Ask the rules about Africana: known questions in three languages find their entry
first, and the game's own words find it without naming the game."""

from __future__ import annotations

import pytest

from tests.helpers import found_first, found_unscoped

# (query, anchors of which one must come first)
QUESTIONS = [
    ("artifact sets", ["artifact-sets", "sets-best"]),
    ("手札 5枚", ["end-of-turn", "reminders"]),
    ("сколько приключений", ["buy-adventure", "complete-adventure"]),
    ("приключение", ["buy-adventure", "complete-adventure", "one-action"]),
    ("набор артефактов", ["artifact-sets", "sets-best"]),
]


@pytest.mark.parametrize("query, anchors", QUESTIONS)
def test_a_known_question_finds_its_entry_first(rules_index, query, anchors):
    found_first(rules_index, query, "africana", anchors)


@pytest.mark.parametrize("query, anchor", [("набор артефактов", "artifact-sets")])
def test_the_games_own_word_finds_it_without_a_scope(rules_index, query, anchor):
    found_unscoped(rules_index, query, "africana", anchor)

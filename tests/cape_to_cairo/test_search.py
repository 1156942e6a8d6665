"""Ask the rules about From Cape to Cairo: known questions in three languages find their entry
first, and the game's own words find it without naming the game."""

from __future__ import annotations

import pytest

from tests.helpers import found_first, found_unscoped

# (query, anchors of which one must come first)
QUESTIONS = [
    ("bonus track", ["cross-bonus", "river-bonus"]),
    ("river", ["river-bonus"]),
    ("川 ボーナス 何枚", ["river-bonus"]),
    ("ボーナス線路", ["cross-bonus", "river-bonus"]),
    ("入札 同額", ["bid-order"]),
    ("川", ["river-bonus"]),
    ("ничья", ["tie-draw"]),
    ("река", ["river-bonus"]),
    ("Реки", ["river-bonus"]),
]


@pytest.mark.parametrize("query, anchors", QUESTIONS)
def test_a_known_question_finds_its_entry_first(rules_index, query, anchors):
    found_first(rules_index, query, "cape_to_cairo", anchors)


@pytest.mark.parametrize("query, anchor", [("bonus track", "cross-bonus"), ("川", "river-bonus")])
def test_the_games_own_word_finds_it_without_a_scope(rules_index, query, anchor):
    found_unscoped(rules_index, query, "cape_to_cairo", anchor)


def test_a_query_in_any_language_is_answered_in_the_readers(rules_index):
    for query in ("river", "川", "река"):
        (first, *_) = rules_index.search(query, "ja")
        assert first.entry.lang == "ja" and "川" in first.title

"""Ask the rules as players do: the question set (each game's tests/<game>/search_questions.json,
questions people say
at a table in English, Japanese and Russian, never in the rules' own words) is answered from a
table: an acceptable entry among the first three results, nothing from another game's page, and
quickly. scripts/search_quality.py prints the same figures and every miss."""

from __future__ import annotations

import statistics
from collections import Counter

import pytest

from companion.games import GAMES, INSTALLED
from scripts import search_quality

QUESTIONS = search_quality.load_questions()
# The issue's own three questions, word for word (issue 25).
FROM_THE_ISSUE = {
    "what happens if the winner cannot pay his bid?",
    "can I bid 15 if I own a 5",
    "tie at the end",
}


@pytest.fixture(scope="module")
def index():
    return search_quality.build_index()


@pytest.fixture(scope="module")
def outcomes(index):
    return search_quality.ask(index, QUESTIONS)


def test_the_question_set_covers_three_languages_and_four_rules_pages(index):
    assert len(QUESTIONS) >= 100
    langs = Counter(q["lang"] for q in QUESTIONS)
    assert set(langs) == {"en", "ja", "ru"}
    assert min(langs.values()) >= len(QUESTIONS) // 3
    pages = Counter((q["lang"], GAMES[q["game"]].rules_page) for q in QUESTIONS)
    installed = [key for key, info in GAMES.items() if info.name in INSTALLED]
    for lang in langs:
        for page in {GAMES[key].rules_page for key in installed}:
            assert pages[(lang, page)] >= 8, (lang, page)
    for key in installed:  # every lobby entry (a variant too) is asked in each language
        assert {q["lang"] for q in QUESTIONS if q["game"] == key} == {"en", "ja", "ru"}, key
    assert FROM_THE_ISSUE <= {q["q"] for q in QUESTIONS}
    assert len({(q["lang"], q["q"]) for q in QUESTIONS}) == len(QUESTIONS)
    anchors = {(e.page, e.anchor) for e in index.entries}
    for q in QUESTIONS:
        page = GAMES[q["game"]].rules_page
        missing = [i for i in q["ids"] if (page, i) not in anchors]
        assert q["ids"] and not missing, (q["q"], missing)


def test_at_least_95_in_100_questions_find_their_answer_in_the_top_3(outcomes):
    misses = [
        f"{o.question['q']} -> {[a for _, a in o.found[:3]]} (wanted {o.question['ids']})"
        for o in outcomes
        if not o.hit
    ]
    assert len(misses) <= len(outcomes) * 5 // 100, "\n".join(misses)


def test_a_table_search_shows_nothing_from_another_game(outcomes):
    leaks = [o.question["q"] for o in outcomes if o.leaks]
    assert not leaks, leaks


def test_the_median_question_answers_in_under_50_ms(index):
    times = [min(search_quality.ask(index, [q])[0].seconds for _ in range(3)) for q in QUESTIONS]
    assert statistics.median(times) < 0.050, f"median {statistics.median(times) * 1000:.1f} ms"


# Questions whose answer must come first, not only among three (issue 39): each game's question
# set marks them ("first": the ids that may come first), asked in its language from its table.
ANSWERED_FIRST = [q for q in QUESTIONS if q.get("first")]


def test_some_questions_must_be_answered_first():
    assert len(ANSWERED_FIRST) >= 10
    assert all(set(q["first"]) <= set(q["ids"]) for q in ANSWERED_FIRST)


@pytest.mark.parametrize("asked", ANSWERED_FIRST, ids=lambda q: q["q"])
def test_these_questions_are_answered_first(index, asked):
    results = index.search(asked["q"], asked["lang"], GAMES[asked["game"]].rules_page)
    assert results and results[0].entry.anchor in asked["first"], [
        r.entry.anchor for r in results[:3]
    ]

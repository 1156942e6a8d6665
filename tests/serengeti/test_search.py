"""Ask the rules about Serengeti (and Don): known questions in three languages find their entry
first, and the game's own words find it without naming the game."""

from __future__ import annotations

import pytest

from tests.helpers import found_first, found_unscoped

# (query, anchors of which one must come first)
QUESTIONS = [
    ("can I bid 14 if I hold a 4", ["bid-digit"]),
    ("Nuba", ["deck"]),
    ("pot", ["don-pot", "payout-don"]),
    (
        "PASS BONUS",
        [
            "free-lot-bonus",
            "pass-bonus",
            "pass-bonus-after-fine",
            "pass-bonus-bank",
            "pass-bonus-once",
        ],
    ),
    ("tied", ["chip-bonus-tie", "don-payout-tie", "tie-break", "tie-break-shared"]),
    ("チップを隠す", ["hidden-chips"]),
    ("罰金", ["penalty"]),
    (
        "パス ボーナス",
        [
            "free-lot-bonus",
            "pass-bonus",
            "pass-bonus-after-fine",
            "pass-bonus-bank",
            "pass-bonus-once",
        ],
    ),
    (
        "пас бонус",
        [
            "free-lot-bonus",
            "pass-bonus",
            "pass-bonus-after-fine",
            "pass-bonus-bank",
            "pass-bonus-once",
        ],
    ),
    ("штраф", ["penalty", "penalty-destination", "penalty-turn", "waive"]),
    # Typos: read as the nearest word that starts alike (auction, not action), and the
    # vocabulary's phrases meet the word as read ("auction work*", "most can bid*").
    ("how does the aution work", ["turn", "bid-higher", "pass"]),
    ("whats teh most i can bid", ["bid-limit", "bid-above-chips"]),
]


@pytest.mark.parametrize("query, anchors", QUESTIONS)
def test_a_known_question_finds_its_entry_first(rules_index, query, anchors):
    found_first(rules_index, query, "serengeti", anchors)


@pytest.mark.parametrize("query, anchor", [("Nuba", "deck"), ("Don", "don")])
def test_the_games_own_word_finds_it_without_a_scope(rules_index, query, anchor):
    found_unscoped(rules_index, query, "serengeti", anchor)


def test_the_top_result_shows_its_rule_in_full_with_its_link(client):
    page = client.get("/rules/search?q=what+happens+if+the+winner+cannot+pay+his+bid%3F")
    answer = page.text.split('class="answer"', 1)[1].split("</article>", 1)[0]
    assert 'href="/rules/serengeti#cannot-pay"' in answer
    # The whole summary, not a snippet: its last words are there.
    assert "starts again without them." in answer


def test_the_top_reading_comes_with_its_rule(client):
    page = client.get("/rules/search?q=where+does+the+fine+go&game=serengeti")
    answer = page.text.split('class="answer"', 1)[1].split("</article>", 1)[0]
    assert "#penalty-destination" in answer and 'href="/rules/serengeti#penalty"' in answer


@pytest.mark.parametrize(
    "lang,query,words",
    [
        ("en", "how many bridges does each player have in Kahuna?", "No rule of Serengeti"),
        ("ru", "сколько мостов у игрока в Кахуне?", "Ни одно правило"),
    ],
)
def test_a_question_about_another_game_is_answered_from_that_game(client, lang, query, words):
    from companion.games import GAMES
    from tests.helpers import start_table, visible

    code = start_table(client, "serengeti", ("Anna", "Ben", "Chris"))
    page = client.get(
        f"/t/{code}/rules", query_string={"q": query}, headers={"Accept-Language": lang}
    )
    text = visible(page.text)
    notice = visible(page.text.split('id="search-elsewhere"')[1].split("</p>")[0])
    assert words in notice
    answer = page.text.split('class="answer"')[1].split("</article>")[0]
    assert "/rules/kahuna#" in answer and "/rules/serengeti#" not in answer
    assert GAMES["kahuna"].label in text or "Кахуна" in text
    # A question about this game's own rules is answered as before.
    own = client.get(f"/t/{code}/rules", query_string={"q": "how many chips to start"}).text
    assert 'id="search-elsewhere"' not in own and "/rules/serengeti#" in own

"""The rules search and the games' names: a question that names a game (in any language, a
Russian name declined) is about that game's rules, and the name itself is not what it asks."""

from __future__ import annotations


def test_a_game_named_in_a_question_says_which_rules_not_which_rule(rules_index):
    # Its name, declined in Russian, is known (a table's question about another game goes to
    # that game's rules), and asked of every game it finds that game's entries first…
    for query, page in [
        ("how much is an adventure card in Africana", "africana"),
        ("сколько мостов у игрока в Кахуне?", "kahuna"),
        ("в Кейптауне до Каира сколько денег", "cape_to_cairo"),
        ("アフリカーナで冒険カードはいくら", "africana"),
    ]:
        assert rules_index.named(query) == [page], query
        assert rules_index.search(query, "en")[0].entry.page == page, query
    assert rules_index.named("how much is an adventure card") == []
    # …while asked of that game's rules it weighs little: the entry that says the game's name
    # is not the answer.
    (first, *_) = rules_index.search("how much is an adventure card in africana", "en", "africana")
    assert first.entry.anchor == "buy-adventure"

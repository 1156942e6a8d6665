"""Ask the rules: one search over every game's rules pages, in English, Japanese and Russian, that
answers questions as players ask them at a table.

What is indexed is what the rules pages show: each installed game's page is rendered in each
language and every element with an anchor (`id`) becomes an entry (its heading as the title, its
text as the body). So the index names no game and never drifts from the pages: a summary, a
reading or a game word (a tribe, an island, a terrain) is findable as soon as a page shows it.
Each game package adds its own `Vocabulary` (companion/games/<game>/search_terms.py): the words
players say, mapped to the ids of the entries they mean, and which readings read which rule.

A question becomes terms:
- English and Russian words, stemmed (Snowball, via PyStemmer: "tracks" meets "track",
  "приключение" meets "приключений"); the words of a question's grammar are dropped (STOP_WORDS:
  "what happens if…", "что будет, если…"), numbers are kept ("bid 15" looks for 15);
- Japanese, which has no spaces: the question's endings (ですか, どうなる, できる…) are cut,
  then each run of one script (kanji, katakana, longer hiragana) is a term, found as a substring
  of the Japanese text; a kanji run the pages never show falls back to its two-character pieces;
- a word the pages and the vocabularies do not know is read as the nearest word they do know
  (an edit or two away, with rapidfuzz; of words as near, the one that starts alike): "arabanna"
  finds Arabana, "aution" auction; a Russian verb the pages use without its prefix is read
  without it (спасую as пасую), and фишек is фишка (a fleeting vowel);
- a game's name (any language, declined: «в Кахуне») asked of that game's rules says which
  rules, not which rule: its words weigh little there (asked of every game, they find the game).

An entry's score adds, per term, a BM25-like weight (rarer terms weigh more, a term in the title
more than in the body), and the vocabulary's boosts: a phrase of the question that a game lists
("can't pay", «ничья», 同点) raises the entries it names (unless a longer phrase around it means
something else: "tie" in "a tie in the auction"), and a game may read meaning into
numbers (a bid and a digit owned name a rule about digits). A reading ranks below the rule it
reads unless the question asks about the reading's own point (words the reading has and its rule
lacks). A set game is a filter: only its page's entries are listed.

The package: words.py (normalising, stemming, tokens), pages.py (the rendered pages' entries),
question.py (a question's terms, the games' vocabularies), ranking.py (the index and its
scores), snippets.py (the marked text a result shows); here, the process's one index.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from companion.search.pages import Entry, anchored_entries
from companion.search.question import Vocabulary, phrase_pattern, query_terms
from companion.search.ranking import LIMIT, Index, Result
from companion.search.snippets import highlight, snippet

MAX_QUERY = 200  # characters: a longer query is refused politely

__all__ = [
    "LIMIT",
    "MAX_QUERY",
    "Entry",
    "Index",
    "Result",
    "Vocabulary",
    "anchored_entries",
    "forget",
    "highlight",
    "index",
    "phrase_pattern",
    "query_terms",
    "snippet",
]


# --- one index per process ---------------------------------------------------------------------

_index: Index | None = None
_building = threading.Lock()


def index(build: Callable[[], Index]) -> Index:
    """The process's index, built on first use by build() (from the rendered rules pages)."""
    global _index
    if _index is None:
        with _building:
            if _index is None:
                _index = build()
    return _index


def forget() -> None:
    """Drop the built index (tests that change the pages)."""
    global _index
    _index = None

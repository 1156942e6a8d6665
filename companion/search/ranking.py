"""The index and its ranking: BM25-like weights per term (rarer terms weigh more, a title more
than a body), the vocabularies' boosts, and readings ranked below the rules they read."""

from __future__ import annotations

import math
import re
import threading
from collections import Counter
from collections.abc import Iterable
from functools import cached_property, lru_cache

from markupsafe import Markup
from rapidfuzz import process
from rapidfuzz.distance import OSA

from companion.search.pages import Entry
from companion.search.question import (
    Question,
    Term,
    Vocabulary,
    name_pattern,
    parts_span,
    phrase_pattern,
    phrase_positions,
    question,
)
from companion.search.snippets import highlight, snippet
from companion.search.words import CJK, KANJI, normalize, stem, tokens, without_verb_prefix

LIMIT = 20  # results shown

TITLE_WEIGHT = 2.0  # a term in the title counts this much more than one in the body
K1, B = 1.2, 0.5  # BM25's saturation and length normalisation
B_TITLE = 0.9  # a short title is about its words more than a long one
PREFIX_WEIGHT = 0.5  # a word found only as the start of a longer word ("bon" in "bonus")
TYPING_WEIGHT = 0.9  # the same for the last word while it is still being typed
FUZZY_WEIGHT = 0.8  # a word read as the nearest known word
VERB_PREFIX_WEIGHT = 0.9  # a Russian verb read without its prefix (спасую as пасую)
PIECE_WEIGHT = 0.5  # a two-character piece of a Japanese kanji run the pages lack
PHRASE_BOOST = 8.0  # a phrase of a game's vocabulary, for the first id it names
RANK_DECAY = 0.8  # each further id a phrase names gets this much of the one before
NAME_WEIGHT = 0.2  # a word of the game's name in a question about that game
HINT_BOOST = 10.0  # a game's reading of the question's numbers
READING_OWN_SHARE = 0.25  # below this share of its score from its own words, a reading yields


class Result:
    """One entry found: its marked title, snippet and whole text are made when first shown."""

    def __init__(self, entry: Entry, marks: list[tuple[str, str]]):
        self.entry = entry
        self.marks = marks
        self.related: Result | None = None  # the top result's rule or reading, shown with it
        self.related_is_rule = False

    @cached_property
    def title(self) -> Markup:
        return highlight(self.entry.title, self.marks)

    @cached_property
    def snippet(self) -> Markup:
        return snippet(self.entry.body, self.marks)

    @cached_property
    def text(self) -> Markup:
        """The whole body, matches marked (the top result shows it in full)."""
        return highlight(self.entry.body, self.marks)


class Index:
    """The in-memory search index over a list of entries (all pages, all languages) and the
    pages' vocabularies."""

    def __init__(self, entries: list[Entry], vocabularies: dict[str, Vocabulary] | None = None):
        self.entries = entries
        self.vocabularies = vocabularies or {}
        # (lang, page, anchor) -> entry: a result is shown in the reader's language.
        self.by_key = {(e.lang, e.page, e.anchor): e for e in entries}
        self.any_lang: dict[tuple[str, str], Entry] = {}  # an anchor one language lacks
        for e in entries:
            self.any_lang.setdefault((e.page, e.anchor), e)
        self.keys = list(self.any_lang)  # (page, anchor): one per entry of a page
        self.key_of = {key: number for number, key in enumerate(self.keys)}
        self.entry_key = [self.key_of[(e.page, e.anchor)] for e in entries]
        self.lock = threading.Lock()
        # word and number postings: key text -> [(entry number, in title, in body)]
        self.postings: dict[tuple[str, str], list[tuple[int, int, int]]] = {}
        self.lengths: list[int] = []
        self.title_lengths: list[int] = []
        self.japanese: list[tuple[int, str, str]] = []  # (entry, title, body) of CJK entries
        self.ja_texts: dict[int, tuple[str, str]] = {}
        words: set[str] = set()
        for number, entry in enumerate(entries):
            title = entry.title if entry.own_title else ""
            title_counts = Counter((kind, key) for kind, key, _ in tokens(title) if kind != "ja")
            body_tokens = tokens(entry.body)
            body_counts = Counter((kind, key) for kind, key, _ in body_tokens if kind != "ja")
            words.update(raw for kind, _, raw in tokens(f"{title} {entry.body}") if kind == "word")
            for term in title_counts.keys() | body_counts.keys():
                self.postings.setdefault(term, []).append(
                    (number, title_counts[term], body_counts[term])
                )
            self.lengths.append(max(1, len(body_tokens)))
            self.title_lengths.append(max(1, sum(title_counts.values())))
            if CJK.search(title + entry.body):
                self.japanese.append((number, normalize(title), normalize(entry.body)))
                self.ja_texts[number] = self.japanese[-1][1:]
        self.average = sum(self.lengths) / max(1, len(self.lengths))
        self.title_average = sum(self.title_lengths) / max(1, len(self.title_lengths))
        self.ja_title_average = sum(len(t) for _, t, _ in self.japanese) / max(
            1, len(self.japanese)
        )
        self.ja_average = sum(len(b) for _, _, b in self.japanese) / max(1, len(self.japanese))
        self.stems = sorted(key for kind, key in self.postings if kind == "word")
        # The words a typo may be read as: the pages' own and the vocabularies'.
        self.phrases: list[tuple[str, tuple[str, ...] | str, tuple[str, ...]]] = []
        for page, vocabulary in self.vocabularies.items():
            for lang_phrases in vocabulary.phrases.values():
                for phrase, ids in lang_phrases.items():
                    pattern = phrase_pattern(phrase)
                    self.phrases.append((page, pattern, ids))
                    if isinstance(pattern, tuple):
                        words.update(w for w in normalize(phrase).split() if not w.endswith("*"))
        # The games' names: (page, pattern) of each name of each page.
        self.names: list[tuple[str, tuple[str, ...] | str]] = []
        for page, vocabulary in self.vocabularies.items():
            for name in dict.fromkeys(vocabulary.names):
                pattern = name_pattern(name)
                if pattern and (page, pattern) not in self.names:
                    self.names.append((page, pattern))
        self.known = {w: stem(w) for w in words if len(w) >= 4}
        self.known_stems = set(self.known.values())
        self.known_list = sorted(self.known)

    # --- one term -----------------------------------------------------------------------

    def _idf(self, keys: int) -> float:
        n = len(self.keys)
        return math.log(1 + (n - keys + 0.5) / (keys + 0.5))

    def _bm25(self, count: int, length: float, average: float, b: float = B) -> float:
        if not count:
            return 0.0
        return count * (K1 + 1) / (count + K1 * (1 - b + b * length / average))

    def _postings_scores(self, postings: list[tuple[int, int, int]]) -> dict[int, float]:
        """key -> score of one word or number (the best of the key's languages)."""
        keys = {self.entry_key[entry] for entry, _, _ in postings}
        idf = self._idf(len(keys))
        scores: dict[int, float] = {}
        for entry, in_title, in_body in postings:
            value = idf * (
                TITLE_WEIGHT
                * self._bm25(in_title, self.title_lengths[entry], self.title_average, B_TITLE)
                + self._bm25(in_body, self.lengths[entry], self.average)
            )
            key = self.entry_key[entry]
            scores[key] = max(scores.get(key, 0.0), value)
        return scores

    @lru_cache(maxsize=4096)  # noqa: B019 (one index per process, kept for its life)
    def _word_scores(self, kind: str, text: str, typed: bool) -> tuple[dict[int, float], str]:
        """key -> score of a word (its stem; else words starting with it; else the nearest
        known word) or a number, and the stem that was found (for marking it)."""
        exact = self.postings.get((kind, text))
        if kind == "num":
            return (self._postings_scores(exact) if exact else {}), text
        scores = self._postings_scores(exact) if exact else {}
        if not exact:
            # A Russian verb with a prefix the pages do not use: спасую as пасую.
            for bare in without_verb_prefix(text):
                postings = self.postings.get(("word", bare))
                if postings:
                    bare_scores = self._postings_scores(postings)
                    return {k: VERB_PREFIX_WEIGHT * v for k, v in bare_scores.items()}, bare
        if len(text) >= 3 and (typed or not exact):
            # Words that start with it: a word being typed, or a form the stemmer cut short.
            weight = TYPING_WEIGHT if typed else PREFIX_WEIGHT
            start = self._bisect(text)
            for other in self.stems[start : start + 50]:
                if not other.startswith(text):
                    break
                if other != text:
                    for key, value in self._postings_scores(self.postings[("word", other)]).items():
                        scores[key] = max(scores.get(key, 0.0), weight * value)
        if scores or text in self.known_stems or len(text) < 4:
            return scores, text
        nearest = self._nearest(text)
        if nearest is None or ("word", nearest) not in self.postings:
            return {}, text
        found = self._postings_scores(self.postings[("word", nearest)])
        return {key: FUZZY_WEIGHT * value for key, value in found.items()}, nearest

    def _bisect(self, text: str) -> int:
        low, high = 0, len(self.stems)
        while low < high:
            middle = (low + high) // 2
            if self.stems[middle] < text:
                low = middle + 1
            else:
                high = middle
        return low

    def _nearest(self, word_stem: str) -> str | None:
        """The stem of the known word nearest to a word nobody wrote (one edit for a short
        word, two for a long one; a swap of two letters is one edit). Of words as near, the one
        that starts as the typed word does (a slip is rarely in the first letters: "aution" is
        auction, not action), then the one more entries use."""
        limit = 1 if len(word_stem) < 7 else 2
        matches = process.extract(
            word_stem, self.known_list, scorer=OSA.distance, score_cutoff=limit, limit=20
        )
        if not matches:
            return None

        def likeliness(match: tuple) -> tuple[int, int, int]:
            word, distance = match[0], match[1]
            same_start = next(
                (at for at, (a, b) in enumerate(zip(word, word_stem, strict=False)) if a != b),
                min(len(word), len(word_stem)),
            )
            used = len(self.postings.get(("word", self.known[word]), ()))
            return (distance, -min(same_start, 3), -used)

        return self.known[min(matches, key=likeliness)[0]]

    @lru_cache(maxsize=4096)  # noqa: B019
    def _japanese_scores(self, text: str) -> dict[int, float]:
        """key -> score of a Japanese term, found as part of the Japanese text."""
        counts = []
        for entry, title, body in self.japanese:
            in_title, in_body = title.count(text), body.count(text)
            if in_title or in_body:
                counts.append((entry, in_title, in_body))
        if not counts and len(text) >= 3 and re.fullmatch(rf"[{KANJI}]+", text):
            # A compound the pages never write: its two-character pieces (入札額 -> 入札, 札額).
            scores: dict[int, float] = {}
            for start in range(len(text) - 1):
                for key, value in self._japanese_scores(text[start : start + 2]).items():
                    scores[key] = scores.get(key, 0.0) + PIECE_WEIGHT * value
            return scores
        keys = {self.entry_key[entry] for entry, _, _ in counts}
        idf = self._idf(len(keys))
        scores = {}
        for entry, in_title, in_body in counts:
            title, body = self.ja_texts[entry]
            value = idf * (
                TITLE_WEIGHT * self._bm25(in_title, len(title), self.ja_title_average, B_TITLE)
                + self._bm25(in_body, len(body), self.ja_average)
            )
            key = self.entry_key[entry]
            scores[key] = max(scores.get(key, 0.0), value)
        return scores

    # --- the question -------------------------------------------------------------------

    def _boosts(self, asked: Question, pages: set[str]) -> dict[int, float]:
        """key -> the vocabularies' boosts: the phrases of the question and its numbers.

        A phrase inside a longer phrase the same game lists that means something else gives way
        to it: the longer one is the sense the words have here ("tie" in "a tie in the auction"
        is not the end's tie)."""
        boosts: dict[int, float] = {}

        def boost(page: str, ids: Iterable[str], amount: float) -> None:
            for rank, anchor in enumerate(ids):
                key = self.key_of.get((page, anchor))
                if key is not None:
                    boosts[key] = boosts.get(key, 0.0) + amount * RANK_DECAY**rank

        # (page, where in the question: word positions or a span of the Japanese, size, ids)
        matched: list[tuple[str, frozenset[int], float, tuple[str, ...]]] = []
        for page, pattern, ids in self.phrases:
            if page not in pages:
                continue
            if isinstance(pattern, str):
                span = parts_span(pattern.split(" "), asked.japanese, asked.breaks)
                # Japanese characters are placed after the words' positions, apart from them.
                where = None if span is None else frozenset(range(-span[1], -span[0]))
                size = len(pattern.replace(" ", "")) / 2
            else:
                positions = phrase_positions(pattern, asked.stems, asked.raws)
                where = None if positions is None else frozenset(positions)
                size = len(pattern)
            if where is not None:
                matched.append((page, where, size, ids))
        for page, where, size, ids in matched:
            # Another sense: a longer phrase around it that means something else.
            overruled = any(
                other_page == page and where < other and other_ids[0] != ids[0]
                for other_page, other, _, other_ids in matched
            )
            if not overruled:
                boost(page, ids, PHRASE_BOOST * (1 + 0.25 * (size - 1)))
        if asked.numbers:
            for page in pages:
                vocabulary = self.vocabularies.get(page)
                if vocabulary and vocabulary.numbers:
                    boost(page, vocabulary.numbers(asked.numbers), HINT_BOOST)
        return boosts

    def search(self, query: str, lang: str, page: str | None = None) -> list[Result]:
        """The entries that best answer the query, each once, in the reader's language. With a
        page (the game a table plays), only that page's entries."""
        asked = question(query)
        if page:
            # Asked of one game's rules, a game's name says which rules, not which rule: it
            # weighs little (it is still marked, and it may be a game word too, as in a stone named
            # after its game). Asked of
            # every game, it keeps its weight: it finds the named game's entries first.
            named = self._named(asked)
            for term in asked.terms:
                if named and _names_term(term, named):
                    term.weight *= NAME_WEIGHT
        pages = {page} if page else {p for p, _ in self.keys}
        with self.lock:
            per_term: list[tuple[Term, dict[int, float], str]] = []
            for term in asked.terms:
                if term.kind == "ja":
                    per_term.append((term, self._japanese_scores(term.text), term.text))
                else:
                    scores, found = self._word_scores(term.kind, term.text, term.typed)
                    per_term.append((term, scores, found))
        # A phrase meets a word as the search read it: "auktion" as auction, спасую as пасую.
        read_as = {t.text: found for t, _, found in per_term if t.kind == "word" and found}
        asked.stems = [read_as.get(word, word) for word in asked.stems]
        boosts = self._boosts(asked, pages)
        score: dict[int, float] = dict(boosts)
        for term, scores, _ in per_term:
            for key, value in scores.items():
                if self.keys[key][0] in pages:
                    score[key] = score.get(key, 0.0) + term.weight * value
        self._rules_before_readings(score, per_term, boosts)
        ranked = sorted((k for k, s in score.items() if s > 0), key=lambda k: -score[k])
        marks = [(t.kind, found) for t, _, found in per_term]
        results = [self._result(self.keys[key], lang, marks) for key in ranked[:LIMIT]]
        if results:
            results[0].related = self._related(ranked[0], score, lang, marks)
            results[0].related_is_rule = self._rule_of(ranked[0]) is not None
        return results

    def _named(self, asked: Question) -> list[tuple[str, tuple[str, ...] | str]]:
        """The pages whose game the question names, each with the words (stems) or Japanese
        that name it."""
        found: list[tuple[str, tuple[str, ...] | str]] = []
        for page, pattern in self.names:
            if isinstance(pattern, str):
                if pattern in asked.japanese:
                    found.append((page, pattern))
                continue
            positions = phrase_positions(pattern, asked.stems, asked.raws)
            if positions is not None:
                found.append((page, tuple(asked.stems[at] for at in positions)))
        return found

    def named(self, query: str) -> list[str]:
        """The rules pages whose game the query names (in any language, declined), in the
        order of the index's pages."""
        return list(dict.fromkeys(page for page, _ in self._named(question(query))))

    def _rule_of(self, key: int) -> int | None:
        """The key of the rule a reading reads, or None for a rule."""
        page, anchor = self.keys[key]
        vocabulary = self.vocabularies.get(page) or Vocabulary()
        entry = self.any_lang[(page, anchor)]
        rule = vocabulary.reads.get(anchor) or entry.parent
        if rule is None or (anchor not in vocabulary.readings and entry.parent is None):
            return None
        return self.key_of.get((page, rule))

    def _rules_before_readings(self, score, per_term, boosts) -> None:
        """A reading that outranks the rule it reads drops just below that rule, unless most of
        its score comes from its own point: terms (or phrases) the rule does not answer."""
        for key in list(score):
            rule = self._rule_of(key)
            if rule is None or score[key] <= score.get(rule, 0.0):
                continue
            own = boosts.get(key, 0.0) - boosts.get(rule, 0.0)
            own = max(own, 0.0) + sum(
                term.weight * scores[key]
                for term, scores, _ in per_term
                if key in scores and rule not in scores
            )
            if own < READING_OWN_SHARE * score[key] and score.get(rule, 0.0) > 0:
                score[key] = score[rule] * 0.99

    def _related(self, key: int, score, lang, marks) -> Result | None:
        """What the top result is shown with: the rule it reads, or the best reading of it that
        the question also found (unless its text is already part of the top entry's)."""
        rule = self._rule_of(key)
        if rule is not None:
            if self.any_lang[self.keys[key]].parent is not None:
                return None  # a reading inside its rule's entry: the rule is one tap away
            return self._result(self.keys[rule], lang, marks)
        readings = [
            other
            for other in score
            if score[other] > 0 and self._rule_of(other) == key
            and self.any_lang[self.keys[other]].parent is None
        ]  # fmt: skip
        if not readings:
            return None
        best = max(readings, key=lambda other: score[other])
        return self._result(self.keys[best], lang, marks)

    def _result(self, key: tuple[str, str], lang: str, marks) -> Result:
        return Result(self.by_key.get((lang, *key)) or self.any_lang[key], marks)


def _names_term(term: Term, named: list[tuple[str, tuple[str, ...] | str]]) -> bool:
    """Whether a term of the question is (part of) a game's name it names."""
    for _, words in named:
        if isinstance(words, str):
            if term.kind == "ja" and term.text in words:
                return True
        elif term.kind == "word" and term.text in words:
            return True
    return False

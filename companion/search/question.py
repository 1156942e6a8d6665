"""A question as the search reads it (its terms, its words and numbers), and what a game adds to
it: the words players say (Vocabulary) and how a vocabulary's phrases match a question."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from companion.search.words import (
    CJK,
    HIRAGANA,
    JA_STOP,
    KANJI,
    KATAKANA,
    NUMBER_WORDS,
    STOP_WORDS,
    normalize,
    tokens,
    verb_prefixed,
)

HIRAGANA_WEIGHT = 0.4  # a Japanese run of hiragana: mostly grammar, rarely the point
NUMBER_WEIGHT = 0.6  # a number found as such: "15" in a question is often an example
PHRASE_GAP = 2  # words a vocabulary phrase may skip between its own ("who gets the chips")


@dataclass
class Vocabulary:
    """A rules page's search words, from its game package (search_terms.py there).

    phrases: language -> {phrase people say: the ids they mean, the likeliest first}. An English
    or Russian phrase matches its words' stems in order (a few other words may come between);
    a word ending in "*" matches any word starting so ("пас*": пасанул, пасовать). A Japanese
    phrase matches as part of the question.
    reads: reading id -> the rule id it reads (readings that sit apart from their rule).
    readings: every id on the page that is a reading, not a rule.
    numbers: the question's numbers -> the ids they point to (e.g. a bid and a digit it ends in).
    names: what the page's game is called, in every language: a question that names it asks
    about this page, and the name is not one of its words (in "how many pebbles in Pebbles?"
    the game's name says which rules, not which rule). Matched as phrases, so a Russian name
    is found declined too.
    """

    phrases: dict[str, dict[str, tuple[str, ...]]] = field(default_factory=dict)
    reads: dict[str, str] = field(default_factory=dict)
    readings: frozenset[str] = frozenset()
    numbers: Callable[[list[int]], Iterable[str]] | None = None
    names: tuple[str, ...] = ()


def name_pattern(name: str) -> tuple[str, ...] | str:
    """A game's name as a phrase: its stems without the words of grammar ("From X to Y" is
    x … y, in Russian too, so a declined name matches), or its Japanese text."""
    pattern = phrase_pattern(name)
    if isinstance(pattern, str):
        return pattern.replace(" ", "")
    raws = [raw for _, _, raw in tokens(name)]
    return tuple(word for word, raw in zip(pattern, raws, strict=False) if raw not in STOP_WORDS)


def phrase_pattern(phrase: str) -> tuple[str, ...] | str:
    """A vocabulary phrase as it is matched: a tuple of stems ("*" kept for prefixes) for
    English and Russian, the normalised text for Japanese."""
    if CJK.search(phrase):
        return " ".join(normalize(phrase).split())
    words: list[str] = []
    for word in normalize(phrase).split():
        prefix = word.endswith("*")
        found = tokens(word.rstrip("*"))
        if not found:
            continue
        words.extend(key for _, key, _ in found[:-1])
        _, key, raw = found[-1]
        words.append((raw if prefix else key) + ("*" if prefix else ""))
    return tuple(words)


def phrase_positions(
    pattern: tuple[str, ...], query: list[str], raws: list[str]
) -> tuple[int, ...] | None:
    """Where the stems of a phrase occur in the question in order, each within PHRASE_GAP words
    of the one before (the positions of its words), or None."""

    def fits(word: str, at: int) -> bool:
        if word.endswith("*"):
            return raws[at].startswith(word[:-1]) or verb_prefixed(raws[at], word[:-1])
        return query[at] == word

    def search(start: int, rest: tuple[str, ...], first: bool) -> tuple[int, ...] | None:
        if not rest:
            return ()
        end = len(query) if first else min(len(query), start + PHRASE_GAP + 1)
        for at in range(start, end):
            if fits(rest[0], at):
                found = search(at + 1, rest[1:], False)
                if found is not None:
                    return (at, *found)
        return None

    return search(0, pattern, True) if pattern else None


def phrase_matches(pattern: tuple[str, ...], query: list[str], raws: list[str]) -> bool:
    """Whether the stems of a phrase occur in the question in order (phrase_positions)."""
    return phrase_positions(pattern, query, raws) is not None


def parts_span(
    parts: list[str], text: str, breaks: frozenset[int] = frozenset()
) -> tuple[int, int] | None:
    """Where every part occurs in the text, each after the one before (a Japanese phrase): the
    span from the first part's start to the last one's end, or None. A part of one kanji is a
    word only standing alone: 場 is not found in 場合, 石 not in 宝石 (breaks: the places of the
    text where the question had a space, which part words)."""
    at, first = 0, None
    for part in parts:
        if not part:
            return None
        found = text.find(part, at)
        while found >= 0 and len(part) == 1 and _glued(text, found, breaks):
            found = text.find(part, found + 1)
        if found < 0:
            return None
        first = found if first is None else first
        at = found + len(part)
    return (first or 0, at) if first is not None else None


def _glued(text: str, at: int, breaks: frozenset[int]) -> bool:
    """Whether the kanji at `at` is part of a longer run of kanji (not across a space)."""
    kanji = re.compile(f"[{KANJI}]")
    if not kanji.fullmatch(text[at]):
        return False
    before = at > 0 and at not in breaks and kanji.fullmatch(text[at - 1])
    after = at + 1 < len(text) and at + 1 not in breaks and kanji.fullmatch(text[at + 1])
    return bool(before or after)


def parts_in_order(parts: list[str], text: str) -> bool:
    """Whether every part occurs in the text, each after the one before (parts_span)."""
    return parts_span(parts, text) is not None


# --- the question -----------------------------------------------------------------------------


@dataclass
class Term:
    kind: str  # "word" (a stem), "num" (digits) or "ja" (Japanese text)
    text: str
    weight: float = 1.0
    typed: bool = False  # the last word, maybe not finished yet


@dataclass
class Question:
    terms: list[Term]
    stems: list[str]  # every English/Russian word's stem and every number, in order
    raws: list[str]  # the same words as typed (normalised)
    japanese: str  # the Japanese of the question, normalised, without spaces
    numbers: list[int]
    breaks: frozenset[int] = frozenset()  # where in `japanese` a space was


def _ja_terms(text: str) -> list[Term]:
    """A Japanese run of text (one or more scripts) as terms, its question endings cut."""
    for ending in JA_STOP:
        text = text.replace(ending, " ")
    terms = []
    for run in re.findall(rf"[{KANJI}]+|[{KATAKANA}]+|[{HIRAGANA}]+", text):
        if re.fullmatch(rf"[{HIRAGANA}]+", run):
            if len(run) >= 3:
                terms.append(Term("ja", run, HIRAGANA_WEIGHT))
        else:
            terms.append(Term("ja", run))
    return terms


def question(query: str) -> Question:
    """The query read as a question: its terms, and what a vocabulary matches against."""
    terms: list[Term] = []
    stems, raws, numbers = [], [], []
    found = tokens(query)
    typing = bool(query) and not re.search(r"[\s\W]$", query)
    for number, (kind, key, raw) in enumerate(found):
        last = typing and number == len(found) - 1
        if kind == "ja":
            continue
        stems.append(key)
        raws.append(raw)
        if kind == "num":
            numbers.append(int(key))
            terms.append(Term("num", key, NUMBER_WEIGHT))
            continue
        if key in NUMBER_WORDS or raw in NUMBER_WORDS:
            value = NUMBER_WORDS[key] if key in NUMBER_WORDS else NUMBER_WORDS[raw]
            numbers.append(value)
            terms.append(Term("num", str(value), NUMBER_WEIGHT))
        if raw not in STOP_WORDS:
            terms.append(Term("word", key, typed=last))
    text = normalize(query)
    # Japanese terms come from the question's Japanese with its endings cut (digits and Latin
    # between them were read above).
    for run in re.findall(rf"[{KANJI}{KATAKANA}{HIRAGANA}]+", text):
        terms.extend(_ja_terms(run))
    unique: list[Term] = []
    for term in terms:
        if not any(t.kind == term.kind and t.text == term.text for t in unique):
            unique.append(term)
    pieces = text.split()
    breaks = frozenset(sum(len(piece) for piece in pieces[:n]) for n in range(1, len(pieces)))
    return Question(unique, stems, raws, "".join(pieces), numbers, breaks)


def query_terms(query: str) -> list[tuple[str, str]]:
    """The query's terms as (kind, text) pairs: what it looks for and what is marked."""
    return [(t.kind, t.text) for t in question(query).terms]

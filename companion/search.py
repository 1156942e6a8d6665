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
  (an edit or two away, with rapidfuzz): "arabanna" finds Arabana.

An entry's score adds, per term, a BM25-like weight (rarer terms weigh more, a term in the title
more than in the body), and the vocabulary's boosts: a phrase of the question that a game lists
("can't pay", «ничья», 同点) raises the entries it names, and a game may read meaning into
numbers (Serengeti: "bid 15 … own a 5" is the digit rule). A reading ranks below the rule it
reads unless the question asks about the reading's own point (words the reading has and its rule
lacks). A set game is a filter: only its page's entries are listed.
"""

from __future__ import annotations

import html
import math
import re
import threading
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from html.parser import HTMLParser

import Stemmer
from markupsafe import Markup, escape
from rapidfuzz import process
from rapidfuzz.distance import OSA

MAX_QUERY = 200  # characters: a longer query is refused politely
LIMIT = 20  # results shown
SNIPPET = 150  # characters of body around the first match

TITLE_WEIGHT = 2.0  # a term in the title counts this much more than one in the body
K1, B = 1.2, 0.5  # BM25's saturation and length normalisation
B_TITLE = 0.9  # a short title is about its words more than a long one
PREFIX_WEIGHT = 0.5  # a word found only as the start of a longer word ("bon" in "bonus")
TYPING_WEIGHT = 0.9  # the same for the last word while it is still being typed
FUZZY_WEIGHT = 0.8  # a word read as the nearest known word
HIRAGANA_WEIGHT = 0.4  # a Japanese run of hiragana: mostly grammar, rarely the point
PIECE_WEIGHT = 0.5  # a two-character piece of a Japanese kanji run the pages lack
NUMBER_WEIGHT = 0.6  # a number found as such: "15" in a question is often an example
PHRASE_BOOST = 8.0  # a phrase of a game's vocabulary, for the first id it names
RANK_DECAY = 0.8  # each further id a phrase names gets this much of the one before
HINT_BOOST = 10.0  # a game's reading of the question's numbers
READING_OWN_SHARE = 0.25  # below this share of its score from its own words, a reading yields
PHRASE_GAP = 2  # words a vocabulary phrase may skip between its own ("who gets the chips")

STEMMERS = {"latin": Stemmer.Stemmer("english"), "cyrillic": Stemmer.Stemmer("russian")}

# The words of a question's grammar: too common to narrow anything down. Game words and numbers
# are never here. (English and Russian, compared before stemming.)
STOP_WORDS = set(
    # English: question words, pronouns, auxiliaries, fillers
    "a an and are as at be been being by can could did do does doing done for from had has have "
    "having he her hers him his how i if in into is it its just let lets may me might mine must "
    "my now of off on or our ours shall she should so some such than that the their theirs them "
    "then there these they this those to too us very was we were what whats when where which "
    "while who whom whose why will with would you your yours yourself anything something "
    "anyone someone somebody anybody happen happens happened happening get gets got getting "
    "not ok okay please tell know really also still about thing things way like want need needs "
    "again mean means exactly actually else".split()
    # Russian: question words, pronouns, particles, prepositions, быть and its forms
    + "а в во и или как ли на не о об по с со у что чтобы это этот эта эти я мне меня мой моя "
    "мои моё мое моих ты тебе тебя вы вам вас ваш ваши он она оно они его ее её их им ему ей нам "
    "нас мы наш наши можно нельзя ли если какой какая какое какие каких каком сколько кто кого "
    "кому чем чём где когда почему зачем то так же бы быть будет будут было был была были есть "
    "ещё еще уже того тогда этого за до из от при про для к ко да нет ну вот тут там тогда потом надо нужно "
    "скажите подскажите вообще всё все всех всем сам сама сами сразу именно типа разве".split()
)

# Question endings and fillers cut from a Japanese question before it is split into terms
# (longest first, so どうなるの goes before どうなる).
JA_STOP = sorted(
    """どうなりますか どうなるんですか どうなるの どうなる どうなります どうする どうしたら
    どうすれば ですか ますか でしょうか できますか できるの できる できます いいですか
    いいの ていい てもいい でもいい もいい いい なかったら だったら かったら たら ったら
    ってる って っていう ときは とき 場合は 場合 何枚 何点 何本 何個 何人 何回 何度
    何 なに なん どっち どちら どれ いくつ いつ
    もらえる もらえます ありますか あるの ある あります いる います なる なります
    する します した しても したら ですが けど のか のは""".split(),
    key=len,
    reverse=True,
)

# Number words a question may use instead of digits (English and Russian, as stems).
NUMBER_WORDS = {
    **{w: n for n, w in enumerate("zero one two three four five six seven eight nine ten".split())},
    **{w: n for n, w in enumerate("ноль один два три четыре пять шесть семь восемь девять".split())},
    "нуль": 0, "одна": 1, "одну": 1, "две": 2, "десять": 10,
    "единичк": 1, "единиц": 1, "двойк": 2, "тройк": 3, "четверк": 4, "пятерк": 5,
    "шестерк": 6, "семерк": 7, "восьмерк": 8, "девятк": 9, "десятк": 10,
}  # fmt: skip

KANJI = r"\u3400-\u9fff々〆"
KATAKANA = r"\u30a0-\u30ff\uff66-\uff9fー"
HIRAGANA = r"\u3040-\u309f"
TOKEN = re.compile(
    rf"\d+|[a-z\u00c0-\u024f]+|[а-яё]+|[{KANJI}]+|[{KATAKANA}]+|[{HIRAGANA}]+", re.IGNORECASE
)
CJK = re.compile(rf"[{KANJI}{KATAKANA}{HIRAGANA}]")
CONTRACTIONS = [
    (re.compile(r"\bcan['’]?t\b|\bcannot\b"), "can not"),
    (re.compile(r"\bwon['’]t\b"), "will not"),
    (re.compile(r"n['’]t\b"), " not"),
    (re.compile(r"['’](s|ve|re|ll|d|m)\b"), ""),
]


def normalize(text: str) -> str:
    """Lower case, full-width letters and digits as ASCII, ё as е, English contractions spelt
    out ("can't" -> "can not")."""
    text = unicodedata.normalize("NFKC", text).lower().replace("ё", "е")
    for pattern, replacement in CONTRACTIONS:
        text = pattern.sub(replacement, text)
    return text


@lru_cache(maxsize=65536)
def script_of(word: str) -> str:
    """ "cjk", "cyrillic" or "latin" (digits count as Latin)."""
    if CJK.search(word):
        return "cjk"
    if re.search(r"[\u0400-\u04ff]", word):
        return "cyrillic"
    return "latin"


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """The word's stem in its own script's language (English or Russian), lower-cased."""
    word = unicodedata.normalize("NFKC", word).lower().replace("ё", "е")
    stemmer = STEMMERS.get(script_of(word))
    return stemmer.stemWord(word) if stemmer else word


def tokens(text: str) -> list[tuple[str, str, str]]:
    """The text's tokens in order: (kind, key, raw) with kind "word" (key: the stem), "num"
    (key: the digits) or "ja" (key: a run of one Japanese script)."""
    found = []
    for match in TOKEN.finditer(normalize(text)):
        raw = match.group()
        if raw.isdigit():
            found.append(("num", str(int(raw)) if len(raw) < 6 else raw, raw))
        elif script_of(raw) == "cjk":
            found.append(("ja", raw, raw))
        else:
            found.append(("word", stem(raw), raw))
    return found


# --- reading the rules pages -------------------------------------------------------------------


@dataclass
class Entry:
    """One anchored element of a rules page, in one language."""

    page: str  # the rules page's key (/rules/<page>)
    anchor: str
    lang: str
    title: str
    body: str
    own_title: bool = True  # False: the title shown is the enclosing entry's (not indexed)
    parent: str | None = None  # the anchored entry this one sits in (a reading under its rule)
    headed: bool = True  # False: no heading; the title is the start of the body


HEADINGS = {"h1", "h2", "h3", "h4", "h5", "h6", "dt", "summary", "strong"}
VOID = {"br", "img", "input", "link", "meta", "hr", "source", "wbr", "col", "area"}
SHORT_TITLE = 80  # characters of a headless entry's text shown as its title


class _Anchors(HTMLParser):
    """Collects each element with an id inside <main>: its first heading and all its text."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.open: list[dict] = []  # elements being read: tag, id, title, texts, in_heading
        # (anchor, title borrowed, title, body, parent anchor, headed)
        self.found: list[tuple[str, bool, str, str, str | None, bool]] = []
        self.in_main = 0
        self.skip = 0  # inside <script>/<style>/<nav>/<form>

    def handle_starttag(self, tag, attrs):
        if tag in VOID:
            return
        attrs = dict(attrs)
        if tag == "main":
            self.in_main += 1
        if tag in ("script", "style", "nav", "form"):
            self.skip += 1
        for element in self.open:
            if tag in HEADINGS and not element["title"] and element["heading"] is None:
                element["heading"] = element["title_tag"] = tag
                element["heading_depth"] = 0
            if element["heading"] is not None:
                element["heading_depth"] += 1
        if self.in_main and not self.skip and attrs.get("id") and tag != "main":
            own = tag in HEADINGS
            self.open.append(
                {"tag": tag, "id": attrs["id"], "title": "", "texts": [], "depth": 0,
                 "heading": tag if own else None, "heading_depth": 1 if own else 0,
                 "title_tag": tag if own else None,
                 "parent": self.open[-1]["id"] if self.open else None}
            )  # fmt: skip
        for element in self.open:
            element["depth"] += 1

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if tag == "main":
            self.in_main -= 1
        if tag in ("script", "style", "nav", "form"):
            self.skip = max(0, self.skip - 1)
        for element in self.open:
            if element["heading"] is not None:
                element["heading_depth"] -= 1
                if element["heading_depth"] == 0:
                    element["heading"] = None
                    element["title"] = element["title"].strip() or "…"
            element["depth"] -= 1
        while self.open and self.open[-1]["depth"] <= 0:
            element = self.open.pop()
            body = " ".join(" ".join(element["texts"]).split())
            title = " ".join(element["title"].split()).strip("…")
            headed = bool(title)
            borrowed = element["title_tag"] == "strong" and self.open and self.open[-1]["title"]
            if borrowed:
                # A label ("Our reading:") inside another entry: that entry's title says more
                # (shown, but not indexed as this entry's title: it is not about all of it).
                title = " ".join(self.open[-1]["title"].split())
            self.found.append(
                (element["id"], bool(borrowed), title, body, element["parent"], headed)
            )

    def handle_data(self, data):
        if self.skip:
            return
        for element in self.open:
            if element["heading"] is not None:
                element["title"] += data
            element["texts"].append(data)


def _shortened(text: str) -> str:
    if len(text) <= SHORT_TITLE:
        return text
    cut = text.rfind(" ", 0, SHORT_TITLE)
    return text[: cut if cut > SHORT_TITLE // 2 else SHORT_TITLE].rstrip(" ,;:") + "…"


def anchored_entries(page: str, lang: str, html_text: str) -> list[Entry]:
    """The entries of one rendered rules page: every element with an id, with some text."""
    parser = _Anchors()
    parser.feed(html_text)
    entries = []
    for anchor, borrowed, title, body, parent, headed in parser.found:
        if headed and not borrowed and body.startswith(title):
            body = body[len(title) :].strip()  # the heading is the title, not the text
        if not headed:
            title = _shortened(body)  # no heading: the start of the text names it
        if not body and not title:
            continue
        entries.append(
            Entry(
                page, anchor, lang, html.unescape(title), html.unescape(body),
                own_title=headed and not borrowed, parent=parent, headed=headed or borrowed,
            )
        )  # fmt: skip
    return entries


# --- what a game adds: the words players say ---------------------------------------------------


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
    """

    phrases: dict[str, dict[str, tuple[str, ...]]] = field(default_factory=dict)
    reads: dict[str, str] = field(default_factory=dict)
    readings: frozenset[str] = frozenset()
    numbers: Callable[[list[int]], Iterable[str]] | None = None


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


def _phrase_matches(pattern: tuple[str, ...], query: list[str], raws: list[str]) -> bool:
    """Whether the stems of a phrase occur in the question in order, each within PHRASE_GAP
    words of the one before."""

    def fits(word: str, at: int) -> bool:
        if word.endswith("*"):
            return raws[at].startswith(word[:-1])
        return query[at] == word

    def search(start: int, rest: tuple[str, ...], first: bool) -> bool:
        if not rest:
            return True
        end = len(query) if first else min(len(query), start + PHRASE_GAP + 1)
        for at in range(start, end):
            if fits(rest[0], at) and search(at + 1, rest[1:], False):
                return True
        return False

    return bool(pattern) and search(0, pattern, True)


def _parts_in_order(parts: list[str], text: str) -> bool:
    """Whether every part occurs in the text, each after the one before (a Japanese phrase)."""
    at = 0
    for part in parts:
        found = text.find(part, at)
        if not part or found < 0:
            return False
        at = found + len(part)
    return True


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
    return Question(unique, stems, raws, re.sub(r"\s+", "", text), numbers)


def query_terms(query: str) -> list[tuple[str, str]]:
    """The query's terms as (kind, text) pairs: what it looks for and what is marked."""
    return [(t.kind, t.text) for t in question(query).terms]


# --- the index -------------------------------------------------------------------------------


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
        word, two for a long one; a swap of two letters is one edit)."""
        limit = 1 if len(word_stem) < 7 else 2
        match = process.extractOne(
            word_stem, self.known_list, scorer=OSA.distance, score_cutoff=limit
        )
        if match is None:
            return None
        return self.known[match[0]]

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
        """key -> the vocabularies' boosts: the phrases of the question and its numbers."""
        boosts: dict[int, float] = {}

        def boost(page: str, ids: Iterable[str], amount: float) -> None:
            for rank, anchor in enumerate(ids):
                key = self.key_of.get((page, anchor))
                if key is not None:
                    boosts[key] = boosts.get(key, 0.0) + amount * RANK_DECAY**rank

        for page, pattern, ids in self.phrases:
            if page not in pages:
                continue
            if isinstance(pattern, str):
                matched = _parts_in_order(pattern.split(" "), asked.japanese)
                size = len(pattern.replace(" ", "")) / 2
            else:
                matched = _phrase_matches(pattern, asked.stems, asked.raws)
                size = len(pattern)
            if matched:
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
        pages = {page} if page else {p for p, _ in self.keys}
        with self.lock:
            per_term: list[tuple[Term, dict[int, float], str]] = []
            for term in asked.terms:
                if term.kind == "ja":
                    per_term.append((term, self._japanese_scores(term.text), term.text))
                else:
                    scores, found = self._word_scores(term.kind, term.text, term.typed)
                    per_term.append((term, scores, found))
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


# --- snippets ----------------------------------------------------------------------------------


def _spans(text: str, terms: list[tuple[str, str]]) -> list[tuple[int, int]]:
    """Where the terms occur in the text: whole words whose stem starts with a word term, the
    numbers, and the characters of a Japanese term."""
    spans = []
    for match in TOKEN.finditer(text):
        word = match.group()
        if word.isdigit():
            if any(kind == "num" and str(int(word)) == t for kind, t in terms):
                spans.append(match.span())
        elif script_of(word) != "cjk":
            word_stem = stem(word)
            if any(kind == "word" and word_stem.startswith(t) for kind, t in terms):
                spans.append(match.span())
    folded = unicodedata.normalize("NFKC", text).lower()
    lowered = folded if len(folded) == len(text) else text.lower()
    for kind, term in terms:
        if kind in ("chars", "ja"):
            start = lowered.find(term)
            while start != -1:
                spans.append((start, start + len(term)))
                start = lowered.find(term, start + len(term))
    spans.sort()
    merged: list[tuple[int, int]] = []
    for start, end in spans:
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


def _marked(text: str, spans: list[tuple[int, int]], offset: int = 0) -> Markup:
    out, at = [], 0
    for start, end in spans:
        start, end = start - offset, end - offset
        if end <= 0 or start >= len(text):
            continue
        start, end = max(start, 0), min(end, len(text))
        out.append(escape(text[at:start]))
        out.append(Markup("<mark>") + escape(text[start:end]) + Markup("</mark>"))
        at = end
    out.append(escape(text[at:]))
    return Markup("").join(out)


def highlight(text: str, terms: list[tuple[str, str]]) -> Markup:
    """The whole text, escaped, with the matched words marked."""
    return _marked(text, _spans(text, terms))


def snippet(text: str, terms: list[tuple[str, str]]) -> Markup:
    """About SNIPPET characters of the text around its first match, escaped, matches marked."""
    spans = _spans(text, terms)
    start = max(0, spans[0][0] - SNIPPET // 3) if spans else 0
    if start:
        space = text.rfind(" ", 0, start)
        start = space + 1 if space > start - 20 else start
    end = min(len(text), start + SNIPPET)
    if end < len(text):
        space = text.find(" ", end)
        end = space if 0 < space < end + 20 else end
    piece = _marked(text[start:end], spans, offset=start)
    return (
        (Markup("… ") if start else Markup("")) + piece + (Markup(" …") if end < len(text) else "")
    )


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

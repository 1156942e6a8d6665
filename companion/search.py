"""Ask the rules: one search over every game's rules pages, in English, Japanese and Russian.

What is indexed is what the rules pages show: each installed game's page is rendered in each
language and every element with an anchor (`id`) becomes an entry (its heading as the title, its
text as the body). So the index names no game and never drifts from the pages: a summary, a
reading or a game word (a tribe, an island, a terrain) is findable as soon as a page shows it.

The index is an in-memory SQLite database of its own (the main store may be PostgreSQL), built
once per process on the first search:
- `words`: an FTS5 table over stemmed words (Snowball, via PyStemmer: English and Russian word
  forms meet, "приключение" finds "приключений", "tracks" finds "track"), ranked by BM25 with
  titles weighted higher. Python's sqlite3 cannot register a custom tokenizer, so the words are
  stemmed in Python before indexing and before querying.
- `chars`: an FTS5 trigram table over the raw text, for Japanese, which has no spaces between
  words; terms of one or two characters (川, 何枚) are shorter than a trigram and are looked up
  with instr() over the same text.

A query is split into terms (words; Japanese runs of one script, short kana particles dropped).
An entry matching more terms ranks first, then by BM25; every entry is indexed in all three
languages, so a query in any of them finds it, and results are shown in the reader's language.
"""

from __future__ import annotations

import html
import re
import sqlite3
import threading
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from html.parser import HTMLParser

import Stemmer
from markupsafe import Markup, escape

MAX_QUERY = 200  # characters: a longer query is refused politely
LIMIT = 20  # results shown
TITLE_WEIGHT = 5.0  # BM25 weight of the title column against the body's 1
SNIPPET = 150  # characters of body around the first match

STEMMERS = {"latin": Stemmer.Stemmer("english"), "cyrillic": Stemmer.Stemmer("russian")}
# Words too common to narrow anything down (a question's grammar: "can I ... if I ...").
STOP_WORDS = set(
    "a an and are as at be by can do does i if in is it may of on or the to what when who with "
    "you your how many much which my me there this that".split()
    + "а в и или как ли на не о по с у что это я мне можно ли если какой какая сколько".split()
)
CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uff66-\uff9f々〆ー]")
JA_RUNS = re.compile(r"[\u3040-\u309f]+|[\u30a0-\u30ff\uff66-\uff9fー]+|[\u3400-\u9fff々〆]+")
WORD = re.compile(r"\w+")


def script_of(word: str) -> str:
    """ "cjk", "cyrillic" or "latin" (digits count as Latin)."""
    if CJK.search(word):
        return "cjk"
    if re.search(r"[\u0400-\u04ff]", word):
        return "cyrillic"
    return "latin"


def stem(word: str) -> str:
    """The word's stem in its own script's language (English or Russian), lower-cased."""
    word = unicodedata.normalize("NFKC", word).lower().replace("ё", "е")
    stemmer = STEMMERS.get(script_of(word))
    return stemmer.stemWord(word) if stemmer else word


def stems(text: str) -> str:
    """The text as stemmed words, for the `words` index (Japanese runs are left to `chars`)."""
    return " ".join(stem(w) for w in WORD.findall(text) if script_of(w) != "cjk")


def query_terms(query: str) -> list[tuple[str, str]]:
    """The query's terms, each ("word", stem) or ("chars", Japanese text), in order, unique.

    Japanese has no spaces: a run of one script (kanji, katakana, hiragana) is a term, and a
    hiragana run of one or two characters (a particle: の, は, を...) is dropped."""
    terms: list[tuple[str, str]] = []
    for word in WORD.findall(unicodedata.normalize("NFKC", query)):
        if script_of(word) == "cjk":
            for run in JA_RUNS.findall(word):
                if re.fullmatch(r"[\u3040-\u309f]{1,2}", run):
                    continue
                terms.append(("chars", run))
        elif word.lower() not in STOP_WORDS:
            terms.append(("word", stem(word)))
    unique = []
    for term in terms:
        if term not in unique:
            unique.append(term)
    return unique


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


HEADINGS = {"h1", "h2", "h3", "h4", "h5", "h6", "dt", "summary", "strong"}
VOID = {"br", "img", "input", "link", "meta", "hr", "source", "wbr", "col", "area"}


class _Anchors(HTMLParser):
    """Collects each element with an id inside <main>: its first heading and all its text."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.open: list[dict] = []  # elements being read: tag, id, title, texts, in_heading
        self.found: list[tuple[str, bool, str, str]] = []  # (anchor, title borrowed, title, body)
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
                 "title_tag": tag if own else None}
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
            title = " ".join(element["title"].split()).strip("…") or body[:80]
            borrowed = element["title_tag"] == "strong" and self.open and self.open[-1]["title"]
            if borrowed:
                # A label ("Our reading:") inside another entry: that entry's title says more
                # (shown, but not indexed as this entry's title: it is not about all of it).
                title = " ".join(self.open[-1]["title"].split())
            self.found.append((element["id"], bool(borrowed), title, body))

    def handle_data(self, data):
        if self.skip:
            return
        for element in self.open:
            if element["heading"] is not None:
                element["title"] += data
            element["texts"].append(data)


def anchored_entries(page: str, lang: str, html_text: str) -> list[Entry]:
    """The entries of one rendered rules page: every element with an id, with some text."""
    parser = _Anchors()
    parser.feed(html_text)
    entries = []
    for anchor, borrowed, title, body in parser.found:
        if body.startswith(title):
            body = body[len(title) :].strip()  # the heading is the title, not the text
        if not body and not title:
            continue
        entries.append(
            Entry(page, anchor, lang, html.unescape(title), html.unescape(body), not borrowed)
        )
    return entries


# --- the index -------------------------------------------------------------------------------


class Index:
    """The in-memory search index over a list of entries (all pages, all languages)."""

    def __init__(self, entries: list[Entry]):
        self.entries = entries
        # (lang, page, anchor) -> entry: a result is shown in the reader's language.
        self.by_key = {(e.lang, e.page, e.anchor): e for e in entries}
        self.any_lang: dict[tuple[str, str], Entry] = {}  # an anchor one language lacks
        for e in entries:
            self.any_lang.setdefault((e.page, e.anchor), e)
        self.db = sqlite3.connect(":memory:", check_same_thread=False)
        self.lock = threading.Lock()  # one query at a time on the shared connection
        self.db.execute("CREATE VIRTUAL TABLE words USING fts5(title, body)")
        self.db.execute("CREATE VIRTUAL TABLE chars USING fts5(title, body, tokenize='trigram')")
        self.db.execute("CREATE TABLE raw (title TEXT, body TEXT)")
        for rowid, entry in enumerate(entries, start=1):
            title = entry.title if entry.own_title else ""
            self.db.execute(
                "INSERT INTO words (rowid, title, body) VALUES (?, ?, ?)",
                [rowid, stems(title), stems(entry.body)],
            )
            self.db.execute(
                "INSERT INTO chars (rowid, title, body) VALUES (?, ?, ?)",
                [rowid, title, entry.body],
            )
            self.db.execute(
                "INSERT INTO raw (rowid, title, body) VALUES (?, ?, ?)",
                [rowid, title.lower(), entry.body.lower()],
            )

    def _term_scores(self, kind: str, term: str) -> dict[int, float]:
        """rowid -> score (higher is better) of the entries that hold the term."""
        if kind == "word":
            # A prefix query: results come while a word is still being typed.
            rows = self.db.execute(
                "SELECT rowid, -bm25(words, ?, 1.0) FROM words WHERE words MATCH ?",
                [TITLE_WEIGHT, '"' + term.replace('"', '""') + '"*'],
            )
            return {rowid: max(score, 1e-6) for rowid, score in rows}
        if len(term) >= 3:
            rows = self.db.execute(
                "SELECT rowid, -bm25(chars, ?, 1.0) FROM chars WHERE chars MATCH ?",
                [TITLE_WEIGHT, '"' + term.replace('"', '""') + '"'],
            )
            return {rowid: max(score, 1e-6) for rowid, score in rows}
        # Shorter than a trigram: look for the characters themselves.
        rows = self.db.execute(
            "SELECT rowid, instr(title, ?) > 0 FROM raw WHERE instr(title, ?) OR instr(body, ?)",
            [term, term, term],
        )
        return {rowid: TITLE_WEIGHT if in_title else 1.0 for rowid, in_title in rows}

    def search(self, query: str, lang: str, first_page: str | None = None) -> list[Result]:
        """The entries that best match the query, each once, in the reader's language."""
        terms = query_terms(query)
        if not terms:
            return []
        with self.lock:
            per_term = [self._term_scores(kind, term) for kind, term in terms]
        # Per anchor (all its languages together): the terms matched, and the best score.
        matched: dict[tuple[str, str], set[int]] = {}
        score: dict[tuple[str, str], float] = {}
        for number, scores in enumerate(per_term):
            for rowid, value in scores.items():
                entry = self.entries[rowid - 1]
                key = (entry.page, entry.anchor)
                matched.setdefault(key, set()).add(number)
                score[key] = score.get(key, 0.0) + value
        if not matched:
            return []
        best = max(len(found) for found in matched.values())
        keys = [key for key, found in matched.items() if len(found) == best]
        keys.sort(key=lambda key: (key[0] != first_page, -score[key]))
        results = []
        for key in keys[:LIMIT]:
            entry = self.by_key.get((lang, *key)) or self.any_lang[key]
            results.append(
                Result(entry, highlight(entry.title, terms), snippet(entry.body, terms),
                       best == len(terms))
            )  # fmt: skip
        return results


@dataclass
class Result:
    entry: Entry
    title: Markup
    snippet: Markup
    complete: bool  # every term matched (else: the entries that matched the most terms)


# --- snippets ----------------------------------------------------------------------------------


def _spans(text: str, terms: list[tuple[str, str]]) -> list[tuple[int, int]]:
    """Where the terms occur in the text: whole words whose stem starts with a word term, and
    the characters of a Japanese term."""
    spans = []
    for match in WORD.finditer(text):
        word = match.group()
        if script_of(word) != "cjk":
            word_stem = stem(word)
            if any(kind == "word" and word_stem.startswith(t) for kind, t in terms):
                spans.append(match.span())
    lowered = text.lower()
    for kind, term in terms:
        if kind == "chars":
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


def index(build: Callable[[], list[Entry]]) -> Index:
    """The process's index, built on first use from build() (the rendered rules pages)."""
    global _index
    if _index is None:
        with _building:
            if _index is None:
                _index = Index(build())
    return _index


def forget() -> None:
    """Drop the built index (tests that change the pages)."""
    global _index
    _index = None

"""What a result shows: its text, escaped, with the words the question matched marked, whole or
as a snippet around the first match."""

from __future__ import annotations

import unicodedata

from markupsafe import Markup, escape

from companion.search.words import TOKEN, script_of, stem

SNIPPET = 150  # characters of body around the first match


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

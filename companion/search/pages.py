"""Reading the rules pages: every element with an anchor (`id`) inside <main> of a rendered page
becomes an Entry (its heading as the title, its text as the body)."""

from __future__ import annotations

import html
from dataclasses import dataclass
from html.parser import HTMLParser


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

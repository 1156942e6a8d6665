"""Ask the rules, measured on questions as players say them: the hit rate and the query times.

    python -m scripts.search_quality           # every miss, then the figures
    python -m scripts.search_quality --all     # every question with its top 3

The questions are each installed game's tests/<game>/search_questions.json (a game brings its
own; docs/architecture.md, "Adding a fifth game"): each has its language, the game of the table it
is asked from (a lobby entry: a variant asks on its game's page) and the rule or reading ids whose
entry answers it. A question is answered when one of those ids is among the first TOP results of
the search scoped to that game's rules page; a scoped search that lists an entry of another
page leaks. tests/test_search_questions.py holds the search to these figures.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from dataclasses import dataclass
from pathlib import Path

from companion.games import INSTALLED

ROOT = Path(__file__).resolve().parent.parent

TESTS = ROOT / "tests"
TOP = 3  # an answer must be among the first TOP results


def question_files() -> list[Path]:
    """Each installed game's questions (tests/<package>/search_questions.json)."""
    return [TESTS / name / "search_questions.json" for name in INSTALLED]


def load_questions() -> list[dict]:
    """The question set: dicts with lang, game (a lobby entry key), q and ids (and first: the
    ids of which one must come first, for a question that must be answered first)."""
    found: list[dict] = []
    for path in question_files():
        found += json.loads(path.read_text(encoding="utf-8"))
    return found


@dataclass
class Outcome:
    question: dict
    page: str  # the rules page the question is asked on
    found: list[tuple[str, str]]  # (page, anchor) of every result, best first
    seconds: float

    @property
    def rank(self) -> int | None:
        """1-based rank of the first acceptable answer on the question's page, or None."""
        for number, (page, anchor) in enumerate(self.found, start=1):
            if page == self.page and anchor in self.question["ids"]:
                return number
        return None

    @property
    def hit(self) -> bool:
        return self.rank is not None and self.rank <= TOP

    @property
    def leaks(self) -> bool:
        """Whether any result comes from another rules page."""
        return any(page != self.page for page, _ in self.found)


def ask(index, questions: list[dict], scoped: bool = True) -> list[Outcome]:
    """Every question asked of the index, in its own language, from its game (or, unscoped,
    from the search page without a game)."""
    from companion.games import GAMES

    outcomes = []
    for question in questions:
        page = GAMES[question["game"]].rules_page
        started = time.perf_counter()
        results = index.search(question["q"], question["lang"], page if scoped else None)
        seconds = time.perf_counter() - started
        found = [(r.entry.page, r.entry.anchor) for r in results]
        outcomes.append(Outcome(question, page, found, seconds))
    return outcomes


def build_index():
    """The search index over the rules pages as the app renders them."""
    from companion import create_app
    from companion.web.rules import build_index

    app = create_app({"TESTING": True, "DATABASE": ":memory:", "SECRET_KEY": "quality"})
    with app.app_context():
        return build_index()


def summary(outcomes: list[Outcome]) -> str:
    hits = sum(o.hit for o in outcomes)
    leaks = sum(o.leaks for o in outcomes)
    times = sorted(o.seconds for o in outcomes)
    by_lang = {}
    for o in outcomes:
        lang = o.question["lang"]
        got, total = by_lang.get(lang, (0, 0))
        by_lang[lang] = (got + o.hit, total + 1)
    langs = ", ".join(f"{lang} {got}/{total}" for lang, (got, total) in by_lang.items())
    return (
        f"{hits} of {len(outcomes)} answered in the top {TOP} ({langs}); "
        f"{leaks} with results from another game; query time median "
        f"{statistics.median(times) * 1000:.1f} ms, slowest {times[-1] * 1000:.1f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--all", action="store_true", help="show every question, not only misses")
    args = parser.parse_args()
    questions = load_questions()
    index = build_index()
    ask(index, questions[:5])  # warm up
    scoped = ask(index, questions)
    for o in scoped:
        if args.all or not o.hit:
            mark = "ok  " if o.hit else "MISS"
            top = " | ".join(a for _, a in o.found[:TOP])
            print(f"{mark} [{o.question['lang']} {o.question['game']}] {o.question['q']}")
            print(f"       wanted {', '.join(o.question['ids'])}; got {top or '(nothing)'}")
    print("From a table (the game set):", summary(scoped))
    print("From the search page (no game):", summary(ask(index, questions, scoped=False)))


if __name__ == "__main__":
    main()

"""The core names no game: only the registry (companion/games/__init__.py, INSTALLED) says which
games exist. Core code, templates and scripts find the games, their privacy specs and their move
generators through the registry, and the core's tests use the fixture game (tests/fixture_game),
so a game can be added or removed without touching them (issue 23). Tests that hold a driver per
game and check the same thing in each live in tests/games/, a game's own tests in tests/<game>/."""

from __future__ import annotations

import re
from pathlib import Path

from companion.games import GAMES, INSTALLED, PACKAGES

ROOT = Path(__file__).resolve().parent.parent
REGISTRY = ROOT / "companion" / "games" / "__init__.py"
# Where the core lives: its code (the games' own folders excepted), its templates and script,
# the scripts, and the core's tests (each game's tests live in tests/<game>/).
CORE = [
    *(ROOT / "companion").glob("*.py"),
    *(ROOT / "companion" / "games").glob("*.py"),
    *(
        path
        for folder in (ROOT / "companion").iterdir()
        if folder.is_dir() and folder.name != "games"
        for path in folder.rglob("*")
        if path.suffix in (".py", ".html")
    ),
    *(ROOT / "templates").rglob("*.html"),
    *(ROOT / "static" / "js").glob("*.js"),
    *(ROOT / "scripts").rglob("*.py"),
    *(ROOT / "tests").glob("*.py"),
    *(ROOT / "tests" / "browser").glob("*.py"),
]


def _names() -> list[str]:
    """Each installed game's folder name, lobby keys and English names."""
    installed = [info for info in GAMES.values() if info.name in INSTALLED]
    words = {*INSTALLED, *(info.key for info in installed), *(info.label for info in installed)}
    words |= {word.replace("_", " ") for word in list(words)} | {w.replace("_", "-") for w in words}
    return sorted(words)


def _pattern() -> re.Pattern:
    # A whole word, so that "don't" is not the Don rules; lower-case keys in any case.
    names = "|".join(re.escape(name) for name in _names())
    return re.compile(rf"(?<![\w'’])(?:{names})(?![\w'’])", re.IGNORECASE)


def test_no_game_is_named_in_the_core():
    pattern = _pattern()
    found = []
    for path in CORE:
        if path == REGISTRY or path.name == Path(__file__).name:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for match in pattern.finditer(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {match.group(0)}")
    assert not found, "\n".join(found)


def test_the_check_looks_at_the_core_and_knows_every_game():
    """The check above must be able to fail: it reads real core files and every installed game's
    names match it."""
    assert len([p for p in CORE if "scripts" in p.parts]) >= 5
    assert any(p.name == "tables.py" or p.parent.name == "tables" for p in CORE)
    pattern = _pattern()
    for name in INSTALLED:
        assert name in PACKAGES and pattern.search(f"a game like {name}.")
    assert not pattern.search("Don't look.")

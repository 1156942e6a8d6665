"""Translation catalogues: extract, update, compile and check them, one part per game.

The core app is one part (its catalogue in companion/translations/); each installed game is
another (every file inside its package companion/games/<name>/, catalogue in the package's
translations/ folder), so a game's strings stay with the game and people working on two games
never edit the same catalogue. The parts come from the registry (companion.games.INSTALLED).

    python -m scripts.i18n update [PART]   # extract strings, merge them into ja and ru .po files
    python -m scripts.i18n compile   # .po -> .mo (run by `make` before serving or testing)
    python -m scripts.i18n check     # exit 1 if a string lacks a Japanese or Russian translation
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from babel.messages.frontend import CommandLineInterface
from babel.messages.pofile import read_po

from companion.games import INSTALLED

ROOT = Path(__file__).resolve().parent.parent

GAMES_DIR = ROOT / "companion" / "games"
LANGS = ("ja", "ru")
KEYWORDS = [
    "-k",
    "N_",
    "-k",
    "_l",
    "-k",
    "_",
    "-k",
    "gettext",
    "-k",
    "lazy_gettext",
    "-k",
    "lazy_ngettext:1,2",
    "-k",
    "Plural:1,2",
]


# The tests' own game has a catalogue too (its pages run the translation paths): a part, though
# never installed (tests/fixture_game; see tests/conftest.py).
TEST_PARTS = {"fixture_game": ROOT / "tests" / "fixture_game"}


def part_dir(part: str) -> Path:
    """The folder of a game part's package."""
    return TEST_PARTS[part] if part in TEST_PARTS else GAMES_DIR / part


def parts() -> tuple[str, ...]:
    """The core, every installed game, and the tests' game."""
    return ("core", *INSTALLED, *TEST_PARTS)


def catalogue_dir(part: str) -> Path:
    """Where a part's catalogues live: <dir>/<lang>/LC_MESSAGES/messages.po."""
    if part == "core":
        return ROOT / "companion" / "translations"
    return part_dir(part) / "translations"


def catalogues() -> list[Path]:
    """Every .po file of every part."""
    return [
        catalogue_dir(part) / lang / "LC_MESSAGES" / "messages.po"
        for part in parts()
        for lang in LANGS
    ]


def source_files() -> list[Path]:
    files = []
    for top in (ROOT / "companion", ROOT / "templates", *TEST_PARTS.values()):
        for pattern in ("*.py", "*.html", "*.txt"):
            files += sorted(top.rglob(pattern))
    return [f for f in files if "translations" not in f.parts]


def part_of(path: Path) -> str:
    """The game package a file belongs to, or "core"."""
    resolved = path.resolve()
    for part, folder in TEST_PARTS.items():
        if resolved.is_relative_to(folder.resolve()):
            return part
    parts_ = resolved.relative_to(ROOT).parts
    if parts_[:2] == ("companion", "games") and len(parts_) > 3 and parts_[2] in INSTALLED:
        return parts_[2]
    return "core"


def files_by_part() -> dict[str, list[Path]]:
    found: dict[str, list[Path]] = {p: [] for p in parts()}
    for f in source_files():
        found[part_of(f)].append(f)
    return found


def pybabel(*args: str) -> None:
    CommandLineInterface().run(["pybabel", "-q", *args])


def extract(files: list[Path], pot: Path) -> None:
    pybabel(
        "extract",
        "-F",
        str(ROOT / "babel.cfg"),
        *KEYWORDS,
        # A note for translators: {# Translators: ... #} or # Translators: ... just before the text.
        "--add-comments",
        "Translators:",
        "--no-location",
        "--sort-output",
        "-o",
        str(pot),
        *[str(f.relative_to(ROOT)) for f in files],
    )


def update(only: str | None = None) -> None:
    """Extract every part (or only one) and merge new strings into its ja and ru catalogues."""
    os.chdir(ROOT)
    for part, files in files_by_part().items():
        if not files or (only and part != only):
            continue
        part_dir = catalogue_dir(part)
        part_dir.mkdir(parents=True, exist_ok=True)
        pot = part_dir / "messages.pot"
        extract(files, pot)
        for lang in LANGS:
            po = part_dir / lang / "LC_MESSAGES" / "messages.po"
            if po.exists():
                pybabel(
                    "update",
                    "-i",
                    str(pot),
                    "-d",
                    str(part_dir),
                    "-l",
                    lang,
                    "--no-fuzzy-matching",
                    "--ignore-obsolete",
                )
            else:
                pybabel("init", "-i", str(pot), "-d", str(part_dir), "-l", lang)


def compile_all() -> None:
    for part in parts():
        if catalogue_dir(part).exists():
            pybabel("compile", "-d", str(catalogue_dir(part)))


def missing() -> list[str]:
    """Every (part, language, msgid) whose translation is missing or fuzzy, after a fresh extract."""
    problems = []
    os.chdir(ROOT)
    with tempfile.TemporaryDirectory() as tmp:
        for part, files in files_by_part().items():
            if not files:
                continue
            pot = Path(tmp) / f"{part}.pot"
            extract(files, pot)
            with pot.open("rb") as fh:
                wanted = [(m.id, m.context) for m in read_po(fh) if m.id]
            for lang in LANGS:
                po = catalogue_dir(part) / lang / "LC_MESSAGES" / "messages.po"
                if not po.exists():
                    problems.append(f"{part}/{lang}: no catalogue")
                    continue
                with po.open("rb") as fh:
                    catalog = read_po(fh)
                for msgid, context in wanted:
                    message = catalog.get(msgid, context)
                    strings = message.string if message else None
                    ok = all(strings) if isinstance(strings, tuple) else bool(strings)
                    if not ok or (message and message.fuzzy):
                        problems.append(f"{part}/{lang}: {msgid!r}")
    return problems


def main(argv: list[str]) -> int:
    command = argv[1] if len(argv) > 1 else "check"
    if command == "update":
        update(argv[2] if len(argv) > 2 else None)
    elif command == "compile":
        compile_all()
    elif command == "check":
        problems = missing()
        for p in problems:
            print(p)
        print(f"{len(problems)} strings lack a translation")
        return 1 if problems else 0
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

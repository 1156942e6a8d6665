"""Translation catalogues: extract, update, compile and check them, one part per game.

The core app is one part; each game is another (every file whose path names the game's module,
e.g. companion/games/kahuna.py, companion/web/play_kahuna.py, templates/games/kahuna/...), so the
strings of one game stay together and people working on two games never edit the same catalogue.

    python scripts/i18n.py update [PART]   # extract strings, merge them into ja and ru .po files
    python scripts/i18n.py compile   # .po -> .mo (run by `make` before serving or testing)
    python scripts/i18n.py check     # exit 1 if a string lacks a Japanese or Russian translation
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from babel.messages.frontend import CommandLineInterface
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parent.parent
TRANSLATIONS = ROOT / "companion" / "translations"
LANGS = ("ja", "ru")
GAME_PARTS = ("serengeti", "cape_to_cairo", "africana", "kahuna")
KEYWORDS = ["-k", "N_", "-k", "_l", "-k", "_", "-k", "gettext", "-k", "lazy_gettext"]


def source_files() -> list[Path]:
    files = sorted((ROOT / "companion").rglob("*.py")) + sorted((ROOT / "templates").rglob("*.html"))
    return [f for f in files if "translations" not in f.parts]


def part_of(path: Path) -> str:
    rel = path.relative_to(ROOT).as_posix()
    for part in GAME_PARTS:
        if part in rel:
            return part
    return "core"


def files_by_part() -> dict[str, list[Path]]:
    parts: dict[str, list[Path]] = {p: [] for p in ("core", *GAME_PARTS)}
    for f in source_files():
        parts[part_of(f)].append(f)
    return parts


def pybabel(*args: str) -> None:
    CommandLineInterface().run(["pybabel", "-q", *args])


def extract(part: str, files: list[Path], pot: Path) -> None:
    pybabel("extract", "-F", str(ROOT / "babel.cfg"), *KEYWORDS, "--no-location",
            "--sort-output", "-o", str(pot), *[str(f.relative_to(ROOT)) for f in files])


def update(only: str | None = None) -> None:
    """Extract every part (or only one) and merge new strings into its ja and ru catalogues."""
    import os
    os.chdir(ROOT)
    for part, files in files_by_part().items():
        if not files or (only and part != only):
            continue
        part_dir = TRANSLATIONS / part
        part_dir.mkdir(parents=True, exist_ok=True)
        pot = part_dir / "messages.pot"
        extract(part, files, pot)
        for lang in LANGS:
            po = part_dir / lang / "LC_MESSAGES" / "messages.po"
            if po.exists():
                pybabel("update", "-i", str(pot), "-d", str(part_dir), "-l", lang,
                        "--no-fuzzy-matching", "--ignore-obsolete")
            else:
                pybabel("init", "-i", str(pot), "-d", str(part_dir), "-l", lang)


def compile_all() -> None:
    for part_dir in sorted(p for p in TRANSLATIONS.iterdir() if p.is_dir()):
        pybabel("compile", "-d", str(part_dir))


def missing() -> list[str]:
    """Every (part, language, msgid) whose translation is missing or fuzzy, after a fresh extract."""
    problems = []
    import os
    os.chdir(ROOT)
    with tempfile.TemporaryDirectory() as tmp:
        for part, files in files_by_part().items():
            if not files:
                continue
            pot = Path(tmp) / f"{part}.pot"
            extract(part, files, pot)
            with pot.open("rb") as fh:
                wanted = [m.id for m in read_po(fh) if m.id]
            for lang in LANGS:
                po = TRANSLATIONS / part / lang / "LC_MESSAGES" / "messages.po"
                if not po.exists():
                    problems.append(f"{part}/{lang}: no catalogue")
                    continue
                with po.open("rb") as fh:
                    catalog = read_po(fh)
                for msgid in wanted:
                    message = catalog.get(msgid)
                    strings = message.string if message else None
                    if isinstance(strings, tuple):
                        ok = all(strings)
                    else:
                        ok = bool(strings)
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

"""Each generated script's minified twin, made by terser: what phones get (issue 38).

The server minifies scripts as it serves them (companion/web/assets.py: rjsmin, which takes out
comments and spaces and renames nothing). terser also renames the app's own local names and
shortens its code: 1.4 KB less of every phone's first load, gzipped (the app's own 8.2 KB
become 6.8). terser runs on Node, at build time only: each bundle scripts/bundle_js.py writes
(static/js/app.js, pages.js, each game's table.js) gets a twin beside it, `<name>.min.js`,
committed with it, whose first line names the bundle's SHA-256 it was made from. The server
serves the twin in the bundle's place when that hash is the bundle's own, else minifies the
bundle itself as before: a bundle rebuilt without its twin (no Node at hand) still works,
only larger, and tests/test_js_bundle.py fails until the twin is made again.

Only the app's and the games' own code goes through terser; the vendored scripts (htmx,
idiomorph), minified by their authors, are kept as they are.

    npm ci --prefix scripts/minify          # once: terser, at the version package-lock.json pins
    python -m scripts.minify_js             # write every twin (`make js` runs it after the bundles)
    python -m scripts.minify_js --check     # exit 1 if a twin is missing or stale (needs no Node)
"""

from __future__ import annotations

import argparse
import hashlib
import re
import subprocess
import sys
from pathlib import Path

from companion.web.assets import TWIN_HEAD, served_twin, twin_path
from scripts.bundle_js import targets

ROOT = Path(__file__).resolve().parent.parent
TERSER = ROOT / "scripts" / "minify" / "node_modules" / ".bin" / "terser"
# A vendored script inside a bundle: its line, its text as its author ships it, then ";".
VENDORED = re.compile(r"// ==== vendor/[^\n]+\n.*?\n;\n", re.S)


def twin_of(path: Path) -> Path:
    """Where a bundle's minified twin lives (assets.twin_path: app.js -> app.min.js)."""
    return Path(twin_path(str(path)))


def terser(code: str) -> str:
    """The code through terser (compress and mangle: local names only, never a global's)."""
    if not TERSER.exists():
        raise SystemExit(
            f"terser is not installed: run `npm ci --prefix scripts/minify` ({TERSER})"
        )
    done = subprocess.run(
        [str(TERSER), "--compress", "--mangle", "--comments", "false"],
        input=code,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip()


def minify(path: Path, text: str) -> str:
    """A bundle's twin: its own code through terser, its vendored scripts as they are, in the
    bundle's order, after the line naming what it was made from."""
    pieces, start = [], 0
    for vendored in VENDORED.finditer(text):
        own = terser(text[start : vendored.start()])  # "" for a comment alone
        if own:
            pieces.append(own + "\n;\n")
        pieces.append(vendored.group(0).split("\n", 1)[1])  # without its "// ====" line
        start = vendored.end()
    rest = terser(text[start:])
    if rest:
        pieces.append(rest + "\n")
    made_from = hashlib.sha256(text.encode("utf-8")).hexdigest()
    return TWIN_HEAD.format(name=path.name, digest=made_from) + "".join(pieces)


def stale() -> list[str]:
    """The twins that are missing or not made from today's bundle (paths from the root)."""
    found = []
    for path, text in targets().items():
        if served_twin(str(path), text.encode("utf-8")) is None:
            found.append(str(twin_of(path).relative_to(ROOT)))
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if a twin is stale")
    args = parser.parse_args(argv)
    if args.check:
        for name in stale():
            print(f"{name} is stale: run `make js` (with terser: npm ci --prefix scripts/minify)")
        return 1 if stale() else 0
    for path, text in targets().items():
        with twin_of(path).open("w", encoding="utf-8", newline="\n") as fh:
            fh.write(minify(path, text))
    return 0


if __name__ == "__main__":
    sys.exit(main())

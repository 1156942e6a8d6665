"""static/js/app.js, built from the sources in static/js/src (one file per concern).

The pages load one script, static/js/app.js (templates/base.html). It is generated: htmx and
idiomorph's extension as their authors ship them (VENDORED), then the sources listed in BUNDLES,
in that order, put inside one closure, each indented by two spaces after a line naming it. The
order is the order the files' listeners are registered in (two handlers of one event run in that
order), so it is declared here, not taken from the folder. htmx_config.js comes first (htmx reads
its settings when the page is ready), then state.js: it holds what the other files share
(static/js/src/state.js says how).

    python -m scripts.bundle_js          # write static/js/app.js (`make js`)
    python -m scripts.bundle_js --check  # exit 1 if app.js is not what the sources build

The output depends on the sources alone (no date, no path of the machine), so that
tests/test_js_bundle.py can require app.js to be the sources' bundle: a source edited without
rebuilding fails there.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
JS = ROOT / "static" / "js"
SOURCES = JS / "src"

# Each bundle (a file in static/js) and its sources (files in static/js/src), in order. app.js
# for every page; pages.js beside it only on the pages with a form or button of their own (the
# home page, the set-up guide's print view, the text to paste: templates' `scripts` block), so
# that a phone at a table never loads them. A source belongs to one bundle and uses only its
# own bundle's files.
BUNDLES: dict[str, list[str]] = {
    "app.js": [
        "htmx_config.js",
        "state.js",
        "polling.js",
        "push.js",
        "connection.js",
        "banners.js",
        "queue.js",
        "offline.js",
        "drafts.js",
        "morph_guard.js",
        "refusals.js",
        "turn.js",
        "clock.js",
        "invite.js",
        "wide_tables.js",
        "keep_awake.js",
    ],
    "pages.js": [
        "home.js",
        "copy.js",
    ],
}

# Each bundle's vendored scripts (files in static/js/vendor, as their authors ship them, each
# with its licence and version beside it), put first and as they are: a page loads one script,
# one response (its headers, its own compression) instead of three on a phone's first load.
VENDORED: dict[str, list[str]] = {
    "app.js": ["htmx.min.js", "idiomorph-ext.min.js"],
}
VENDOR = JS / "vendor"

HEADER = (
    "// Generated from static/js/src by scripts/bundle_js.py: edit the sources, then `make js`.\n"
)
INDENT = "  "


def unlisted() -> list[str]:
    """The sources no bundle lists (each file of static/js/src belongs to one)."""
    listed = {name for names in BUNDLES.values() for name in names}
    return sorted(path.name for path in SOURCES.glob("*.js") if path.name not in listed)


def build(bundle: str) -> str:
    """The text of one bundle: its vendored scripts as they are (each on its own lines, ended
    with ";"), then its sources inside one strict-mode closure."""
    parts = [HEADER]
    for name in VENDORED.get(bundle, []):
        text = (VENDOR / name).read_text(encoding="utf-8").replace("\r\n", "\n").strip()
        parts.append(f"// ==== vendor/{name}\n{text}\n;\n")
    parts += ["(function () {\n", INDENT + '"use strict";\n']
    for name in BUNDLES[bundle]:
        text = (SOURCES / name).read_text(encoding="utf-8").replace("\r\n", "\n")
        lines = [INDENT + line if line.strip() else "" for line in text.rstrip().split("\n")]
        parts.append(f"\n{INDENT}// ==== {name} " + "=" * (88 - len(name)) + "\n")
        parts.append("\n".join(lines) + "\n")
    parts.append("})();\n")
    return "".join(parts)


def stale() -> list[str]:
    """The bundles whose file is not what their sources build."""
    found = []
    for bundle in BUNDLES:
        path = JS / bundle
        current = path.read_text(encoding="utf-8") if path.exists() else None
        if current != build(bundle):
            found.append(bundle)
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if a bundle is stale")
    args = parser.parse_args(argv)
    missing = unlisted()
    if missing:
        print(f"not in any bundle (scripts/bundle_js.py, BUNDLES): {missing}", file=sys.stderr)
        return 1
    if args.check:
        out_of_date = stale()
        for bundle in out_of_date:
            print(f"static/js/{bundle} is stale: run `make js`", file=sys.stderr)
        return 1 if out_of_date else 0
    for bundle in BUNDLES:
        with (JS / bundle).open("w", encoding="utf-8", newline="\n") as fh:
            fh.write(build(bundle))
    return 0


if __name__ == "__main__":
    sys.exit(main())

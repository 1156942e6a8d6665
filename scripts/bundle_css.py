"""static/css/table.css, the style sheet of a phone's table pages, built from static/css/app.css.

Every page but the table's (and its join page) loads app.css. A phone joining a table loads
only table.css: app.css without the regions marked

    /* @other-pages: <the pages they are for> */
    ...
    /* @end */

(the table display, the home page's tables, the summary's charts, the record's and the rules
search's pages), a third of app.css and 1.4 KB of a phone's first load. A rule the table page
needs must stay outside every marked region.

    python -m scripts.bundle_css          # write static/css/table.css (`make css`)
    python -m scripts.bundle_css --check  # exit 1 if table.css is not what app.css builds
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CSS = ROOT / "static" / "css"
SOURCE = CSS / "app.css"
TARGET = CSS / "table.css"
REGION = re.compile(r"/\* @other-pages: [^*]*\*/\n.*?/\* @end \*/\n", re.S)
HEADER = "/* Generated from app.css by scripts/bundle_css.py: edit app.css, then `make css`. */\n"


def build(source: str) -> str:
    """table.css's text: the source without its marked regions."""
    if source.count("/* @other-pages:") != source.count("/* @end */"):
        raise ValueError("app.css: every /* @other-pages: ... */ needs its /* @end */")
    return HEADER + REGION.sub("", source.replace("\r\n", "\n"))


def stale() -> bool:
    """Whether table.css is not what app.css builds."""
    built = build(SOURCE.read_text(encoding="utf-8"))
    return not TARGET.exists() or TARGET.read_text(encoding="utf-8") != built


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if table.css is stale")
    args = parser.parse_args(argv)
    if args.check:
        if stale():
            print("static/css/table.css is stale: run `make css`", file=sys.stderr)
            return 1
        return 0
    with TARGET.open("w", encoding="utf-8", newline="\n") as fh:
        fh.write(build(SOURCE.read_text(encoding="utf-8")))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Small modules, short functions (issue 23): no module in companion/ over MODULE_LINES lines and
no function over FUNCTION_LINES lines. A longer one is split along what it holds (as tables/ by
codes, seats, host tools and the event log; create_app into its steps) before it grows on."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MODULE_LINES = 600
FUNCTION_LINES = 100


def sources(root: Path = ROOT) -> list[Path]:
    return sorted((root / "companion").rglob("*.py"))


def long_modules(paths: list[Path], root: Path = ROOT, limit: int = MODULE_LINES) -> list[str]:
    """Each module over the limit, as "path: N lines" (path relative to root)."""
    found = []
    for path in paths:
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > limit:
            found.append(f"{path.relative_to(root)}: {lines} lines")
    return found


def long_functions(paths: list[Path], root: Path = ROOT, limit: int = FUNCTION_LINES) -> list[str]:
    """Each function or method over the limit, nested ones too, from its def line to its last
    line, as "path:line name: N lines"."""
    found = []
    for path in paths:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lines = node.end_lineno - node.lineno + 1
                if lines > limit:
                    where = f"{path.relative_to(root)}:{node.lineno}"
                    found.append(f"{where} {node.name}: {lines} lines")
    return found


def test_no_module_in_companion_is_over_600_lines():
    too_long = long_modules(sources())
    assert too_long == [], f"split these modules (at most {MODULE_LINES} lines): {too_long}"


def test_no_function_in_companion_is_over_100_lines():
    too_long = long_functions(sources())
    assert too_long == [], f"split these functions (at most {FUNCTION_LINES} lines): {too_long}"


def test_the_checks_see_every_module_and_name_what_is_too_long(tmp_path):
    """A module and a function one line over the limits are named; ones at the limits are not."""
    assert len(sources()) > 50 and (ROOT / "companion" / "tables" / "seats.py") in sources()
    package = tmp_path / "companion"
    package.mkdir()
    body = "".join(f"    x{i} = {i}\n" for i in range(FUNCTION_LINES))  # + the def line
    padding = "\n" * (MODULE_LINES - FUNCTION_LINES)  # + the function's lines
    (package / "long.py").write_text(f"def too_long():\n{body}{padding}")
    (package / "fits.py").write_text(f"def fits():\n{body[: body.rindex('    x')]}{padding}")
    paths = sources(tmp_path)
    assert long_modules(paths, tmp_path) == [f"companion/long.py: {MODULE_LINES + 1} lines"]
    assert long_functions(paths, tmp_path) == [
        f"companion/long.py:1 too_long: {FUNCTION_LINES + 1} lines"
    ]

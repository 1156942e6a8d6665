"""A fifth game, made as docs/architecture.md ("Adding a fifth game") says: the tests' game,
Pebbles, copied under a new name (its package, its template folder, its imports, its key),
registered, and held to the whole contract suite (tests/test_contract.py) in a pytest of its own.
What a newcomer copies must pass the contract before they change a rule.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from tests.helpers import ROOT

pytestmark = pytest.mark.deep
NAME = "stones"
PACKAGE = f"fifth.{NAME}"  # a game package is a subpackage, as companion.games.<name> is


def copy_pebbles(folder) -> None:
    """tests/fixture_game as the package `fifth.stones` in folder: the copy the docs' step 1
    makes."""
    (folder / "fifth").mkdir()
    (folder / "fifth" / "__init__.py").write_text("")
    target = folder / "fifth" / NAME
    shutil.copytree(
        ROOT / "tests" / "fixture_game",
        target,
        ignore=shutil.ignore_patterns("__pycache__", "*.mo", "*.pot"),
    )
    (target / "templates" / "fixture_game").rename(target / "templates" / NAME)
    for path in target.rglob("*"):
        if path.suffix not in (".py", ".html"):
            continue
        text = path.read_text()
        text = text.replace("tests.fixture_game", PACKAGE).replace("fixture_game/", f"{NAME}/")
        text = text.replace('GameInfo("pebbles"', f'GameInfo("{NAME}"')
        path.write_text(text)


def test_pebbles_copied_under_a_new_name_passes_the_contract(tmp_path):
    copy_pebbles(tmp_path)
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)]),
        "COMPANION_TEST_EXTRA_GAMES": PACKAGE,
    }
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "tests/test_contract.py", "-q", "-p", "no:xdist"]
        + ["-p", "no:cacheprovider", "-k", NAME],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-3000:]
    summary = done.stdout.strip().splitlines()[-1]
    assert " passed" in summary and "failed" not in summary, summary
    assert int(summary.split(" passed")[0].split()[-1]) >= 10, summary  # the suite ran on it

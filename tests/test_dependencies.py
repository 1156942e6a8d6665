"""The runtime imports only what pyproject.toml declares.

The test environment holds far more than a user's installation (pytest alone brings `packaging`,
which gunicorn's gevent worker imports): a module the code imports without a declared
requirement passes every other test and fails on a fresh machine at `make run`. Here a Python
with no site-packages imports the server's modules from a folder that holds only the declared
requirements and what they require in turn (tests/support/runtime.py), in a few seconds.
"""

from __future__ import annotations

import subprocess
import sys

import pytest
from packaging.requirements import Requirement

from tests.support.runtime import ROOT, closure, declared, import_folder

# What `make run` and `python -m companion.serve` load: the entry point, each engine, both
# database drivers; then the app itself is made, which imports every blueprint and game.
IMPORTS = [
    "companion.serve",
    "companion.engine",
    "gunicorn.workers.ggevent",
    "gunicorn.workers.gthread",
    "gevent",
    "gevent.pywsgi",
    "waitress",
    "psycopg",
    "psycopg_pool",
]
MAKE_APP = """
import sys
from companion import create_app
app = create_app({"DATABASE": sys.argv[1], "SECRET_KEY": "x"})
print(sorted(app.blueprints)[:1])
"""


def run_isolated(folder, code: str, *args: str) -> subprocess.CompletedProcess:
    """Python without site-packages, with the checkout and the folder (only) on its path."""
    prelude = f"import sys; sys.path[:0] = [{str(ROOT)!r}, {str(folder)!r}]\n"
    return subprocess.run(
        [sys.executable, "-S", "-c", prelude + code, *args],
        capture_output=True,
        text=True,
        cwd=folder,
        timeout=120,
    )


def test_the_server_imports_with_only_the_declared_requirements(tmp_path):
    folder = import_folder(tmp_path / "site", closure(declared()))
    done = run_isolated(folder, "\n".join(f"import {name}" for name in IMPORTS))
    assert done.returncode == 0, done.stderr[-2000:]
    made = run_isolated(folder, MAKE_APP, str(tmp_path / "companion.db"))
    assert made.returncode == 0, made.stderr[-2000:]
    # The isolation is real: nothing from the test environment is on that path.
    leaked = run_isolated(folder, "import pytest")
    assert leaked.returncode != 0 and "No module named 'pytest'" in leaked.stderr


def test_without_gunicorns_gevent_extra_the_worker_does_not_import(tmp_path):
    """The check sees the bug it was written for: gunicorn asked for without its `gevent` extra
    (as pyproject.toml did) leaves out `packaging`, and gunicorn's gevent worker fails."""
    requirements = [Requirement("gunicorn>=22") if r.name == "gunicorn" else r for r in declared()]
    if "packaging" in closure(requirements):
        pytest.skip("another declared requirement brings in packaging")
    folder = import_folder(tmp_path / "site", closure(requirements))
    done = run_isolated(folder, "import gunicorn.workers.ggevent")
    assert done.returncode != 0
    assert "No module named 'packaging'" in done.stderr

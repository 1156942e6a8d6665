"""`make run` (python -m companion.serve) says it is running only when it is, and says in one
line why it is not: a missing module, a worker that cannot load the app (gunicorn's exit 3).

Each test starts the real entry point in a child process, as `make run` does, in a folder of its
own (its instance/ there).
"""

from __future__ import annotations

import os
import select
import subprocess
import sys
import time
import urllib.request

from tests.helpers import free_port
from tests.support.runtime import ROOT, closure, declared, import_folder

RUNNING = "Table companion is running"


def server_env(port: int, **extra: str) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("COMPANION_")}
    env.update(HOST="127.0.0.1", PORT=str(port), PYTHONPATH=str(ROOT), **extra)
    return env


def test_running_is_said_once_a_worker_answers_and_not_before(tmp_path):
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "companion.serve"],  # make run's engine: gunicorn, gevent
        cwd=tmp_path,
        env=server_env(port),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        # The first thing the server says (within two minutes of a busy machine).
        first = server.stdout.readline() if select.select([server.stdout], [], [], 120)[0] else ""
        assert first.startswith(RUNNING), (first, server.stderr.read() if server.poll() else "")
        # Said once a worker has loaded the app: the very first request is answered.
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10) as answer:
            assert answer.status == 200
        rest = [server.stdout.readline() for _ in range(4)]
        assert any("Serving with push (gunicorn" in line for line in rest), rest
        assert (tmp_path / "instance" / "companion.db").exists()
    finally:
        server.terminate()
        server.wait(timeout=15)


def run_serve(port: int, folder, code: str = "", isolated: bool = False):
    """companion.serve's main() in a child Python, started in `folder`; `code` runs first.
    isolated: no site-packages, only `folder` and the checkout on the path."""
    prelude = "import sys, runpy\n"
    if isolated:
        prelude += f"sys.path[:0] = [{str(ROOT)!r}, {str(folder)!r}]\n"
    main = "runpy.run_module('companion.serve', run_name='__main__')"
    return subprocess.run(
        [sys.executable, *(["-S"] if isolated else []), "-c", prelude + code + main],
        cwd=folder,
        env=server_env(port),
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_a_missing_module_is_named_with_the_fix_and_nothing_says_running(tmp_path):
    # As on a fresh machine before the fix: everything declared but `packaging`, which
    # gunicorn's gevent worker imports.
    found = closure(declared())
    del found["packaging"]
    folder = import_folder(tmp_path / "site", found)
    done = run_serve(free_port(), folder, isolated=True)
    assert done.returncode == 1
    assert RUNNING not in done.stdout
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert "the Python module 'packaging' is not installed" in lines[0]
    assert "gunicorn's gevent worker" in lines[0] and "make clean run" in lines[0]


def test_a_worker_that_cannot_load_the_app_stops_the_server_with_status_3(tmp_path):
    # The app loads in the starting process (it migrates the database) but not in the worker:
    # gunicorn stops with "Worker failed to boot", exit 3; the line names the module.
    code = (
        "import companion\n"
        "made = companion.create_app\n"
        "calls = []\n"
        "def create_app(config=None):\n"
        "    calls.append(1)\n"
        "    if len(calls) > 1:\n"
        "        raise ModuleNotFoundError(\"No module named 'shiny'\", name='shiny')\n"
        "    return made(config)\n"
        "companion.create_app = create_app\n"
    )
    started = time.monotonic()
    done = run_serve(free_port(), tmp_path, code)
    assert done.returncode == 3, (done.stdout, done.stderr[-2000:])
    assert RUNNING not in done.stdout
    assert "the Python module 'shiny' is not installed" in done.stderr
    assert "exit status 3" in done.stderr
    assert time.monotonic() - started < 60

"""The package installs as a user installs it, with only what pyproject.toml declares.

`make test-setup` fills .wheels/ with the wheels a user's `pip install .` downloads (the runtime
requirements, what they require, and the build's setuptools and Babel). Here fresh virtual
environments install from that folder alone (--no-index): the test environment's packages never
leak in, so a requirement pyproject.toml forgets fails here as on a fresh machine.

- `pip install .` of a copy of the source (as in a clean clone: no compiled catalogues), then
  `python -m companion.serve` started as `make run` starts it (gunicorn, gevent workers) in
  another directory: it says it is running, serves the home page, creates a table, and the
  table's push stream sends its first message.
- A wheel built from the source (build isolation, from the same folder), installed the same way:
  the same, and every page in English, Japanese and Russian reads exactly as the checkout's; the
  database and the key are kept in ./instance there, nothing inside the installed package.

Building and installing take a minute of a busy 2-core machine, too much for the six minutes of
`make test`: they run in `make test-deep` (which CI runs after `make test`). `make test` checks
the declared requirements in seconds (tests/test_dependencies.py).
"""

from __future__ import annotations

import http.cookiejar
import os
import re
import select
import shutil
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from companion import create_app
from companion.games import GAMES, INSTALLED
from companion.i18n import LANGUAGES
from tests.helpers import ROOT, csrf_from, free_port, start_table, visible

NOT_SOURCE = shutil.ignore_patterns(
    ".git",
    ".venv",
    "build",
    "dist",
    "*.egg-info",
    "instance",
    "screenshots",
    "__pycache__",
    ".pytest_cache",
    ".hypothesis",
    "*.mo",
)


WHEELS = ROOT / ".wheels"


def wheels() -> Path:
    """The wheel folder `make test-setup` fills."""
    if not (WHEELS / ".filled").exists():
        pytest.fail(f"{WHEELS} is not filled: run `make test-setup`")
    return WHEELS


def source_copy(tmp_path: Path) -> Path:
    """The source as a clean clone has it (no compiled catalogues, no venv, no instance)."""
    source = tmp_path / "source"
    shutil.copytree(ROOT, source, ignore=NOT_SOURCE)
    return source


def pip(*arguments: str) -> None:
    """The test environment's pip, offline: everything comes from the wheel folder."""
    done = subprocess.run(
        [sys.executable, "-m", "pip", "--disable-pip-version-check", *arguments]
        + ["--no-index", "--find-links", str(wheels())],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]


def build_wheel(tmp_path: Path) -> Path:
    """A wheel built from the source as `pip wheel .` builds it (isolated build)."""
    out = tmp_path / "dist"
    pip("wheel", "--quiet", "--no-deps", "--wheel-dir", str(out), str(source_copy(tmp_path)))
    (wheel,) = out.glob("companion-*.whl")
    return wheel


def install(what: Path, venv: Path) -> Path:
    """A fresh virtual environment (no pip, no test extras) with `what` (a source folder or a
    wheel) and its declared requirements installed from the wheel folder; its python."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    pip("--python", str(python), "install", "--quiet", str(what))
    return python


def serve(python: Path, folder: Path) -> tuple[subprocess.Popen, str]:
    """`python -m companion.serve` started in `folder` as `make run` starts it (its default
    engine), on a free port; returns once it says it is running (and fails if it stops)."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("COMPANION_", "PYTHON"))}
    env.update(HOST="127.0.0.1", PORT=str(port), COMPANION_PUBLIC_URL=base)
    server = subprocess.Popen(
        [str(python), "-m", "companion.serve"],
        cwd=folder,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    said = server.stdout.readline() if select.select([server.stdout], [], [], 120)[0] else ""
    if not said.startswith("Table companion is running"):
        server.kill()
        pytest.fail(f"the installed app did not start: {said}{server.stderr.read()[-3000:]}")
    return server, base


def stop(server: subprocess.Popen) -> None:
    server.terminate()
    server.wait(timeout=15)


def first_push_message(device: Browser, code: str) -> str:
    """The first message of the table's push stream, as the host's page receives it."""
    request = urllib.request.Request(device.base + f"/t/{code}/push")
    with device.opener.open(request, timeout=10) as stream:
        assert stream.headers["Content-Type"].startswith("text/event-stream")
        for line in stream:
            if line.startswith(b"data:"):
                return line.decode().strip()
    raise AssertionError("the stream ended without a message")


def serves_a_table(base: str) -> None:
    """The home page, a table made from it, the table's page and its push stream."""
    device = Browser(base, "en")
    status, home = device.get("/")
    assert status == 200 and "Start a table" in visible(home), home[:300]
    key, info = next((k, i) for k, i in sorted(GAMES.items()) if i.name in INSTALLED)
    code = device.start_table(key, names(info))
    status, page = device.get(f"/t/{code}/")
    assert status == 200 and names(info)[0] in visible(page)
    assert re.fullmatch(r"data: \d+ \S*", first_push_message(device, code))


class Browser:
    """A device of one language talking to a server: its own cookies, its Accept-Language."""

    def __init__(self, base: str, language: str):
        self.base = base
        self.language = language
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
        )

    def get(self, path: str) -> tuple[int, str]:
        request = urllib.request.Request(
            self.base + path, headers={"Accept-Language": self.language}
        )
        try:
            with self.opener.open(request, timeout=30) as answer:
                return answer.status, answer.read().decode(errors="replace")  # icons too
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode(errors="replace")

    def start_table(self, game: str, names: tuple[str, ...]) -> str:
        data = {"csrf_token": csrf_from(self.get("/")[1]), "game": game, "players": len(names)}
        data.update({f"names-{i}": name for i, name in enumerate(names)})
        request = urllib.request.Request(
            self.base + "/tables",
            data=urllib.parse.urlencode(data).encode(),
            headers={"Accept-Language": self.language},
        )
        with self.opener.open(request, timeout=30) as answer:  # follows the redirect
            return re.search(r"/t/(\w+)/", answer.url).group(1)


def names(info) -> tuple[str, ...]:
    return ("Anna", "Ben", "Chris", "Dana", "Emil", "Fay")[: info.min_players]


def pages(code: str = "") -> list[str]:
    """Every page a person opens (a table's when a code is given)."""
    if code:
        return [f"/t/{code}/", f"/t/{code}/history", f"/t/{code}/summary", f"/t/{code}/join"]
    rules = sorted({info.rules_page for info in GAMES.values()})
    tools = sorted({info.name for info in GAMES.values()})
    return [
        "/",
        "/rules/",
        *(f"/rules/{page}" for page in rules),
        "/rules/search?q=bid",
        "/tools/",
        *(f"/tools/{name}/" for name in tools),
        "/plays",
        "/stats",
    ]


def same_text(page: str, code: str, base: str) -> str:
    """What a reader sees, with what differs between two servers (the table code, the
    address, the join link's secret) made equal."""
    text = re.sub(r"\?s=[\w-]+", "?s=SECRET", visible(page).replace(base, "BASE"))
    return text.replace(code, "CODE") if code else text


def compare(device: Browser, reference, path: str, code: str = "", reference_code: str = ""):
    """The installed app's page answers 200 in the device's language and reads exactly as the
    checkout's (through the test client `reference`)."""
    status, page = device.get(path)
    assert status == 200, (device.language, path, status, page[:300])
    assert f'<html lang="{device.language}">' in page, (device.language, path)
    expected = reference.get(
        path.replace(code, reference_code) if code else path,
        headers={"Accept-Language": device.language},
    )
    assert expected.status_code == 200, (device.language, path)
    assert same_text(page, code, device.base) == same_text(
        expected.text, reference_code, device.base
    ), (device.language, path)


@pytest.mark.deep
def test_pip_install_of_the_source_serves_as_make_run_does(tmp_path):
    python = install(source_copy(tmp_path), tmp_path / "venv")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    server, base = serve(python, elsewhere)
    try:
        serves_a_table(base)
    finally:
        stop(server)
    assert (elsewhere / "instance" / "companion.db").exists()


@pytest.mark.deep
def test_a_built_wheel_serves_every_page_in_three_languages_from_another_directory(
    tmp_path, monkeypatch
):
    wheel = build_wheel(tmp_path)
    python = install(wheel, tmp_path / "venv")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    server, base = serve(python, elsewhere)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("COMPANION_", "PYTHON"))}
    # The installed app knows only the installed games: the checkout too, for this comparison
    # (the tests register their own game, Pebbles, for every other test).
    from companion import search
    from companion.games import INSTALLED, PACKAGES

    for key, info in list(GAMES.items()):
        if info.name not in INSTALLED:
            monkeypatch.delitem(GAMES, key)
            monkeypatch.delitem(PACKAGES, info.name, raising=False)
    search.forget()  # this process's index may hold the tests' game: built again without it
    checkout = create_app({"TESTING": True, "DATABASE": str(tmp_path / "checkout.db")})
    checkout.config.update(SECRET_KEY="checkout", PUBLIC_URL=base)
    try:
        serves_a_table(base)
        installed = subprocess.run(
            [str(python), "-c", "import companion; print(companion.__file__)"],
            cwd=elsewhere,
            env=env,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        assert installed.startswith(str(tmp_path / "venv")), installed

        for language in LANGUAGES:
            device, reference = Browser(base, language), checkout.test_client()
            for path in pages():
                compare(device, reference, path)
            for key, info in sorted(GAMES.items()):
                code = device.start_table(key, names(info))
                reference_code = start_table(reference, key, names(info))
                for path in pages(code):
                    compare(device, reference, path, code, reference_code)
            # A style sheet and a script the pages link to are served from the package.
            for asset in re.findall(r'(?:href|src)="(/static/[^"]+)"', device.get("/")[1]):
                assert device.get(asset)[0] == 200, asset
    finally:
        stop(server)
        checkout.extensions["companion.db"].close()
        search.forget()

    # The database and the key were made in ./instance of the directory it started from, and
    # nothing was written inside the installed package.
    assert (elsewhere / "instance" / "companion.db").exists()
    assert (elsewhere / "instance" / "secret_key").exists()
    assert not list((tmp_path / "venv").rglob("instance"))

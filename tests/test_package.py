"""The package installs: a wheel built from the source carries the core's templates and static
files and the compiled catalogues; installed into a fresh virtual environment, `python -m
companion.serve` started in another directory serves every page in English, Japanese and Russian,
exactly as the checkout does, and keeps its database and secret key in ./instance there.

The wheel is built from a copy of the source without compiled catalogues (as in a clean clone)
and without build isolation (the test environment has setuptools and Babel: no download). The
fresh environment gets the wheel alone (--no-deps); the dependencies come from the test
environment's site-packages through a .pth file, which adds their folders and nothing else.

Building and installing take half a minute or more of a busy 2-core machine, too much for the
six minutes of `make test`: it runs in `make test-deep` (which CI runs after `make test`).
"""

from __future__ import annotations

import http.cookiejar
import os
import re
import shutil
import site
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from companion import create_app
from companion.games import GAMES
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


def build_wheel(tmp_path: Path) -> Path:
    source = tmp_path / "source"
    shutil.copytree(ROOT, source, ignore=NOT_SOURCE)
    out = tmp_path / "dist"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation"]
        + ["--wheel-dir", str(out), str(source)],
        check=True,
        capture_output=True,
    )
    (wheel,) = out.glob("companion-*.whl")
    return wheel


def install(wheel: Path, venv: Path) -> Path:
    """A fresh virtual environment with the wheel installed; its python."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet"]
        + ["--no-deps", "--no-index", str(wheel)],
        check=True,
        capture_output=True,
    )
    (packages,) = venv.glob("lib/python*/site-packages")
    (packages / "test-dependencies.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    return python


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
def test_a_built_wheel_serves_every_page_in_three_languages_from_another_directory(
    tmp_path, monkeypatch
):
    wheel = build_wheel(tmp_path)
    python = install(wheel, tmp_path / "venv")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("COMPANION_", "PYTHON"))}
    env.update(HOST="127.0.0.1", PORT=str(port), COMPANION_PUBLIC_URL=base)
    server = subprocess.Popen(
        [str(python), "-m", "companion.serve"],
        cwd=elsewhere,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
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
        deadline = time.time() + 30
        while True:
            try:
                urllib.request.urlopen(base + "/", timeout=1)
                break
            except OSError:
                assert server.poll() is None, server.stderr.read().decode()[-2000:]
                assert time.time() < deadline, "the installed app did not start"
                time.sleep(0.1)
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
        server.terminate()
        server.wait(timeout=10)
        checkout.extensions["companion.db"].close()
        search.forget()

    # The database and the key were made in ./instance of the directory it started from, and
    # nothing was written inside the installed package.
    assert (elsewhere / "instance" / "companion.db").exists()
    assert (elsewhere / "instance" / "secret_key").exists()
    assert not list((tmp_path / "venv").rglob("instance"))

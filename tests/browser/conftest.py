"""Browser tests: a real server (waitress, in its own process) and Debian's Chromium via Playwright.

Each phone is its own browser context (own cookies), 390x844 like a common phone. Screenshots go
to screenshots/ at the top of the project (ignored by git) so a person can look at them.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "screenshots"
PHONE = {"width": 390, "height": 844}
# Flags for a closed network: without the background-networking ones Chromium keeps trying to
# reach Google's hosts.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

pytestmark = pytest.mark.browser


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    """The app served by waitress in a child process, on a database file that outlives it."""

    def __init__(self, database: Path):
        self.database = database
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        env = {
            **os.environ,
            "COMPANION_DATABASE": str(self.database),
            "COMPANION_PUBLIC_URL": self.url,
            "COMPANION_SECRET_KEY": "browser-tests",
        }
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "waitress",
                f"--listen=127.0.0.1:{self.port}",
                "--threads=8",
                "wsgi:app",
            ],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        deadline = time.time() + 20
        while time.time() < deadline:
            try:
                urllib.request.urlopen(self.url + "/", timeout=1)
                return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("the server did not start")

    def kill(self) -> None:
        """kill -9: no clean shutdown at all."""
        if self.process:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()
            self.process = None


@pytest.fixture
def server(tmp_path):
    srv = Server(tmp_path / "browser.db")
    srv.start()
    yield srv
    srv.kill()


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.fail(f"Chromium is not at {CHROMIUM}: run `make test`, which installs it")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def phone(browser):
    """A factory of phones: each call is a new browser context with its own cookies."""
    contexts = []

    def make(locale: str = "en-US"):
        context = browser.new_context(
            viewport=PHONE, locale=locale, device_scale_factor=2, is_mobile=True, has_touch=True
        )
        context.set_default_timeout(10_000)
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()


def shot(page, name: str) -> Path:
    """Save a full-page screenshot to look at."""
    SHOTS.mkdir(exist_ok=True)
    path = SHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path

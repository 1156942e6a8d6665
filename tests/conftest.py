"""Fixtures for every test: an app on a fresh database file, its test client, table drivers,
and (for the browser tests) a real server and Debian's Chromium driven by Playwright.

Helpers that are not fixtures live in tests/helpers.py.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from companion import create_app
from companion import db as database
from tests.helpers import CHROMIUM, CHROMIUM_ARGS, PHONE, Server, TableDriver

# --- the two backends ---------------------------------------------------------------------------


@pytest.fixture(scope="session")
def postgres_server():
    """A throwaway PostgreSQL server for the whole run (scripts/throwaway_postgres.py), or a
    skip that says why there is none."""
    from scripts.throwaway_postgres import ThrowawayPostgres, Unavailable

    try:
        server = ThrowawayPostgres().start()
    except Unavailable as error:
        pytest.skip(f"PostgreSQL tests skipped: {error}")
    yield server
    server.stop()


@pytest.fixture(scope="session")
def postgres_database(postgres_server):
    """One database for the run, its schema made once; each test empties it (store_url)."""
    url = postgres_server.create_database("companion_test")
    database.connect(url, setup=True).conn.close()
    return url


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request, tmp_path):
    """The database a test runs on: a fresh SQLite file, or the PostgreSQL test database
    emptied (every test that uses the store runs on both backends)."""
    if request.param == "sqlite":
        return str(tmp_path / "test.db")
    url = request.getfixturevalue("postgres_database")
    store = database.connect(url)
    names = ", ".join(n for n in store.table_names() if n not in ("schema_version", "settings"))
    store.execute(f"TRUNCATE {names} RESTART IDENTITY CASCADE")
    store.conn.close()
    return url


@pytest.fixture
def app(store_url):
    app = create_app({"TESTING": True, "DATABASE": store_url, "SECRET_KEY": "test-secret"})
    yield app
    app.extensions["companion.db"].close()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def make_table(app):
    """A factory of tables: make_table(game, names, phones=True) -> TableDriver."""

    def make(game: str, names=("Anna", "Ben", "Chris"), *, phones: bool = True) -> TableDriver:
        return TableDriver(app, game, names, phones=phones)

    return make


# --- browsers ----------------------------------------------------------------------------------

# COMPANION_TEST_BLOCK_PUSH=1: every browser test runs with the push stream refused, as behind
# a proxy that does not pass it: the pages fall back to polling.
BLOCK_PUSH = os.environ.get("COMPANION_TEST_BLOCK_PUSH", "") not in ("", "0")
PUSH_STREAM = re.compile(r"/push(\?|$)")


@pytest.fixture
def server(tmp_path):
    """The app served as `make run` serves it (push), in its own process, on a database file
    of this test."""
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
    """A factory of phones: each call is a new browser context with its own cookies
    (390x844 unless a viewport is given, e.g. helpers.SMALL_PHONE)."""
    contexts = []
    violations: list[str] = []

    def watch(page) -> None:
        # A Content-Security-Policy violation shows in the console: every page must satisfy it.
        page.on(
            "console",
            lambda message: (
                violations.append(f"{message.text[:40]} at {message.location}")
                if "Content Security Policy" in message.text
                else None
            ),
        )

    def make(locale: str = "en-US", viewport: dict | None = None):
        context = browser.new_context(
            viewport=viewport or PHONE,
            locale=locale,
            device_scale_factor=2,
            is_mobile=True,
            has_touch=True,
        )
        context.set_default_timeout(10_000)
        context.on("page", watch)
        if BLOCK_PUSH:  # every push stream refused: the pages must poll (see the README)
            context.route(PUSH_STREAM, lambda route: route.abort())
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        try:
            context.close()
        except Exception:  # the test closed it already
            pass
    assert violations == [], violations

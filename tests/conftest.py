"""Fixtures for every test: an app on a fresh database, its test client, table drivers, and (for
the browser tests) a real server and Debian's Chromium driven by Playwright.

Helpers that are not fixtures live in tests/helpers.py.

Where each test runs (markers; `make test`, `make test-fast` and `make test-deep` pick by them):

- The store. `app`, `client`, `make_table` and `store_url` are on a fresh SQLite file. A test
  marked `both_stores` (or a module with `pytestmark = pytest.mark.both_stores`) runs twice,
  on SQLite and on a throwaway PostgreSQL database: the tests that execute SQL the two backends
  run differently. These are the store and its migrations (test_store.py), the tables (codes,
  seats, the event log, undo, concurrent writers: test_tables.py), the core web tests
  (test_web.py: joins, guessed codes, presence, device lists, hand-overs, display links and the
  fast path that answers an unchanged poll with one query), plays, records (/plays, /stats),
  exports and the purge (test_after_the_game.py), resent submissions (test_checks.py), and one
  whole game per game through the web to its summary (marked in tests/<game>/test_after*.py).
  The other web, translation and contract tests only render what the store gives back: run on
  both they would test SQLite twice, slower. A new query or store feature gets a `both_stores`
  test; a page that only shows what the store returns does not need one.
- PostgreSQL. Every test that reaches PostgreSQL (a `both_stores` copy, or one that asks for
  `postgres_server` or `postgres_database`) is marked `postgresql` here, so `make test-fast`
  can leave them out. Each xdist worker starts its own throwaway server (scripts/
  throwaway_postgres.py) on a free port, so workers never share a database.
- Browsers. A test that uses the `browser` fixture (or `phone`, `server`) is marked `browser`.
  Each xdist worker has its own Chromium: Debian's headless shell of it, a third of the browser's
  CPU per phone (tests/support/browser.py), and the browser itself for `make screenshots` or
  with CHROMIUM set. The shared `server` is one process per worker; `own_server` is the test's.
- Depth. Property tests that are slow at full depth run a few examples in `make test` and the
  full number in `make test-deep` (`examples(quick, deep)` in tests/helpers.py reads the hypothesis
  profile, "deep" there). A test marked `deep` runs only in `make test-deep` (and, if it is a
  browser test, in `make screenshots`): Serengeti's whole game on three phones, whose first
  5 rounds `make test` plays.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from flask import Flask
from hypothesis import settings

from companion import create_app
from companion import db as database
from companion.games import install
from companion.store import is_postgres_url
from tests.helpers import CHROMIUM_ARGS, PHONE, SHOTS_WANTED, Server, TableDriver
from tests.support.browser import chromium_for_tests

# The tests' own game, Pebbles (tests/fixture_game; never installed in production): the core's
# tests play it, and the contract test holds it to the contract like every installed game.
FIXTURE_GAME = "tests.fixture_game"
install(FIXTURE_GAME)
# More game packages to hold to the contract, by module path (tests/test_new_game.py registers a
# copy of Pebbles under a new name this way).
for _package in os.environ.get("COMPANION_TEST_EXTRA_GAMES", "").split():
    install(_package)

# `make test-deep` loads "deep" (--hypothesis-profile=deep); tests/helpers.examples() reads it.
settings.register_profile("deep", deadline=None)

STORES = ("sqlite", "postgresql")
BROWSER_FIXTURES = {"browser", "phone", "server", "shared_server", "own_server"}
POSTGRES_FIXTURES = {"postgres_server", "postgres_database"}


def pytest_generate_tests(metafunc):
    """A `both_stores` test that uses the store runs once per backend; any other on SQLite."""
    if "store_url" in metafunc.fixturenames and metafunc.definition.get_closest_marker(
        "both_stores"
    ):
        metafunc.parametrize("store_url", STORES, indirect=True)


def pytest_collection_modifyitems(items):
    """Mark what a test reaches from the fixtures it uses, so a forgotten marker cannot put a
    browser or PostgreSQL test into `make test-fast`."""
    for item in items:
        names = set(getattr(item, "fixturenames", ()))
        params = getattr(getattr(item, "callspec", None), "params", {})
        if names & POSTGRES_FIXTURES or params.get("store_url") == "postgresql":
            item.add_marker(pytest.mark.postgresql)
        if names & BROWSER_FIXTURES:
            item.add_marker(pytest.mark.browser)


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


@pytest.fixture
def store_url(request, tmp_path):
    """The database a test runs on: a fresh SQLite file, or (for a `both_stores` test's
    PostgreSQL run) the PostgreSQL test database emptied."""
    if getattr(request, "param", "sqlite") == "sqlite":
        return str(tmp_path / "test.db")
    url = request.getfixturevalue("postgres_database")
    empty(url)
    return url


def empty(url: str) -> None:
    """Every row out of the app's tables; the schema and the settings (the secret key) stay, and
    ids count from 1 again (PostgreSQL: TRUNCATE ... RESTART IDENTITY; SQLite: rowids, no
    AUTOINCREMENT, start again in an empty table)."""
    store = database.connect(url)
    try:
        names = [n for n in store.table_names() if n not in ("schema_version", "settings")]
        if store.backend == "postgresql":
            store.execute(f"TRUNCATE {', '.join(names)} RESTART IDENTITY CASCADE")
        else:
            # One transaction whose foreign keys are checked at its commit, when every table
            # is empty: the deletes may come in any order.
            with store.write():
                store.execute("PRAGMA defer_foreign_keys = ON")
                for name in names:
                    store.execute(f'DELETE FROM "{name}"')
    finally:
        store.close()


@dataclass
class SharedApp:
    """An app and what a test may change on it, as it was made."""

    app: Flask
    config: dict
    attributes: dict  # the app object's own attributes (test_client_class, wsgi_app, ...)
    inner_wsgi_app: object  # what the outermost middleware wraps

    def put_back(self) -> None:
        """Undo what a test changed on the app (its configuration, a client class, a wrapped
        middleware)."""
        self.app.config.clear()
        self.app.config.update(self.config)
        for name in set(vars(self.app)) - set(self.attributes):
            delattr(self.app, name)
        vars(self.app).update(self.attributes)
        self.app.wsgi_app.wsgi_app = self.inner_wsgi_app


@pytest.fixture(scope="session")
def shared_apps():
    """This worker's apps, one per backend, each reused by every test that asks for `app`.

    Making an app for each test took most of a short web test's time (Werkzeug compiles each of
    its routes, Jinja each template). A test still starts on an empty database and the app's
    configuration as made: `app` empties the tables (`empty`) and puts back what the test
    changed."""
    made: dict[str, SharedApp] = {}
    yield made
    for shared in made.values():
        shared.app.extensions["companion.db"].close()


@pytest.fixture
def app(store_url, shared_apps, tmp_path_factory):
    """The app on an empty database (SQLite, or PostgreSQL for a `both_stores` test's run)."""
    backend = "postgresql" if is_postgres_url(store_url) else "sqlite"
    shared = shared_apps.get(backend)
    if shared is None:
        url = store_url
        if backend == "sqlite":  # this worker's file, kept for its later tests
            url = str(tmp_path_factory.mktemp("app") / "test.db")
        made = create_app(
            {
                "TESTING": True,
                "DATABASE": url,
                "SECRET_KEY": "test-secret",
                "EXTRA_GAMES": [FIXTURE_GAME],
                # Tests start many tables from one client; tests/test_limits.py sets them.
                "TABLES_PER_DEVICE_MINUTE": 0,
                "TABLES_PER_ADDRESS_MINUTE": 0,
            }
        )
        shared = shared_apps[backend] = SharedApp(
            made, dict(made.config), dict(vars(made)), made.wsgi_app.wsgi_app
        )
    elif backend == "sqlite":
        empty(shared.app.config["DATABASE"])
    # (PostgreSQL: store_url has emptied the test database.)
    yield shared.app
    shared.put_back()


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


@pytest.fixture(scope="session")
def rules_index():
    """The rules' search index of every registered game (the fixture game's too), built once."""
    from companion import create_app
    from companion.web.rules import build_index

    app = create_app({"TESTING": True, "DATABASE": ":memory:", "SECRET_KEY": "t"})
    with app.app_context():
        return build_index()


@pytest.fixture(scope="session")
def shared_server(tmp_path_factory):
    """One server for every browser test of this xdist worker that needs only *a* server.

    Each test opens tables of its own on it, and its phones are browser contexts of its own
    (their own cookies, so their own devices): codes and cookies keep the tests apart, as they
    keep the tables of an evening apart. Starting a server for each test took a sixth of the
    browser tests' time."""
    srv = Server(tmp_path_factory.mktemp("shared") / "browser.db")
    srv.start()
    yield srv
    srv.kill()


@pytest.fixture
def server(shared_server):
    """The app served as `make run` serves it (push; one process), shared by this worker's
    browser tests (see shared_server). A test that kills its server or needs an empty
    database asks for `own_server`."""
    if shared_server.process is None or shared_server.process.poll() is not None:
        shared_server.start()  # a test killed it (it should have asked for own_server)
    return shared_server


@pytest.fixture
def own_server(tmp_path):
    """A server of this test alone, on a database file of this test."""
    srv = Server(tmp_path / "browser.db")
    srv.start()
    yield srv
    srv.kill()


@pytest.fixture(scope="session")
def browser():
    chromium = chromium_for_tests(SHOTS_WANTED)
    if not Path(chromium).exists():
        pytest.fail(f"Chromium is not at {chromium}: run `make test`, which installs it")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
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
            # 2, as a phone draws, when screenshots are written; the layout is the same at 1.
            device_scale_factor=2 if SHOTS_WANTED else 1,
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

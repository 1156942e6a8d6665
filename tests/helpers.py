"""Helpers every test may use: reading pages as a person would, and driving a table through
Flask's test client (TableDriver). Test files import from here (or get fixtures from conftest.py),
never from each other. One argument order everywhere: (who, action, ..., **fields).
"""

from __future__ import annotations

import ast
import html as htmllib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterable
from pathlib import Path

from hypothesis import settings

from companion import get_db, tables
from companion.i18n import LANG_COOKIE
from tests.support.browser import CHROMIUM, CHROMIUM_ARGS, free_port  # noqa: F401
from tests.support.forms import HX, csrf_from, start_table, take_seat, version_of  # noqa: F401

# --- how deep a property test goes ----------------------------------------------------------------


def examples(quick: int, deep: int) -> int:
    """How many examples a slow property test tries: `quick` in `make test`, `deep` in
    `make test-deep` (the hypothesis profile "deep", registered in tests/conftest.py)."""
    return deep if settings.get_current_profile_name() == "deep" else quick


# --- reading pages --------------------------------------------------------------------------------


def random_states(key: str, label: str, games: int = 2, steps: int = 20_000):
    """(players, step, state, rng) at every state of random games of a lobby entry (its own
    generator's actions, refusals skipped; seeded by label, entry and game), up to `steps` each
    and the end (or, for a game with a move open after the end, on past it). The caller may draw
    on rng between two states. The contract tests and the prompts' fit walk games so."""
    import random

    from companion.games import GAMES
    from companion.games.base import RuleError

    info = GAMES[key]
    rules = info.rules
    open_after_end = any(m.after_end for m in rules.moves.moves.values())
    for game in range(games):
        rng = random.Random(f"{label}-{key}-{game}")
        players = rng.randint(info.min_players, info.max_players)
        state = rules.new(dict(info.options), players)
        for step in range(steps):
            yield players, step, state, rng
            if rules.result(state) is not None and not open_after_end:
                break
            action = info.random_play.next_action(state, rng)
            if action is None:
                break
            try:
                state = json.loads(json.dumps(rules.apply(state, action)))
            except RuleError:
                continue


def visible(markup: str) -> str:
    """The text a person reads: no tags, scripts or styles; entities decoded; spaces collapsed."""
    markup = re.sub(r"<(script|style)[^>]*>.*?</\1>", " ", markup, flags=re.S)
    text = htmllib.unescape(re.sub(r"<[^>]+>", " ", markup))
    return re.sub(r"\s+", " ", text).strip()


def alert_text(markup: str) -> str:
    """The visible text of the page's refusal box, or '' when there is none."""
    match = re.search(r'<div class="alert" role="alert">(.*?)</div>', markup, re.S)
    return visible(match.group(1)) if match else ""


def rule_link(markup: str) -> str | None:
    """The rule id the refusal box links to (/rules/<game>#<id>), or None (only the box is read,
    not the rest of the page)."""
    box = re.search(r'<div class="alert" role="alert">(.*?)</div>', markup, re.S)
    match = re.search(r'/rules/\w+#([\w-]+)"', box.group(1)) if box else None
    return match.group(1) if match else None


def alert_message(markup: str) -> str:
    """The refusal's own sentence (the box's first paragraph, without the rule link), or ''."""
    box = re.search(r'<div class="alert" role="alert">\s*<p>(.*?)</p>', markup, re.S)
    return visible(box.group(1)) if box else ""


def live_region(markup: str) -> str:
    """The live region of a table page (what polls replace), without the page around it."""
    return markup[markup.index('<div id="live"') :]


# --- starting tables over HTTP -------------------------------------------------------------------


def post_from(client, page_url: str, post_url: str, htmx: bool = True, **data):
    """Load page_url, then post data to post_url with the page's CSRF token (and version, if the
    page has one and data does not), as a browser submitting a form of that page would."""
    page = client.get(page_url).text
    form = {"csrf_token": csrf_from(page)}
    version = re.search(r'data-version="(\d+)"', page)
    if version and "version" not in data:
        form["version"] = version.group(1)
    form.update(data)
    return client.post(post_url, data=form, headers=HX if htmx else {})


class TableDriver:
    """A table driven through the test client: the host's device and (optionally) one phone per
    seat. `who` is "host", a seat's name or a seat number everywhere. who and action are
    positional-only, so a form may have a field called "action" (or "who")."""

    def __init__(self, app, game: str, names: Iterable[str], *, phones: bool = True):
        self.app = app
        self.names = tuple(names)
        self.host = app.test_client()
        self.code = start_table(self.host, game, self.names)
        self.phones = []
        if phones:
            for seat in range(len(self.names)):
                phone = app.test_client()
                assert take_seat(phone, self.code, seat).status_code == 302
                self.phones.append(phone)

    def device(self, who):
        """The test client of "host", a seat name or a seat number."""
        if who == "host":
            return self.host
        if isinstance(who, str):
            who = self.names.index(who)
        if isinstance(who, int):
            return self.phones[who]
        return who  # already a client

    def page(self, who="host", query: str = "") -> str:
        """The table page as this device sees it (asserts it answers 200)."""
        response = self.device(who).get(f"/t/{self.code}/{query}")
        assert response.status_code == 200, response.text[:500]
        return response.text

    def post(
        self,
        who,
        action: str,
        /,
        query: str = "",
        *,
        csrf: bool = True,
        version=None,
        htmx: bool = True,
        **fields,
    ):
        """Submit an action form from the page this device shows now (its token and version)."""
        page = self.page(who, query)
        form = {"version": version_of(page) if version is None else version, **fields}
        if csrf:
            form["csrf_token"] = csrf_from(page)
        if version is False:
            form.pop("version")
        return self.device(who).post(
            f"/t/{self.code}/act/{action}{query}", data=form, headers=HX if htmx else {}
        )

    def act(self, who, action: str, /, query: str = "", **fields):
        """An action the rules accept: asserts no refusal and that the game moved on."""
        before = self.snapshot()
        response = self.post(who, action, query, **fields)
        assert response.status_code == 200, response.text[:500]
        assert alert_text(response.text) == "", alert_text(response.text)
        assert self.snapshot() != before, "the action changed nothing"
        return response

    def refused(
        self,
        who,
        action: str,
        expect: str,
        /,
        query: str = "",
        *,
        rule: str | None = None,
        status: int | tuple = (200, 409, 422),
        **fields,
    ):
        """An action refused with `expect` in the page's refusal box, nothing stored (the answer's
        status one of `status`)."""
        before = self.snapshot()
        response = self.post(who, action, query, **fields)
        allowed = status if isinstance(status, tuple) else (status,)
        assert response.status_code in allowed, response.status_code
        message = alert_text(response.text)
        assert expect in message, message or visible(response.text)[:800]
        if rule is not None:
            assert rule_link(response.text) == rule
        assert self.snapshot() == before, "a refused action changed the table"
        return response

    def snapshot(self) -> tuple:
        """(state, number of events, state version): what a refusal must leave unchanged."""
        with self.app.app_context():
            db = get_db()
            table = tables.get_table(db, self.code)
            row = db.execute("SELECT state_version FROM tables WHERE id = ?", [table.id]).fetchone()
            return tables.state_of(db, table), len(tables.events(db, table)), row[0]

    def state(self) -> dict:
        return self.snapshot()[0]

    def set_state(self, state: dict) -> None:
        """Put the game in a prepared position (the snapshot only: undo would replay the log)."""
        with self.app.app_context():
            db = get_db()
            db.execute("UPDATE tables SET state = ? WHERE code = ?", [json.dumps(state), self.code])
            db.conn.commit()

    def version(self) -> int:
        with self.app.app_context():
            return tables.current_version(get_db(), self.code)


# --- playing whole games through the store -----------------------------------------------------------


def play_to_end(
    db,
    table: tables.Table,
    rng,
    *,
    note_at: Iterable[int] = (),
    undo_at: Iterable[int] = (),
    limit: int = 20_000,
) -> list[dict]:
    """Play a random game (the game's own generator, random_play.next_action) through
    tables.act to its end, as phones would enter it; after the n-th accepted action (n in
    note_at) a seat adds a note, after the n-th in undo_at the host undoes it. Returns the
    accepted actions that stand (not undone), in order, as the store applied them (a refused
    entry's follow-up, such as a fine, included)."""
    info = table.game
    notes, undos = set(note_at), set(undo_at)
    kept: list[dict] = []
    accepted = 0
    for _ in range(limit):
        state = tables.state_of(db, table)
        if info.rules.result(state) is not None:
            return kept
        action = info.random_play.next_action(state, rng)
        seat, host = action.get("seat"), bool(action.get("host"))
        try:
            fields = enter(db, table, action)
        except tables.RuleError:
            if tables.state_of(db, table) == state:
                continue
            # refused, and the game's follow-up (a fine) stood in its place
            fields = dict(tables.events(db, table)[-1].action)
            fields.pop("seat", None), fields.pop("host", None)
        accepted += 1
        kept.append({**fields, "seat": seat, "host": host})
        if accepted in notes:
            tables.add_note(db, table, f"note after action {accepted}", seat=0, host=False)
        if accepted in undos:
            tables.undo(db, table, seat=None, host=True, expected_version=None)
            kept.pop()
    raise AssertionError(f"no end after {limit} tries")


# --- reading the games' source --------------------------------------------------------------------


def rule_ids_in(*sources: str) -> set[str]:
    """Every literal rule id the modules' sources can raise: `RuleError("id", ...)` (and
    subclasses), literals passed as the `rule` argument of a helper (or its default), and the
    (rule, msgid, params) triples a helper returns for its caller to raise. Give every module of
    a package together: a helper defined in one module may be called from another."""
    tree = ast.Module(
        body=[node for source in sources for node in ast.parse(source).body], type_ignores=[]
    )
    errors = {"RuleError"}
    changed = True
    while changed:
        changed = False
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.ClassDef)
                and node.name not in errors
                and any(getattr(base, "id", None) in errors for base in node.bases)
            ):
                errors.add(node.name)
                changed = True
    helpers = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef):
            names = [a.arg for a in node.args.args]
            if "rule" in names:
                helpers[node.name] = names.index("rule")

    def literal(node):
        return (
            node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None
        )

    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = getattr(node.func, "id", getattr(node.func, "attr", None))
            if name in errors and node.args:
                ids.add(literal(node.args[0]))
            if name in helpers:
                position = helpers[name]
                if len(node.args) > position:
                    ids.add(literal(node.args[position]))
                ids.update(literal(k.value) for k in node.keywords if k.arg == "rule")
            if name == "of" and node.args:  # RuleError.of("id", msg)
                ids.add(literal(node.args[0]))
        if isinstance(node, ast.Tuple) and len(node.elts) == 3:
            second = node.elts[1]
            if isinstance(second, ast.Call) and getattr(second.func, "id", None) == "N_":
                ids.add(literal(node.elts[0]))
        if isinstance(node, ast.FunctionDef) and node.name in helpers:
            args = node.args.args
            defaults = dict(
                zip(
                    [a.arg for a in args[len(args) - len(node.args.defaults) :]], node.args.defaults
                )
            )
            ids.add(literal(defaults.get("rule")))
    ids.discard(None)
    return ids


# --- browsers --------------------------------------------------------------------------------------

ROOT = Path(__file__).resolve().parents[1]
SHOTS = ROOT / "screenshots"  # ignored by git: screenshots to look at
# Screenshots are written when asked for (`make screenshots`: COMPANION_SHOTS=1), to be looked
# at; `make test` checks the same pages (overflow, first screen, sizes) without writing them,
# and its phones draw at one pixel per CSS pixel (the layout is the same at any pixel ratio).
SHOTS_WANTED = os.environ.get("COMPANION_SHOTS", "") not in ("", "0")
PHONE = {"width": 390, "height": 844}
SMALL_PHONE = {"width": 360, "height": 740}


# gevent's own server (what serve.py runs on Windows) in a child process: `python -c` this script
# with the port as its argument, cwd the checkout (its companion and tests, no sys.path edits).
OWN_GEVENT_SERVER = (
    "import sys\n"
    "from companion.serve import cooperative, serve_gevent, server_settings\n"
    "cooperative()\n"
    "from companion import create_app\n"
    "serve_gevent(create_app(), {**server_settings(push=True), 'host': '127.0.0.1',"
    " 'port': int(sys.argv[1])})\n"
)


class Server:
    """The app served as `make run` serves it (scripts/serve_app.py: push on gunicorn's gevent
    worker; env={"COMPANION_PUSH": "0"}: waitress and polling) in a child process, on a
    database file that outlives it.

    The port is bound here and the listening socket handed to the child, so that no other
    process (another xdist worker, another developer's tests) can take it in between."""

    def __init__(self, database: Path, env: dict | None = None):
        self.database = database
        self.listening: socket.socket | None = None
        self.port = self._listen()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = env or {}
        self.process: subprocess.Popen | None = None

    def _listen(self) -> int:
        self.listening = socket.socket()
        # From the first start on: the connections a killed server leaves in TIME_WAIT inherit
        # the flag, and only then may start() bind the port again at once (Linux checks both).
        self.listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listening.bind(("127.0.0.1", 0))
        self.listening.listen(1024)
        return self.listening.getsockname()[1]

    def start(self) -> None:
        """Start serving (again, after kill(): on the same port, held meanwhile)."""
        if self.listening is None:  # restarted after kill(): the port again
            self.listening = socket.socket()
            self.listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            # The killed server's worker may hold the port a moment longer than its master.
            for _ in range(50):
                try:
                    self.listening.bind(("127.0.0.1", self.port))
                    break
                except OSError:
                    time.sleep(0.1)
            else:
                self.listening.bind(("127.0.0.1", self.port))  # the error, if it is still taken
            self.listening.listen(1024)
        env = {
            **os.environ,
            "COMPANION_DATABASE": str(self.database),
            "COMPANION_PUBLIC_URL": self.url,
            "COMPANION_SECRET_KEY": "browser-tests",
            "COMPANION_EXTRA_GAMES": "tests.fixture_game",  # the tests' own game, Pebbles
            # One process starts in half the time of `make run`'s one per core; the live-table
            # test of push serves with two (tests/browser/test_live_table.py).
            "COMPANION_PROCESSES": "1",
            # Browser tests start many tables from one address (tests/test_limits.py: the limit).
            "COMPANION_TABLES_PER_DEVICE_MINUTE": "0",
            "COMPANION_TABLES_PER_ADDRESS_MINUTE": "0",
            **self.env,
        }
        fd = self.listening.fileno()
        # Its stderr goes to a file, not a pipe: a server that many tests share must never
        # block on a full pipe.
        with open(self.database.with_suffix(".log"), "ab") as log:
            self.process = subprocess.Popen(
                # the companion's own engine and settings (companion.serve)
                [sys.executable, "-m", "scripts.serve_app", "wsgi:app", f"fd:{fd}"],
                cwd=ROOT,
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=log,
                pass_fds=[fd],
                start_new_session=True,  # kill() reaches gunicorn's worker too
            )
        self.listening.close()  # the child holds it now
        self.listening = None
        # A minute: on a machine busy with parallel tests, starting Python and the app can take
        # far longer than the two seconds it takes on a quiet one.
        deadline = time.time() + 60
        while time.time() < deadline:
            try:
                urllib.request.urlopen(self.url + "/", timeout=2)
                return
            except OSError:
                if self.process.poll() is not None:
                    break
                time.sleep(0.1)
        self.process.kill()
        self.process.wait()
        raise RuntimeError(f"the server did not start: {self.log()[-800:]!r}")

    def log(self) -> str:
        """What the server wrote to its stderr (gunicorn's log, warnings, tracebacks)."""
        path = self.database.with_suffix(".log")
        return path.read_text(errors="replace") if path.exists() else ""

    def kill(self) -> None:
        """kill -9 of every server process: no clean shutdown at all."""
        if self.process:
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.process.wait()
            self.process = None


def speak(page, server, lang: str) -> None:
    """The phone's language from its next page on, as the footer's links set it (the language
    cookie, which wins over the browser's own languages)."""
    page.context.add_cookies([{"name": LANG_COOKIE, "value": lang, "url": server.url}])


def shot(page, name: str, full_page: bool = True) -> Path:
    """Save a screenshot to look at (the whole page, or what the screen shows)."""
    path = SHOTS / f"{name}.png"
    if SHOTS_WANTED:
        SHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(path), full_page=full_page)
    return path


def sit_down(
    page, server, code: str, seat: int | str, name: str = "", join: str | None = None
) -> None:
    """The phone takes a seat (its number, or the name on its button) with the join page's
    form, posted from the phone's own browser context (so with its cookies, as the seat button
    sends it), then opens the table: one page load where tapping through the join page costs
    two. Tests about joining itself tap the join page (tests/browser/test_table_sessions.py,
    test_evening.py). join: the join link to use (e.g. the host's, with its key); the table's
    own by default."""
    join = join or f"{server.url}/t/{code}/join"
    form = page.request.get(join).text()
    token = csrf_from(form)
    if isinstance(seat, str):  # the free seat whose button says this name
        button = re.search(
            rf'name="seat" value="(\d+)" class="seat-button">{re.escape(htmllib.escape(seat))}<',
            form,
        )
        assert button, f"no free seat called {seat}"
        seat = int(button.group(1))
    answer = page.request.post(
        join, form={"csrf_token": token, "seat": str(seat), "name": name}, max_redirects=0
    )
    assert answer.status == 302, (answer.status, answer.text()[:300])
    page.goto(f"{server.url}/t/{code}/")


def open_table(
    page, server, game: str = "pebbles", players: str = "3", names: Iterable[str] = ("Anna",)
) -> str:
    """Start a table from the home page in the browser, as the host does; returns its code."""
    from playwright.sync_api import expect

    page.goto(server.url + "/")
    page.select_option("#game", game)
    page.fill("#players", players)
    for i, name in enumerate(names):
        page.fill(f"#names-{i}", name)
    page.click("#new-table button[type=submit]")
    expect(page.locator("#live")).to_be_visible()
    # The table page's style sheet is not the home page's (table.css): a measure of the page
    # waits for it, as the phone's first paint does.
    page.wait_for_load_state("load")
    return page.url.rstrip("/").rsplit("/", 1)[1]


TV = {"width": 1920, "height": 1080}


def table_on_tv(phone, server, game: str, names: tuple[str, ...]):
    """A table of this game with every seat taken by a phone, and a TV (1920x1080) opened on
    its display link, as the host makes it from the table menu: (tv, code)."""
    from playwright.sync_api import expect

    host = phone(viewport=SMALL_PHONE)
    code = open_table(host, server, game=game, players=str(len(names)), names=names)
    host.locator("#table-menu summary").click()
    host.get_by_role("button", name="Table display: make a link").click()
    tv = phone(viewport=TV)
    tv.goto(host.locator("#link-box .join-url a").inner_text())
    for seat in range(len(names)):
        sit_down(phone(viewport=SMALL_PHONE), server, code, seat)
    expect(tv.locator("#display-join")).to_have_count(0, timeout=6000)
    return tv, code


def caught_up(page, store, code: str, timeout: int = 6000) -> None:
    """Wait until the page shows the table as it is now (its live region at the table's
    version): after moves made behind its back, before measuring what it shows."""
    version = store.table(code).version
    page.wait_for_function(
        "v => Number(document.getElementById('live')?.dataset.version) >= v",
        arg=version,
        timeout=timeout,
    )


def font_px(page, selector: str) -> float:
    """The computed font size of the first element the selector finds, in CSS px."""
    return page.eval_on_selector(selector, "e => parseFloat(getComputedStyle(e).fontSize)")


def in_first_screen(page, selector: str) -> bool:
    """Whether the element is wholly inside the first screen of the page, unscrolled."""
    return page.evaluate(
        """(selector) => {
            window.scrollTo(0, 0);
            const el = document.querySelector(selector);
            if (!el) return false;
            const box = el.getBoundingClientRect();
            return box.height > 0 && box.top >= 0 && box.bottom <= window.innerHeight;
        }""",
        selector,
    )


def overflowing(page) -> list[str]:
    """Elements wider than the screen (the page must never scroll sideways at phone width);
    a scrolling table wrapper (.score-wrap) may hold a wider table, and what a closed <details>
    holds is not shown (Chromium lays it out all the same)."""
    return page.evaluate(
        """() => {
            const width = document.documentElement.clientWidth;
            return [...document.querySelectorAll('body *')]
              .filter(e => !e.closest('.score-wrap') && e.offsetParent !== null)
              .filter(e => !e.closest('details:not([open]) > :not(summary)'))
              .filter(e => e.getBoundingClientRect().right > width + 1)
              .map(e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '')
                       + (e.className && typeof e.className === 'string' ? '.' + e.className.split(' ')[0] : ''))
              .slice(0, 10);
        }"""
    )


def serious_accessibility_problems(page) -> list[str]:
    """Serious or critical problems axe-core finds on the page (ids of the rules broken)."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    return [
        v["id"]
        for v in results.response["violations"]
        if v.get("impact") in ("serious", "critical")
    ]


def dark(page) -> None:
    """Show the page as a phone set to dark mode shows it."""
    page.emulate_media(color_scheme="dark")


# --- asking the rules (companion/search): the games' own search tests use these ----------------


def found_first(index, query: str, page: str, anchors) -> None:
    """The first result of `query` asked on `page`'s rules is one of `anchors` there."""
    results = index.search(query, "en", page)
    assert results, f"{query!r} found nothing"
    first = results[0].entry
    assert (first.page, first.anchor) in {(page, a) for a in anchors}, [
        (r.entry.page, r.entry.anchor) for r in results[:5]
    ]


def found_unscoped(index, query: str, page: str, anchor: str) -> None:
    """`query` asked of every game has `page`'s `anchor` among its first three results."""
    found = [(r.entry.page, r.entry.anchor) for r in index.search(query, "en")[:3]]
    assert (page, anchor) in found, found


def play_on(app, code: str, rng, steps: int) -> bool:
    """Up to `steps` tries of the game's random-game generator on the table, through its store
    as its phones would enter them (a refused action skipped). Whether the game goes on (False
    once it is over or the generator has nothing to play)."""
    with app.app_context():
        db = get_db()
        for _ in range(steps):
            table = tables.get_table(db, code)
            state = tables.state_of(db, table)
            if table.game.rules.result(state) is not None:
                return False
            action = table.game.random_play.next_action(state, rng)
            if action is None:
                return False
            try:
                enter(db, table, action)
            except tables.RuleError:
                continue
    return True


def enter(db, table: tables.Table, action: dict) -> dict:
    """An action as a game's random_play makes it (its "seat" and "host" beside its fields),
    entered through tables.act as that seat's phone or the host would; returns its fields.
    Raises tables.RuleError when the rules refuse it."""
    fields = {k: v for k, v in action.items() if k not in ("seat", "host")}
    seat, host = action.get("seat"), bool(action.get("host"))
    tables.act(db, table, fields, seat=seat, host=host, expected_version=None)
    return fields


def act_as_phones(app, code: str, actions) -> None:
    """Apply these actions (each with its "seat") to a table through its store, as the table's
    phones would: for the stretches of a game a test is not about."""
    with app.app_context():
        db = get_db()
        for action in actions:
            table = tables.get_table(db, code)
            tables.act(
                db, table, action, seat=action.get("seat"), host=False, expected_version=None
            )


class ServerStore:
    """A test server's database (Server.database), reached beside it: to put a table's game
    where a browser test starts, and to read what the table holds."""

    def __init__(self, database, code: str):
        from companion import create_app

        self.app = create_app({"DATABASE": str(database), "SECRET_KEY": "browser-tests"})
        self.code = code

    def act(self, *actions: dict) -> None:
        """Apply these actions (each with its "seat") as the table's phones would."""
        act_as_phones(self.app, self.code, actions)

    def play_to_end(self, seed: int) -> None:
        """Random legal play until the game ends."""
        import random

        with self.app.app_context():
            db = get_db()
            play_to_end(db, tables.get_table(db, self.code), random.Random(seed))

    def actions(self, kind: str) -> list[dict]:
        """The game actions of this kind that stand (not undone), oldest first."""
        with self.app.app_context():
            db = get_db()
            events = tables.events(db, tables.get_table(db, self.code))
            return [
                e.action
                for e in events
                if e.kind == "game" and not e.undone and e.action.get("type") == kind
            ]

    def state(self) -> dict:
        """The table's state now."""
        with self.app.app_context():
            db = get_db()
            return tables.state_of(db, tables.get_table(db, self.code))

"""What the robustness checks (scripts/check_*.py) share: the app on a real server, a raw HTTP
client, the store read from outside the server, and legal actions turned into form posts.

- start_app() serves the app as `make run` does (scripts/serve_app.py: push, gunicorn's gevent
  workers; COMPANION_PUSH=0 in env: waitress and polling) in a child process on a free
  loopback port, on a database that outlives it; its stderr goes to a file, so that the checks
  can count the tracebacks it printed. It can be killed (-9) and restarted on the same file.
- Client speaks HTTP over a fresh connection per request, from any loopback address, with any
  bytes in the request line, headers and body; it keeps cookies like a phone's browser. Its
  get()/post() answer like Flask's test client (status_code, text, headers), so the helpers of
  tests/helpers.py (start_table, take_seat, csrf_from...) work with it unchanged.
- Store reads tables, seats and the event log with the app's own functions (companion.tables).
- form_fields() turns an action of a game's random-game generator (tests/<game>/legal.py) into
  the fields of the game's form, checked: the form must give an action that the rules apply
  exactly as the original.
"""

from __future__ import annotations

import argparse
import datetime
import http.client
import json
import os
import platform
import random
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from werkzeug.datastructures import Headers

from companion import db as database
from companion import tables
from companion.games import GAMES
from companion.games.base import RuleError
from companion.web.adapter import adapter_of
from scripts.throwaway_postgres import ThrowawayPostgres
from tests.support.forms import csrf_from, start_table, take_seat, version_of

ROOT = Path(__file__).resolve().parent.parent

SECRET = "robustness-checks"
TRACEBACK = "Traceback (most recent call last)"


def free_port() -> int:
    """A TCP port nobody listens on now (on loopback)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


# --- the server ------------------------------------------------------------------------------------


class AppServer:
    """The companion served as `make run` serves it (scripts/serve_app.py) in a child process.

    The database file outlives the process: kill() is kill -9 (no clean shutdown at all), and
    start() again serves the same file on the same port. Everything the process writes to stderr
    is kept in a file; tracebacks() reads it.
    """

    def __init__(
        self,
        database: str | Path,
        workdir: Path,
        *,
        processes: int = 1,
        threads: int = 8,
        env: dict | None = None,
    ):
        self.database = str(database)
        self.workdir = Path(workdir)
        self.processes = processes
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.threads = threads
        self.env = dict(env or {})
        self.log = self.workdir / f"server-{self.port}.stderr.log"
        self.process: subprocess.Popen | None = None
        self.starts = 0

    def start(self, timeout: float = 30) -> None:
        env = {
            **os.environ,
            "COMPANION_DATABASE": self.database,
            "COMPANION_PUBLIC_URL": self.url,
            "COMPANION_SECRET_KEY": SECRET,
            "COMPANION_THREADS": str(self.threads),
            "COMPANION_PROCESSES": str(self.processes),
            "COMPANION_INSTANCE": str(self.workdir / "instance"),
            # The checks start many tables from one address; the limit has its own test.
            "COMPANION_TABLES_PER_DEVICE_MINUTE": "0",
            "COMPANION_TABLES_PER_ADDRESS_MINUTE": "0",
            "PYTHONUNBUFFERED": "1",
            **self.env,
        }
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "scripts.serve_app",
                    "wsgi:app",
                    str(self.port),
                ],
                cwd=ROOT,
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=log,
                # Its own process group: kill() and stop() reach gunicorn's workers too.
                start_new_session=True,
            )
        self.starts += 1
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited at start: {self.stderr()[-2000:]}")
            # Answered, not only accepted: gunicorn's master listens before its workers have
            # loaded the app.
            try:
                connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=5)
                connection.request("GET", "/t/ZZZZ/live?v=1")
                connection.getresponse().read()
                connection.close()
                return
            except (OSError, http.client.HTTPException):
                time.sleep(0.05)
        raise RuntimeError("the server did not start")

    def kill(self) -> None:
        """kill -9 of every server process: none gets a chance to finish anything."""
        if self.process is not None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
            self.process = None

    def stop(self) -> None:
        """A clean stop (SIGTERM), or kill -9 if it does not stop within ten seconds."""
        if self.process is not None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
            self.process = None

    def stderr(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def tracebacks(self) -> list[str]:
        """Every Python traceback the server printed (with the lines that follow it)."""
        text = self.stderr()
        found = []
        start = text.find(TRACEBACK)
        while start != -1:
            end = text.find(TRACEBACK, start + 1)
            found.append(text[start : end if end != -1 else len(text)][:3000])
            start = end
        return found


def registered_beyond_installed() -> dict[str, str]:
    """The environment that registers in a server process the game packages this process has
    registered beyond the installed ones (the tests' own game, when a test runs a check)."""
    from companion.games import INSTALLED

    extra = sorted({i.package for i in GAMES.values() if i.name not in INSTALLED})
    return {"COMPANION_EXTRA_GAMES": " ".join(extra)} if extra else {}


def start_app(
    database_url: str | Path,
    *,
    processes: int = 1,
    threads: int = 8,
    env: dict | None = None,
) -> AppServer:
    """Start the app on a real server for a check, and return it once it accepts connections.

    database_url: a SQLite file path or a "postgresql://" URL (see check_database()).
    processes: how many server processes share the database behind one port (more than one:
    gunicorn's workers, as COMPANION_PROCESSES does). The server's files (its stderr, its
    instance folder) go to a temporary folder that lives as long as this Python process.
    """
    workdir = Path(tempfile.mkdtemp(prefix="check-server-"))
    env = {**registered_beyond_installed(), **(env or {})}
    server = AppServer(database_url, workdir, processes=processes, threads=threads, env=env)
    server.start()
    return server


@contextmanager
def check_database(backend: str, folder: Path, name: str) -> Iterator[str]:
    """A fresh database for a check: a SQLite file in folder, or a database of a throwaway
    PostgreSQL server (scripts/throwaway_postgres.py) that is stopped at the end."""
    if backend == "sqlite":
        yield str(Path(folder) / f"{name}.db")
        return
    with ThrowawayPostgres() as server:
        yield server.create_database(name)


def check_parser(doc: str) -> argparse.ArgumentParser:
    """The options every check has: --seed, --quick, --backend (the store), --processes."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1, help="the random seed (a run repeats)")
    parser.add_argument("--quick", action="store_true", help="a short run, as `make test` does")
    parser.add_argument(
        "--backend", choices=["sqlite", "postgresql"], default="sqlite", help="the store"
    )
    parser.add_argument(
        "--processes", type=int, default=1, help="server processes sharing the store (1)"
    )
    return parser


def announce(check: str, args: argparse.Namespace, amount: str) -> None:
    """The first line of a check's report: when, where, how much, on what."""
    print(
        f"{check} check {datetime.date.today()} on {platform.node()}: {os.cpu_count()} cores, "
        f"{amount}, seed {args.seed}{' (quick)' if args.quick else ''}; "
        f"{args.processes} server process(es) on {args.backend}",
        flush=True,
    )


def conclude(figures: Figures, elapsed: float) -> int:
    """The last line of a check's report; its exit status (1 if a goal was missed)."""
    print(f"  took {elapsed:.0f} s; {'all goals met' if figures.ok() else 'GOALS MISSED'}")
    return 0 if figures.ok() else 1


# --- the client ------------------------------------------------------------------------------------


@dataclass
class Response:
    status_code: int
    headers: Headers  # case-insensitive, like Flask's test client's
    content: bytes
    elapsed: float = 0.0

    @property
    def text(self) -> str:
        return self.content.decode("utf-8", errors="replace")

    @property
    def location(self) -> str:
        return self.headers.get("location", "")


class Client:
    """A phone's browser, one connection per request: cookies kept (all paths, like names), any
    bytes sent. source: the loopback address to send from (each address is its own client for
    the app's limit on wrong codes)."""

    def __init__(self, port: int, *, source: str = "127.0.0.1", timeout: float = 30):
        self.port = port
        self.source = source
        self.timeout = timeout
        self.cookies: dict[str, str] = {}

    def cookie_header(self) -> str:
        return "; ".join(f"{k}={v}" for k, v in self.cookies.items())

    def build(
        self,
        method: str,
        path: str,
        *,
        data: dict | list | None = None,
        body: bytes | None = None,
        headers: dict | None = None,
        content_type: str | None = None,
    ) -> bytes:
        """The bytes of a request (a form body from data, or the body as given)."""
        if data is not None:
            pairs = data.items() if isinstance(data, dict) else data
            body = urllib.parse.urlencode([(k, v) for k, v in pairs], doseq=False).encode()
            content_type = content_type or "application/x-www-form-urlencoded"
        head = {"Host": f"127.0.0.1:{self.port}", "Connection": "close"}
        if self.cookies:
            head["Cookie"] = self.cookie_header()
        if body is not None:
            if "Transfer-Encoding" not in (headers or {}):
                head["Content-Length"] = str(len(body))
            if content_type:
                head["Content-Type"] = content_type
        head.update(headers or {})
        lines = [f"{method} {path} HTTP/1.1"] + [
            f"{k}: {v}" for k, v in head.items() if v is not None
        ]
        raw = "\r\n".join(lines).encode("utf-8", errors="surrogateescape") + b"\r\n\r\n"
        return raw + (body or b"")

    def send(self, raw: bytes, method: str = "GET") -> Response:
        """Send raw bytes on a fresh connection and read the answer (cookies kept)."""
        started = time.perf_counter()
        sock = socket.create_connection(
            ("127.0.0.1", self.port), timeout=self.timeout, source_address=(self.source, 0)
        )
        try:
            sock.sendall(raw)
            return self.receive(sock, method, started)
        finally:
            sock.close()

    def receive(self, sock: socket.socket, method: str, started: float) -> Response:
        answer = http.client.HTTPResponse(sock, method=method)
        answer.begin()
        if "event-stream" in (answer.getheader("Content-Type") or ""):
            # a push stream never ends: its first message is the answer (the caller closes)
            content = b""
            while b"\n\n" not in content:
                piece = answer.read1(1024)
                if not piece:
                    break
                content += piece
        else:
            content = answer.read()
        headers = Headers(answer.getheaders())
        for name, value in answer.getheaders():
            if name.lower() == "set-cookie":
                key, _, rest = value.partition("=")
                cookie_value = rest.split(";", 1)[0]
                if "max-age=0" in value.lower() or "expires=thu, 01 jan 1970" in value.lower():
                    self.cookies.pop(key, None)
                else:
                    self.cookies[key] = cookie_value
        return Response(answer.status, headers, content, time.perf_counter() - started)

    def request(self, method: str, path: str, **kwargs) -> Response:
        return self.send(self.build(method, path, **kwargs), method)

    def first_event(self, path: str) -> Response:
        """A push stream's answer with its first message only (a stream never ends): its
        status, headers and, if it is a stream, the first event; then the connection closes."""
        started = time.perf_counter()
        sock = socket.create_connection(
            ("127.0.0.1", self.port), timeout=self.timeout, source_address=(self.source, 0)
        )
        try:
            sock.sendall(self.build("GET", path))
            answer = http.client.HTTPResponse(sock, method="GET")
            answer.begin()
            content = b""
            if "event-stream" in (answer.getheader("Content-Type") or ""):
                while b"\n\n" not in content:
                    piece = answer.read1(1024)
                    if not piece:
                        break
                    content += piece
            else:
                content = answer.read()
            return Response(
                answer.status, Headers(answer.getheaders()), content, time.perf_counter() - started
            )
        finally:
            sock.close()

    def get(self, path: str, headers: dict | None = None) -> Response:
        return self.request("GET", path, headers=headers)

    def post(self, path: str, data: dict | list | None = None, headers: dict | None = None):
        return self.request("POST", path, data=data or {}, headers=headers)


HX = {"HX-Request": "true"}


def send_together(port: int, requests: list[bytes], source: str = "127.0.0.1") -> list:
    """Send requests at the same moment: each on its own connection, all but the last byte
    first, then every last byte at once, so the server starts on them together. Returns each
    answer as a Response, or the exception its connection met."""
    socks = [
        socket.create_connection(("127.0.0.1", port), timeout=30, source_address=(source, 0))
        for _ in requests
    ]
    for sock, raw in zip(socks, requests):
        sock.sendall(raw[:-1])
    barrier = threading.Barrier(len(requests))
    answers: list = [None] * len(requests)

    def finish(i: int) -> None:
        try:
            barrier.wait()
            started = time.perf_counter()
            socks[i].sendall(requests[i][-1:])
            answers[i] = Client(port).receive(socks[i], "POST", started)
        except Exception as error:  # the caller counts it
            answers[i] = error
        finally:
            socks[i].close()

    threads = [threading.Thread(target=finish, args=(i,)) for i in range(len(requests))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


# --- tables over HTTP ------------------------------------------------------------------------------


@dataclass
class TableAt:
    """A table started over HTTP: its code, the host's device, one phone per taken seat (None
    for a seat left free), the display's key, and the table device (the old host's device that
    stayed at the table as its display after a hand-over; see hand_over)."""

    game: str
    code: str
    host: Client
    phones: list[Client | None]
    display_key: str | None = None
    names: tuple[str, ...] = ()
    table_device: Client | None = None

    def device(self, seat: int | None, host: bool) -> tuple[Client, str]:
        """Whom an action for (seat, host) is sent from, and the query it needs: the host's
        device (acting for the seat, if any), else the seat's own phone."""
        if host or seat is None or self.phones[seat] is None:
            return self.host, (f"?as={seat}" if seat is not None else "")
        return self.phones[seat], ""


def open_table(
    port: int,
    game: str,
    players: int | None = None,
    *,
    free_seats: int = 0,
    display: bool = True,
    names: tuple[str, ...] | None = None,
) -> TableAt:
    """Start a table as the host's device does, seat a phone on each seat but the last
    `free_seats`, and make a display link."""
    info = GAMES[game]
    players = players or max(info.min_players, min(4, info.max_players))
    names = names or tuple(["Anna", "Ben", "Chris", "Dana", "Emil", "Fumi"][:players])
    host = Client(port)
    code = start_table(host, game, names)
    phones: list[Client | None] = []
    for seat in range(players):
        if seat >= players - free_seats:
            phones.append(None)
            continue
        phone = Client(port)
        answer = take_seat(phone, code, seat)
        assert answer.status_code == 302, (answer.status_code, answer.text[:300])
        phones.append(phone)
    table = TableAt(game, code, host, phones, names=names)
    if display:
        table.display_key = new_display_key(table)
    return table


def new_display_key(table: TableAt) -> str:
    """The host makes a new display link; its key."""
    page = table.host.get(f"/t/{table.code}/")
    answer = table.host.post(
        f"/t/{table.code}/host/display", {"csrf_token": csrf_from(page.text)}, HX
    )
    return re.search(r"display/\?key=([\w-]+)", answer.text).group(1)


def hand_over(table: TableAt) -> None:
    """The host hands its role to a new device (without a seat) with the menu's one-time link,
    and the old host's device stays at the table as its display (table.table_device)."""
    old, new = table.host, Client(table.host.port, source=table.host.source)
    base = f"/t/{table.code}"
    page = old.get(f"{base}/")
    answer = old.post(f"{base}/host/handover", {"csrf_token": csrf_from(page.text)}, HX)
    link = re.search(r'href="http[^"]*(/t/\w+/host/take\?token=[\w-]+)"', answer.text).group(1)
    page = new.get(link)
    token = re.search(r'name="token" value="([^"]+)"', page.text).group(1)
    answer = new.post(f"{base}/host/take", {"csrf_token": csrf_from(page.text), "token": token})
    assert answer.status_code == 302, (answer.status_code, answer.text[:300])
    page = old.get(f"{base}/host/handed")
    answer = old.post(f"{base}/host/stay", {"csrf_token": csrf_from(page.text)})
    assert answer.status_code == 302, (answer.status_code, answer.text[:300])
    table.host, table.table_device = new, old


def form_state(client: Client, url: str) -> tuple[str, int]:
    """The CSRF token and the table version of the page a device shows now."""
    page = client.get(url)
    assert page.status_code == 200, (page.status_code, url, page.text[:300])
    return csrf_from(page.text), version_of(page.text)


# --- the store, read from outside the server ----------------------------------------------------


class Store:
    """The database the server writes, read (and, for setting up, written) with the app's own
    functions. A short-lived connection per call: the server's writes are always seen."""

    def __init__(self, database: str | Path):
        self.path = str(database)

    def db(self):
        return database.connect(self.path)

    def table(self, code: str) -> tables.Table:
        db = self.db()
        try:
            return tables.get_table(db, code)
        finally:
            db.conn.close()

    def state(self, code: str) -> dict:
        db = self.db()
        try:
            return tables.state_of(db, tables.get_table(db, code))
        finally:
            db.conn.close()

    def events(self, code: str) -> list[tables.Event]:
        db = self.db()
        try:
            return tables.events(db, tables.get_table(db, code))
        finally:
            db.conn.close()

    def codes(self) -> list[str]:
        db = self.db()
        try:
            return [row[0] for row in db.execute("SELECT code FROM tables ORDER BY id")]
        finally:
            db.conn.close()

    def keys(self, code: str) -> set[str]:
        """The submission keys the table has applied (stored with what they applied)."""
        db = self.db()
        try:
            table = tables.get_table(db, code)
            rows = db.execute("SELECT key FROM submissions WHERE table_id = ?", [table.id])
            return {row[0] for row in rows}
        finally:
            db.conn.close()

    def replay_differences(self) -> list[str]:
        """Tables whose stored snapshot is not the replay of their log (should be none)."""
        db = self.db()
        try:
            wrong = []
            for (code,) in db.execute("SELECT code FROM tables ORDER BY id").fetchall():
                table = tables.get_table(db, code)
                stored = tables.state_of(db, table)
                if stored != tables.replay(table, tables.events(db, table)):
                    wrong.append(code)
            return wrong
        finally:
            db.conn.close()

    def integrity(self) -> str:
        """SQLite's integrity check ("ok"); PostgreSQL has none to ask (its own write-ahead log
        keeps it whole, and the checks kill the app, not the database server): "ok"."""
        db = self.db()
        try:
            if database.is_postgres_url(self.path):
                db.execute("SELECT 1")
                return "ok"
            return db.execute("PRAGMA integrity_check").fetchone()[0]
        finally:
            db.conn.close()

    def act(self, code: str, action: dict) -> dict:
        """Apply an action directly (setting a table up: the server sees it on its next read)."""
        db = self.db()
        try:
            table = tables.get_table(db, code)
            extra = {k: v for k, v in action.items() if k not in ("seat", "host")}
            return tables.act(
                db,
                table,
                extra,
                seat=action.get("seat"),
                host=bool(action.get("host")),
                expected_version=None,
            )
        finally:
            db.conn.close()

    def set_state(self, code: str, state: dict) -> None:
        """Replace the stored snapshot only (no version change, no event): a private change made
        behind the app's back, to see which pages depend on it."""
        db = self.db()
        try:
            db.execute("UPDATE tables SET state = ? WHERE code = ?", [json.dumps(state), code])
            db.conn.commit()
        finally:
            db.conn.close()


def advance(
    store: Store, code: str, game: str, steps: int, rng: random.Random, until=None, steer=None
) -> int:
    """Play up to `steps` actions of the game's random-game generator on the table (refusals
    skipped), stopping early when until(state) is true or the game is over; steer(state, rng)
    may give an action to play instead (leading toward a position). Returns how many were
    applied."""
    legal = generator(game)
    module = GAMES[game].rules
    applied = 0
    for _ in range(steps * 20):
        state = store.state(code)
        if applied >= steps or module.result(state) is not None or (until and until(state)):
            break
        action = (steer(state, rng) if steer is not None else None) or legal.next_action(state, rng)
        if action is None:
            break
        try:
            module.apply(state, action)
        except RuleError:
            continue
        store.act(code, action)
        applied += 1
    return applied


def generator(game: str):
    """The game's random-game generator module (tests/<package>/legal.py)."""
    return GAMES[game].random_play


# --- actions as form posts -----------------------------------------------------------------------


_FORMS_APP = None
_FORMS_LOCK = threading.Lock()


def forms_app():
    """An app on a scratch database, for reading the games' forms (no server involved)."""
    global _FORMS_APP
    with _FORMS_LOCK:
        if _FORMS_APP is None:
            from companion import create_app

            scratch = Path(tempfile.mkdtemp(prefix="companion-forms-")) / "forms.db"
            _FORMS_APP = create_app({"DATABASE": str(scratch), "SECRET_KEY": SECRET})
    return _FORMS_APP


def form_fields(game: str, state: dict, action: dict) -> dict | None:
    """The fields of the game's form for this action, such that the form gives an action the
    rules apply exactly as the original (same new state); None when no such fields are found."""
    from werkzeug.datastructures import MultiDict

    info = GAMES[game]
    form_class = adapter_of(info).forms.get(action.get("type"))
    if form_class is None:
        return None
    fields = form_class.fields_for(action, state)
    fields = {k: str(v) for k, v in fields.items()}
    with forms_app().test_request_context():
        form = form_class(formdata=MultiDict(fields), meta={"csrf": False})
        if not form.validate():
            return None
        made = {"type": action["type"], **form.to_action()}
    made.update(seat=action.get("seat"), host=bool(action.get("host")))
    module = info.rules
    try:
        if module.apply(state, made) != module.apply(state, action):
            return None
    except RuleError:
        return None
    return fields


def legal_post(game: str, state: dict, rng: random.Random, tries: int = 40):
    """(action, fields) of a legal action of the game's generator that a form can send, or None."""
    legal = generator(game)
    module = GAMES[game].rules
    for _ in range(tries):
        action = legal.next_action(state, rng)
        if action is None:
            return None
        try:
            module.apply(state, action)
        except RuleError:
            continue
        fields = form_fields(game, state, action)
        if fields is not None:
            return action, fields
    return None


@dataclass
class Figures:
    """The figures a check prints, each against its goal; ok() is whether every goal is met."""

    title: str
    rows: list = field(default_factory=list)

    def add(self, name: str, value, goal: str | None = None, ok: bool = True) -> None:
        self.rows.append((name, value, goal, ok))
        mark = "    " if goal is None else ("ok  " if ok else "MISS")
        print(f"  {mark} {name}: {value}" + (f"  (goal {goal})" if goal else ""), flush=True)

    def ok(self) -> bool:
        return all(ok for _, _, _, ok in self.rows)

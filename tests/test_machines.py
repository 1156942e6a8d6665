"""Several machines on one PostgreSQL database (docs/deployment.md, "3. Several machines on
PostgreSQL"): the guide says a phone may be answered by any of them. Here two machines are
started as an operator starts them, each `python -m companion.serve` in a folder of its own (its
own instance/), on one throwaway PostgreSQL database and one secret key, and driven over HTTP
as phones drive them: each device has one cookie jar whichever machine answers, as behind one
proxy host.

- A table started and joined through machine A is the same table on B: the phone's own seat and
  the host's view open there, and a join form served by A is accepted by B (cookies and CSRF
  tokens signed on one machine hold on the other).
- A move acknowledged by A reaches a push stream held open on B within 250 ms (PostgreSQL's
  NOTIFY, heard by B).
- Moves alternating between the machines, each sent from a page the other machine served,
  are all acknowledged (no 409, no 500) and all stored, in order.
- kill -9 of A in the middle of a run: every move A acknowledged is stored; the move the kill
  cut off, sent again to B with its key, is applied once; B serves on; A started again on the
  same database serves again.
- nginx with docs/nginx.conf (when Debian's nginx is installed): the config passes `nginx -t`;
  served through it, every request of one table lands on one machine, its push stream is not
  held back, and when that machine dies the table's phones are served by the other.

The game is an installed game for three players, found in the registry: its moves come from its
own random-game generator, sent through its own forms (scripts/check_kit.legal_post), and each
acknowledged move is applied to a copy of the state here; the stored state must equal it, and
the table's history (its JSON export, read through a machine) must list exactly those moves in
order.

Starting the machines takes seconds of a 2-core machine: these run in `make test-deep` (CI too).
"""

from __future__ import annotations

import http.client
import http.cookiejar
import json
import os
import queue
import random
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from email.message import Message
from pathlib import Path

import pytest

from companion.games import GAMES, INSTALLED
from scripts.check_kit import Store, legal_post
from tests.helpers import HX, ROOT, alert_text, csrf_from, free_port, visible
from tests.support.forms import start_table, take_seat, version_of

pytestmark = pytest.mark.deep

NAMES = ("Anna", "Ben", "Chris")
# The first installed game three may play (the core names no game: tests/test_game_names.py).
GAME = next(
    key
    for key, info in sorted(GAMES.items())
    if info.name in INSTALLED and info.min_players <= len(NAMES) <= info.max_players
)
SECRET = "machines-test-key"  # COMPANION_SECRET_KEY, the same on every machine
DELIVERY = 0.25  # seconds from one machine's answer to the other's stream (the goal)
TRACEBACK = "Traceback (most recent call last)"


# --- machines ---------------------------------------------------------------------------------


class Machine:
    """One app machine as an operator starts it: `python -m companion.serve` (the real entry
    point: gunicorn's master and one gevent worker) in a folder of its own, on the shared
    database with the shared key; what it prints goes to server.log there.

    It has a process group of its own (start_new_session), so that kill() is kill -9 of the
    master and its worker at once, as when a machine dies."""

    def __init__(self, name: str, folder: Path, database: str, *, public_url: str = "", env=None):
        self.name = name
        self.folder = folder
        self.folder.mkdir(parents=True, exist_ok=True)
        self.database = database
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.public_url = public_url or self.url
        self.env = dict(env or {})
        self.process: subprocess.Popen | None = None

    def launch(self) -> None:
        """Start the process (answer() waits until it serves)."""
        # Nothing of the test run's own settings: only what an operator would set.
        env = {k: v for k, v in os.environ.items() if not k.startswith(("COMPANION_", "PYTHON"))}
        env.update(
            PYTHONPATH=str(ROOT),  # `companion` from this checkout
            PYTHONUNBUFFERED="1",  # its startup lines reach the log even if it is killed
            HOST="127.0.0.1",
            PORT=str(self.port),
            COMPANION_PROCESSES="1",
            COMPANION_INSTANCE=str(self.folder / "instance"),
            COMPANION_DATABASE=self.database,
            COMPANION_SECRET_KEY=SECRET,
            COMPANION_PUBLIC_URL=self.public_url,
            **self.env,
        )
        with open(self.folder / "server.log", "ab") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "companion.serve"],
                cwd=self.folder,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def answer(self, timeout: float = 60) -> None:
        """Wait until the home page is served (gunicorn's master listens before its worker has
        made the app: only an answer says the machine serves)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.process is not None
            if self.process.poll() is not None:
                raise AssertionError(f"machine {self.name} exited: {self.log()[-2000:]}")
            try:
                connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=5)
                connection.request("GET", "/")
                status = connection.getresponse().status
                connection.close()
                if status == 200:
                    return
            except (OSError, http.client.HTTPException):
                pass
            time.sleep(0.05)
        raise AssertionError(f"machine {self.name} did not answer: {self.log()[-2000:]}")

    def start(self) -> None:
        self.launch()
        self.answer()

    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def kill(self) -> None:
        """kill -9 of the whole process group: no clean shutdown at all."""
        if self.process is not None:
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.process.wait()
            self.process = None

    def stop(self) -> None:
        """A clean stop (SIGTERM to gunicorn's master), kill -9 if it takes over ten seconds."""
        if self.process is not None:
            try:
                os.killpg(self.process.pid, signal.SIGTERM)
                self.process.wait(10)
            except ProcessLookupError:
                pass
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
            self.process = None

    def log(self) -> str:
        path = self.folder / "server.log"
        return path.read_text(errors="replace") if path.exists() else ""


def start_together(*machines: Machine) -> None:
    """Start machines at once (as machines booting together do: the schema is made once, under
    PostgreSQL's advisory lock) and wait until each serves."""
    for machine in machines:
        machine.launch()
    for machine in machines:
        machine.answer()


def no_tracebacks(*machines: Machine) -> None:
    for machine in machines:
        assert TRACEBACK not in machine.log(), f"{machine.name}: {machine.log()[-3000:]}"


@pytest.fixture(scope="module")
def pair(postgres_server, tmp_path_factory):
    """Machines A and B on one database, for this module's tests (each on tables of its own)."""
    database = postgres_server.create_database("machines")
    folder = tmp_path_factory.mktemp("machines")
    machines = Machine("A", folder / "a", database), Machine("B", folder / "b", database)
    start_together(*machines)
    yield machines
    for machine in machines:
        machine.stop()


@pytest.fixture
def machines(pair):
    """A and B, both serving (again, if a test that kills one failed before restarting it); no
    machine printed a traceback meanwhile."""
    for machine in pair:
        if not machine.running():
            machine.start()
    yield pair
    no_tracebacks(*pair)


# --- devices ----------------------------------------------------------------------------------


@dataclass
class Answer:
    status_code: int
    headers: Message
    text: str


class NoRedirects(urllib.request.HTTPRedirectHandler):
    """A redirect is an answer to look at (where a machine sends the phone), not followed."""

    def redirect_request(self, *args, **kwargs):
        return None


class Device:
    """A phone's (or the host's) browser: one cookie jar for every machine. http.cookiejar
    keeps cookies by host name, not port, as browsers do: the jar is shared across the machines
    as it is behind one proxy host."""

    def __init__(self):
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.jar), NoRedirects
        )

    def request(self, where, path: str, data: dict | None = None, headers=None) -> Answer:
        body = urllib.parse.urlencode(data).encode() if data is not None else None
        request = urllib.request.Request(where.url + path, data=body, headers=headers or {})
        try:
            with self.opener.open(request, timeout=30) as answer:
                return Answer(answer.status, answer.headers, answer.read().decode())
        except urllib.error.HTTPError as error:  # 3xx, 4xx and 5xx: their status is the point
            return Answer(error.code, error.headers, error.read().decode(errors="replace"))

    def at(self, where) -> At:
        return At(self, where)

    def cookie_header(self, where, path: str) -> str:
        request = urllib.request.Request(where.url + path)
        self.jar.add_cookie_header(request)
        return request.get_header("Cookie", "")


class At:
    """A device talking to one machine (or the proxy), with get/post as Flask's test client
    has them: tests/support/forms.py's start_table and take_seat drive it."""

    def __init__(self, device: Device, where):
        self.device, self.where = device, where

    def get(self, path: str, headers=None) -> Answer:
        return self.device.request(self.where, path, headers=headers)

    def post(self, path: str, data: dict | None = None, headers=None) -> Answer:
        return self.device.request(self.where, path, data or {}, headers)


class Stream:
    """A push stream held open as a page holds it, read in a thread of its own: each message
    `data: <version> <presence>` is kept with the moment it arrived."""

    def __init__(self, device: Device, where, code: str):
        path = f"/t/{code}/push"
        self.connection = http.client.HTTPConnection("127.0.0.1", where.port, timeout=15)
        self.opened = time.monotonic()
        self.connection.request("GET", path, headers={"Cookie": device.cookie_header(where, path)})
        self.response = self.connection.getresponse()
        assert self.response.status == 200, self.response.status
        assert self.response.getheader("Content-Type", "").startswith("text/event-stream")
        self.messages: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        buffer = b""
        try:
            while True:
                piece = self.response.read1(4096)
                if not piece:
                    break
                arrived = time.monotonic()
                buffer += piece
                while b"\n\n" in buffer:
                    text, buffer = buffer.split(b"\n\n", 1)
                    self.messages.put((arrived, text.decode()))
        except Exception:  # closed under it: close(), or its machine died
            pass
        self.messages.put((time.monotonic(), None))

    def next(self, timeout: float = 5) -> tuple[float, int]:
        """(arrival, version) of the next message."""
        arrived, text = self.messages.get(timeout=timeout)
        assert text is not None, "the stream closed"
        # the first line (version, presence); a change's message carries the region after it
        match = re.fullmatch(r"data: (\d+) (\S+)( renew)?", text.split("\n", 1)[0])
        assert match, text
        return arrived, int(match.group(1))

    def version_above(self, version: int, timeout: float = 5) -> tuple[float, int]:
        """(arrival, version) of the first message of a newer version (a presence change or a
        heartbeat says the same version again)."""
        deadline = time.monotonic() + timeout
        while True:
            arrived, seen = self.next(max(0.01, deadline - time.monotonic()))
            if seen > version:
                return arrived, seen

    def close(self) -> None:
        try:
            self.connection.sock.shutdown(socket.SHUT_RDWR)
        except (OSError, AttributeError):
            pass
        self.connection.close()


# --- a table and its moves ---------------------------------------------------------------------


@dataclass
class Move:
    key: str  # the submission key the page's script sends: a resend is applied once
    seat: int  # whose phone sends it (the history names that seat)
    action: dict  # as the game's generator made it
    fields: dict  # the game's form fields for it


class Table:
    """A table of GAME started through one machine, a phone seated on each seat, and what
    the phones have had acknowledged: `moves` in order, `state` the game's state after them
    (applied here, by the game's own rules), `version` the table's version the last answer
    showed. The store (the database, read directly) is only read, to check."""

    def __init__(self, database: str, where, seed: int):
        self.store = Store(database)
        self.rng = random.Random(seed)
        self.module = GAMES[GAME].rules
        self.host = Device()
        self.code = start_table(self.host.at(where), GAME, NAMES)
        self.phones = [Device() for _ in NAMES]
        for seat, phone in enumerate(self.phones):
            joined = take_seat(phone.at(where), self.code, seat)
            assert joined.status_code == 302, (joined.status_code, joined.text[:300])
            assert joined.headers["Location"].endswith(f"/t/{self.code}/")
        self.state = self.store.state(self.code)
        self.version = version_of(self.page(self.host, where))
        self.moves: list[Move] = []

    def page(self, device: Device, where) -> str:
        answer = device.at(where).get(f"/t/{self.code}/")
        assert answer.status_code == 200, (answer.status_code, answer.headers.get("Location"))
        return answer.text

    def next_move(self) -> Move:
        """A legal move of the game's generator that a phone sends from its seat's form. A card
        turned up (anyone may enter it) is sent by the phones in turn."""
        for _ in range(50):
            made = legal_post(GAME, self.state, self.rng)
            assert made is not None, "no move left"
            action, fields = made
            if action.get("host"):  # the host's tools: not a phone's move
                continue
            seat = action["seat"] if action.get("seat") is not None else len(self.moves) % 3
            return Move(secrets.token_urlsafe(12), seat, action, fields)
        raise AssertionError("the generator offers only the host's moves")

    def form(self, move: Move, where) -> dict:
        """The move's form as the seat's phone fills it in on its page served by `where`: that
        page's token and version, and the move's key. The page shows the latest version."""
        page = self.page(self.phones[move.seat], where)
        assert version_of(page) == self.version, (version_of(page), self.version)
        return {
            "csrf_token": csrf_from(page),
            "version": version_of(page),
            **move.fields,
            "key": move.key,
        }

    def send(self, move: Move, form: dict, where) -> Answer:
        path = f"/t/{self.code}/act/{move.action['type']}"
        return self.phones[move.seat].at(where).post(path, form, HX)

    def acknowledged(self, move: Move, answer: Answer) -> None:
        """The answer acknowledges the move: 200, no refusal, the next version; it is now part of
        what the table must hold."""
        assert answer.status_code == 200, (move.action, answer.status_code, answer.text[:500])
        assert alert_text(answer.text) == "", (move.action, alert_text(answer.text))
        assert version_of(answer.text) == self.version + 1, (version_of(answer.text), self.version)
        self.state = self.module.apply(self.state, move.action)
        self.moves.append(move)
        self.version += 1

    def play(self, page_from, post_to) -> tuple[float, float]:
        """One move: its page from one machine, posted to another (or the same); returns the
        moments it was sent and its acknowledgement arrived."""
        move = self.next_move()
        form = self.form(move, page_from)
        sent_at = time.monotonic()
        answer = self.send(move, form, post_to)
        acknowledged_at = time.monotonic()
        self.acknowledged(move, answer)
        return sent_at, acknowledged_at

    def check_stored(self, through) -> None:
        """The table holds exactly the acknowledged moves, in order: its history as `through`
        exports it lists them (each by its seat, named in its line), the stored state is the
        game's state after them, and each move's key was applied once."""
        answer = self.host.at(through).get(f"/t/{self.code}/export.json")
        assert answer.status_code == 200, answer.status_code
        events = [e for e in json.loads(answer.text)["events"] if e["kind"] == "game"]
        assert len(events) == len(self.moves), (len(events), len(self.moves))
        for number, (event, move) in enumerate(zip(events, self.moves)):
            assert event["seat"] == move.seat and not event["undone"], (number, event, move)
            assert NAMES[move.seat] in " ".join(event["lines"]), (number, event, move.action)
        assert self.store.state(self.code) == self.state
        assert self.store.keys(self.code) == {m.key for m in self.moves}


def other(machine: Machine, machines: tuple[Machine, Machine]) -> Machine:
    return machines[1] if machine is machines[0] else machines[0]


# --- the tests ----------------------------------------------------------------------------------


def test_a_table_joined_on_one_machine_opens_on_the_other(machines):
    a, b = machines
    host, ben, chris = Device(), Device(), Device()
    code = start_table(host.at(a), GAME, NAMES)
    joined = take_seat(ben.at(a), code, 1)
    assert joined.status_code == 302 and joined.headers["Location"].endswith(f"/t/{code}/")

    # Ben's phone opens its own seat on B (not the join page), the host its table view.
    seat = ben.at(b).get(f"/t/{code}/")
    assert seat.status_code == 200, (seat.status_code, seat.headers.get("Location"))
    assert "You are Ben." in visible(seat.text)
    assert 'name="seat"' not in seat.text  # the join page's seat buttons
    table_view = host.at(b).get(f"/t/{code}/")
    assert table_view.status_code == 200
    assert "Hand the host role to another device" in visible(table_view.text)
    assert version_of(table_view.text) == version_of(seat.text)
    # B knows who is who from the cookies alone: without them it sends a phone to the join page.
    stranger = Device().at(b).get(f"/t/{code}/")
    assert stranger.status_code == 302 and f"/t/{code}/join" in stranger.headers["Location"]

    # Chris's join form, served by A, is accepted by B: the CSRF token A signed holds there.
    form = chris.at(a).get(f"/t/{code}/join").text
    assert "Ben — joined" in visible(form)
    joined = chris.at(b).post(f"/t/{code}/join", {"csrf_token": csrf_from(form), "seat": 2})
    assert joined.status_code == 302, (joined.status_code, joined.text[:300])
    assert "You are Chris." in visible(chris.at(a).get(f"/t/{code}/").text)
    assert "You are Ben." in visible(ben.at(a).get(f"/t/{code}/").text)


def test_a_move_on_one_machine_reaches_a_stream_on_the_other_within_250_ms(machines):
    a, b = machines
    table = Table(a.database, a, seed=2)
    stream = Stream(table.phones[1], b, table.code)
    try:
        arrived, version = stream.next()
        assert version == table.version and arrived - stream.opened < 1  # said at once
        delays, since_sent = [], []
        for _ in range(5):
            sent_at, acknowledged_at = table.play(page_from=a, post_to=a)
            arrived, version = stream.version_above(table.version - 1)
            assert version == table.version
            delays.append(arrived - acknowledged_at)
            since_sent.append(arrived - sent_at)
    finally:
        stream.close()
    figures = ", ".join(f"{d * 1000:.0f}" for d in delays)
    # Negative: B's stream said it before A's answer had reached the phone.
    print(
        f"\nA's answer -> B's stream, 5 moves: {figures} ms (goal < {DELIVERY * 1000:.0f}); "
        f"from the post: {', '.join(f'{d * 1000:.0f}' for d in since_sent)} ms"
    )
    assert max(delays) < DELIVERY, figures


def test_moves_alternating_between_machines_never_conflict(machines):
    a, b = machines
    table = Table(a.database, b, seed=3)
    moves = 24
    started = time.monotonic()
    post_to = a
    for _ in range(moves):
        # The form comes from the other machine than the one it is posted to, and the posts
        # alternate: each machine takes a move sent from a page of the other, right after the
        # other stored the previous one.
        page_from = other(post_to, machines)
        before = table.version
        table.play(page_from=page_from, post_to=post_to)
        # The host's page on the other machine asks for what changed (its poll): the move is
        # there at once.
        poll = table.host.at(page_from).get(f"/t/{table.code}/live?v={before}")
        assert poll.status_code == 200 and version_of(poll.text) == table.version
        post_to = page_from
    elapsed = time.monotonic() - started
    print(f"\n{moves} moves alternating between A and B in {elapsed:.1f} s, all acknowledged")
    assert len(table.moves) == moves
    assert len({m.seat for m in table.moves}) == len(NAMES)  # every seat's phone sent some
    table.check_stored(a)
    table.check_stored(b)


def test_kill_9_of_a_machine_mid_run_loses_no_acknowledged_move(machines):
    a, b = machines
    table = Table(a.database, a, seed=4)
    stream = Stream(table.phones[2], b, table.code)
    try:
        stream.next()
        for number in range(6):
            table.play(page_from=b, post_to=a if number % 2 == 0 else b)

        # A move posted to A, and A killed (-9, master and worker) while it is under way.
        move = table.next_move()
        form = table.form(move, b)
        outcome: dict = {}

        def send_to_a():
            try:
                outcome["answer"] = table.send(move, form, a)
            except (OSError, http.client.HTTPException) as error:
                outcome["cut"] = error

        sending = threading.Thread(target=send_to_a)
        sending.start()
        time.sleep(table.rng.uniform(0.002, 0.012))
        a.kill()
        sending.join(30)
        assert not sending.is_alive(), "the post to the killed machine hangs"
        if "answer" in outcome:  # A answered before it died
            table.acknowledged(move, outcome["answer"])
            what = "A acknowledged the move before it died"
        else:
            # The phone's script sends it again, unchanged; the proxy passes it to B. Whether A
            # stored it before dying or not, it is applied once.
            stored_by_a = move.key in table.store.keys(table.code)
            resent_at = time.monotonic()
            table.acknowledged(move, table.send(move, form, b))
            what = (
                f"the kill cut the move off ({'stored' if stored_by_a else 'not stored'} by A); "
                f"sent again, B acknowledged it in {(time.monotonic() - resent_at) * 1000:.0f} ms"
            )
        print(f"\n{what}")
        # Every move A acknowledged is in the table, read through B while A is down.
        table.check_stored(b)

        # B serves on: every device's page, and moves.
        for device in (table.host, *table.phones):
            assert version_of(table.page(device, b)) == table.version
        for _ in range(4):
            table.play(page_from=b, post_to=b)
        assert stream.version_above(table.version - 1)[1] == table.version

        # A, started again on the same database, serves again: pages, and a move that B's
        # stream hears of.
        a.start()
        assert version_of(table.page(table.host, a)) == table.version
        table.play(page_from=b, post_to=a)
        table.play(page_from=a, post_to=a)
        assert stream.version_above(table.version - 1)[1] == table.version
    finally:
        stream.close()
    table.check_stored(a)
    table.check_stored(b)


# --- nginx in front (docs/nginx.conf) ------------------------------------------------------------

# Debian's nginx (nginx-light or nginx); /usr/sbin is not on every user's PATH.
NGINX = shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin")
NGINX_CONF = ROOT / "docs" / "nginx.conf"


def site_config(machines: tuple[Machine, Machine], port: int) -> str:
    """docs/nginx.conf as an operator adapts it: the upstream's two servers are the machines,
    and the site listens on a free loopback port. Nothing else changes."""
    text = NGINX_CONF.read_text()
    upstream = re.search(r"^upstream companion \{.*?^\}", text, re.S | re.M)
    assert upstream, "docs/nginx.conf has no `upstream companion`"
    servers = re.findall(r"^\s*server \S+;", upstream.group(0), re.M)
    assert len(servers) == 2, servers
    block = upstream.group(0)
    for line, machine in zip(servers, machines):
        block = block.replace(line, f"    server 127.0.0.1:{machine.port};", 1)
    text = text.replace(upstream.group(0), block)
    text, listens = re.subn(r"^(\s*)listen 80;", rf"\1listen 127.0.0.1:{port};", text, flags=re.M)
    assert listens == 1, "docs/nginx.conf should listen on port 80 once"
    return text


class Nginx:
    """nginx serving the site config on a loopback port, everything of its own (main config,
    pid, logs, temporary files) in one folder. Its access log names the machine that answered
    each request ($upstream_addr)."""

    def __init__(self, folder: Path, site: str, port: int):
        self.folder = folder
        self.folder.mkdir(parents=True, exist_ok=True)
        self.port = port
        self.url = f"http://127.0.0.1:{port}"
        (folder / "companion.conf").write_text(site)
        # As root nginx's workers would become `nobody`, who may not enter the test's private
        # temporary folder (its proxy buffers go to files there): they stay root here.
        user = "user root;\n" if os.geteuid() == 0 else ""
        temporary = "\n".join(
            f"    {kind}_temp_path {folder / kind};"
            for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
        )
        (folder / "nginx.conf").write_text(
            f"{user}worker_processes 1;\n"
            "daemon off;\n"
            f"pid {folder / 'nginx.pid'};\n"
            f"error_log {folder / 'error.log'} warn;\n"
            "events { worker_connections 256; }\n"
            "http {\n"
            "    log_format machine '$request_method $request_uri $status $upstream_addr';\n"
            f"    access_log {folder / 'access.log'} machine;\n"
            f"{temporary}\n"
            f"    include {folder / 'companion.conf'};\n"
            "}\n"
        )
        self.command = [NGINX, "-p", str(folder), "-c", str(folder / "nginx.conf")]
        self.command += ["-e", str(folder / "error.log")]
        self.process: subprocess.Popen | None = None

    def check(self) -> str:
        """`nginx -t`: the configuration's syntax and its test; what nginx said."""
        done = subprocess.run([*self.command, "-t"], capture_output=True, text=True, timeout=30)
        assert done.returncode == 0, done.stderr
        return done.stderr

    def start(self) -> None:
        self.process = subprocess.Popen(
            self.command,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            assert self.process.poll() is None, self.errors()
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.05)
        raise AssertionError(f"nginx did not listen: {self.errors()}")

    def stop(self) -> None:
        if self.process is not None:
            os.killpg(self.process.pid, signal.SIGTERM)
            self.process.wait(10)
            self.process = None

    def errors(self) -> str:
        path = self.folder / "error.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def answered_by(self, code: str, requests: int = 1) -> list[list[str]]:
        """For each request of the table, in order: the machines nginx passed it to (more than
        one when the first refused it). nginx writes a request's line once it has answered it:
        this waits (five seconds at most) for the lines of at least `requests` requests."""
        deadline = time.monotonic() + 5
        while True:
            lines = (self.folder / "access.log").read_text().splitlines()
            found = [line.split(" ", 3)[3].split(", ") for line in lines if f"/t/{code}/" in line]
            if len(found) >= requests or time.monotonic() > deadline:
                return found
            time.sleep(0.02)


@pytest.mark.skipif(NGINX is None, reason="nginx is not installed (Debian: nginx-light or nginx)")
def test_nginx_keeps_a_table_on_one_machine_and_passes_its_stream(postgres_server, tmp_path):
    port = free_port()
    database = postgres_server.create_database("machines_nginx")
    # Behind one proxy, as docs/nginx.conf says: the address phones use is nginx's.
    machines = tuple(
        Machine(
            name,
            tmp_path / name,
            database,
            public_url=f"http://127.0.0.1:{port}",
            env={"COMPANION_TRUSTED_PROXIES": "1"},
        )
        for name in ("A", "B")
    )
    proxy = Nginx(tmp_path / "nginx", site_config(machines, port), port)
    said = proxy.check()
    assert "syntax is ok" in said and "test is successful" in said, said
    try:
        start_together(*machines)
        proxy.start()
        table = Table(database, proxy, seed=6)
        stream = Stream(table.phones[0], proxy, table.code)
        try:
            # The first message passes at once (a page that hears nothing from its stream
            # within 3 s gives it up and polls).
            arrived, version = stream.next()
            assert version == table.version and arrived - stream.opened < 1
            delays = []
            for _ in range(4):
                _, acknowledged_at = table.play(page_from=proxy, post_to=proxy)
                arrived, version = stream.version_above(table.version - 1)
                assert version == table.version
                delays.append(arrived - acknowledged_at)
        finally:
            stream.close()  # nginx logs a request when it ends
        figures = ", ".join(f"{d * 1000:.0f}" for d in delays)
        print(f"\nthrough nginx, the answer -> the stream: {figures} ms")
        assert max(delays) < DELIVERY, figures
        for device in (table.host, *table.phones):
            assert version_of(table.page(device, proxy)) == table.version
        table.check_stored(proxy)

        # Every request of the table (joins, pages, forms, moves, its stream, the export) went
        # to one machine, and only to it.
        addresses = {f"127.0.0.1:{m.port}": m for m in machines}
        # 3 joins, 9 pages, 4 moves, the stream, the export
        answered = proxy.answered_by(table.code, 18)
        assert len(answered) == 18, answered
        assert {tuple(a) for a in answered} == {(answered[0][0],)}, answered
        home = addresses[answered[0][0]]
        print(f"all {len(answered)} requests of table {table.code} went to machine {home.name}")
        assert "[error]" not in proxy.errors(), proxy.errors()
        # Not because every request goes to that machine: other tables' requests go to the
        # other one (each new table has a random code; 40 all landing on one machine would
        # happen once in 10^12 runs).
        host = Device()
        for _ in range(40):
            code = start_table(host.at(proxy), GAME, NAMES)
            assert host.at(proxy).get(f"/t/{code}/").status_code == 200
            if proxy.answered_by(code)[-1] != [answered[0][0]]:
                break
        else:
            raise AssertionError(f"40 tables, all on machine {home.name}")

        # Its machine dies: nginx passes the table's requests to the other, which serves the
        # phones their pages, takes their moves and holds their streams.
        home.kill()
        seen = len(answered)
        for device in (table.host, *table.phones):
            assert version_of(table.page(device, proxy)) == table.version
        stream = Stream(table.phones[1], proxy, table.code)
        try:
            stream.next()
            table.play(page_from=proxy, post_to=proxy)
            assert stream.version_above(table.version - 1)[1] == table.version
        finally:
            stream.close()
        table.check_stored(proxy)
        survivor = other(home, machines)
        # 4 pages, the stream, a move (its page and its post), the export
        after = proxy.answered_by(table.code, seen + 8)[seen:]
        assert len(after) == 8, after
        assert after and all(a[-1] == f"127.0.0.1:{survivor.port}" for a in after), after
        print(
            f"with {home.name} killed, {len(after)} requests went to {survivor.name}: {after[:2]}"
        )
        no_tracebacks(*machines)
    finally:
        proxy.stop()
        for machine in machines:
            machine.stop()

"""The performance benchmark: every figure of the goals table, measured in one run.

    python -m scripts.benchmark            # the full run (a few minutes), as `make benchmark`
    python -m scripts.benchmark --quick    # a smoke run: small loads, same code paths

It seeds a database with tables whose histories hold 10, 100, 500 and 2,000 events, starts the
companion and a bare Flask baseline (scripts/baseline_app.py) on the same waitress settings on
free loopback ports, and measures them alternately where a figure is a ratio. Load comes from
wrk (Debian's package) for throughput and from an asyncio client for the phones. Every figure is
printed beside its goal; the exit status is 1 if any goal is missed.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime
import http.client
import os
import platform
import random
import re
import resource
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from companion import create_app, get_db, tables
from companion.games import GAMES
from companion.games.base import replay_actions
from companion.serve import processes_wanted
from companion.web.adapter import adapter_of

ROOT = Path(__file__).resolve().parent.parent

STORE = None  # the benchmark's own app on the benchmark's database: seeding, reading states
# The history-length figures use the first game whose random play has a repeatable host entry
# (<package>/random_play.py: repeatable_action); the figures per game use every game.
BENCH_GAME = next(
    key
    for key, info in GAMES.items()
    if getattr(info.random_play, "repeatable_action", None) is not None
)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


# --- seeding ---------------------------------------------------------------------------------------


@dataclass
class Seeded:
    code: str
    host_token: str
    seat_tokens: list[str]
    events: int
    game: str = BENCH_GAME


def seed_table(db, game: str, events: int, free_seats: int = 0) -> Seeded:
    """A table of 4 phones (players within the game's limits) whose history holds `events`
    events: game actions (the host switching fines on and off, a real action that changes the
    state), notes, and now and then an undone action."""
    info = GAMES[game]
    players = max(info.min_players, min(4, info.max_players))
    table, host_token = tables.create_table(db, game, [f"P{i + 1}" for i in range(players)])
    seat_tokens = [tables.join(db, table, seat) for seat in range(players - free_seats)]
    made = 0
    while made < events:
        if made % 2 == 0 and game == BENCH_GAME:
            action = repeatable(info, tables.state_of(db, table))
            tables.act(db, table, action, seat=None, host=True, expected_version=None)
        else:
            tables.add_note(db, table, f"note {made}", seat=made % players, host=False)
        made += 1
        if made % 50 == 49:
            tables.undo(db, table, seat=None, host=True, expected_version=None)
    return Seeded(table.code, host_token, seat_tokens, events, game)


def seed_finished(db, game: str, events: int, seed: str = "bench-replay") -> Seeded:
    """A table of `game` played to its end by random play (the game's generator), with a note
    every few actions and now and then an undone one, until its log holds at least `events`
    events: a long finished game to replay."""
    info = GAMES[game]
    players = info.max_players
    table, host_token = tables.create_table(db, game, [f"P{i + 1}" for i in range(players)])
    rng = random.Random(seed)
    accepted = 0
    while True:
        state = tables.state_of(db, table)
        if info.rules.result(state) is not None:
            break
        action = info.random_play.next_action(state, rng)
        fields = {k: v for k, v in action.items() if k not in ("seat", "host")}
        try:
            tables.act(
                db,
                table,
                fields,
                seat=action.get("seat"),
                host=bool(action.get("host")),
                expected_version=None,
            )
        except tables.RuleError:
            continue
        accepted += 1
        if accepted % 40 == 21:  # the action just entered is taken back
            tables.undo(db, table, seat=None, host=True, expected_version=None)
        elif accepted % 2 == 0:
            tables.add_note(db, table, f"note {accepted}", seat=accepted % players, host=False)
    made = tables.count_events(db, table)
    assert made >= events, f"the game ended after {made} events, fewer than {events}"
    return Seeded(table.code, host_token, [], made, game)


def longest_finished(db, events: int) -> Seeded:
    """A finished game of at least `events` events: each registered game played to its end by
    random play until one is that long (the first entry whose game lasts long enough)."""
    for key in GAMES:
        try:
            return seed_finished(db, key, events)
        except AssertionError:
            continue  # this game ends sooner: try the next
    raise AssertionError(f"no registered game lasts {events} events")


def repeatable(info, state: dict) -> dict:
    """The game's repeatable host action as an action dict, read through its form."""
    from werkzeug.datastructures import MultiDict

    action_type, fields = info.random_play.repeatable_action(state)
    form = adapter_of(info).forms[action_type](formdata=MultiDict(fields), meta={"csrf": False})
    assert form.validate(), form.errors
    return {"type": action_type, **form.to_action()}


# --- servers ---------------------------------------------------------------------------------------


class Served:
    """A WSGI app served by scripts/serve_app.py in its own process."""

    def __init__(self, target: str, env: dict):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        # What the server says (a traceback, a warning) is kept to be counted.
        self.log = tempfile.TemporaryFile()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "scripts.serve_app", target, str(self.port)],
            cwd=ROOT,
            # One process unless told: the figures of one server process (polls against a bare
            # Flask view, memory) are measured as their goals were set.
            # (and no limit on tables started: the benchmark starts many from one address)
            env={
                **os.environ,
                "COMPANION_PROCESSES": "1",
                "COMPANION_TABLES_PER_DEVICE_MINUTE": "0",
                "COMPANION_TABLES_PER_ADDRESS_MINUTE": "0",
                **env,
            },
            stdout=subprocess.DEVNULL,
            stderr=self.log,
            start_new_session=True,  # stop() reaches gunicorn's workers too
        )
        deadline = time.time() + 30
        while time.time() < deadline:
            try:
                urllib.request.urlopen(self.url + "/t/X/live?v=1", timeout=1)
                return
            except urllib.error.HTTPError:
                return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError(f"{target} did not start")

    def rss_mb(self) -> float:
        """The memory of every server process (gunicorn's master and workers: their PSS)."""
        from scripts import benchmark_push

        return benchmark_push.memory_mb(benchmark_push.process_tree(self.process.pid))

    def stderr(self) -> str:
        self.log.seek(0)
        return self.log.read().decode(errors="replace")

    def stop(self) -> None:
        """SIGTERM to every server process (gunicorn lets open streams go within 10 s), then
        kill -9 whatever is left."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(15)
        except subprocess.TimeoutExpired:
            pass
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()


# --- clients ---------------------------------------------------------------------------------------


def wrk_rps(url: str, cookie: str, seconds: int, connections: int = 16) -> float:
    """Requests per second wrk gets from url (keep-alive, 2 threads)."""
    out = subprocess.run(
        ["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "-H", f"Cookie: {cookie}", url],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))


class Browser:
    """A phone's HTTP/1.1 keep-alive connection with its cookies (http.client)."""

    def __init__(self, port: int, cookies: dict | None = None):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.cookies = dict(cookies or {})

    def request(
        self, method: str, path: str, body: dict | None = None, headers: dict | None = None
    ) -> tuple[int, bytes, int]:
        """(status, body, bytes on the wire: status line, headers and body as sent)."""
        head = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items()), **(headers or {})}
        data = None
        if body is not None:
            data = "&".join(f"{k}={urllib.parse.quote(str(v))}" for k, v in body.items())
            head["Content-Type"] = "application/x-www-form-urlencoded"
        self.conn.request(method, path, body=data, headers=head)
        response = self.conn.getresponse()
        payload = response.read()
        for name, value in response.getheaders():
            if name.lower() == "set-cookie":
                key, _, rest = value.partition("=")
                self.cookies[key] = rest.split(";", 1)[0]
        wire = (
            len(f"HTTP/1.1 {response.status} {response.reason}\r\n")
            + sum(len(k) + len(v) + 4 for k, v in response.getheaders())
            + 2
            + len(payload)
        )
        return response.status, payload, wire


def csrf_and_version(html: bytes) -> tuple[str, int]:
    text = html.decode()
    token = re.search(r'name="csrf_token" (?:type="hidden" )?value="([^"]+)"', text)
    if token is None:
        token = re.search(r'"X-CSRFToken": "([^"]+)"', text)
    version = re.search(r'data-version="(\d+)"', text)
    return token.group(1), int(version.group(1))


def seed_elsewhere(database: str, count: int, events: int = 2) -> list[Seeded]:
    """`count` tables of 4 phones on another database (a file or a PostgreSQL URL)."""
    seeder = create_app({"DATABASE": database, "SECRET_KEY": "bench"})
    try:
        with seeder.app_context():
            db = get_db()
            return [seed_table(db, BENCH_GAME, events) for _ in range(count)]
    finally:
        seeder.extensions["companion.db"].close()


_STATE_READERS: dict = {}


def state_reader(database: str | None):
    """An app on the database, to read table states with (the benchmark's own by default)."""
    if database is None:
        return STORE
    if database not in _STATE_READERS:
        _STATE_READERS[database] = create_app({"DATABASE": database, "SECRET_KEY": "bench"})
    return _STATE_READERS[database]


class Host:
    """The host's device: sends the game's repeatable action and undoes, timing each."""

    def __init__(self, port: int, seeded: Seeded, database: str | None = None):
        self.seeded = seeded
        self.store = state_reader(database)
        self.info = GAMES[seeded.game]
        self.port = port
        self.browser = Browser(port, {f"host_{seeded.code}": seeded.host_token})
        self._read_page()

    def _read_page(self) -> None:
        status, page, _ = self.browser.request("GET", f"/t/{self.seeded.code}/")
        assert status == 200, status
        self.csrf, self.version = csrf_and_version(page)

    def reconnect(self) -> None:
        """A new connection after a request that was not answered, and the table as it is
        now (the unanswered move may have been made)."""
        self.browser.conn.close()
        self.browser.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        self._read_page()

    def _post(self, path: str, body: dict) -> float:
        started = time.perf_counter()
        status, payload, _ = self.browser.request(
            "POST",
            path,
            {"csrf_token": self.csrf, "version": self.version, **body},
            {"HX-Request": "true"},
        )
        elapsed = time.perf_counter() - started
        assert status == 200, (status, payload[:300])
        self.version = int(re.search(rb'data-version="(\d+)"', payload).group(1))
        return elapsed

    def act(self) -> float:
        """The repeatable action for the table's current state (read outside the timing)."""
        with self.store.app_context():
            db = get_db()
            state = tables.state_of(db, tables.get_table(db, self.seeded.code))
        action_type, fields = self.info.random_play.repeatable_action(state)
        return self._post(f"/t/{self.seeded.code}/act/{action_type}", fields)

    def undo(self) -> float:
        return self._post(f"/t/{self.seeded.code}/undo", {})


async def poll_forever(
    port: int, seeded: Seeded, seat: int, period: float, stop: asyncio.Event, stats: dict
) -> None:
    """A phone polling every `period` seconds on one keep-alive connection."""
    cookie = f"seat_{seeded.code}={seeded.seat_tokens[seat]}"
    version = 0
    await asyncio.sleep(random.random() * period)
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
    except OSError:
        stats["failed"] += 1
        return
    while not stop.is_set():
        request = (
            f"GET /t/{seeded.code}/live?v={version} HTTP/1.1\r\nHost: x\r\n"
            f"Cookie: {cookie}\r\nHX-Request: true\r\n\r\n"
        )
        writer.write(request.encode())
        try:
            status, body = await read_response(reader)
        except (OSError, asyncio.IncompleteReadError, ValueError) as error:
            stats["failed"] += 1
            stats.setdefault("errors", []).append(repr(error)[:80])
            return
        stats[status] = stats.get(status, 0) + 1
        if status == 200:
            found = re.search(rb'data-version="(\d+)"', body)
            version = int(found.group(1)) if found else version
        try:
            await asyncio.wait_for(stop.wait(), period)
        except TimeoutError:
            pass
    writer.close()


async def read_response(reader) -> tuple[int, bytes]:
    status_line = await reader.readline()
    if not status_line:
        raise ValueError("connection closed")
    status = int(status_line.split()[1])
    length, chunked = 0, False
    while True:
        line = await reader.readline()
        if line in (b"\r\n", b""):
            break
        name, _, value = line.decode().partition(":")
        if name.lower() == "content-length":
            length = int(value)
        elif name.lower() == "transfer-encoding" and "chunked" in value.lower():
            chunked = True
    if chunked:
        body = b""
        while True:
            size = int((await reader.readline()).strip(), 16)
            chunk = await reader.readexactly(size + 2)
            if size == 0:
                break
            body += chunk[:-2]
        return status, body
    return status, await reader.readexactly(length) if length else b""


# --- the figures -----------------------------------------------------------------------------------


@dataclass
class Figure:
    name: str
    value: float
    goal: str
    ok: bool
    unit: str = ""
    detail: str = ""


@dataclass
class Report:
    figures: list[Figure] = field(default_factory=list)

    def add(self, name, value, goal, ok, unit="", detail=""):
        figure = Figure(name, value, goal, ok, unit, detail)
        self.figures.append(figure)
        mark = "ok  " if ok else "MISS"
        print(
            f"  {mark} {name}: {value:.2f}{unit}  (goal {goal}){'  ' + detail if detail else ''}",
            flush=True,
        )

    def finish(self) -> int:
        """Say which goals were missed; the exit status (1 if any)."""
        missed = [f.name for f in self.figures if not f.ok]
        print("all goals met" if not missed else f"missed: {', '.join(missed)}")
        return 1 if missed else 0


def median_time(fn, n: int) -> float:
    return statistics.median(fn() for _ in range(n))


def figure_poll_throughput(
    report, app: Served, base: Served, seeded: Seeded, pairs: int, seconds: int
) -> None:
    cookie = f"seat_{seeded.code}={seeded.seat_tokens[0]}"
    version = tables_version(app, seeded)
    ratios, ours, theirs = [], [], []
    for _ in range(pairs):
        a = wrk_rps(f"{app.url}/t/{seeded.code}/live?v={version}", cookie, seconds)
        b = wrk_rps(f"{base.url}/t/{seeded.code}/live?v={version}", cookie, seconds)
        ours.append(a)
        theirs.append(b)
        ratios.append(a / b)
    report.add(
        "unchanged-poll throughput / bare Flask 204",
        statistics.median(ratios),
        ">= 0.8",
        statistics.median(ratios) >= 0.8,
        detail=f"({statistics.median(ours):.0f} vs {statistics.median(theirs):.0f} req/s,"
        f" {pairs} pairs)",
    )


def tables_version(app: Served, seeded: Seeded) -> int:
    browser = Browser(app.port, {f"seat_{seeded.code}": seeded.seat_tokens[0]})
    status, page, _ = browser.request("GET", f"/t/{seeded.code}/")
    return csrf_and_version(page)[1]


def figure_history_costs(report, app: Served, small: Seeded, large: Seeded, n: int) -> None:
    def costs(seeded: Seeded) -> dict:
        host = Host(app.port, seeded)
        phone = Browser(app.port, {f"seat_{seeded.code}": seeded.seat_tokens[1]})

        def changed_poll():
            started = time.perf_counter()
            status, _, _ = phone.request(
                "GET", f"/t/{seeded.code}/live?v=0", headers={"HX-Request": "true"}
            )
            assert status == 200
            return time.perf_counter() - started

        def undo_once():
            host.act()
            return host.undo()

        for _ in range(5):  # warm up
            host.act()
            changed_poll()
        return {
            "action": median_time(host.act, n),
            "poll": median_time(changed_poll, n),
            "undo": median_time(undo_once, n),
        }

    a, b = costs(small), costs(large)
    for key, label in (("action", "action"), ("poll", "changed poll")):
        ratio = b[key] / a[key]
        report.add(
            f"{label} time at {large.events} events / at {small.events}",
            ratio,
            "<= 1.3",
            ratio <= 1.3,
            detail=f"({b[key] * 1000:.1f} ms vs {a[key] * 1000:.1f} ms)",
        )
    ratio = b["undo"] / a["undo"]
    report.add(
        f"undo time at {large.events} events / at {small.events}",
        ratio,
        "<= 2",
        ratio <= 2,
        detail=f"({b['undo'] * 1000:.1f} ms vs {a['undo'] * 1000:.1f} ms)",
    )


async def phones_polling(
    app: Served,
    seeded: list[Seeded],
    seconds: float,
    period: float,
    writer_tables: list[Seeded] | None = None,
) -> tuple[dict, list[float]]:
    stop = asyncio.Event()
    stats: dict = {"failed": 0}
    pollers = [
        asyncio.create_task(poll_forever(app.port, s, seat, period, stop, stats))
        for s in seeded
        for seat in range(len(s.seat_tokens))
    ]
    round_trips: list[float] = []

    async def write():
        hosts = [await asyncio.to_thread(Host, app.port, s) for s in writer_tables or []]
        await asyncio.sleep(period)
        end = time.time() + seconds - period
        while time.time() < end and hosts:
            host = random.choice(hosts)
            round_trips.append(await asyncio.to_thread(host.act))
            await asyncio.sleep(0.1)

    await asyncio.gather(write(), asyncio.sleep(seconds))
    stop.set()
    await asyncio.gather(*pollers)
    return stats, round_trips


def figure_round_trip(report, app: Served, seeded: list[Seeded], seconds: float) -> None:
    stats, trips = asyncio.run(phones_polling(app, seeded, seconds, 2.0, seeded[:10]))
    p95 = statistics.quantiles(trips, n=20)[-1] * 1000
    phones = sum(len(s.seat_tokens) for s in seeded)
    report.add(
        f"action round trip p95, {phones} phones polling every 2 s",
        p95,
        "<= 20 ms",
        p95 <= 20,
        " ms",
        f"({len(trips)} actions, {sum(v for k, v in stats.items() if k != 'failed')} polls,"
        f" {stats['failed']} failed)",
    )


async def connect_all(app: Served, seeded: list[Seeded]) -> tuple[int, int]:
    """Every phone opens its connection at the same moment and polls twice on it."""
    start = asyncio.Event()
    answered = 0

    async def phone(s: Seeded, seat: int) -> None:
        nonlocal answered
        await start.wait()
        try:
            reader, writer = await asyncio.wait_for(
                asyncio.open_connection("127.0.0.1", app.port), 60
            )
            for _ in range(2):
                writer.write(
                    (
                        f"GET /t/{s.code}/live?v=1 HTTP/1.1\r\nHost: x\r\n"
                        f"Cookie: seat_{s.code}={s.seat_tokens[seat]}\r\n\r\n"
                    ).encode()
                )
                await asyncio.wait_for(read_response(reader), 60)
            answered += 1
            await asyncio.sleep(1)
            writer.close()
        except (TimeoutError, OSError, asyncio.IncompleteReadError, ValueError):
            pass

    tasks = [
        asyncio.create_task(phone(s, seat)) for s in seeded for seat in range(len(s.seat_tokens))
    ]
    await asyncio.sleep(0.5)
    start.set()
    await asyncio.gather(*tasks)
    return answered, len(tasks)


def figure_connections(report, app: Served, seeded: list[Seeded]) -> None:
    answered, phones = asyncio.run(connect_all(app, seeded))
    report.add(
        f"phones served when {phones} connect at once",
        answered,
        f"all {phones}",
        answered == phones,
        detail=f"({answered} of {phones})",
    )


def figure_replay(report, rounds: int) -> None:
    worst, details = 0.0, []
    for key, info in GAMES.items():
        generator = info.random_play
        rules = info.rules
        rng = random.Random(f"bench-{key}")
        players = info.max_players
        state = rules.new(dict(info.options), players)
        actions = []
        for _ in range(20_000):
            if rules.result(state) is not None:
                break
            action = generator.next_action(state, rng)
            try:
                state = rules.apply(state, action)
            except Exception:
                continue
            actions.append(action)

        def replay(rules=rules, options=info.options, players=players, actions=actions):
            # as the store replays (tables.replay): the accepted actions, from new()
            started = time.perf_counter()
            replay_actions(rules, rules.new(dict(options), players), actions)
            return time.perf_counter() - started

        ms = median_time(replay, rounds) * 1000
        worst = max(worst, ms)
        details.append(f"{key} {ms:.1f} ms/{len(actions)}")
    report.add(
        "replay of a full game, the slowest game",
        worst,
        "<= 10 ms",
        worst <= 10,
        " ms",
        "(" + ", ".join(details) + ")",
    )


def figure_replay_step(
    report, app: Served, base: Served, seeded: Seeded, warm: Seeded, rounds: int
) -> None:
    """A step of a finished game's replay at step 300 of a long game (the whole page, and the
    step alone as htmx swaps it), each request timed beside a bare Flask request on the same
    server settings (the baseline: what loopback and a WSGI answer cost anyway). The first
    replay request of the table (the process warmed by another table's replay) also makes its
    outline (one replay of the whole log). The goal holds the 95th percentile and the first."""
    step = 300
    cookies = {f"host_{seeded.code}": seeded.host_token}
    phone, bare = Browser(app.port, cookies), Browser(base.port)
    path = f"/t/{seeded.code}/replay/{step}"

    def timed(browser: Browser, url: str, headers: dict | None = None) -> float:
        started = time.perf_counter()
        status, _, _ = browser.request("GET", url, headers=headers)
        elapsed = time.perf_counter() - started
        assert status in (200, 204), (url, status)
        return elapsed

    # The process warm (templates, catalogues: another finished table's replay), this table not.
    warmer = Browser(app.port, {f"host_{warm.code}": warm.host_token})
    timed(warmer, f"/t/{warm.code}/replay/1")
    first = timed(phone, path)
    pages, regions, baseline = [], [], []
    for _ in range(rounds):
        pages.append(timed(phone, path))
        regions.append(timed(phone, path, {"HX-Request": "true"}))
        baseline.append(timed(bare, f"/t/{seeded.code}/live?v=1"))
    page = statistics.median(pages) * 1000
    region = statistics.median(regions) * 1000
    p95 = statistics.quantiles(pages, n=20, method="inclusive")[-1] * 1000
    report.add(
        f"replay step {step} of a {seeded.events}-event game ({seeded.game}), whole page",
        page,
        "< 50 ms",
        p95 < 50 and first < 0.050,
        " ms",
        f"(median; p95 {p95:.1f} ms, slowest {max(pages) * 1000:.1f} ms; the step alone (htmx)"
        f" {region:.1f} ms; bare Flask"
        f" {statistics.median(baseline) * 1000:.1f} ms; the first request, with the outline,"
        f" {first * 1000:.1f} ms)",
    )


def figure_processes(report, seconds: int, counts: tuple[int, ...]) -> None:
    """Throughput of 1, 2, 4... server processes on each store (COMPANION_PROCESSES: gunicorn
    workers), each on a database of its own with one table of 4 phones: the unchanged poll
    (as a ratio of the bare Flask baseline served by as many processes) and the whole table
    page (a store read and a render per request)."""
    from scripts.throwaway_postgres import ThrowawayPostgres, Unavailable

    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        stores = {"sqlite": str(Path(tmp) / "processes.db")}
        try:
            stores["postgresql"] = stack.enter_context(ThrowawayPostgres()).create_database(
                "bench_processes"
            )
        except Unavailable as error:
            print(f"  PostgreSQL figures skipped: {error}", flush=True)
        for backend, url in stores.items():
            seeder = create_app({"DATABASE": url, "SECRET_KEY": "bench"})
            with seeder.app_context():
                seeded = seed_table(get_db(), BENCH_GAME, 100)
            seeder.extensions["companion.db"].close()
            cookie = f"seat_{seeded.code}={seeded.seat_tokens[0]}"
            for processes in counts:
                env = {
                    "COMPANION_DATABASE": url,
                    "COMPANION_SECRET_KEY": "bench",
                    "COMPANION_PUBLIC_URL": "http://127.0.0.1",
                    "COMPANION_PROCESSES": str(processes),
                }
                ours = Served("wsgi:app", env)
                base = Served(
                    "scripts.baseline_app:app",
                    {"COMPANION_PROCESSES": str(processes)},
                )
                try:
                    version = tables_version(ours, seeded)
                    poll = f"/t/{seeded.code}/live?v={version}"
                    a = wrk_rps(ours.url + poll, cookie, seconds)
                    b = wrk_rps(base.url + poll, cookie, seconds)
                    page = wrk_rps(f"{ours.url}/t/{seeded.code}/", cookie, seconds)
                finally:
                    ours.stop()
                    base.stop()
                # The goal is the one-process goal; with more processes than cores (and, for
                # PostgreSQL, its server on the same cores) the figures are reported, not held.
                single = processes == 1
                report.add(
                    f"{backend}, {processes} process(es): unchanged poll / bare Flask",
                    a / b,
                    ">= 0.8" if single else "reported",
                    a / b >= 0.8 or not single,
                    detail=f"({a:.0f} vs {b:.0f} req/s; table page {page:.0f} req/s)",
                )


SEARCH_QUERIES = [
    "can I bid 14 if I hold a 4", "bonus track", "pot", "Aloa", "pass bonus", "b",
    "川 ボーナス 何枚", "島の支配", "罰金", "の", "ボーナス線路",
    "сколько приключений", "ничья", "пас бонус", "п", "контроль острова",
]  # fmt: skip


def figure_search(report, rounds: int) -> None:
    """Ask the rules: the median and the slowest query of the question set (scripts/
    search_quality.py, questions as players ask them from a table) and of a set of keywords in
    three languages (each the median of `rounds` runs), and the one-off cost of building the
    index (on the first search)."""
    from companion.web.rules import build_index
    from scripts import search_quality

    app = create_app({"DATABASE": ":memory:", "SECRET_KEY": "bench"})
    with app.app_context():
        started = time.perf_counter()
        index = build_index()
        built = time.perf_counter() - started
    questions = search_quality.load_questions()
    asked = {
        (q["lang"], q["q"]): median_time(
            lambda q=q: search_quality.ask(index, [q])[0].seconds, rounds
        )
        for q in questions
    }
    keywords = {
        query: median_time(lambda q=query: _timed_search(index, q), rounds)
        for query in SEARCH_QUERIES
    }
    times = {**{q: t for (_, q), t in asked.items()}, **keywords}
    slowest = max(times, key=times.get)
    median = statistics.median(times.values())
    hits = sum(o.hit for o in search_quality.ask(index, questions))
    report.add(
        "rules search, the median query",
        median * 1000,
        "< 50 ms",
        median < 0.050,
        " ms",
        detail=f"({len(questions)} questions from a table and {len(SEARCH_QUERIES)} keywords in "
        f"en/ja/ru; {hits} of {len(questions)} questions answered in the top "
        f"{search_quality.TOP})",
    )
    report.add(
        "rules search, the slowest query",
        times[slowest] * 1000,
        "< 50 ms",
        times[slowest] < 0.050,
        " ms",
        detail=f"({slowest!r}; the index of {len(index.entries)} entries built in "
        f"{built * 1000:.0f} ms on the first search)",
    )


def _timed_search(index, query: str) -> float:
    started = time.perf_counter()
    index.search(query, "en")
    return time.perf_counter() - started


def figure_memory(report, app: Served, seeded: list[Seeded], seconds: float) -> None:
    asyncio.run(phones_polling(app, seeded, seconds, 2.0, seeded[:5]))
    rss = app.rss_mb()
    phones = sum(len(s.seat_tokens) for s in seeded)
    report.add(
        f"server memory, {len(seeded)} tables of 4 polling ({phones} phones)",
        rss,
        "<= 100 MB",
        rss <= 100,
        " MB",
    )


# `make run`'s engine on this machine: push, one gevent worker per core (companion/serve.py).
MAKE_RUN_PROCESSES = processes_wanted({}, push=True)


def figure_held(
    report,
    counts: tuple[int, ...],
    idle: float,
    moving: float,
    push_processes=(1,),
    polling: bool = True,
    movers: tuple[int, ...] = (20,),
) -> None:
    """1,000 / 4,000 / 8,000 phones held, with push (gunicorn's gevent workers: one per core,
    as `make run`, or the numbers of processes asked for) and polling (waitress, as
    COMPANION_PUSH=0), on one SQLite database, while 20 tables (and, with push, each count of
    `movers`: 100 for a hall) move once a second (scripts/benchmark_push.py says what is
    measured)."""
    from scripts import benchmark_push

    # Every held phone is an open file in this process (its stream, or its polling connection).
    wanted = max(counts) + 1000
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < wanted:
        print(
            f"  open files limited to {soft} (hard limit {hard}): fewer phones can be held than"
            f" {max(counts)}; raise it (ulimit -Hn) for the whole figure",
            flush=True,
        )
    tables_needed = max(counts) // 4
    with tempfile.TemporaryDirectory() as tmp:
        database = str(Path(tmp) / "held.db")
        started = time.time()
        seeded = seed_elsewhere(database, tables_needed, events=2)
        print(f"  seeded {tables_needed} tables of 4 in {time.time() - started:.0f} s", flush=True)
        variants = [("push", n, m) for m in movers for n in push_processes]
        variants += [("poll", 1, 20)] if polling else []
        for phones in counts:
            for mode, processes, moving_tables in variants:
                env = {
                    "COMPANION_DATABASE": database,
                    "COMPANION_SECRET_KEY": "bench",
                    "COMPANION_PUBLIC_URL": "http://127.0.0.1",
                    # Polling gets as many connections as push: the figure is the engine's.
                    "COMPANION_CONNECTION_LIMIT": str(max(counts) + 4000),
                    "COMPANION_PUSH": "1" if mode == "push" else "0",
                    "COMPANION_PROCESSES": str(processes),
                }
                served = Served("wsgi:app", env)
                try:
                    hosts = [Host(served.port, s, database) for s in seeded[:moving_tables]]
                    result = benchmark_push.held_phones(
                        report, mode, served, seeded[: phones // 4], hosts, idle, moving
                    )
                finally:
                    served.stop()
                engine = (
                    f"gunicorn, {processes} gevent worker{'s' if processes > 1 else ''}"
                    if mode == "push"
                    else "waitress, 8 threads"
                )
                make_run = mode == "push" and processes == MAKE_RUN_PROCESSES
                if make_run:
                    engine += ", as make run"
                benchmark_push.report_held(
                    report, mode, phones, result, engine, goal=make_run, movers=moving_tables
                )


# --- main --------------------------------------------------------------------------------------------


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small loads: a smoke run")
    parser.add_argument(
        "--processes-only",
        action="store_true",
        help="only the 1, 2 and 4 processes figures on SQLite and PostgreSQL",
    )
    parser.add_argument(
        "--push-only", action="store_true", help="only the push figures (delivery, held phones)"
    )
    parser.add_argument(
        "--phones",
        type=int,
        nargs="*",
        default=None,
        help="held-phones figures for these counts (default 1000 4000 8000; quick 400)",
    )
    parser.add_argument(
        "--no-browser", action="store_true", help="skip the delivery figures in Chromium"
    )
    parser.add_argument(
        "--no-held", action="store_true", help="skip the held-phones figures (the big load)"
    )
    parser.add_argument(
        "--push-processes",
        type=int,
        nargs="*",
        default=None,
        help="held phones with push on these numbers of gevent workers (default: as make run,"
        " one per core)",
    )
    parser.add_argument(
        "--movers",
        type=int,
        nargs="*",
        default=None,
        help="held phones with push while this many tables move once a second (default 20"
        " and 100; quick 20)",
    )
    parser.add_argument(
        "--no-polling",
        action="store_true",
        help="held phones with push only (for trying push settings: the record needs polling)",
    )
    args = parser.parse_args()
    quick = args.quick
    counts = tuple(args.phones or ((400,) if quick else (1000, 4000, 8000)))
    if shutil.which("wrk") is None:
        print("wrk is missing: `make benchmark` installs it (Debian package wrk)")
        return 2
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    sizes = (10, 100) if quick else (10, 100, 500, 2000)
    crowd = 40 if quick else 250  # tables of 4 for the "everyone connects at once" figure
    print(
        f"Benchmark {datetime.date.today()} on {platform.node()}: {os.cpu_count()} cores,"
        f" Python {platform.python_version()}{' (quick)' if quick else ''}",
        flush=True,
    )
    report = Report()
    if args.push_only:
        push_figures(report, args, counts, quick)
        return report.finish()
    if args.processes_only:
        figure_processes(report, 2 if quick else 5, (1, 2, 4))
        return report.finish()
    with tempfile.TemporaryDirectory() as tmp:
        database = Path(tmp) / "bench.db"
        global STORE
        app = STORE = create_app({"DATABASE": str(database), "SECRET_KEY": "bench"})
        started = time.time()
        with app.app_context():
            db = get_db()
            by_size = {n: seed_table(db, BENCH_GAME, n) for n in sizes}
            pollers = [seed_table(db, BENCH_GAME, 100) for _ in range(10 if quick else 50)]
            memory = pollers + [seed_table(db, BENCH_GAME, 20) for _ in range(0 if quick else 50)]
            crowd_tables = [seed_table(db, BENCH_GAME, 5) for _ in range(crowd)]
            # The replay's figures: the longest finished game among the registered ones (each
            # played to its end once, the longest kept), and a short one to warm up on.
            long_game = longest_finished(db, 320)
            short_game = seed_finished(db, BENCH_GAME, 1, seed="bench-warm")
        print(f"  seeded in {time.time() - started:.0f} s", flush=True)
        env = {
            "COMPANION_DATABASE": str(database),
            "COMPANION_SECRET_KEY": "bench",
            "COMPANION_PUBLIC_URL": "http://127.0.0.1",
        }
        ours = Served("wsgi:app", env)
        base = Served("scripts.baseline_app:app", {})
        try:
            figure_poll_throughput(
                report, ours, base, by_size[sizes[0]], 1 if quick else 3, 2 if quick else 5
            )
            figure_history_costs(
                report, ours, by_size[sizes[0]], by_size[sizes[-1]], 10 if quick else 40
            )
            figure_round_trip(report, ours, pollers, 8 if quick else 30)
            figure_connections(report, ours, crowd_tables)
            figure_replay(report, 3 if quick else 15)
            figure_replay_step(report, ours, base, long_game, short_game, 5 if quick else 40)
            figure_search(report, 3 if quick else 15)
            figure_memory(report, ours, memory, 6 if quick else 20)
        finally:
            ours.stop()
            base.stop()
    from scripts.benchmark_first_load import figure_first_load

    figure_first_load(report, list(GAMES))
    figure_processes(report, 2 if quick else 5, (1, 2) if quick else (1, 2, 4))
    from scripts.benchmark_move import figure_move_cpu

    figure_move_cpu(report, 10 if quick else 40)
    push_figures(report, args, counts, quick)
    return report.finish()


def push_figures(report, args, counts: tuple[int, ...], quick: bool) -> None:
    from scripts import benchmark_push

    if not args.no_browser:
        benchmark_push.figure_browser_delivery(report, sys.modules[__name__], 5 if quick else 20)
    if not args.no_held:
        held = (5, 8) if quick else (15, 20)  # seconds held idle, seconds moving
        processes = tuple(args.push_processes or [MAKE_RUN_PROCESSES])
        movers = tuple(args.movers or ((20,) if quick else (20, 100)))
        figure_held(report, counts, *held, processes, polling=not args.no_polling, movers=movers)


if __name__ == "__main__":
    sys.exit(main())

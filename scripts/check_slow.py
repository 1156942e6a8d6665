"""A flood of slow connections from one address: a phone at another address is still served.

    python -m scripts.check_slow                    # 30,000 slow connections in 30 s
    python -m scripts.check_slow --quick            # 2,000 against short deadlines, in seconds
    python -m scripts.check_slow --connections 44000 --addresses 2   # the attack: two addresses

The app is served as `make run` serves it (scripts/check_kit.py: gunicorn's gevent workers, one
per core by default), with the limits on slow clients set explicitly (companion/serve.py's
defaults; --quick: short deadlines and a cap of 100 a process, so the run takes seconds;
tests/test_slow_clients.py runs 2,000 connections against its own server in `make test`). A
table of the first installed game has its phones; one of them is at 127.0.0.2, the host at
127.0.0.3.

The flood: `--connections` connections from 127.0.0.10 (and on, with --addresses), opened
evenly over `--seconds`, with no cookie, each held for as long as the server lets it: silent
ones, request heads trickled a header line a second and never finished, form posts that
announce 1,000 bytes and send 10, and bodies trickled 10 bytes a second. Loopback only; every
count and time is bounded (a connection is given up 30 s after the longest deadline).

Meanwhile, once a second, the phone at 127.0.0.2 loads the table page and opens a push stream
on new connections, and the host adds a note, which a stream the phone held since before the
flood must show. Goals: every page and every stream's first message within 2 s, every note on
the held stream within 2 s and the stream never silent for longer than a heartbeat and 1.5 s
(a page then polls); the flood's connections beyond the cap refused at once (reset before
any byte is read: the server never holds more at once than the cap allows), every other ended
by its deadline (408, or closed if it was idle): none held by the server for longer than the
longest deadline and 3 s; no 5xx and no traceback or error in the server's log. What the
server holds, and for how long, is read from the kernel's table of connections (/proc/net/tcp:
the server's own view; the flood's clock runs late when its process is busy). The server's
memory is reported.

Then one phone's cookie opens `--streams` push streams (the attack held 18,000 on one cookie):
the server must keep at most COMPANION_STREAMS_PER_CREDENTIAL (10) of them a process (a newer one
ends the oldest), and the newest must still deliver the host's next note.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import re
import resource
import socket
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from companion.games import GAMES
from companion.serve import ClientLimits, processes_wanted
from scripts.benchmark_push import memory_mb, process_tree
from scripts.check_kit import (
    HX,
    AppServer,
    Client,
    Figures,
    announce,
    check_database,
    check_parser,
    conclude,
    csrf_from,
    open_table,
    start_app,
    version_of,
)

PHONE, HOST = "127.0.0.2", "127.0.0.3"
FLOOD_FIRST = 10  # the flood's addresses: 127.0.0.10 and on
SERVED_WITHIN = 2.0  # seconds: a phone's page, a stream's first message, a note on the stream
# Seconds a connection may outlast the longest deadline in the server's hands: its deadline runs
# from the server's first read, after the worker took it up, and a worker comes late to its
# timers when the machine is saturated (the flood itself takes one of two cores). A bound,
# where the server held such connections for minutes before.
HELD_SLACK = 3.0
# Seconds after the longest deadline at which the flood gives a connection up as never ended
# (the flood's clock runs late when its process is busy: the server's own view, class Held,
# holds the goal on how long a connection is held).
GIVE_UP_AFTER = 30
AT_ONCE = 15_000  # the most connections the flood holds open at once (this process's files)

# The short run's server: deadlines of a second or two and a cap of 100, against 2,000
# connections; a short heartbeat, so that the server stops at once (gunicorn lets its open
# streams go when they next write).
QUICK = ClientLimits(header_timeout=1, body_timeout=1.5, keepalive=1.5, per_address=100)
QUICK_HEARTBEAT = 0.5
FULL = ClientLimits()  # make run's (companion/serve.py)
FULL_HEARTBEAT = 2.5  # make run's (COMPANION_PUSH_HEARTBEAT)

FORM_POST = (
    b"POST /join HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    b"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\ncode=ABCDE"
)
# kind -> (what is sent first, what is sent again every second)
KINDS = {
    "silent": (b"", b""),
    "slow head": (b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n", b"X-Slow: 1\r\n"),
    "stalled body": (FORM_POST, b""),
    "trickled body": (FORM_POST, b"a" * 10),
}


def limits_env(limits: ClientLimits, heartbeat: float) -> dict:
    """The server's environment for these limits."""
    return {
        "COMPANION_HEADER_TIMEOUT": str(limits.header_timeout),
        "COMPANION_BODY_TIMEOUT": str(limits.body_timeout),
        "COMPANION_BODY_MIN_RATE": str(limits.body_min_rate),
        "COMPANION_KEEPALIVE": str(limits.keepalive),
        "COMPANION_CONNECTIONS_PER_ADDRESS": str(limits.per_address),
        "COMPANION_PUSH_HEARTBEAT": str(heartbeat),
    }


def deadline_of(kind: str, limits: ClientLimits) -> float:
    """The longest the server may hold a flood connection of this kind, in seconds."""
    if kind == "silent":
        return limits.keepalive
    if kind == "slow head":
        return limits.header_timeout
    # 10 bytes of 1,000 (or 10 a second): the rate ends it just after the grace, unless the
    # whole body's deadline comes first.
    return min(limits.body_timeout, limits.body_grace + 1)


# --- the flood (a process of its own: its CPU is not the probes') -------------------------------


@dataclass
class Flood:
    outcomes: Counter = field(default_factory=Counter)  # outcome -> connections
    statuses: Counter = field(default_factory=Counter)  # answers other than 408, by status
    longest: dict = field(default_factory=dict)  # kind -> longest held (not refused), seconds
    never_ended: list = field(default_factory=list)  # (kind, seconds) given up on
    refused_after: list = field(default_factory=list)  # seconds from connecting to the reset
    opened: int = 0
    seconds: float = 0.0


async def flood(
    port: int, sources: list[str], total: int, seconds: float, limits: ClientLimits
) -> Flood:
    """Open `total` slow connections evenly over `seconds` and note how each ended. Refused: a
    reset with nothing said (the cap: the server resets before reading; a deadline ends with a
    408, or with a plain close when idle)."""
    loop = asyncio.get_running_loop()
    found = Flood()
    gate = asyncio.Semaphore(AT_ONCE)
    give_up = max(deadline_of(kind, limits) for kind in KINDS) + GIVE_UP_AFTER

    async def trickle(writer, piece: bytes) -> None:
        while True:
            await asyncio.sleep(1)
            writer.write(piece)
            await writer.drain()

    async def one(i: int) -> None:
        kind = list(KINDS)[i % len(KINDS)]
        first, again = KINDS[kind]
        async with gate:
            started = loop.time()
            try:
                reader, writer = await asyncio.wait_for(
                    asyncio.open_connection(
                        "127.0.0.1", port, local_addr=(sources[i % len(sources)], 0)
                    ),
                    10,
                )
            except ConnectionResetError:
                # Reset as soon as it was accepted: the client had not finished connecting.
                found.opened += 1
                found.outcomes["refused at once"] += 1
                found.refused_after.append(loop.time() - started)
                return
            except (OSError, TimeoutError) as error:
                found.outcomes[f"not connected ({type(error).__name__})"] += 1
                return
            found.opened += 1
            feeder = None
            got = b""
            ended, reset = True, False
            try:
                if first:
                    writer.write(first)
                if again:
                    feeder = asyncio.create_task(trickle(writer, again))
                end = started + give_up
                while len(got) < 4096:
                    piece = await asyncio.wait_for(reader.read(4096), max(0.01, end - loop.time()))
                    if not piece:
                        break
                    got += piece
            except TimeoutError:
                ended = False
            except OSError:
                reset = True  # refused (nothing said), or the close after a 408
            finally:
                held = loop.time() - started
                if feeder is not None:
                    feeder.cancel()
                writer.close()
            if ended and reset and not got:
                found.outcomes["refused at once"] += 1
                found.refused_after.append(held)
                return
            if not ended:
                found.outcomes["never ended"] += 1
                found.never_ended.append((kind, held))
                return
            if got.startswith(b"HTTP/1.1 408"):
                found.outcomes["cut with 408"] += 1
            elif got:
                found.outcomes["answered otherwise"] += 1
                found.statuses[got.split(b" ", 2)[1].decode(errors="replace")] += 1
            else:
                found.outcomes["closed (idle)"] += 1
            found.longest[kind] = max(found.longest.get(kind, 0.0), held)

    started = loop.time()
    tasks = []
    for i in range(total):
        wait = started + i * seconds / total - loop.time()
        if wait > 0:
            await asyncio.sleep(wait)
        tasks.append(asyncio.create_task(one(i)))
    await asyncio.gather(*tasks)
    found.seconds = loop.time() - started
    return found


def flood_process(port, sources, total, seconds, limits, answer) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    answer.send(asyncio.run(flood(port, sources, total, seconds, limits)))
    answer.close()


# --- the phone at another address ---------------------------------------------------------------

# a message: its first line (version, presence), then, for a change, the lines of its region
MESSAGE = re.compile(rb"data: (\d+) [^\n]*\n(?:data: [^\n]*\n)*\n")


class HeldStream(threading.Thread):
    """The phone's push stream, held from before the flood to its end: every message's time and
    version."""

    def __init__(self, port: int, phone: Client, code: str):
        super().__init__(daemon=True)
        self.messages: list[tuple[float, int]] = []
        self.stop = threading.Event()
        self.sock = socket.create_connection(
            ("127.0.0.1", port), timeout=1, source_address=(PHONE, 0)
        )
        self.sock.sendall(phone.build("GET", f"/t/{code}/push", headers={"Connection": None}))

    def run(self) -> None:
        buffer = b""
        seen = 0
        while not self.stop.is_set():
            try:
                piece = self.sock.recv(4096)
            except TimeoutError:
                continue
            except OSError:
                break
            if not piece:
                break
            buffer += piece
            now = time.monotonic()
            for match in MESSAGE.finditer(buffer, seen):
                self.messages.append((now, int(match.group(1))))
                seen = match.end()
        self.sock.close()

    def version_at(self, version: int, since: float, within: float) -> float:
        """Seconds from `since` until the stream said `version` (or later), or inf."""
        deadline = time.monotonic() + within
        while time.monotonic() < deadline:
            for at, said in list(self.messages):
                if said >= version and at >= since - 0.001:
                    return at - since
            time.sleep(0.01)
        return float("inf")

    def longest_silence(self, start: float, end: float) -> float:
        times = [start] + [at for at, _ in self.messages if start <= at <= end] + [end]
        return max(b - a for a, b in zip(times, times[1:]))


@dataclass
class Probes:
    pages: list = field(default_factory=list)  # seconds (inf: failed)
    streams: list = field(default_factory=list)
    notes: list = field(default_factory=list)
    failures: list = field(default_factory=list)


def probe(port: int, phone: Client, host: Client, code: str, held: HeldStream, found: Probes):
    """One round: the phone's page and a new stream, then a note the held stream must show."""
    started = time.monotonic()
    try:
        page = phone.get(f"/t/{code}/")
        ok = page.status_code == 200
        found.pages.append(time.monotonic() - started if ok else float("inf"))
        if not ok:
            found.failures.append(f"page {page.status_code}")
    except OSError as error:
        found.pages.append(float("inf"))
        found.failures.append(f"page: {error!r}"[:80])
    started = time.monotonic()
    try:
        first = phone.first_event(f"/t/{code}/push")
        ok = first.status_code == 200 and b"data: " in first.content
        found.streams.append(time.monotonic() - started if ok else float("inf"))
        if not ok:
            found.failures.append(f"stream {first.status_code}")
    except OSError as error:
        found.streams.append(float("inf"))
        found.failures.append(f"stream: {error!r}"[:80])
    try:
        page = host.get(f"/t/{code}/")
        form = {"csrf_token": csrf_from(page.text), "version": version_of(page.text)}
        form["text"] = f"still here {len(found.notes) + 1}"
        sent = time.monotonic()
        answer = host.post(f"/t/{code}/note", form, HX)
        if answer.status_code != 200:
            found.failures.append(f"note {answer.status_code}")
        found.notes.append(held.version_at(form["version"] + 1, sent, 10))
    except (OSError, AssertionError, AttributeError) as error:
        found.notes.append(float("inf"))
        found.failures.append(f"note: {error!r}"[:80])


class Held(threading.Thread):
    """The flood's connections as the server holds them, sampled 4 times a second from the
    kernel's table (/proc/net/tcp): the server's end of each, accepted (it has a file, so an
    inode; one still waiting in the listening socket's queue has none) and not yet closed by
    the server. How many at once (the peak; counted when there at two samples running, so that
    a connection just accepted, which the cap refuses within a millisecond, is not), and for how
    long each (from its first sample to its last: within a quarter of a second). The server's
    own view, where the flood's clock runs late when its process is busy."""

    def __init__(self, port: int, sources: list[str]):
        super().__init__(daemon=True)
        self.port = f"{port:04X}"
        self.peers = {"".join(f"{int(n):02X}" for n in reversed(ip.split("."))) for ip in sources}
        self.peak = 0
        self.first_seen: dict[tuple[str, str], float] = {}
        self.longest = 0.0
        self.stop = threading.Event()

    def sample(self) -> set[tuple[str, str]]:
        found = set()
        with open("/proc/net/tcp") as table:
            next(table)
            for line in table:
                fields = line.split()
                local, remote, state, inode = fields[1], fields[2], fields[3], fields[9]
                # ESTABLISHED or CLOSE_WAIT (the client gave up, the server has not closed)
                if state in ("01", "08") and inode != "0" and local.endswith(":" + self.port):
                    if remote.split(":")[0] in self.peers:
                        found.add((remote, inode))
        return found

    def run(self) -> None:
        before: set[tuple[str, str]] = set()
        while not self.stop.is_set():
            now, at = self.sample(), time.monotonic()
            self.peak = max(self.peak, len(now & before))
            for key in now - before:
                self.first_seen.setdefault(key, at)
            for key in now:
                self.longest = max(self.longest, at - self.first_seen[key])
            for key in before - now:
                self.first_seen.pop(key, None)
            before = now
            self.stop.wait(0.25)


def worker_memory(pid: int) -> list[float]:
    """Each server process's memory (PSS, MB): gunicorn's workers (the master's children)."""
    tree = process_tree(pid)
    workers = [p for p in tree if p != pid and Path(f"/proc/{p}").exists()]
    # scripts.serve_app is gunicorn's master; its children are the workers.
    return [memory_mb([p]) for p in workers] or [memory_mb([pid])]


# --- the run ------------------------------------------------------------------------------------


def stream_cap(server: AppServer, processes: int, streams: int, heartbeat: float) -> tuple:
    """One phone's cookie opens `streams` push streams on a table of its own; after a heartbeat
    and a half, how many the server still holds open (a stream it ended answers end-of-file),
    and whether the newest delivers the host's next note. Returns (held, newest delivered)."""
    from companion.web.push import STREAMS_PER_CREDENTIAL

    table = open_table(server.port, next(iter(GAMES)), display=False)
    phone = table.phones[0]
    assert phone is not None
    path = f"/t/{table.code}/push"
    opened = []
    for _ in range(streams):
        sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
        sock.sendall(phone.build("GET", path))
        sock.settimeout(10)
        first = b""
        while b"\n\n" not in first:
            piece = sock.recv(4096)
            if not piece:
                break
            first += piece
        opened.append(sock)
    time.sleep(heartbeat * 1.5)
    held = 0
    for sock in opened[:-1]:
        sock.settimeout(0.05)
        try:
            while True:  # what the server sent since; end-of-file once it ended the stream
                piece = sock.recv(65536)
                if not piece:
                    break
        except (TimeoutError, BlockingIOError):
            held += 1  # still open: heartbeats only
        except OSError:
            pass
    newest = opened[-1]
    page = table.host.get(f"/t/{table.code}/")
    table.host.post(
        f"/t/{table.code}/note",
        data={"csrf_token": csrf_from(page.text), "text": "cap"},
        headers=HX,
    )
    newest.settimeout(heartbeat + 1.5)
    delivered = False
    try:
        delivered = bool(newest.recv(65536))
    except OSError:
        pass
    for sock in opened:
        sock.close()
    return held + (1 if delivered else 0), delivered, STREAMS_PER_CREDENTIAL * processes


def run(
    connections: int = 30_000,
    addresses: int = 1,
    seconds: float = 30.0,
    processes: int | None = None,
    quick: bool = False,
    backend: str = "sqlite",
    streams: int | None = None,
) -> tuple[Figures, float]:
    """The check on a server of its own (make run's engine, `processes` workers: as make run by
    default), with make run's limits, or the short run's (quick)."""
    limits, heartbeat = (QUICK, QUICK_HEARTBEAT) if quick else (FULL, FULL_HEARTBEAT)
    processes = processes or processes_wanted({}, push=True)
    started = time.time()
    with tempfile.TemporaryDirectory() as folder, check_database(backend, folder, "slow") as url:
        server = start_app(url, processes=processes, env=limits_env(limits, heartbeat))
        try:
            figures = flood_check(
                server, processes, limits, heartbeat, connections, addresses, seconds
            )
            opened = streams or (40 if quick else 400)
            held, delivered, most = stream_cap(server, processes, opened, heartbeat)
            figures.add(
                f"streams one cookie holds after opening {opened}",
                held,
                f"<= {most} (10 a process)",
                held <= most,
            )
            figures.add("its newest stream delivers the next move", delivered, "True", delivered)
        finally:
            server.stop()
    return figures, time.time() - started


def flood_check(
    server: AppServer,
    processes: int,
    limits: ClientLimits,
    heartbeat: float,
    connections: int,
    addresses: int,
    seconds: float,
) -> Figures:
    """Flood a running server (started with these limits and heartbeat: limits_env()) from
    `addresses` addresses while a phone at another is served; the figures against the goals."""
    silent_at_most = heartbeat + 1.5  # what a page waits for a message before it polls
    sources = [f"127.0.0.{FLOOD_FIRST + n}" for n in range(addresses)]
    figures = Figures("slow clients")
    game = next(iter(GAMES))
    table = open_table(server.port, game, display=False)
    phone = table.phones[0]
    assert phone is not None
    phone.source, phone.timeout = PHONE, 10
    host = table.host
    host.source, host.timeout = HOST, 10
    held = HeldStream(server.port, phone, table.code)
    # Forked before this function starts a thread (the held stream's reader).
    receive, send = multiprocessing.get_context("fork").Pipe(duplex=False)
    flooding = multiprocessing.get_context("fork").Process(
        target=flood_process,
        args=(server.port, sources, connections, seconds, limits, send),
        daemon=True,
    )
    memory_before = worker_memory(server.process.pid)
    flooding.start()
    send.close()
    held.start()
    holding = Held(server.port, sources)
    holding.start()
    flood_started = time.monotonic()
    found = Probes()
    memory_peak = list(memory_before)
    while flooding.is_alive() and not receive.poll():
        probe(server.port, phone, host, table.code, held, found)
        now = worker_memory(server.process.pid)
        memory_peak = [max(a, b) for a, b in zip(memory_peak, now)] + now[len(memory_peak) :]
        time.sleep(max(0.0, 1.0 - (time.monotonic() - flood_started) % 1.0))
    flooded: Flood = receive.recv()
    flooding.join(10)
    silence = held.longest_silence(flood_started, time.monotonic())
    held.stop.set()
    held.join(5)
    holding.stop.set()
    holding.join(5)
    held_peak, held_longest = holding.peak, holding.longest
    log_errors = server.tracebacks() + [
        line for line in server.stderr().splitlines() if "[ERROR]" in line or "[CRITICAL]" in line
    ]

    cap, held_at_most = limits.per_address, limits.per_address * processes
    figures.add(
        f"flood from {len(sources)} address(es), no cookie",
        f"{flooded.opened:,} connections opened over {seconds:.0f} s, the last ended after"
        f" {flooded.seconds:.0f} s {detail(flooded.outcomes)}",
    )
    figures.add(
        "flood connections the server held at once (peak, sampled 4 times a second)",
        held_peak,
        f"<= {held_at_most * len(sources):,} (the cap, {cap:,}, x {processes} processes"
        f" x {len(sources)} address(es))",
        held_peak <= held_at_most * len(sources),
    )
    refused = flooded.outcomes["refused at once"]
    after = sorted(flooded.refused_after)
    slowest = f"; reset within {after[int(0.99 * (len(after) - 1))]:.2f} s p99" if after else ""
    figures.add(
        "refused at once (reset before any byte was read)",
        f"{refused:,}{slowest}",
        "> 0: the cap was met",
        refused > 0,
    )
    longest_deadline = max(deadline_of(kind, limits) for kind in KINDS)
    figures.add(
        "longest a flood connection was held by the server (sampled)",
        f"{held_longest:.1f} s",
        f"<= {longest_deadline + HELD_SLACK:g} s (the longest deadline, {longest_deadline:g} s,"
        f" + {HELD_SLACK:g} s)",
        held_longest <= longest_deadline + HELD_SLACK,
    )
    figures.add(
        f"never ended (given up {GIVE_UP_AFTER} s after the longest deadline)",
        len(flooded.never_ended),
        "0",
        not flooded.never_ended,
    )
    figures.add(
        "longest held, by kind, as the flood saw it (from its connect; its clock runs late when"
        " it is busy)",
        ", ".join(
            f"{kind} {flooded.longest.get(kind, 0):.1f} s (deadline {deadline_of(kind, limits):g})"
            for kind in KINDS
        ),
    )
    fives = sum(n for status, n in flooded.statuses.items() if status.startswith("5"))
    others = f" (other answers: {dict(flooded.statuses)})" if flooded.statuses else ""
    figures.add("5xx answers to the flood", f"{fives}{others}", "0", fives == 0)
    worst = max(found.pages, default=float("inf"))
    figures.add(
        f"phone at {PHONE}: table page, slowest of {len(found.pages)}",
        f"{worst:.2f} s",
        f"<= {SERVED_WITHIN:.0f} s",
        worst <= SERVED_WITHIN,
    )
    worst = max(found.streams, default=float("inf"))
    figures.add(
        f"phone at {PHONE}: a new stream's first message, slowest of {len(found.streams)}",
        f"{worst:.2f} s",
        f"<= {SERVED_WITHIN:.0f} s",
        worst <= SERVED_WITHIN,
    )
    worst = max(found.notes, default=float("inf"))
    figures.add(
        f"host's note on the phone's held stream, slowest of {len(found.notes)}",
        f"{worst:.2f} s",
        f"<= {SERVED_WITHIN:.0f} s",
        worst <= SERVED_WITHIN,
    )
    figures.add(
        "held stream's longest silence",
        f"{silence:.2f} s",
        f"<= {silent_at_most:.1f} s (a heartbeat and 1.5 s)",
        silence <= silent_at_most,
    )
    failures = f"{len(found.failures)} {found.failures[:3]}" if found.failures else "0"
    figures.add("probe failures", failures, "0", not found.failures)
    figures.add("tracebacks and errors in the server's log", len(log_errors), "0", not log_errors)
    figures.add(
        "server processes' memory (PSS) before the flood, at its peak",
        " / ".join(f"{a:.0f} -> {b:.0f} MB" for a, b in zip(memory_before, memory_peak)),
    )
    return figures


def detail(counts: Counter) -> str:
    return "(" + ", ".join(f"{n:,} {name}" for name, n in counts.most_common()) + ")"


def main(argv: list[str] | None = None) -> int:
    parser = check_parser(__doc__)
    parser.set_defaults(processes=processes_wanted({}, push=True))  # as `make run`
    parser.add_argument(
        "--connections", type=int, default=None, help="slow connections (30,000; quick 2,000)"
    )
    parser.add_argument(
        "--addresses", type=int, default=1, help="flood addresses, 127.0.0.10 and on (1)"
    )
    parser.add_argument(
        "--seconds", type=float, default=None, help="opened evenly over (30 s; quick 1.5 s)"
    )
    parser.add_argument(
        "--streams", type=int, default=None, help="streams one cookie opens (400; quick 40)"
    )
    args = parser.parse_args(argv)
    connections = args.connections or (2000 if args.quick else 30_000)
    seconds = args.seconds or (1.5 if args.quick else 30.0)
    announce(
        "Slow clients",
        args,
        f"{connections:,} slow connections from {args.addresses} address(es) in {seconds:.0f} s",
    )
    figures, elapsed = run(
        connections,
        args.addresses,
        seconds,
        args.processes,
        args.quick,
        args.backend,
        args.streams,
    )
    return conclude(figures, elapsed)


if __name__ == "__main__":
    sys.exit(main())

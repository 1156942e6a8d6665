"""Push: a table's open pages hear of every change at once, over one Server-Sent Events stream
each; the 2 s poll stays as the fallback.

    GET /t/<code>/push                 a member's stream (the host's device or a seat's phone)
    GET /t/<code>/display/push?key=K   the table display's stream

Each message says the table's version and which seats have a phone online ("1101"; "-" for the
display): `data: <version> <presence>`. A change's message also carries, on the next `data:`
lines, the stream's own live region: the request its page would make (/live?v=...), answered in
this process for that stream (stream_region.py), so each phone still gets its own view (private
chips, sealed bids), by the same code as its fetch, without a request of its own; not to the
page whose tap made the change (its answer brings it: stream_region.OwnEntries). A region that
cannot be sent is left out (the page then fetches it), or replaced by "renew" when it would set
a cookie (the page fetches, then opens its stream again). The first message is sent at once,
then one on every change and a heartbeat every PUSH_HEARTBEAT seconds; a page that does not hear
them in time (a proxy that buffers, a connection gone quiet) polls instead.

A stream is answered here, before Flask, like an unchanged poll (fastpath.py): one indexed query
decides whether the device may open the table's live region, exactly as /live does; anything
else goes on to Flask (table.push, display.push), which answers as /live does for a stranger.
A stream holds no database connection and no thread while it waits: it needs a server where
every connection is a greenlet (gevent: companion/serve.py). Under waitress, which would give
each stream one of its few threads, pages are not offered the stream and poll.

Fan-out. Within a process, each table with open streams has a Channel; a change wakes the
channel's streams. A change made in this process reaches it when the write commits
(Store.announce). Other processes: PostgreSQL's NOTIFY, sent in the write's transaction and
heard by one LISTENing connection per process; on SQLite one cheap check per process (not per
phone) a few times a second: PRAGMA data_version says whether anyone committed, and only then
one query reads the versions of the tables this process watches.

Presence. A page closes its stream when it is hidden, so an open stream means "at the table":
every few seconds each process writes, in one transaction, "seen now" for the seats (and hosts)
whose streams it holds, and reads which seats of its tables are online; a change of that is
pushed, and the pages fetch their seats list (instead of asking every ten seconds).
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import threading
import time
from collections import Counter
from collections.abc import Callable, Generator, Iterable, Iterator
from typing import Any

from werkzeug.http import parse_cookie

from companion import tables
from companion.store import NOTIFY_CHANNEL, Store
from companion.tables import hash_token
from companion.web.credentials import display_cookie, member
from companion.web.stream_region import RENEW, DisplayRegions, OwnEntries, link_key, region_of

HEARTBEAT = float(os.environ.get("COMPANION_PUSH_HEARTBEAT", "2.5"))  # seconds between messages
CHECK_EVERY = 0.1  # seconds: SQLite, how often a process asks whether anything was committed
PRESENCE_EVERY = min(tables.SEEN_EVERY, tables.ONLINE_WITHIN / 3)  # seconds between sweeps
CHUNK = 500  # codes per query (well under SQLite's limit on variables)
# Streams one credential (a seat's, the host's or a display link's token) may hold open in one
# process: a page holds one, a few tabs or a reconnect a few more; thousands from one cookie
# were an attack that slowed every move (each stream is woken and written to).
STREAMS_PER_CREDENTIAL = int(os.environ.get("COMPANION_STREAMS_PER_CREDENTIAL", "10"))
# Streams of a process rendering their regions at once; the others wait their turn off the run
# queue, so that a request (a new phone, a tap) waits behind a few renders, not every stream's.
RENDERS_AT_ONCE = 4

STREAM_PATH = re.compile(r"/t/([A-Za-z0-9]{1,20})/(display/)?push")
DISPLAY = (
    "SELECT t.version FROM tables t JOIN displays d ON d.table_id = t.id"
    " WHERE t.code = ? AND d.token_hash = ?"
)
STREAM_HEADERS = [
    ("Content-Type", "text/event-stream; charset=utf-8"),
    # Private to this device, never stored; no proxy may hold it back (nginx reads this one).
    ("Cache-Control", "no-store"),
    ("X-Accel-Buffering", "no"),
]
log = logging.getLogger(__name__)


def served() -> bool:
    """Whether this process can hold streams: it runs under gevent (every connection is a
    greenlet), and COMPANION_PUSH is not "0"."""
    if os.environ.get("COMPANION_PUSH", "1") == "0":
        return False
    try:
        from gevent import monkey
    except ImportError:
        return False
    return monkey.is_module_patched("socket")


def message(version: int, presence: str, region: bytes | None = None) -> bytes:
    """One Server-Sent Event: the table's version and which seats are online, and, when given,
    the stream's own live region at that version (one `data:` line per line of it). RENEW as
    the region: the page is to fetch it and then open its stream again (`... renew`)."""
    if region is RENEW:
        return f"data: {version} {presence or '-'} renew\n\n".encode()
    head = f"data: {version} {presence or '-'}\n".encode()
    if not region:
        return head + b"\n"
    # Lines of only spaces are left out (Jinja leaves many; the region has no <pre>/<textarea>).
    lines = [line for line in region.replace(b"\r", b"").split(b"\n") if line.strip()]
    return head + b"".join(b"data: " + line + b"\n" for line in lines) + b"\n"


class Channel:
    """The open streams of one table in this process: the newest version heard of, the seats
    online, and the event their streams wait on (replaced by a fresh one at every wake)."""

    __slots__ = ("version", "presence", "beats", "wake", "streams")

    def __init__(self) -> None:
        self.version = -1
        self.presence = ""
        self.beats = 0  # heartbeats rung: each is one message with nothing new
        self.wake = threading.Event()
        self.streams = 0

    def ring(self) -> None:
        wake, self.wake = self.wake, threading.Event()
        wake.set()


class Hub:
    """This process's channels, the members its streams hold (for presence) and the background
    jobs that hear of changes made elsewhere. One per app; its jobs start with the first stream."""

    def __init__(self, database: str, *, heartbeat: float = HEARTBEAT):
        self.database = database
        self.heartbeat = heartbeat
        self.channels: dict[str, Channel] = {}
        # (table id, seat or None for the host, token hash) -> open streams
        self.members: Counter = Counter()
        self.lock = threading.Lock()
        self.started = False
        self.stopping = threading.Event()
        self.rendering = threading.BoundedSemaphore(RENDERS_AT_ONCE)

    # --- what streams and writers call -----------------------------------------------------

    def join(self, code: str) -> Channel:
        with self.lock:
            channel = self.channels.get(code)
            if channel is None:
                channel = self.channels[code] = Channel()
            channel.streams += 1
        if not self.started:
            self.start()
        return channel

    def leave(self, code: str, members: Iterable[tuple] = ()) -> None:
        with self.lock:
            channel = self.channels.get(code)
            if channel is not None:
                channel.streams -= 1
                if channel.streams <= 0:
                    del self.channels[code]
            for member in members:
                self.members[member] -= 1
                if self.members[member] <= 0:
                    del self.members[member]

    def enter(self, members: Iterable[tuple]) -> None:
        with self.lock:
            for member in members:
                self.members[member] += 1

    def changed(self, code: str, version: int) -> None:
        """A table moved to `version` (heard from a commit here, a NOTIFY or a check)."""
        channel = self.channels.get(code)
        if channel is not None and version > channel.version:
            channel.version = version
            # The woken streams render their regions when this request next waits (writing its
            # answer): the one who moved gets their answer first, not after every other phone's
            # render (it was a plain message once, and they went first).
            channel.ring()

    def stream(
        self,
        channel: Channel,
        version: int,
        presence: bool,
        allowed: Callable[[], bool] | None = None,
        ticket: Ticket | None = None,
        region: Callable[[int, int], bytes | None] | None = None,
    ) -> Generator[bytes, None, None]:
        """A stream's messages: one at once, one per change, a heartbeat when nothing moves.
        The caller joined the channel before reading `version` (nothing is missed between).
        allowed() is asked again at every new version: a credential taken away (a freed seat,
        a hand-over, a display dropped: each moves the table's version) ends the stream, in
        whichever process holds it, within a heartbeat of the change reaching it; so does a
        ticket ended (a newer stream of the same credential took its place). region(shown,
        version) renders the page's live region at `version` for a page at `shown` (None: the
        page fetches it), which a new version's message carries: no request of its own."""
        wake = channel.wake
        channel.version = max(channel.version, version)
        sent = (channel.version, channel.presence, channel.beats)
        yield message(sent[0], channel.presence if presence else "")
        while True:
            # Rung by a change, a change of presence or the beat (no timer per stream: the
            # beat job rings every channel once a heartbeat).
            wake.wait()
            wake = channel.wake
            if ticket is not None and ticket.ended:
                return
            render = region if channel.version != sent[0] else None
            # a region waits its turn (RENDERS_AT_ONCE); a change made meanwhile is in it too
            with self.rendering if render is not None else contextlib.nullcontext():
                now = (channel.version, channel.presence, channel.beats)
                if now == sent:
                    continue  # woken for what this stream already said
                if now[0] != sent[0] and allowed is not None and not allowed():
                    return
                html = render(sent[0], now[0]) if render is not None else None
            sent = now
            yield message(now[0], now[1] if presence else "", html)

    # --- background jobs ---------------------------------------------------------------------

    def start(self) -> None:
        """Start this process's jobs (in the process that serves: after gunicorn's fork)."""
        with self.lock:
            if self.started:
                return
            self.started = True
        from companion.store import is_postgres_url

        if is_postgres_url(self.database):
            threading.Thread(target=self._listen, name="push-listen", daemon=True).start()
        threading.Thread(target=self._watch, name="push-watch", daemon=True).start()
        threading.Thread(target=self._beat, name="push-beat", daemon=True).start()

    def stop(self) -> None:
        """End the background jobs (tests; a server ends with its process)."""
        self.stopping.set()

    def _beat(self) -> None:
        """The heartbeat: every channel rung once a heartbeat, a tenth of them at a time (by
        their code), so that the process writes its heartbeats evenly, not in bursts."""
        slices = 10
        turn = 0
        while not self.stopping.wait(self.heartbeat / slices):
            turn = (turn + 1) % slices
            try:
                for code, channel in list(self.channels.items()):
                    if hash(code) % slices == turn:
                        channel.beats += 1
                        channel.ring()
            except Exception:  # never let the heartbeat stop: the pages would poll
                log.exception("push: the beat failed once")

    def _codes(self) -> list[str]:
        return list(self.channels)

    def _watch(self) -> None:
        """SQLite: a few times a second, whether anyone committed, and then the versions of the
        tables watched here. Both stores: presence every PRESENCE_EVERY seconds, and with it the
        versions again (a change heard by no other way is found there)."""
        from companion import db as database

        store: Store | None = None
        data_version = None
        last_sweep = 0.0
        while not self.stopping.wait(CHECK_EVERY):
            try:
                if store is None:
                    store = database.connect(self.database)
                if store.backend == "sqlite":
                    seen = store.execute("PRAGMA data_version").fetchone()[0]
                    if seen != data_version:
                        data_version = seen
                        self.check_versions(store)
                if time.monotonic() - last_sweep >= PRESENCE_EVERY:
                    last_sweep = time.monotonic()
                    self.sweep(store)
                    self.check_versions(store)
            except Exception:  # the database went away for a moment: open it again
                log.exception("push: the watch failed; starting again")
                _close(store)
                store = None
                self.stopping.wait(1)
        _close(store)

    def check_versions(self, store) -> None:
        codes = self._codes()
        for start in range(0, len(codes), CHUNK):
            part = codes[start : start + CHUNK]
            marks = ",".join("?" * len(part))
            rows = store.execute(
                f"SELECT code, version FROM tables WHERE code IN ({marks})", part
            ).fetchall()
            for code, version in rows:
                self.changed(code, version)

    def sweep(self, store) -> None:
        """Presence: "seen now" for every member whose stream this process holds (only while
        the token still holds that seat or the host's role), then the seats online at every
        table watched here; a table whose seats online changed is woken."""
        now = time.time()
        with self.lock:
            members = list(self.members)
        seats = [(now, t, s, h) for t, s, h in members if s is not None]
        hosts = [(now, t, h) for t, s, h in members if s is None]
        if seats or hosts:
            with store.transaction():
                _many(
                    store,
                    "UPDATE seats SET seen = ? WHERE table_id = ? AND seat = ? AND token_hash = ?",
                    seats,
                )
                _many(
                    store, "UPDATE tables SET host_seen = ? WHERE id = ? AND host_hash = ?", hosts
                )
        codes = self._codes()
        online: dict[str, list[str]] = {}
        for start in range(0, len(codes), CHUNK):
            part = codes[start : start + CHUNK]
            marks = ",".join("?" * len(part))
            rows = store.execute(
                "SELECT t.code, s.seat, s.token_hash IS NOT NULL, s.seen FROM tables t"
                f" JOIN seats s ON s.table_id = t.id WHERE t.code IN ({marks})"
                " ORDER BY t.code, s.seat",
                part,
            ).fetchall()
            for code, _, taken, seen in rows:
                online.setdefault(code, []).append(_mark(taken, seen, now))
        for code, marks_ in online.items():
            self.present(code, "".join(marks_))

    def present(self, code: str, presence: str) -> None:
        """The seats online at a table, one mark a seat ("1": its phone seen lately); a change
        wakes the table's streams (each fetches the seats list)."""
        channel = self.channels.get(code)
        if channel is not None and channel.presence != presence:
            channel.presence = presence
            channel.ring()

    def _listen(self) -> None:
        """PostgreSQL: one connection LISTENs for every change, made by any process."""
        import psycopg

        while not self.stopping.is_set():
            conn = None
            try:
                conn = psycopg.connect(self.database, autocommit=True)
                conn.execute(f"LISTEN {NOTIFY_CHANNEL}")
                # Whatever changed while nobody listened (a start, a reconnection).
                from companion.store import PostgresStore

                self.check_versions(PostgresStore(conn))
                while not self.stopping.is_set():
                    for note in conn.notifies(timeout=1.0):
                        code, _, version = note.payload.partition(" ")
                        if version.isdigit():
                            self.changed(code, int(version))
            except Exception:
                log.exception("push: LISTEN failed; connecting again")
            finally:
                if conn is not None:
                    conn.close()
            self.stopping.wait(1)


def _close(store: Store | None) -> None:
    with contextlib.suppress(Exception):
        if store is not None:
            store.close()


def _many(store, sql: str, rows: list[tuple]) -> None:
    if not rows:
        return
    if store.backend == "sqlite":
        store.conn.executemany(sql, rows)
    else:
        with store.conn.cursor() as cursor:
            cursor.executemany(store._sql(sql), rows)


def _mark(taken: Any, seen: float | None, now: float) -> str:
    """A seat's presence mark: "1" while its phone was seen lately, else "0"."""
    row = tables.SeatRow(seat=0, name="", taken=bool(taken), seen=seen)
    return "1" if row.online(now) else "0"


def presence_of(db: Store, table_id: int) -> str:
    """The presence marks of one table's seats, in seat order (as Hub.sweep makes them)."""
    now = time.time()
    rows = db.execute(
        "SELECT token_hash IS NOT NULL, seen FROM seats WHERE table_id = ? ORDER BY seat",
        [table_id],
    ).fetchall()
    return "".join(_mark(taken, seen, now) for taken, seen in rows)


class PushStreams:
    """WSGI middleware: answers a member's (or the display's) stream request; anything else,
    and any stream request it cannot answer, goes on to the app."""

    def __init__(self, wsgi_app: Callable, connections, hub: Hub, headers: Callable):
        self.wsgi_app = wsgi_app
        self.connections = connections
        self.hub = hub
        self.headers = headers
        self.limit = STREAMS_PER_CREDENTIAL
        # credential (token hash) -> its streams held in this process, oldest first
        self.open: dict[str, list[Ticket]] = {}
        self.displays = DisplayRegions()  # display links' regions, shared among the links

    def __call__(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        if environ.get("REQUEST_METHOD") == "GET":
            match = STREAM_PATH.fullmatch(environ.get("PATH_INFO", ""))
            if match is not None:
                code = match.group(1).upper()
                if match.group(2):
                    # the display link's key, or the table display's own cookie (the device that
                    # stayed at the table after handing the host role over)
                    token = link_key(environ) or parse_cookie(environ).get(display_cookie(code))
                    answer = self._display(code, token)
                else:
                    answer = self._member(environ, code)
                if isinstance(answer, Held):
                    live = f"/t/{code}/display/live" if match.group(2) else f"/t/{code}/live"
                    shared = self.displays if match.group(2) else None
                    answer.region = region_of(self.wsgi_app, environ, live, shared)
                    start_response("200 OK", [*STREAM_HEADERS, *self.headers()])
                    return answer
        return self.wsgi_app(environ, start_response)

    def _member(self, environ: dict, code: str) -> Held | None:
        cookies = parse_cookie(environ)
        channel = self.hub.join(code)  # before reading the version: no change is missed
        read = lambda db: member(db, cookies, code)  # asked again by allowed()

        def read_at_open(db: Store):
            # The member and, with the same connection, the seats online now (see below).
            found = read(db)
            return found, (presence_of(db, found.table_id) if found is not None else "")

        found, presence = self._query(code, read_at_open)
        if found is None:
            self.hub.leave(code)
            return None
        # The host's device that also holds a seat is present as both.
        members = []
        if found.host:
            members.append((found.table_id, None, found.host_hash))
        if found.seat is not None:
            members.append((found.table_id, found.seat, found.seat_hash))
        credentials = [held[2] for held in members]
        # The seats online now, before this stream's first message: a phone that just took its
        # seat (seen at its join) is in it, so its page, which shows it online already, is not
        # told of its own arrival at the next sweep and does not fetch the seats list again
        # (0.9 KB of a phone's first load). The others are woken by the change, as by a sweep.
        self.hub.present(code, presence)

        own = OwnEntries.of(found.seat, found.host, environ.get("QUERY_STRING", ""))

        def read_again(db: Store):  # the member, and whose entry the table's newest is
            own.read(db, found.table_id)
            return read(db)

        def allowed() -> bool:  # the same role, still: the seat not freed, the host not handed on
            again = self._check(read_again)
            return again is None or (
                again is not False and (again.host, again.seat) == (found.host, found.seat)
            )

        held = self._held(code, channel, found.version, members, credentials, allowed, True)
        held.own = own.made
        return held

    def _display(self, code: str, key: str | None) -> Held | None:
        if key is None:
            return None
        if len(key) > 64:
            return None
        channel = self.hub.join(code)
        credential = hash_token(key)
        read = lambda db: db.execute(DISPLAY, [code, credential]).fetchone()
        row = self._query(code, read)
        if row is None:
            self.hub.leave(code)
            return None

        def allowed() -> bool:  # the link not dropped
            return self._check(read) is not False

        return self._held(code, channel, row[0], [], [credential], allowed, presence=False)

    def _held(self, code, channel, version, members, credentials, allowed, presence) -> Held:
        """The stream, counted against its credentials: one that already holds `limit` streams
        here has its oldest ended (a page reloaded, a phone that changed networks: the old
        connection may linger unseen until a write to it fails), so a credential never holds
        more than `limit`, and the newest page, the one in front of a person, always streams."""
        ticket = Ticket(channel)
        with self.hub.lock:
            for credential in credentials:
                held = self.open.setdefault(credential, [])
                while len(held) >= self.limit:
                    held.pop(0).end()
                held.append(ticket)
        self.hub.enter(members)

        def done() -> None:
            self.hub.leave(code, members)
            with self.hub.lock:
                for credential in credentials:
                    held = self.open.get(credential, [])
                    if ticket in held:
                        held.remove(ticket)
                    if not held:
                        self.open.pop(credential, None)

        stream = Held(done)
        stream.messages = self.hub.stream(
            channel, version, presence, allowed, ticket, stream.render
        )
        return stream

    def _check(self, read: Callable[[Store], Any]):
        """A stream's credential asked again (read: its row): the row, False when it no longer
        holds, None when the database could not say (the stream goes on; it is asked again at
        the next change)."""
        try:
            db = self.connections.get()
        except Exception:
            log.exception("push: the credential check could not reach the database")
            return None
        try:
            row = read(db)
        except Exception:
            log.exception("push: the credential check failed")
            return None
        finally:
            self.connections.release()
        return False if row is None else row

    def _query(self, code: str, read: Callable[[Store], Any]):
        """What read(db) finds, for a stream that joined code's channel (left again if this
        fails)."""
        db = self.connections.get()
        try:
            return read(db)
        except BaseException:
            self.hub.leave(code)
            raise
        finally:
            self.connections.release()


class Ticket:
    """One stream's place among its credentials' streams: ended when a newer stream of the same
    credential takes it (PushStreams._held)."""

    __slots__ = ("channel", "ended")

    def __init__(self, channel: Channel) -> None:
        self.channel = channel
        self.ended = False

    def end(self) -> None:
        self.ended = True
        self.channel.ring()  # the stream wakes and ends now, not at the next change


class Held:
    """A stream as the WSGI server sees it: its messages, and close() (called by the server when
    the client went away or the server stops, whether or not a message was sent) leaves the
    channel once. region: what renders its page's live region (PushStreams.region_of); own:
    whether a version is its own page's entry (no region: the tap's answer brought it)."""

    def __init__(self, done: Callable[[], None]):
        self.messages: Generator[bytes, None, None] | None = None
        self.done: Callable[[], None] | None = done
        self.region: Callable[[int, int], bytes | None] | None = None
        self.own: Callable[[int], bool] | None = None  # a version its own page entered

    def render(self, shown: int, version: int) -> bytes | None:
        if self.region is None or (self.own is not None and self.own(version)):
            return None
        return self.region(shown, version)

    def __iter__(self) -> Iterator[bytes]:
        assert self.messages is not None
        return self.messages

    def close(self) -> None:
        try:
            if self.messages is not None:
                self.messages.close()
        except ValueError:  # waiting in another thread (a test's reader): it ends on its own
            pass
        done, self.done = self.done, None
        if done is not None:
            done()

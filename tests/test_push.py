"""The push stream at the WSGI level (companion/web/push.py), on both stores: the first message
comes at once, a change wakes it (made in this process, or by another connection: another
process), a heartbeat comes when nothing moves, presence is written and pushed, and a device
that may not open the table's live region gets nothing but what /live gives it."""

from __future__ import annotations

import queue
import re
import threading
import time

import pytest

from companion import create_app, get_db, tables
from companion import db as database
from tests.helpers import HX, TableDriver, csrf_from

HEARTBEAT = 0.4
ENDED = "the stream ended"


@pytest.fixture
def push_app(store_url):
    app = create_app(
        {
            "TESTING": True,
            "DATABASE": store_url,
            "SECRET_KEY": "test-secret",
            "PUSH": True,
            "PUSH_HEARTBEAT": HEARTBEAT,
            "EXTRA_GAMES": ["tests.fixture_game"],  # the tests' own game, Pebbles
        }
    )
    yield app
    app.extensions["companion.push"].stop()
    app.extensions["companion.db"].close()


class Stream:
    """A stream read in a thread of its own: messages() waits for the next ones."""

    def __init__(self, client, path: str):
        self.response = client.get(path, buffered=False)
        self.messages: queue.Queue = queue.Queue()
        self.closed = False
        self.reader = threading.Thread(target=self._read, daemon=True)
        if self.response.status_code == 200:
            self.reader.start()

    def _read(self):
        try:
            for chunk in self.response.response:
                if self.closed:
                    break
                self.messages.put((time.monotonic(), chunk.decode()))
            self.messages.put((time.monotonic(), ENDED))
        except Exception as error:  # closed under it
            self.messages.put((time.monotonic(), repr(error)))

    def next(self, timeout: float = 5) -> tuple[float, str]:
        return self.messages.get(timeout=timeout)

    def next_version(self, above: int, timeout: float = 5) -> tuple[float, int]:
        """The next message with a version above `above` (presence may change meanwhile)."""
        deadline = time.monotonic() + timeout
        while True:
            at, text = self.next(max(0.01, deadline - time.monotonic()))
            version = parse(text)[0]
            if version > above:
                return at, version

    def next_presence(self, wanted: str, timeout: float = 5) -> str:
        """The presence of the next messages until it is `wanted` (a message rung before the
        change may still be on its way, on a busy machine), or the last one seen."""
        deadline = time.monotonic() + timeout
        presence = ""
        while presence != wanted and time.monotonic() < deadline:
            try:
                presence = parse(self.next(max(0.01, deadline - time.monotonic()))[1])[1]
            except queue.Empty:
                break
        return presence

    def close(self):
        self.closed = True
        self.response.close()


def parse(message: str) -> tuple[int, str]:
    """A message's version and presence (its first line)."""
    assert message.startswith("data: ") and message.endswith("\n\n"), message
    version, presence = message[6:-2].split("\n", 1)[0].split(" ")[:2]
    return int(version), presence


def region_in(message: str) -> str:
    """The live region a message carries ("" for none), its lines joined as EventSource joins
    them."""
    lines = message[:-2].split("\n")[1:]
    assert all(line.startswith("data: ") for line in lines), message
    return "\n".join(line[6:] for line in lines)


def test_a_members_stream_says_the_version_at_once_and_wakes_on_a_change(push_app):
    table = TableDriver(push_app, "pebbles", ("Anna", "Ben", "Chris"))
    push_app.extensions["companion.push"].heartbeat = 30  # only changes send a message
    started = time.monotonic()
    stream = Stream(table.phones[1], f"/t/{table.code}/push")
    try:
        assert stream.response.status_code == 200
        assert stream.response.headers["Content-Type"].startswith("text/event-stream")
        assert stream.response.headers["Cache-Control"] == "no-store"
        assert "Content-Encoding" not in stream.response.headers  # never compressed
        assert "Content-Security-Policy" in stream.response.headers
        at, first = stream.next()
        assert at - started < 1
        assert parse(first)[0] == table.version()
        # Anna adds a note (a change in this process): Ben's stream wakes at once.
        page = table.page(0)
        sent = time.monotonic()
        answer = table.phones[0].post(
            f"/t/{table.code}/note",
            data={"csrf_token": csrf_from(page), "text": "hello"},
            headers=HX,
        )
        assert answer.status_code == 200
        at, version = stream.next_version(parse(first)[0])
        assert version == table.version()
        assert at - sent < 0.5
    finally:
        stream.close()


def next_region(stream: Stream, above: int, timeout: float = 5) -> str:
    """The region carried by the next message with a version above `above`."""
    deadline = time.monotonic() + timeout
    while True:
        _, text = stream.next(max(0.01, deadline - time.monotonic()))
        if parse(text)[0] > above:
            return region_in(text)


def tokens_out(html: str) -> str:
    """A region with its CSRF tokens blanked (each request signs its own)."""
    return re.sub(r'name="csrf_token"( type="hidden")? value="[^"]+"', "csrf", html)


def test_a_changes_message_carries_each_streams_own_region_as_its_fetch_gives_it(push_app):
    """The region a stream sends is the one its page would fetch: a phone's own seat, the host
    acting for the seat it chose (the stream's ?as=), the display's by its key; lines of
    spaces left out. Its page then makes no request of its own."""
    table = TableDriver(push_app, "pebbles", ("Anna", "Ben", "Chris"))
    push_app.extensions["companion.push"].heartbeat = 30  # only changes send a message
    with push_app.app_context():
        key = tables.new_display_token(get_db(), tables.get_table(get_db(), table.code))
    display, first = push_app.test_client(), push_app.test_client()
    assert display.get(f"/t/{table.code}/display/live?key={key}&v=0").status_code == 200
    table.page("host", "?as=2")  # the host's first look at Chris's seat is in the history
    before = table.version()
    viewers = {
        "Ben": (table.phones[1], "/push", "/live?v={v}"),
        "host as Chris": (table.host, "/push?as=2", "/live?as=2&v={v}"),
        "display": (
            display,
            f"/display/push?key={key}",
            f"/display/live?key={key}&v={{v}}",
        ),
    }
    streams = {
        name: Stream(client, f"/t/{table.code}{push}")
        for name, (client, push, _) in viewers.items()
    }
    # A phone without a session yet (its seat's cookie only): its region's forms would start
    # one, whose cookie a stream cannot give. Its message says "renew": fetch, then open the
    # stream again.
    token = table.phones[2].get_cookie(f"seat_{table.code}", path=f"/t/{table.code}").value
    first.set_cookie(f"seat_{table.code}", token, path=f"/t/{table.code}")
    streams["first"] = Stream(first, f"/t/{table.code}/push")
    try:
        for stream in streams.values():
            assert parse(stream.next()[1])[0] == before
        page = table.page(0)
        answer = table.phones[0].post(
            f"/t/{table.code}/note", data={"csrf_token": csrf_from(page), "text": "hi"}, headers=HX
        )
        assert answer.status_code == 200
        for name, (client, _, live) in viewers.items():
            sent = next_region(streams[name], before)
            fetched = client.get(f"/t/{table.code}{live.format(v=before)}", headers=HX).text
            assert f'data-version="{table.version()}"' in sent, name
            lines = [line for line in tokens_out(fetched).split("\n") if line.strip()]
            assert tokens_out(sent) == "\n".join(lines), name
            if name == "host as Chris":
                assert "Acting for Chris." in sent
        renew = streams["first"].next()[1]
        while parse(renew)[0] <= before:
            renew = streams["first"].next()[1]
        assert renew.split("\n")[0].endswith(" renew") and region_in(renew) == ""
    finally:
        for stream in streams.values():
            stream.close()


def test_the_page_that_made_a_change_gets_no_region_on_its_stream(push_app):
    """Its tap's answer brings it the region (and push.js takes none from the stream while a
    tap is on its way): no render for it. The others still get theirs; the host acting for a
    seat is its own view, not that seat's phone; an undo is nobody's entry (everyone's region)."""
    table = TableDriver(push_app, "pebbles", ("Anna", "Ben", "Chris"))
    push_app.extensions["companion.push"].heartbeat = 30  # only changes send a message
    table.page("host", "?as=2")  # the host's first look at Chris's seat is in the history
    streams = {
        "Anna": Stream(table.phones[0], f"/t/{table.code}/push"),
        "Chris": Stream(table.phones[2], f"/t/{table.code}/push"),
        "host as Chris": Stream(table.host, f"/t/{table.code}/push?as=2"),
        "host": Stream(table.host, f"/t/{table.code}/push"),
    }

    def note(who, query: str = "") -> int:
        before = table.version()
        page = table.page(who, query)
        answer = table.device(who).post(
            f"/t/{table.code}/note{query}",
            data={"csrf_token": csrf_from(page), "text": "hi"},
            headers=HX,
        )
        assert answer.status_code == 200
        return before

    try:
        for stream in streams.values():
            stream.next()
        before = note(0)  # Anna's phone
        got = {name: next_region(stream, before) for name, stream in streams.items()}
        assert got["Anna"] == ""
        assert all(f'data-version="{before + 1}"' in got[n] for n in ("Chris", "host as Chris"))
        before = note("host", "?as=2")  # the host, acting for Chris
        got = {name: next_region(stream, before) for name, stream in streams.items()}
        assert got["host as Chris"] == ""
        assert all(f'data-version="{before + 1}"' in got[n] for n in ("Anna", "Chris", "host"))
        before = table.version()
        page = table.page("host", "?as=2")
        undone = table.host.post(
            f"/t/{table.code}/undo?as=2",
            data={"csrf_token": csrf_from(page), "version": before},
            headers=HX,
        )
        assert undone.status_code == 200, undone.text[-300:]
        got = {name: next_region(stream, before) for name, stream in streams.items()}
        assert all(f'data-version="{before + 1}"' in region for region in got.values()), got
    finally:
        for stream in streams.values():
            stream.close()


def test_display_links_get_their_own_region_from_one_render(push_app):
    """Every display link of a table shows the same public view: the process renders it once
    per version and gives each link its copy with its own key in its addresses. Each is still
    exactly what that link's fetch gives."""
    table = TableDriver(push_app, "pebbles", ("Anna", "Ben", "Chris"))
    push_app.extensions["companion.push"].heartbeat = 30
    with push_app.app_context():
        found = tables.get_table(get_db(), table.code)
        keys = [tables.new_display_token(get_db(), found) for _ in range(3)]
    clients = [push_app.test_client() for _ in keys]
    before = table.version()
    streams = [
        Stream(client, f"/t/{table.code}/display/push?key={key}")
        for client, key in zip(clients, keys, strict=True)
    ]
    try:
        for stream in streams:
            assert parse(stream.next()[1])[0] == before
        page = table.page(0)
        answer = table.phones[0].post(
            f"/t/{table.code}/note", data={"csrf_token": csrf_from(page), "text": "hi"}, headers=HX
        )
        assert answer.status_code == 200
        for stream, client, key in zip(streams, clients, keys, strict=True):
            sent = next_region(stream, before)
            fetched = client.get(f"/t/{table.code}/display/live?key={key}&v={before}", headers=HX)
            lines = [line for line in fetched.text.split("\n") if line.strip()]
            assert sent == "\n".join(lines) and key in sent
            assert not any(other in sent for other in keys if other != key)
        assert push_app.wsgi_app.displays.kept  # kept for the next link's stream
    finally:
        for stream in streams:
            stream.close()


def test_a_display_links_region_is_rendered_once_per_version_for_every_link():
    """DisplayRegions: the first link's region at a version is rendered; another link of the
    table gets it with its own key, without a render; a newer version, another language, a
    region with a form (its token is one session's) or the table device are rendered anew."""
    from companion.web.stream_region import DisplayRegions, region_of

    renders = []

    def app(environ, start_response):
        key = environ["QUERY_STRING"].split("key=")[1].split("&")[0]
        renders.append(key)
        start_response("200 OK", [("Content-Type", "text/html")])
        form = '<input name="csrf_token" value="t">' if "FORM" in environ["PATH_INFO"] else ""
        return [
            f'<div id="live" data-version="7"><a href="/live?key={key}">{form}</a></div>'.encode()
        ]

    shared = DisplayRegions()

    def stream(key, lang="ja", live="/t/ABC/display/live", cookie=""):
        environ = {
            "QUERY_STRING": f"key={key}",
            "HTTP_ACCEPT_LANGUAGE": lang,
            "HTTP_COOKIE": cookie,
        }
        return region_of(app, environ, live, shared)

    first = stream("k1")(6, 7)
    second = stream("k2")(6, 7)
    assert renders == ["k1"] and b"key=k2" in second and b"k1" not in second
    assert first.replace(b"k1", b"k2") == second
    stream("k3")(7, 8)  # the table moved on: rendered (this one answers 7: not kept as 8)
    stream("k4", lang="ru")(6, 7)  # another language
    stream("k5", cookie="display_ABC=x")(6, 7)  # the table device: its own region
    stream("k6", live="/t/FORM/display/live")(6, 7)
    stream("k7", live="/t/FORM/display/live")(6, 7)  # a form in it: never shared
    assert renders == ["k1", "k3", "k4", "k5", "k6", "k7"]


def test_a_streams_renders_read_its_session_cookie_once(push_app, monkeypatch):
    """StreamSessions: a stream's cookies are the same at every render, so its session cookie
    is checked and decoded once; each render gets its own copy, and renders the region its
    fetch would (tokens aside)."""
    from flask.sessions import SecureCookieSessionInterface

    from companion.web.stream_region import region_of

    table = TableDriver(push_app, "pebbles", ("Anna", "Ben"))
    phone = table.phones[1]
    cookie = "; ".join(f"{c.key}={c.value}" for c in phone._cookies.values())
    assert "session=" in cookie
    reads = []
    read = SecureCookieSessionInterface.open_session

    def counted(self, app, request):
        reads.append(request.path)
        return read(self, app, request)

    monkeypatch.setattr(SecureCookieSessionInterface, "open_session", counted)
    environ = {"HTTP_COOKIE": cookie, "HTTP_HOST": "localhost", "wsgi.url_scheme": "http"}
    environ.update(SERVER_NAME="localhost", SERVER_PORT="80", SCRIPT_NAME="")
    render = region_of(push_app.wsgi_app, environ, f"/t/{table.code}/live")
    version = table.version()
    first, second = render(version - 1, version), render(version - 1, version)
    assert len(reads) == 1
    fetched = phone.get(f"/t/{table.code}/live?v={version - 1}", headers=HX).text
    assert len(reads) == 2  # a request of its own reads its cookie, as before

    def lines(html: str) -> list[str]:
        return [line for line in tokens_out(html).split("\n") if line.strip()]

    for sent in (first, second):
        assert f'data-version="{version}"'.encode() in sent
        assert lines(sent.decode()) == lines(fetched)


def test_the_stream_beats_while_nothing_moves(push_app):
    table = TableDriver(push_app, "pebbles", ("Anna", "Ben", "Chris"))
    stream = Stream(table.host, f"/t/{table.code}/push")
    try:
        while parse(stream.next()[1])[1] == "-":  # until the first presence sweep came
            pass
        beats = [stream.next() for _ in range(3)]
        gaps = [b[0] - a[0] for a, b in zip(beats, beats[1:])]
        assert all(HEARTBEAT * 0.7 < gap < HEARTBEAT * 2.5 for gap in gaps), gaps
        assert len({parse(m)[0] for _, m in beats}) == 1  # the same version, said again
    finally:
        stream.close()


def test_a_change_made_by_another_process_wakes_the_stream(push_app, store_url):
    """Another process: a connection of its own, not the app's (SQLite: the per-process
    check of PRAGMA data_version; PostgreSQL: NOTIFY)."""
    table = TableDriver(push_app, "pebbles", ("Anna", "Ben", "Chris"))
    push_app.extensions["companion.push"].heartbeat = 30
    stream = Stream(table.phones[0], f"/t/{table.code}/push")
    try:
        version = parse(stream.next()[1])[0]
        other = database.connect(store_url)
        try:
            found = tables.get_table(other, table.code)
            sent = time.monotonic()
            tables.add_note(other, found, "from elsewhere", seat=1, host=False)
        finally:
            other.conn.close()
        at, woken = stream.next_version(version)
        assert woken == version + 1
        assert at - sent < 1.0
    finally:
        stream.close()


def test_a_stranger_and_a_wrong_display_key_get_nothing(push_app):
    table = TableDriver(push_app, "pebbles", ("Anna", "Ben", "Chris"), phones=False)
    stranger = push_app.test_client()
    for path in (f"/t/{table.code}/push", "/t/NOSUCH7/push"):
        answer = stranger.get(path)
        assert answer.status_code == 204
        assert "event-stream" not in answer.headers.get("Content-Type", "")
        assert answer.data == b""
        assert "/join" in answer.headers["HX-Redirect"]  # what /live says to a stranger
        assert (
            answer.headers["HX-Redirect"]
            == stranger.get(path.replace("/push", "/live?v=0")).headers["HX-Redirect"]
        )
    # A seat cookie of another table opens nothing here.
    other = TableDriver(push_app, "pebbles", ("Dana", "Emil", "Fay"))
    token = other.phones[0].get_cookie(f"seat_{other.code}", path=f"/t/{other.code}").value
    stranger.set_cookie(f"seat_{table.code}", token, path=f"/t/{table.code}")
    assert stranger.get(f"/t/{table.code}/push").status_code == 204
    # The display: only with its current key.
    with push_app.app_context():
        found = tables.get_table(get_db(), table.code)
        key = tables.new_display_token(get_db(), found)
    assert stranger.get(f"/t/{table.code}/display/push?key=wrong-key").status_code == 404
    assert stranger.get(f"/t/{table.code}/display/push").status_code == 404
    stream = Stream(stranger, f"/t/{table.code}/display/push?key={key}")
    try:
        version, presence = parse(stream.next()[1])
        assert version == table.version() and presence == "-"  # no presence for the display
    finally:
        stream.close()


def test_without_push_served_a_member_is_told_to_poll(app):
    """Under waitress (PUSH off) the page is offered no stream; one asked for anyway is a 204,
    which tells an EventSource to stop."""
    assert app.config["PUSH"] is False
    table = TableDriver(app, "pebbles", ("Anna", "Ben", "Chris"))
    assert "data-push" not in table.page(0)
    answer = table.phones[0].get(f"/t/{table.code}/push")
    assert answer.status_code == 204 and answer.data == b""


def test_the_page_offers_the_stream_where_push_is_served(push_app):
    table = TableDriver(push_app, "pebbles", ("Anna", "Ben", "Chris"))
    page = table.page(1)
    assert f'data-push="/t/{table.code}/push"' in page
    assert f'data-heartbeat="{HEARTBEAT}"' in page


def test_an_open_stream_keeps_its_seat_online_and_pushes_presence(push_app, monkeypatch):
    table = TableDriver(push_app, "pebbles", ("Anna", "Ben", "Chris"))
    hub = push_app.extensions["companion.push"]
    hub.heartbeat = 30
    stream = Stream(table.phones[2], f"/t/{table.code}/push")
    try:
        stream.next()
        # Long ago, everyone was seen: only Chris's open stream makes Chris online again.
        with push_app.app_context():
            db = get_db()
            db.execute("UPDATE seats SET seen = 1 WHERE 1 = 1")
            db.commit()
        with push_app.app_context():
            hub.sweep(get_db())
        assert stream.next_presence("001") == "001"
        with push_app.app_context():
            found = tables.get_table(get_db(), table.code)
            assert [s.online(time.time()) for s in tables.seats(get_db(), found)] == [
                False,
                False,
                True,
            ]
    finally:
        stream.close()
    assert hub.members == {}  # the closed stream holds no seat any more
    assert hub.channels == {}


def test_the_engine_each_platform_gets():
    from companion.serve import engine

    assert engine(push=True, processes=1, posix=True) == "gunicorn-gevent"
    assert engine(push=True, processes=3, posix=True) == "gunicorn-gevent"
    assert engine(push=True, processes=3, posix=False) == "gevent"  # Windows: one process
    assert engine(push=False, processes=1, posix=True) == "waitress"
    assert engine(push=False, processes=2, posix=True) == "gunicorn-threads"
    assert engine(push=False, processes=2, posix=False) == "waitress"


def test_push_serves_one_process_per_core_unless_told():
    """A move costs every phone at its table a render: with push, `make run` spreads that over
    the cores (at most 4 processes); polling (waitress) and Windows stay one process."""
    from companion.serve import processes_wanted

    assert processes_wanted({}, push=True, posix=True, cores=2) == 2
    assert processes_wanted({}, push=True, posix=True, cores=1) == 1
    assert processes_wanted({}, push=True, posix=True, cores=16) == 4
    assert processes_wanted({}, push=True, posix=False, cores=8) == 1
    assert processes_wanted({}, push=False, posix=True, cores=8) == 1
    told = {"COMPANION_PROCESSES": "3"}
    assert processes_wanted(told, push=True, posix=True, cores=2) == 3
    assert processes_wanted(told, push=False, posix=True, cores=2) == 3
    assert processes_wanted({"COMPANION_PROCESSES": "0"}, push=True, cores=2) == 1


def test_gevents_own_server_holds_a_stream(tmp_path):
    """The engine where gunicorn does not run (Windows), tried here: a member's stream is held
    and beats; the page's poll is answered beside it."""
    import socket
    import subprocess
    import sys

    from tests.helpers import OWN_GEVENT_SERVER, ROOT, free_port

    path = tmp_path / "own.db"
    setup = database.connect(path, setup=True)
    table, _ = tables.create_table(setup, "pebbles", ["Anna", "Ben", "Chris"])
    token = tables.join(setup, table, 1)
    setup.conn.close()
    port = free_port()
    env = {
        "COMPANION_DATABASE": str(path),
        "COMPANION_SECRET_KEY": "own-server",
        "COMPANION_PUSH_HEARTBEAT": "0.3",
        "COMPANION_EXTRA_GAMES": "tests.fixture_game",  # the tests' own game, Pebbles
        "PATH": "/usr/bin:/bin",
    }
    process = subprocess.Popen(
        [sys.executable, "-c", OWN_GEVENT_SERVER, str(port)],
        cwd=ROOT,  # the checkout's companion and tests, without editing sys.path
        env=env,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                sock = socket.create_connection(("127.0.0.1", port), timeout=5)
                break
            except OSError:
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.1)
        sock.sendall(
            f"GET /t/{table.code}/push HTTP/1.1\r\nHost: x\r\n"
            f"Cookie: seat_{table.code}={token}\r\n\r\n".encode()
        )
        received = b""
        while received.count(b"data: ") < 3:  # the first message and two heartbeats
            piece = sock.recv(4096)
            assert piece, received
            received += piece
        assert received.startswith(b"HTTP/1.1 200")
        assert b"text/event-stream" in received
        assert f"data: {table.version + 1} ".encode() in received  # the join moved it on
        sock.close()
    finally:
        process.kill()
        process.wait()


def test_one_credential_holds_at_most_ten_streams_in_a_process(push_app):
    table = TableDriver(push_app, "pebbles", ("Anna", "Ben", "Chris"))
    path = f"/t/{table.code}/push"
    held = [Stream(table.phones[1], path) for _ in range(10)]
    try:
        assert [s.response.status_code for s in held] == [200] * 10
        for stream in held:
            stream.next()
        # An eleventh (a page reloaded while its old connection lingers): the newest streams,
        # the oldest ends at once; the others go on.
        newest = Stream(table.phones[1], path)
        held.append(newest)
        assert newest.response.status_code == 200 and newest.next()
        assert ends(held[0], within=HEARTBEAT * 2)
        assert not any(ends(s, within=0.05) for s in held[1:])
        # Ben's many streams hold nobody else back.
        other = Stream(table.phones[0], path)
        held.append(other)
        assert other.response.status_code == 200
        assert ends(held[1], within=0.05) is False
    finally:
        for stream in held:
            stream.close()


def test_a_freed_seat_or_a_dropped_display_ends_its_streams(push_app):
    table = TableDriver(push_app, "pebbles", ("Anna", "Ben", "Chris"))
    with push_app.app_context():
        key = tables.new_display_token(get_db(), tables.get_table(get_db(), table.code))
    ben = Stream(table.phones[1], f"/t/{table.code}/push")
    anna = Stream(table.phones[0], f"/t/{table.code}/push")
    display = Stream(table.phones[2], f"/t/{table.code}/display/push?key={key}")
    try:
        for stream in (ben, anna, display):
            assert stream.response.status_code == 200
            stream.next()
        with push_app.app_context():
            tables.free_seat(get_db(), tables.get_table(get_db(), table.code), 1)
        assert ends(ben) and not ends(anna, within=HEARTBEAT * 2)
        with push_app.app_context():
            tables.drop_display(get_db(), tables.get_table(get_db(), table.code), key)
        assert ends(display)
        # Anna's stream goes on and hears the next change; Ben's phone gets no new stream.
        assert table.phones[1].get(f"/t/{table.code}/push").status_code != 200
    finally:
        for stream in (ben, anna, display):
            stream.close()


def ends(stream: Stream, within: float = 2.0) -> bool:
    """Whether the stream ends within this time (messages before the end are skipped)."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            if stream.next(max(0.01, deadline - time.monotonic()))[1] == ENDED:
                return True
        except queue.Empty:
            return False
    return False


def test_a_process_renders_a_few_regions_at_once_and_every_stream_gets_its_own(push_app):
    """Under more changes than the process can render, a request waits behind a few renders,
    not every stream's (RENDERS_AT_ONCE); each stream still gets a region, the newest when it
    waited for its turn."""
    from companion.web import push

    hub = push_app.extensions["companion.push"]
    hub.heartbeat = 30
    channel = hub.join("GATE")
    rendering, most = [0], [0]
    lock = threading.Lock()

    def region(shown: int, version: int) -> bytes:
        with lock:
            rendering[0] += 1
            most[0] = max(most[0], rendering[0])
        time.sleep(0.05)
        with lock:
            rendering[0] -= 1
        return f'<div id="live" data-version="{version}">'.encode()

    got: queue.Queue = queue.Queue()

    def read() -> None:
        messages = hub.stream(channel, 0, False, region=region)
        next(messages)  # the first message: the version it joined at
        got.put(next(messages))
        messages.close()

    readers = [threading.Thread(target=read) for _ in range(3 * push.RENDERS_AT_ONCE)]
    for reader in readers:
        reader.start()
    time.sleep(0.2)  # every stream waits for a change
    hub.changed("GATE", 1)
    hub.changed("GATE", 2)  # made while most renders wait their turn: in theirs
    for reader in readers:
        reader.join(5)
    messages = [got.get_nowait().decode() for _ in readers]
    versions = [int(m.split()[1]) for m in messages]
    assert all(f'data-version="{v}"' in m for v, m in zip(versions, messages)), messages
    assert versions.count(2) >= len(readers) - push.RENDERS_AT_ONCE, versions
    assert most[0] == push.RENDERS_AT_ONCE
    hub.leave("GATE")

"""What the push engines add to the servers' own handling of a connection: deadlines for slow
clients, a cap on open connections per address, and no Server header. The engines: gunicorn's
gevent workers (POSIX) and gevent's own WSGI server (Windows), chosen by companion/serve.py,
which reads the settings (ClientLimits).

Why: a connection costs a greenlet and its buffers, and neither server limits how long a client
may take. A request whose body never came was held for good, a request's head for as long as
the keep-alive setting (75 s), and nothing stopped one address from opening connections until
every worker was full: 22,000 slow requests from two addresses, with no cookie, made every
phone's page time out.

Deadlines. Every client socket is wrapped in a Connection, and the servers read requests
through its recv() (gunicorn's parser and request body) or its makefile() (gevent's handler).
Each read waits at most until the deadline of the phase the connection is in:

- idle, a new connection or between two requests: `keepalive` seconds without a byte;
- the request's head, from its first byte: the request line and headers within
  `header_timeout` seconds (gunicorn and gevent read the whole head before the app runs);
- the body, from the moment the server hands the request to the app: `body_min_rate` bytes a
  second after `body_grace` seconds, and all of it within `body_timeout`;
- idle again once the answer is written.

Only reads wait on the client. A push stream (companion/web/push.py) never reads again once it
is answered, so no deadline ends it: its heartbeat keeps it alive, and a phone that left is
noticed when a write fails. A read past its deadline still takes whatever has already arrived
(a busy server is not the client's fault). Then the client gets 408 if it had started a request
and no byte of an answer was sent, and the connection closes, without a line in the log: a slow
client is no server error. The body's reader stops by raising TooSlow, a BaseException, so
that no `except Exception` between the socket and the server takes it for the app's failure
(the app would answer 500); the engine's handler ends the connection on it.

The cap. Each process counts its open connections per peer address; beyond the cap a new
connection from that address is closed at once (a reset, before anything is read), so that one
address can take at most a share of what a worker holds (its pool of COMPANION_CONNECTION_LIMIT
greenlets) and phones from other addresses are still served. Behind a trusted proxy every
connection comes from the proxy, so serve.py turns the cap off there (the proxy limits its
clients: nginx's limit_conn).

No Server header: gunicorn writes its own (its name) into every answer's head, where the app's
after_request cannot reach; the worker builds its answers without it. gevent's server and
waitress (`ident=None`) send none.
"""

from __future__ import annotations

import io
import socket
import struct
import time
from contextlib import suppress
from typing import TYPE_CHECKING, Any

from gevent.local import local
from gevent.pywsgi import WSGIHandler, WSGIServer

if TYPE_CHECKING:
    from companion.serve import ClientLimits

IDLE, HEAD, BODY = "idle", "head", "body"
TIMED_OUT = b"HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"
CONTINUE = b"HTTP/1.1 100 "  # an interim answer (Expect: 100-continue): the final one may follow
SAY_TIMED_OUT_WITHIN = 1.0  # seconds: the 408 is small, but a client that reads nothing gets none


class TooSlow(BaseException):
    """A client missed the deadline of its request's body: the request ends here, quietly (a
    BaseException: no `except Exception` of the app or the server may answer it with a 500)."""


_serving = local()  # per greenlet: the Connection whose request it serves


def allow_longer_body(seconds: float) -> bool:
    """Let the request this greenlet serves take up to `seconds` for its whole body (an upload:
    companion/security.py's LARGE_BODIES), called by the app before it reads the body; the
    rate a body must keep up stays. False when no Connection of this module serves it."""
    connection = getattr(_serving, "connection", None)
    if connection is None or connection.phase != BODY:
        return False
    connection.longer = max(connection.longer, seconds)
    return True


class Connection:
    """A client's socket as the server reads it: every read waits at most until the deadline of
    the connection's phase (the module's docstring); everything else is the socket's own.

    eof_before_body: a deadline missed while idle or in the request's head ends the read as the
    client closing would (gunicorn: its parser then drops the connection quietly), instead of
    raising TooSlow (gevent's handler, which would parse a cut-off head as a whole one)."""

    def __init__(self, sock: Any, limits: ClientLimits, eof_before_body: bool = False):
        self.sock = sock
        self.limits = limits
        self.eof_before_body = eof_before_body
        self.phase = IDLE
        self.since = time.monotonic()
        self.received = 0  # bytes of the body so far
        self.answered = False  # a byte of this request's answer was sent
        self.app_done = False  # the app has answered: what is read now is discarded
        self.cut = False  # a deadline was missed: the connection reads nothing more
        self.longer = 0.0  # seconds this request's body may take, when the app allows more

    def __getattr__(self, name: str) -> Any:
        return getattr(self.sock, name)

    # --- the phases (the server says when a request goes to the app and when it is answered) ---

    def reading_body(self) -> None:
        """The server hands the request to the app, which may read its body now."""
        self.phase, self.since, self.received = BODY, time.monotonic(), 0
        self.answered = self.app_done = False
        self.longer = 0.0
        _serving.connection = self

    def done_with_body(self) -> None:
        """The app has answered; the server may still discard the rest of the body (within the
        body's deadline), and a missed deadline then ends the read as a close would."""
        self.app_done = True

    def idle(self) -> None:
        """The request is answered: the connection waits for the next one."""
        self.phase, self.since = IDLE, time.monotonic()
        self.answered = self.app_done = False
        _serving.connection = None

    def deadline(self) -> float | None:
        """When the read under way must have had a byte (time.monotonic()), or None."""
        limits = self.limits
        if self.phase == IDLE:
            # Without keep-alive, a new connection still waits at most as long as a head may.
            wait = limits.keepalive or limits.header_timeout
        elif self.phase == HEAD:
            wait = limits.header_timeout
        else:
            wait = limits.body_timeout and max(limits.body_timeout, self.longer)
            if limits.body_min_rate:
                by_rate = limits.body_grace + self.received / limits.body_min_rate
                wait = min(wait, by_rate) if wait else by_rate
        return self.since + wait if wait else None

    # --- reads -------------------------------------------------------------------------------------

    def recv(self, size: int, flags: int = 0) -> bytes:
        if self.cut:
            return b""
        before = self._arm()
        try:
            data = self.sock.recv(size, flags)
        except (TimeoutError, BlockingIOError):
            return self._missed()
        finally:
            self.sock.settimeout(before)
        self._got(len(data))
        return data

    def recv_into(self, buffer: Any, nbytes: int = 0, flags: int = 0) -> int:
        if self.cut:
            return 0
        before = self._arm()
        try:
            count = self.sock.recv_into(buffer, nbytes, flags)
        except (TimeoutError, BlockingIOError):
            return len(self._missed())
        finally:
            self.sock.settimeout(before)
        self._got(count)
        return count

    def makefile(self, mode: str = "rb", buffering: int = -1, **_: Any) -> io.BufferedReader:
        """The request's reader for gevent's handler (reads only), through recv_into."""
        if mode != "rb":
            raise ValueError(f"a Connection is read as 'rb', not {mode!r}")
        return io.BufferedReader(_Reader(self))

    def _arm(self) -> float | None:
        """Let the next read wait until the phase's deadline (at least try it: what has already
        arrived is taken even past the deadline). Returns the socket's timeout before."""
        before = self.sock.gettimeout()
        deadline = self.deadline()
        self.sock.settimeout(None if deadline is None else max(0.0, deadline - time.monotonic()))
        return before

    def _got(self, count: int) -> None:
        if not count:
            return
        if self.phase == IDLE:
            self.phase, self.since = HEAD, time.monotonic()
        elif self.phase == BODY:
            self.received += count

    def _missed(self) -> bytes:
        """A deadline passed: 408 if a request had started and no answer has, then the end."""
        self.cut = True
        if self.phase != IDLE and not self.answered:
            self.answered = True
            with suppress(OSError):
                self.sock.settimeout(SAY_TIMED_OUT_WITHIN)
                self.sock.sendall(TIMED_OUT)
        if self.app_done or (self.eof_before_body and self.phase != BODY):
            return b""
        raise TooSlow(self.phase)

    # --- writes (noted: a 408 must not follow an answer already begun) ---------------------------

    def sendall(self, data: Any, flags: int = 0) -> None:
        if not self.answered and bytes(data[: len(CONTINUE)]) != CONTINUE:
            self.answered = True
        self.sock.sendall(data, flags)

    def sendfile(self, file: Any, offset: int = 0, count: int | None = None) -> int:
        self.answered = True
        return self.sock.sendfile(file, offset, count)


class _Reader(io.RawIOBase):
    """A Connection as a raw stream, for the buffered reader gevent's handler reads lines from
    (closing it leaves the socket to the handler)."""

    def __init__(self, connection: Connection):
        self.connection = connection

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        return self.connection.recv_into(buffer)


class Peers:
    """Open connections per peer address in this process, held to `cap` (0: no cap)."""

    def __init__(self, cap: int):
        self.cap = cap
        self.open: dict[str, int] = {}

    def enter(self, peer: str | None) -> bool:
        """Count a new connection from peer, or refuse it (False): the cap is reached."""
        if not self.cap or peer is None:
            return True
        held = self.open.get(peer, 0)
        if held >= self.cap:
            return False
        self.open[peer] = held + 1
        return True

    def leave(self, peer: str | None) -> None:
        if not self.cap or peer is None:
            return
        held = self.open.get(peer, 0) - 1
        if held > 0:
            self.open[peer] = held
        else:
            self.open.pop(peer, None)


def peer_of(address: Any) -> str | None:
    """The peer's IP from the address the servers give, (ip, port[, ...]); None for a Unix
    socket's (a local proxy: no cap on it)."""
    return str(address[0]) if isinstance(address, tuple) and address else None


def refuse(sock: Any) -> None:
    """Close a connection at once, nothing read or written: a reset, so that neither side keeps
    it (no TIME_WAIT here for a flood's connections)."""
    with suppress(OSError):
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    with suppress(OSError):
        sock.close()


# --- gevent's own WSGI server (Windows) ----------------------------------------------------------


class Handler(WSGIHandler):
    """gevent's handler on a Connection: the request's body is read while the app runs."""

    def __init__(self, sock: Any, address: Any, server: Any, rfile: Any = None):
        super().__init__(Connection(sock, server.limits), address, server, rfile)

    def handle_one_request(self) -> Any:
        try:
            return super().handle_one_request()
        except TooSlow:
            return None  # the connection closes (a 408 was said if a request had begun)

    def handle_one_response(self) -> None:
        connection = self.socket
        connection.reading_body()
        try:
            super().handle_one_response()
        finally:
            connection.idle()

    def run_application(self) -> None:
        try:
            super().run_application()
        except TooSlow:
            # The handler then discards what is left of the body: nothing (the connection
            # reads no more), and ends the connection without an answer of its own.
            self.close_connection = True
        finally:
            # What the handler discards now is no request's: a missed deadline ends it as a
            # close would, which the handler takes quietly (an error to raise here, it logs).
            self.socket.done_with_body()


class Server(WSGIServer):
    """gevent's WSGI server with the deadlines (Handler) and the cap per address."""

    handler_class = Handler

    def __init__(self, listener: Any, application: Any, limits: ClientLimits, **kwargs: Any):
        super().__init__(listener, application, **kwargs)
        self.limits = limits
        self.peers = Peers(limits.per_address)

    def handle(self, sock: Any, address: Any) -> None:
        peer = peer_of(address)
        if not self.peers.enter(peer):
            refuse(sock)
            return
        try:
            super().handle(sock, address)
        finally:
            self.peers.leave(peer)


# --- gunicorn's gevent worker (POSIX) -------------------------------------------------------------


def gunicorn_worker(limits: ClientLimits) -> type:
    """gunicorn's gevent worker with the deadlines, the cap per address and no Server header,
    for these limits (serve.py names the class as the worker class; gunicorn is imported only
    here: Windows has none)."""
    import gevent
    from gunicorn.http import wsgi
    from gunicorn.workers.ggevent import GeventWorker

    class Answer(wsgi.Response):
        """gunicorn's answer without the Server line in its head."""

        def default_headers(self) -> list[str]:
            return [line for line in super().default_headers() if not line.startswith("Server:")]

    class Worker(GeventWorker):
        def __init__(self, *args: Any, **kwargs: Any):
            super().__init__(*args, **kwargs)
            self.peers = Peers(limits.per_address)

        def init_process(self) -> None:
            # gunicorn makes every HTTP/1 answer from this name (http/wsgi.py, create()); set in
            # the worker process only, which serves nothing else.
            wsgi.Response = Answer
            super().init_process()

        def timeout_ctx(self) -> Any:
            # gunicorn's own timer over reading a request's head from an idle connection (its
            # keepalive), left as a backstop behind the Connection's deadlines, which decide.
            wait = (limits.keepalive or 0) + (limits.header_timeout or 0)
            return gevent.Timeout(wait + 1 if wait else None, False)

        def handle(self, listener: Any, client: Any, addr: Any) -> None:
            peer = peer_of(addr)
            if not self.peers.enter(peer):
                refuse(client)
                return
            try:
                connection = Connection(client, limits, eof_before_body=True)
                super().handle(listener, connection, addr)
            finally:
                self.peers.leave(peer)

        def handle_request(self, listener_name: Any, req: Any, sock: Any, addr: Any) -> Any:
            sock.reading_body()
            try:
                return super().handle_request(listener_name, req, sock, addr)
            except TooSlow:
                # gunicorn's connection loop ends on StopIteration without a word (debug).
                raise StopIteration from None
            finally:
                sock.idle()

    Worker.__name__ = Worker.__qualname__ = "CompanionGeventWorker"
    return Worker

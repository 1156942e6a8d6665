"""The unchanged poll, answered before Flask: a WSGI middleware.

Every phone polls /t/<code>/live?v=<version> every two seconds; almost always nothing changed.
Such a poll is answered here with one indexed query, without building a request context, a
session, a CSRF check or a translation. Anything else (a changed table, a device that is not a
member, a malformed poll) goes on to Flask, which answers it in full.

The answer is an empty 200 with `HX-Reswap: none` (htmx leaves the page alone), not a 204:
waitress closes the connection after every 204 (it will not keep a connection alive without a
Content-Length, which a 204 may not carry), so each phone would open a new connection every two
seconds.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from werkzeug.http import parse_cookie

from companion.tables import mark_seen
from companion.web.credentials import member
from companion.web.stream_region import FROM_STREAM

POLL_PATH = re.compile(r"/t/([A-Za-z0-9]{1,20})/live")
VERSION_ARG = re.compile(r"(?:^|&)v=(\d{1,12})(?:&|$)")
# Only a member's poll is answered here (credentials.member): a device with no seat at the table
# goes to Flask, which counts unknown codes and tells a guesser nothing.
UNCHANGED = [("Content-Length", "0"), ("HX-Reswap", "none"), ("Cache-Control", "no-store")]


class UnchangedPolls:
    """Wraps the app's wsgi_app; headers() gives the headers every answer carries."""

    def __init__(
        self,
        wsgi_app: Callable,
        connections,  # companion.db.connections(): get() and release()
        headers: Callable[[], list[tuple[str, str]]],
    ):
        self.wsgi_app = wsgi_app
        self.connections = connections
        self.headers = headers

    def __call__(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        if environ.get("REQUEST_METHOD") == "GET" and FROM_STREAM not in environ:
            match = POLL_PATH.fullmatch(environ.get("PATH_INFO", ""))
            if match is not None:
                version = VERSION_ARG.search(environ.get("QUERY_STRING", ""))
                if version is not None and self._unchanged(
                    environ, match.group(1).upper(), int(version.group(1))
                ):
                    start_response("200 OK", [*UNCHANGED, *self.headers()])
                    return [b""]
        return self.wsgi_app(environ, start_response)

    def _unchanged(self, environ: dict, code: str, seen: int) -> bool:
        db = self.connections.get()
        try:
            found = member(db, parse_cookie(environ), code)
            if found is None or found.version != seen:
                return False
            # Presence: this device is still at the table (at most one write every few seconds).
            if found.host:
                mark_seen(db, found.table_id, None, found.host_seen)
            if found.seat is not None:
                mark_seen(db, found.table_id, found.seat, found.seat_seen)
            return True
        finally:
            self.connections.release()

"""A push stream's own live region, rendered in the process that holds the stream and sent
with the stream's message (companion/web/push.py), so that a phone needs no request of its own
to show a move: the request its page would make, answered by the app itself, without a
connection or a socket.
"""

from __future__ import annotations

import copy
import io
import logging
import os
import re
from collections.abc import Callable

from flask.sessions import SecureCookieSessionInterface
from werkzeug.http import parse_cookie

from companion.i18n import LANG_COOKIE
from companion.web.credentials import LAST_ENTRY, display_cookie

log = logging.getLogger(__name__)

# A stream's region (region_of) is sent with its message up to this many bytes
# (0: never; the page fetches it). A table page's region is 8-30 KB.
REGION_MAX = int(os.environ.get("COMPANION_PUSH_REGION_MAX", str(64 * 1024)))
LINK_KEY = re.compile(r"(?:^|&)key=([A-Za-z0-9_-]{1,64})(?:&|$)")  # a display link's key
ACTING = re.compile(r"(?:^|&)as=(\d{1,3})(?:&|$)")  # the host's "act for" a seat
FROM_STREAM = "companion.stream_region"  # the environ key that marks such a request
SESSION_KEPT = "companion.stream_session"  # where such a request finds its stream's session
RENEW = b"renew"  # a region that could not be sent for a cookie the page must get first
# What a stream's region request keeps of the stream's own: who asks (cookies, language), and
# how it reached us (host, scheme, a proxy's forwarding headers), so that its links are the same.
KEPT_FROM_STREAM = (
    "wsgi.version",
    "wsgi.url_scheme",
    "wsgi.errors",
    "wsgi.multithread",
    "wsgi.multiprocess",
    "wsgi.run_once",
    "SERVER_NAME",
    "SERVER_PORT",
    "SERVER_PROTOCOL",
    "SCRIPT_NAME",
    "REMOTE_ADDR",
    "HTTP_HOST",
    "HTTP_COOKIE",
    "HTTP_ACCEPT_LANGUAGE",
    "HTTP_USER_AGENT",
    "HTTP_X_FORWARDED_FOR",
    "HTTP_X_FORWARDED_PROTO",
    "HTTP_X_FORWARDED_HOST",
    "HTTP_X_FORWARDED_PORT",
    "HTTP_X_FORWARDED_PREFIX",
)


class DisplayRegions:
    """One process's display-link regions, shared: every display link of a table (a TV, a
    tablet in the middle of the table) shows the same public view, its own key in its
    addresses aside. The first link's region at a version is kept, and the others get it
    with their key put in its place, instead of a render each (issue 38: 15 display links were
    15 renders a move). Kept only when the region holds no form (a form's token belongs to one
    session) and per what decides its language and addresses."""

    LIMIT = 1000  # tables' regions kept at once; all dropped when full

    def __init__(self) -> None:
        self.kept: dict[tuple, tuple[int, bytes, bytes]] = {}

    def share_key(self, environ: dict, live: str) -> tuple | None:
        """What the region of this display stream depends on beyond the table and its version,
        or None when it is not a plain display link's (the table device, by its cookie, may
        enter events: its own region; no key)."""
        cookies = parse_cookie(environ)
        code = live.split("/")[2]
        if display_cookie(code) in cookies or link_key(environ) is None:
            return None
        return (
            live,
            cookies.get(LANG_COOKIE),
            environ.get("HTTP_ACCEPT_LANGUAGE"),
            environ.get("HTTP_HOST"),
            environ.get("SCRIPT_NAME"),
            environ.get("wsgi.url_scheme"),
            *(environ.get(name) for name in KEPT_FROM_STREAM if name.startswith("HTTP_X_")),
        )

    def get(self, share: tuple, version: int, key: bytes) -> bytes | None:
        found = self.kept.get(share)
        if found is None or found[0] != version:
            return None
        return found[2].replace(found[1], key)

    def put(self, share: tuple, version: int, key: bytes, content: bytes) -> None:
        if b'name="csrf_token"' in content or f'data-version="{version}"'.encode() not in content:
            return
        if len(self.kept) >= self.LIMIT:
            self.kept.clear()
        self.kept[share] = (version, key, content)


def link_key(environ: dict) -> str | None:
    """The display link's key in a request's query (`key=`), or None."""
    found = LINK_KEY.search(environ.get("QUERY_STRING", ""))
    return found.group(1) if found else None


def region_of(
    wsgi_app: Callable, environ: dict, live: str, displays: DisplayRegions | None = None
) -> Callable[[int, int], bytes | None]:
    """What renders a stream's own live region (see Hub.stream): the request its page would
    make (`live`?v=<the version it shows>, with the stream's own query, cookies and
    language), answered by the app in this process, without a connection or a socket. So a
    phone gets exactly what its fetch would give (the same code: its seat's view, nobody
    else's). None when the answer is not a plain region (a redirect to the join page, a
    cookie to set or drop, an error, more than REGION_MAX bytes): the page fetches it.
    displays: a display link's region is shared with the process's other links of the table
    (DisplayRegions)."""
    share = displays.share_key(environ, live) if displays is not None else None
    link = (link_key(environ) or "").encode()
    kept = {key: environ[key] for key in KEPT_FROM_STREAM if key in environ}
    # the page's own arguments (the host's "act for", the display's key), never a version
    query = "&".join(
        part for part in environ.get("QUERY_STRING", "").split("&") if part[:2] != "v="
    )
    session: dict = {}  # the stream's session as its cookie holds it (StreamSessions)

    def render(shown: int, version: int) -> bytes | None:
        if REGION_MAX <= 0:
            return None
        if share is not None and displays is not None:
            found = displays.get(share, version, link)
            if found is not None:
                return found
        sub = dict(
            kept,
            REQUEST_METHOD="GET",
            PATH_INFO=live,
            QUERY_STRING=f"{query}&v={shown}" if query else f"v={shown}",
            HTTP_HX_REQUEST="true",
        )
        # never unchanged (it asks at a newer version): the fast path need not look
        sub[FROM_STREAM] = True
        sub[SESSION_KEPT] = session
        sub["wsgi.input"] = io.BytesIO(b"")
        answered: list = []

        def start_response(status: str, headers: list, exc_info=None):
            answered[:] = [status, headers]
            return lambda data: None

        try:
            body = wsgi_app(sub, start_response)
            try:
                content = b"".join(body)
            finally:
                getattr(body, "close", lambda: None)()
        except Exception:
            log.exception("push: a stream's region could not be rendered")
            return None
        status, headers = answered or ["500", []]
        if not status.startswith("200 ") or not content or len(content) > REGION_MAX:
            return None
        if any(name.lower() == "set-cookie" for name, _ in headers):
            # A cookie the page must get (a first session, a token dropped): it fetches,
            # and opens its stream again, with the new cookies (RENEW).
            return RENEW
        if share is not None and displays is not None:
            displays.put(share, version, link, content)
        return content

    return render


class OwnEntries:
    """Whether a new version is a member stream's own page's entry (issue 38): the tap's answer
    brings that page the region already, and the page takes no region from its stream while a
    tap of its own is on its way (push.js), so rendering it for the stream too was one render
    in five at a table of four. The stream's view: the seat its page shows (a host's "act for",
    else its own seat) and whether it is the host's. The table's newest history entry, read
    with the stream's credential check at each version (LAST_ENTRY), was written by that view
    at that version: no region (a plain message). Only a guess of who tapped: another page
    with the same view (a second tab) then fetches its region, as without a stream."""

    def __init__(self, seat: int | None, host: bool) -> None:
        self.view = (seat, host)
        self.last: tuple | None = None

    @classmethod
    def of(cls, seat: int | None, host: bool, query: str) -> OwnEntries:
        """A member's stream: its seat and host role, its page's "act for" (`as=`) if any."""
        acting = ACTING.search(query) if host else None
        return cls(int(acting.group(1)) if acting else seat, host)

    def read(self, db, table_id: int) -> None:
        """The table's newest entry, now (in the stream's credential check)."""
        self.last = tuple(db.execute(LAST_ENTRY, [table_id]).fetchone() or ()) or None

    def made(self, version: int) -> bool:
        """Whether `version` is the newest entry, written by this stream's view."""
        last = self.last
        return (
            last is not None
            and last[0] == version
            and last[3] == 0
            and (last[1], bool(last[2])) == self.view
        )


class StreamSessions(SecureCookieSessionInterface):
    """Flask's signed-cookie sessions, except that the requests of one push stream (region_of)
    read the stream's session cookie once: its cookies are the stream's request's, the same at
    every render, so each render gets its own copy of what the first one read instead of
    checking the signature and decoding the cookie again (0.1 ms of a region's 2.5-4).
    A render that changes its copy changes nothing kept: the answer sets a cookie, and the
    stream sends "renew" (region_of)."""

    def open_session(self, app, request):
        kept = request.environ.get(SESSION_KEPT)
        if kept is None:
            return super().open_session(app, request)
        if "read" not in kept:
            found = super().open_session(app, request)
            kept["read"] = None if found is None else copy.deepcopy(dict(found))
        read = kept["read"]
        return None if read is None else self.session_class(copy.deepcopy(read))

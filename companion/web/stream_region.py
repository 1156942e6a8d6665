"""A push stream's own live region, rendered in the process that holds the stream and sent
with the stream's message (companion/web/push.py), so that a phone needs no request of its own
to show a move: the request its page would make, answered by the app itself, without a
connection or a socket.
"""

from __future__ import annotations

import io
import logging
import os
from collections.abc import Callable

log = logging.getLogger(__name__)

# A stream's region (region_of) is sent with its message up to this many bytes
# (0: never; the page fetches it). A table page's region is 8-30 KB.
REGION_MAX = int(os.environ.get("COMPANION_PUSH_REGION_MAX", str(64 * 1024)))
FROM_STREAM = "companion.stream_region"  # the environ key that marks such a request
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


def region_of(wsgi_app: Callable, environ: dict, live: str) -> Callable[[int], bytes | None]:
    """What renders a stream's own live region (see Hub.stream): the request its page would
    make (`live`?v=<the version it shows>, with the stream's own query, cookies and
    language), answered by the app in this process, without a connection or a socket. So a
    phone gets exactly what its fetch would give (the same code: its seat's view, nobody
    else's). None when the answer is not a plain region (a redirect to the join page, a
    cookie to set or drop, an error, more than REGION_MAX bytes): the page fetches it."""
    kept = {key: environ[key] for key in KEPT_FROM_STREAM if key in environ}
    # the page's own arguments (the host's "act for", the display's key), never a version
    query = "&".join(
        part for part in environ.get("QUERY_STRING", "").split("&") if part[:2] != "v="
    )

    def render(shown: int) -> bytes | None:
        if REGION_MAX <= 0:
            return None
        sub = dict(
            kept,
            REQUEST_METHOD="GET",
            PATH_INFO=live,
            QUERY_STRING=f"{query}&v={shown}" if query else f"v={shown}",
            HTTP_HX_REQUEST="true",
        )
        # never unchanged (it asks at a newer version): the fast path need not look
        sub[FROM_STREAM] = True
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
        return content

    return render

"""What every answer carries and every request is held to: security headers, size limits, and
the opt-in for running behind a reverse proxy.

- A Content-Security-Policy the pages satisfy: scripts, styles and media from the app only (no
  inline script or style, no eval: htmx runs with allowEval off), no framing.
- A maximum request body (MAX_CONTENT_LENGTH, checked before any form is parsed, for anyone) and
  a maximum query string (a calculator's position lives in the address).
- Behind a proxy (COMPANION_TRUSTED_PROXIES=1), werkzeug's ProxyFix gives the client's address and
  scheme from the proxy's headers; links then come from COMPANION_PUBLIC_URL only, so it is
  required. Cookies are Secure when the scheme is https.
- The app's secret key, as text, for what is signed or derived from it (secret_key()).
"""

from __future__ import annotations

import os
import sys

from flask import Flask, Response, current_app, request
from werkzeug.middleware.proxy_fix import ProxyFix

from companion.web.assets import is_static
from companion.web.errors import error_page

MAX_BODY = 64 * 1024  # bytes: the largest form (a scoring sheet) is a few KB
MAX_QUERY = 4096  # characters of query string
# The routes that take a file, each with its own size and body deadline (seconds): the import
# of past plays (companion/web/imports.py). Every other body stays within MAX_BODY.
LARGE_BODIES = {"imports.read": (11 * 1024 * 1024, 300.0)}
CSP = "; ".join(
    [
        # Styles, media, connections, fonts and the manifest fall back to default-src: the
        # app's own only. Scripts are named for whoever reads the policy.
        "default-src 'self'",
        "script-src 'self'",
        "img-src 'self' data:",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
ASSET_CSP = "default-src 'none'; style-src 'unsafe-inline'"
HEADERS = [
    ("Content-Security-Policy", CSP),
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "no-referrer"),
    # No X-Frame-Options: the policy's frame-ancestors 'none' says the same to every browser
    # that runs this app's pages (24 bytes of every page, a phone's first load counts them).
]


class ConfigurationError(RuntimeError):
    """The settings cannot work together (the app refuses to start, and says why)."""


def headers() -> list[tuple[str, str]]:
    """The headers every answer carries (the fast path for polls adds them too)."""
    return list(HEADERS)


def init_app(app: Flask) -> None:
    """Limits, headers and the proxy opt-in."""
    for key in ("MAX_CONTENT_LENGTH", "MAX_FORM_MEMORY_SIZE"):
        if not app.config.get(key) or app.config[key] > MAX_BODY:
            app.config[key] = MAX_BODY
    trusted = app.config.get("TRUSTED_PROXIES")
    if trusted is None:
        trusted = os.environ.get("COMPANION_TRUSTED_PROXIES", "") not in ("", "0")
    if trusted:
        if not app.config.get("PUBLIC_URL"):
            raise ConfigurationError(
                "COMPANION_TRUSTED_PROXIES is set, so the address phones use must come from "
                "COMPANION_PUBLIC_URL (the Host header is never trusted): set it, e.g. "
                "COMPANION_PUBLIC_URL=https://games.example.org"
            )
        # Flask's documented way to wrap its WSGI app (its types call wsgi_app a method).
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=1, x_proto=1)  # type: ignore[method-assign]
    if app.config.get("PUBLIC_URL", "").startswith("https://"):
        app.config["SESSION_COOKIE_SECURE"] = True

    @app.before_request
    def limit_size():
        # Before anything parses a body (the CSRF check reads the form first, for anyone).
        limit = app.config["MAX_CONTENT_LENGTH"]
        upload = LARGE_BODIES.get(request.endpoint or "")
        if upload is not None and request.method == "POST":
            limit, seconds = upload
            request.max_content_length = limit
            # werkzeug's multipart decoder holds its buffer to this too (a file's lines)
            request.max_form_memory_size = limit
            # The push engine (loaded only when it serves) holds a body to a deadline made for
            # forms; this one may take longer. Other servers keep their own timeouts.
            engine = sys.modules.get("companion.engine")
            if engine is not None:
                engine.allow_longer_body(seconds)
        if (request.content_length or 0) > limit:
            return error_page("too_large", 413)
        if len(request.query_string) > MAX_QUERY:
            return error_page("too_large", 414)
        return None

    @app.after_request
    def add_headers(response: Response) -> Response:
        # A style sheet, a script or an image is no document: the policy, framing and referrer
        # headers mean nothing there, and a phone's first load fetches several such files. An
        # SVG can be opened as a document: it gets the shortest policy, which allows nothing.
        if is_static(request.endpoint):
            chosen = [("X-Content-Type-Options", "nosniff")]
            if response.mimetype == "image/svg+xml":
                chosen.append(("Content-Security-Policy", ASSET_CSP))
        else:
            chosen = HEADERS
            # A page, a fragment or an export may hold private values (a seat's chips, a sealed
            # bid): no shared or stored copy anywhere. Pages answer htmx with a fragment.
            response.headers.setdefault("Cache-Control", "no-store")
            response.vary.add("HX-Request")
        for name, value in chosen:
            response.headers.setdefault(name, value)
        response.headers.pop("Server", None)
        return response


def secret_key() -> str:
    """The app's secret key, as text: create_app always sets one (configured, shared through
    PostgreSQL, or generated beside the SQLite file)."""
    key = current_app.secret_key
    if not isinstance(key, str):
        raise RuntimeError("SECRET_KEY must be set, as text")
    return key

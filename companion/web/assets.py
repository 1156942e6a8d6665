"""Static files: versioned URLs that phones may cache for a year, and compressed answers.

Every url_for() of a static file (the core's or a game package's) carries ?v=<hash of the file>,
so a changed file gets a new URL; a request with that argument is answered with a year-long,
immutable cache header. Pages, fragments and static files are compressed (Flask-Compress: brotli,
zstd or gzip, whichever the phone accepts): a phone's first load is a third of its raw size.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Iterator
from functools import lru_cache

from flask import Flask, request
from flask_compress import Compress
from jinja2.ext import Extension
from jinja2.lexer import Token, TokenStream
from markupsafe import Markup

YEAR = 60 * 60 * 24 * 365
compress = Compress()


COMPRESSIBLE = (
    "text/html",
    "text/css",
    "text/javascript",
    "application/javascript",
    "application/json",
    "image/svg+xml",
    "text/csv",
    "text/plain",
)


@lru_cache(maxsize=256)
def _compressed(path: str, mtime: float, encoding: str) -> bytes:
    """A static file as phones get it, once per file, version and encoding: scripts and style
    sheets minified (rjsmin, rcssmin: comments and spaces out, nothing renamed), then
    compressed at the encoding's best level: brotli where the phone takes it (https), gzip (by
    zopfli) on a plain http address, where browsers take no brotli (a phone at the table)."""
    with open(path, "rb") as fh:
        data = minified(path, fh.read())
    if encoding == "br":
        import brotli

        return brotli.compress(data, quality=11)
    import zopfli.gzip

    return zopfli.gzip.compress(data)


def minified(path: str, data: bytes) -> bytes:
    """A script or style sheet without its comments and spaces; any other file as it is. A
    generated script with a twin made from it by terser (scripts/minify_js.py: `<name>.min.js`
    beside it, its first line naming this file's SHA-256) is served as that twin: terser also
    renames the app's local names (1.4 KB less of a phone's first load)."""
    if path.endswith(".js") and not path.endswith(".min.js"):
        twin = served_twin(path, data)
        if twin is not None:
            return twin
        import rjsmin

        return rjsmin.jsmin(data)
    if path.endswith(".css"):
        import rcssmin

        return rcssmin.cssmin(data)
    return data


# A minified twin's first line (scripts/minify_js.py writes it): the script it was made from.
TWIN_HEAD = "// minified by terser from {name} sha256:{digest}\n"
_TWIN_HEAD = re.compile(rb"// minified by terser from \S+ sha256:([0-9a-f]{64})\n")


def twin_path(path: str) -> str:
    """Where a script's minified twin lives: app.js -> app.min.js, beside it."""
    return path[: -len(".js")] + ".min.js"


def served_twin(path: str, data: bytes) -> bytes | None:
    """The code of the script's twin (its first line aside) if that line names `data` (the
    script's bytes) as what it was made from; None without a twin or for a stale one."""
    try:
        with open(twin_path(path), "rb") as fh:
            twin = fh.read()
    except OSError:
        return None
    head = _TWIN_HEAD.match(twin)
    if head is None or head.group(1).decode() != hashlib.sha256(data).hexdigest():
        return None
    return twin[head.end() :]


@lru_cache(maxsize=512)
def _file_version(path: str, mtime: float) -> str:
    with open(path, "rb") as fh:
        return hashlib.sha256(fh.read()).hexdigest()[:12]


_LINE_BREAK = re.compile(r"\s*\n\s*")


class CollapseWhitespace(Extension):
    """Templates' own text with each run of white space that holds a line break made one line
    break: the indentation of the template source and the blank lines its tags leave out of every
    page (a tenth of a table page, 0.2-0.3 KB of it gzipped). Done once, as a template is
    compiled, to the template's text alone: what an expression writes is never touched, and
    white space stays white space (a browser shows a run of it as one space; no page of ours has
    its text in <pre> or in white-space: pre). A {% trans %} block is left as it is (its text is
    its message id)."""

    def filter_stream(self, stream: TokenStream) -> Iterator[Token]:
        in_trans = False
        previous: Token | None = None
        for token in stream:
            if previous is not None and previous.type == "block_begin" and token.type == "name":
                if token.value == "trans":
                    in_trans = True
                elif token.value == "endtrans":
                    in_trans = False
            if token.type == "data" and not in_trans:
                token = Token(token.lineno, "data", _LINE_BREAK.sub("\n", token.value))
            previous = token
            yield token


def is_static(endpoint: str | None) -> bool:
    """Whether an endpoint serves static files (the app's or a game package's)."""
    return endpoint is not None and (endpoint == "static" or endpoint.endswith(".static"))


def _static_folder(app: Flask, endpoint: str) -> str | None:
    if endpoint == "static":
        return app.static_folder
    blueprint = app.blueprints.get(endpoint.rsplit(".", 1)[0])
    return blueprint.static_folder if blueprint is not None else None


def table_sheet(game) -> tuple[str, bool]:
    """The style sheet of a phone's table and join pages of a game (a GameInfo), and whether it
    holds the game's own rules: the game's table.css (table.css and its own sheet in one,
    scripts/bundle_css.py), or the core's table.css for a game without one (its _head.html
    then links its own sheet as on every other page)."""
    from flask import current_app, url_for

    endpoint = f"{game.name}.static"
    folder = _static_folder(current_app, endpoint)
    if folder and os.path.exists(os.path.join(folder, "table.css")):
        return url_for(endpoint, filename="table.css"), True
    return url_for("static", filename="css/table.css"), False


def table_script(game) -> tuple[str, bool]:
    """The script of a phone's table and join pages of a game (a GameInfo), and whether it holds
    the game's own: the game's table.js (its script and app.js in one, scripts/bundle_js.py), or
    app.js for a game without one."""
    from flask import current_app, url_for

    endpoint = f"{game.name}.static"
    folder = _static_folder(current_app, endpoint)
    if folder and os.path.exists(os.path.join(folder, "table.js")):
        return url_for(endpoint, filename="table.js"), True
    return url_for("static", filename="js/app.js"), False


@lru_cache(maxsize=1)
def _icon_uri(path: str, mtime: float) -> Markup:
    import urllib.parse

    with open(path, encoding="utf-8") as fh:
        svg = " ".join(fh.read().split()).replace('"', "'")
    # Safe in a double-quoted attribute as it is: no '"' nor '&' (quoted), "<" and ">" mean
    # nothing there; escaping them would cost bytes of every page.
    return Markup("data:image/svg+xml," + urllib.parse.quote(svg, safe=" =:/'<>,.-"))


def icon_uri() -> Markup:
    """The site's icon (static/favicon.svg) as a data: address, written into each page's head:
    a browser asks for the icon of every page it opens, and in the page it costs a phone about a
    fifth of what the icon's own response did (its headers, its gzip stream). The file stays
    for whatever links it (the CSP allows data: images)."""
    from flask import current_app

    path = os.path.join(current_app.static_folder or "", "favicon.svg")
    return _icon_uri(path, os.path.getmtime(path))


def init_app(app: Flask) -> None:
    """Versioned static URLs, long caching for them, and compression of every answer."""
    app.config.setdefault("COMPRESS_ALGORITHM", ["br", "zstd", "gzip", "deflate"])
    app.config.setdefault("COMPRESS_ALGORITHM_STREAMING", ["br", "zstd", "deflate"])
    app.config.setdefault("COMPRESS_MIMETYPES", list(COMPRESSIBLE))
    # Pages are compressed per request: brotli 5 makes a table page 11% smaller than the
    # default 4 for 0.15 ms more (level 9 costs 10 ms).
    app.config.setdefault("COMPRESS_BR_LEVEL", 5)
    compress.init_app(app)
    app.jinja_env.add_extension(CollapseWhitespace)
    app.jinja_env.globals["table_sheet"] = table_sheet
    app.jinja_env.globals["table_script"] = table_script
    app.jinja_env.globals["icon_uri"] = icon_uri

    @app.url_defaults
    def add_version(endpoint: str, values: dict) -> None:
        if not is_static(endpoint) or "v" in values:
            return
        folder = _static_folder(app, endpoint)
        filename = values.get("filename")
        if folder is None or not filename:
            return
        path = os.path.join(folder, filename)
        try:
            values["v"] = _file_version(path, os.path.getmtime(path))
        except OSError:
            return  # a missing file: Flask answers 404 when it is asked for

    @app.after_request
    def cache_versioned(response):
        endpoint = request.endpoint or ""
        static = is_static(endpoint)
        # 206: a part of one, as a video is asked for (Range: bytes=0-, the keep-awake video on
        # a phone's first load): the same year-long caching, and no validators either.
        if static and request.args.get("v") and response.status_code in (200, 206):
            response.cache_control.public = True
            response.cache_control.max_age = YEAR
            response.cache_control.immutable = True
            # A versioned file is never asked for again (a changed file has another address):
            # what a browser would revalidate it by is bytes on every phone's first load.
            for name in ("Expires", "Last-Modified", "ETag", "Accept-Ranges"):
                response.headers.pop(name, None)
        if static:
            response.headers.pop("Content-Disposition", None)  # inline is the default
        return response

    @app.after_request
    def precompressed_static(response):
        # Registered after Flask-Compress, so it runs before it: a static file is minified and
        # compressed once per process at its encoding's best level (a page is compressed per
        # request at a quicker level), and Flask-Compress leaves an answer that already has an
        # encoding. Chromium sends no "br" to a plain http address: there it is gzip.
        endpoint = request.endpoint or ""
        if not is_static(endpoint):
            return response
        if response.status_code != 200 or response.mimetype not in COMPRESSIBLE:
            return response
        accepted = request.accept_encodings
        encoding = "br" if accepted["br"] else "gzip" if accepted["gzip"] else None
        if encoding is None:
            return response
        folder = _static_folder(app, endpoint)
        path = os.path.join(folder or "", (request.view_args or {}).get("filename", ""))
        try:
            body = _compressed(path, os.path.getmtime(path), encoding)
        except OSError:
            return response
        response.direct_passthrough = False
        response.set_data(body)
        response.headers["Content-Encoding"] = encoding
        response.vary.add("Accept-Encoding")
        etag, weak = response.get_etag()
        if etag:
            response.set_etag(f"{etag}:{encoding}", weak=weak)
        return response.make_conditional(request)  # a matching If-None-Match: 304

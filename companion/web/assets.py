"""Static files: versioned URLs that phones may cache for a year, and compressed answers.

Every url_for() of a static file (the core's or a game package's) carries ?v=<hash of the file>,
so a changed file gets a new URL; a request with that argument is answered with a year-long,
immutable cache header. Pages, fragments and static files are compressed (Flask-Compress: brotli,
zstd or gzip, whichever the phone accepts): a phone's first load is a third of its raw size.
"""

from __future__ import annotations

import hashlib
import os
from functools import lru_cache

from flask import Flask, request
from flask_compress import Compress

YEAR = 60 * 60 * 24 * 365
compress = Compress()


@lru_cache(maxsize=512)
def _file_version(path: str, mtime: float) -> str:
    with open(path, "rb") as fh:
        return hashlib.sha256(fh.read()).hexdigest()[:12]


def _static_folder(app: Flask, endpoint: str) -> str | None:
    if endpoint == "static":
        return app.static_folder
    blueprint = app.blueprints.get(endpoint.rsplit(".", 1)[0])
    return blueprint.static_folder if blueprint is not None else None


def init_app(app: Flask) -> None:
    """Versioned static URLs, long caching for them, and compression of every answer."""
    app.config.setdefault("COMPRESS_ALGORITHM", ["br", "zstd", "gzip", "deflate"])
    app.config.setdefault("COMPRESS_ALGORITHM_STREAMING", ["br", "zstd", "deflate"])
    app.config.setdefault(
        "COMPRESS_MIMETYPES",
        [
            "text/html",
            "text/css",
            "text/javascript",
            "application/javascript",
            "application/json",
            "image/svg+xml",
            "text/csv",
            "text/plain",
        ],
    )
    compress.init_app(app)

    @app.url_defaults
    def add_version(endpoint: str, values: dict) -> None:
        if not (endpoint == "static" or endpoint.endswith(".static")) or "v" in values:
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
        is_static = endpoint == "static" or endpoint.endswith(".static")
        if is_static and request.args.get("v") and response.status_code == 200:
            response.cache_control.public = True
            response.cache_control.max_age = YEAR
            response.cache_control.immutable = True
        return response

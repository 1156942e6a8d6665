"""Error pages: every error answer is a readable page in the reader's language, and producing it
never raises.

An error page never echoes the request's address (its language links carry next=/), and when
routing failed (an invalid Host header leaves Flask without a URL adapter, so url_for cannot
build anything) the page is a plain one whose links are written out, not built.
"""

from __future__ import annotations

import logging

from flask import Flask, Response, g, make_response, render_template
from flask.globals import request_ctx
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import RequestEntityTooLarge

log = logging.getLogger(__name__)


def routed() -> bool:
    """Whether url_for can build addresses in this request (the Host header was valid)."""
    return request_ctx.url_adapter is not None


def error_page(kind: str, status: int, **context) -> Response:
    """The error page of this kind ("csrf", "not_found", "server", "too_large", "table": then
    context["message"] says what went wrong), with this status."""
    g.error_page = True  # base.html's language links then lead home, not back here
    if routed():
        try:
            return make_response(render_template("error.html", error_kind=kind, **context), status)
        except Exception:  # an error page must answer whatever went wrong before it
            log.exception("the error page failed; answering with the plain one")
    return plain_page(kind, status, **context)


def plain_page(kind: str, status: int, **context) -> Response:
    """The error page without anything url_for builds (links written out)."""
    try:
        body = render_template("error_plain.html", error_kind=kind, **context)
    except Exception:
        log.exception("the plain error page failed")
        body = "<!doctype html><title>Error</title><p>Error. <a href='/'>Home</a></p>"
    return Response(body, status=status, mimetype="text/html")


def init_app(app: Flask) -> None:
    """The error handlers of the app."""

    @app.errorhandler(CSRFError)
    def csrf_error(error: CSRFError):
        return error_page("csrf", 400)

    @app.errorhandler(404)
    def not_found(error):
        return error_page("not_found", 404)

    @app.errorhandler(RequestEntityTooLarge)
    def too_large(error):
        return error_page("too_large", 413)

    @app.errorhandler(500)
    def server_error(error):
        log.exception("server error")
        return error_page("server", 500)

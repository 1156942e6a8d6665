"""url_for for templates, its answers kept per process: a live region asks for a dozen
addresses (the table's page, its poll, its forms), the same for every phone at a table, and
building one through Werkzeug's routing costs more than the rest of its line.

An address is kept under everything it is made from: the endpoint, the values, and the
request's address prefix (a proxy's SCRIPT_NAME). Not kept: a relative endpoint (".x": it
depends on the request's blueprint), an external address (the request's host), anything with a
special value (_anchor, _method...) and static files (their version comes from the file's time).
"""

from __future__ import annotations

from typing import Any

from flask import current_app, request, url_for

from companion.web.assets import is_static

LIMIT = 50_000  # kept addresses per app (a few MB); all dropped when full


def kept_url_for(endpoint: str, **values: Any) -> str:
    """url_for(endpoint, **values), kept (see the module's docstring)."""
    if endpoint[:1] == "." or is_static(endpoint) or any(name[:1] == "_" for name in values):
        return url_for(endpoint, **values)
    kept: dict[tuple, str] = current_app.extensions["companion.links"]
    key = (request.script_root, endpoint, *sorted(values.items()))
    try:
        found = kept.get(key)
    except TypeError:  # a value that cannot be a key (a list of values): not kept
        return url_for(endpoint, **values)
    if found is None:
        if len(kept) >= LIMIT:
            kept.clear()
        found = kept[key] = url_for(endpoint, **values)
    return found


def init_app(app) -> None:
    """Templates' url_for keeps its answers (each app its own: their routes may differ)."""
    app.extensions["companion.links"] = {}
    app.jinja_env.globals["url_for"] = kept_url_for

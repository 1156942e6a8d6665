"""The table: join by QR code, the live page of a seat or the host, actions, notes, undo, the
host's tools, polling. One blueprint (/t/<code>/...), its routes in the modules of this package:

    access.py   who may open a table's pages: load_table, who, and the guard table_route
    live.py     the live region: what it is rendered from, rendered whole or for htmx
    pages.py    the table page, the poll, the history, the seats, the manifest, QR, join
    actions.py  a game action, a note, an undo
    host.py     the host's tools (/host/...): lock, show all, free, rename, hand-over, display

Every route takes the role it requires from table_route (access.py), as flaskr's views take
login_required.
"""

from __future__ import annotations

from flask import Blueprint

bp = Blueprint("table", __name__, url_prefix="/t/<code>")

from companion.web.table import actions, host, pages  # noqa: E402, F401  (their routes)
from companion.web.table.access import (  # noqa: E402
    Who,
    display_cookie,
    guesser,
    host_cookie,
    load_table,
    page_args,
    refuse,
    seat_cookie,
    set_token_cookie,
    table_route,
    unknown_code,
    who,
)
from companion.web.table.live import live_context, render_live, seats_shown  # noqa: E402

__all__ = [
    "Who",
    "bp",
    "display_cookie",
    "guesser",
    "host_cookie",
    "live_context",
    "load_table",
    "page_args",
    "refuse",
    "render_live",
    "seats_shown",
    "seat_cookie",
    "set_token_cookie",
    "table_route",
    "unknown_code",
    "who",
]

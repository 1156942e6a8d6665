"""The table display: a read-only, large-type view of the public state for a tablet or a TV in
the middle of the table, opened by the host's display link (rotatable: a new link makes the old
one stop working). It needs no seat, shows what the table view shows (never a private value),
acts on nothing, and follows the table live."""

from __future__ import annotations

from flask import Blueprint, Response, abort, render_template, request

from companion import get_db, tables
from companion.web.table import Who, live_context, load_table

bp = Blueprint("display", __name__, url_prefix="/t/<code>/display")
LINES_SHOWN = 5


def _display_who(code: str) -> Who:
    table = load_table(code)
    if not tables.is_display(get_db(), table, request.args.get("key")):
        abort(404)
    return Who(table, seat=None, host=False, acting_for=None, reveal=False)


def _context(w: Who) -> dict:
    context = live_context(w)
    context.update(
        display=True, key=request.args.get("key"), history=context["history"][:LINES_SHOWN]
    )
    return context


@bp.get("/")
def page(code: str):
    """The display page."""
    return render_template("table/display.html", **_context(_display_who(code)))


@bp.get("/live")
def live(code: str):
    """The display's poll: empty while the table is unchanged, else the new display region."""
    w = _display_who(code)
    if request.args.get("v", type=int) == w.table.version:
        return Response(b"", headers={"HX-Reswap": "none", "Cache-Control": "no-store"})
    return render_template("table/_display_live.html", **_context(w))


@bp.get("/push")
def push(code: str):
    """The display's push stream, for what reaches Flask: answered before Flask (push.py) where
    streams are served, so here either the key is wrong (404, as for the display's poll) or this
    server does not serve streams (204: the page polls)."""
    _display_who(code)
    return Response(status=204, headers={"Cache-Control": "no-store"})

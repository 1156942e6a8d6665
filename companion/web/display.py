"""The table display: a read-only, large-type view of the public state for a tablet or a TV in
the middle of the table, opened by the host's display link (rotatable: a new link makes the old
one stop working). It needs no seat, shows what the table view shows (never a private value),
acts on nothing, and follows the table live."""

from __future__ import annotations

from dataclasses import replace

from flask import Blueprint, Response, render_template, request

from companion.web.table import Who, live_context, table_route

bp = Blueprint("display", __name__, url_prefix="/t/<code>/display")
LINES_SHOWN = 5


def _context(w: Who) -> dict:
    # The display shows the table's view, whatever else the device may hold (a seat, the host).
    context = live_context(replace(w, seat=None, host=False, acting_for=None, reveal=False))
    context.update(
        display=True, key=request.args.get("key"), history=context["history"][:LINES_SHOWN]
    )
    return context


@bp.get("/")
@table_route("display")
def page(w: Who):
    """The display page."""
    return render_template("table/display.html", **_context(w))


@bp.get("/live")
@table_route("display")
def live(w: Who):
    """The display's poll: empty while the table is unchanged, else the new display region."""
    if request.args.get("v", type=int) == w.table.version:
        return Response(b"", headers={"HX-Reswap": "none", "Cache-Control": "no-store"})
    return render_template("table/_display_live.html", **_context(w))

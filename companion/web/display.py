"""The table display: a large-type view of the public state for a TV or a tablet in the middle of
the table. It is opened by one of the host's display links (?key=; a table may have several) or,
on the device that handed the host role over and stayed at the table, by its own cookie. It needs
no seat, shows what the table view shows (never a private value), follows the table live and
the rematch; the device that stayed at the table may also enter what anyone at the table may
enter (a card turned up), and nothing else."""

from __future__ import annotations

from flask import Blueprint, Response, abort, redirect, request, url_for

from companion import get_db, tables
from companion.web.table import Who, display_cookie, table_route
from companion.web.table.live import render_display

bp = Blueprint("display", __name__, url_prefix="/t/<code>/display")


@bp.get("/")
@table_route("display")
def page(w: Who):
    """The display page."""
    return render_display(w)


@bp.get("/live")
@table_route("display")
def live(w: Who):
    """The display's poll: empty while the table is unchanged, else the new display region."""
    if request.args.get("v", type=int) == w.table.version:
        return Response(b"", headers={"HX-Reswap": "none", "Cache-Control": "no-store"})
    return render_display(w)


@bp.post("/leave")
@table_route("display")
def leave(w: Who):
    """The table display that stayed at the table leaves it: its credential stops working."""
    if not w.table_device:
        abort(400)
    code = w.table.code
    tables.drop_display(get_db(), w.table, request.cookies.get(display_cookie(code)))
    response = redirect(url_for("lobby.home"))
    response.delete_cookie(display_cookie(code), path=f"/t/{code}")
    return response


@bp.get("/push")
@table_route("display")
def push(w: Who):
    """The display's push stream, for what reaches Flask: answered before Flask (push.py) where
    streams are served, so a display here is on a server that does not serve them: 204, which
    tells the page's EventSource to stop (the page polls). A wrong key: 404, as the display's
    poll answers."""
    return Response(status=204, headers={"Cache-Control": "no-store"})

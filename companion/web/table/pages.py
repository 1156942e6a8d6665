"""The table's pages: the table page (the host's table view or a phone's seat), the poll, the
whole history, the seats list, the manifest, the join QR code and the join page.
"""

from __future__ import annotations

import json
import secrets
import time

from flask import Response, abort, make_response, redirect, render_template, request, url_for

from companion import get_db, i18n, qr, tables
from companion.forms import PLAIN_TEXT, TakeSeatForm
from companion.games.base import N_, Msg
from companion.web import device
from companion.web.table import bp
from companion.web.table.access import (
    Who,
    page_args,
    refuse,
    seat_cookie,
    set_token_cookie,
    table_route,
)
from companion.web.table.live import (
    invite_context,
    live_context,
    mark_presence,
    note_viewing,
    render_live,
    seats_shown,
)
from companion.web.table.region import clock_context


def elsewhere(w: Who) -> str | None:
    """Where a device without a seat that has another part at this table belongs: the device
    that handed the host role over is told so (and may stay as the table display); the table
    display that stayed at the table, its display. None for any other device."""
    if w.handed and not w.table_device:
        return url_for("table.handed", code=w.table.code)
    if w.table_device:
        return url_for("display.page", code=w.table.code)
    return None


def _to_join(w: Who):
    return redirect(elsewhere(w) or url_for("table.join", code=w.table.code))


def _to_join_or_told(w: Who):
    """A device without a seat: to the join page (lost=1 when its seat cookie no longer holds),
    or, for a phone that followed a rematch to its person's seat taken by another, why not; the
    device that handed the host role over, or the table display, where it belongs (elsewhere)."""
    table = w.table
    target = elsewhere(w)
    if target:
        return redirect(target)
    followed = request.args.get("followed", type=int)
    if followed is not None and 1 <= followed <= table.players:
        refuse(
            409,
            Msg(
                N_(
                    "Your seat at the rematch (seat %(n)s) is already taken by another "
                    "phone. Ask the host to free it, or pick a free seat."
                ),
                n=followed,
            ),
            join_url=url_for("table.join", code=table.code),
        )
    return redirect(
        url_for(
            "table.join",
            code=table.code,
            lost=1 if request.cookies.get(seat_cookie(table.code)) else None,
        )
    )


@bp.get("/")
@table_route("member", otherwise=_to_join_or_told)
def page(w: Who):
    """The table page: the host's table view, or a phone's own seat."""
    return render_live(w)


def _poll_to_join(w: Who | None) -> Response:
    """A poll from a device without a seat, or of a code no table has: the same answer (go to the
    join page), so that it tells a stranger nothing."""
    code = (request.view_args or {}).get("code", "") if w is None else w.table.code
    response = Response(status=204)
    response.headers["HX-Redirect"] = (w is not None and elsewhere(w)) or url_for(
        "table.join", code=tables.normalize_code(code)[:12] or "X", lost=1
    )
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/live")
@table_route("member", otherwise=_poll_to_join, quiet=True)
def live(w: Who):
    """The poll (an unchanged table is answered before Flask, see fastpath.py): the new live
    region for a member. A device without a seat gets the same answer whether the code exists
    or not (go to the join page), and an unknown code counts against it like a typed one."""
    if request.args.get("v", type=int) == w.table.version:
        return Response(b"", headers={"HX-Reswap": "none", "Cache-Control": "no-store"})
    return render_template("table/_live.html", **live_context(w, handed_to=note_viewing(w)))


@bp.get("/push")
@table_route("member", otherwise=_poll_to_join, quiet=True)
def push(w: Who):
    """The push stream, for what reaches Flask: a member's stream is answered before Flask
    (companion/web/push.py) wherever streams are served, so a member here is on a server that
    does not serve them: 204, which tells the page's EventSource to stop (the page polls). A
    stranger gets what /live gives a stranger, and nothing more."""
    return Response(status=204, headers={"Cache-Control": "no-store"})


@bp.get("/history")
@table_route("member", otherwise=_to_join)
def history(w: Who):
    """The whole history of the table, newest first (the table page shows the last few lines)."""
    table = w.table
    db = get_db()
    log = tables.events(db, table)[::-1]
    return render_template(
        "table/history.html",
        table=table,
        history=log,
        history_total=len(log),
        names=[s.name for s in seats_shown(db, table)],
        args=page_args(w),
        # once the game is over, each line opens the replay at that moment
        replay_args={} if table.ended is not None else None,
    )


@bp.get("/seats")
@table_route("member", otherwise=lambda w: Response(status=204))
def seats_fragment(w: Who):
    """The seats list alone, with who is online: presence changes with time, not with the
    table's version, so each page asks for it every ten seconds."""
    table = w.table
    seat_rows = seats_shown(get_db(), table)
    mark_presence(w, table, seat_rows)
    now = time.time()
    return render_template(
        "table/_seats.html",
        table=table,
        seats=seat_rows,
        who=w,
        args=page_args(w),
        now=now,
        clock=clock_context(get_db(), table, now),
    )


@bp.get("/manifest.webmanifest")
@table_route("open")
def manifest(w: Who):
    """Add to home screen: the app opens on this table."""
    table = w.table
    icons = [
        {
            "src": url_for("static", filename=f"icons/icon-{size}.png"),
            "sizes": f"{size}x{size}",
            "type": "image/png",
        }
        for size in (192, 512)
    ]
    data = {
        "name": f"{i18n.game_label(table.game)} · {table.code}",
        "short_name": table.code,
        "start_url": url_for("table.page", code=table.code),
        "scope": "/",
        "display": "standalone",
        "background_color": "#f4f1ea",
        "theme_color": "#2f6f4f",
        "icons": icons,
    }
    return Response(json.dumps(data, ensure_ascii=False), mimetype="application/manifest+json")


@bp.get("/qr.svg")
@table_route("open")
def qr_svg(w: Who):
    """The join QR code as SVG (it carries the join secret): for the table's members and its
    display, while joining is open, and only for the current join link (its first characters
    in `k`), so a new join link makes the old image's address answer 404."""
    table = w.table
    k = request.args.get("k", "")
    current = len(k) == 8 and secrets.compare_digest(k.encode(), table.join_secret[:8].encode())
    if not (w.member or w.display) or table.locked or not current:
        abort(404)
    svg = qr.svg(invite_context(table)["join_url"])
    return Response(svg, mimetype="image/svg+xml", headers={"Cache-Control": "no-store"})


@bp.route("/join", methods=["GET", "POST"])
@table_route("open")
def join(w: Who):
    """A phone picks a free seat (optionally typing its name) and keeps it in a cookie."""
    table = w.table
    if w.seat is not None:  # this phone already sits here: one seat per phone
        return redirect(url_for("table.page", code=table.code))
    form = TakeSeatForm()
    error = None
    if form.validate_on_submit():
        try:
            seat = form.seat.number
            token = tables.join(get_db(), table, seat, (form.name.data or "").strip())
        except tables.TableError as exc:
            error = exc.msg
        else:
            response = redirect(url_for("table.page", code=table.code))
            set_token_cookie(response, seat_cookie(table.code), token, table.code)
            device.remember(table.code, "seat", seat, token)
            return response
    elif request.method == "POST":
        error = Msg(PLAIN_TEXT if form.name.errors else N_("Pick one of the free seats."))
    table = tables.get_table(get_db(), table.code)
    status = 200 if error is None else 400
    lost = request.args.get("lost") == "1"
    return make_response(
        render_template(
            "table/join.html",
            table=table,
            seats=seats_shown(get_db(), table),
            form=form,
            error=error,
            lost=lost,
            who=w,
            **invite_context(table),
        ),
        status,
    )

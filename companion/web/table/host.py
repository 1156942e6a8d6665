"""The host's tools: lock joining, "show all", free or rename a seat, hand the host role to
another device, and make a link for the table display. Part of the table's routes
(/t/<code>/host/...): the host's device only, except taking over with a hand-over link, and the
device that handed over choosing to stay as the table display or to leave."""

from __future__ import annotations

import secrets
import time

from flask import g, redirect, render_template, request, url_for

from companion import get_db, qr, tables
from companion.forms import PLAIN_TEXT, RenameSeatForm
from companion.games.base import N_, Msg, Seat
from companion.plaintext import has_control
from companion.web import device
from companion.web.adapter import adapter_of
from companion.web.table import bp
from companion.web.table.access import (
    Who,
    display_cookie,
    host_cookie,
    page_args,
    set_token_cookie,
    table_route,
)
from companion.web.table.live import (
    after_change,
    base_url,
    render_live,
    seats_shown,
    submission_key,
)


def _switch_to(now: bool) -> bool:
    """The state a switch's button asks for (?on=1 or 0: what the page offered, so a double tap
    asks for the same thing twice), or the other one for a link without it."""
    wanted = request.args.get("on")
    return wanted == "1" if wanted in ("0", "1") else not now


@bp.errorhandler(tables.KeyReused)
def key_reused(refused: tables.KeyReused):
    """A submission key used already for another entry (companion.tables.writes): the live
    region with the refusal, 409, nothing applied; for every route of the table's blueprint
    that does not answer it itself (the host's tools)."""
    return render_live(g.who, error=refused.msg, status=409)


@bp.post("/host/lock")
@table_route("host")
def lock(w: Who):
    """Lock or unlock joining."""
    table = w.table
    tables.set_locked(get_db(), table, _switch_to(table.locked), key=submission_key())
    return after_change(w)


@bp.post("/host/reveal")
@table_route("host")
def reveal(w: Who):
    """Switch "show all" (everyone's private values on the host's screen) on or off.

    A POST stored with the table, not a link: each switch-on is written in the history, so the
    players know when the host's device (often a player's phone) showed their secrets.
    """
    table = w.table
    line = adapter_of(table.game).show_all_line
    if line is None:
        return render_live(
            w,
            error=Msg(
                N_(
                    "This game keeps nothing hidden from the host's "
                    "screen, so there is nothing more to show."
                )
            ),
        )
    on = _switch_to(table.reveal)
    tables.set_reveal(get_db(), table, on, Msg(line), key=submission_key())
    w.reveal = on
    return after_change(w)


@bp.post("/host/free/<int:seat>")
@table_route("host")
def free(w: Who, seat: int):
    """Free a seat: the phone that held it is sent back to the join page."""
    table = w.table
    if not 0 <= seat < table.players:
        return render_live(w, error=Msg(N_("The request was incomplete; try again.")))
    tables.free_seat(get_db(), table, seat, key=submission_key())
    return after_change(w)


@bp.post("/host/rename/<int:seat>")
@table_route("host")
def rename(w: Who, seat: int):
    """Rename a seat (the host types the names of players without phones)."""
    table = w.table
    form = RenameSeatForm()
    if not form.validate_on_submit() or not 0 <= seat < table.players:
        wrong = N_("Type a name of at most 24 characters.")
        if has_control(form.name.data or ""):
            wrong = PLAIN_TEXT
        return render_live(w, error=Msg(wrong))
    tables.rename_seat(get_db(), table, seat, form.name.data.strip(), key=submission_key())
    return after_change(w)


@bp.post("/host/handover")
@table_route("host")
def handover(w: Who):
    """Make a one-time link (and QR code) with which another device becomes the host."""
    table = w.table
    token = tables.start_handover(get_db(), table)
    url = f"{base_url()[0]}{url_for('table.take_host', code=table.code, token=token)}"
    return render_live(w, link_box={"kind": "handover", "url": url, "qr": qr.svg(url)})


@bp.route("/host/take", methods=["GET", "POST"])
@table_route("open")
def take_host(w: Who):
    """The device that opened a hand-over link confirms, and becomes the host."""
    table = w.table
    token = request.values.get("token", "")
    error = None
    if request.method == "POST":
        try:
            host_token = tables.claim_host(
                get_db(),
                table,
                token,
                Msg.core(N_("The host role moved to another device."))
                if w.seat is None
                else Msg.core(N_("%(seat)s's phone is the host now."), seat=Seat(w.seat)),
                seat=w.seat,
            )
        except tables.TableError as refused:
            error = refused.msg
        else:
            response = redirect(url_for("table.page", code=table.code))
            set_token_cookie(response, host_cookie(table.code), host_token, table.code)
            device.remember(table.code, "host")
            return response
    return render_template("table/take_host.html", table=table, token=token, error=error, who=w), (
        200 if error is None else 403
    )


@bp.post("/host/display")
@table_route("host")
def display_link(w: Who):
    """A new link (and QR code) for a table display; the links made before keep working."""
    table = w.table
    token = tables.new_display_token(get_db(), table)
    url = f"{base_url()[0]}{url_for('display.page', code=table.code, key=token)}"
    return render_live(w, link_box={"kind": "display", "url": url, "qr": qr.svg(url)})


# --- the device that handed the host role over ---------------------------------------------------


@bp.get("/host/handed")
@table_route("handed")
def handed(w: Who):
    """The device that handed the host role over is told to whom, and chooses: stay at the table
    as its display, or leave (or take a free seat)."""
    table = w.table
    db = get_db()
    seats = seats_shown(db, table)
    to = tables.new_host_seat(db, table)
    return render_template(
        "table/handed.html",
        table=table,
        who=w,
        new_host=seats[to].name if to is not None else None,
        may_join=w.seat is None and not table.locked and any(not s.taken for s in seats),
    )


@bp.post("/host/stay")
@table_route("handed")
def stay(w: Who):
    """The device that handed over stays as the table display: its old host token becomes the
    credential in its display cookie (a display credential already, see tables.claim_host)."""
    code = w.table.code
    response = redirect(url_for("display.page", code=code))
    set_token_cookie(response, display_cookie(code), request.cookies[host_cookie(code)], code)
    response.delete_cookie(host_cookie(code), path=f"/t/{code}")
    device.remember(code, "display")  # it keeps the table's record (/plays, the summary)
    return response


@bp.post("/host/leave")
@table_route("handed")
def leave(w: Who):
    """The device that handed over leaves the table: its old token stops working at all."""
    code = w.table.code
    tables.drop_display(get_db(), w.table, request.cookies.get(host_cookie(code)))
    response = redirect(url_for("lobby.home"))
    response.delete_cookie(host_cookie(code), path=f"/t/{code}")
    return response


@bp.post("/host/join-link")
@table_route("host")
def join_link(w: Who):
    """A new secret in the QR code's join link: phones that scanned the old one must type the
    code (or scan again) to join. The page reloads to show the new QR code."""
    table = w.table
    tables.new_join_secret(get_db(), table)
    return redirect(url_for("table.page", code=table.code, **page_args(w)) + "#invite")


@bp.post("/host/clock")
@table_route("host")
def clock(w: Who):
    """Pause the table clock for a break (?pause=1) or resume it (?pause=0): a history line,
    nobody's time while paused, no form made stale. The same tap twice acts once."""
    table = w.table
    paused = request.args.get("pause") != "0"
    line = Msg.core(N_("The host paused the clock.") if paused else N_("The clock runs again."))
    tables.set_paused(get_db(), table, paused, line, when=time.time(), key=submission_key())
    return after_change(w)


@bp.post("/clock/ask")
@table_route("member")
def ask_break(w: Who):
    """A player asks the host for a break: a history line, and the host's device shows who
    asked beside its pause button."""
    if w.seat is None:
        return after_change(w)
    line = Msg.core(N_("%(seat)s asks for a break."), seat=Seat(w.seat))
    tables.ask_pause(get_db(), w.table, w.seat, line, when=time.time())
    return after_change(w)


@bp.post("/setup/tick")
@table_route("member")
def tick(w: Who):
    """Tick or untick a line of the set-up guide (?step=key&on=1 or 0), for every device."""
    step = request.args.get("step", "")[:40]
    tables.set_tick(get_db(), w.table, step, request.args.get("on") != "0")
    return after_change(w)


@bp.post("/setup/pick")
@table_route("host")
def pick(w: Who):
    """Pick the start player at random, before the first move: a history line, and the game
    says what it means (its start player, or who takes seat 1)."""
    table = w.table
    seat = secrets.randbelow(table.players)
    # The seat, not its name: each reader reads it in their own language (a seat nobody named).
    # A game that seats the person picked first moves them (and their name) into seat 1.
    shown = 0 if table.game.rules.start_pick == "first-seat" else seat
    line = Msg.core(N_("Picked at random: %(name)s starts."), name=Seat(shown))
    tables.pick_start(get_db(), table, seat, line)
    return after_change(w)


@bp.post("/clock/begin")
@table_route("host")
def begin_clock(w: Who):
    """The table is set up: the clock starts now (else it starts with the first entry)."""
    line = Msg.core(N_("The table is set up: the clock runs."))
    tables.begin_clock(get_db(), w.table, line, when=time.time())
    return after_change(w)

"""The host's tools: lock joining, "show all", free or rename a seat, hand the host role to
another device, and make a link for the table display. Routes of the table blueprint
(/t/<code>/host/...): the host's device only, except taking over with a hand-over link."""

from __future__ import annotations

from flask import redirect, render_template, request, url_for
from flask_wtf import FlaskForm

from companion import get_db, qr, tables
from companion.forms import RenameSeatForm
from companion.games.base import N_, Msg
from companion.web import device
from companion.web.table import (
    Who,
    _after_change,
    base_url,
    bp,
    host_cookie,
    load_table,
    page_args,
    refuse,
    render_live,
    set_token_cookie,
    submission_key,
    who,
)


def _switch_to(now: bool) -> bool:
    """The state a switch's button asks for (?on=1 or 0: what the page offered, so a double tap
    asks for the same thing twice), or the other one for a link without it."""
    wanted = request.args.get("on")
    return wanted == "1" if wanted in ("0", "1") else not now


def _require_host(w: Who) -> None:
    if not w.host:
        refuse(403, Msg(N_("Only the host's device can do this.")))


@bp.post("/host/lock")
def lock(code: str):
    """Lock or unlock joining."""
    table = load_table(code)
    w = who(table)
    _require_host(w)
    if not FlaskForm().validate_on_submit():  # the CSRF token is all this form carries
        return render_live(w, error=Msg(N_("The request was incomplete; try again.")))
    tables.set_locked(get_db(), table, _switch_to(table.locked), key=submission_key())
    return _after_change(w)


@bp.post("/host/reveal")
def reveal(code: str):
    """Switch "show all" (everyone's private values on the host's screen) on or off.

    A POST stored with the table, not a link: each switch-on is written in the history, so the
    players know when the host's device (often a player's phone) showed their secrets.
    """
    table = load_table(code)
    w = who(table)
    _require_host(w)
    line = table.game.adapter.show_all_line
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
    if not FlaskForm().validate_on_submit():
        return render_live(w, error=Msg(N_("The request was incomplete; try again.")))
    on = _switch_to(table.reveal)
    tables.set_reveal(get_db(), table, on, Msg(line), key=submission_key())
    w.reveal = on
    return _after_change(w)


@bp.post("/host/free/<int:seat>")
def free(code: str, seat: int):
    """Free a seat: the phone that held it is sent back to the join page."""
    table = load_table(code)
    w = who(table)
    _require_host(w)
    if not FlaskForm().validate_on_submit() or not 0 <= seat < table.players:
        return render_live(w, error=Msg(N_("The request was incomplete; try again.")))
    tables.free_seat(get_db(), table, seat, key=submission_key())
    return _after_change(w)


@bp.post("/host/rename/<int:seat>")
def rename(code: str, seat: int):
    """Rename a seat (the host types the names of players without phones)."""
    table = load_table(code)
    w = who(table)
    _require_host(w)
    form = RenameSeatForm()
    if not form.validate_on_submit() or not 0 <= seat < table.players:
        return render_live(w, error=Msg(N_("Type a name of at most 24 characters.")))
    tables.rename_seat(get_db(), table, seat, form.name.data.strip(), key=submission_key())
    return _after_change(w)


@bp.post("/host/handover")
def handover(code: str):
    """Make a one-time link (and QR code) with which another device becomes the host."""
    table = load_table(code)
    w = who(table)
    _require_host(w)
    if not FlaskForm().validate_on_submit():
        return render_live(w, error=Msg(N_("The request was incomplete; try again.")))
    token = tables.start_handover(get_db(), table)
    url = f"{base_url()[0]}{url_for('table.take_host', code=table.code, token=token)}"
    return render_live(w, link_box={"kind": "handover", "url": url, "qr": qr.svg(url)})


@bp.route("/host/take", methods=["GET", "POST"])
def take_host(code: str):
    """The device that opened a hand-over link confirms, and becomes the host."""
    table = load_table(code)
    token = request.values.get("token", "")
    error = None
    if request.method == "POST":
        if not FlaskForm().validate_on_submit():
            error = Msg(N_("The request was incomplete; try again."))
        else:
            try:
                host_token = tables.claim_host(
                    get_db(),
                    table,
                    token,
                    Msg.core(N_("The host role moved to another device.")),
                )
            except tables.TableError as refused:
                error = refused.msg
            else:
                response = redirect(url_for("table.page", code=table.code))
                set_token_cookie(response, host_cookie(table.code), host_token, table.code)
                device.remember(table.code, "host")
                return response
    return render_template(
        "table/take_host.html", table=table, token=token, error=error, who=who(table)
    ), (200 if error is None else 403)


@bp.post("/host/display")
def display_link(code: str):
    """A new link (and QR code) for the table display; the previous link stops working."""
    table = load_table(code)
    w = who(table)
    _require_host(w)
    if not FlaskForm().validate_on_submit():
        return render_live(w, error=Msg(N_("The request was incomplete; try again.")))
    token = tables.new_display_token(get_db(), table)
    url = f"{base_url()[0]}{url_for('display.page', code=table.code, key=token)}"
    return render_live(w, link_box={"kind": "display", "url": url, "qr": qr.svg(url)})


@bp.post("/host/join-link")
def join_link(code: str):
    """A new secret in the QR code's join link: phones that scanned the old one must type the
    code (or scan again) to join. The page reloads to show the new QR code."""
    table = load_table(code)
    w = who(table)
    _require_host(w)
    if FlaskForm().validate_on_submit():
        tables.new_join_secret(get_db(), table)
    return redirect(url_for("table.page", code=table.code, **page_args(w)) + "#invite")

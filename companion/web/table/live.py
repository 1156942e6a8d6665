"""The live region of a table page: what it is rendered from (state, view, seats, history, forms,
undo), rendered whole or alone for htmx, and what every change answers with; and the table
display's region (the table's view, large, for a TV or the tablet that stays at the table).
"""

from __future__ import annotations

from dataclasses import replace
from urllib.parse import urlsplit

from flask import after_this_request, current_app, redirect, render_template, request, url_for

from companion import get_db, htmx, qr, tables
from companion.forms import NoteForm
from companion.games.base import Msg, Seat
from companion.i18n import reader_seats
from companion.web.adapter import adapter_of
from companion.web.table.access import Who, host_cookie, page_args
from companion.web.table.region import build_region, clock_context, guide_context

HISTORY_SHOWN = 5  # the newest lines on the table page; the rest on the history page
DISPLAY_LINES = 5  # the newest lines on the table display


def mark_presence(w: Who, table: tables.Table, seat_rows: list[tables.SeatRow]) -> None:
    """This device is at the table: note it for the seats list's online/away marks."""
    db = get_db()
    if w.host:
        tables.mark_seen(db, table.id, None, table.host_seen)
    if w.seat is not None:
        tables.mark_seen(db, table.id, w.seat, seat_rows[w.seat].seen)


def trace_host_look(w: Who, seat_rows: list[tables.SeatRow]) -> None:
    """The host's first look at the private view of a seat that has its own phone is written in
    the history (a seat without a phone is run from the host's device anyway). A seated host
    looking at its own seat is a player looking at their own values: nothing is written."""
    line = adapter_of(w.table.game).look_line
    seat = w.acting_for
    if line is None or seat is None or not w.host or seat == w.seat:
        return
    row = seat_rows[seat]
    if row.taken and not row.host_looked:
        tables.record_host_look(get_db(), w.table, seat, Msg(line, seat=Seat(seat)))


def seats_shown(db, table: tables.Table) -> list[tables.SeatRow]:
    """The table's seats as this reader reads them (i18n.reader_seats: a seat nobody named under
    its default name in the reader's language): what every page and region shows."""
    return reader_seats(table.game, tables.seats(db, table))


def told_handed(w: Who, seat_rows: list[tables.SeatRow]) -> str | None:
    """A seated phone that handed the host role over is told to whom ("" when the new host's
    device holds no seat), once: its old host token is dropped with this answer (it goes on as
    the seat it is, it does not stay as the table display). None for any other device."""
    if not (w.handed and w.member):
        return None
    db = get_db()
    code = w.table.code
    tables.drop_display(db, w.table, request.cookies.get(host_cookie(code)))

    @after_this_request
    def forget_token(response):
        response.delete_cookie(host_cookie(code), path=f"/t/{code}")
        return response

    to = tables.new_host_seat(db, w.table)
    return reader_seats(w.table.game, seat_rows)[to].name if to is not None else ""


def note_viewing(w: Who) -> str | None:
    """What opening a table's live region writes, done before it is rendered (rendering writes
    nothing): the host's first look at a seat's private view goes in the history, this device is
    at the table (presence), and a seated phone that handed the host role over drops its old
    host token. Returns to whom it handed over (told_handed), for the region to say once."""
    seat_rows = tables.seats(get_db(), w.table)
    trace_host_look(w, seat_rows)
    mark_presence(w, w.table, seat_rows)
    return told_handed(w, seat_rows)


def live_context(
    w: Who,
    *,
    error: Msg | None = None,
    rule: str | None = None,
    bound_forms: dict | None = None,
    link_box: dict | None = None,
    handed_to: str | None = None,
) -> dict:
    """Everything the live region needs: state, view, seats, history, forms, undo. It only
    reads (note_viewing() writes what opening the region means, before); handed_to: what
    note_viewing() returned."""
    db = get_db()
    w.table = tables.get_table(db, w.table.code)  # fresh version
    table = w.table
    region = build_region(
        w,
        tables.state_of(db, table),
        seats_shown(db, table),
        seat=w.seat_shown,
        reveal=w.reveal,
        bound_forms=bound_forms,
        args=page_args(w),
        query=request.args.to_dict(),
    )
    region.history = tables.recent_events(db, table, HISTORY_SHOWN)
    region.history_total = tables.count_events(db, table)
    region.undoable = tables.may_undo(
        db, table, seat=w.seat_shown if not w.host else None, host=w.host
    )
    region.error, region.rule = error, rule
    region.clock = clock_context(db, table, region.now)
    return dict(
        region.context(),
        **(guide_context(db, table) if w.host or w.display or w.table_device else {"guide": None}),
        # what the note field keeps after a refused note (a form is made only then)
        note_text=_note_text((bound_forms or {}).get("note")),
        # the history card's lines as its fragment takes them (table/_history_card.html)
        history_entries=[{"undone": e.undone, "lines": e.lines} for e in region.history],
        look_traced=w.host and adapter_of(table.game).look_line is not None,
        link_box=link_box,
        handed_to=handed_to,
    )


def _note_text(bound: NoteForm | None) -> str:
    return (bound.text.data or "") if bound is not None else ""


def render_live(w: Who, *, status: int | None = None, **kwargs) -> tuple[str, int]:
    """The live region alone (htmx) or the whole page (plain form posts, first load); for the
    table display that stays at the table (it may enter public events), the display's.

    Its status says what happened, so that monitoring can tell: 200, or 422 when the page shows
    a refusal (the rules, a form), or 409 when the table changed under the form (a conflict).
    """
    if status is None:
        status = 422 if kwargs.get("error") is not None else 200
    if not w.member and w.table_device:
        return render_display(w, **kwargs), status
    context = live_context(w, handed_to=note_viewing(w), **kwargs)
    template = "table/_live.html" if htmx else "table/page.html"
    if not htmx:
        context.update(invite_context(w.table))
    return render_template(template, **context), status


def display_context(w: Who, **kwargs) -> dict:
    """The table display's region: the table's view whatever else the device holds (a seat, the
    host's token), the newest history lines, and the way to join while seats are free."""
    context = live_context(
        replace(w, seat=None, host=False, acting_for=None, reveal=False), **kwargs
    )
    table = context["table"]
    free = [s for s in context["seats"] if not s.taken]
    result = context["result"]
    final = table.game.rules.score_table(context["state"], result) if result else None
    context.update(
        display=True,
        enters=w.table_device,  # a display link enters nothing; the table device what anyone may
        key=request.args.get("key"),
        history=context["history"][:DISPLAY_LINES],
        join_shown=bool(free) and not table.locked and result is None,
        free_seats=len(free),
        winners=[context["names"][s] for s in final.winners] if final else [],
    )
    return context


def render_display(w: Who, **kwargs) -> str:
    """The table display's region alone (htmx) or its whole page."""
    template = "table/_display_live.html" if htmx else "table/display.html"
    return render_template(template, **display_context(w, **kwargs))


def refusal_status(error: tables.TableError) -> int:
    """409 for a conflict (the table changed under the form, or a submission key came again
    with another entry), else 422 (a refusal)."""
    return 409 if isinstance(error, tables.Conflict | tables.KeyReused) else 422


def base_url() -> tuple[str, str | None]:
    """The address phones use (QR codes, links), and a problem with it to show, if any."""
    config = current_app.config
    port = config.get("BIND_PORT") or request.environ.get("SERVER_PORT")
    return qr.join_base(config["PUBLIC_URL"], config.get("BIND_HOST", "0.0.0.0"), port)


def invite_context(table: tables.Table) -> dict:
    """The join link and QR code's address, a problem with it, and whether this page was opened
    as localhost (the page then says that the QR code carries this machine's LAN address)."""
    base, problem = base_url()
    join_url = f"{base}/t/{table.code}/join?s={table.join_secret}"
    opened_as = urlsplit(f"//{request.host}").hostname or ""
    local = qr.is_loopback(opened_as) and not qr.is_loopback(urlsplit(base).hostname or "")
    return dict(join_url=join_url, address_problem=problem, opened_locally=local)


def submission_key() -> str | None:
    """The key the phone gave this submission (its script adds one to every form it sends), so
    that a resend after a lost connection is applied once; None without a script."""
    return tables.valid_key(request.form.get("key"))


def acting_seat(w: Who) -> int | None:
    """Whom an action is for: a phone acts for its own seat, the host for the chosen seat."""
    return w.acting_for if w.host else w.seat


def after_change(w: Who):
    if htmx:
        return render_live(w)
    if not w.member and w.table_device:
        return redirect(url_for("display.page", code=w.table.code))
    return redirect(url_for("table.page", code=w.table.code, **page_args(w)))

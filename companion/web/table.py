"""The table: join by QR code, the live page of a seat or the host, actions, notes, undo, polling."""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from babel.lists import format_list
from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    g,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import get_locale

from companion import get_db, htmx, i18n, qr, tables
from companion.forms import NoteForm, TakeSeatForm, UndoForm, VersionedForm
from companion.games.base import N_, Msg, RuleError, Seat
from companion.i18n import render_msg
from companion.web.adapter import Panel

bp = Blueprint("table", __name__, url_prefix="/t/<code>")
COOKIE_AGE = 60 * 60 * 24 * 30  # a month: a long game night, or a game finished next week
HISTORY_SHOWN = 5  # the newest lines on the table page; the rest on the history page


def seat_cookie(code: str) -> str:
    return f"seat_{code}"


def host_cookie(code: str) -> str:
    return f"host_{code}"


MY_TABLES = "my_tables"  # this device's tables and roles, for the home page ("CODE:h,CODE:s")
MY_TABLES_KEPT = 100  # the home page lists the newest; /plays shows the plays of them all


def my_tables() -> dict[str, str]:
    """This device's tables (code -> roles: "h" host, "s" seat) from its cookie at "/"; the
    seat and host cookies themselves are scoped to each table's pages, where home cannot see."""
    found: dict[str, str] = {}
    for entry in request.cookies.get(MY_TABLES, "").split(","):
        code, _, roles = entry.partition(":")
        code = tables.normalize_code(code)[:12]
        roles = "".join(r for r in "hs" if r in roles)
        if code and roles:
            found[code] = roles
    return found


def _store_my_tables(response: Response, found: dict[str, str]) -> None:
    kept = list(found.items())[-MY_TABLES_KEPT:]
    value = ",".join(f"{code}:{roles}" for code, roles in kept)
    response.set_cookie(
        MY_TABLES,
        value,
        max_age=COOKIE_AGE * 12,
        path="/",
        httponly=True,
        samesite="Lax",
        secure=request.is_secure,
    )


def remember_table(response: Response, code: str, role: str) -> None:
    """Add a table (and this device's role there: "host" or "seat") to the device's list."""
    found = my_tables()
    roles = found.pop(code, "") + role[0]
    found[code] = "".join(r for r in "hs" if r in roles)
    _store_my_tables(response, found)


def forget_table(response: Response, code: str, role: str | None = None) -> None:
    """Drop a table from the device's list (or only one role there)."""
    found = my_tables()
    if code in found:
        roles = "" if role is None else found[code].replace(role[0], "")
        if roles:
            found[code] = roles
        else:
            del found[code]
        _store_my_tables(response, found)


def set_token_cookie(response: Response, name: str, token: str, code: str) -> None:
    """Tokens live in HttpOnly, SameSite cookies scoped to the table's pages."""
    response.set_cookie(
        name,
        token,
        max_age=COOKIE_AGE,
        path=f"/t/{code}",
        httponly=True,
        samesite="Lax",
        secure=request.is_secure,
    )


@dataclass
class Who:
    """The device making this request: its seat, whether it is the host, whom it acts for."""

    table: tables.Table
    seat: int | None  # the phone's own seat
    host: bool
    acting_for: int | None  # host: the seat chosen in "act as" (None: the table view)
    reveal: bool  # host: the table's "show all" switch is on

    @property
    def member(self) -> bool:
        """Whether this device holds the host's token or a seat at this table."""
        return self.host or self.seat is not None

    @property
    def seat_shown(self) -> int | None:
        return self.acting_for if self.host else self.seat


def load_table(code: str) -> tables.Table:
    """The table for a URL code, or a readable error page.

    A device that holds a seat or the host's token at this table always gets in, and so does a
    phone that scanned the QR code (its link carries the table's join secret). Any other device
    that typed too many wrong codes lately is refused (whether or not this code exists, so the
    refusal tells a guesser nothing), and each unknown code counts against it: codes must not be
    guessable, but one guesser on the café Wi-Fi must not lock the players out of their game.
    """
    db = get_db()
    client = request.remote_addr or "?"
    table = tables.find_table(db, code)
    if table is not None:
        i18n.use_part(table.game.name)
    if table is None or not (who(table).member or tables.scanned(table, request.args.get("s"))):
        try:
            tables.check_join_allowed(db, client)
            if table is None:
                tables.count_unknown_code(db, client)
                raise tables.TableError(
                    N_(
                        "There is no table with the code %(code)s. Check the code on the host's "
                        "screen."
                    ),
                    status=404,
                    code=tables.normalize_code(code)[:12],
                )
        except tables.TableError as refused:
            abort(
                make_response(
                    render_template(
                        "error.html", error_kind="table", message=render_msg(refused.msg)
                    ),
                    refused.status,
                )
            )
    return table


def who(table: tables.Table) -> Who:
    """The device making this request, read from its cookies once per request."""
    cached = g.get("who")
    if cached is not None and cached.table.id == table.id:
        return cached
    db = get_db()
    host = tables.is_host(db, table, request.cookies.get(host_cookie(table.code)))
    seat = tables.seat_for_token(db, table, request.cookies.get(seat_cookie(table.code)))
    acting_for = None
    if host:
        acting_for = request.args.get("as", type=int)
        if acting_for is not None and not 0 <= acting_for < table.players:
            acting_for = None
    g.who = Who(table, seat, host, acting_for, host and table.reveal)
    return g.who


def page_args(w: Who) -> dict:
    """Query arguments that keep the host's "act as" choice across requests."""
    args = {}
    if w.host and w.acting_for is not None:
        args["as"] = w.acting_for
    return args


def mark_presence(w: Who, table: tables.Table, seat_rows: list[tables.SeatRow]) -> None:
    """This device is at the table: note it for the seats list's online/away marks."""
    db = get_db()
    if w.host:
        tables.mark_seen(db, table.id, None, table.host_seen)
    if w.seat is not None:
        tables.mark_seen(db, table.id, w.seat, seat_rows[w.seat].seen)


def _trace_host_look(w: Who, seat_rows: list[tables.SeatRow]) -> None:
    """The host's first look at the private view of a seat that has its own phone is written in
    the history (a seat without a phone is run from the host's device anyway)."""
    line = w.table.game.adapter.look_line
    seat = w.acting_for
    if line is None or seat is None or not w.host:
        return
    row = seat_rows[seat]
    if row.taken and not row.host_looked:
        tables.record_host_look(get_db(), w.table, seat, Msg(line, seat=Seat(seat)))


def live_context(
    w: Who,
    *,
    error: Msg | None = None,
    rule: str | None = None,
    bound_forms: dict | None = None,
    link_box: dict | None = None,
) -> dict:
    """Everything the live region needs: state, view, seats, history, forms, undo."""
    db = get_db()
    _trace_host_look(w, tables.seats(db, w.table))
    table = tables.get_table(db, w.table.code)  # fresh version
    w.table = table
    state = tables.state_of(db, table)
    module = table.game.module
    seat = w.seat_shown
    seat_rows = tables.seats(db, table)
    mark_presence(w, table, seat_rows)
    names = [s.name for s in seat_rows]
    history = tables.recent_events(db, table, HISTORY_SHOWN)
    view = module.view(state, seat, reveal=w.reveal)
    adapter = table.game.adapter
    turn = [s for s in adapter.turn_seats(view) if 0 <= s < len(names)]
    forms = FormsOnDemand(adapter.forms, table.version, bound_forms or {})
    extra = adapter.panel_context(
        Panel(
            code=table.code,
            state=state,
            view=view,
            seat=seat,
            host=w.host,
            names=names,
            args=page_args(w),
            query=request.args.to_dict(),
        )
    )
    undoable = tables.may_undo(db, table, seat=w.seat_shown if not w.host else None, host=w.host)
    return dict(
        table=table,
        who=w,
        seat=seat,
        names=names,
        state=state,
        view=view,
        result=module.result(state),
        seats=seat_rows,
        history=history,
        history_total=tables.count_events(db, table),
        forms=forms,
        panel=adapter.panel_template,
        note_form=_versioned(NoteForm, table, (bound_forms or {}).get("note")),
        undoable=undoable,
        error=error,
        rule=rule,
        args=page_args(w),
        look_traced=w.host and adapter.look_line is not None,
        link_box=link_box,
        turn_seats=turn,
        waiting_names=format_list(
            [names[s] for s in turn if s != seat], locale=get_locale() or "en"
        )
        if turn
        else "",
        now=time.time(),
        **extra,
    )


class FormsOnDemand(Mapping):
    """The game's forms by action type, each made when the panel first asks for it (a panel
    shows a few of a game's forms at a time, and making a form costs more than rendering it)."""

    def __init__(self, classes: Mapping[str, type], version: int, bound: Mapping[str, Any]):
        self.classes, self.version, self.made = classes, version, dict(bound)
        for form in self.made.values():
            form.version.data = version

    def __getitem__(self, action_type: str) -> VersionedForm:
        form = self.made.get(action_type)
        if form is None:
            form = self.made[action_type] = self.classes[action_type](formdata=None)
            form.version.data = self.version
        return form

    def __iter__(self):
        return iter(self.classes)

    def __len__(self) -> int:
        return len(self.classes)


def _versioned(
    form_class: type[VersionedForm], table: tables.Table, bound: VersionedForm | None = None
) -> VersionedForm:
    form = bound or form_class(formdata=None)
    form.version.data = table.version
    return form


def render_live(w: Who, *, status: int | None = None, **kwargs) -> tuple[str, int]:
    """The live region alone (htmx) or the whole page (plain form posts, first load).

    Its status says what happened, so that monitoring can tell: 200, or 422 when the page shows
    a refusal (the rules, a form), or 409 when the table changed under the form (a conflict).
    """
    context = live_context(w, **kwargs)
    template = "table/_live.html" if htmx else "table/page.html"
    if not htmx:
        context.update(invite_context(w.table))
    if status is None:
        status = 422 if kwargs.get("error") is not None else 200
    return render_template(template, **context), status


def refusal_status(error: tables.TableError) -> int:
    """409 for a conflict (the table changed under the form), else 422 (a refusal)."""
    return 409 if isinstance(error, tables.Conflict) else 422


def base_url() -> tuple[str, str | None]:
    """The address phones use (QR codes, links), and a problem with it to show, if any."""
    config = current_app.config
    port = config.get("BIND_PORT") or request.environ.get("SERVER_PORT")
    return qr.join_base(config["PUBLIC_URL"], config.get("BIND_HOST", "0.0.0.0"), port)


def invite_context(table: tables.Table) -> dict:
    base, problem = base_url()
    join_url = f"{base}/t/{table.code}/join?s={table.join_secret}"
    return dict(join_url=join_url, address_problem=problem)


# --- pages ---------------------------------------------------------------------------------------


@bp.get("/")
def page(code: str):
    """The table page: the host's table view, or a phone's own seat."""
    table = load_table(code)
    w = who(table)
    if not w.member:
        return redirect(
            url_for(
                "table.join",
                code=table.code,
                lost=1 if request.cookies.get(seat_cookie(table.code)) else None,
            )
        )
    return render_live(w)


def _member_table(code: str) -> tables.Table | Response:
    """The table, for a member; else the answer a device without a seat gets, the same whether
    the code exists or not (go to the join page): an unknown code counts against it like a
    typed one."""
    db = get_db()
    table = tables.find_table(db, code)
    if table is not None and who(table).member:
        return table
    if table is None:
        try:
            tables.count_unknown_code(db, request.remote_addr or "?")
        except tables.TableError:
            pass  # past the limit: the join page says so
    response = Response(status=204)
    response.headers["HX-Redirect"] = url_for(
        "table.join", code=tables.normalize_code(code)[:12] or "X", lost=1
    )
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/live")
def live(code: str):
    """The poll (an unchanged table is answered before Flask, see fastpath.py): the new live
    region for a member; a stranger is sent to the join page."""
    table = _member_table(code)
    if isinstance(table, Response):
        return table
    i18n.use_part(table.game.name)
    w = who(table)
    if request.args.get("v", type=int) == table.version:
        return Response(b"", headers={"HX-Reswap": "none", "Cache-Control": "no-store"})
    return render_template("table/_live.html", **live_context(w))


@bp.get("/push")
def push(code: str):
    """The push stream, for what reaches Flask: a member's stream is answered before Flask
    (companion/web/push.py) wherever streams are served, so a member here is on a server that
    does not serve them: 204, which tells the page's EventSource to stop (the page polls). A
    stranger gets what /live gives a stranger, and nothing more."""
    answer = _member_table(code)
    if isinstance(answer, Response):
        return answer
    return Response(status=204, headers={"Cache-Control": "no-store"})


@bp.get("/history")
def history(code: str):
    """The whole history of the table, newest first (the table page shows the last few lines)."""
    table = load_table(code)
    w = who(table)
    if not w.member:
        return redirect(url_for("table.join", code=table.code))
    db = get_db()
    log = tables.events(db, table)[::-1]
    return render_template(
        "table/history.html",
        table=table,
        history=log,
        history_total=len(log),
        names=[s.name for s in tables.seats(db, table)],
        args=page_args(w),
    )


@bp.get("/seats")
def seats_fragment(code: str):
    """The seats list alone, with who is online: presence changes with time, not with the
    table's version, so each page asks for it every ten seconds."""
    table = load_table(code)
    w = who(table)
    if not w.member:
        return Response(status=204)
    seat_rows = tables.seats(get_db(), table)
    mark_presence(w, table, seat_rows)
    return render_template(
        "table/_seats.html", table=table, seats=seat_rows, who=w, args=page_args(w), now=time.time()
    )


@bp.get("/manifest.webmanifest")
def manifest(code: str):
    """Add to home screen: the app opens on this table."""
    table = load_table(code)
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
def qr_svg(code: str):
    """The join QR code as SVG."""
    table = load_table(code)
    svg = qr.svg(invite_context(table)["join_url"])
    return Response(
        svg, mimetype="image/svg+xml", headers={"Cache-Control": "private, max-age=300"}
    )


@bp.route("/join", methods=["GET", "POST"])
def join(code: str):
    """A phone picks a free seat (optionally typing its name) and keeps it in a cookie."""
    table = load_table(code)
    w = who(table)
    if w.seat is not None:  # this phone already sits here: one seat per phone
        return redirect(url_for("table.page", code=table.code))
    form = TakeSeatForm()
    error = None
    if form.validate_on_submit():
        try:
            token = tables.join(get_db(), table, form.seat.data, (form.name.data or "").strip())
        except tables.TableError as exc:
            error = exc.msg
        else:
            response = redirect(url_for("table.page", code=table.code))
            set_token_cookie(response, seat_cookie(table.code), token, table.code)
            remember_table(response, table.code, "seat")
            return response
    elif request.method == "POST":
        error = Msg(N_("Pick one of the free seats."))
    table = tables.get_table(get_db(), table.code)
    status = 200 if error is None else 400
    lost = request.args.get("lost") == "1"
    response = make_response(
        render_template(
            "table/join.html",
            table=table,
            seats=tables.seats(get_db(), table),
            form=form,
            error=error,
            lost=lost,
            who=w,
            **invite_context(table),
        ),
        status,
    )
    if lost and w.seat is None:  # the seat was freed: off this device's list of tables
        forget_table(response, table.code, "seat")
    return response


# --- changing the table --------------------------------------------------------------------------


def submission_key() -> str | None:
    """The key the phone gave this submission (its script adds one to every form it sends), so
    that a resend after a lost connection is applied once; None without a script."""
    return tables.valid_key(request.form.get("key"))


def _acting_seat(w: Who) -> int | None:
    """Whom an action is for: a phone acts for its own seat, the host for the chosen seat."""
    return w.acting_for if w.host else w.seat


def _require_member(w: Who) -> None:
    if not w.member:
        abort(
            make_response(
                render_template(
                    "error.html",
                    error_kind="table",
                    message=render_msg(
                        Msg(N_("This device has no seat at this table. Join it first."))
                    ),
                    join_url=url_for("table.join", code=w.table.code),
                ),
                403,
            )
        )


def _after_change(w: Who):
    if htmx:
        return render_live(w)
    return redirect(url_for("table.page", code=w.table.code, **page_args(w)))


@bp.post("/act/<action_type>")
def act(code: str, action_type: str):
    """One game action from its form: checked by the form, then by the rules, then stored."""
    table = load_table(code)
    w = who(table)
    _require_member(w)
    form_class = table.game.adapter.forms.get(action_type)
    if form_class is None:
        return render_live(w, error=Msg(N_("This game has no such action.")))
    form = form_class()
    if not form.validate_on_submit():
        first = next(iter(e for errors in form.errors.values() for e in errors), "")
        return render_live(w, error=Msg(str(first)), bound_forms={action_type: form})
    action = {"type": action_type, **form.to_action()}
    try:
        tables.act(
            get_db(),
            table,
            action,
            seat=_acting_seat(w),
            host=w.host,
            expected_version=form.expected_version(),
            follow_up=table.game.adapter.follow_up,
            key=submission_key(),
        )
    except tables.Conflict as conflict:
        return render_live(w, error=conflict.msg, bound_forms={action_type: form}, status=409)
    except RuleError as refusal:
        return render_live(w, error=refusal.msg, rule=refusal.rule, bound_forms={action_type: form})
    return _after_change(w)


def _note_key(w: Who, form: NoteForm) -> str | None:
    """The key of a note sent without one (no page script): the same words from the same device,
    for the same seat, from the same page are one note sent twice (a double tap): written once.
    Notes are not refused as stale (two players may write at once), so the version cannot."""
    if not form.version.data:
        return None
    sender = (
        f"{'host' if w.host else w.seat}|{_acting_seat(w)}|{form.version.data}|{form.text.data}"
    )
    return "note-" + hashlib.sha256(sender.encode()).hexdigest()[:40]


@bp.post("/note")
def note(code: str):
    """A free-text line in the history."""
    table = load_table(code)
    w = who(table)
    _require_member(w)
    form = NoteForm()
    if not form.validate_on_submit():
        return render_live(w, error=Msg(N_("Write something first.")), bound_forms={"note": form})
    try:
        tables.add_note(
            get_db(),
            table,
            form.text.data,
            seat=_acting_seat(w),
            host=w.host,
            key=submission_key() or _note_key(w, form),
        )
    except tables.TableError as exc:
        return render_live(w, error=exc.msg, bound_forms={"note": form}, status=refusal_status(exc))
    return _after_change(w)


@bp.post("/undo")
def undo(code: str):
    """Undo the last action (the host), or the seat's own last action while nobody acted since."""
    table = load_table(code)
    w = who(table)
    _require_member(w)
    form = UndoForm()
    if not form.validate_on_submit():
        return render_live(w, error=Msg(N_("The undo request was incomplete; try again.")))
    try:
        tables.undo(
            get_db(),
            table,
            seat=None if w.host else w.seat,
            host=w.host,
            expected_version=form.expected_version(),
            key=submission_key(),
        )
    except tables.TableError as exc:
        return render_live(w, error=exc.msg, status=refusal_status(exc))
    return _after_change(w)


# --- host only -----------------------------------------------------------------------------------

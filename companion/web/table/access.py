"""Who may open a table's pages: the table for a URL code, the device asking (its seat, host
token, display key, table-display cookie), and the one guard every table route uses (as flaskr's
login_required, with the role the route requires).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, NoReturn, overload

from flask import Response, abort, g, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from companion import get_db, i18n, tables
from companion.games.base import N_, Msg
from companion.i18n import render_msg
from companion.web import device
from companion.web.credentials import display_cookie, host_cookie, seat_cookie
from companion.web.errors import error_page

COOKIE_AGE = 60 * 60 * 24 * 30  # a month: a long game night, or a game finished next week


def set_token_cookie(response: BaseResponse, name: str, token: str, code: str) -> None:
    """Tokens live in HttpOnly, SameSite cookies scoped to the table's pages (response: any
    response, e.g. what redirect() returns)."""
    device.set_lasting_cookie(response, name, token, f"/t/{code}", max_age=COOKIE_AGE)


@dataclass
class Who:
    """The device making this request: its seat, whether it is the host, whom it acts for."""

    table: tables.Table
    seat: int | None  # the phone's own seat
    host: bool
    acting_for: int | None  # host: the seat shown and acted for (None: the table view); a
    # seated host's own seat unless it chose another
    reveal: bool  # host: the table's "show all" switch is on
    display: bool = False  # the request carries one of the table's display credentials
    table_device: bool = False  # ... in the table display's own cookie (not a link's key): the
    # device stays at the table and may enter the public events anyone may enter
    handed: bool = False  # its host cookie holds the token of a host that handed over

    @property
    def member(self) -> bool:
        """Whether this device holds the host's token or a seat at this table."""
        return self.host or self.seat is not None

    @property
    def seat_shown(self) -> int | None:
        return self.acting_for if self.host else self.seat

    @property
    def acting(self) -> bool:
        """The host's device shows a seat that is not its own: it acts for another player (the
        panels say "Anna's chips", not "Your chips")."""
        return self.host and self.acting_for is not None and self.acting_for != self.seat


def guesser() -> tuple[str | None, str]:
    """What the wrong-code limit counts a request by: its device's id and its address."""
    return device.device_id(), request.remote_addr or "?"


def refuse(status: int, message: Msg, **extra) -> NoReturn:
    """Stop the request with the error page and this message."""
    abort(error_page("table", status, message=render_msg(message), **extra))


def load_table(code: str) -> tables.Table:
    """The table for a URL code, or a readable error page.

    A device that holds a seat or the host's token at this table always gets in, and so do a
    phone that scanned the QR code (its link carries the table's join secret) and the table
    display (its link's key). Any other device that typed too many wrong codes lately is refused
    (whether or not this code exists, so the refusal tells a guesser nothing), and each unknown
    code counts against it: codes must not be guessable, but one guesser on the café Wi-Fi must
    not lock the players out of their game (the limit counts per device; see tables).
    """
    db = get_db()
    table = tables.find_table(db, code)
    if table is not None:
        i18n.use_part(table.game.name)
        w = who(table)
        if w.member or w.display or w.handed or tables.scanned(table, request.args.get("s")):
            return table
    try:
        tables.check_join_allowed(db, *guesser())
        if table is None:
            tables.count_unknown_code(db, *guesser())
            raise unknown_code(code)
    except tables.TableError as refused:
        refuse(refused.status, refused.msg)
    return table


def unknown_code(code: str) -> tables.TableError:
    """The refusal of a code no table has (the same words wherever a code is looked up)."""
    return tables.TableError(
        N_("There is no table with the code %(code)s. Check the code on the host's screen."),
        status=404,
        code=tables.normalize_code(code)[:12],
    )


def who(table: tables.Table) -> Who:
    """The device making this request, read from its cookies once per request.

    A device recognised as a member gets the table (back) on its signed list of tables; a seat
    or host cookie that no longer holds (the seat was freed, the host role moved) takes that role
    off the list. A seated host shows its own seat unless it chose another ("act for")."""
    cached = g.get("who")
    if cached is not None and cached.table.id == table.id:
        return cached
    db = get_db()
    host_token = request.cookies.get(host_cookie(table.code))
    seat_token = request.cookies.get(seat_cookie(table.code))
    host = tables.is_host(db, table, host_token)
    seat = tables.seat_for_token(db, table, seat_token)
    for role, token, holds in (("host", host_token, host), ("seat", seat_token, seat is not None)):
        if holds:
            device.remember(table.code, role, seat, token)
        elif token:
            device.forget(table.code, role)
    acting_for = None
    if host:
        acting_for = request.args.get("as", type=int)
        if acting_for is not None and not 0 <= acting_for < table.players:
            acting_for = None
        if acting_for is None:
            acting_for = seat  # a seated host's own seat is its view
    # The table device is the device that handed the host role over and stayed (its display
    # credential's origin), never a display link's key, even one put into that cookie.
    in_cookie = tables.display_origin(db, table, request.cookies.get(display_cookie(table.code)))
    table_device = in_cookie == tables.STAYED
    display = in_cookie is not None or tables.is_display(db, table, request.args.get("key"))
    handed = bool(host_token) and not host and tables.handed_over(db, table, host_token)
    g.who = Who(table, seat, host, acting_for, host and table.reveal, display, table_device, handed)
    return g.who


def page_args(w: Who) -> dict:
    """Query arguments that keep the host's "act as" choice across requests."""
    args = {}
    if w.host and w.acting_for is not None and w.acting_for != w.seat:
        args["as"] = w.acting_for
    return args


# --- the guard -----------------------------------------------------------------------------------

ROLES = ("open", "member", "table", "host", "display", "viewer", "handed")


def allowed(role: str, w: Who) -> bool:
    """Whether the device may use a route that requires this role (see table_route)."""
    if role == "open":
        return True
    if role == "member":
        return w.member
    if role == "table":
        return w.member or w.table_device
    if role == "host":
        return w.host
    if role == "display":
        return w.display
    if role == "viewer":
        if w.table.ended is not None:
            return device.may_see_play(w.table.code, display=w.display)
        return w.member or w.display
    if role == "handed":
        return w.handed
    raise ValueError(f"no such role: {role!r}")


def denied(role: str, w: Who) -> Response:
    """The answer to a device without the role: a page that says why (a member's and the host's
    tools), or the answer of an unknown page (what a display or a viewer may see: a stranger is
    told nothing)."""
    if role in ("member", "table") and w.display:
        return error_page(
            "table",
            403,
            message=render_msg(
                Msg(
                    N_(
                        "A table display shows the table and enters nothing. Enter this on "
                        "the player's phone or the host's device."
                    )
                )
            ),
        )
    if role in ("member", "table"):
        return error_page(
            "table",
            403,
            message=render_msg(Msg(N_("This device has no seat at this table. Join it first."))),
            join_url=url_for("table.join", code=w.table.code),
        )
    if role == "host":
        return error_page(
            "table", 403, message=render_msg(Msg(N_("Only the host's device can do this.")))
        )
    abort(404)


View = Callable[..., Any]


@overload
def table_route(
    role: str = "open",
    *,
    otherwise: Callable[[Who | None], Any] | None = None,
    quiet: Literal[True],
) -> Callable[[View], View]: ...


@overload
def table_route(
    role: str = "open",
    *,
    otherwise: Callable[[Who], Any] | None = None,
    quiet: Literal[False] = False,
) -> Callable[[View], View]: ...


def table_route(
    role: str = "open",
    *,
    otherwise: Callable[[Any], Any] | None = None,
    quiet: bool = False,
) -> Callable[[View], View]:
    """The guard of a table route: it loads the table of the URL's code (load_table: an unknown
    code is a readable 404 and counts against the wrong-code limit), reads the device (who) and
    calls the view with it (w.table is the table) if the device has the role:

    - "open": any device load_table lets in;
    - "member": the host's device or a seat's phone (else 403, with the way to join);
    - "table": a member, or the table display that stays at the table (its own cookie): the
      route lets it enter only what anyone at the table may enter;
    - "host": the host's device (else 403);
    - "display": a device with one of the table's display keys (?key=; else 404);
    - "viewer": a member or the display; once the game is over, the one rule of a finished play
      (device.may_see_play: also a device whose signed list holds the table; else 404);
    - "handed": the device that handed the host role over (its old host token; else 404).

    otherwise(w) answers a device without the role instead (e.g. a redirect to the join page).
    quiet (the poll): an unknown code is not a readable 404 but counts against the limit and is
    answered by otherwise(None), as a device without the role is: the answer tells a stranger
    nothing about which codes exist (so a quiet route's otherwise takes None too).
    """
    if role not in ROLES:
        raise ValueError(f"no such role: {role!r}")

    def decorate(view: View) -> View:
        @functools.wraps(view)
        def guarded(code: str, **kwargs: Any) -> Any:
            if quiet:
                table = tables.find_table(get_db(), code)
                if table is None:
                    try:
                        tables.count_unknown_code(get_db(), *guesser())
                    except tables.TableError:
                        pass  # past the limit: the join page says so
                    return otherwise(None) if otherwise is not None else abort(404)
                i18n.use_part(table.game.name)
            else:
                table = load_table(code)
            w = who(table)
            if not allowed(role, w):
                return otherwise(w) if otherwise is not None else denied(role, w)
            return view(w, **kwargs)

        return guarded

    return decorate

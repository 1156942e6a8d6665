"""This device: its signed list of tables, its id for the wrong-code limit, and the one rule of
who may see a finished play.

The list ("Your tables" on the home page, and the plays /plays shows) is a cookie signed with the
app's secret key (itsdangerous, as Flask signs its session): a device cannot add a table to it by
hand, only the app can, when the device holds a seat or the host's token there. An entry that does
not verify is ignored, at most LIST_KEPT entries are read, and the cookie is written at most once
per response (an after_request hook writes what the request changed).

The list of before the signing ("my_tables", unsigned) is never read: a device gets its entries
back, signed, as it opens each of its tables with a valid seat or host token (companion.web.table
writes the entry whenever it recognises a member).
"""

from __future__ import annotations

import hashlib
import os
import secrets

from flask import Flask, Response, current_app, g, request
from itsdangerous import BadSignature, Signer
from werkzeug.http import dump_cookie
from werkzeug.wrappers import Response as BaseResponse

from companion.plays import HOLDING  # characters of a seat token's hash naming one holding
from companion.security import secret_key

LIST_COOKIE = "tables"  # "CODE:h,CODE:s2.9f86d081,..." signed; newest last
LIST_KEPT = 100  # entries read and kept; the home page shows the newest few, /plays them all
LIST_MAX = 3072  # characters: a longer cookie is not one the app wrote, and is ignored
# h: the host's device; d: the device that handed the host role on and stayed at the table as its
# display (it keeps the table's record); s: a seat's phone (last: its number follows)
ROLES = "hds"
DEVICE_COOKIE = "device"  # a random id, signed: what the wrong-code limit counts per device
COOKIE_AGE = 60 * 60 * 24 * 365  # a year: the record of plays should outlast a game season


def _signer(salt: str) -> Signer:
    return Signer(secret_key(), salt=f"companion.{salt}", digest_method=hashlib.sha256)


# --- the list of tables ----------------------------------------------------------------------------


def listed() -> dict[str, str]:
    """This device's tables (code -> roles, oldest first), read from its signed cookie once per
    request: "h" the host, "d" the table display that was its host, "s" a seat, followed by the
    seat's number and, after a dot, which holding of that seat it was ("s2.9f86d081",
    "hs0.2c26b46b": the first characters of the seat token's hash). A cookie that is too long
    or does not verify counts as an empty list. What the entries still entitle the device to:
    entitled()."""
    found = g.get("device_tables")
    if found is not None:
        return found
    found = {}
    raw = request.cookies.get(LIST_COOKIE, "")
    if raw and len(raw) <= LIST_MAX:
        try:
            value = _signer("tables").unsign(raw).decode()
        except (BadSignature, UnicodeDecodeError):
            value = ""
        for entry in value.split(",", LIST_KEPT)[:LIST_KEPT]:
            code, _, roles = entry.partition(":")
            roles = _clean(roles)
            if code and roles:
                found[code] = roles
    g.device_tables = found
    return found


def _clean(roles: str, seat: int | None = None, holding: str | None = None) -> str:
    """Roles in their order ("h", "d", then "s" with the seat's number when known and its
    holding)."""
    roles, _, held = roles.partition(".")
    digits = "".join(ch for ch in roles if ch.isdigit())[:2]
    if seat is not None:
        digits = str(seat)
        held = holding or ""
    held = "".join(ch for ch in held if ch in "0123456789abcdef")[:HOLDING]
    letters = "".join(r for r in ROLES if r in roles)
    if "s" not in letters:
        return letters
    return letters + digits + (f".{held}" if held and digits else "")


def seat_in(roles: str) -> int | None:
    """The seat number an entry's roles hold ("hs2.9f86d081" -> 2), or None."""
    roles = roles.partition(".")[0]
    digits = "".join(ch for ch in roles if ch.isdigit())
    return int(digits) if digits and "s" in roles else None


def holding_in(roles: str) -> str | None:
    """Which holding of its seat an entry names (None: an entry written before holdings)."""
    return roles.partition(".")[2] or None


def remember(code: str, role: str, seat: int | None = None, token: str | None = None) -> None:
    """Add a table and this device's role there ("host", "display" or "seat", with the seat's
    number and
    the seat's token, whose hash names this holding of the seat) to the list (written with the
    response; at the end of the list: the newest)."""
    from companion.tables import hash_token

    found = listed()
    old = found.get(code, "")
    holding = hash_token(token)[:HOLDING] if token and role == "seat" else None
    roles = _clean(old + role[0], seat if role == "seat" else None, holding)
    if roles == old:
        return
    found.pop(code, None)
    found[code] = roles
    g.device_tables_changed = True
    g.pop("device_entitled", None)


def forget(code: str, role: str | None = None) -> None:
    """Drop a table from the list, or only one role there."""
    found = listed()
    if code not in found:
        return
    roles = "" if role is None else _clean(found[code].replace(role[0], ""))
    if roles:
        found[code] = roles
    else:
        del found[code]
    g.device_tables_changed = True
    g.pop("device_entitled", None)


def holds(code: str) -> bool:
    """Whether this device's signed list holds the table (as a seat or the host), and the
    holding still stands (entitled())."""
    return code in entitled()


def entitled() -> dict[str, str]:
    """The entries of the list that still entitle this device (code -> roles), once per request.

    The host's entry stands. A seat's entry stands while that holding of the seat does: the seat
    is still held by the token whose hash the entry names (the table's seats), or, once the
    table was purged, was held by it when its play ended and not freed since (the play's
    record). A seat freed by the host ends the entry: the phone loses the finished play, its
    exports, its replay and the record's pages; the seat's next phone has its own entry. An
    entry written before holdings were kept stands while its seat is held by anyone (or the
    table is gone and its record says nothing)."""
    found = g.get("device_entitled")
    if found is not None:
        return found
    entries = listed()
    seated = {code: seat_in(roles) for code, roles in entries.items()}
    asked = [code for code, seat in seated.items() if seat is not None]
    holders: dict = {}
    if asked:
        from companion import get_db, tables

        holders = tables.seat_holders(get_db(), asked)
    found = {}
    for code, roles in entries.items():
        seat = seated[code]
        if seat is not None and not _holding_stands(holders, code, seat, holding_in(roles)):
            roles = _clean(roles.replace("s", ""))  # the seat's part goes, as forget() does
        if roles:
            found[code] = roles
    g.device_entitled = found
    return found


def _holding_stands(holders: dict, code: str, seat: int, holding: str | None) -> bool:
    known = holders.get(code)
    if known is None:  # no table and no record of it: nothing to check against
        return True
    holder = known.get(seat, "unknown")
    if holder == "unknown":  # a record written before holdings were kept
        return True
    if holder is None:  # the seat is free now (or was freed after the end)
        return False
    return holding is None or holder.startswith(holding)


def set_lasting_cookie(
    response: BaseResponse, name: str, value: str, path: str, max_age: int = COOKIE_AGE
) -> None:
    """A cookie kept `max_age` seconds, HttpOnly and SameSite, said by its Max-Age alone (every
    browser that runs the app reads it; the Expires date beside it was 38 bytes of each)."""
    response.headers.add(
        "Set-Cookie",
        dump_cookie(
            name,
            value,
            max_age=max_age,
            path=path,
            httponly=True,
            samesite="Lax",
            secure=request.is_secure,
            sync_expires=False,
            max_size=response.max_cookie_size,
        ),
    )


def _write_list(response: Response) -> Response:
    if g.get("device_tables_changed"):
        kept = list(listed().items())[-LIST_KEPT:]
        value = ",".join(f"{code}:{roles}" for code, roles in kept)
        set_lasting_cookie(response, LIST_COOKIE, _signer("tables").sign(value).decode(), "/")
    return response


# --- the device's id (the wrong-code limit counts per device) -------------------------------------


def device_id() -> str | None:
    """This device's id from its signed cookie, or None (a first visit, a forged or no cookie).
    A device without one is given one with this response."""
    if "device_id" in g:
        return g.device_id
    raw = request.cookies.get(DEVICE_COOKIE, "")
    found = None
    if raw and len(raw) <= 200:
        try:
            found = _signer("device").unsign(raw).decode()
        except (BadSignature, UnicodeDecodeError):
            found = None
    g.device_id = found
    return found


def _write_device(response: Response) -> Response:
    # Whole pages only (not style sheets, scripts, fragments, polls or errors): a person reaches
    # the code box or a table through a page, so by the time they type a code their device has
    # its id, and a poll answers the same whether its code exists or not.
    if (
        response.status_code == 200
        and response.mimetype == "text/html"
        and not request.headers.get("HX-Request")
        and device_id() is None
    ):
        set_lasting_cookie(
            response, DEVICE_COOKIE, _signer("device").sign(secrets.token_urlsafe(12)).decode(), "/"
        )
    return response


# --- who may see a finished play ------------------------------------------------------------------


def open_stats() -> bool:
    """Whether the server opens the record of plays to every device (COMPANION_OPEN_STATS)."""
    value = current_app.config.get("OPEN_STATS")
    if value is None:
        value = os.environ.get("COMPANION_OPEN_STATS", "") not in ("", "0")
    return bool(value)


def visible_codes() -> set[str] | None:
    """The tables whose plays this device may see (None: every table, the server says so)."""
    return None if open_stats() else set(entitled())


def may_see_play(code: str, *, display: bool = False) -> bool:
    """THE rule for a finished play (its summary, exports, replay, the record of plays and the
    player pages): the devices whose signed list holds the table as a seat or the host, and the
    table's display (display=True: the request carries a valid display key), unless the server
    opens the record to everyone."""
    return open_stats() or display or holds(code)


def init_app(app: Flask) -> None:
    """Write the device's cookies (list, id) at most once per response."""
    app.after_request(_write_list)
    app.after_request(_write_device)

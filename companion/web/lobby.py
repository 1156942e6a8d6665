"""The home page: start a table, or join one by typing its code; and the language switch."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from urllib.parse import urlsplit

from babel.lists import format_list
from flask import (
    Blueprint,
    current_app,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import get_locale

from companion import get_db, localtime, plays, tables
from companion.forms import JoinCodeForm, NewTableForm, table_settings
from companion.games import GAMES
from companion.games.base import N_, OTHER_WAY, Msg
from companion.i18n import (
    LANG_COOKIE,
    LANGUAGES,
    TEXT_COOKIE,
    TEXT_SIZES,
    default_seat_name,
    game_label,
    seat_name,
    text_size,
    translate,
    translate_in,
)
from companion.web import device
from companion.web.table import guesser, host_cookie, set_token_cookie, unknown_code

bp = Blueprint("lobby", __name__)
HOME_TABLES = 12  # the newest of this device's tables on the home page


@dataclass(frozen=True)
class MyTable:
    """One of this device's tables, as the home page lists it."""

    code: str
    roles: str  # "h" host, "s" seat (and its number)
    game: str  # the game's name in the reader's language
    players: list[str]
    touched: float | None
    over: bool
    progress: Msg | None  # where the game stands ("Round 4 of 15"), as the table last noted
    my_turn: bool  # the game waits for this device's seat


def _my_tables() -> list[MyTable]:
    """The newest of this device's tables that still exist (newest activity first), read from
    stored columns only (no game state). A table removed from this server stays on the list:
    its play (in the record of plays) is still this device's to see."""
    listed = device.entitled()
    if not listed:
        return []
    db = get_db()
    codes = list(listed)
    marks = ", ".join("?" * len(codes))
    rows = list(
        db.query(
            "SELECT id, code, game, touched, ended, progress, turn FROM tables"
            f" WHERE code IN ({marks})",
            codes,
        )
    )
    rows = [r for r in rows if r["game"] in GAMES]
    rows.sort(key=lambda r: r["touched"] or 0, reverse=True)
    rows = rows[:HOME_TABLES]
    names: dict[int, list[str]] = {r["id"]: [] for r in rows}
    games = {r["id"]: GAMES[r["game"]] for r in rows}
    if rows:
        ids = list(names)
        for seat_row in db.query(
            "SELECT table_id, seat, name, named FROM seats"
            f" WHERE table_id IN ({', '.join('?' * len(ids))}) ORDER BY table_id, seat",
            ids,
        ):
            table_id = seat_row["table_id"]
            names[table_id].append(
                seat_name(
                    games[table_id], seat_row["seat"], seat_row["name"], bool(seat_row["named"])
                )
            )
    found = []
    for r in rows:
        info = GAMES[r["game"]]
        progress = None
        if r["progress"]:
            progress = Msg.from_json(json.loads(r["progress"]))
            progress.domain = info.name  # the game's own words, read from its catalogue
        roles = listed[r["code"]]
        seat = device.seat_in(roles)
        waiting = json.loads(r["turn"]) if r["turn"] else []
        found.append(
            MyTable(
                r["code"],
                roles,
                game_label(info),
                names[r["id"]],
                r["touched"],
                r["ended"] is not None,
                progress,
                seat is not None and seat in waiting and r["ended"] is None,
            )
        )
    return found


def _home(
    new_form: NewTableForm,
    join_form: JoinCodeForm,
    error: Msg | None = None,
    status: int = 200,
    create_error: Msg | None = None,
):
    limits = {key: (g.min_players, g.max_players) for key, g in GAMES.items()}
    return make_response(
        render_template(
            "lobby/home.html",
            new_form=new_form,
            join_form=join_form,
            games=GAMES,
            limits=limits,
            my=_my_tables(),
            now=time.time(),
            error=error,
            create_error=create_error,
            players_hint=players_hint(),
            fewest=min(low for low, _ in limits.values()),
            most=max(high for _, high in limits.values()),
            switchable=switchable_readings(),
        ),
        status,
    )


def switchable_readings() -> list[dict]:
    """The open points a table may read the other way, per rules page (its entries share them),
    each with the rule's sentence and both readings, in the reader's language."""
    found = []
    for key, info in GAMES.items():
        rules = info.rules
        if info.rules_page != key or not rules.other_readings:
            continue
        readings = []
        for reading, other in rules.other_readings.items():
            source = rules.reads_from.get(reading)
            readings.append(
                {
                    "id": reading,
                    "ours": translate_in(info.name, rules.readings[reading]),
                    "other": translate_in(info.name, other),
                    "source": source,
                    # a paragraph number is cited "¶40", lines as they are ("ja L140")
                    "where": ("¶" if source[0].isdigit() else "") + source[0] if source else "",
                    "rendering": translate_in(info.name, source[2]) if source else "",
                }
            )
        keys = [k for k, i in GAMES.items() if i.rules_page == key]
        found.append({"label": game_label(info), "entries": keys, "readings": readings})
    return found


def chosen_readings(info, form) -> dict:
    """The readings the start form switched for this game: {id: OTHER_WAY}."""
    return {
        reading: OTHER_WAY
        for reading in info.rules.other_readings
        if form.get(f"reading-{reading}") == OTHER_WAY
    }


def players_hint() -> str:
    """ "<game>: 3–5, <game>: 2–4, ..." from the registry, in the reader's language
    (one line per rules page: a game's rule sets share their limits)."""
    parts = []
    for key, info in GAMES.items():
        if info.rules_page != key:
            continue
        if info.min_players == info.max_players:
            parts.append(
                translate(N_("%(game)s: %(n)s")) % {"game": game_label(info), "n": info.min_players}
            )
        else:
            parts.append(
                translate(N_("%(game)s: %(min)s–%(max)s"))
                % {"game": game_label(info), "min": info.min_players, "max": info.max_players}
            )
    return format_list(parts, locale=get_locale() or "en")


@bp.get("/")
def home():
    """Pick a game and start a table, or type a code to join one."""
    new_form = NewTableForm(formdata=None)
    new_form.players.data = 3
    return _home(new_form, JoinCodeForm(formdata=None))


@bp.post("/tables")
def create():
    """Start a table; this device becomes its host."""
    form = NewTableForm()
    if not form.validate_on_submit():
        return _home(form, JoinCodeForm(formdata=None), status=400)
    db = get_db()
    limits = current_app.config
    try:
        tables.check_create_allowed(
            db,
            *guesser(),
            per_device=int(limits["TABLES_PER_DEVICE_MINUTE"]),
            per_address=int(limits["TABLES_PER_ADDRESS_MINUTE"]),
        )
    except tables.TableError as exc:  # what was typed stays in the form
        return _home(form, JoinCodeForm(formdata=None), status=exc.status, create_error=exc.msg)
    game = GAMES[form.game.data]
    players = form.players.number
    typed = [(form.names.entries[i].data or "").strip() for i in range(players)]
    named = [bool(name) for name in typed]
    names = [name or default_seat_name(game, i) for i, name in enumerate(typed)]
    # The table's own time zone dates its play: the server's setting, else the host's browser's.
    zone = localtime.valid_zone(current_app.config.get("TIME_ZONE")) or localtime.valid_zone(
        form.timezone.data
    )
    table, host_token = tables.create_table(
        db,
        game.key,
        names,
        named,
        timezone=zone,
        settings=table_settings(form),
        readings=chosen_readings(game, request.form),
    )
    tables.count_created(db, *guesser())
    plays.remove_empty_tables(db)
    response = redirect(url_for("table.page", code=table.code))
    set_token_cookie(response, host_cookie(table.code), host_token, table.code)
    device.remember(table.code, "host")
    return response


@bp.post("/join")
def join_by_code():
    """Typing the code shown under the host's QR code leads to the table's join page."""
    form = JoinCodeForm()
    if not form.validate_on_submit():
        new_form = NewTableForm(formdata=None)
        new_form.players.data = 3
        return _home(new_form, form, status=400)
    db = get_db()
    try:
        tables.check_join_allowed(db, *guesser())
        table = tables.find_table(db, form.code.data)
        if table is None:
            tables.count_unknown_code(db, *guesser())
            raise unknown_code(form.code.data)
    except tables.TableError as exc:
        new_form = NewTableForm(formdata=None)
        new_form.players.data = 3
        return _home(new_form, form, error=exc.msg, status=exc.status)
    if device.holds(table.code):
        # This device has a seat or the host's token there (the list says so; the table page
        # checks the token itself): straight to the table, not to the seat picker.
        return redirect(url_for("table.page", code=table.code))
    return redirect(url_for("table.join", code=table.code))


def _back() -> str:
    """The page a footer switch leads back to (?next=), never off-site."""
    target = request.args.get("next", "/")
    if urlsplit(target).netloc or not target.startswith("/"):
        target = "/"
    return target


@bp.get("/text/<int(signed=True):step>")
def set_text_size(step: int):
    """The footer's A− / A+: the text one size smaller or larger on this device (a cookie, as
    the language is), back to the same page; it works without a script."""
    size = max(TEXT_SIZES[0], min(TEXT_SIZES[-1], text_size() + (1 if step > 0 else -1)))
    response = redirect(_back())
    response.set_cookie(
        TEXT_COOKIE, str(size), max_age=60 * 60 * 24 * 365, samesite="Lax", httponly=True
    )
    return response


@bp.get("/lang/<lang>")
def set_language(lang: str):
    """The footer's language switch: remembered in a cookie, back to the same page."""
    response = redirect(_back())
    if lang in LANGUAGES:
        response.set_cookie(
            LANG_COOKIE, lang, max_age=60 * 60 * 24 * 365, samesite="Lax", httponly=True
        )
    return response

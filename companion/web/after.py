"""After the game: the summary, the rematch, and the exports (JSON, CSV, BG Stats, plain text).

The summary and the exports are for the table's members and its display link (and, once the game
is over, for every device the one rule of a finished play lets see it). Private values are
exported only once they are public: before the end, the JSON has no game actions (a sealed bid is
in one) and there is no score to export. The exports are built by companion.exports from the
table's play in the record (companion.records): these routes choose and answer.
"""

from __future__ import annotations

import base64
import dataclasses
import hmac
import json

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import force_locale
from markupsafe import Markup

from companion import get_db, i18n, localtime, plays, qr, records, tables
from companion.exports import bgstats, spreadsheet, table_json, text
from companion.forms import LocationForm, rematch_readings, rematch_settings
from companion.games import GAMES
from companion.games.base import N_, Msg
from companion.i18n import render_msg, translate_in
from companion.security import secret_key
from companion.web import device
from companion.web.adapter import adapter_of
from companion.web.table import (
    Who,
    display_cookie,
    guesser,
    host_cookie,
    refuse,
    seat_cookie,
    seats_shown,
    set_token_cookie,
    table_route,
    unknown_code,
)

bp = Blueprint("after", __name__, url_prefix="/t/<code>")


# --- the play in the record, and the server's settings for it ------------------------------------


def default_location() -> str:
    """Where a play was when its host named no place: COMPANION_LOCATION, or the app's name."""
    return (current_app.config.get("LOCATION") or "").strip() or bgstats.SOURCE_NAME


def zone_setting() -> str | None:
    """The server's time zone for the tables (COMPANION_TIMEZONE): it overrides the zone a
    host's browser sends, and dates the plays recorded before zones were kept."""
    return localtime.valid_zone(current_app.config.get("TIME_ZONE"))


def salt() -> str:
    """This server's salt for the ids of players and places in BG Stats."""
    return bgstats.salt_of(secret_key())


def dated(play: plays.Play) -> plays.Play:
    """A play recorded before zones were kept is dated in the server's zone setting."""
    if play.timezone is None and zone_setting():
        return dataclasses.replace(play, timezone=zone_setting())
    return play


def play_of(table: tables.Table) -> plays.Play | None:
    """The table's play in the record (recorded now if its game is over and it is not yet)."""
    found = records.ensure_play(get_db(), table.code)
    return dated(found) if found is not None else None


def words() -> text.Words:
    """The reader's language, for the exports that speak it."""
    return text.Words(
        gettext=i18n.translate,
        ngettext=lambda one, many, n: i18n.current_translations().ungettext(one, many, n),
        game=lambda key: i18n.game_label(GAMES[key]) if key in GAMES else key,
        message=lambda msg, names: render_msg(msg, names),
        day=i18n.day,
    )


def bgstats_file(found: list[plays.Play], me: tuple[str, int] | None = None) -> str:
    """A BG Stats file of these plays, its comments in the reader's language."""
    data = bgstats.play_file(
        [dated(p) for p in found],
        salt=salt(),
        location=default_location(),
        me=me,
        tr=translate_in,
    )
    return json.dumps(data, ensure_ascii=False, indent=1)


# --- the summary ------------------------------------------------------------------------------


def _summary_page(w: Who, form: LocationForm | None = None, status: int = 200):
    table = w.table
    db = get_db()
    state = tables.state_of(db, table)
    result = table.game.rules.result(state)
    names = [s.name for s in seats_shown(db, table)]
    chart = play = link = None
    if result is not None:
        play = play_of(table)
        chart = adapter_of(table.game).summary_chart(
            [s for _, s in tables.game_states(db, table)], names
        )
    if play is not None:
        link = bgstats.link(play, salt=salt(), location=default_location())
    started = tables.started_at(db, table)
    ended = tables.get_table(db, table.code).ended
    if form is None and w.host:
        form = LocationForm(formdata=None)
        form.location.data = table.location or ""
    key = request.args.get("key")
    log = tables.events(db, table)[::-1] if result is not None and ended is not None else []
    return (
        render_template(
            "table/summary.html",
            table=table,
            who=w,
            names=names,
            result=result,
            # once it is over, every line of the history links to its step of the replay
            history=log,
            history_total=len(log),
            replay_args={"key": key} if key and w.display else {},
            score=table.game.rules.score_table(state, result) if result is not None else None,
            chart=chart,
            minutes=round((ended - started) / 60) if ended and started else None,
            key=key,
            play=play,
            clock=localtime.clock,
            bgstats_link=link,
            bgstats_qr=Markup(qr.link_svg(link)) if link else None,
            place=bgstats.place(play, default_location()) if play else None,
            default_location=default_location(),
            location_form=form,
        ),
        status,
    )


@bp.get("/summary")
@table_route("viewer")
def summary(w: Who):
    """How the game went: duration, the winner and why, a picture per game, each player's
    thinking time, and the ways to take it home (BG Stats in one tap, the files)."""
    return _summary_page(w)


@bp.post("/location")
@table_route("host")
def set_location(w: Who):
    """The host names where the table is played (BG Stats files its plays by place); empty: the
    server's default."""
    form = LocationForm()
    if not form.validate_on_submit():
        if form.csrf_token.errors:
            abort(400)
        return _summary_page(w, form, 400)
    tables.set_location(get_db(), w.table, (form.location.data or "").strip() or None)
    return redirect(url_for("after.summary", code=w.table.code) + "#bgstats")


# --- the rematch ------------------------------------------------------------------------------


@bp.post("/rematch")
@table_route("host")
def rematch(w: Who):
    """The host starts the same game again with the same people, in the same seats or each one
    seat on; every phone seated here is shown the way to its person's new seat (a seated host's
    device takes its own there at once)."""
    table = w.table
    db = get_db()
    if table.ended is None:
        refuse(409, Msg.core(N_("A rematch starts once this game is over.")))
    if table.rematch_code:
        return redirect(url_for("table.page", code=table.rematch_code))
    shift = 1 if request.form.get("order") == "next" else 0
    n = table.players
    names, named = tables.rematch_seats(
        tables.seats(db, table), shift, lambda seat: i18n.default_seat_name(table.game, seat)
    )
    new, host_token = tables.create_table(
        db,
        table.game.key,
        names,
        named,
        timezone=table.timezone,
        location=table.location,
        settings=rematch_settings(request.form, table.settings),  # kept, or as changed
        # the table reads the rules as it did, or as the form changed it
        readings=rematch_readings(
            request.form, table.game.rules.other_readings, table.options.get("readings")
        ),
    )
    tables.start_rematch(db, table, new.code, shift)
    response = redirect(url_for("table.page", code=new.code))
    set_token_cookie(response, host_cookie(new.code), host_token, new.code)
    device.remember(new.code, "host")
    if w.seat is not None:
        seat_token = tables.join(db, new, (w.seat + shift) % n)
        set_token_cookie(response, seat_cookie(new.code), seat_token, new.code)
        device.remember(new.code, "seat", (w.seat + shift) % n, seat_token)
    return response


@bp.get("/rematch/follow")
@table_route("open")
def follow(w: Who):
    """The way from a finished table to its rematch, for the devices that were at it: a seated
    phone takes its person's seat there, the host's device goes to the new table (its host
    token is there), the table display gets a display link of the new table (the same one
    however often it follows; the display that stayed at the table gets it in its cookie).
    Anyone else gets the answer of an unknown table, so the link never tells a stranger the
    rematch's code."""
    table = w.table
    db = get_db()
    key = request.args.get("key")
    # A display link (its key) follows as a display; the table display that stayed at the table
    # (its cookie) too, unless the device also holds a seat or the host's token there.
    in_cookie = w.table_device and not w.member and not tables.is_display(db, table, key)
    if in_cookie:
        key = request.cookies.get(display_cookie(table.code))
    # (a display has its key: the cookie in_cookie found, or a link's)
    display = key is not None and (in_cookie or (w.display and tables.is_display(db, table, key)))
    if not (w.member or display):
        try:
            tables.count_unknown_code(db, *guesser())
            raise unknown_code(table.code)
        except tables.TableError as refused:
            refuse(refused.status, refused.msg)
    if not table.rematch_code:
        if display:
            return redirect(
                url_for("display.page", code=table.code, key=None if in_cookie else key)
            )
        return redirect(url_for("table.page", code=table.code))
    new = tables.get_table(db, table.rematch_code)
    if display and key is not None:
        new_key = _followed_display_key(key, new.code)
        tables.add_display(db, new, new_key, tables.display_origin(db, table, key) or tables.LINK)
        if in_cookie:
            response = redirect(url_for("display.page", code=new.code))
            set_token_cookie(response, display_cookie(new.code), new_key, new.code)
            if "d" in device.listed().get(table.code, ""):
                device.remember(new.code, "display")  # the rematch's record is its own too
            return response
        return redirect(url_for("display.page", code=new.code, key=new_key))
    if w.seat is None:  # the host's device: its token for the new table is there
        return redirect(url_for("table.page", code=new.code))
    new_seat = (w.seat + table.rematch_shift) % table.players
    try:
        token = tables.join(db, new, new_seat)
    except tables.TableError as refused:
        if refused.status == 409:
            # Taken: by this phone following twice (its cookie for the new table is not sent to
            # the old table's address, so only the new table's page can tell), or by another.
            return redirect(url_for("table.page", code=new.code, followed=new_seat + 1))
        refuse(refused.status, refused.msg)  # the host locked the rematch
    response = redirect(url_for("table.page", code=new.code))
    set_token_cookie(response, seat_cookie(new.code), token, new.code)
    device.remember(new.code, "seat", new_seat, token)
    return response


def _followed_display_key(old_key: str, new_code: str) -> str:
    """The display link a display of the old table gets at the rematch: derived from its key
    with the app's secret, so following twice gives the same link (and adds no second one)."""
    digest = hmac.new(
        secret_key().encode(), f"display:{old_key}:{new_code}".encode(), "sha256"
    ).digest()
    return base64.urlsafe_b64encode(digest[:18]).decode()


# --- exports --------------------------------------------------------------------------------


def shown_action(table: tables.Table, event: tables.Event) -> dict:
    """An event's action as history may show it once the game is over: whole, except an undone
    action the table could not see when it was entered (a secret Move, e.g. a sealed bid taken
    back before the reveal), which was never public: its kind and seat only."""
    secret = table.game.rules.moves.secret_actions
    if event.undone and event.action.get("type") in secret:
        kept = {k: v for k, v in event.action.items() if k in ("type", "seat", "host")}
        return {**kept, "withheld": True}
    return event.action


@bp.get("/export.json")
@table_route("viewer")
def export_json(w: Who):
    """Everything of the table, losslessly: its events with their times, and the result once the
    game is over. Before the end, game actions are left out (a sealed bid or a private point is
    in one)."""
    table = w.table
    db = get_db()
    seat_rows = tables.seats(db, table)  # as stored: lossless
    with force_locale("en"):  # the lines are English, a seat nobody named too ("Player 2")
        names = [s.name for s in i18n.reader_seats(table.game, seat_rows)]
    state = tables.state_of(db, table)
    result = table.game.rules.result(state)
    play = play_of(table) if result is not None else None

    def english(event: tables.Event) -> list[str]:
        with force_locale("en"):
            return [render_msg(line, names) for line in event.lines]

    data = table_json.table_json(
        dataclasses.replace(table, timezone=table.timezone or zone_setting()),
        seat_rows,
        tables.events(db, table),
        started=tables.started_at(db, table),
        result=result,
        score=table.game.rules.score_table(state, result) if result is not None else None,
        action=lambda event: shown_action(table, event),
        lines=english,
        seconds=[p.seconds or 0.0 for p in play.players] if play and play.timed else None,
    )
    return _download(
        json.dumps(data, ensure_ascii=False, indent=1, default=str),
        "application/json",
        table,
        "json",
    )


def _finished(table: tables.Table) -> plays.Play:
    play = play_of(table)
    if play is None:
        refuse(409, Msg.core(N_("The scores can be exported once the game is over.")))
    return play


@bp.get("/export.csv")
@table_route("viewer")
def export_csv(w: Who):
    """One row per player: date, game, duration, seat, name, score, rank, winner, the game's
    own breakdown columns, then the start player, the thinking time, the place and the ids."""
    play = _finished(w.table)
    return _download(
        spreadsheet.csv_text([play], location=default_location()), "text/csv", w.table, "csv"
    )


@bp.get("/export.bgsplay")
@table_route("viewer")
def export_bgstats(w: Who):
    """The play as a BG Stats file: its players, place and game, and the play (the downloading
    phone's seat is BG Stats' "me")."""
    play = _finished(w.table)
    me = (w.table.code, w.seat) if w.seat is not None else None
    return _download(bgstats_file([play], me), "application/json", w.table, "bgsplay")


@bp.get("/export.txt")
@table_route("viewer")
def export_text(w: Who):
    """A plain summary to paste into a chat, in the reader's language (the file)."""
    return Response(_summary_text(w.table), mimetype="text/plain")


def _summary_text(table: tables.Table) -> str:
    play = play_of(table)
    if play is None:
        return text.still_going(table.game.key, table.code, words())
    return text.summary(play, words())


@bp.get("/text")
@table_route("viewer")
def text_page(w: Who):
    """The summary as text on a page: ready to copy (a Copy button) and paste into a chat,
    with the way back to the summary."""
    return render_template(
        "table/text.html",
        table=w.table,
        text=_summary_text(w.table),
        key=request.args.get("key"),
    )


def _download(body: str, mimetype: str, table: tables.Table, ext: str) -> Response:
    response = Response(body, mimetype=mimetype)
    response.headers["Content-Disposition"] = (
        f'attachment; filename="{table.game.key}-{table.code}.{ext}"'
    )
    return response

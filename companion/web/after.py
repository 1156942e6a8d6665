"""After the game: the summary, the rematch, and the exports (JSON, CSV, BG Stats, plain text).

The summary and the exports are for the table's members and its display link. Private values
are exported only once they are public: before the end, the JSON has no game actions (a sealed
bid is in one) and there is no score to export.
"""

from __future__ import annotations

import base64
import csv
import datetime
import hmac
import io
import json
import uuid

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
from flask_wtf import FlaskForm

from companion import get_db, i18n, plays, tables
from companion.games.base import N_, Msg
from companion.i18n import render_msg, translate_in
from companion.web import device
from companion.web.table import (
    Who,
    guesser,
    host_cookie,
    refuse,
    seat_cookie,
    set_token_cookie,
    table_route,
    unknown_code,
)

bp = Blueprint("after", __name__, url_prefix="/t/<code>")
NAMESPACE = uuid.UUID("6f1d7c1e-3a55-4c9b-9a57-1c2f0e0a7b42")  # stable ids for BG Stats


# --- the record of a finished game ----------------------------------------------------------------


def results_of(table: tables.Table) -> list[plays.PlayerResult] | None:
    """The players' scores, ranks and wins of a finished table (None while it goes on)."""
    db = get_db()
    state = tables.state_of(db, table)
    result = table.game.module.result(state)
    if result is None:
        return None
    seat_rows = tables.seats(db, table)
    score = table.game.adapter.score_table(state, result)
    found = []
    for seat in range(table.players):
        if score is not None and seat in score.seats:
            i = score.seats.index(seat)
            value, rank = score.totals[i], score.ranks[i]
            winner = seat in score.winners
        else:
            value, rank, winner = None, None, False
        row = seat_rows[seat]
        found.append(plays.PlayerResult(seat, row.name, row.named, value, rank, winner))
    return found


def ensure_play(table: tables.Table) -> None:
    """Write the table's play if its game is over and the play is not written yet."""
    db = get_db()
    fresh = tables.get_table(db, table.code)
    if fresh.ended is None or plays.has_play(db, fresh.id):
        return
    found = results_of(fresh)
    if found is not None:
        plays.record_play(
            db,
            fresh.id,
            fresh.code,
            fresh.game.key,
            tables.started_at(db, fresh),
            fresh.ended,
            found,
        )


def ensure_all_plays() -> None:
    """Every finished table has its play (e.g. before old tables are purged)."""
    db = get_db()
    for (code,) in db.execute(
        "SELECT code FROM tables WHERE ended IS NOT NULL AND id NOT IN (SELECT table_id FROM plays)"
    ).fetchall():
        ensure_play(tables.get_table(db, code))


# --- the summary ------------------------------------------------------------------------------


@bp.get("/summary")
@table_route("viewer")
def summary(w: Who):
    """How the game went: duration, the winner and why, and a picture per game."""
    table = w.table
    db = get_db()
    state = tables.state_of(db, table)
    result = table.game.module.result(state)
    names = [s.name for s in tables.seats(db, table)]
    chart = None
    if result is not None:
        ensure_play(table)
        chart = table.game.adapter.summary_chart(
            [s for _, s in tables.game_states(db, table)], names
        )
    started = tables.started_at(db, table)
    ended = tables.get_table(db, table.code).ended
    key = request.args.get("key")
    log = tables.events(db, table)[::-1] if result is not None and ended is not None else []
    return render_template(
        "table/summary.html",
        table=table,
        who=w,
        names=names,
        result=result,
        # once it is over, every line of the history links to its step of the replay
        history=log,
        history_total=len(log),
        replay_args={"key": key} if key and w.display else {},
        score=table.game.adapter.score_table(state, result) if result is not None else None,
        chart=chart,
        minutes=round((ended - started) / 60) if ended and started else None,
        key=key,
    )


# --- the rematch ------------------------------------------------------------------------------


@bp.post("/rematch")
@table_route("host")
def rematch(w: Who):
    """The host starts the same game again with the same people, in the same seats or each one
    seat on; every phone seated here is shown the way to its person's new seat."""
    table = w.table
    db = get_db()
    if table.ended is None:
        refuse(409, Msg.core(N_("A rematch starts once this game is over.")))
    if not FlaskForm().validate_on_submit():
        abort(400)
    if table.rematch_code:
        return redirect(url_for("table.page", code=table.rematch_code))
    shift = 1 if request.form.get("order") == "next" else 0
    seat_rows = tables.seats(db, table)
    n = table.players
    names, named = [""] * n, [False] * n
    labels = getattr(table.game.module, "SEAT_LABELS", None)
    for row in seat_rows:
        new_seat = (row.seat + shift) % n
        names[new_seat], named[new_seat] = row.name, row.named
    for seat in range(n):  # a default name belongs to its seat, not to a person
        if not named[seat]:
            names[seat] = (
                translate_in(table.game.name, labels[seat])
                if labels
                else i18n.translate(N_("Player %(n)s")) % {"n": seat + 1}
            )
    new, host_token = tables.create_table(db, table.game.key, names, named)
    tables.start_rematch(db, table, new.code, shift)
    response = redirect(url_for("table.page", code=new.code))
    set_token_cookie(response, host_cookie(new.code), host_token, new.code)
    device.remember(new.code, "host")
    return response


@bp.get("/rematch/follow")
@table_route("open")
def follow(w: Who):
    """The way from a finished table to its rematch, for the devices that were at it: a seated
    phone takes its person's seat there, the host's device goes to the new table (its host
    token is there), the table display gets a display link of the new table (the same one
    however often it follows). Anyone else gets the answer of an unknown table, so the link
    never tells a stranger the rematch's code."""
    table = w.table
    db = get_db()
    key = request.args.get("key")
    display = w.display
    if not (w.member or display):
        try:
            tables.count_unknown_code(db, *guesser())
            raise unknown_code(table.code)
        except tables.TableError as refused:
            refuse(refused.status, refused.msg)
    if not table.rematch_code:
        if display:
            return redirect(url_for("display.page", code=table.code, key=key))
        return redirect(url_for("table.page", code=table.code))
    new = tables.get_table(db, table.rematch_code)
    if display:
        new_key = _followed_display_key(key, new.code)
        tables.add_display(db, new, new_key)
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
    device.remember(new.code, "seat")
    return response


def _followed_display_key(old_key: str, new_code: str) -> str:
    """The display link a display of the old table gets at the rematch: derived from its key
    with the app's secret, so following twice gives the same link (and adds no second one)."""
    digest = hmac.new(
        current_app.secret_key.encode(), f"display:{old_key}:{new_code}".encode(), "sha256"
    ).digest()
    return base64.urlsafe_b64encode(digest[:18]).decode()


# --- exports --------------------------------------------------------------------------------


def shown_action(table: tables.Table, event: tables.Event) -> dict:
    """An event's action as history may show it once the game is over: whole, except an undone
    action the table could not see when it was entered (the game's Privacy.secret_actions, e.g. a sealed
    bid taken back before the reveal), which was never public: its kind and seat only."""
    secret = table.game.privacy.secret_actions
    if event.undone and event.action.get("type") in secret:
        kept = {k: v for k, v in event.action.items() if k in ("type", "seat", "host")}
        return {**kept, "withheld": True}
    return event.action


def _english_lines(event: tables.Event, names: list[str]) -> list[str]:
    with force_locale("en"):
        return [render_msg(line, names) for line in event.lines]


@bp.get("/export.json")
@table_route("viewer")
def export_json(w: Who):
    """Everything of the table, losslessly: its events, and the result once the game is over.
    Before the end, game actions are left out (a sealed bid or a private point is in one)."""
    table = w.table
    db = get_db()
    seat_rows = tables.seats(db, table)
    names = [s.name for s in seat_rows]
    state = tables.state_of(db, table)
    result = table.game.module.result(state)
    over = result is not None
    data = {
        "table": {
            "code": table.code,
            "game": table.game.key,
            "game_name": i18n.translate_in(table.game.name, table.game.label),
            "options": table.options,
            "players": table.players,
            "created": _iso(table.created),
            "started": _iso(tables.started_at(db, table)),
            "ended": _iso(table.ended if over else None),
        },
        "seats": [{"seat": s.seat, "name": s.name} for s in seat_rows],
        "events": [
            {
                "seq": e.seq,
                "seat": e.seat,
                "host": e.host,
                "kind": e.kind,
                **({"action": shown_action(table, e)} if over or e.kind != "game" else {}),
                "lines": _english_lines(e, names),
                "undone": e.undone,
            }
            for e in tables.events(db, table)
        ],
        "result": result if over else None,
    }
    if over:
        score = table.game.adapter.score_table(state, result)
        if score is not None:
            data["scores"] = {
                "seats": score.seats,
                "ranks": score.ranks,
                "winners": score.winners,
                "totals": score.totals,
                "rows": [[label, values] for label, values in score.rows],
            }
    return _download(
        json.dumps(data, ensure_ascii=False, indent=1, default=str),
        "application/json",
        table,
        "json",
    )


def _finished(table: tables.Table):
    found = results_of(table)
    if found is None:
        refuse(409, Msg.core(N_("The scores can be exported once the game is over.")))
    return found


@bp.get("/export.csv")
@table_route("viewer")
def export_csv(w: Who):
    """One row per player: date, game, duration, seat, name, score, rank, winner, and the
    game's own breakdown columns."""
    table = w.table
    found = _finished(table)
    db = get_db()
    state = tables.state_of(db, table)
    score = table.game.adapter.score_table(state, table.game.module.result(state))
    started = tables.started_at(db, table)
    ended = tables.get_table(db, table.code).ended
    columns = [label for label, _ in score.rows] if score else []
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(
        ["date", "game", "duration_minutes", "seat", "name", "score", "rank", "winner", *columns]
    )
    for p in found:
        breakdown = []
        if score and p.seat in score.seats:
            i = score.seats.index(p.seat)
            breakdown = [values[i] for _, values in score.rows]
        writer.writerow(
            [
                _iso(ended)[:10],
                i18n.translate_in(table.game.name, table.game.label),
                round((ended - started) / 60) if started else "",
                p.seat + 1,
                p.name,
                p.score,
                p.rank,
                "yes" if p.winner else "no",
                *breakdown,
            ]
        )
    return _download(out.getvalue(), "text/csv", table, "csv")


@bp.get("/export.bgsplay")
@table_route("viewer")
def export_bgstats(w: Who):
    """The play as a BG Stats import file (JSON): its players, its game and one play."""
    table = w.table
    found = _finished(table)
    db = get_db()
    started = tables.started_at(db, table)
    ended = tables.get_table(db, table.code).ended
    adapter = table.game.adapter
    game = {
        "id": 1,
        "uuid": str(uuid.uuid5(NAMESPACE, f"game:{table.game.key}")),
        "name": i18n.translate_in(table.game.name, table.game.label),
        "highestWins": True,
        "noPoints": False,
        "cooperative": False,
        "usesTeams": False,
    }
    if adapter.bgg_id is not None:
        game["bggId"] = adapter.bgg_id
    state = tables.state_of(db, table)
    start_seat = adapter.start_seat(state)
    players, scores = [], []
    for i, p in enumerate(found, start=1):
        players.append(
            {
                "id": i,
                "uuid": str(uuid.uuid5(NAMESPACE, f"player:{plays.person(p.name)}")),
                "name": p.name,
                "isAnonymous": not p.named,
            }
        )
        scores.append(
            {
                "playerRefId": i,
                "score": "" if p.score is None else str(p.score),
                "winner": p.winner,
                "rank": p.rank or 0,
                "seatOrder": p.seat + 1,
                "startPlayer": p.seat == start_seat,
            }
        )
    data = {
        "players": players,
        "games": [game],
        "plays": [
            {
                "uuid": str(uuid.uuid5(NAMESPACE, f"play:{table.code}:{table.created}")),
                "gameRefId": 1,
                "playDate": _bg_date(started or ended),
                "entryDate": _bg_date(ended),
                "durationMin": round((ended - started) / 60) if started else 0,
                "comments": f"Table companion · {table.code}",
                "playerScores": scores,
            }
        ],
    }
    return _download(
        json.dumps(data, ensure_ascii=False, indent=1), "application/json", table, "bgsplay"
    )


@bp.get("/export.txt")
@table_route("viewer")
def export_text(w: Who):
    """A plain summary to paste into a chat, in the reader's language."""
    table = w.table
    db = get_db()
    names = [s.name for s in tables.seats(db, table)]
    state = tables.state_of(db, table)
    result = table.game.module.result(state)
    score = table.game.adapter.score_table(state, result) if result is not None else None
    started = tables.started_at(db, table)
    ended = tables.get_table(db, table.code).ended
    text = render_template(
        "table/summary.txt",
        table=table,
        names=names,
        score=score,
        minutes=round((ended - started) / 60) if ended and started else None,
        ended=ended,
    )
    return Response(text, mimetype="text/plain")


def _iso(moment: float | None) -> str | None:
    if moment is None:
        return None
    return datetime.datetime.fromtimestamp(moment, datetime.UTC).isoformat(timespec="seconds")


def _bg_date(moment: float) -> str:
    return datetime.datetime.fromtimestamp(moment).strftime("%Y-%m-%d %H:%M:%S")


def _download(body: str, mimetype: str, table: tables.Table, ext: str) -> Response:
    response = Response(body, mimetype=mimetype)
    response.headers["Content-Disposition"] = (
        f'attachment; filename="{table.game.key}-{table.code}.{ext}"'
    )
    return response

"""The table's record of plays on this server: /plays (finished games, and the whole record as
one BG Stats file or one CSV), /stats (per game and per player name) and a page per player.

Every one of them shows only the plays this device may see: the one rule of a finished play
(companion.web.device.may_see_play: the tables it sat at or hosted, unless the server opens the
record to every device, COMPANION_OPEN_STATS=1)."""

from __future__ import annotations

from flask import Blueprint, Response, abort, redirect, render_template, request, url_for

from companion import get_db, i18n, localtime, past_plays, plays, records, tables
from companion.exports import spreadsheet
from companion.games import GAMES
from companion.web import device
from companion.web.after import bgstats_file, dated, default_location

bp = Blueprint("records", __name__)
PLAYER_MAX = 40  # characters of a player's name in a filter or a player page's address


@bp.app_template_global()
def shown_name(play: plays.Play, player: plays.PlayerResult) -> str:
    """A player of the record as this reader reads them: a seat nobody named (its default,
    stored in the language of the device that made the table) under its default name in the
    reader's language (i18n.reader_seats); an imported player as the source names them."""
    if play.source or play.game not in GAMES:
        return player.name
    return i18n.seat_name(GAMES[play.game], player.seat, player.name, player.named)


def _visible_codes() -> set[str] | None:
    """The table codes this device may see the plays of (None: every table): the one rule of
    companion.web.device.may_see_play."""
    return device.visible_codes()


def _chosen_game() -> str | None:
    key = request.args.get("game") or None
    return key if key in GAMES else None


def _chosen_player() -> str | None:
    return (request.args.get("player") or "").strip()[:PLAYER_MAX] or None


def seen_plays(game: str | None = None, player: str | None = None) -> list[plays.Play]:
    """The plays this device may see (of one game, with one player), every one whole: those of
    its tables, and those it imported (companion.past_plays), newest first."""
    db = get_db()
    records.ensure_all_plays(db)
    found = plays.plays(db, codes=_visible_codes(), game=game, player=player)
    found += past_plays.stored(db, device.device_id(), game=game, player=player)
    return sorted((dated(p) for p in found), key=lambda p: -p.ended)


def _found(player: str | None = None) -> list[plays.Play]:
    """The plays this device may see, of the chosen game (and player)."""
    return seen_plays(_chosen_game(), player)


@bp.get("/plays")
def plays_page():
    """The finished games: date, game, players, winner, scores, duration; filtered by game and
    by a player's name; the whole list as one BG Stats file or one CSV."""
    player = _chosen_player()
    found = _found(player)
    return render_template(
        "records/plays.html",
        found=found,
        kept=plays.tables_kept(get_db(), [p.code for p in found]),
        games=GAMES,
        game=_chosen_game(),
        player=player or "",
        open_stats=_visible_codes() is None,
        imported=request.args.get("imported", type=int),
    )


def _download(body: str, mimetype: str, ext: str) -> Response:
    parts = ["plays", _chosen_game() or ""]
    name = "-".join(p for p in parts if p)
    response = Response(body, mimetype=mimetype)
    response.headers["Content-Disposition"] = f'attachment; filename="{name}.{ext}"'
    return response


def _one_play(code: str) -> plays.Play:
    """The play of this table code, for a device that may see it (else the answer of an
    unknown page: /plays does not list it to that device)."""
    db = get_db()
    records.ensure_all_plays(db)
    code = tables.normalize_code(code)[:12]
    found = plays.plays(db, codes={code})
    if not found or not device.may_see_play(code):
        abort(404)
    return dated(found[0])


@bp.get("/plays/<code>")
def play_page(code: str):
    """One play of the record: the table's summary while the table exists (its charts and
    exports), else what the record holds (date, game, players, scores, winner, duration) with
    the exports built from it. For exactly the devices /plays shows the play to."""
    play = _one_play(code)
    if tables.find_table(get_db(), play.code) is not None:
        return redirect(url_for("after.summary", code=play.code))
    return render_template("records/play.html", play=play, games=GAMES)


def _play_download(play: plays.Play, body: str, mimetype: str, ext: str) -> Response:
    response = Response(body, mimetype=mimetype)
    response.headers["Content-Disposition"] = (
        f'attachment; filename="{play.game}-{play.code}.{ext}"'
    )
    return response


@bp.get("/plays/<code>/export.bgsplay")
def play_bgstats(code: str):
    """One play of the record as a BG Stats file (the same play id as its table's file)."""
    play = _one_play(code)
    return _play_download(play, bgstats_file([play]), "application/json", "bgsplay")


@bp.get("/plays/<code>/export.csv")
def play_csv(code: str):
    """One play of the record as a CSV, a row per player."""
    play = _one_play(code)
    body = spreadsheet.csv_text([play], location=default_location())
    return _play_download(play, body, "text/csv", "csv")


@bp.get("/plays/export.bgsplay")
def plays_bgstats():
    """Every play /plays shows (with its filters) as one BG Stats file: the same play ids as the
    tables' own files, so a play imported twice is one play."""
    return _download(bgstats_file(_found(_chosen_player())), "application/json", "bgsplay")


@bp.get("/plays/export.csv")
def plays_csv():
    """Every play /plays shows (with its filters) as one CSV, a row per player."""
    body = spreadsheet.csv_text(_found(_chosen_player()), location=default_location())
    return _download(body, "text/csv", "csv")


@bp.get("/stats")
def stats_page():
    """Per game and per player name: plays, wins, win rate, average and best score, the
    longest game; each name leads to the player's page."""
    found = _found()
    per_game, per_player, shown = plays.statistics(found)
    return render_template(
        "records/stats.html",
        per_game=per_game,
        per_player=per_player,
        shown=shown,
        games=GAMES,
        game=_chosen_game(),
        open_stats=_visible_codes() is None,
    )


@bp.get("/player")
def player_page():
    """One player (their name matched as the record matches names): their plays, wins, best
    scores per game, head to head against everyone they played with, their winning streaks."""
    name = (request.args.get("name") or "").strip()[:PLAYER_MAX]
    if not name:
        abort(404)
    found = _found()
    record = plays.player_record(found, name)
    return render_template(
        "records/player.html",
        name=name,
        record=record,
        games=GAMES,
        game=_chosen_game(),
        open_stats=_visible_codes() is None,
        clock=localtime.clock,
    ), (200 if record is not None else 404)

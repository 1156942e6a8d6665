"""The table's record of plays on this server: /plays (finished games) and /stats (per game and
per player name). A device sees the plays of the tables it sat at or hosted; a server of a game
group can open them to every device (COMPANION_OPEN_STATS=1)."""

from __future__ import annotations

from flask import Blueprint, render_template, request

from companion import get_db, plays
from companion.games import GAMES
from companion.web import device
from companion.web.after import ensure_all_plays

bp = Blueprint("records", __name__)


def _visible_codes() -> set[str] | None:
    """The table codes this device may see the plays of (None: every table): the one rule of
    companion.web.device.may_see_play."""
    return device.visible_codes()


def _chosen_game() -> str | None:
    key = request.args.get("game") or None
    return key if key in GAMES else None


@bp.get("/plays")
def plays_page():
    """The finished games: date, game, players, winner, scores, duration; filtered by game and
    by a player's name."""
    ensure_all_plays()
    player = (request.args.get("player") or "").strip()[:40] or None
    found = plays.plays(get_db(), codes=_visible_codes(), game=_chosen_game(), player=player)
    return render_template(
        "records/plays.html",
        found=found,
        kept=plays.tables_kept(get_db(), [p.code for p in found]),
        games=GAMES,
        game=_chosen_game(),
        player=player or "",
        open_stats=_visible_codes() is None,
    )


@bp.get("/stats")
def stats_page():
    """Per game and per player name: plays, wins, win rate, average and best score, the
    longest game."""
    ensure_all_plays()
    found = plays.plays(get_db(), codes=_visible_codes(), game=_chosen_game())
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

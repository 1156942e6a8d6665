"""Rules pages: our own summary of each game and our reading of its ambiguous points."""

from __future__ import annotations

from flask import Blueprint, abort, render_template

from companion.games import GAMES
from companion.i18n import use_part

bp = Blueprint("rules", __name__, url_prefix="/rules")


@bp.get("/")
def index():
    """The list of games with rules pages."""
    return render_template("rules/index.html", games=GAMES)


@bp.get("/<game>")
def game_rules(game: str):
    """One game's summary and clarifications; each refusal in the app links to an entry here."""
    info = GAMES.get(game)
    if info is None or info.rules_page != game:
        abort(404)
    use_part(info.name)
    module = info.module
    template = info.adapter.rules_template or "rules/generic.html"
    return render_template(
        template,
        info=info,
        module=module,
        rules=getattr(module, "RULES", {}),
        clarifications=getattr(module, "CLARIFICATIONS", {}),
    )

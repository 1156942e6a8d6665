"""Rules pages: our own summary of each game and our reading of its ambiguous points."""

from __future__ import annotations

import importlib

from flask import Blueprint, abort, current_app, render_template, request
from flask_babel import get_locale

from companion import htmx, search
from companion.games import GAMES
from companion.i18n import LANGUAGES, use_part

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


def rules_pages() -> list[search.Entry]:
    """Every rules page, rendered in every language as a reader gets it, cut into entries."""
    client = current_app.test_client()
    entries = []
    for key, info in GAMES.items():
        if info.rules_page != key:
            continue  # a variant that shares another game's page (Don: Serengeti's)
        for lang in LANGUAGES:
            # A fresh application context for each: a request inside this one would share its
            # `g`, where Flask-Babel keeps the language it chose for the asking request.
            with current_app.app_context():
                page = client.get(f"/rules/{key}", headers={"Accept-Language": lang})
            entries += search.anchored_entries(key, lang, page.get_data(as_text=True))
    return entries


def vocabulary(info) -> search.Vocabulary:
    """A rules page's search words: its game package's search_terms.py (PHRASES, READS and,
    optionally, NUMBERS), and which of the page's ids are readings (CLARIFICATIONS that are not
    RULES)."""
    module = info.module
    readings = frozenset(getattr(module, "CLARIFICATIONS", {})) - set(getattr(module, "RULES", {}))
    try:
        terms = importlib.import_module(f"{info.package}.search_terms")
    except ModuleNotFoundError:
        return search.Vocabulary(readings=readings)
    return search.Vocabulary(
        phrases=getattr(terms, "PHRASES", {}),
        reads=getattr(terms, "READS", {}),
        readings=readings,
        numbers=getattr(terms, "NUMBERS", None),
    )


def build_index() -> search.Index:
    """The search index: every rules page in every language, with each page's vocabulary."""
    pages = {key: info for key, info in GAMES.items() if info.rules_page == key}
    return search.Index(rules_pages(), {key: vocabulary(info) for key, info in pages.items()})


@bp.get("/search")
def search_rules():
    """Ask the rules: GET ?q=words[&game=key]. The whole page, or (htmx, as you type) only the
    results region. The game of the table it was asked from comes first."""
    query = request.args.get("q", "")
    game = request.args.get("game")
    first = GAMES[game].rules_page if game in GAMES else None
    too_long = len(query) > search.MAX_QUERY
    results = []
    if query.strip() and not too_long:
        lang = str(get_locale() or "en")
        results = search.index(build_index).search(query, lang, first)
    context = {
        "query": query,
        "game": game if game in GAMES else None,
        "results": results,
        "too_long": too_long,
        "max_query": search.MAX_QUERY,
        "games": GAMES,
    }
    status = 422 if too_long else 200
    if htmx:
        return render_template("rules/_search_results.html", **context), status
    return render_template("rules/search.html", **context), status

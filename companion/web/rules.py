"""Rules pages: our own summary of each game and our reading of its ambiguous points."""

from __future__ import annotations

from flask import Blueprint, abort, current_app, redirect, render_template, request, url_for
from flask_babel import get_locale

from companion import htmx, search
from companion.games import GAMES
from companion.games.base import GameInfo
from companion.i18n import LANGUAGES, default_seat_name, game_label, game_names, use_part
from companion.web.adapter import adapter_of
from companion.web.table import Who, page_args, table_route

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
    rules = info.rules
    template = adapter_of(info).rules_template or "rules/generic.html"
    return render_template(
        template,
        info=info,
        module=info.rules_module,  # the game's own rules page reads its own constants
        rules=rules.summaries,
        clarifications=rules.readings,
    )


@bp.get("/<game>/setup")
def setup_guide(game: str):
    """A lobby entry's set-up guide for a player count (?players=N, default the fewest), without
    a table: to read before an evening, or to print (one page per game and player count)."""
    info = GAMES.get(game)
    if info is None or info.rules.setup is None:
        abort(404)
    use_part(info.name)
    asked = request.args.get("players", "")
    players = int(asked) if asked.isdigit() else info.min_players
    if not info.min_players <= players <= info.max_players:
        players = info.min_players
    guide = info.rules.setup(dict(info.options), players)
    return render_template(
        "rules/setup.html",
        info=info,
        players=players,
        guide=guide,
        guide_lang=str(get_locale() or "en"),
        rules_page=info.rules_page,
        names=[default_seat_name(info, seat) for seat in range(players)],
    )


def rules_pages() -> list[search.Entry]:
    """Every rules page, rendered in every language as a reader gets it, cut into entries."""
    client = current_app.test_client()
    entries = []
    for key, info in GAMES.items():
        if info.rules_page != key:
            continue  # a variant that shares another entry's rules page
        for lang in LANGUAGES:
            # A fresh application context for each: a request inside this one would share its
            # `g`, where Flask-Babel keeps the language it chose for the asking request.
            with current_app.app_context():
                page = client.get(f"/rules/{key}", headers={"Accept-Language": lang})
            entries += search.anchored_entries(key, lang, page.get_data(as_text=True))
    return entries


def vocabulary(info: GameInfo) -> search.Vocabulary:
    """A rules page's search words: its game's terms (Rules.terms: phrases, reads, numbers),
    and which of the page's ids are readings (readings that are not rule summaries)."""
    rules = info.rules
    return search.Vocabulary(
        phrases={lang: dict(found) for lang, found in rules.terms.phrases.items()},
        reads=dict(rules.terms.reads),
        readings=frozenset(rules.readings) - set(rules.summaries),
        numbers=rules.terms.numbers,
        names=tuple(game_names(info)),
    )


def build_index() -> search.Index:
    """The search index: every rules page in every language, with each page's vocabulary."""
    pages = {key: info for key, info in GAMES.items() if info.rules_page == key}
    return search.Index(rules_pages(), {key: vocabulary(info) for key, info in pages.items()})


def search_context(query: str, page: str | None) -> tuple[dict, int]:
    """What the search templates show for a query (scoped to one rules page, or to all), and
    the status: 422 for a query over MAX_QUERY characters."""
    too_long = len(query) > search.MAX_QUERY
    results = []
    if query.strip() and not too_long:
        lang = str(get_locale() or "en")
        results = search.index(build_index).search(query, lang, page)
    context = {
        "query": query,
        "results": results,
        "too_long": too_long,
        "max_query": search.MAX_QUERY,
        "games": GAMES,
    }
    return context, 422 if too_long else 200


def render_search(page_template: str, context: dict, status: int):
    """The whole page, or (htmx, as you type) only the results region."""
    if htmx:
        return render_template("rules/_search_results.html", **context), status
    return render_template(page_template, **context), status


@bp.get("/search")
def search_rules():
    """Ask the rules: GET ?q=words[&game=key]. With a game, only that game's rules page answers
    ("search all games" drops it)."""
    query = request.args.get("q", "")
    game = request.args.get("game", "")
    info = GAMES.get(game)
    context, status = search_context(query, info.rules_page if info else None)
    context.update(
        game=game if info else None,
        search_action=url_for("rules.search_rules"),
        search_hidden={"game": game} if info else {},
        all_games_url=url_for("rules.search_rules", q=query) if info else None,
        scope_label=game_label(info) if info else None,
    )
    return render_search("rules/search.html", context, status)


# --- from a table ----------------------------------------------------------------------------
# Ask the rules inside a table: /t/<code>/rules, with the table's menu and a way back. The same
# devices that may open the table page may open it; the table's game is set (a filter), "search
# all games" is one tap away. Kept here, with the rest of the search.

table_bp = Blueprint("table_rules", __name__, url_prefix="/t/<code>")


@table_bp.get("/rules", endpoint="search")
@table_route("member", otherwise=lambda w: redirect(url_for("table.join", code=w.table.code)))
def ask_from_table(w: Who):
    """GET ?q=words[&all=1]: the table's game answers (all=1: every game)."""
    table = w.table
    query = request.args.get("q", "")
    everywhere = request.args.get("all") == "1"
    args = page_args(w)
    context, status = search_context(query, None if everywhere else table.game.rules_page)
    context.update(
        table=table,
        who=w,
        args=args,
        game=table.game.key,
        search_action=url_for("table_rules.search", code=table.code),
        search_hidden={**args, **({"all": "1"} if everywhere else {})},
        all_games_url=None
        if everywhere
        else url_for("table_rules.search", code=table.code, q=query, all=1, **args),
        this_game_url=url_for("table_rules.search", code=table.code, q=query, **args)
        if everywhere
        else None,
        scope_label=None if everywhere else game_label(table.game),
    )
    other = None if everywhere else named_game(query, table.game.rules_page)
    if other is not None:
        # A question that names another game is answered from that game's rules, under its
        # name, with a word that this game's rules do not answer it (not this game's nearest).
        found, _ = search_context(query, other)
        if found["results"]:
            context.update(results=found["results"], elsewhere=game_label(GAMES[other]))
    return render_search("rules/table_search.html", context, status)


def named_game(query: str, page: str) -> str | None:
    """Another rules page whose game the question names (any language, a Russian name in any
    case: «в Кахуне», «от Кейптауна до Каира»), or None. The search index knows the names."""
    others = [key for key in search.index(build_index).named(query) if key != page]
    return others[0] if others else None

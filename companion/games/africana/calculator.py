"""Africana's scoring without a table: the calculator for 2-4 players, and the live breakdown
that the table's scoring sheets show while a player types (nothing is stored by either)."""

from __future__ import annotations

from flask import Blueprint, render_template, request
from flask_babel import gettext
from flask_babel import lazy_gettext as _l
from wtforms import FieldList, HiddenField, StringField

from companion import htmx
from companion.forms import VersionedForm
from companion.games.africana import rules as af
from companion.games.africana.web import SheetForm, kinds
from companion.games.base import N_, Msg, RuleError

bp = Blueprint("tools_africana", __name__, url_prefix="/tools/africana")
CALCULATORS = [(N_("Africana: final scoring"), "tools_africana.calculator")]
#: the forms each endpoint reads beyond this module's own (form class, its arguments): what the
#: robustness checks post to it (scripts/check_fuzz.py)
FORMS_READ = {
    "tools_africana.calculator": [(SheetForm, {"prefix": "p0"}), (SheetForm, {})],
    "tools_africana.preview": [(SheetForm, {"prefix": "p0"}), (SheetForm, {})],
}
DEFAULT_PLAYERS = 3
NAME_MAX = 24


class CalculatorForm(VersionedForm):
    """The calculator's own fields; each player's sheet is a SheetForm with prefix p<i>."""

    players = HiddenField()
    names = FieldList(
        StringField(_l("Name")), min_entries=af.MAX_PLAYERS, max_entries=af.MAX_PLAYERS
    )


def player_count(value) -> int:
    """2-4 players; anything else becomes the default (the page offers the three choices)."""
    try:
        players = int(value)
    except (TypeError, ValueError):
        return DEFAULT_PLAYERS
    return players if af.MIN_PLAYERS <= players <= af.MAX_PLAYERS else DEFAULT_PLAYERS


def score_sheet(form: SheetForm) -> tuple[dict | None, RuleError | Msg | None]:
    """(score, None) for a valid sheet, else (None, the refusal or the first typing error)."""
    if not form.validate():
        first = next(iter(e for errors in form.errors.values() for e in errors), "")
        return None, Msg(str(first))
    try:
        return af.final_score(form.to_action()), None
    except RuleError as refusal:
        return None, refusal


def refusal_parts(problem) -> tuple:
    """(message, rule id or None) for the template's refusal box."""
    if isinstance(problem, RuleError):
        return problem.msg, problem.rule
    return problem, None


@bp.route("/", methods=["GET", "POST"])
def calculator():
    """Final scores of 2-4 players with every line, the artifact sets chosen and the ranking."""
    posted = request.method == "POST"  # the CSRF token is checked for every POST by the app
    form = CalculatorForm(meta={"csrf": False}, **({} if posted else {"formdata": None}))
    players = player_count(form.players.data if posted else request.args.get("players"))
    sheets = [
        SheetForm(prefix=f"p{i}", meta={"csrf": False}, **({} if posted else {"formdata": None}))
        for i in range(players)
    ]
    names = [
        (form.names.entries[i].data or "").strip()[:NAME_MAX] or _player(i) for i in range(players)
    ]
    results = compute(sheets, names) if posted else None
    error = None
    for sheet in sheets:
        sheet.pad()
    context = dict(
        form=form,
        sheets=sheets,
        players=players,
        names=names,
        results=results,
        error=error,
        kinds=kinds(),
        score_lines=af.SCORE_LINES,
        player_choices=range(af.MIN_PLAYERS, af.MAX_PLAYERS + 1),
    )
    if posted and htmx:
        return render_template("africana/calculator_results.html", oob=True, **context)
    return render_template("africana/calculator.html", **context)


def _player(i: int) -> str:
    return gettext("Player %(n)s", n=i + 1)


def compute(sheets: list[SheetForm], names: list[str]) -> dict:
    """Each player's score or refusal; the ranking once every sheet is valid."""
    rows = []
    for i, sheet in enumerate(sheets):
        score, problem = score_sheet(sheet)
        message, rule = refusal_parts(problem) if problem is not None else (None, None)
        rows.append({"index": i, "name": names[i], "score": score, "error": message, "rule": rule})
    ranking = None
    if all(row["score"] is not None for row in rows):
        ranking = af.rank_scores([row["score"] for row in rows])
        for row in rows:
            row["place"] = ranking["places"][row["index"]]
        ranking["text"] = Msg(af.TIE_BREAK_TEXT[ranking["tie_break"]])
    return {"rows": rows, "ranking": ranking}


@bp.post("/preview")
def preview():
    """One sheet's breakdown as it is being typed (the table's sheet form asks for it)."""
    names = request.form.getlist("kind_names")
    sheet = SheetForm(meta={"csrf": False})
    score, problem = score_sheet(sheet)
    message, rule = refusal_parts(problem) if problem is not None else (None, None)
    return render_template(
        "africana/calculator_breakdown.html",
        score=score,
        error=message,
        rule=rule,
        kind_by={k["key"]: k for k in kinds(names)},
        score_lines=af.SCORE_LINES,
    )

"""From Cape to Cairo without a table: what a crossing costs, and who chooses a card first.

Both calculators are GET forms (nothing is stored, a result can be bookmarked or shared) on one
page, /tools/cape_to_cairo/. All the arithmetic is the rules module's.
"""

from __future__ import annotations

from flask import Blueprint, render_template, request
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import FieldList, Form, FormField, SelectField, StringField
from wtforms.validators import InputRequired, Length, NumberRange, Optional

from companion.forms import WholeNumber, whole_number
from companion.games.base import N_, Msg, RuleError
from companion.games.cape_to_cairo import rules as rules
from companion.i18n import translate

bp = Blueprint("tools_cape_to_cairo", __name__, url_prefix="/tools/cape_to_cairo")
CALCULATORS = [(N_("From Cape to Cairo: crossing cost and bid order"), "tools_cape_to_cairo.index")]
MARKS_LIMIT = 99  # symbols that count: a turned-up pile plus a row; far more never happens
MONEY_LIMIT = 9999


class CrossingForm(FlaskForm):
    """A terrain, the symbols that count, the bonus tracks held and the money held."""

    class Meta:
        csrf = False  # a GET calculator: nothing changes

    terrain = SelectField(_l("Terrain"), validators=[InputRequired(_l("Choose a terrain."))])
    marks = whole_number(
        _l("Track symbols that count"),
        0,
        MARKS_LIMIT,
        _l("Track symbols: a whole number from 0 to %(max)s.", max=MARKS_LIMIT),
    )
    bonus = whole_number(
        _l("Bonus tracks held"), 0, rules.BONUS_MAX, _l("Bonus tracks: a whole number from 0 to 5.")
    )
    money = whole_number(
        _l("Money held (pounds)"),
        0,
        MONEY_LIMIT,
        _l("Money: a whole number of pounds from 0 to %(max)s.", max=MONEY_LIMIT),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # the brackets belong to the translation: Japanese writes them full-width
        choice = translate(N_("%(terrain)s (tracks: %(n)s)"))
        self.terrain.choices = [
            (
                t,
                choice
                % {"terrain": translate(rules.TERRAIN_NAMES[t]), "n": rules.TRACKS_NEEDED[t]},
            )
            for t in rules.TERRAINS
        ]


class BidderForm(Form):
    """One player of the bid-order resolver; a row left empty is not playing."""

    name = StringField(_l("Name"), validators=[Optional(), Length(max=24)])
    bid = WholeNumber(
        _l("Bid"),
        message=_l("A bid is a whole number of pounds."),
        validators=[Optional(), NumberRange(0, MONEY_LIMIT, _l("A bid is 0 or more pounds."))],
    )
    money = WholeNumber(
        _l("Money before bidding"),
        message=_l("Money is a whole number of pounds."),
        validators=[Optional(), NumberRange(0, MONEY_LIMIT, _l("Money is 0 or more pounds."))],
    )
    draws = StringField(_l("Drawn cards (only for a tie)"), validators=[Optional(), Length(max=40)])


class BidOrderForm(FlaskForm):
    class Meta:
        csrf = False

    p = FieldList(
        FormField(BidderForm), min_entries=rules.MAX_PLAYERS, max_entries=rules.MAX_PLAYERS
    )


def _parse_draws(text: str | None) -> list[int] | None:
    """ "7" or "7 3" (successive draws after equal ones) as numbers; None if not numbers."""
    parts = (text or "").replace(",", " ").split()
    try:
        return [int(p) for p in parts]
    except ValueError:
        return None


def crossing_result(form: CrossingForm) -> dict:
    """The cheapest way to cross and every other way, or why it cannot be done."""
    terrain, marks = form.terrain.data, form.marks.number
    bonus, money = form.bonus.number, form.money.number
    choices = rules.crossing_choices(terrain, marks, bonus, money)
    best = rules.cheapest_crossing(terrain, marks, bonus, money)
    all_bonus = choices[0]  # the most bonus tracks: the fewest pounds
    return {
        "terrain": terrain,
        "needed": rules.TRACKS_NEEDED[terrain],
        "marks": marks,
        "bonus": bonus,
        "money": money,
        "best": best,
        "choices": choices,
        "why": [{"plan": c, "lines": rules.explain_plan(c, marks)} for c in choices],
        "missing_pounds": max(0, all_bonus["pounds"] - money),
    }


def bid_result(form: BidOrderForm) -> tuple[dict | None, list[Msg]]:
    """The order of choosing with its reasons, or who must draw; and the problems found."""
    problems: list[Msg] = []
    players = []
    for i, row in enumerate(form.p.entries):
        sub = row.form
        name = (sub.name.data or "").strip() or translate(N_("Player %(n)s")) % {"n": i + 1}
        if sub.bid.data is None and sub.money.data is None and not (sub.draws.data or "").strip():
            continue
        if sub.bid.data is None or sub.money.data is None:
            problems.append(
                Msg(N_("%(name)s: give both the bid and the money held before it."), name=name)
            )
            continue
        draws = _parse_draws(sub.draws.data)
        if draws is None:
            problems.append(
                Msg(
                    N_("%(name)s: drawn cards are numbers from 1 to 10, separated by spaces."),
                    name=name,
                )
            )
            continue
        players.append(
            {
                "key": str(i),
                "name": name,
                "bid": sub.bid.data,
                "money": sub.money.data,
                "draws": draws,
            }
        )
    if problems:
        return None, problems
    if not rules.MIN_PLAYERS <= len(players) <= rules.MAX_PLAYERS:
        return None, [Msg(N_("Fill in the bid and money of 2 to 4 players."))]
    bids = {p["key"]: p["bid"] for p in players}
    money = {p["key"]: p["money"] for p in players}
    drawn = {p["key"]: p["draws"] for p in players if p["draws"]}
    label = {p["key"]: p["name"] for p in players}
    by_key = {p["key"]: p for p in players}
    must = rules.tie_draws_needed(bids, money, drawn)
    if must:
        return {"must_draw": [label[k] for k in must], "order": None, "reasons": []}, []
    order = rules.acquisition_order(bids, money, drawn)
    reasons = rules.order_reasons(bids, money, drawn, label=lambda k: label[k])
    return {
        "must_draw": [],
        "order": [{**by_key[k], "left": by_key[k]["money"] - by_key[k]["bid"]} for k in order],
        "reasons": reasons,
    }, []


@bp.get("/")
def index():
    """Both calculators; each works out its answer when its own fields are in the query."""
    crossing_form = CrossingForm(formdata=request.args if "terrain" in request.args else None)
    bid_form = BidOrderForm(
        formdata=request.args if any(k.startswith("p-") for k in request.args) else None
    )
    crossing = bids = None
    crossing_error = bid_error = None
    bid_problems: list[Msg] = []
    if "terrain" in request.args and crossing_form.validate():
        try:
            crossing = crossing_result(crossing_form)
        except RuleError as refusal:
            crossing_error = refusal
    if any(k.startswith("p-") for k in request.args) and bid_form.validate():
        try:
            bids, bid_problems = bid_result(bid_form)
        except RuleError as refusal:
            bid_error = refusal
    if bid_form.errors:
        bid_problems = [Msg(N_("Check the fields marked above."))]
    return render_template(
        "cape_to_cairo/calculator.html",
        crossing_form=crossing_form,
        bid_form=bid_form,
        crossing=crossing,
        crossing_error=crossing_error,
        bids=bids,
        bid_error=bid_error,
        bid_problems=bid_problems,
        terrain_names=rules.TERRAIN_NAMES,
    )

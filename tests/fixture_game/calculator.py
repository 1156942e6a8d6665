"""Pebbles without a table: a player's points from the pebbles they took and their secret number
(a game's calculator: a blueprint `bp` and CALCULATORS, named after the package, so a copy of
Pebbles under another name has its own). A GET form: nothing is stored; the rules module does
the arithmetic."""

from __future__ import annotations

from flask import Blueprint, render_template, request
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm

from companion.forms import whole_number
from companion.games.base import N_
from tests.fixture_game import rules

NAME = __name__.rsplit(".", 2)[-2]  # the package's folder name
bp = Blueprint(f"tools_{NAME}", __name__, url_prefix=f"/tools/{NAME}")
CALCULATORS = [(N_("Pebbles: a player's points"), f"tools_{NAME}.points")]


class PointsForm(FlaskForm):
    """The pebbles a player took and the secret number they wrote down."""

    class Meta:
        csrf = False  # a GET calculator: nothing changes

    taken = whole_number(
        _l("Pebbles taken"), 0, rules.PILE_MAX, _l("Pebbles: a whole number from 0 to 30.")
    )
    secret = whole_number(_l("Secret number"), 0, 9, _l("A number from 0 to 9."))


@bp.get("/")
def points():
    """The points of one player: the pebbles, and the bonus when the secret matches them."""
    form = PointsForm(request.args)
    found = None
    if request.args and form.validate():
        state = {"taken": [form.taken.data], "secret": [form.secret.data]}
        pebbles, bonus = rules.score(state, 0)
        found = {"pebbles": pebbles, "bonus": bonus, "total": pebbles + bonus}
    return render_template(f"{NAME}/calculator.html", form=form, found=found, name=NAME)

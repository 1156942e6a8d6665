"""Pebbles on the table page: four forms, a panel, its rules page, its calculator and its summary
chart (every hook of GameAdapter)."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from markupsafe import Markup

from companion.forms import VersionedForm, whole_number
from companion.games.base import N_
from companion.i18n import translate
from companion.web import charts
from companion.web.adapter import GameAdapter, Panel
from tests.fixture_game import rules


class TakeForm(VersionedForm):
    """The seat on turn takes 1 to 3 pebbles."""

    n = whole_number(_l("Pebbles"), 1, rules.TAKE_MAX, _l("Take 1, 2 or 3 pebbles."))

    def to_action(self) -> dict:
        return {"n": self.n.data}


class SecretForm(VersionedForm):
    """A seat's own secret number."""

    number = whole_number(_l("Secret number"), 0, 9, _l("A number from 0 to 9."))

    def to_action(self) -> dict:
        return {"number": self.number.data}


class PileForm(VersionedForm):
    """The host sets the pile's size before the first take."""

    size = whole_number(
        _l("Pebbles in the pile"), rules.PILE_MIN, rules.PILE_MAX, _l("From 5 to 30 pebbles.")
    )

    def to_action(self) -> dict:
        return {"size": self.size.data}


class DropForm(VersionedForm):
    """Anybody: a pebble fell from the heap of the player on turn."""

    def to_action(self) -> dict:
        return {}


class PebblesAdapter(GameAdapter):
    """Every hook of the web adapter, so that a game copied from Pebbles starts with each."""

    forms = {"take": TakeForm, "secret": SecretForm, "pile": PileForm, "drop": DropForm}
    panel_template = "fixture_game/_panel.html"
    rules_template = "fixture_game/rules.html"
    show_all_line = N_("The host looked at everyone's secret numbers.")
    look_line = N_("The host looked at %(seat)s's secret number.")
    calculator_module = "tests.fixture_game.calculator"

    def summary_chart(self, states: list[dict], names: list[str]) -> Markup | None:
        """The pebbles each player held after every move, once the pile is empty."""
        if not states or rules.result(states[-1]) is None:
            return None
        series = [(name, [s["taken"][seat] for s in states]) for seat, name in enumerate(names)]
        return charts.line_chart(
            translate(N_("Pebbles over the game")),
            series,
            x_label=translate(N_("Moves")),
            step_label=translate(N_("Move")),
            data_label=translate(N_("Pebbles each player held after each move")),
        )

    def panel_context(self, panel: Panel) -> dict:
        """What this device may enter now (the game says it: rules.may_enter)."""
        may = {
            kind: rules.may_enter(panel.state, kind, seat=panel.seat, host=panel.host)
            for kind in self.forms
        }
        result = rules.result(panel.state)
        return {
            "may": may,
            "take_max": min(rules.TAKE_MAX, panel.state["pile"]),
            "score": rules.score_table(panel.state, result) if result else None,
        }


ADAPTER = PebblesAdapter()

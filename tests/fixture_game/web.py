"""Pebbles on the table page: four forms, a panel, the final score table."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l

from companion.forms import VersionedForm, whole_number
from companion.games.base import N_
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
    forms = {"take": TakeForm, "secret": SecretForm, "pile": PileForm, "drop": DropForm}
    panel_template = "fixture_game/_panel.html"
    show_all_line = N_("The host looked at everyone's secret numbers.")
    look_line = N_("The host looked at %(seat)s's secret number.")

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

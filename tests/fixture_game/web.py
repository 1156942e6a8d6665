"""Pebbles on the table page: four forms, a panel, the final score table."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l

from companion.forms import VersionedForm, whole_number
from companion.games.base import N_, Msg
from companion.web.adapter import GameAdapter, Panel, ScoreTable, Standings
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
            "score": self.score_table(panel.state, result) if result else None,
        }

    def score_table(self, state: dict, result: dict) -> ScoreTable:
        """Pebbles and the secret's bonus, then the total, first place first."""
        points = result["points"]
        order = sorted(range(state["players"]), key=lambda s: -points[s])
        ranks = [1 + sum(1 for t in order if points[t] > points[s]) for s in order]
        rows = [
            (N_("Pebbles"), [result["breakdown"][s][0] for s in order]),
            (N_("Secret bonus"), [result["breakdown"][s][1] for s in order]),
        ]
        return ScoreTable(order, ranks, result["winners"], rows, [points[s] for s in order])

    def standings(self, state: dict, result: dict | None, everything: bool) -> Standings:
        """Pebbles taken and the points if the pile were empty now; the secret numbers (and
        their bonus) only with everything or once the result stands (they are private)."""
        shown = everything or result is not None
        players = range(state["players"])
        values = []
        for seat in players:
            pebbles, bonus = rules.score(state, seat)
            secret = [state["secret"][seat]] if shown else []
            values.append([pebbles, *secret, pebbles + bonus if shown else pebbles])
        best = max(row[-1] for row in values)
        columns = [N_("Pebbles"), *([N_("Secret number")] if shown else []), N_("Points")]
        note = (
            N_("Points if the pile were empty now, the secret numbers' bonus included.")
            if shown
            else N_("The secret numbers are private until the end: their bonus is left out.")
        )
        leaders = [s for s in players if values[s][-1] == best] if best else []
        return Standings(columns, values, leaders, note)

    def step_round(self, state: dict) -> Msg:
        """Two phases and the end: secrets and the pile's size, then taking pebbles."""
        if rules.result(state) is not None:
            return Msg(N_("The pile is empty."))
        if not state["started"]:
            return Msg(N_("Before the first take"))
        return Msg(N_("Taking pebbles"))


ADAPTER = PebblesAdapter()

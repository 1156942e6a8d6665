"""From Cape to Cairo at the table: the forms of its actions and what its panel needs.

The forms check only the shape of what is typed (whole numbers, a known terrain); the rules
module checks the rest (a bid above your money, whose turn it is, a second bid...). Sealed bids
are kept sealed here too: the panel shows a bid's amount only to the phone that made it, never to
the host's device, not even when it acts for that seat or shows everything.
"""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from markupsafe import Markup, escape
from wtforms import StringField
from wtforms.validators import AnyOf, InputRequired, Optional

from companion.forms import VersionedForm, WholeNumber, whole_number
from companion.games.base import N_
from companion.games.cape_to_cairo import course
from companion.games.cape_to_cairo import rules as rules
from companion.games.cape_to_cairo.scoreboard import score_table
from companion.i18n import translate
from companion.web import charts
from companion.web.adapter import GameAdapter, Panel


def _marks_field(label):
    return whole_number(
        label,
        rules.MARKS_MIN,
        rules.MARKS_MAX,
        _l("The number of track symbols is a whole number from 0 to 3."),
    )


class CardForm(VersionedForm):
    """A terrain card turned up for the acquisition phase (entered by anybody at the table)."""

    terrain = StringField(
        _l("Terrain"),
        validators=[
            InputRequired(_l("Choose the terrain of the card.")),
            AnyOf(rules.TERRAINS, _l("Choose the terrain of the card.")),
        ],
    )
    marks = _marks_field(_l("Track symbols on the card"))
    income = whole_number(
        _l("Income (pounds)"),
        rules.INCOME_MIN,
        rules.INCOME_MAX,
        _l("The income is a whole number from 1 to 10."),
    )

    def to_action(self) -> dict:
        return {"terrain": self.terrain.data, "marks": self.marks.data, "income": self.income.data}


class BidForm(VersionedForm):
    """A sealed bid; the rules refuse one above the bidder's money.

    Everybody bids at once, so each bid changes the table's version while the others are
    typing: a bid is therefore not refused as stale. It carries the acquisition round it was
    typed in instead, and the rules refuse a bid left over from an earlier round (and a second
    bid, and a bid after the reveal).
    """

    amount = whole_number(
        _l("Your bid (pounds)"),
        0,
        None,
        _l("A bid is a whole number of pounds, 0 or more."),
        missing=_l("Type your bid in pounds (0 is allowed)."),
    )
    round = WholeNumber(
        message=_l("The bid form is incomplete: reload the page."), validators=[Optional()]
    )

    def expected_version(self) -> int | None:
        return None

    def to_action(self) -> dict:
        action = {"amount": self.amount.data}
        if self.round.data is not None:
            action["round"] = self.round.data
        return action


class DrawForm(VersionedForm):
    """The number on a card drawn to break a tie in the bid order.

    Tied players draw at the same time, so, as with bids, the table's version is not checked;
    the form says which draw of the seat it is, so a double tap cannot count twice.
    """

    value = whole_number(
        _l("Number on the drawn card"),
        rules.INCOME_MIN,
        rules.INCOME_MAX,
        _l("The drawn card shows a number from 1 to 10."),
    )

    attempt = WholeNumber(
        message=_l("The draw form is incomplete: reload the page."), validators=[Optional()]
    )

    def expected_version(self) -> int | None:
        return None

    def to_action(self) -> dict:
        action = {"value": self.value.data}
        if self.attempt.data is not None:
            action["attempt"] = self.attempt.data
        return action


class TakeForm(VersionedForm):
    """Take one of the cards on offer (each card is its own button)."""

    card = whole_number(
        _l("Card"), 0, rules.MAX_PLAYERS - 1, _l("Choose one of the cards on offer.")
    )

    def to_action(self) -> dict:
        return {"card": self.card.data}


class TurnUpForm(VersionedForm):
    """The track symbols on the card turned up at the start of a building turn."""

    marks = _marks_field(_l("Track symbols on the turned-up card"))

    def to_action(self) -> dict:
        return {"marks": self.marks.data}


class CrossForm(VersionedForm):
    """Cross the next terrain, spending this many bonus tracks (empty: the cheapest way)."""

    bonus = whole_number(
        _l("Bonus tracks to spend"),
        0,
        rules.BONUS_MAX,
        _l("Bonus tracks are a whole number from 0 to 5."),
        required=False,
    )

    def to_action(self) -> dict:
        return {} if self.bonus.data is None else {"bonus": self.bonus.data}


class PassForm(VersionedForm):
    """Do not cross: the player on the left goes on."""

    def to_action(self) -> dict:
        return {}


# --- after the game -----------------------------------------------------------------------------


def _chart_block(key: str, heading: str, chart: Markup) -> Markup:
    return Markup(
        f'<div class="ctc-chart" id="ctc-chart-{key}"><h3>{escape(heading)}</h3>{chart}</div>'
    )


def course_charts(states: list[dict], names: list[str]) -> Markup | None:
    """The race to 8 round by round, the crossings of each round's building phase per player,
    and everybody's money round by round (see course.by_round), each with its data table."""
    found = course.by_round(states)
    if not found["rounds"]:
        return None
    players = range(len(found["crossed"]))
    round_word = translate(N_("Round"))
    rounds_label = translate(N_("Acquisition rounds (0: the start)"))
    race_title = translate(N_("The race to 8 terrains"))
    race = charts.line_chart(
        race_title,
        [(names[s], found["crossed"][s]) for s in players],
        x_label=rounds_label,
        step_label=round_word,
        data_label=translate(N_("Terrains crossed at the end of each round")),
    )
    per_title = translate(N_("Terrains crossed in each round"))
    per_round = charts.stacked_bars(
        per_title,
        [names[s] for s in players],
        [
            (translate(N_("Round %(n)s")) % {"n": r}, [found["per_round"][i][s] for s in players])
            for i, r in enumerate(found["rounds"])
        ],
        data_label=translate(N_("Terrains each player crossed in each round's building phase")),
        category_label=round_word,
    )
    money_title = translate(N_("Money over the game"))
    money = charts.line_chart(
        money_title,
        [(names[s], found["money"][s]) for s in players],
        x_label=rounds_label,
        step_label=round_word,
        data_label=translate(N_("Pounds held at the end of each round")),
    )
    return (
        _chart_block("race", race_title, race)
        + _chart_block("rounds", per_title, per_round)
        + _chart_block("money", money_title, money)
    )


class CapeToCairoAdapter(GameAdapter):
    """How Cape to Cairo plugs into the table page, the rules page and the calculators."""

    forms = {
        "card": CardForm,
        "bid": BidForm,
        "draw": DrawForm,
        "take": TakeForm,
        "turn_up": TurnUpForm,
        "cross": CrossForm,
        "pass": PassForm,
    }
    panel_template = "cape_to_cairo/_panel.html"
    rules_template = "cape_to_cairo/rules.html"
    calculator_module = "companion.games.cape_to_cairo.calculator"

    def summary_chart(self, states: list[dict], names: list[str]) -> Markup | None:
        """The race, the crossings per round and the money, round by round."""
        return course_charts(states, names)

    def panel_context(self, panel: Panel) -> dict:
        """The race to 8, the seat's own bid (on its own phone only) and the seats in order."""
        view = panel.view
        bidding = view["bidding"]
        # A bid's amount is shown only on the phone that made it: the host's device may be in
        # the middle of the table, so it never shows one, not even for the seat it acts for
        # (a seated host's own bid is its own phone's).
        own_bid = None
        if bidding is not None and panel.seat is not None and panel.own:
            own_bid = bidding["my_bid"]
        building = view["building"]
        final = rules.result(panel.state)
        marks = view["seats"][panel.seat]["marks"] if panel.seat is not None else 0
        # the same words as the calculator: how each way to cross is worked out
        why = [{"plan": c, "lines": rules.explain_plan(c, marks)} for c in view["my_choices"] or []]
        return {
            "score": score_table(panel.state, final) if final else None,
            "ctc": {
                "terrains": rules.TERRAINS,
                "terrain_names": rules.TERRAIN_NAMES,
                "tracks_needed": rules.TRACKS_NEEDED,
                "own_bid": own_bid,
                "why": why,
                "race": _race(view),
                "to_win": view["terrains_to_win"],
                "marks_range": list(range(rules.MARKS_MIN, rules.MARKS_MAX + 1)),
                "track_price": rules.TRACK_PRICE,
                "bonus_max": rules.BONUS_MAX,
                "active": building["active"] if building else None,
                "players": list(range(view["players"])),
            },
        }


def _race(view: dict) -> list[dict]:
    """Each seat's lane of the race to 8, with only what the lane shows (it is the key of the
    race's fragment, the same on every screen: the smaller, the cheaper): how many terrains it
    crossed, its money and bonus tracks, the next terrain (and its name's msgid) and the cards
    left on its row, and in the building phase what crossing now would cost (None: it cannot
    afford it)."""
    return [
        {
            "seat": s["seat"],
            "count": s["crossed_count"],
            "money": s["money"],
            "bonus": s["bonus"],
            "next_terrain": s["next_terrain"],
            "next_label": rules.TERRAIN_NAMES[s["next_terrain"]] if s["next_terrain"] else None,
            "uncrossed": len(s["row"]),
            "cheapest": None if s["cheapest"] is None else s["cheapest"]["pounds"],
        }
        for s in view["seats"]
    ]


ADAPTER = CapeToCairoAdapter()

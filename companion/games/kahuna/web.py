"""Kahuna at the table: the island board as SVG, tap a site, say which card(s), end the turn.

Tapping a site on the board is a GET of the table page with ?site=Aloa-Bari (htmx swaps the live
region; without JavaScript it is an ordinary link). The adapter's panel_context() then asks the
rules which card(s) make that move legal (rules.legal_cards_for) and the panel shows them as
buttons in a sheet at the bottom of the screen, with the refused ones and their reasons. The
board itself is drawn by drawing.py (shared with the control checker).

The forms only check the shape of the input (present, short); the rules module gives the reasons
for everything else (an unknown island, a card that does not fit, a wrong turn...).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import url_for
from flask_babel import lazy_gettext as _l
from markupsafe import Markup, escape
from wtforms import IntegerField, StringField
from wtforms.validators import InputRequired, Length, NumberRange, Optional

from companion.forms import VersionedForm
from companion.games.base import N_, Msg, RuleError, comma_list
from companion.games.kahuna import rules as k
from companion.games.kahuna.course import islands_by_turn
from companion.games.kahuna.drawing import (
    BRIDGE_WORDS,
    STONE_LETTERS,
    drawing,
    drawing_order,
    tapped_site,
)
from companion.games.kahuna.scoreboard import score_table
from companion.i18n import render_msg, translate
from companion.web import charts
from companion.web.adapter import GameAdapter, Panel

NAME_MAX = 40  # longer than any island or site name: the rules refuse unknown names with a reason
ACT_SLOT = "ACTSLOT"  # stands for an action's type in act_links's address
SITE_SLOT = "SITESLOT"  # stands for a site's key in site_link_pattern's address
# The sites as the board draws them (drawing_order): the list under the board keeps that order.
SITE_ORDER = tuple((k.site_key((a, b)), a, b) for a, b in drawing_order())
# What the round's card (the fragment kahuna/_round.html) reads of the view: the same for every
# device, so one rendering serves them all (kept by these facts, not by the whole view).
ROUND_FACTS = (
    "over",
    "round",
    "turn",
    "pending_reveals",
    "deck",
    "display",
    "final_turns",
    "must_draw",
    "points",
    "islands_held",
    "hands",
    "bridges_left",
    "options",
)

# --- the forms ----------------------------------------------------------------------------------


class RevealForm(VersionedForm):
    """The table enters a card just turned face up (any seated phone or the host)."""

    island = StringField(
        _l("Island on the card"),
        validators=[
            InputRequired(_l("Tap the island named on the card just turned face up.")),
            Length(max=NAME_MAX),
        ],
    )

    def to_action(self) -> dict:
        return {"island": self.island.data}


class PlaceForm(VersionedForm):
    """One card builds one bridge on a free site touching the card's island."""

    site = StringField(
        validators=[
            InputRequired(_l("Tap a bridge site on the board first.")),
            Length(max=NAME_MAX),
        ]
    )
    card = StringField(
        validators=[InputRequired(_l("Say which card was played.")), Length(max=NAME_MAX)]
    )

    def to_action(self) -> dict:
        return {"site": self.site.data, "card": self.card.data}


class RemoveForm(VersionedForm):
    """Two cards, each naming an end of the site, remove the opponent's bridge there."""

    site = StringField(
        validators=[
            InputRequired(_l("Tap a bridge site on the board first.")),
            Length(max=NAME_MAX),
        ]
    )
    first = StringField(
        validators=[InputRequired(_l("Say which two cards were played.")), Length(max=NAME_MAX)]
    )
    second = StringField(
        validators=[InputRequired(_l("Say which two cards were played.")), Length(max=NAME_MAX)]
    )

    def to_action(self) -> dict:
        return {"site": self.site.data, "cards": [self.first.data, self.second.data]}

    @classmethod
    def fields_for(cls, action: dict, state: dict) -> dict:
        """The two cards as the first and the second."""
        first, second = action["cards"]
        return {"site": action["site"], "first": first, "second": second}


class DiscardForm(VersionedForm):
    """Instead of playing: put cards face down under the discard pile."""

    count = IntegerField(
        _l("Cards discarded face down"),
        validators=[
            InputRequired(_l("Say how many cards were discarded: a number from 1 to 5.")),
            NumberRange(
                min=1,
                max=k.HAND_LIMIT,
                message=_l("Say how many cards were discarded: a number from 1 to 5."),
            ),
        ],
    )

    def to_action(self) -> dict:
        return {"count": self.count.data}


class DrawForm(VersionedForm):
    """End the turn with the top card of the deck or one face-up card."""

    source = StringField(
        validators=[InputRequired(_l("Say where the card was drawn from.")), Length(max=NAME_MAX)]
    )
    island = StringField(validators=[Optional(), Length(max=NAME_MAX)])

    def to_action(self) -> dict:
        action = {"source": self.source.data}
        if self.island.data:
            action["island"] = self.island.data
        return action


class EndTurnForm(VersionedForm):
    """End the turn without drawing (the opponent must then draw)."""

    def to_action(self) -> dict:
        return {}


class OptionForm(VersionedForm):
    """The host switches the Arabana option before the first turn action."""

    arabana = StringField(validators=[InputRequired(_l("Choose on or off.")), Length(max=NAME_MAX)])

    def to_action(self) -> dict:
        value = {"on": True, "off": False}.get(self.arabana.data, self.arabana.data)
        return {"arabana": value}


# --- the final scores and the summary -----------------------------------------------------------


def course_chart(states: list[dict], names: list[str]) -> Markup:
    """Islands held by each player after every turn, the three scorings marked, and what each
    scoring gave, line by line (the chart's own data table holds the numbers)."""
    course = islands_by_turn(states)
    series = [(names[s], course["islands"][s]) for s in (0, 1)]
    marks = [(turn, str(round_no)) for turn, round_no in course["scorings"]]
    chart = charts.line_chart(
        translate(N_("Islands held over the game")),
        series,
        x_label=translate(N_("Turns")),
        step_label=translate(N_("Turn")),
        data_label=translate(
            N_("Islands held after each turn; the dashed lines 1, 2 and 3 mark the scorings")
        ),
        marks=marks,
    )
    rounds = {r["round"]: r for r in states[-1]["rounds"]} if states else {}
    items = []
    for turn, round_no in course["scorings"]:
        lines = [Msg(N_("After turn %(turn)s:"), turn=turn), *k.describe_scoring(rounds[round_no])]
        # One element per sentence: Japanese puts no space between sentences, English does.
        items.append(
            "<li>" + "<br>".join(str(escape(render_msg(m, names))) for m in lines) + "</li>"
        )
    return chart + Markup(f'<ol class="k-course-scorings">{"".join(items)}</ol>')


# --- the panel ------------------------------------------------------------------------------


def _reveal_choices(state: dict) -> list[dict]:
    """Each island's button for the face-up card picker; both copies out = disabled."""
    choices = []
    for island in k.ISLANDS:
        try:
            k.apply(state, {"type": "reveal", "island": island, "seat": None, "host": False})
            choices.append({"island": island, "ok": True})
        except RuleError:
            choices.append({"island": island, "ok": False})
    return choices


def site_link_pattern(code: str, args: dict) -> str:
    """The table page's address for a tapped site (?site=<key>, keeping `args`), SITE_SLOT
    standing for the key: Board.href puts each site's key in. url_for for each of the 27 sites
    cost a millisecond per live region. A key is two island names and a hyphen, which an address
    carries as they are, so each link is url_for's own (tests/kahuna/test_web.py checks it). The
    site comes last: Board.tap is this address with the place of a tap there instead."""
    return url_for("table.page", code=code, **args, site=SITE_SLOT)


def act_links(code: str, args: dict) -> Callable[[str], str]:
    """The address an action of a given type posts to (keeping `args`), for the turn's buttons:
    url_for once, each type put in its place (ACT_SLOT), as for the sites' links; a type is a
    word an address carries as it is (tests/kahuna/test_web.py checks it against url_for)."""
    pattern = url_for("table.act", code=code, action_type=ACT_SLOT, **args)
    return lambda action_type: pattern.replace(ACT_SLOT, action_type, 1)


@dataclass
class Board:
    """The board as the board macro reads it (drawing.drawing(): .sites, .islands, .width...),
    for the fragment kahuna/_board_view.html. A fragment's key is its inputs' content, and of a
    dataclass only its fields (fragments.key_of): here what the drawing is made from, a few
    dozen values rather than the drawing's thousand. The drawing is made when the macro first
    reads it, so a kept fragment's hit costs neither the drawing nor a key of it."""

    bridges: dict  # state["bridges"]
    changes: dict  # state["last_changes"]: what to highlight
    selected: str | None  # the site whose sheet is open
    links: str | None  # site_link_pattern(), or None: the sites are not links

    def href(self, key: str) -> str | None:
        """A site's link (or None)."""
        return self.links.replace(SITE_SLOT, key, 1) if self.links else None

    @property
    def tap(self) -> str | None:
        """The address kahuna.js adds a tap's place to ("x,y": ?tap=x,y, drawing.tapped_site),
        or None: the sites are not links."""
        return self.links.replace("site=" + SITE_SLOT, "tap=") if self.links else None

    @functools.cached_property
    def drawn(self) -> dict:
        """The drawing itself."""
        return drawing(self.bridges, self.href, self.changes, selected=self.selected)

    def __getattr__(self, name: str) -> Any:
        # Only names that are neither fields nor methods get here: the drawing's own.
        if name.startswith("_"):
            raise AttributeError(name)
        try:
            return self.drawn[name]
        except KeyError:
            raise AttributeError(name) from None


def site_list(built: dict) -> list[tuple[str, list[tuple[str, str]]]]:
    """The list of the sites (a seated device's other way to tap one), grouped by what stands on
    them: (the state's word, [(key, "Aloa–Bari"), ...]) for free sites, then White's bridges,
    then Black's, each in the board's order; no empty group. An option's text is its value
    (parse_site takes "Aloa–Bari"): 0.1 KB of every page less than a value beside each."""
    groups: dict = {owner: [] for owner in BRIDGE_WORDS}
    for key, a, b in SITE_ORDER:
        groups[built.get((a, b))].append((key, f"{a}–{b}"))
    return [(BRIDGE_WORDS[owner], sites) for owner, sites in groups.items() if sites]


def site_choice(state: dict, seat: int | None, site: str) -> dict:
    """The sheet for a tapped site: the legal card choices and the refused ones with reasons."""
    answer = k.legal_cards_for(state, seat, site[:NAME_MAX])
    owner = state["bridges"].get(answer["site"]) if answer["site"] else None
    answer["bridge"] = owner
    answer["word"] = BRIDGE_WORDS[owner]
    return answer


class KahunaAdapter(GameAdapter):
    """How Kahuna plugs into the table page, the rules page and the calculators."""

    forms = {
        "reveal": RevealForm,
        "place": PlaceForm,
        "remove": RemoveForm,
        "discard": DiscardForm,
        "draw": DrawForm,
        "end_turn": EndTurnForm,
        "set_option": OptionForm,
    }
    panel_template = "kahuna/_panel.html"
    rules_template = "kahuna/rules.html"
    calculator_module = "companion.games.kahuna.calculator"

    def summary_chart(self, states: list[dict], names: list[str]) -> Markup:
        """Islands held over the game, the three scorings marked (see course_chart)."""
        return course_chart(states, names)

    def panel_context(self, panel: Panel) -> dict:
        """The board with tappable sites, the card question of ?site=..., the round panel."""
        state, view, seat, host = panel.state, panel.view, panel.seat, panel.host
        # A site's link (?site=), the list's choice, or a tap on the board: its place (?tap=x,y).
        chosen = panel.query.get("site") or tapped_site(panel.query.get("tap"))
        tappable = seat is not None and not view["over"]

        choice = site_choice(state, seat, chosen) if chosen and seat is not None else None
        board = Board(
            state["bridges"],
            view["last_changes"],
            selected=choice["site"] if choice else None,
            links=site_link_pattern(panel.code, panel.args) if tappable else None,
        )
        built = k.bridges_from_json(state["bridges"])
        latest = view["rounds"][-1] if view["rounds"] else None
        final = k.result(state)
        return {
            "act_url": act_links(panel.code, panel.args),
            "score": score_table(panel.state, final) if final else None,
            "board": board,
            "round_facts": {key: view[key] for key in ROUND_FACTS},
            "site_list": site_list(built),
            "stone_letters": STONE_LETTERS,
            "site_choice": choice,
            "reveal_choices": _reveal_choices(state) if view["can"]["reveal"] else [],
            "options_open": host and k.options_open(state),
            "last_play_lines": k.describe_play(view["last_changes"]),
            "scoring_lines": [k.describe_scoring(r) for r in view["rounds"]],
            "scoring_sums": [k.explain_round(r["round"], r["islands"]) for r in view["rounds"]],
            "fresh_scoring": latest is not None
            and view["pending_reveals"] > 0
            and latest["round"] == view["round"] - 1,
            "hand_limit": k.HAND_LIMIT,
            "max_cards": k.MAX_CARDS_PER_TURN,
            "rounds_total": k.ROUNDS,
            "listing": comma_list,  # island names joined by the reader's own comma
        }


ADAPTER = KahunaAdapter()

"""Africana at the table: the forms of every entry, the panel and what it needs to show.

Forms check only the shape of what was typed (whole numbers, text lengths); the rules module
decides what the game allows, so every refusal carries its rule and links to the rules page.
The scoring sheet form is shared with the stand-alone calculator (calculator.py). The adapter
class at the bottom is what the table page, the rules page and the calculators index use.
"""

from __future__ import annotations

from typing import Any

from babel.lists import format_list
from flask_babel import get_locale
from flask_babel import lazy_gettext as _l
from wtforms import BooleanField, FieldList, StringField
from wtforms.validators import Length, Optional

from companion import forms
from companion.forms import PlainText, VersionedForm
from companion.games.africana import rules as af
from companion.games.africana.scoreboard import score_table
from companion.games.base import N_, RuleError
from companion.i18n import translate
from companion.web import charts
from companion.web.adapter import GameAdapter, Panel

# Each artifact kind has a shape as well as a letter and a colour: colour is never the only sign.
KIND_ICONS = {"A": "◆", "B": "●", "C": "▲", "D": "■", "E": "★"}
EXPEDITION_SLOTS_MIN = 4  # empty boxes shown for expedition points, at least
EXPEDITION_SLOTS_SPARE = 2  # empty boxes after the last filled one


class WholeNumber(forms.WholeNumber):
    """A whole number or nothing: ranges are left to the rules module, which refuses with the
    reason and the rule."""

    def __init__(self, label=None, validators=None, **kwargs):
        super().__init__(label, validators or [Optional()], **kwargs)


class FlatErrors:
    """Errors of list fields flattened to plain messages, as the table's route expects (it shows
    the first message of the first field in error).

    A mixin for a wtforms Form, whose fields and form-wide errors it reads."""

    _fields: dict[str, Any]
    form_errors: list

    @property
    def errors(self) -> dict:
        flat: dict[str | None, list] = {}
        for name, field in self._fields.items():
            if not field.errors:
                continue
            if isinstance(field, FieldList):
                flat[name] = [e for entry in field.entries for e in entry.errors]
            else:
                flat[name] = list(field.errors)
        if self.form_errors:
            flat[None] = self.form_errors
        return flat


def _numbers(**values) -> dict:
    """The action's fields, leaving out what was not typed (the rules use their defaults)."""
    return {key: value for key, value in values.items() if value is not None}


class ChooseActionForm(VersionedForm):
    """The turn's one action: draw, buy or move."""

    action = StringField(validators=[Length(max=10)])

    def to_action(self) -> dict:
        return {"action": (self.action.data or "").strip()}


class BuyAdventureForm(VersionedForm):
    """Adventure cards bought this turn (5 silver each)."""

    cards = WholeNumber(_l("Adventure cards"), default=1)

    def to_action(self) -> dict:
        return _numbers(cards=self.cards.data)


class TurnPagesForm(VersionedForm):
    """Pages turned this turn (the first free, then 1 silver each)."""

    pages = WholeNumber(_l("Pages turned"), default=1)

    def to_action(self) -> dict:
        return _numbers(pages=self.pages.data)


class ChangeColourForm(VersionedForm):
    """Movement or guide cards played as another colour (5 silver each)."""

    cards = WholeNumber(_l("Cards changed"), default=1)

    def to_action(self) -> dict:
        return _numbers(cards=self.cards.data)


class JoinExpeditionForm(VersionedForm):
    """Joining the expedition in a row space, with the bonus printed above it."""

    slot = WholeNumber(_l("Expedition space"))
    bonus_coins = WholeNumber(_l("Join bonus (silver)"), default=0)

    def to_action(self) -> dict:
        return _numbers(slot=self.slot.data, bonus_coins=self.bonus_coins.data)


class CompleteExpeditionForm(VersionedForm):
    """Completing a joined expedition: the silver and points printed on it."""

    slot = WholeNumber(_l("Expedition space"))
    coins = WholeNumber(_l("Silver printed on the card"))
    points = WholeNumber(_l("Points printed on the card"))

    def to_action(self) -> dict:
        return _numbers(slot=self.slot.data, coins=self.coins.data, points=self.points.data)


class CompleteArtifactForm(VersionedForm):
    """Completing an artifact adventure: its kind, silver and points."""

    kind = StringField(_l("Artifact kind"), validators=[Length(max=40), PlainText()])
    coins = WholeNumber(_l("Silver printed on the card"))
    points = WholeNumber(_l("Points printed on the card"))

    def to_action(self) -> dict:
        return dict(
            _numbers(coins=self.coins.data, points=self.points.data),
            kind=(self.kind.data or "").strip(),
        )


class CompleteGuideForm(VersionedForm):
    """Completing a guide adventure (nothing to type)."""

    def to_action(self) -> dict:
        return {}


class EndTurnForm(VersionedForm):
    """The end of the turn, with the unfinished adventures discarded."""

    discarded_adventures = WholeNumber(_l("Unfinished adventures discarded"))
    # The host's "end the turn anyway" button (rule "adventure-limit"); the rules refuse it from
    # a seat.
    override = BooleanField()

    def to_action(self) -> dict:
        action = _numbers(discarded_adventures=self.discarded_adventures.data)
        if self.override.data:
            action["override"] = True
        return action


class RenameKindsForm(FlatErrors, VersionedForm):
    """The five artifact kinds' names, given once by the table."""

    names = FieldList(
        StringField(_l("Kind name"), validators=[Length(max=60), PlainText()]),
        min_entries=af.ARTIFACT_KINDS,
        max_entries=af.ARTIFACT_KINDS,
    )

    def to_action(self) -> dict:
        return {"names": [(name or "") for name in self.names.data]}


class CorrectCoinsForm(VersionedForm):
    """The host's correction of a ledger slip."""

    amount = WholeNumber(_l("Silver to add (or take away with a minus sign)"))

    def to_action(self) -> dict:
        return _numbers(amount=self.amount.data)


class FinishGameForm(VersionedForm):
    """The host ends play now (nothing to type)."""

    def to_action(self) -> dict:
        return {}


class SheetForm(FlatErrors, VersionedForm):
    """One player's final scoring sheet: the table's phones and the calculator use it.

    Expedition points and each kind's artifact points are lists of boxes, one per card; empty
    boxes are no card. Coins are counted as gold and silver pieces; the rules keep their value.
    """

    expedition_points = FieldList(
        WholeNumber(_l("Expedition points")), max_entries=af.MAX_EXPEDITIONS + 1
    )
    art_A = FieldList(WholeNumber(_l("Artifact points")), max_entries=af.ARTIFACT_CARDS + 1)
    art_B = FieldList(WholeNumber(_l("Artifact points")), max_entries=af.ARTIFACT_CARDS + 1)
    art_C = FieldList(WholeNumber(_l("Artifact points")), max_entries=af.ARTIFACT_CARDS + 1)
    art_D = FieldList(WholeNumber(_l("Artifact points")), max_entries=af.ARTIFACT_CARDS + 1)
    art_E = FieldList(WholeNumber(_l("Artifact points")), max_entries=af.ARTIFACT_CARDS + 1)
    guide_adventures = WholeNumber(_l("Completed guide adventures"))
    gold = WholeNumber(_l("Gold coins"))
    silver = WholeNumber(_l("Silver coins"))
    movement_cards = WholeNumber(_l("Movement cards in hand"))
    unfinished_artifacts = WholeNumber(_l("Unfinished artifact adventures"))

    bound = False

    def process(self, formdata=None, obj=None, data=None, extra_filters=None, **kwargs):
        super().process(formdata, obj, data=data, extra_filters=extra_filters, **kwargs)
        self.bound = bool(formdata)

    def kind_field(self, key: str) -> FieldList:
        return getattr(self, f"art_{key}")

    def to_action(self) -> dict:
        """The sheet as the rules take it (artifact kinds as keys A..E)."""
        return {
            "expedition_points": [v for v in self.expedition_points.data if v is not None],
            "artifact_cards": [
                [key, v] for key in af.KIND_KEYS for v in self.kind_field(key).data if v is not None
            ],
            "guide_adventures": self.guide_adventures.data,
            "gold": self.gold.data,
            "silver": self.silver.data,
            "movement_cards": self.movement_cards.data,
            "unfinished_artifacts": self.unfinished_artifacts.data,
        }

    @classmethod
    def fields_for(cls, action: dict, state: dict) -> dict:
        """A sheet's fields: one box per artifact card under its kind's letter (renamed kinds
        read back to their letters), the coins as gold and silver pieces."""
        fields = {
            key: value
            for key, value in super().fields_for(action, state).items()
            if not key.startswith(("artifact_cards", "coins"))
        }
        names = state.get("kind_names", [])
        counts: dict[str, int] = {}
        for kind, points in action.get("artifact_cards", []):
            if kind in names:
                kind = af.KIND_KEYS[names.index(kind)]
            fields[f"art_{kind}-{counts.get(kind, 0)}"] = points
            counts[kind] = counts.get(kind, 0) + 1
        if "coins" in action:
            fields["gold"], fields["silver"] = divmod(action["coins"], af.SILVER_PER_GOLD)
        return fields

    def prefill(self, sheet: dict | None) -> SheetForm:
        """Fill an unbound form from a sheet (kinds as keys); a bound one keeps what was typed."""
        if not self.bound and sheet:
            coins = sheet.get("coins", 0) or 0
            self.process(
                None,
                data={
                    "expedition_points": list(sheet.get("expedition_points", [])),
                    **{
                        f"art_{key}": [p for k, p in sheet.get("artifact_cards", []) if k == key]
                        for key in af.KIND_KEYS
                    },
                    "guide_adventures": sheet.get("guide_adventures", 0),
                    "gold": coins // af.SILVER_PER_GOLD,
                    "silver": coins % af.SILVER_PER_GOLD,
                    "movement_cards": sheet.get("movement_cards", 0),
                    "unfinished_artifacts": sheet.get("unfinished_artifacts", 0),
                },
            )
        return self.pad()

    def pad(self) -> SheetForm:
        """Empty boxes to type into: 4 per artifact kind, a few spare expedition boxes."""
        filled = sum(1 for v in self.expedition_points.data if v is not None)
        while len(self.expedition_points.entries) < max(
            EXPEDITION_SLOTS_MIN, filled + EXPEDITION_SLOTS_SPARE
        ):
            self.expedition_points.append_entry()
        for key in af.KIND_KEYS:
            field = self.kind_field(key)
            while len(field.entries) < af.ARTIFACT_COPIES:
                field.append_entry()
        return self


FORMS = {
    "choose_action": ChooseActionForm,
    "buy_adventure": BuyAdventureForm,
    "turn_pages": TurnPagesForm,
    "change_colour": ChangeColourForm,
    "join_expedition": JoinExpeditionForm,
    "complete_expedition": CompleteExpeditionForm,
    "complete_artifact": CompleteArtifactForm,
    "complete_guide": CompleteGuideForm,
    "end_turn": EndTurnForm,
    "rename_kinds": RenameKindsForm,
    "submit_sheet": SheetForm,
    "correct_coins": CorrectCoinsForm,
    "finish_game": FinishGameForm,
}


def kinds(names: list[str] | None = None) -> list[dict]:
    """The five artifact kinds: key, current name and icon."""
    names = names if names and len(names) == af.ARTIFACT_KINDS else list(af.KIND_KEYS)
    return [
        {"key": key, "name": names[i], "icon": KIND_ICONS[key]}
        for i, key in enumerate(af.KIND_KEYS)
    ]


def sheet_with_keys(state: dict, seat: int) -> dict:
    """The seat's submitted sheet, or the one suggested by its entries, kinds as keys."""
    record = state["seats"][seat]
    if record["sheet"] is not None:
        return record["sheet"]
    suggested = af.suggested_sheet(state, seat)
    names = state["kind_names"]
    suggested["artifact_cards"] = [
        [af.KIND_KEYS[names.index(label)], points] for label, points in suggested["artifact_cards"]
    ]
    return suggested


def join_names(names: list[str]) -> str:
    """Players' names as a list in the reader's language ("Anna, Ben and Chris", 「A、B、C」)."""
    return format_list([str(name) for name in names], locale=get_locale() or "en")


def sheet_preview(form: SheetForm) -> dict:
    """The breakdown of what a sheet form holds now: score, or the refusal and its rule."""
    try:
        return {"score": af.final_score(form.to_action()), "error": None, "rule": None}
    except RuleError as refusal:
        return {"score": None, "error": refusal.msg, "rule": refusal.rule}


class AfricanaAdapter(GameAdapter):
    """How Africana plugs into the table page, the rules page and the calculators."""

    forms = FORMS
    panel_template = "africana/_panel.html"
    rules_template = "africana/rules.html"
    calculator_module = "companion.games.africana.calculator"
    # Card points, kinds and sheets are private until the end: the table is told when the
    # host's device shows them.
    show_all_line = N_("The host looked at everyone's scoring sheets.")
    look_line = N_("The host looked at %(seat)s's card points and scoring sheet.")

    def summary_chart(self, states: list[dict], names: list[str]):
        """Where each player's points came from: one stacked bar per player, best first, a
        segment per part of the score (the guide adventures' loss is in the data table)."""
        result = af.result(states[-1]) if states else None
        if result is None:
            return None
        table = score_table(states[-1], result)
        return charts.stacked_bars(
            translate(N_("Where the points came from")),
            [names[seat] for seat in table.seats],
            [(translate(label), values) for label, values in table.rows],
            data_label=translate(N_("Points by part of the score")),
            category_label=translate(N_("Part of the score")),
        )

    def panel_context(self, panel: Panel) -> dict:
        """Kinds, the spaces to join or complete, the sheet to pre-fill and the entry limits."""
        state, view, seat = panel.state, panel.view, panel.seat
        kind_list = kinds(state["kind_names"])
        context = {
            "kinds": kind_list,
            "kind_by_key": {k["key"]: k for k in kind_list},
            "kind_by_name": {k["name"]: k for k in kind_list},
            "sheet_preview": sheet_preview,
            "is_bound": forms.is_bound,
            "join_names": join_names,
            # Sheets this device may see (its own; every one on the host's "show all"), scored.
            "sheet_scores": {
                entry["seat"]: af.final_score(entry["sheet"])
                for entry in view["seats"]
                if entry.get("sheet")
            },
            "score_lines": af.SCORE_LINES,
            "turn_actions": [(key, af.TURN_ACTION_LABELS[key]) for key in af.TURN_ACTIONS],
            "last_seat": state["players"] - 1,
            "prices": {
                "adventure": af.ADVENTURE_PRICE,
                "colour": af.COLOUR_CHANGE_PRICE,
                "page": af.PAGE_PRICE,
            },
            "me": None,
            "score_table_of": score_table,
            # the names of who joined each expedition space (None: an empty space), for its
            # fragment
            "row_joined": [
                None if card is None else [panel.names[j] for j in card["joined"]]
                for card in view.get("row", [])
            ],
        }
        if seat is None:
            return context
        record = state["seats"][seat]
        row = state["row"]
        context.update(
            me=view["seats"][seat],
            join_slots=[
                i + 1
                for i, card in enumerate(row)
                if card is not None and seat not in card["joined"]
            ],
            complete_slots=[
                i + 1 for i, card in enumerate(row) if card is not None and seat in card["joined"]
            ],
            markers_free=af.MARKERS - af.markers_used(state, seat),
            can_buy=record["coins"] // af.ADVENTURE_PRICE,
            discard_default=max(0, record["adventures_open"] - af.OPEN_ADVENTURE_LIMIT),
            prefill=sheet_with_keys(state, seat),
        )
        return context


ADAPTER = AfricanaAdapter()

"""Serengeti and Don at the table: the forms of their actions, the panel, and the 1-chip fine.

The forms check only the shape of what is typed (a tribe, a digit, a whole number); the rules
module checks the rest (whose turn, a bid that does not beat the high bid or ends in a digit the
bidder owns, a card that cannot exist...). Chips are private: the panel shows a seat's chips only
to that seat's phone, to the host acting for that seat, or to the host's "show all" view.
"""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from wtforms import StringField
from wtforms.validators import AnyOf, InputRequired

from companion.forms import VersionedForm, whole_number
from companion.games.base import N_
from companion.games.serengeti import rules as rules
from companion.web.adapter import GameAdapter, Panel

PANEL = "serengeti/_panel.html"
# Chips are private: when the host's device shows them, the table is told (issue: "show all").
SHOW_ALL_LINE = N_("The host looked at everyone's chips.")
LOOK_LINE = N_("The host looked at %(seat)s's chips.")
TRIBE_KEYS = list(rules.TRIBES)
CARD_KEYS = [f"{tribe}:{digit}" for tribe in TRIBE_KEYS for digit in range(10)]


def _card_field(label, missing):
    return StringField(label, validators=[InputRequired(missing), AnyOf(CARD_KEYS, missing)])


def _split_card(value: str) -> dict:
    tribe, digit = value.split(":")
    return {"tribe": tribe, "digit": int(digit)}


def _seat_field(message):
    return whole_number(None, 0, rules.MAX_PLAYERS - 1, message)


class CardForm(VersionedForm):
    """A card turned up for this round's lot: its tribe and digit (anyone at the table)."""

    tribe = StringField(
        _l("Tribe"),
        validators=[
            InputRequired(_l("Choose the tribe shown on the card.")),
            AnyOf(TRIBE_KEYS, _l("Choose the tribe shown on the card.")),
        ],
    )
    digit = whole_number(_l("Digit"), 0, 9, _l("Choose the digit on the card: 0 to 9."))

    def to_action(self) -> dict:
        return {"tribe": self.tribe.data, "digit": self.digit.data}


class BidForm(VersionedForm):
    """A bid in the auction: a whole number of chips (the rules check the rest)."""

    amount = whole_number(
        _l("Your bid"),
        1,
        rules.MAX_BID,
        _l("A bid is a whole number of chips, from 1 to 999."),
        missing=_l("Type your bid, or pass."),
    )

    def to_action(self) -> dict:
        return {"amount": self.amount.data}


class PassForm(VersionedForm):
    """Passing: out of this auction."""

    def to_action(self) -> dict:
        return {}


class DiscardForm(VersionedForm):
    """The winner who cannot pay picks one of their cards to leave the game."""

    card = _card_field(_l("Card to discard"), _l("Choose one of your cards to discard."))

    def to_action(self) -> dict:
        return _split_card(self.card.data)


class SellForm(VersionedForm):
    """Don: put one of your own cards up for auction at the start of a round."""

    card = _card_field(_l("Card to sell"), _l("Choose one of your cards to sell."))

    def to_action(self) -> dict:
        return _split_card(self.card.data)


class WaiveForm(VersionedForm):
    """Host: give a player's latest fine back."""

    player = _seat_field(_l("Choose whose fine to waive."))

    def to_action(self) -> dict:
        return {"player": self.player.data}


class FinesForm(VersionedForm):
    """Host: play with or without the 1-chip fine for illegal bids."""

    on = StringField(
        validators=[
            InputRequired(_l("Choose fines on or off.")),
            AnyOf(["on", "off"], _l("Choose fines on or off.")),
        ]
    )

    def to_action(self) -> dict:
        return {"on": self.on.data == "on"}


class StartForm(VersionedForm):
    """Host: who starts round 1 (before the first card)."""

    player = _seat_field(_l("Choose the start player."))

    def to_action(self) -> dict:
        return {"player": self.player.data}


FORMS = {
    "card": CardForm,
    "bid": BidForm,
    "pass": PassForm,
    "discard": DiscardForm,
    "sell": SellForm,
    "waive": WaiveForm,
    "fines": FinesForm,
    "start": StartForm,
}


def follow_up(state: dict, action: dict, error) -> dict | None:
    """After a refused bid that breaks the digit rule: the 1-chip fine, as its own history entry."""
    if action.get("type") != "bid" or not rules.penalty_applies(state, getattr(error, "rule", "")):
        return None
    amount = action.get("amount")
    return {"type": "penalty", "bid": amount if isinstance(amount, int) else None}


def _card_key(card: dict) -> str:
    return f"{card['tribe']}:{card['digit']}"


def panel_context(state: dict, view: dict, seat: int | None, host: bool, names: list) -> dict:
    """What the panel needs beyond the view: quick bids with private warnings, cards to pick,
    fines the host may waive, the latest fine, and the auction status of each seat."""
    me = view["me"]
    quick_bids = []
    my_cards = []
    if me is not None:
        for amount in me["legal_bids"]:
            quick_bids.append({"amount": amount, "warning": rules.bid_warning(state, seat, amount)})
        my_cards = [
            {"key": _card_key({"tribe": t, "digit": d}), "tribe": t, "digit": d}
            for t, digits in me["cards"].items()
            for d in digits
        ]
    auction = view["auction"]
    status = {}
    if auction is not None:
        for s in range(view["players"]):
            if s == auction["seller"]:
                status[s] = "seller"
            elif s in auction["excluded"]:
                status[s] = "out"
            elif view["phase"] == "discard" and s == auction["defaulter"]:
                status[s] = "discard"
            elif s == auction["turn"] and view["phase"] == "auction":
                status[s] = "turn"
            elif s in auction["passed"]:
                status[s] = "passed"
            elif s == auction["high_seat"]:
                status[s] = "high"
    open_fines = []
    if host:
        latest = {}
        for fine in view["penalties"]:
            if fine["paid"] and not fine["waived"]:
                latest[fine["seat"]] = fine
        open_fines = [latest[s] for s in sorted(latest)]
    new_fine = next((e for e in state.get("events", []) if e["e"] == "penalty"), None)
    return {
        "tribes": rules.TRIBES,
        "quick_bids": quick_bids,
        "my_cards": my_cards,
        "seat_status": status,
        "open_fines": open_fines,
        "new_fine": new_fine,
        "may_choose_start": (
            host and view["round"] == 1 and view["phase"] == "reveal" and not view["lot"]
        ),
        "turn_bonus": (
            rules.pass_bonus_due(state, auction["turn"])
            if auction is not None and view["phase"] == "auction"
            else 0
        ),
    }


class SerengetiAdapter(GameAdapter):
    """How Serengeti plugs into the table page, the rules page and the calculators."""

    forms = FORMS
    panel_template = PANEL
    rules_template = "serengeti/rules.html"
    calculator_module = "companion.games.serengeti.calculator"
    show_all_line = SHOW_ALL_LINE
    look_line = LOOK_LINE

    def panel_context(self, panel: Panel) -> dict:
        return panel_context(panel.state, panel.view, panel.seat, panel.host, panel.names)

    def follow_up(self, state: dict, action: dict, error) -> dict | None:
        return follow_up(state, action, error)


ADAPTER = SerengetiAdapter()

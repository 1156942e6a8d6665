"""Serengeti and Don at the table: the forms of their actions, the panel, and the 1-chip fine.

The forms check only the shape of what is typed (a tribe, a digit, a whole number); the rules
module checks the rest (whose turn, a bid that does not beat the high bid or ends in a digit the
bidder owns, a card that cannot exist...). Chips are private: the panel shows a seat's chips only
to that seat's phone, to the host acting for that seat, or to the host's "show all" view.
"""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from markupsafe import Markup
from wtforms import BooleanField, StringField
from wtforms.validators import AnyOf, InputRequired

from companion.forms import VersionedForm, whole_number
from companion.games.base import N_
from companion.games.serengeti import rules as rules
from companion.games.serengeti.scoreboard import score_table
from companion.i18n import translate
from companion.web import charts
from companion.web.adapter import GameAdapter, Panel

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
    # Set when the player confirmed the bid just fined once more (the phone asks first): without
    # it the rules take that bid for a second tap of the same call and do not fine it again.
    again = BooleanField()

    def to_action(self) -> dict:
        return {"amount": self.amount.data, **({"again": True} if self.again.data else {})}


class PassForm(VersionedForm):
    """Passing: out of this auction."""

    def to_action(self) -> dict:
        return {}


class OneCardForm(VersionedForm):
    """A form that names one of the player's own cards, as "tribe:digit"."""

    @classmethod
    def fields_for(cls, action: dict, state: dict) -> dict:
        return {"card": f"{action['tribe']}:{action['digit']}"}


class DiscardForm(OneCardForm):
    """The winner who cannot pay picks one of their cards to leave the game."""

    card = _card_field(_l("Card to discard"), _l("Choose one of your cards to discard."))

    def to_action(self) -> dict:
        return _split_card(self.card.data)


class SellForm(OneCardForm):
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


def _card_key(card: dict) -> str:
    return f"{card['tribe']}:{card['digit']}"


def _seat_status(view: dict) -> dict[int, str]:
    """Each seat's part in the auction: seller, out, discard, turn, passed or high."""
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
    return status


# What the status fragment (serengeti/_status.html) reads of the view: public to every viewer, so
# that all the phones and the host share one rendering of it per table version.
STATUS_KEYS = (
    "variant",
    "phase",
    "round",
    "rounds",
    "lot_size",
    "lot",
    "auction",
    "to_act",
    "start",
    "pot",
    "bank",
    "cards_left",
    "waiting_for",
    "payout_line",
    "payout_why",
)


def _open_fines(view: dict) -> list[dict]:
    """The latest fine of each seat that paid one and has not had it back (for the host)."""
    latest = {}
    for fine in view["penalties"]:
        if fine["paid"] and not fine["waived"]:
            latest[fine["seat"]] = fine
    return [latest[s] for s in sorted(latest)]


def chips_by_round(states: list[dict]) -> list[list[int]]:
    """Everyone's chips at the start and after each round: [round][seat] (from the state after
    every action; a round ends with the action that settles its auction)."""
    first = states[0]
    found = [[rules.START_CHIPS[first["variant"]]] * first["players"]]
    for state in states:
        done = state["round"] if state["phase"] == "over" else state["round"] - 1
        if done == len(found):  # the first state after the round ended
            found.append(list(state["chips"]))
    return found


def summary_chart(states: list[dict], names: list[str]) -> Markup | None:
    """Everyone's chips round by round (public once the game is over), then each player's
    cards by tribe."""
    if not states or states[-1]["phase"] != "over":
        return None
    rounds = chips_by_round(states)
    series = [(name, [chips[seat] for chips in rounds]) for seat, name in enumerate(names)]
    chips_title, cards_title = (
        translate(N_("Chips round by round")),
        translate(N_("Cards by tribe")),
    )
    chips = charts.line_chart(
        chips_title,
        series,
        x_label=translate(N_("Round")),
        step_label=translate(N_("Round")),
        data_label=translate(N_("Everyone's chips at the start and after each round")),
    )
    cards = states[-1]["cards"]
    tribes = [
        (
            translate(label),
            [sum(c["tribe"] == tribe for c in cards[seat]) for seat in range(len(names))],
        )
        for tribe, label in rules.TRIBES.items()
    ]
    collections = charts.stacked_bars(
        cards_title,
        names,
        tribes,
        data_label=translate(N_("Each player's cards by tribe")),
        category_label=translate(N_("Tribe")),
    )
    # Two pictures in one section: each gets a heading of its own.
    return (
        Markup('<h3 class="sg-chart-title">%s</h3>') % chips_title
        + chips
        + Markup('<h3 class="sg-chart-title">%s</h3>') % cards_title
        + collections
    )


class SerengetiAdapter(GameAdapter):
    """How Serengeti plugs into the table page, the rules page and the calculators."""

    forms = FORMS
    panel_template = "serengeti/_panel.html"
    rules_template = "serengeti/rules.html"
    calculator_module = "companion.games.serengeti.calculator"
    # Chips are private: when the host's device shows them, the table is told (issue: "show all").
    show_all_line = N_("The host looked at everyone's chips.")
    look_line = N_("The host looked at %(seat)s's chips.")

    def summary_chart(self, states: list[dict], names: list[str]) -> Markup | None:
        """See summary_chart(): chips round by round, and each player's cards by tribe."""
        return summary_chart(states, names)

    def panel_context(self, panel: Panel) -> dict:
        """Quick bids with private warnings, cards to pick, fines to waive, seats' auction parts."""
        state, view, seat = panel.state, panel.view, panel.seat
        me = view["me"]  # None for the table (no seat)
        quick_bids = []
        my_cards = []
        if me is not None and seat is not None:
            for amount in me["legal_bids"]:
                warning = rules.bid_warning(state, seat, amount)
                quick_bids.append({"amount": amount, "warning": warning})
            my_cards = [
                {"key": _card_key({"tribe": t, "digit": d}), "tribe": t, "digit": d}
                for t, digits in me["cards"].items()
                for d in digits
            ]
        auction = view["auction"]
        result = rules.result(state)
        return {
            # The bid this seat was fined for a moment ago: its field starts empty, and sending
            # it once more asks first (rules.just_fined_bid).
            "fined_bid": rules.just_fined_bid(state, seat) if me is not None else None,
            "score": score_table(state, result) if result is not None else None,
            "tribes": rules.TRIBES,
            "quick_bids": quick_bids,
            "my_cards": my_cards,
            "seat_status": _seat_status(view),
            "status_view": {key: view[key] for key in STATUS_KEYS},
            "open_fines": _open_fines(view) if panel.host else [],
            "new_fine": next((e for e in state.get("events", []) if e["e"] == "penalty"), None),
            "may_choose_start": (
                panel.host and view["round"] == 1 and view["phase"] == "reveal" and not view["lot"]
            ),
            "turn_bonus": (
                rules.pass_bonus_due(state, auction["turn"])
                if auction is not None and view["phase"] == "auction"
                else 0
            ),
        }


ADAPTER = SerengetiAdapter()

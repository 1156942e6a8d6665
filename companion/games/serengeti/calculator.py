"""Serengeti / Don payout calculator: who receives a bid, without a table.

A GET form (nothing is stored, the address can be shared): the rule set, the bid, the winner, the
digits on the cards each player owns, and in Don the pot. The pure payout() does the sharing.
"""

from __future__ import annotations

import re
from collections import Counter

from flask import Blueprint, render_template, request
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext
from flask_wtf import FlaskForm
from wtforms import RadioField, StringField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import InputRequired, Length, Optional, ValidationError

from companion.forms import whole_number
from companion.games.base import N_, Seat
from companion.games.serengeti import rules as rules
from companion.i18n import render_msg, translate

bp = Blueprint("tools_serengeti", __name__, url_prefix="/tools/serengeti")
CALCULATORS = [(N_("Serengeti and Don: who receives a bid"), "tools_serengeti.payout_page")]

DIGITS_ALLOWED = re.compile(r"^[0-9\s,;.\-/]*$")


def parse_digits(text: str | None) -> list[int]:
    """ "4 7 7", "4,7,7" or "477": each digit is one card. Raises ValueError on anything else."""
    text = text or ""
    if not DIGITS_ALLOWED.match(text):
        raise ValueError(text)
    return [int(ch) for ch in text if ch.isdigit()]


class DigitsField(StringField):
    """The digits on one player's cards, as typed."""

    def pre_validate(self, form):
        try:
            parse_digits(self.data)
        except ValueError:
            raise ValidationError(
                _l(
                    "Type only digits 0 to 9 (for example 4 7 7): one digit for "
                    "each card the player owns."
                )
            ) from None


class PayoutForm(FlaskForm):
    class Meta:
        csrf = False  # a GET form that changes nothing

    variant = RadioField(
        _l("Rule set"),
        choices=[
            SelectChoice("abacus", _l("Serengeti (Abacus)")),
            SelectChoice("don", _l("Don (original rules)")),
        ],
        default="abacus",
        validators=[InputRequired(_l("Choose Abacus or Don."))],
    )
    players = whole_number(
        _l("Number of players"),
        rules.MIN_PLAYERS,
        rules.MAX_PLAYERS,
        _l("Serengeti is for 3 to 5 players."),
        default=3,
    )
    bid = whole_number(
        _l("Winning bid"),
        1,
        rules.MAX_BID,
        _l("The bid is a whole number from 1 to 999."),
        missing=_l("Type the winning bid."),
    )
    winner = whole_number(_l("Winner"), 0, rules.MAX_PLAYERS - 1, _l("Choose who won the auction."))
    pot = whole_number(
        _l("Pot before this payout (Don)"),
        0,
        rules.MAX_BID,
        _l("The pot is a whole number of chips, 0 or more."),
        required=False,
    )

    def validate_winner(self, field):
        if field.errors:
            return
        if field.data is not None and self.players.data and field.data >= self.players.data:
            raise ValidationError(_l("Choose who won the auction."))

    def validate_pot(self, field):
        if field.data and self.variant.data == "abacus":
            raise ValidationError(_l("Abacus has no pot: leave it empty or choose Don."))


for _i in range(rules.MAX_PLAYERS):
    setattr(
        PayoutForm, f"name_{_i}", StringField(_l("Name"), validators=[Optional(), Length(max=24)])
    )
    setattr(
        PayoutForm,
        f"digits_{_i}",
        DigitsField(_l("Digits on their cards"), validators=[Length(max=60)]),
    )


def name_field(form: PayoutForm, i: int) -> StringField:
    return form[f"name_{i}"]


def digits_field(form: PayoutForm, i: int) -> DigitsField:
    return form[f"digits_{i}"]


def _names(form: PayoutForm, count: int) -> list[str]:
    names = []
    for i in range(count):
        typed = (name_field(form, i).data or "").strip()
        names.append(typed or translate(N_("Player %(n)s")) % {"n": i + 1})
    return names


def _deck_problem(holdings: list[list[int]]) -> str | None:
    """The deck's limits: each digit is on 3 cards, 30 cards in all."""
    counts = Counter(d for digits in holdings for d in digits)
    if sum(counts.values()) > rules.DECK_SIZE:
        return _l("The deck has only 30 cards: check the digits.")
    for digit, count in sorted(counts.items()):
        if count > rules.CARDS_PER_DIGIT:
            return ngettext(
                "Only 3 cards show a %(digit)s, but %(num)s card was entered.",
                "Only 3 cards show a %(digit)s, but %(num)s cards were entered.",
                count,
                digit=digit,
            )
    return None


@bp.get("/")
def payout_page():
    """Enter a bid, the winner and who holds which digits; see each share and the remainder."""
    submitted = "bid" in request.args
    args = request.args.copy()
    args.setdefault("variant", "abacus")  # a shared address without the rule set means Abacus
    form = PayoutForm(formdata=args if submitted else None)
    outcome = None
    problem = None
    if submitted and form.validate():
        count = form.players.number
        holdings = [parse_digits(digits_field(form, i).data) for i in range(count)]
        problem = _deck_problem(holdings)
        if problem is None:
            outcome = _outcome(form, count, holdings)
    status = 400 if submitted and outcome is None else 200
    rows = [(name_field(form, i), digits_field(form, i)) for i in range(rules.MAX_PLAYERS)]
    return render_template(
        "serengeti/calculator.html",
        form=form,
        rows=rows,
        outcome=outcome,
        problem=problem,
        submitted=submitted,
    ), status


def _outcome(form: PayoutForm, count: int, holdings: list[list[int]]) -> dict:
    """Each seat's share (0 included), the remainder, the plain payout line and why."""
    names = _names(form, count)
    variant, pot, bid, winner = (
        form.variant.data,
        form.pot.data or 0,
        form.bid.number,
        form.winner.number,
    )
    pay = rules.payout(
        bid, Seat(winner), {Seat(i): holdings[i] for i in range(count)}, variant=variant, pot=pot
    )
    line = rules.payout_line(Seat(winner), bid, pay, variant=variant, pot=pot)
    why = rules.payout_explanation(pay, bid, variant=variant, pot=pot, players=count)
    return {
        "pay": pay,
        "names": names,
        "winner": winner,
        "variant": variant,
        "pot": pot,
        "bid": bid,
        "shares": {i: pay.shares.get(i, 0) for i in range(count)},
        "matching": {i: n for i, n in pay.matches.items()},
        "line": render_msg(line, names),
        "why": why,  # the same sentences as the table's payout line opens to
    }

"""The forms of the lobby and the table: WTForms checks the shape of input, the games the rules."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_babel import lazy_ngettext
from flask_wtf import FlaskForm
from wtforms import (
    BooleanField,
    FieldList,
    HiddenField,
    IntegerField,
    SelectField,
    StringField,
    SubmitField,
)
from wtforms.validators import InputRequired, Length, NumberRange, Optional, ValidationError

from companion.games import GAMES
from companion.games.base import N_
from companion.i18n import game_label
from companion.plaintext import has_control, plain

MAX_SEATS = max(game.max_players for game in GAMES.values())
NAME_MAX = 24
LOCATION_MAX = 60  # a place's name in BG Stats ("Anna's kitchen", "Game café on Main Street")


def bounded(text):
    """A typed text cut to a bound far above any field's limit, before it is validated: a refusal
    shows what was typed again (the Length check still refuses it), never 5,000 characters of
    it in every box."""
    return text[:240] if isinstance(text, str) else text


PLAIN_TEXT = N_("Type it on one line, without line breaks, tabs or invisible control characters.")


class PlainText:
    """A validator: one line of visible text, no control characters (line breaks, tabs, NUL,
    the invisible direction controls; companion.plaintext says why). The message says what
    was wrong and what to do, in the reader's language."""

    message = _l(PLAIN_TEXT)

    def __call__(self, form, field) -> None:
        if isinstance(field.data, str) and has_control(field.data):
            raise ValidationError(self.message)


class WholeNumber(IntegerField):
    """An integer field whose "not a number" error says what to type, and says it only once.

    Its message names the field unless one is given. Anything longer than MAX_DIGITS digits is
    refused as not a number: no game needs more, and giant numbers only break range checks.
    """

    MAX_DIGITS = 9

    def __init__(self, label=None, validators=None, message=None, **kwargs):
        super().__init__(label, validators, **kwargs)
        self.message = message

    def process_formdata(self, valuelist):
        if not valuelist:
            return
        text = str(valuelist[0]).strip()
        if text == "":
            self.data = None
            return
        try:
            if len(text.lstrip("+-")) > self.MAX_DIGITS:
                raise ValueError(text)
            self.data = int(text)
        except ValueError:
            self.data = None
            raise ValueError(
                self.message
                or _l("%(field)s: type a whole number, such as 3.", field=self.label.text)
            ) from None

    def validate(self, form, extra_validators=()):
        if self.process_errors:  # not a number: say so once, not also "out of range"
            self.errors = list(self.process_errors)
            return False
        return super().validate(form, extra_validators)

    @property
    def number(self) -> int:
        """The number typed, read once the form validated with this field required: never None
        there (an empty or wrong box did not validate). Anywhere else, None is the code's error."""
        if self.data is None:
            raise ValueError(f"{self.name} holds no number: read it after a validation it passed")
        return self.data

    def _value(self):
        if self.raw_data:
            return self.raw_data[0]  # what was typed stays in the box, even when refused
        return "" if self.data is None else str(self.data)


def whole_number(
    label,
    low: int | None,
    high: int | None,
    message,
    *,
    missing=None,
    required: bool = True,
    **kwargs,
) -> WholeNumber:
    """A whole number from low to high (None: unbounded) whose every problem gets one message.

    `message` answers "not a number" and "out of range" alike; `missing` (default: the same)
    answers an empty box, or the box may be left empty when required is False.
    """
    first = InputRequired(missing or message) if required else Optional()
    return WholeNumber(
        label, message=message, validators=[first, NumberRange(low, high, message)], **kwargs
    )


BANK_MINUTES_MAX = 180
BANK_CREDIT_MAX = 600


def rematch_readings(values, offered, now: dict | None) -> dict:
    """The readings a rematch form chose (reading-<id>: "literal" the other way, "app" ours),
    each kept as the table had it when the form leaves it out."""
    found = dict(now or {})
    for reading in offered:
        choice = values.get(f"reading-{reading}")
        if choice == "literal":
            found[reading] = "literal"
        elif choice == "app":
            found.pop(reading, None)
    return found


def table_settings(form) -> dict:
    """The table options a form asks for (a time bank), as the table stores them."""
    found: dict = {}
    minutes = form.bank_minutes.data or 0
    if minutes:
        found.update(bank_minutes=minutes, bank_credit=form.bank_credit.data or 0)
    house = (form.house_rule.data or "").strip()
    if house:
        found["house_rule"] = house
    return found


def rematch_settings(values, now: dict) -> dict:
    """The table options a rematch form asks for: its time bank boxes, each kept as the table
    had it when left out or not a whole number in its range, and its house rule (kept when
    left out, gone when emptied)."""
    found = dict(now)
    for name, high in (("bank_minutes", BANK_MINUTES_MAX), ("bank_credit", BANK_CREDIT_MAX)):
        text = (values.get(name) or "").strip()
        if text.isdigit() and int(text) <= high:
            found[name] = int(text)
    if "house_rule" in values:  # the rematch form's box: as typed, made one plain line
        found["house_rule"] = " ".join(plain(values.get("house_rule") or "").split())[:240]
    kept = {"house_rule": found["house_rule"]} if found.get("house_rule") else {}
    if not found.get("bank_minutes"):
        return kept
    return {
        **kept,
        "bank_minutes": found["bank_minutes"],
        "bank_credit": found.get("bank_credit", 0),
    }


class NewTableForm(FlaskForm):
    """Home page: which game, how many players, and (optionally) their names."""

    game = SelectField(_l("Game"), validators=[InputRequired()])
    # "Number of players", not "Players": the table page's seat list is headed "Players", and a
    # number box needs another word in Japanese (人数) and Russian (число игроков).
    players = WholeNumber(
        _l("Number of players"),
        validators=[InputRequired(_l("Enter how many play."))],
        message=_l("Enter how many play."),
    )
    names = FieldList(
        StringField(
            _l("Name"),
            validators=[Optional(), Length(max=NAME_MAX), PlainText()],
            filters=[bounded],
        ),
        min_entries=MAX_SEATS,
        max_entries=MAX_SEATS,
    )
    submit = SubmitField(_l("Start a table"))
    # The table clock's time bank (a table option: companion/timing.py): minutes each, and
    # seconds added for each turn; empty or 0 minutes: the clock only counts (advisory).
    bank_minutes = whole_number(
        _l("Time bank (minutes each)"),
        0,
        BANK_MINUTES_MAX,
        _l("The time bank is a whole number of minutes from 0 to 180."),
        required=False,
    )
    bank_credit = whole_number(
        _l("Seconds added each turn"),
        0,
        BANK_CREDIT_MAX,
        _l("The seconds added each turn are a whole number from 0 to 600."),
        required=False,
    )
    # A house rule the table plays by, in its own words (shown on the table, the summary, the
    # display and the exports; the app does not enforce it).
    house_rule = StringField(
        _l("A house rule you play by (optional)"),
        validators=[Optional(), Length(max=240), PlainText()],
        filters=[bounded],
    )
    # The host's time zone (an IANA name), filled in by static/js/app.js: the exports date the
    # play at the table's own time. Empty without script: the server's zone.
    timezone = HiddenField()

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.game.choices = [(key, game_label(info)) for key, info in GAMES.items()]

    def validate_players(self, field: WholeNumber) -> None:
        info = GAMES.get(self.game.data)
        if info is None or field.data is None:
            return
        if not info.min_players <= field.data <= info.max_players:
            if info.min_players == info.max_players:
                raise ValidationError(
                    _l(
                        "Players for %(game)s: exactly %(n)s.",
                        game=game_label(info),
                        n=info.min_players,
                    )
                )
            raise ValidationError(
                _l(
                    "Players for %(game)s: %(min)s to %(max)s.",
                    game=game_label(info),
                    min=info.min_players,
                    max=info.max_players,
                )
            )


class JoinCodeForm(FlaskForm):
    """Home page: type the code shown under the host's QR code."""

    code = StringField(
        _l("Table code"), validators=[InputRequired(_l("Type the table code.")), Length(max=20)]
    )
    submit = SubmitField(_l("Join"))


class TakeSeatForm(FlaskForm):
    """Join page: one of the free seats, optionally with the player's own name."""

    seat = whole_number(
        None, 0, MAX_SEATS - 1, _l("Pick one of the free seats."), missing=_l("Pick a seat.")
    )
    name = StringField(
        _l("Your name (optional)"),
        validators=[Optional(), Length(max=NAME_MAX), PlainText()],
        filters=[bounded],
    )


def is_bound(form) -> bool:
    """Whether this form came back from a post (a refused entry: what was typed, its errors)."""
    return any(getattr(field, "raw_data", None) for field in form)


class VersionedForm(FlaskForm):
    """Every form that changes the table carries the version it was rendered from, and the key
    the phone gives each submission (so that a resend after a lost connection applies once)."""

    version = HiddenField()
    key = HiddenField()

    def expected_version(self) -> int | None:
        try:
            return int(self.version.data)
        except (TypeError, ValueError):
            return None

    @classmethod
    def fields_for(cls, action: dict, state: dict) -> dict:
        """The form's fields that give this action back (the inverse of to_action): what a
        phone would post for it (the robustness checks post the games' random actions so).
        Plain values as they are, true/false as a checkbox or as "on"/"off", a list as numbered
        fields; a form
        whose fields are shaped otherwise says so by overriding this."""
        fields: dict = {}
        for key, value in action.items():
            if key in ("type", "seat", "host") or value is None:
                continue
            if isinstance(value, bool):
                field_class = getattr(getattr(cls, key, None), "field_class", None)
                if isinstance(field_class, type) and issubclass(field_class, BooleanField):
                    fields[key] = "y" if value else ""  # a checkbox: ticked or not sent
                else:
                    fields[key] = "on" if value else "off"  # a switch's two buttons
            elif isinstance(value, list):
                for i, item in enumerate(value):
                    fields[f"{key}-{i}"] = item
            else:
                fields[key] = value
        return fields


class NoteForm(VersionedForm):
    text = StringField(
        _l("Note for the history"),
        validators=[InputRequired(_l("Write something first.")), Length(max=200), PlainText()],
        filters=[bounded],
    )


class UndoForm(VersionedForm):
    pass


class RenameSeatForm(VersionedForm):
    name = StringField(
        _l("Name"),
        validators=[InputRequired(), Length(max=NAME_MAX), PlainText()],
        filters=[bounded],
    )


class LocationForm(FlaskForm):
    """Summary (the host): where the table is played, for BG Stats' place of the play."""

    location = StringField(
        _l("Where you played"),
        validators=[
            Optional(),
            Length(
                max=LOCATION_MAX,
                message=lazy_ngettext(
                    "At most %(num)d character.", "At most %(num)d characters.", LOCATION_MAX
                ),
            ),
            PlainText(),
        ],
        filters=[bounded],
    )

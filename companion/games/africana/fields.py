"""Reading the numbers of an action or a scoring sheet: whole numbers within the game's
limits, or a refusal that names the field in words people can read (and translate)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.africana.facts import is_int
from companion.games.base import N_, Msg, RuleError

# What each number of an action or a sheet is called in a refusal (people never see the keys).
FIELD_LABELS = {
    "cards": N_("Cards"),
    "pages": N_("Pages"),
    "slot": N_("Expedition space"),
    "bonus_coins": N_("Join bonus (silver)"),
    "coins": N_("Coins (silver)"),
    "points": N_("Points"),
    "amount": N_("Amount (silver)"),
    "discarded_adventures": N_("Discarded adventures"),
    "guide_adventures": N_("Completed guide adventures"),
    "movement_cards": N_("Movement cards in hand"),
    "unfinished_artifacts": N_("Unfinished artifact adventures"),
    "gold": N_("Gold coins"),
    "silver": N_("Silver coins"),
}


def field_label(key: str) -> Msg:
    """A field's name for a refusal, as a translatable message."""
    return Msg(FIELD_LABELS.get(key, key))


def int_field(
    data: Mapping, key: str, lo: int, hi: int, rule: str = "action", default: Any = None
) -> int:
    """Read a whole number between lo and hi from an action or sheet, or refuse it."""
    field = field_label(key)
    if key not in data or data[key] is None:
        if default is not None:
            return default
        raise RuleError(rule, N_("The entry needs a value for '%(field)s'."), field=field)
    value = data[key]
    if not is_int(value):
        raise RuleError(rule, N_("'%(field)s' must be a whole number."), field=field)
    if value < lo:
        if lo == 0:
            raise RuleError(
                rule, N_("'%(field)s' cannot be negative: enter 0 or more."), field=field
            )
        raise RuleError(rule, N_("'%(field)s' must be at least %(lo)s."), field=field, lo=lo)
    if value > hi:
        raise RuleError(rule, N_("'%(field)s' can be at most %(hi)s."), field=field, hi=hi)
    return value

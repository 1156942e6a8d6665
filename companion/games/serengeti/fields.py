"""Serengeti / Don: reading what was entered (whole numbers, digit strings, the rule set) and
refusing bad input in words, for the pure calculators and the moves alike."""

from __future__ import annotations

from typing import Any

from companion.games.base import N_, RuleError, is_int, short
from companion.games.serengeti.facts import VARIANTS


class InputError(RuleError, ValueError):
    """Bad input to a pure calculator (payout, score, standings): a RuleError and a ValueError."""


def check_variant(variant: Any) -> str:
    """The rule set, if it is one of VARIANTS; else InputError (rule "options")."""
    if variant not in VARIANTS:
        raise InputError(
            "options",
            N_("Unknown rule set %(variant)s: choose abacus or don."),
            variant=short(variant),
        )
    return variant


def int_field(value: Any) -> int | None:
    """An int from an int or a string of digits (forms send strings); None if it is neither."""
    if is_int(value):
        return value
    if isinstance(value, str):
        text = value.strip()
        body = text[1:] if text.startswith("-") else text
        if body.isascii() and body.isdecimal() and len(body) <= 9:
            return int(text)
    return None

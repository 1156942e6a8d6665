"""Kahuna's sentence pieces: lists of names as translatable messages, so that every language
joins them with its own punctuation ("Aloa, Bari and Coco", 「Aloa、BariとCoco」,
«Aloa, Bari и Coco»), and refusals whose wording depends on a number (1 карта, 2 карты, 5 карт).

The game modules and the table page use them; a list of one name is the name itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.games.base import N_, Msg, RuleError


def comma_list(items: Sequence[Any]) -> Any:
    """ "A, B, C" (every item joined by the language's comma) as nested messages; "" for none."""
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    return Msg(N_("%(head)s, %(tail)s"), head=items[0], tail=comma_list(items[1:]))


def and_list(items: Sequence[Any]) -> Any:
    """ "A, B and C" as nested messages."""
    if len(items) == 1:
        return items[0]
    return Msg(N_("%(first)s and %(last)s"), first=comma_list(items[:-1]), last=items[-1])


def counted_refusal(rule: str, msg: Msg) -> RuleError:
    """A RuleError with a plural message (built by Plural, so pybabel extracts both forms).
    RuleError(rule, msgid, ...) and RuleError.of() build a plain Msg from the msgid, which would
    drop the plural forms, so the message is set on the error afterwards."""
    error = RuleError(rule, msg.msgid, **msg.params)
    error.msg = msg
    error.args = (str(msg),)
    return error

"""Counted phrases and lists inside Africana's messages, as translatable messages of their own.

A number with a noun takes its form from the number in each language: Russian has three forms
(1 серебряная, 2 серебряные, 5 серебряных), Japanese writes a counter (銀貨5枚). A sentence with
one count is a Plural message as a whole; a sentence with more than one takes the others from
these phrases, each with the words around the number that decide its form ("for 5 silver" is
«за 5 серебряных» in Russian, a different case from «5 серебряных»). A list is joined by
translatable patterns, so Japanese gets 「A、B、C」 and Russian «A, B и C».
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.games.base import N_, Msg, Plural, RuleError


def silver(n: int) -> Msg:
    """An amount of coins by value in silver, "5 silver" (1 gold = 5 silver)."""
    return Plural("%(num)s silver", "%(num)s silver", "num", num=n)


def for_silver(n: int) -> Msg:
    """The price paid for something, "for 5 silver"; "for free" when nothing was paid (a turn's
    first page is free: not "for 0 silver")."""
    if n == 0:
        return Msg(N_("for free"))
    return Plural("for %(num)s silver", "for %(num)s silver", "num", num=n)


def silver_left(n: int) -> Msg:
    """A balance after a payment, "5 silver left"."""
    return Plural("%(num)s silver left", "%(num)s silver left", "num", num=n)


def listing(items: Sequence[str | int | Msg]) -> str | Msg:
    """Items joined as a list ("A, B and C"), the punctuation and the word translated; one item
    is itself (as text), none is a dash."""
    items = list(items)
    if not items:
        return "—"
    if len(items) == 1:
        return items[0] if isinstance(items[0], Msg) else str(items[0])
    if len(items) == 2:
        return Msg(N_("%(head)s and %(last)s"), head=_item(items[0]), last=_item(items[1]))
    return Msg(N_("%(head)s, %(tail)s"), head=_item(items[0]), tail=listing(items[1:]))


def _item(item: str | int | Msg) -> str | Msg:
    return item if isinstance(item, Msg) else str(item)


def refusal(rule: str, msg: Msg) -> RuleError:
    """A refusal with a message built already, a Plural one included (RuleError.of keeps only
    the msgid and the parameters, so a plural message would lose its plural form)."""
    error = RuleError(rule, msg.msgid, **msg.params)
    error.msg = msg
    error.args = (str(msg),)
    return error

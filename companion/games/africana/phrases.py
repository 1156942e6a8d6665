"""Counted phrases and lists inside Africana's messages, as translatable messages of their own.

A number with a noun takes its form from the number in each language: Russian has three forms
(1 серебряная, 2 серебряные, 5 серебряных), Japanese writes a counter (銀貨5枚). A sentence with
one count is a Plural message as a whole; a sentence with more than one takes the others from
these phrases, each with the words around the number that decide its form ("for 5 silver" is
«за 5 серебряных» in Russian, a different case from «5 серебряных»). A list is joined by
translatable patterns (companion.games.base.and_list, shared by every game), so Japanese gets
「A、BとC」 and Russian «A, B и C».
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.games.base import N_, Msg, Plural, and_list


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
    """Items joined as a list ("A, B and C", base.and_list), each as text or a message; none is
    a dash."""
    joined: str | Msg = and_list([_item(item) for item in items], empty="—")
    return joined


def _item(item: str | int | Msg) -> str | Msg:
    return item if isinstance(item, Msg) else str(item)

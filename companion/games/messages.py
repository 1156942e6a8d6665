"""The messages games speak in: English msgids with parameters, translated when shown.

Messages are English msgids with %(name)s parameters. Games mark them with N_() so the web layer
can translate them later; a Seat parameter renders as the seat's current name, a nested Msg is
translated too. That keeps the games free of Flask-Babel while every sentence stays translatable.
companion.games.base re-exports all of it: a game imports it from there.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def N_(msgid: str) -> str:
    """Mark a string for translation without translating it (pybabel extracts N_ calls)."""
    return msgid


class Seat(int):
    """A seat index used as a message parameter: the web layer shows the seat's name."""

    def __str__(self) -> str:
        return f"Player {int(self) + 1}"


class Msg(str):
    """An English sentence that remembers its msgid and parameters, so it can be translated later.

    It is a str (the English text), so pure functions may return it where a reason string is
    expected, and tests can compare it with plain text. Two optional marks travel with it (and
    with its stored JSON): a plural form (see Plural: the number in one parameter picks the form in
    each language), and domain="core" for the core app's own lines inside a game's history (notes,
    the host's name), which are translated from the core catalogue, never from a game's.
    """

    msgid: str
    params: dict[str, Any]
    plural: str | None = None  # the plural msgid of an ngettext-style message
    # the parameter whose number picks the singular or a plural form (not "count": a Msg is a
    # str, and str.count must stay a method)
    count_param: str | None = None
    domain: str | None = None  # a part ("core" or a game), or None: the part the reader is in

    def __new__(cls, msgid: str, **params: Any) -> Msg:
        english = msgid % {k: str(v) for k, v in params.items()} if params else msgid
        obj = super().__new__(cls, english)
        obj.msgid = msgid
        obj.params = params
        return obj

    @classmethod
    def core(cls, msgid: str, **params: Any) -> Msg:
        """A message of the core app (translated from the core catalogue wherever it shows)."""
        return cls.of_part("core", msgid, **params)

    @classmethod
    def of_part(cls, part: str, msgid: str, **params: Any) -> Msg:
        """A message translated from one part's catalogue ("core" or a game package's name)
        wherever it shows, e.g. a game's name inside a core sentence."""
        msg = cls(msgid, **params)
        msg.domain = part
        return msg

    def to_json(self) -> dict:
        """A JSON-able form that from_json turns back into an equal Msg."""
        data: dict[str, Any] = {
            "id": self.msgid,
            "p": {k: _encode(v) for k, v in self.params.items()},
        }
        if self.plural is not None:
            data["pl"], data["n"] = self.plural, self.count_param
        if self.domain is not None:
            data["d"] = self.domain
        return data

    def plural_forms(self) -> tuple[str, str, int] | None:
        """(singular msgid, plural msgid, the number that picks the form) of a plural message,
        as ngettext takes them; None for a plain message."""
        if self.plural is None or self.count_param is None:
            return None
        return self.msgid, self.plural, self.params[self.count_param]

    @classmethod
    def from_json(cls, data: dict) -> Msg:
        """Rebuild a Msg stored with to_json (rows stored before plurals and domains included)."""
        params = {k: _decode(v) for k, v in data.get("p", {}).items()}
        if data.get("pl") is not None:
            msg = _counted(data["id"], data["pl"], data["n"], params)
        else:
            msg = cls(data["id"], **params)
        msg.domain = data.get("d")
        return msg


def Plural(singular: str, plural: str, count: str, /, **params: Any) -> Msg:  # noqa: N802
    """An ngettext-style message: params[count] (a number) picks the form in each language.

    Russian has three forms (1 фишка, 2 фишки, 5 фишек), Japanese one (with its counter), English
    two. pybabel extracts Plural(singular, plural, ...) as a plural entry (keyword Plural:1,2):
    write both strings as plain literals (not in N_(), not in parentheses). The first three
    arguments are positional, so a message may have a parameter called "count" too.
    """
    return _counted(singular, plural, count, params)


def _counted(singular: str, plural: str, count: str, params: dict[str, Any]) -> Msg:
    number = params[count]
    if not isinstance(number, int) or isinstance(number, bool):
        raise TypeError(f"the count {count!r} of a plural message must be an int")
    msg = Msg(singular if number == 1 else plural, **params)
    msg.msgid, msg.plural, msg.count_param = singular, plural, count
    return msg


def _encode(value: Any) -> Any:
    if isinstance(value, Msg):
        return {"msg": value.to_json()}
    if isinstance(value, Seat):
        return {"seat": int(value)}
    if isinstance(value, (int, str)):
        return value
    raise TypeError(f"a message parameter must be int, str, Seat or Msg, not {type(value)!r}")


def _decode(value: Any) -> Any:
    if isinstance(value, dict) and "msg" in value:
        return Msg.from_json(value["msg"])
    if isinstance(value, dict) and "seat" in value:
        return Seat(value["seat"])
    return value


def comma_list(items: Sequence[Any], empty: Any = "") -> Any:
    """ "A, B, C": items (Msg, Seat, str or int) joined by the reader's comma, as nested
    messages; one item is itself, none is `empty`."""
    if not items:
        return empty
    if len(items) == 1:
        return items[0]
    return Msg(N_("%(head)s, %(tail)s"), head=items[0], tail=comma_list(items[1:]))


def and_list(items: Sequence[Any], empty: Any = "") -> Any:
    """ "A, B and C": items joined by the reader's comma and "and", as nested messages; one
    item is itself, none is `empty`. The one list joiner of every game (one msgid each)."""
    if not items:
        return empty
    if len(items) == 1:
        return items[0]
    return Msg(N_("%(first)s and %(last)s"), first=comma_list(items[:-1]), last=items[-1])

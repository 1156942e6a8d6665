"""The protocol every game module follows, the messages games speak in, and the registry of games.

A game module is pure: no Flask, no database, no clock, no randomness. It exposes

    new(options: dict, players: int) -> state          # state is plain JSON-able data
    apply(state, action: dict) -> state                 # a NEW state; raises RuleError
    view(state, seat: int | None, reveal: bool = False) -> dict
    result(state) -> dict | None                        # None while the game goes on
    describe(before, action, after) -> list[Msg]        # history lines for an accepted action

and optionally

    seat_may_undo(before, action, after) -> bool        # may the acting seat take it back?

An action is a dict with "type", "seat" (the seat it is done for, or None for something the whole
table enters, such as a revealed card) and "host" (True when the host's device submitted it).

Messages are English msgids with %(name)s parameters. Games mark them with N_() so the web layer
can translate them later; a Seat parameter renders as the seat's current name, a nested Msg is
translated too. That keeps the games free of Flask-Babel while every sentence stays translatable.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from types import ModuleType
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
    expected, and tests can compare it with plain text.
    """

    msgid: str
    params: dict[str, Any]

    def __new__(cls, msgid: str, **params: Any) -> "Msg":
        english = msgid % {k: str(v) for k, v in params.items()} if params else msgid
        obj = super().__new__(cls, english)
        obj.msgid = msgid
        obj.params = params
        return obj

    def to_json(self) -> dict:
        """A JSON-able form that from_json turns back into an equal Msg."""
        return {"id": self.msgid, "p": {k: _encode(v) for k, v in self.params.items()}}

    @classmethod
    def from_json(cls, data: dict) -> "Msg":
        """Rebuild a Msg stored with to_json."""
        return cls(data["id"], **{k: _decode(v) for k, v in data.get("p", {}).items()})


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


class RuleError(Exception):
    """An action the rules do not allow: a message for the players and the id of the rule.

    The rule id is the anchor of the entry on the game's rules page that explains the refusal,
    e.g. RuleError("bid-digit", N_("You hold a %(digit)s: ..."), digit=4).
    """

    def __init__(self, rule: str, msgid: str, **params: Any) -> None:
        self.rule = rule
        self.msg = Msg(msgid, **params)
        super().__init__(str(self.msg))


@dataclass(frozen=True)
class GameInfo:
    """What the lobby needs to know about a game before any state exists."""

    key: str  # URL-safe id, e.g. "serengeti"
    label: str  # English name, marked with N_
    module_name: str  # the pure rules module, imported on first use
    min_players: int
    max_players: int
    options: dict = field(default_factory=dict)  # passed to new(), e.g. {"variant": "don"}
    rules_key: str = ""  # whose rules page to link; defaults to key

    @property
    def module(self) -> ModuleType:
        """The game's rules module (imported lazily: game modules import this one)."""
        return importlib.import_module(self.module_name)

    @property
    def rules_page(self) -> str:
        return self.rules_key or self.key


GAMES: dict[str, GameInfo] = {
    info.key: info
    for info in (
        GameInfo("serengeti", N_("Serengeti"), "companion.games.serengeti", 3, 5,
                 {"variant": "abacus"}),
        GameInfo("don", N_("Serengeti — original Don rules"), "companion.games.serengeti", 3, 5,
                 {"variant": "don"}, rules_key="serengeti"),
        GameInfo("cape_to_cairo", N_("From Cape to Cairo"), "companion.games.cape_to_cairo", 2, 4),
        GameInfo("africana", N_("Africana"), "companion.games.africana", 2, 4),
        GameInfo("kahuna", N_("Kahuna"), "companion.games.kahuna", 2, 2),
    )
}

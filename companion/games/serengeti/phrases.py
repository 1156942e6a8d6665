"""Serengeti / Don: the pieces that sentences are built from (a card's name, a list of names),
as nested translatable messages."""

from __future__ import annotations

from typing import Any

from companion.games.base import N_, Msg, Seat
from companion.games.serengeti.facts import TRIBES
from companion.games.serengeti.fields import is_int


def card_msg(card: dict) -> Msg:
    """A card by name: "Nuba 4"."""
    return Msg(N_("%(tribe)s %(digit)s"), tribe=Msg(TRIBES[card["tribe"]]), digit=card["digit"])


def as_param(player: Any) -> Any:
    """A player as a message parameter: a seat number becomes a Seat (shown as its name)."""
    if isinstance(player, (Seat, str, Msg)):
        return player
    if is_int(player):
        return Seat(player)
    return str(player)

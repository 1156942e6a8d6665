"""Serengeti / Don: the history. describe() turns the events an accepted action recorded into
lines for everybody; seat_may_undo() says which of its own actions a seat may take back.

Lines with a count that varies are Plural messages, so each language gives the number its form
(1 фишка, 2 фишки, 5 фишек; チップ2枚). The history stores msgids: when a line is reworded, its
earlier msgid goes to legacy.py, so the rows stored before still read translated."""

from __future__ import annotations

from collections.abc import Callable

from companion.games.base import N_, Msg, Plural, Seat
from companion.games.serengeti.facts import PASS_BONUS
from companion.games.serengeti.payout import Payout, payout_line
from companion.games.serengeti.phrases import card_msg


def describe(before: dict, action: dict, after: dict) -> list[Msg]:
    """History lines for an accepted action, from the events apply() recorded in `after`."""
    variant = after["variant"]
    lines = []
    for event in after.get("events", []):
        line = _event_line(event, variant)
        if line is not None:
            lines.append(line)
    return lines


def _event_line(event: dict, variant: str) -> Msg | None:
    """An event's history line (None for an event the history does not tell)."""
    describer = EVENT_LINES.get(event["e"])
    return describer(event, variant) if describer is not None else None


def _card(event: dict, variant: str) -> Msg:
    return Msg(
        N_("Round %(round)s: %(card)s turned up."),
        round=event["round"],
        card=card_msg(event["card"]),
    )


def _open(event: dict, variant: str) -> Msg:
    if event["restart"]:
        msgid = N_("The auction starts again without those who could not pay: %(seat)s bids first.")
    elif event["kind"] == "sale":
        msgid = N_("The sale opens: %(seat)s bids first.")
    else:
        msgid = N_("The auction opens: %(seat)s bids first.")
    return Msg(msgid, seat=Seat(event["starter"]))


def _bid(event: dict, variant: str) -> Msg:
    return Msg(N_("%(seat)s bid %(amount)s."), seat=Seat(event["seat"]), amount=event["amount"])


def _pass(event: dict, variant: str) -> Msg:
    if event["due"] and not event["bonus"]:
        # Not "the bank has only 0 chips to give": an empty bank gives nothing.
        return Msg(
            N_("%(seat)s passes at once, but the bank is empty: no chips to take."),
            seat=Seat(event["seat"]),
        )
    if event["due"] and event["bonus"] < PASS_BONUS:
        return Plural(
            "%(seat)s passes at once; the bank has only %(bonus)s chip to give.",
            "%(seat)s passes at once; the bank has only %(bonus)s chips to give.",
            "bonus",
            seat=Seat(event["seat"]),
            bonus=event["bonus"],
        )
    if event["bonus"]:
        return Plural(
            "%(seat)s passes at once and takes %(bonus)s chip from the bank.",
            "%(seat)s passes at once and takes %(bonus)s chips from the bank.",
            "bonus",
            seat=Seat(event["seat"]),
            bonus=event["bonus"],
        )
    return Msg(N_("%(seat)s passed."), seat=Seat(event["seat"]))


def _won(event: dict, variant: str) -> Msg:
    return Msg(N_("%(seat)s won with %(bid)s."), seat=Seat(event["seat"]), bid=event["bid"])


def _cannot_pay(event: dict, variant: str) -> Msg:
    if event["must_discard"]:
        return Msg(
            N_("%(seat)s cannot pay %(bid)s and must discard a card."),
            seat=Seat(event["seat"]),
            bid=event["bid"],
        )
    return Msg(
        N_("%(seat)s cannot pay %(bid)s and has no card to discard: they drop out."),
        seat=Seat(event["seat"]),
        bid=event["bid"],
    )


def _discard(event: dict, variant: str) -> Msg:
    return Msg(
        N_("%(seat)s discarded %(card)s."),
        seat=Seat(event["seat"]),
        card=card_msg(event["card"]),
    )


def _payout(event: dict, variant: str) -> Msg:
    pay = Payout({Seat(s): a for s, a in event["shares"]}, event["remainder"])
    return payout_line(Seat(event["winner"]), event["bid"], pay, variant=variant, pot=event["pot"])


def _free(event: dict, variant: str) -> Msg:
    return Msg(N_("Nobody bid: %(seat)s takes the lot free."), seat=Seat(event["seat"]))


def _unsold(event: dict, variant: str) -> Msg:
    return Msg(N_("Nobody is left who can pay: the lot leaves the game."))


def _offer(event: dict, variant: str) -> Msg:
    return Msg(
        N_("%(seat)s puts %(card)s up for sale."),
        seat=Seat(event["seat"]),
        card=card_msg(event["card"]),
    )


def _sold(event: dict, variant: str) -> Msg:
    return Msg(
        N_("%(buyer)s paid %(bid)s to %(seller)s for %(card)s."),
        buyer=Seat(event["winner"]),
        bid=event["bid"],
        seller=Seat(event["seller"]),
        card=card_msg(event["card"]),
    )


def _kept(event: dict, variant: str) -> Msg:
    return Msg(
        N_("Nobody bought it: %(seat)s keeps %(card)s."),
        seat=Seat(event["seat"]),
        card=card_msg(event["card"]),
    )


def _penalty(event: dict, variant: str) -> Msg:
    if not event["paid"]:
        return Msg(
            N_("%(seat)s made an illegal bid but has no chip to pay the fine."),
            seat=Seat(event["seat"]),
        )
    if event["to"] == "bank":
        return Msg(
            N_("%(seat)s paid a 1-chip fine to the bank for an illegal bid."),
            seat=Seat(event["seat"]),
        )
    return Msg(
        N_("%(seat)s paid a 1-chip fine into the pot for an illegal bid."),
        seat=Seat(event["seat"]),
    )


def _waive(event: dict, variant: str) -> Msg:
    return Msg(N_("The host waived %(seat)s's fine: 1 chip back."), seat=Seat(event["seat"]))


def _fines(event: dict, variant: str) -> Msg:
    if event["on"]:
        return Msg(N_("The host switched fines for illegal bids on."))
    return Msg(N_("The host switched fines for illegal bids off."))


def _start(event: dict, variant: str) -> Msg:
    return Msg(N_("%(seat)s starts round 1."), seat=Seat(event["seat"]))


def _round(event: dict, variant: str) -> Msg:
    return Plural(
        "Round %(round)s: a lot of %(size)s card; %(seat)s starts.",
        "Round %(round)s: a lot of %(size)s cards; %(seat)s starts.",
        "size",
        round=event["round"],
        size=event["size"],
        seat=Seat(event["start"]),
    )


def _over(event: dict, variant: str) -> Msg:
    return Msg(N_("The game is over after round 15."))


# One describer per event kind (event["e"]): (the event, the rule set) -> its history line.
EVENT_LINES: dict[str, Callable[[dict, str], Msg]] = {
    "card": _card,
    "open": _open,
    "bid": _bid,
    "pass": _pass,
    "won": _won,
    "cannot_pay": _cannot_pay,
    "discard": _discard,
    "payout": _payout,
    "free": _free,
    "unsold": _unsold,
    "offer": _offer,
    "sold": _sold,
    "kept": _kept,
    "penalty": _penalty,
    "waive": _waive,
    "fines": _fines,
    "start": _start,
    "round": _round,
    "over": _over,
}


def seat_may_undo(before: dict, action: dict, after: dict) -> bool:
    """The exceptions to the one undo policy (companion.games.base.Rules.seat_may_undo): a fine
    is not the seat's entry but the rules' answer to its bid (only the host's waive refunds it,
    rule "waive"); and a move that showed private chips may not be taken back by the seat: the
    one that ended the game (every player's chips show, rule "end-chips") or the one that showed
    the winner cannot pay (rule "cannot-pay")."""
    if action.get("type") == "penalty":
        return False
    if after["phase"] == "over":
        return False
    return not (after["phase"] == "discard" and before["phase"] != "discard")

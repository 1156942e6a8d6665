"""Serengeti / Don: who receives a paid bid (payout), and the plain sentence that says so.

Abacus: only the last digit of the bid counts and the winner's cards never do; a lone other
holder of that digit takes the whole bid, two or more share it per matching card, nobody means
the other players split it; what does not divide goes to the bank. Don: the old pot is added, the
most matching cards take it all (ties share), and what does not divide is the new pot.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from companion.games.base import N_, Msg, Plural, comma_list
from companion.games.serengeti.facts import MAX_BID
from companion.games.serengeti.fields import InputError, check_variant, is_int, short


@dataclass(frozen=True)
class Payout:
    """Who receives a paid bid.

    shares: player -> chips received (only players who receive at least 1).
    remainder: chips that nobody receives: to the bank (Abacus) or the new pot (Don).
    digit: the digit that counted (last digit of the bid). pool: chips shared out (the bid, plus
    the old pot in Don). matches: other players -> their matching cards (only those with one).
    method: "alone" (Abacus, one other player owns matching cards and takes the whole bid),
    "match" (Abacus, two or more do: shared per matching card), "most" (Don, most matching cards)
    or "split" (no matching card: equal split among all the other players).
    """

    shares: dict
    remainder: int
    digit: int = 0
    pool: int = 0
    matches: dict = field(default_factory=dict)
    method: str = "split"


# A player as the caller names them: a seat (the game) or a name (the calculator, the tests).
Player = TypeVar("Player", bound=Hashable)


def payout(
    bid: int,
    winner: Player,
    holdings: Mapping[Player, Iterable[int]],
    *,
    variant: str = "abacus",
    pot: int = 0,
) -> Payout:
    """Share a paid bid among the other players.

    holdings maps every player (the winner included) to the digits of the cards they own after
    this auction. Only the last digit of the bid counts, and the winner's cards never count.
    Abacus: if one other player owns matching cards, they take the whole bid however many they
    own; if two or more do, each matching card earns bid // (matching cards); with no match, the
    other players split the bid equally; what is left goes to the bank. Don: the old pot is added
    to the bid; the player(s) with the most matching cards take it (ties split); no match splits
    among the others; what is left is the new pot.
    """
    check_variant(variant)
    if not is_int(bid) or not 1 <= bid <= MAX_BID:
        raise InputError(
            "bid-number",
            N_("The bid must be a whole number from 1 to 999, not %(bid)s."),
            bid=short(bid),
        )
    if not is_int(pot) or not 0 <= pot <= MAX_BID:
        raise InputError(
            "payout-don",
            N_("The pot must be a whole number of chips, not %(pot)s."),
            pot=short(pot),
        )
    if variant == "abacus" and pot:
        raise InputError("payout", N_("Abacus has no pot: odd chips go to the bank."))
    if not isinstance(holdings, Mapping):
        raise InputError("payout", N_("Say who holds which digits."))
    digit_lists = {player: _digits_of(player, digits) for player, digits in holdings.items()}

    digit = bid % 10  # rule: only the last digit of a two-digit bid counts (14 -> 4, 10 -> 0)
    pool = bid + pot if variant == "don" else bid
    others = [player for player in digit_lists if player != winner]
    matches = {p: digit_lists[p].count(digit) for p in others if digit in digit_lists[p]}

    if not others:  # only reachable from the calculator: nobody to pay
        return Payout({}, pool, digit, pool, {}, "split")
    if len(matches) == 1 and variant == "abacus":
        # rule: a lone holder receives the whole bid, however many matching cards they own; the
        # division per card is only for two or more holders (else 7 to two 7s would leave 1 over)
        raw = dict.fromkeys(matches, pool)
        method = "alone"
    elif matches and variant == "abacus":
        per_card = pool // sum(matches.values())
        raw = {p: count * per_card for p, count in matches.items()}
        method = "match"
    elif matches:
        most = max(matches.values())
        leaders = [p for p, count in matches.items() if count == most]
        raw = {p: pool // len(leaders) for p in leaders}
        method = "most"
    else:
        raw = {p: pool // len(others) for p in others}
        method = "split"
    shares = {p: amount for p, amount in raw.items() if amount > 0}
    return Payout(shares, pool - sum(shares.values()), digit, pool, matches, method)


def _digits_of(player: Any, digits: Any) -> list[int]:
    try:
        values = list(digits)
    except TypeError:
        values = None
    if (
        values is None
        or isinstance(digits, (str, bytes))
        or not all(is_int(d) and 0 <= d <= 9 for d in values)
    ):
        raise InputError(
            "card-digit",
            N_("Each card shows one digit from 0 to 9 (check %(player)s)."),
            player=short(player),
        )
    return values


def payout_line(
    winner: Any, bid: int, pay: Payout, *, variant: str = "abacus", pot: int = 0
) -> Msg:
    """A plain sentence: "Anna paid 13: Ben 6, Chris 6, 1 to the bank".

    winner and the keys of pay.shares may be Seat values (rendered as names) or plain names.
    """
    parts = [
        Msg(N_("%(player)s %(amount)s"), player=player, amount=amount)
        for player, amount in pay.shares.items()
    ]
    # Odd chips go to the pot (Don) or the bank; none, nothing to list (not "0 in the pot").
    if pay.remainder and variant == "don":
        parts.append(Msg(N_("%(count)s in the pot"), count=pay.remainder))
    elif pay.remainder:
        parts.append(Msg(N_("%(count)s to the bank"), count=pay.remainder))
    listed = comma_list(parts) if parts else Msg(N_("nobody"))
    if variant == "don" and pot:
        return Msg(
            N_("%(winner)s paid %(bid)s, plus %(pot)s from the pot: %(shares)s"),
            winner=winner,
            bid=bid,
            pot=pot,
            shares=listed,
        )
    return Msg(N_("%(winner)s paid %(bid)s: %(shares)s"), winner=winner, bid=bid, shares=listed)


def payout_explanation(
    pay: Payout, bid: int, *, variant: str = "abacus", pot: int = 0, players: int | None = None
) -> list[Msg]:
    """Why the bid was shared so, in words: the digit that counted, the pot added (Don), and the
    rule that decided who receives what, with its arithmetic. The table's payout line and the
    calculator both show these sentences.

    The keys of pay.matches may be Seat values (rendered as names) or plain names. players (the
    winner included) gives the division of an equal split among the others.
    """
    lines = [Msg(N_("Only the last digit counts: %(bid)s → %(digit)s."), bid=bid, digit=pay.digit)]
    if variant == "don" and pot:
        lines.append(
            Plural(
                "The pot of %(pot)s is added: %(num)s chip to share.",
                "The pot of %(pot)s is added: %(num)s chips to share.",
                "num",
                pot=pot,
                num=pay.pool,
            )
        )
    if pay.method == "alone":
        holder, count = next(iter(pay.matches.items()))
        lines.append(
            Plural(
                "Only %(name)s owns a %(digit)s (%(num)s card), so %(name)s takes the whole bid.",
                "Only %(name)s owns a %(digit)s (%(num)s cards), so %(name)s takes the whole "
                "bid: a lone holder is not paid per card.",
                "num",
                name=holder,
                digit=pay.digit,
                num=count,
            )
        )
    elif pay.method == "match":
        cards = sum(pay.matches.values())
        lines.append(
            Plural(
                "Two or more players own a %(digit)s, so the bid is shared per card: each card "
                "earns %(num)s chip (%(pool)s ÷ %(cards)s).",
                "Two or more players own a %(digit)s, so the bid is shared per card: each card "
                "earns %(num)s chips (%(pool)s ÷ %(cards)s).",
                "num",
                digit=pay.digit,
                num=pay.pool // cards,
                pool=pay.pool,
                cards=cards,
            )
        )
    elif pay.method == "most":
        lines.append(
            Msg(
                N_(
                    "Don: whoever owns the most cards with a %(digit)s takes it all; players "
                    "tied for most share it."
                ),
                digit=pay.digit,
            )
        )
    else:
        lines.append(
            Msg(
                N_("Nobody else owns a %(digit)s: the other players share it equally."),
                digit=pay.digit,
            )
        )
    among = _sharers(pay, players)
    if among:
        lines.append(
            Plural(
                "Each of them receives %(num)s chip (%(pool)s ÷ %(among)s).",
                "Each of them receives %(num)s chips (%(pool)s ÷ %(among)s).",
                "num",
                num=pay.pool // among,
                pool=pay.pool,
                among=among,
            )
        )
    return lines


def _sharers(pay: Payout, players: int | None) -> int:
    """How many players an equal share went to (Don's leaders, or everyone but the winner in a
    split); 0 when the pool went to one player or per card (the sentence before says so)."""
    if pay.method == "most":
        most = max(pay.matches.values())
        leaders = sum(1 for count in pay.matches.values() if count == most)
        return leaders if leaders > 1 else 0
    if pay.method == "split" and players is not None and players > 1:
        return players - 1
    return 0

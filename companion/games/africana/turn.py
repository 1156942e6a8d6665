"""The turn and the ledger: whose turn it is, the turn's one action, coins that never go below
0, and what the end of a turn checks (the adventure limit) and does (refill the row).

Every play entry goes through these: the moves (moves.py) call them on their own copy of the
state.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.africana.facts import (
    OPEN_ADVENTURE_LIMIT,
    TURN_ACTION_LABELS,
    is_int,
)
from companion.games.africana.phrases import silver
from companion.games.base import N_, Msg, Plural, RuleError, Seat, copy_state


def over_message(state: dict) -> Msg:
    """What a play entry after the end is refused with (rule "game-over")."""
    return Msg(N_("The game is over: only scoring sheets can be entered now."))


def seat_of(state: dict, action: Mapping) -> int:
    """The seat a host's or the table's entry names, or a refusal. (The dispatcher checks the
    seat of the entries a seat makes for itself: base.acting_seat reads those.)"""
    seat = action.get("seat")
    if not is_int(seat) or not 0 <= seat < state["players"]:
        raise RuleError("action", N_("The entry must say which player it is for."))
    return seat


def charge(state: dict, seat: int, what: str, cost: int, **details: Any) -> None:
    """Take coins from a seat, refusing what it cannot pay (rule "no-debt")."""
    have = state["seats"][seat]["coins"]
    if cost > have:
        raise RuleError(
            "no-debt",
            N_("That costs %(cost)s, but you have only %(have)s."),
            cost=silver(cost),
            have=silver(have),
        )
    book(state, seat, what, -cost, **details)


def book(state: dict, seat: int, what: str, amount: int, **details: Any) -> None:
    """Write a ledger entry and move the balance."""
    record = state["seats"][seat]
    record["coins"] += amount
    entry = {
        "what": what,
        "amount": amount,
        "balance": record["coins"],
        "turn": state["turn"]["number"],
    }
    entry.update(details)
    record["ledger"].append(entry)


def require_playing(state: dict) -> None:
    """Play entries only while play goes on (rule "game-over"); sheets come after it."""
    if state["phase"] != "playing":
        raise RuleError.of("game-over", over_message(state))


def turn(state: dict) -> list[int]:
    """The seat whose turn it is while play goes on (the sheets come all at once after it)."""
    return [state["turn"]["seat"]] if state["phase"] == "playing" else []


def not_on_turn(state: dict, action: Mapping) -> RuleError:
    """Only the player whose turn it is acts (rule "turn-order"; the moves' dispatcher checks
    it, companion.games.base.Moves)."""
    if state["phase"] != "playing":
        return RuleError.of("game-over", over_message(state))
    return RuleError(
        "turn-order",
        N_("It is %(current)s's turn, not %(seat)s's."),
        current=Seat(state["turn"]["seat"]),
        seat=Seat(action["seat"]),
    )


def require_turn(state: dict, seat: int) -> None:
    """A turn's entry: play goes on (whose turn it is, the dispatcher has checked)."""
    require_playing(state)


def require_action(state: dict, seat: int, needed: str) -> None:
    """Check the turn's action is `needed`, choosing it when none is chosen yet."""
    require_turn(state, seat)
    turn = state["turn"]
    if turn["action"] is None:
        turn["action"] = needed
    elif turn["action"] != needed:
        raise RuleError(
            "one-action",
            N_(
                "This turn's action is to %(chosen)s; that entry needs "
                "the action '%(needed)s', and a turn has only one."
            ),
            chosen=Msg(TURN_ACTION_LABELS[turn["action"]]),
            needed=Msg(TURN_ACTION_LABELS[needed]),
        )
    turn["entries"] += 1


def refill_row(row: list, deck: int) -> tuple[list, int, list[int], bool]:
    """Fill empty spaces left to right from the deck (rule "refill-row").

    Returns the new row, the cards left in the deck, the 0-based spaces filled and whether a
    space stayed empty (which triggers the end of the game).
    """
    row = [copy_state(card) for card in row]
    filled = []
    for i, card in enumerate(row):
        if card is None and deck > 0:
            row[i] = {"card": 0, "joined": []}
            deck -= 1
            filled.append(i)
    return row, deck, filled, any(card is None for card in row)


def check_adventure_limit(held: int, discarded: int, seat: int, action: Mapping) -> bool:
    """Refuse to end a turn that leaves more than 3 unfinished adventures (rule
    "adventure-limit"), unless the host asks for the override; True when it is used.

    The count comes from the entries, which can miss a completion, so the host may end such a
    turn anyway; a seat may not.
    """
    if held - discarded <= OPEN_ADVENTURE_LIMIT:
        return False
    extra = held - OPEN_ADVENTURE_LIMIT
    if action.get("override") is True:
        if action.get("host") is not True:
            raise RuleError.of(
                "host-only",
                Plural(
                    "Only the host can end a turn with more than 3 unfinished adventures: "
                    "discard %(extra)s of them first.",
                    "Only the host can end a turn with more than 3 unfinished adventures: "
                    "discard %(extra)s of them first.",
                    "extra",
                    extra=extra,
                ),
            )
        return True
    if discarded:
        raise RuleError.of(
            "adventure-limit",
            Plural(
                "You have %(n)s unfinished adventure, and at most 3 may stay at the end "
                "of a turn: discard %(extra)s (they leave the game), not %(discarded)s.",
                "You have %(n)s unfinished adventures, and at most 3 may stay at the end "
                "of a turn: discard %(extra)s (they leave the game), not %(discarded)s.",
                "n",
                n=held,
                extra=extra,
                discarded=discarded,
            ),
        )
    raise RuleError.of(
        "adventure-limit",
        Plural(
            "You have %(n)s unfinished adventure, and at most 3 may stay at the end of a "
            "turn: discard %(extra)s (they leave the game) to end the turn.",
            "You have %(n)s unfinished adventures, and at most 3 may stay at the end of a "
            "turn: discard %(extra)s (they leave the game) to end the turn.",
            "n",
            n=held,
            extra=extra,
        ),
    )

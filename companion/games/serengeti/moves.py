"""Serengeti / Don: one handler per action type, and the shared dispatcher that applies them.

Each handler checks its action against the rules (RuleError with the rule id otherwise) and
changes its own copy of the state in place; MOVES (companion.games.base.Moves) checks the
action's shape, refuses everything once the game is over, copies the state and clears the
previous action's events first. The action formats are in rules.py.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.base import (
    ANYONE,
    HOST,
    N_,
    OWN,
    Move,
    Moves,
    Msg,
    RuleError,
    Seat,
    acting_seat,
    comma_list,
    in_phase,
    reads_other_way,
)
from companion.games.serengeti.auction import advance, drop_out, open_auction
from companion.games.serengeti.bids import bid_problem
from companion.games.serengeti.facts import (
    CARDS_PER_DIGIT,
    CARDS_PER_TRIBE,
    PASS_BONUS,
    TRIBES,
    lot_size,
)
from companion.games.serengeti.fields import int_field, is_int, short
from companion.games.serengeti.phrases import card_msg
from companion.games.serengeti.state import (
    auction_mark,
    digits,
    just_fined_bid,
    pass_bonus_is_due,
    seen_cards,
    to_act,
    waiting_for,
)

# --------------------------------------------------------------------------------------------
# Reading and checking an action
# --------------------------------------------------------------------------------------------


def _seat_named(state: dict, seat: Any) -> int:
    """A seat a host's or the table's entry names (the dispatcher checks only the seats that
    enter for themselves: base.acting_seat reads those), or a refusal."""
    if not is_int(seat) or not 0 <= seat < state["players"]:
        raise RuleError(
            "seat", N_("Choose a seat from 1 to %(players)s."), players=state["players"]
        )
    return seat


def _card_of(action: Mapping) -> dict:
    tribe = action.get("tribe")
    key = tribe.strip().lower() if isinstance(tribe, str) else None
    if key not in TRIBES:
        raise RuleError(
            "card-tribe",
            N_("%(tribe)s is not a tribe: choose Nuba, Massai, Bantu, Nandi, Tonga or Samburu."),
            tribe=short(tribe),
        )
    digit = int_field(action.get("digit"))
    if digit is None or not 0 <= digit <= 9:
        raise RuleError(
            "card-digit",
            N_("A card shows one digit from 0 to 9, not %(digit)s."),
            digit=short(action.get("digit")),
        )
    return {"tribe": key, "digit": digit}


def _need_phase(state: dict, *phases: str) -> None:
    if state["phase"] not in phases:
        raise RuleError("phase", N_("Not now: %(waiting)s"), waiting=waiting_for(state))


def turn(state: dict) -> list[int]:
    """The seat the game waits for: the bidder on turn, or the winner who cannot pay and must
    discard; none while the table enters a card or once the game is over."""
    seat = to_act(state)
    return [] if seat is None else [seat]


def not_on_turn(state: dict, action: Mapping) -> RuleError:
    """The refusal of a bid, pass, fine or discard for a seat the game does not wait for."""
    kind = action.get("type")
    if kind == "discard" and state["phase"] == "discard":
        return RuleError(
            "cannot-pay",
            N_("Only %(seat)s, who cannot pay, discards a card now."),
            seat=Seat(state["auction"]["defaulter"]),
        )
    if kind == "penalty" and not state["penalty_on"]:
        return RuleError("penalty", N_("This table plays without fines for illegal bids."))
    if state["phase"] != "auction" or kind == "discard":
        return RuleError("phase", N_("Not now: %(waiting)s"), waiting=waiting_for(state))
    if kind == "penalty":
        return RuleError(
            "penalty",
            N_("Only the player on turn (%(turn)s) can be fined now."),
            turn=Seat(state["auction"]["turn"]),
        )
    return RuleError(
        "turn",
        N_("It is not your turn: %(turn)s bids or passes now."),
        turn=Seat(state["auction"]["turn"]),
    )


def _check_deck(state: dict, card: dict) -> None:
    """The deck's invariants: no digit twice in a tribe, <= 5 cards a tribe, <= 3 of a digit."""
    seen = seen_cards(state)
    if card in seen:
        raise RuleError(
            "deck",
            N_("%(card)s is already in the game: no tribe shows a digit twice."),
            card=card_msg(card),
        )
    if sum(c["tribe"] == card["tribe"] for c in seen) >= CARDS_PER_TRIBE:
        raise RuleError(
            "deck",
            N_("All 5 %(tribe)s cards are already in the game."),
            tribe=Msg(TRIBES[card["tribe"]]),
        )
    if sum(c["digit"] == card["digit"] for c in seen) >= CARDS_PER_DIGIT:
        raise RuleError(
            "deck", N_("All 3 cards with a %(digit)s are already in the game."), digit=card["digit"]
        )


def _owned_card(state: dict, seat: int, action: Mapping) -> dict:
    card = _card_of(action)
    if card not in state["cards"][seat]:
        owned = [card_msg(c) for c in state["cards"][seat]]
        raise RuleError(
            "card-owned",
            N_("You own no %(card)s; your cards: %(owned)s."),
            card=card_msg(card),
            owned=comma_list(owned) if owned else Msg(N_("none")),
        )
    return card


# --------------------------------------------------------------------------------------------
# The handlers
# --------------------------------------------------------------------------------------------


def _act_card(state: dict, action: Mapping) -> None:
    _need_phase(state, "reveal")
    if action.get("seat") is not None:  # the table's entry: the seat that sent it, if any
        _seat_named(state, action.get("seat"))
    card = _card_of(action)
    _check_deck(state, card)
    state["lot"].append(card)
    state["events"].append({"e": "card", "card": card, "round": state["round"]})
    if len(state["lot"]) == lot_size(state["round"]):
        open_auction(state, kind="lot", first=state["start"])


def _act_bid(state: dict, action: Mapping) -> None:
    _need_phase(state, "auction")
    seat = acting_seat(action)
    auction = state["auction"]
    amount = int_field(action.get("amount"))
    problem = bid_problem(
        amount if amount is not None else action.get("amount"),
        digits(state, seat),
        auction["high"],
    )
    if problem is not None:
        rule, msgid, params = problem
        if (
            rule == "bid-digit"
            and state["penalty_on"]
            and amount is not None
            and amount == just_fined_bid(state, seat)
            and action.get("again") is not True
        ):
            # The same illegal bid right after its fine: a second tap, not a second call, unless
            # the player says so ("again"); refused under a rule that costs nothing.
            raise RuleError(
                "penalty-again",
                N_(
                    "Not fined again: %(bid)s was refused and fined a moment ago. Bid another "
                    "number or pass; to bid %(bid)s again anyway, confirm it and pay another chip."
                ),
                bid=amount,
            )
        raise RuleError(rule, msgid, **params)
    auction["high"], auction["high_seat"] = amount, seat
    if seat not in auction["bid_this_round"]:
        auction["bid_this_round"].append(seat)
    state["events"].append({"e": "bid", "seat": seat, "amount": amount})
    advance(state, seat)


def _act_pass(state: dict, action: Mapping) -> None:
    _need_phase(state, "auction")
    seat = acting_seat(action)
    auction = state["auction"]
    due = pass_bonus_is_due(state, seat)
    auction["passed"].append(seat)
    bonus = 0
    if due:
        bonus = min(PASS_BONUS, state["bank"])
        state["bank"] -= bonus
        state["chips"][seat] += bonus
        auction["bonus_paid"].append(seat)
    state["events"].append({"e": "pass", "seat": seat, "bonus": bonus, "due": due})
    advance(state, seat)


def _act_discard(state: dict, action: Mapping) -> None:
    _need_phase(state, "discard")
    seat = acting_seat(action)
    card = _owned_card(state, seat, action)
    state["cards"][seat].remove(card)
    state["out"].append(card)
    state["events"].append({"e": "discard", "seat": seat, "card": card})
    drop_out(state, seat)


def _act_sell(state: dict, action: Mapping) -> None:
    if state["variant"] != "don":
        raise RuleError(
            "sale",
            N_("Selling one of your own cards is a Don rule; this table plays the Abacus rules."),
        )
    _need_phase(state, "reveal")
    seat = acting_seat(action)
    if state["lot"]:
        raise RuleError(
            "sale",
            N_("A card can be offered only before the first card of the round is turned up."),
        )
    if seat in state["sold_this_round"]:
        raise RuleError("sale", N_("You have already offered a card this round."))
    if reads_other_way(state, "sale-who-may") and seat != state["start"]:
        raise RuleError(
            "sale",
            N_(
                "This table reads the rule literally: only the player whose turn comes first "
                "in the round, %(seat)s, may put a card up for sale."
            ),
            seat=Seat(state["start"]),
        )
    card = _owned_card(state, seat, action)
    state["sold_this_round"].append(seat)
    state["events"].append({"e": "offer", "seat": seat, "card": card})
    open_auction(state, kind="sale", first=(seat + 1) % state["players"], seller=seat, card=card)


def _act_penalty(state: dict, action: Mapping) -> None:
    if not state["penalty_on"]:
        raise RuleError("penalty", N_("This table plays without fines for illegal bids."))
    _need_phase(state, "auction")
    seat = acting_seat(action)
    bid = action.get("bid")
    bid = int_field(bid) if bid is not None else None
    paid = 1 if state["chips"][seat] >= 1 else 0
    state["chips"][seat] -= paid
    to = "bank" if state["variant"] == "abacus" else "pot"
    state[to] += paid
    # The illegal bid was still a price called out: passing afterwards is not "passing at once",
    # so no pass bonus for this lot (CLARIFICATIONS["pass-bonus-after-fine"]).
    if seat not in state["auction"]["bid_this_round"]:
        state["auction"]["bid_this_round"].append(seat)
    state["penalties"].append(
        {
            "seat": seat,
            "round": state["round"],
            "paid": paid,
            "bid": bid,
            "to": to,
            "waived": False,
            "at": auction_mark(state["auction"]),  # the same bid again before it moves: asked
        }
    )
    state["events"].append({"e": "penalty", "seat": seat, "paid": paid, "bid": bid, "to": to})


def _act_waive(state: dict, action: Mapping) -> None:
    player = action.get("player")
    seat = _seat_named(state, player if player is not None else action.get("seat"))
    open_fines = [
        p for p in state["penalties"] if p["seat"] == seat and p["paid"] and not p["waived"]
    ]
    if not open_fines:
        raise RuleError("waive", N_("%(seat)s has no fine to waive."), seat=Seat(seat))
    fine = open_fines[-1]
    if state[fine["to"]] < fine["paid"]:
        raise RuleError(
            "waive",
            N_("The %(place)s has no chip left to give back."),
            place=Msg(N_("bank")) if fine["to"] == "bank" else Msg(N_("pot")),
        )
    state[fine["to"]] -= fine["paid"]
    state["chips"][seat] += fine["paid"]
    fine["waived"] = True
    state["events"].append({"e": "waive", "seat": seat, "paid": fine["paid"], "to": fine["to"]})


def _act_fines(state: dict, action: Mapping) -> None:
    on = action.get("on")
    if not isinstance(on, bool):
        raise RuleError("waive", N_("Fines are either on or off."))
    if on == state["penalty_on"]:
        raise RuleError(
            "waive", N_("Fines are already on.") if on else N_("Fines are already off.")
        )
    state["penalty_on"] = on
    state["events"].append({"e": "fines", "on": on})


def _act_start(state: dict, action: Mapping) -> None:
    if state["round"] != 1 or state["phase"] != "reveal" or state["lot"]:
        raise RuleError(
            "setup", N_("The start player can only be chosen before the first card is turned up.")
        )
    seat = _seat_named(state, action.get("player"))
    state["start"] = state["first_start"] = seat
    state["events"].append({"e": "start", "seat": seat})


# --------------------------------------------------------------------------------------------
# The dispatcher
# --------------------------------------------------------------------------------------------


def _clear_events(state: dict) -> None:
    """Each state carries only the events of the action that made it (describe() reads them)."""
    state["events"] = []


def _before_the_lot(state: dict) -> bool:
    return state["phase"] == "reveal" and not state["lot"]


# Bids, passes, fines and discards are the waited-for seat's; a card turned up is seen by
# everyone, so anyone at the table may enter it; a Don sale is any seat's own; the options and a
# waived fine are the host's.
MOVES = Moves(
    {
        "card": Move(_act_card, ANYONE, in_phase("reveal")),
        "bid": Move(_act_bid, phase=in_phase("auction")),
        "pass": Move(_act_pass, phase=in_phase("auction")),
        "discard": Move(_act_discard, phase=in_phase("discard")),
        "penalty": Move(
            _act_penalty, phase=lambda state: state["phase"] == "auction" and state["penalty_on"]
        ),
        "waive": Move(
            _act_waive,
            HOST,
            lambda state: any(p["paid"] and not p["waived"] for p in state["penalties"]),
        ),
        # a Don sale: before the first card of the round is turned up
        "sell": Move(
            _act_sell, OWN, lambda state: state["variant"] == "don" and _before_the_lot(state)
        ),
        "fines": Move(_act_fines, HOST),
        "start": Move(
            _act_start, HOST, lambda state: state["round"] == 1 and _before_the_lot(state)
        ),
    },
    is_over=lambda state: state["phase"] == "over",
    over_message=lambda state: Msg(N_("The game is over.")),
    prepare=_clear_events,
    turn=turn,
    not_on_turn=not_on_turn,
    host_rule="host",
)
apply = MOVES.apply

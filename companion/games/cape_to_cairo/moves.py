"""From Cape to Cairo: the moves, one handler per action type, applied by the shared dispatcher
(companion.games.base.Moves). The action formats are listed in rules.py.

Each handler changes its own copy of the state or raises RuleError; Moves has already refused an
unknown or malformed action (rule "action") and anything sent after the game is over (rule
"game-over").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.base import (
    ANYONE,
    N_,
    Move,
    Moves,
    Msg,
    Plural,
    RuleError,
    Seat,
    acting_seat,
    in_phase,
)
from companion.games.cape_to_cairo.bid_order import acquisition_order, tie_draws_needed
from companion.games.cape_to_cairo.crossing import crossing_cost, crossing_plan, track_plan
from companion.games.cape_to_cairo.facts import (
    BONUS_MAX,
    INCOME_MAX,
    INCOME_MIN,
    MARKS_MAX,
    MARKS_MIN,
    TERRAINS_TO_WIN,
    TRACKS_NEEDED,
    check_terrain,
    int_in,
    is_int,
    pounds,
    terrain_name,
)
from companion.games.cape_to_cairo.state import keyed, marks_for, next_terrain

Action = Mapping[str, Any]


def _require_phase(state: dict, phase: str, rule: str, message: str | Msg, **params: Any) -> None:
    """A refusal unless the game is in `phase`; message is a msgid or a message already built
    (e.g. a Plural)."""
    if state["phase"] != phase:
        if isinstance(message, Msg):
            raise RuleError.of(rule, message)
        raise RuleError(rule, message, **params)


def _marks_refusal() -> Msg:
    return Plural(
        "A terrain card shows %(low)s to %(high)s track symbol.",
        "A terrain card shows %(low)s to %(high)s track symbols.",
        "high",
        low=MARKS_MIN,
        high=MARKS_MAX,
    )


# --- acquisition ---------------------------------------------------------------------------


def _enter_card(state: dict, action: Action) -> None:
    _require_phase(
        state,
        "cards",
        "acquisition-cards",
        Plural(
            "The %(num)s card of this acquisition phase is already turned up.",
            "All %(num)s cards of this acquisition phase are already turned up.",
            "num",
            num=state["players"],
        ),
    )
    card = {
        "terrain": check_terrain(action.get("terrain")),
        "marks": int_in(action.get("marks"), MARKS_MIN, MARKS_MAX, "card-values", _marks_refusal()),
        "income": int_in(
            action.get("income"),
            INCOME_MIN,
            INCOME_MAX,
            "card-values",
            Plural(
                "A terrain card pays %(low)s to %(high)s pound.",
                "A terrain card pays %(low)s to %(high)s pounds.",
                "high",
                low=INCOME_MIN,
                high=INCOME_MAX,
            ),
        ),
        "taken_by": None,
    }
    state["pool"].append(card)
    if len(state["pool"]) == state["players"]:
        state["phase"] = "bidding"


def _bid(state: dict, action: Action) -> None:
    seat = acting_seat(action)
    if state["phase"] == "cards":
        _require_phase(
            state,
            "bidding",
            "bid-sealed",
            Plural(
                "Bidding opens once the %(num)s card is turned up (%(entered)s so far).",
                "Bidding opens once all %(num)s cards are turned up (%(entered)s so far).",
                "num",
                num=state["players"],
                entered=len(state["pool"]),
            ),
        )
    _require_phase(
        state,
        "bidding",
        "bid-sealed",
        N_(
            "The bids of this phase are already revealed: no more bids until the next "
            "acquisition phase."
        ),
    )
    typed_for = action.get("round")
    if typed_for is not None and typed_for != state["round"]:
        # a bid form left open on a phone since an earlier phase: never carry it over
        raise RuleError(
            "bid-once",
            N_(
                "This bid was typed in acquisition round %(then)s; it is "
                "round %(now)s now. Look at the new cards and bid again."
            ),
            then=typed_for,
            now=state["round"],
        )
    held = state["money"][seat]
    amount = int_in(
        action.get("amount"),
        0,
        held,
        "bid-range",
        Plural(
            "You hold %(high)s pound: bid a whole number from %(low)s to %(high)s.",
            "You hold %(high)s pounds: bid a whole number from %(low)s to %(high)s.",
            "high",
            low=0,
            high=held,
        ),
    )
    state["bids"][seat] = amount
    if all(b is not None for b in state["bids"]):
        _reveal(state)


def _reveal(state: dict) -> None:
    """All bids are in: show them, pay them (the money leaves the game), settle the order."""
    n = state["players"]
    state["reveal"] = {
        "round": state["round"],
        "bids": list(state["bids"]),
        "money_before": list(state["money"]),
        "draws": [[] for _ in range(n)],
        "order": None,
    }
    for seat in range(n):
        state["money"][seat] -= state["bids"][seat]
    state["bids"] = [None] * n
    _settle_order(state)


def _settle_order(state: dict) -> None:
    bids, money, draws = keyed(state)
    must = tie_draws_needed(bids, money, draws)
    if must:
        state["phase"] = "draw"
        state["must_draw"] = sorted(int(k) for k in must)
        return
    order = [int(k) for k in acquisition_order(bids, money, draws)]
    state["reveal"]["order"] = order
    state["order"] = order
    state["must_draw"] = []
    state["phase"] = "taking"
    state["take_index"] = 0
    _give_last_card(state)


def _draw(state: dict, action: Action) -> None:
    _require_phase(state, "draw", "tie-draw", N_("Nobody needs to draw a card now."))
    seat = acting_seat(action)
    value = int_in(
        action.get("value"),
        INCOME_MIN,
        INCOME_MAX,
        "tie-draw",
        N_("A drawn card shows a number from %(low)s to %(high)s."),
    )
    attempt = action.get("attempt")
    done = len(state["reveal"]["draws"][seat])
    if attempt is not None and attempt != done + 1:
        # the same draw sent twice (a double tap) must not count as the next draw
        raise RuleError(
            "tie-draw",
            N_("You have already entered draw %(attempt)s."),
            attempt=attempt,
        )
    state["reveal"]["draws"][seat].append(value)
    state["must_draw"].remove(seat)
    if not state["must_draw"]:
        _settle_order(state)  # may ask the still-tied players to draw again


def _take(state: dict, action: Action) -> None:
    _require_phase(state, "taking", "take-card", N_("No terrain cards are being handed out now."))
    seat = acting_seat(action)
    card_id = action.get("card")
    free = [i for i, c in enumerate(state["pool"]) if c["taken_by"] is None]
    if not is_int(card_id) or card_id not in free:
        raise RuleError(
            "take-card",
            N_("Choose one of the cards still on offer (%(free)s)."),
            free=", ".join(str(i) for i in free),
        )
    _hand_out(state, seat, card_id)
    _give_last_card(state)


def _hand_out(state: dict, seat: int, card_id: int) -> None:
    card = state["pool"][card_id]
    card["taken_by"] = seat
    # rule: the new card goes to the end of the row; the row's order never changes
    state["rows"][seat].append({k: card[k] for k in ("terrain", "marks", "income")})
    state["take_index"] += 1


def _give_last_card(state: dict) -> None:
    """The last player in the order takes the one card left; then building starts."""
    n = state["players"]
    if state["take_index"] == n - 1:
        last = next(i for i, c in enumerate(state["pool"]) if c["taken_by"] is None)
        _hand_out(state, state["order"][n - 1], last)
    if state["take_index"] == n:
        state["phase"] = "building"
        state["lead"] = state["order"][0]  # the highest bidder starts
        if state.get("first_lead") is None:
            state["first_lead"] = state["lead"]
        state["active"] = state["lead"]
        state["step"] = "turn_up"
        state["turned"] = []


# --- building --------------------------------------------------------------------------------


def _require_active(state: dict, action: Action) -> int:
    _require_phase(
        state, "building", "turn", N_("Nobody builds now: this is not a building phase.")
    )
    seat = acting_seat(action)
    if state["step"] != "decide":
        raise RuleError(
            "turn-up", N_("First turn up a card from the deck and enter its track symbols.")
        )
    return seat


def _turn_up(state: dict, action: Action) -> None:
    _require_phase(
        state,
        "building",
        "turn-up",
        N_("Cards are turned up like this only in the building phase."),
    )
    if state["step"] != "turn_up":
        raise RuleError(
            "turn-up",
            N_("A card is already turned up: %(seat)s now crosses or passes."),
            seat=Seat(state["active"]),
        )
    marks = int_in(action.get("marks"), MARKS_MIN, MARKS_MAX, "card-values", _marks_refusal())
    state["turned"].append(marks)
    state["step"] = "decide"


def _cross(state: dict, action: Action) -> None:
    seat = _require_active(state, action)
    # The card it crosses: a seat builds only with a card ahead (an empty row ends building).
    card = state["rows"][seat][state["crossed"][seat]]
    terrain = card["terrain"]
    marks = marks_for(state, seat)
    bonus = action.get("bonus")
    plan = crossing_plan(terrain, marks, state["bonus"][seat], state["money"][seat], bonus)
    if plan is None:
        best = crossing_cost(terrain, marks, state["bonus"][seat], state["money"][seat])
        if best is None or bonus is None:  # no bonus count: the cheapest way was tried
            raise RuleError(
                "cross-money",
                N_(
                    "Tracks needed to cross the %(terrain)s: %(needed)s. The symbols "
                    "(%(marks)s), all bonus tracks (%(bonus)s) and all money (%(money)s) are "
                    "not enough. Pass."
                ),
                terrain=terrain_name(terrain),
                needed=TRACKS_NEEDED[terrain],
                marks=marks,
                bonus=state["bonus"][seat],
                money=pounds(state["money"][seat]),
            )
        raise RuleError(
            "cross-money",
            N_(
                "With these bonus tracks (%(used)s) you would pay %(pounds)s but hold %(money)s: "
                "spend more bonus tracks (the cheapest way costs %(best)s)."
            ),
            used=bonus,
            pounds=pounds(track_plan(terrain, marks, bonus)["pounds"]),
            money=pounds(state["money"][seat]),
            best=pounds(best),
        )
    state["money"][seat] += card["income"] - plan["pounds"]  # bought tracks leave the game
    state["bonus"][seat] -= plan["bonus"]  # used bonus cards go to the discard pile
    state["crossed"][seat] += 1
    state["turned"] = []  # the turned-up cards go to the discard pile
    if state["crossed"][seat] == TERRAINS_TO_WIN:
        state["phase"] = "over"
        state["winner"] = seat
        state["win"] = {"terrain": card["terrain"], "round": state["round"]}
        state["active"] = None
        state["step"] = None
        return
    for other in range(state["players"]):
        # rule: every OTHER player facing a river gains a bonus track, at most 5 held
        if other != seat and next_terrain(state, other) == "river":
            state["bonus"][other] = min(BONUS_MAX, state["bonus"][other] + 1)
    if next_terrain(state, seat) is None:
        # the phase ends with this crossing: the next phase's panel shows what it cost
        state["last_cross"] = {
            "seat": seat,
            "round": state["round"],
            "terrain": terrain,
            "symbols": plan["symbols"],
            "bonus": plan["bonus"],
            "bought": plan["bought"],
            "pounds": plan["pounds"],
            "income": card["income"],
        }
        _start_acquisition(state)
    else:
        state["step"] = "turn_up"  # the crosser goes on with a fresh card


def _pass(state: dict, action: Action) -> None:
    seat = _require_active(state, action)
    state["active"] = (seat + 1) % state["players"]  # to the left: next in seating order
    state["step"] = "turn_up"  # the turned-up pile stays for the next player


def _start_acquisition(state: dict) -> None:
    n = state["players"]
    state.update(
        {
            "phase": "cards",
            "round": state["round"] + 1,
            "pool": [],
            "bids": [None] * n,
            "must_draw": [],
            "order": None,
            "take_index": 0,
            "active": None,
            "step": None,
            "turned": [],
        }
    )


def turn(state: dict) -> list[int]:
    """The seats the game waits for: those whose sealed bid or tie-break draw is awaited, the
    seat choosing a card, the seat building (also while its card is being turned up)."""
    phase = state["phase"]
    if phase == "bidding":
        return [s for s, b in enumerate(state["bids"]) if b is None]
    if phase == "draw":
        return list(state["must_draw"])
    if phase == "taking":
        return [state["order"][state["take_index"]]]
    if phase == "building":
        return [state["active"]]
    return []


def not_on_turn(state: dict, action: Action) -> RuleError:
    """The refusal of a bid, draw, choice or building move for a seat the game does not wait for
    (the player who acted reads it: on their phone, or the host acting for them)."""
    kind, phase = action.get("type"), state["phase"]
    if kind == "bid":
        if phase == "cards":
            return RuleError.of(
                "bid-sealed",
                Plural(
                    "Bidding opens once the %(num)s card is turned up (%(entered)s so far).",
                    "Bidding opens once all %(num)s cards are turned up (%(entered)s so far).",
                    "num",
                    num=state["players"],
                    entered=len(state["pool"]),
                ),
            )
        if phase != "bidding":
            return RuleError(
                "bid-sealed",
                N_(
                    "The bids of this phase are already revealed: no more bids until the next "
                    "acquisition phase."
                ),
            )
        return RuleError("bid-once", N_("You have already bid in this phase."))
    if kind == "draw":
        if phase != "draw":
            return RuleError("tie-draw", N_("Nobody needs to draw a card now."))
        return RuleError("tie-draw", N_("You do not need to draw a card now."))
    if kind == "take":
        if phase != "taking":
            return RuleError("take-card", N_("No terrain cards are being handed out now."))
        return RuleError(
            "take-card",
            N_("It is %(seat)s's turn to choose a card."),
            seat=Seat(state["order"][state["take_index"]]),
        )
    if phase != "building":
        return RuleError("turn", N_("Nobody builds now: this is not a building phase."))
    return RuleError("turn", N_("It is %(seat)s's turn to build."), seat=Seat(state["active"]))


def about(state: dict, action: Action) -> int | None:
    """A card turned up while building is the building seat's; a terrain card of the acquisition
    phase is the whole table's."""
    return state["active"] if action.get("type") == "turn_up" else None


def _is_over(state: dict) -> bool:
    return state["phase"] == "over"


def _over_message(state: dict) -> Msg:
    return Msg(N_("The game is over: %(seat)s has crossed 8 terrains."), seat=Seat(state["winner"]))


# Each entry belongs to one phase: no crossing or choosing a card during sealed bidding. Cards
# turned up (the acquisition phase's, the building seat's) are seen by everyone, so anyone at the
# table may enter them; bids, draws, choices and building are the seat's own; a bid is sealed.
MOVES = Moves(
    {
        "card": Move(_enter_card, ANYONE, in_phase("cards")),
        "bid": Move(_bid, phase=in_phase("bidding"), secret=True),
        "draw": Move(_draw, phase=in_phase("draw")),
        "take": Move(_take, phase=in_phase("taking")),
        "turn_up": Move(_turn_up, ANYONE, in_phase("building")),
        "cross": Move(_cross, phase=in_phase("building")),
        "pass": Move(_pass, phase=in_phase("building")),
    },
    is_over=_is_over,
    over_message=_over_message,
    turn=turn,
    not_on_turn=not_on_turn,
    about=about,
)
apply = MOVES.apply


def seat_may_undo(before: dict, action: dict, after: dict) -> bool:
    """A seat may take back its own action unless it revealed the sealed bids (the last bid)."""
    return not (before["phase"] == "bidding" and after["phase"] != "bidding")

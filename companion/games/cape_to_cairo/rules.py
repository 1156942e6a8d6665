"""From Cape to Cairo (Vom Kap bis Kairo, Adlung 2001, 2-4 players): the pure rules.

The game alternates two phases until somebody has crossed 8 terrains.

Acquisition: as many terrain cards as players are turned up; everybody bids sealed (0 up to their
money); when the last bid is in they are revealed and paid (the money leaves the game); the bid
order is worked out (higher bid; equal bids: less money left; still equal: a drawn card, higher
number first) and in that order each player takes one of the cards, which goes to the end of their
row.

Building: the highest bidder starts. The active player turns up a card (its track symbols join the
pile of this sequence), then crosses the first terrain of their row or passes to the left. Crossing
needs TRACKS_NEEDED[terrain] tracks: the symbols of the turned-up pile plus the symbols of the
player's uncrossed row, then bonus tracks, then tracks bought at 10 pounds each. The crosser earns
the crossed card's income, the pile is discarded, every other player facing a river gains a bonus
track (at most 5 held) and the crosser turns up the next card. The phase ends once somebody's row
is empty. Crossing one's 8th terrain wins at once.

Action types (every action also carries "seat" and "host"; numbers are ints):

    card     seat: None (the table)  terrain: str (a TRACKS_NEEDED key)  marks: 0-3  income: 1-10
             one of the cards turned up for the acquisition phase (as many as players)
    bid      seat: the bidder        amount: 0..their money   round: optional, the phase's round
             a sealed bid; nothing about its amount is shown to anybody until all have bid.
             With "round" (the acquisition round the form was shown in) a bid left over from an
             earlier phase is refused, so bids need no guard against other bids made meanwhile.
    draw     seat: a tied player     value: 1-10 (the income printed on the drawn card)
             attempt: optional, which draw of this seat it is (1, 2, ... after equal draws)
             a card drawn to break a tie in the bid order (view()["must_draw"] names who); with
             "attempt" the same draw sent twice is refused instead of counting as the next one
    take     seat: whose turn it is  card: the id of a turned-up card (view()["pool"][i]["id"])
             the last card in the bid order is given to the last player by itself
    turn_up  seat: None (the table)  marks: 0-3
             the card the active player turned up at the start of a building turn
    cross    seat: the active player bonus: 0..held (optional; default: the cheapest way)
             cross the first terrain of the row; missing tracks are bought at 10 pounds each
    pass     seat: the active player
             do not cross; the player on the left turns up the next card
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Hashable
from typing import Any

from companion.games.base import N_, Msg, RuleError, Seat

# ---------------------------------------------------------------------------------------------
# Facts (rule text and GAME_FACTS.md)

TRACKS_NEEDED = {"river": 10, "mountain": 9, "desert": 8, "village": 7, "savanna": 6}
TERRAIN_NAMES = {
    "river": N_("river"),
    "mountain": N_("mountain"),
    "desert": N_("desert"),
    "village": N_("village"),
    "savanna": N_("savanna"),
}
MIN_PLAYERS, MAX_PLAYERS = 2, 4
START_MONEY = 100
TRACK_PRICE = 10  # pounds for one bought track
BONUS_MAX = 5  # bonus tracks a player may hold
MARKS_MIN, MARKS_MAX = 0, 3  # track symbols on one terrain card
INCOME_MIN, INCOME_MAX = 1, 10  # pounds printed on one terrain card (also the number of a draw)
TERRAINS_TO_WIN = 8

RULES: dict[str, str] = {
    "players": N_("Two to four players"),
    "money": N_("Money: 100 pounds each, never below 0; what is spent leaves the game"),
    "acquisition-cards": N_("Acquisition: as many terrain cards as players are turned up"),
    "card-values": N_("A terrain card: its terrain, 0 to 3 track symbols and an income of 1 to 10"),
    "bid-sealed": N_("Sealed bids: nobody sees a bid until all are in"),
    "bid-range": N_("A bid is 0 up to the money you hold"),
    "bid-once": N_("One bid per player and phase"),
    "bid-order": N_("The order of choosing: higher bid, then less money left, then a drawn card"),
    "tie-draw": N_("Drawing a card to break a tie"),
    "take-card": N_("Taking a card: in bid order, to the end of your row"),
    "turn": N_("Building: whose turn it is"),
    "turn-up": N_("Each building turn starts by turning up a card"),
    "cross-tracks": N_("Crossing: the tracks a terrain needs and which symbols count"),
    "cross-bonus": N_("Spending bonus tracks"),
    "cross-money": N_("Buying tracks at 10 pounds each"),
    "river-bonus": N_("Facing a river: a bonus track whenever somebody else crosses (at most 5)"),
    "phase-end": N_("The building phase ends when somebody's row is empty"),
    "win": N_("The first to cross 8 terrains wins at once"),
    "game-over": N_("The game is over"),
    "action": N_("An action the app does not understand"),
}

CLARIFICATIONS: dict[str, str] = {
    "which-symbols": N_(
        "When you cross, these symbols count: every card turned up from the deck since the last "
        "crossing (also those turned up by players who passed) and every card still in front of "
        "your locomotive, the one you are crossing included. Crossed cards lie face down and "
        "count no more; the single track on a card's back is never used."
    ),
    "spent-money": N_(
        "Bids and bought tracks are paid to nobody: the money leaves the game. Income comes from "
        "the bank."
    ),
    "money-open": N_(
        "Money is open: the app shows everybody's money. Only bids are hidden, and money changes "
        "only when all bids are revealed, so it never gives a bid away."
    ),
    "bid-tie-money": N_(
        "Equal bids: whoever has less money left after paying chooses first. With equal bids that "
        "is the same as having less money before bidding."
    ),
    "bid-tie-draw": N_(
        "Still tied: each tied player draws a card and the higher income printed on it (1 to 10) "
        "chooses first. Equal draws draw again. The drawn cards go to the discard pile."
    ),
    "cards-before-bids": N_(
        "Bidding opens once all the cards of the phase are turned up and entered, as in the rules."
    ),
    "last-card": N_(
        "The last player in the bid order has no choice: the app gives them the last card."
    ),
    "highest-bidder": N_(
        "The highest bidder who starts building is the first in the bid order, ties broken as above."
    ),
    "pass-left": N_("Passing goes to the left: the next player in seating order."),
    "crosser-continues": N_(
        "After a crossing the same player goes on: they turn up a new card and may cross again. "
        "Only one terrain can be crossed per turn."
    ),
    "may-pass": N_("You may pass even when you could cross."),
    "no-overspending": N_(
        "The app does not let you spend more bonus tracks or buy more tracks than the crossing "
        "needs. Unless you choose otherwise it spends bonus tracks before money (the cheapest way)."
    ),
    "river-bonus": N_(
        "The river bonus goes to the other players, never to the one who crossed, and only to "
        "those whose next terrain is a river. A player holding 5 bonus tracks gets none. The "
        "bonus is also given when the crossing ends the phase. Bonus tracks are kept from phase "
        "to phase."
    ),
    "phase-end": N_(
        "The phase ends right after the crossing that empties a row (only the crosser's row can "
        "become empty). The turned-up cards are discarded, uncrossed cards and bonus tracks stay, "
        "and a new acquisition phase begins."
    ),
    "income-after-paying": N_(
        "Tracks are paid for before the crossed card pays its income: the money for bought "
        "tracks must be in hand already, the income cannot pay for its own crossing."
    ),
    "nobody-affords": N_(
        "When nobody can afford to cross, play simply goes on around the table: every turn adds "
        "one more turned-up card, so crossing gets cheaper until somebody crosses. The rules know "
        "no other remedy. The app shows everybody's cheapest way to cross so the table sees it "
        "coming."
    ),
    "deck": N_(
        "The app does not track the deck: the table reshuffles the discard pile when the deck runs "
        "out, and the app assumes a card is always there to turn up or to take as a bonus track."
    ),
    "win-at-once": N_(
        "The game ends the moment somebody crosses their 8th terrain; nobody else gets a turn and "
        "money left over is worth nothing, so there are no ties."
    ),
    "bid-undo": N_(
        "A player may take back their own bid only while other bids are still missing: once the "
        "last bid reveals them all, only the host can undo."
    ),
}

# ---------------------------------------------------------------------------------------------
# Small validators: everything that comes from outside goes through these


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _int_in(value: Any, low: int, high: int | None, rule: str, msgid: str, **params: Any) -> int:
    """value as an int within [low, high] (high None: no upper bound), or a RuleError."""
    if not _is_int(value) or value < low or (high is not None and value > high):
        raise RuleError(rule, msgid, low=low, high=high if high is not None else "", **params)
    return value


def _terrain(value: Any) -> str:
    if not isinstance(value, str) or value not in TRACKS_NEEDED:
        raise RuleError(
            "card-values",
            N_("The terrain must be one of: river, mountain, desert, village, savanna."),
        )
    return value


def terrain_name(terrain: str) -> Msg:
    """The terrain as a translatable message parameter."""
    return Msg(TERRAIN_NAMES[terrain])


# ---------------------------------------------------------------------------------------------
# The bid order


def _check_bid_inputs(bids: dict, money: dict, draws: dict | None) -> dict[Hashable, list[int]]:
    if not isinstance(bids, dict) or not isinstance(money, dict) or set(bids) != set(money):
        raise RuleError("bid-order", N_("Give a bid and an amount of money for every player."))
    if not bids:
        raise RuleError("bid-order", N_("Give a bid and an amount of money for every player."))
    for key in bids:
        held = money[key]
        if not _is_int(held) or held < 0:
            raise RuleError("money", N_("Money is a whole number of pounds, never below 0."))
        _int_in(
            bids[key],
            0,
            held,
            "bid-range",
            N_("A bid is a whole number from %(low)s to the money held (%(high)s pounds)."),
        )
    if draws is None:
        draws = {}
    if not isinstance(draws, dict):
        raise RuleError("tie-draw", N_("Drawn cards are given as a number for each player."))
    seq: dict[Hashable, list[int]] = {}
    for key, value in draws.items():
        values = value if isinstance(value, list) else [value]
        for v in values:
            _int_in(
                v,
                INCOME_MIN,
                INCOME_MAX,
                "tie-draw",
                N_("A drawn card shows a number from %(low)s to %(high)s."),
            )
        seq[key] = list(values)
    return seq


def _resolve(bids: dict, money: dict, draws: dict[Hashable, list[int]]):
    """The bid order as a list of groups, best first: a group of one is settled; a larger group
    is still tied and its members must draw card number `depth + 1`. Returns [(group, depth)]."""

    def refine(group: list, depth: int) -> list[tuple[list, int]]:
        if len(group) == 1:
            return [(group, depth)]
        if any(len(draws.get(k, [])) <= depth for k in group):
            return [(group, depth)]
        out: list[tuple[list, int]] = []
        for value in sorted({draws[k][depth] for k in group}, reverse=True):
            out += refine([k for k in group if draws[k][depth] == value], depth + 1)
        return out

    groups: dict[tuple[int, int], list] = {}
    for key in bids:  # keeps the caller's order inside a group, but only groups of one survive
        groups.setdefault((-bids[key], money[key] - bids[key]), []).append(key)
    out: list[tuple[list, int]] = []
    for rank in sorted(groups):
        # rule: higher bid first; equal bids: less money left first; still equal: drawn cards
        out += refine(groups[rank], 0)
    return out


def tie_draws_needed(
    bids: dict[str, int], money: dict[str, int], draws: dict[str, int | list[int]] | None = None
) -> list[str]:
    """Who must draw a card (next) before the bid order is settled; [] when it is settled.

    money is what each player holds before paying the bid. A draw value may be an int or a list
    of successive draws (when equal draws had to be drawn again).
    """
    groups = _resolve(bids, money, _check_bid_inputs(bids, money, draws))
    return [key for group, _ in groups if len(group) > 1 for key in group]


def acquisition_order(
    bids: dict[str, int], money: dict[str, int], draws: dict[str, int] | None = None
) -> list[str]:
    """The players in the order they take a terrain card.

    bids: each player's bid; money: what each holds before paying it (a bid above it is refused).
    Higher bid first; equal bids: less money left after the bid first; still equal: the higher
    drawn card first. draws are only needed for such ties; a value may also be a list of
    successive draws when equal draws were drawn again. An unsettled tie is a RuleError naming
    who must draw.
    """
    groups = _resolve(bids, money, _check_bid_inputs(bids, money, draws))
    tied = [key for group, _ in groups if len(group) > 1 for key in group]
    if tied:
        raise RuleError(
            "tie-draw",
            N_(
                "%(players)s are tied on bid and money left: each must draw a card, the higher "
                "number chooses first."
            ),
            players=", ".join(str(k) for k in tied),
        )
    return [group[0] for group, _ in groups]


def order_reasons(
    bids: dict,
    money: dict,
    draws: dict | None = None,
    ties_only: bool = False,
    label: Callable[[Any], Any] = str,
) -> list[Msg]:
    """Why each player in the settled bid order comes before the next one, in words.

    ties_only: only the pairs with equal bids (where a tie-break was needed). label turns a
    player key into a message parameter (str for the calculator, Seat for a game).
    """
    seq = _check_bid_inputs(bids, money, draws)
    order = acquisition_order(bids, money, draws)
    lines: list[Msg] = []
    for first, second in zip(order, order[1:]):
        a, b = label(first), label(second)
        if bids[first] != bids[second]:
            if not ties_only:
                lines.append(
                    Msg(
                        N_("%(first)s before %(second)s: higher bid (%(a)s to %(b)s pounds)"),
                        first=a,
                        second=b,
                        a=bids[first],
                        b=bids[second],
                    )
                )
            continue
        left_a, left_b = money[first] - bids[first], money[second] - bids[second]
        if left_a != left_b:
            lines.append(
                Msg(
                    N_(
                        "%(first)s before %(second)s: same bid, less money left "
                        "(%(a)s to %(b)s pounds)"
                    ),
                    first=a,
                    second=b,
                    a=left_a,
                    b=left_b,
                )
            )
            continue
        da, db = seq.get(first, []), seq.get(second, [])
        depth = next(i for i in range(min(len(da), len(db))) if da[i] != db[i])
        lines.append(
            Msg(
                N_(
                    "%(first)s before %(second)s: same bid and money left, higher drawn "
                    "card (%(a)s to %(b)s, draw %(round)s)"
                ),
                first=a,
                second=b,
                a=da[depth],
                b=db[depth],
                round=depth + 1,
            )
        )
    return lines


# ---------------------------------------------------------------------------------------------
# Crossing arithmetic


def _check_crossing_inputs(terrain: Any, marks: Any, bonus_tracks: Any, money: Any) -> None:
    _terrain(terrain)
    _int_in(
        marks,
        0,
        None,
        "cross-tracks",
        N_("The number of track symbols is a whole number, at least %(low)s."),
    )
    _int_in(
        bonus_tracks,
        0,
        BONUS_MAX,
        "cross-bonus",
        N_("A player holds %(low)s to %(high)s bonus tracks."),
    )
    _int_in(money, 0, None, "money", N_("Money is a whole number of pounds, at least %(low)s."))


def _plan(terrain: str, marks: int, bonus: int) -> dict:
    needed = TRACKS_NEEDED[terrain]
    symbols = min(marks, needed)
    bought = max(0, needed - marks - bonus)
    return {
        "terrain": terrain,
        "needed": needed,
        "symbols": symbols,
        "bonus": bonus,
        "bought": bought,
        "pounds": bought * TRACK_PRICE,
    }


def tracks_short(terrain: str, marks: int) -> int:
    """Tracks still missing after the free symbols: what bonus and bought tracks must cover."""
    return max(0, TRACKS_NEEDED[terrain] - marks)


def crossing_plan(
    terrain: str, marks: int, bonus_tracks: int, money: int, bonus: int | None = None
) -> dict | None:
    """One way to cross: spend `bonus` bonus tracks (None: as many as useful, the cheapest way)
    and buy the rest at 10 pounds each. Returns {"terrain", "needed", "symbols", "bonus",
    "bought", "pounds"}, or None when the money does not reach. A bonus count above what is held
    or above what is missing is a RuleError."""
    _check_crossing_inputs(terrain, marks, bonus_tracks, money)
    short = tracks_short(terrain, marks)
    if bonus is None:
        bonus = min(bonus_tracks, short)  # bonus tracks are free, money is not: spend them first
    _int_in(
        bonus,
        0,
        bonus_tracks,
        "cross-bonus",
        N_("You hold %(high)s bonus tracks: spend %(low)s to %(high)s."),
    )
    if bonus > short:
        raise RuleError(
            "cross-bonus",
            N_("Only %(short)s more tracks are missing: spend at most %(short)s bonus tracks."),
            short=short,
        )
    plan = _plan(terrain, marks, bonus)
    return plan if plan["pounds"] <= money else None


def cheapest_crossing(terrain: str, marks: int, bonus_tracks: int, money: int) -> dict | None:
    """The cheapest way to cross (free symbols, then bonus tracks, then money), as in
    crossing_plan, or None when even all bonus tracks and all money are not enough."""
    return crossing_plan(terrain, marks, bonus_tracks, money)


def crossing_cost(terrain: str, marks: int, bonus_tracks: int, money: int) -> int | None:
    """The fewest pounds needed to cross `terrain`, or None when it cannot be done.

    marks: the track symbols that count (the cards turned up in this building sequence plus the
    printed symbols of the player's own row from the card being crossed onwards). Free symbols
    first, then bonus tracks (1 track each), then tracks bought at 10 pounds each.
    """
    plan = cheapest_crossing(terrain, marks, bonus_tracks, money)
    return None if plan is None else plan["pounds"]


def crossing_choices(terrain: str, marks: int, bonus_tracks: int, money: int) -> list[dict]:
    """Every sensible way to cross, from the most bonus tracks spent (cheapest) to none: each a
    crossing_plan dict plus "affordable" and "cheapest" flags, for a phone to let the player
    choose between spending bonus tracks and money."""
    _check_crossing_inputs(terrain, marks, bonus_tracks, money)
    short = tracks_short(terrain, marks)
    best = cheapest_crossing(terrain, marks, bonus_tracks, money)
    choices = []
    for bonus in range(min(bonus_tracks, short), -1, -1):
        plan = _plan(terrain, marks, bonus)
        plan["affordable"] = plan["pounds"] <= money
        plan["cheapest"] = best is not None and bonus == best["bonus"]
        choices.append(plan)
    return choices


# ---------------------------------------------------------------------------------------------
# State


def new(options: dict, players: int) -> dict:
    """The state of a new game: 100 pounds each, no cards, waiting for the first acquisition
    cards."""
    if not isinstance(options, dict):
        raise RuleError("action", N_("The game options must be a set of named values."))
    _int_in(
        players,
        MIN_PLAYERS,
        MAX_PLAYERS,
        "players",
        N_("From Cape to Cairo is for %(low)s to %(high)s players."),
    )
    return {
        "players": players,
        "options": dict(options),
        "phase": "cards",  # cards -> bidding -> draw? -> taking -> building -> cards ... -> over
        "round": 1,  # the number of the acquisition phase
        "money": [START_MONEY] * players,
        "bonus": [0] * players,
        "rows": [[] for _ in range(players)],  # every card taken, in row order
        "crossed": [0] * players,  # rows[s][:crossed[s]] are crossed (face down)
        "pool": [],  # the acquisition cards: terrain, marks, income, taken_by
        "bids": [None] * players,  # SEALED: never shown by view() while bidding
        "reveal": None,  # the latest revealed bids: round, bids, money_before, draws, order
        "must_draw": [],
        "order": None,  # the settled bid order of this phase
        "take_index": 0,  # position in order of the next player to take a card
        "lead": None,  # the highest bidder, who starts building
        "active": None,
        "step": None,  # building: "turn_up" (waiting for the card) or "decide"
        "turned": [],  # symbols of the cards turned up since the last crossing
        "winner": None,
        "win": None,
    }


def marks_for(state: dict, seat: int) -> int:
    """The track symbols that count for `seat` crossing now: the turned-up pile plus the
    symbols of every card still in front of their locomotive (the next one included)."""
    row = state["rows"][seat][state["crossed"][seat] :]
    return sum(state["turned"]) + sum(card["marks"] for card in row)


def next_terrain(state: dict, seat: int) -> str | None:
    """The terrain `seat` crosses next, or None when their row is empty."""
    crossed, row = state["crossed"][seat], state["rows"][seat]
    return row[crossed]["terrain"] if crossed < len(row) else None


def _seat(state: dict, action: dict) -> int:
    seat = action.get("seat")
    if not _is_int(seat) or not 0 <= seat < state["players"]:
        raise RuleError("action", N_("This action must say which player it is for."))
    return seat


def _require_phase(state: dict, phase: str, rule: str, msgid: str, **params: Any) -> None:
    if state["phase"] == "over":
        raise RuleError(
            "game-over",
            N_("The game is over: %(seat)s has crossed 8 terrains."),
            seat=Seat(state["winner"]),
        )
    if state["phase"] != phase:
        raise RuleError(rule, msgid, **params)


# --- acquisition ---------------------------------------------------------------------------


def _enter_card(state: dict, action: dict) -> None:
    _require_phase(
        state,
        "cards",
        "acquisition-cards",
        N_("All %(count)s cards of this acquisition phase are already turned up."),
        count=state["players"],
    )
    card = {
        "terrain": _terrain(action.get("terrain")),
        "marks": _int_in(
            action.get("marks"),
            MARKS_MIN,
            MARKS_MAX,
            "card-values",
            N_("A terrain card shows %(low)s to %(high)s track symbols."),
        ),
        "income": _int_in(
            action.get("income"),
            INCOME_MIN,
            INCOME_MAX,
            "card-values",
            N_("A terrain card pays %(low)s to %(high)s pounds."),
        ),
        "taken_by": None,
    }
    state["pool"].append(card)
    if len(state["pool"]) == state["players"]:
        state["phase"] = "bidding"


def _bid(state: dict, action: dict) -> None:
    seat = _seat(state, action)
    if state["phase"] == "cards":
        _require_phase(
            state,
            "bidding",
            "bid-sealed",
            N_("Bidding opens once all %(count)s cards are turned up (%(entered)s so far)."),
            count=state["players"],
            entered=len(state["pool"]),
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
    if state["bids"][seat] is not None:
        raise RuleError("bid-once", N_("%(seat)s has already bid in this phase."), seat=Seat(seat))
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
    amount = _int_in(
        action.get("amount"),
        0,
        held,
        "bid-range",
        N_("You hold %(high)s pounds: bid a whole number from %(low)s to %(high)s."),
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


def _keyed(state: dict) -> tuple[dict, dict, dict]:
    rev = state["reveal"]
    n = state["players"]
    bids = {str(s): rev["bids"][s] for s in range(n)}
    money = {str(s): rev["money_before"][s] for s in range(n)}
    draws = {str(s): rev["draws"][s] for s in range(n) if rev["draws"][s]}
    return bids, money, draws


def _settle_order(state: dict) -> None:
    bids, money, draws = _keyed(state)
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


def _draw(state: dict, action: dict) -> None:
    _require_phase(state, "draw", "tie-draw", N_("Nobody needs to draw a card now."))
    seat = _seat(state, action)
    if seat not in state["must_draw"]:
        raise RuleError(
            "tie-draw", N_("%(seat)s does not need to draw a card now."), seat=Seat(seat)
        )
    value = _int_in(
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
            N_("Draw %(attempt)s of %(seat)s is already entered."),
            attempt=attempt,
            seat=Seat(seat),
        )
    state["reveal"]["draws"][seat].append(value)
    state["must_draw"].remove(seat)
    if not state["must_draw"]:
        _settle_order(state)  # may ask the still-tied players to draw again


def _take(state: dict, action: dict) -> None:
    _require_phase(state, "taking", "take-card", N_("No terrain cards are being handed out now."))
    seat = _seat(state, action)
    turn = state["order"][state["take_index"]]
    if seat != turn:
        raise RuleError("take-card", N_("It is %(seat)s's turn to choose a card."), seat=Seat(turn))
    card_id = action.get("card")
    free = [i for i, c in enumerate(state["pool"]) if c["taken_by"] is None]
    if not _is_int(card_id) or card_id not in free:
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
        state["active"] = state["lead"]
        state["step"] = "turn_up"
        state["turned"] = []


# --- building --------------------------------------------------------------------------------


def _require_active(state: dict, action: dict) -> int:
    _require_phase(
        state, "building", "turn", N_("Nobody builds now: this is not a building phase.")
    )
    seat = _seat(state, action)
    if seat != state["active"]:
        raise RuleError("turn", N_("It is %(seat)s's turn to build."), seat=Seat(state["active"]))
    if state["step"] != "decide":
        raise RuleError(
            "turn-up", N_("First turn up a card from the deck and enter its track symbols.")
        )
    return seat


def _turn_up(state: dict, action: dict) -> None:
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
    marks = _int_in(
        action.get("marks"),
        MARKS_MIN,
        MARKS_MAX,
        "card-values",
        N_("A terrain card shows %(low)s to %(high)s track symbols."),
    )
    state["turned"].append(marks)
    state["step"] = "decide"


def _cross(state: dict, action: dict) -> None:
    seat = _require_active(state, action)
    terrain = next_terrain(state, seat)
    marks = marks_for(state, seat)
    bonus = action.get("bonus")
    plan = crossing_plan(terrain, marks, state["bonus"][seat], state["money"][seat], bonus)
    if plan is None:
        best = crossing_cost(terrain, marks, state["bonus"][seat], state["money"][seat])
        if best is None:
            raise RuleError(
                "cross-money",
                N_(
                    "Crossing the %(terrain)s needs %(needed)s tracks: the symbols (%(marks)s), "
                    "all bonus tracks (%(bonus)s) and all money (£%(money)s) are not enough. "
                    "Pass."
                ),
                terrain=terrain_name(terrain),
                needed=TRACKS_NEEDED[terrain],
                marks=marks,
                bonus=state["bonus"][seat],
                money=state["money"][seat],
            )
        raise RuleError(
            "cross-money",
            N_(
                "With %(used)s bonus tracks you would pay %(pounds)s pounds but hold %(money)s: "
                "spend more bonus tracks (the cheapest way costs %(best)s pounds)."
            ),
            used=bonus,
            pounds=_plan(terrain, marks, bonus)["pounds"],
            money=state["money"][seat],
            best=best,
        )
    card = state["rows"][seat][state["crossed"][seat]]
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
        _start_acquisition(state)
    else:
        state["step"] = "turn_up"  # the crosser goes on with a fresh card


def _pass(state: dict, action: dict) -> None:
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


_HANDLERS = {
    "card": _enter_card,
    "bid": _bid,
    "draw": _draw,
    "take": _take,
    "turn_up": _turn_up,
    "cross": _cross,
    "pass": _pass,
}


def apply(state: dict, action: dict) -> dict:
    """The state after `action` (a new dict; the input is never changed), or a RuleError."""
    if not isinstance(action, dict) or action.get("type") not in _HANDLERS:
        raise RuleError(
            "action", N_("Unknown action: use one of %(types)s."), types=", ".join(_HANDLERS)
        )
    if state["phase"] == "over":
        raise RuleError(
            "game-over",
            N_("The game is over: %(seat)s has crossed 8 terrains."),
            seat=Seat(state["winner"]),
        )
    new_state = copy.deepcopy(state)
    _HANDLERS[action["type"]](new_state, action)
    return new_state


# ---------------------------------------------------------------------------------------------
# What the phones and the table see


def _row_view(card: dict) -> dict:
    return {
        "terrain": card["terrain"],
        "marks": card["marks"],
        "income": card["income"],
        "needed": TRACKS_NEEDED[card["terrain"]],
    }


def _seat_view(state: dict, seat: int) -> dict:
    crossed = state["crossed"][seat]
    row = state["rows"][seat]
    out = {
        "seat": seat,
        "money": state["money"][seat],
        "bonus": state["bonus"][seat],
        "crossed": [card["terrain"] for card in row[:crossed]],
        "crossed_count": crossed,
        "to_win": TERRAINS_TO_WIN - crossed,
        "row": [_row_view(card) for card in row[crossed:]],
        "next_terrain": next_terrain(state, seat),
        "marks": marks_for(state, seat),
        "cheapest": None,
    }
    if state["phase"] == "building":
        out["cheapest"] = cheapest_crossing(
            out["next_terrain"], out["marks"], state["bonus"][seat], state["money"][seat]
        )
    return out


def _reveal_view(state: dict) -> dict | None:
    rev = state["reveal"]
    if rev is None:
        return None
    out = {
        "round": rev["round"],
        "bids": list(rev["bids"]),
        "money_before": list(rev["money_before"]),
        "money_left": [m - b for m, b in zip(rev["money_before"], rev["bids"])],
        "draws": [list(d) for d in rev["draws"]],
        "order": rev["order"],
        "tie_breaks": [],
    }
    if rev["order"] is not None:
        bids, money, draws = _keyed(state)
        out["tie_breaks"] = order_reasons(
            bids, money, draws, ties_only=True, label=lambda k: Seat(int(k))
        )
    return out


def _waiting_for(state: dict) -> tuple[list[int], str | None]:
    """The seats expected to act, and what the table must enter (None: nothing)."""
    phase = state["phase"]
    if phase == "cards":
        return [], "card"
    if phase == "bidding":
        return [s for s, b in enumerate(state["bids"]) if b is None], None
    if phase == "draw":
        return list(state["must_draw"]), None
    if phase == "taking":
        return [state["order"][state["take_index"]]], None
    if phase == "building":
        if state["step"] == "turn_up":
            return [state["active"]], "turn_up"
        return [state["active"]], None
    return [], None


def _actions_for(state: dict, seat: int | None) -> list[str]:
    waiting, table = _waiting_for(state)
    actions = [table] if table else []
    if seat is None or seat not in waiting:
        return actions
    phase = state["phase"]
    if phase == "bidding":
        actions.append("bid")
    elif phase == "draw":
        actions.append("draw")
    elif phase == "taking":
        actions.append("take")
    elif phase == "building" and state["step"] == "decide":
        if _seat_view(state, seat)["cheapest"] is not None:
            actions.append("cross")
        actions.append("pass")  # passing is always allowed, even when crossing is possible
    return actions


def view(state: dict, seat: int | None, reveal: bool = False) -> dict:
    """What `seat` (None: the table screen) may see.

    Sealed bids are the only secret: while bidding, everybody (the table and the host's "show
    all" too, so `reveal` changes nothing) sees only who has bid; a seat also sees its own bid.
    """
    waiting, table_entry = _waiting_for(state)
    out: dict[str, Any] = {
        "players": state["players"],
        "seat": seat,
        "phase": state["phase"],
        "round": state["round"],
        "tracks_needed": dict(TRACKS_NEEDED),
        "terrains_to_win": TERRAINS_TO_WIN,
        "seats": [_seat_view(state, s) for s in range(state["players"])],
        "pool": [
            {"id": i, **_row_view(card), "taken_by": card["taken_by"]}
            for i, card in enumerate(state["pool"])
        ],
        "cards_to_enter": state["players"] - len(state["pool"]) if state["phase"] == "cards" else 0,
        "waiting_for": waiting,
        "table_entry": table_entry,
        "actions": _actions_for(state, seat),
        "bidding": None,
        "reveal": _reveal_view(state),
        "must_draw": list(state["must_draw"]),
        "taking": None,
        "building": None,
        "my_choices": None,
        "winner": state["winner"],
    }
    if state["phase"] == "bidding":
        out["bidding"] = {
            "has_bid": [b is not None for b in state["bids"]],
            "waiting_for": [s for s, b in enumerate(state["bids"]) if b is None],
            "my_bid": state["bids"][seat] if seat is not None else None,
        }
    if state["phase"] == "taking":
        out["taking"] = {"order": list(state["order"]), "next": state["order"][state["take_index"]]}
    if state["phase"] == "building":
        out["building"] = {
            "lead": state["lead"],
            "active": state["active"],
            "step": state["step"],
            "turned": list(state["turned"]),
            "turned_marks": sum(state["turned"]),
        }
        if seat is not None and seat == state["active"] and state["step"] == "decide":
            me = out["seats"][seat]
            out["my_choices"] = crossing_choices(
                me["next_terrain"], me["marks"], state["bonus"][seat], state["money"][seat]
            )
    return out


# ---------------------------------------------------------------------------------------------
# Result, history, undo


def result(state: dict) -> dict | None:
    """None while playing; then the winner, how the win happened and every player's crossed
    terrains and money (money left over is worth nothing, so there is no tie-break)."""
    if state["phase"] != "over":
        return None
    winner = state["winner"]
    terrain = state["win"]["terrain"]
    return {
        "winner": winner,
        "how": Msg(
            N_(
                "%(seat)s crossed their 8th terrain, a %(terrain)s, in acquisition round "
                "%(round)s and wins at once."
            ),
            seat=Seat(winner),
            terrain=terrain_name(terrain),
            round=state["win"]["round"],
        ),
        "winning_terrain": terrain,
        "rounds": state["win"]["round"],
        "tie_break": None,
        "players": [
            {
                "seat": s,
                "crossed": [c["terrain"] for c in state["rows"][s][: state["crossed"][s]]],
                "crossed_count": state["crossed"][s],
                "income": sum(c["income"] for c in state["rows"][s][: state["crossed"][s]]),
                "money": state["money"][s],
                "bonus": state["bonus"][s],
                "uncrossed": [c["terrain"] for c in state["rows"][s][state["crossed"][s] :]],
                "winner": s == winner,
            }
            for s in range(state["players"])
        ],
    }


def _describe_order(after: dict) -> list[Msg]:
    lines = []
    rev = after["reveal"]
    for place, s in enumerate(rev["order"], start=1):
        lines.append(
            Msg(
                N_("%(place)s. %(seat)s chooses a card (bid %(bid)s pounds)."),
                place=place,
                seat=Seat(s),
                bid=rev["bids"][s],
            )
        )
    return lines + _reveal_view(after)["tie_breaks"]


def _describe_settling(before: dict, after: dict) -> list[Msg]:
    """Lines for what happened once bids or draws settled (or did not settle) the order."""
    lines: list[Msg] = []
    if after["phase"] == "draw":
        for s in after["must_draw"]:
            if after["reveal"]["draws"][s]:
                lines.append(Msg(N_("%(seat)s is still tied and must draw again."), seat=Seat(s)))
            else:
                lines.append(Msg(N_("%(seat)s is tied and must draw a card."), seat=Seat(s)))
    elif after["reveal"]["order"] is not None:
        lines += _describe_order(after)
    lines += _describe_taking(before, after)
    return lines


def _describe_taking(before: dict, after: dict) -> list[Msg]:
    lines = []
    for i, card in enumerate(after["pool"]):
        was = before["pool"][i]["taken_by"] if i < len(before["pool"]) else None
        if card["taken_by"] is not None and was is None:
            lines.append(
                Msg(
                    N_(
                        "%(seat)s takes the %(terrain)s (track symbols: %(marks)s, "
                        "income: £%(income)s)."
                    ),
                    seat=Seat(card["taken_by"]),
                    terrain=terrain_name(card["terrain"]),
                    marks=card["marks"],
                    income=card["income"],
                )
            )
    if before["phase"] != "building" and after["phase"] == "building":
        lines.append(
            Msg(N_("Building starts with %(seat)s, the highest bidder."), seat=Seat(after["lead"]))
        )
    return lines


def describe(before: dict, action: dict, after: dict) -> list[Msg]:
    """History lines for an accepted action (bids stay sealed until the reveal)."""
    kind = action["type"]
    seat = action.get("seat")
    if kind == "card":
        card = after["pool"][-1]
        return [
            Msg(
                N_(
                    "Turned up for bidding: %(terrain)s, track symbols: %(marks)s, "
                    "income: £%(income)s."
                ),
                terrain=terrain_name(card["terrain"]),
                marks=card["marks"],
                income=card["income"],
            )
        ]
    if kind == "bid":
        lines = [Msg(N_("%(seat)s has bid (sealed)."), seat=Seat(seat))]
        if after["phase"] != "bidding":
            lines.append(Msg(N_("All bids are in and revealed:")))
            for s, bid in enumerate(after["reveal"]["bids"]):
                lines.append(
                    Msg(
                        N_("%(seat)s bid %(bid)s pounds and has %(money)s left."),
                        seat=Seat(s),
                        bid=bid,
                        money=after["money"][s],
                    )
                )
            lines += _describe_settling(before, after)
        return lines
    if kind == "draw":
        lines = [Msg(N_("%(seat)s drew a %(value)s."), seat=Seat(seat), value=action["value"])]
        if len(before["must_draw"]) == 1:  # the last draw of this round: settled, or again
            lines += _describe_settling(before, after)
        return lines
    if kind == "take":
        return _describe_taking(before, after)
    if kind == "turn_up":
        return [
            Msg(
                N_("%(seat)s turned up a card (track symbols: %(marks)s; %(total)s in the pile)."),
                seat=Seat(before["active"]),
                marks=action["marks"],
                total=sum(after["turned"]),
            )
        ]
    if kind == "pass":
        return [
            Msg(
                N_("%(seat)s passes; %(next)s goes on."),
                seat=Seat(seat),
                next=Seat(after["active"]),
            )
        ]
    if kind == "cross":
        return _describe_cross(before, seat, after)
    return []


def _describe_cross(before: dict, seat: int, after: dict) -> list[Msg]:
    card = before["rows"][seat][before["crossed"][seat]]
    used_bonus = before["bonus"][seat] - after["bonus"][seat]
    marks = marks_for(before, seat)
    plan = _plan(card["terrain"], marks, used_bonus)
    lines = [
        Msg(
            N_(
                "%(seat)s crosses the %(terrain)s (symbols: %(symbols)s, bonus tracks: "
                "%(bonus)s, bought tracks: %(bought)s for £%(pounds)s) and earns "
                "£%(income)s."
            ),
            seat=Seat(seat),
            terrain=terrain_name(card["terrain"]),
            symbols=plan["symbols"],
            bonus=used_bonus,
            bought=plan["bought"],
            pounds=plan["pounds"],
            income=card["income"],
        )
    ]
    if after["phase"] == "over":
        lines.append(Msg(N_("%(seat)s has crossed 8 terrains and wins!"), seat=Seat(seat)))
        return lines
    for other in range(after["players"]):
        if other == seat or next_terrain(after, other) != "river":
            continue
        if after["bonus"][other] > before["bonus"][other]:
            lines.append(
                Msg(N_("%(seat)s faces a river and gains a bonus track."), seat=Seat(other))
            )
        else:
            lines.append(
                Msg(
                    N_("%(seat)s faces a river but already holds 5 bonus tracks."), seat=Seat(other)
                )
            )
    if after["phase"] == "cards":
        lines.append(
            Msg(
                N_(
                    "%(seat)s's row is empty: the building phase ends and acquisition "
                    "round %(round)s begins."
                ),
                seat=Seat(seat),
                round=after["round"],
            )
        )
    return lines


def seat_may_undo(before: dict, action: dict, after: dict) -> bool:
    """A seat may take back its own action unless it revealed the sealed bids (the last bid)."""
    return not (before["phase"] == "bidding" and after["phase"] != "bidding")

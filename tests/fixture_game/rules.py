"""Pebbles' pure rules, declared at the end as GAME (companion.games.base.Rules).

Actions (with "seat" and "host" as every game's):
    {"type": "pile", "size": 5..30}      host, before the first pebble is taken
    {"type": "secret", "number": 0..9}   a seat's own secret, before the first pebble
    {"type": "take", "n": 1..3}          the seat on turn takes pebbles from the pile
    {"type": "drop"}                     anyone: a pebble that fell is put back on the pile
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
    Plural,
    RuleError,
    Rules,
    ScoreTable,
    Seat,
    SetupStep,
    Standings,
    acting_seat,
    is_int,
)
from tests.fixture_game.search_terms import TERMS

MIN_PLAYERS, MAX_PLAYERS = 2, 4
PILE = 12  # pebbles at the start
PILE_MIN, PILE_MAX = 5, 30
TAKE_MAX = 3
SECRET_BONUS = 5  # points for a secret number that is exactly the pebbles taken

RULES = {
    "pile": N_("The pile starts with 12 pebbles; the host may set 5 to 30 before the first take."),
    "secret": N_(
        "Before the first pebble is taken, each player may write down a secret number from 0 "
        "to 9. Only their own phone shows it until the end."
    ),
    "turn": N_("Players take turns in seat order, starting with the first seat."),
    "take": N_("On your turn take 1 to 3 pebbles, never more than the pile holds."),
    "drop": N_(
        "A pebble that falls from the heap of the player on turn goes back on the pile: "
        "anybody at the table may enter it."
    ),
    "end": N_(
        "The game ends when the pile is empty. Each pebble is a point, and a secret number "
        "equal to your pebbles is worth 5 more. The most points win; a tie is shared."
    ),
    "action": N_("The app accepts only the entries this game has."),
    "game-over": N_("Nothing more is entered once the pile is empty."),
}
FIRST_GAME = (
    N_("The host may set the pile (12 pebbles, or 5 to 30) before the first take."),
    N_("Each player may write down a secret number from 0 to 9; only their phone shows it."),
    N_("In seat order, take 1 to 3 pebbles on your turn."),
    N_(
        "When the pile is empty, each pebble is a point, and a secret equal to your pebbles 5 more."
    ),
)
CLARIFICATIONS = {
    "drop-turn": N_("A pebble put back does not change whose turn it is."),
}


def new(options: dict, players: int) -> dict:
    """The pile full, no secret written, the first seat on turn."""
    if not is_int(players) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise RuleError("action", N_("Pebbles is for 2 to 4 players."))
    options = options if isinstance(options, dict) else {}
    pile = _number({"size": options.get("pile", PILE)}, "size", PILE_MIN, PILE_MAX, "pile")
    return {
        "players": players,
        "pile": pile,
        "taken": [0] * players,
        "secret": [None] * players,
        "turn": 0,
        "started": False,
    }


def _number(action: Mapping[str, Any], field: str, low: int, high: int, rule: str) -> int:
    value = action.get(field)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise RuleError(
            rule, N_("Enter a whole number from %(low)s to %(high)s."), low=low, high=high
        )
    return value


def _not_started(state: dict, rule: str) -> None:
    if state["started"]:
        raise RuleError(rule, N_("Not any more: the first pebble has been taken."))


def _pile(state: dict, action: Mapping[str, Any]) -> None:
    _not_started(state, "pile")
    state["pile"] = _number(action, "size", PILE_MIN, PILE_MAX, "pile")


def _secret(state: dict, action: Mapping[str, Any]) -> None:
    _not_started(state, "secret")
    state["secret"][acting_seat(action)] = _number(action, "number", 0, 9, "secret")


def _take(state: dict, action: Mapping[str, Any]) -> None:
    n = _number(action, "n", 1, min(TAKE_MAX, state["pile"]), "take")
    seat = acting_seat(action)
    state["pile"] -= n
    state["taken"][seat] += n
    state["started"] = True
    state["turn"] = (seat + 1) % state["players"]


def _drop(state: dict, action: Mapping[str, Any]) -> None:
    seat = state["turn"]
    if not state["taken"][seat]:
        raise RuleError(
            "drop", N_("%(seat)s has no pebble that could have fallen."), seat=Seat(seat)
        )
    state["taken"][seat] -= 1
    state["pile"] += 1  # the turn does not change (our reading: drop-turn)


def turn(state: dict) -> list[int]:
    """The seat on turn, while pebbles are left."""
    return [state["turn"]] if state["pile"] > 0 else []


def _not_on_turn(state: dict, action: Mapping[str, Any]) -> RuleError:
    return RuleError("turn", N_("It is %(seat)s's turn."), seat=Seat(state["turn"]))


def _before_the_first_take(state: dict) -> bool:
    return not state["started"]


def prompt(state: dict, seat: int | None) -> Msg | None:
    """What the seat may enter now: its take on turn (with the most the pile allows), else its
    secret number while no pebble is taken; nothing for the table."""
    if seat is None or state["pile"] == 0:
        return None
    if seat in turn(state):
        return Msg(N_("Take 1 to %(most)s pebbles."), most=min(TAKE_MAX, state["pile"]))
    if not state["started"] and state["secret"][seat] is None:
        return Msg(N_("You may write down a secret number from 0 to 9 before the first take."))
    return None


# One Move per action type: its handler, who may enter it (the host, each seat for itself, the
# seat on turn, anyone), when (the pile's size and the secrets: before the first pebble is taken,
# rules "pile" and "secret"), and whether its values are private when entered (a secret number).
MOVES = Moves(
    {
        "pile": Move(_pile, HOST, _before_the_first_take),
        "secret": Move(_secret, OWN, _before_the_first_take, secret=True),
        "take": Move(_take),
        "drop": Move(_drop, ANYONE),
    },
    is_over=lambda state: state["pile"] == 0,
    over_message=lambda state: Msg(N_("The pile is empty: the game is over.")),
    turn=turn,
    not_on_turn=_not_on_turn,
    about=lambda state, action: state["turn"],
)
apply = MOVES.apply
may_enter = MOVES.may_enter
concerns = MOVES.concerns
entry = MOVES.entry


def score(state: dict, seat: int) -> tuple[int, int]:
    """(pebbles, bonus) of a seat."""
    bonus = SECRET_BONUS if state["secret"][seat] == state["taken"][seat] else 0
    return state["taken"][seat], bonus


def result(state: dict) -> dict | None:
    """The points of each seat (pebbles + bonus) and the winners, once the pile is empty."""
    if state["pile"] > 0:
        return None
    points = [sum(score(state, s)) for s in range(state["players"])]
    best = max(points)
    return {
        "points": points,
        "breakdown": [list(score(state, s)) for s in range(state["players"])],
        "winners": [s for s, p in enumerate(points) if p == best],
    }


def view(state: dict, seat: int | None, reveal: bool = False) -> dict:
    """Everything but the secrets: a seat sees its own; "show all" and the end show them all."""
    shown = [
        number if reveal or result(state) is not None or s == seat else None
        for s, number in enumerate(state["secret"])
    ]
    return {
        **{k: v for k, v in state.items() if k != "secret"},
        "secret": shown,
        "written": [number is not None for number in state["secret"]],
    }


def progress(state: dict) -> Msg:
    """Where the game stands, in a few words (lists of tables): the pebbles left."""
    return Plural(
        "%(num)s pebble in the pile", "%(num)s pebbles in the pile", "num", num=state["pile"]
    )


def describe(before: dict, action: dict, after: dict) -> list[Msg]:
    """The history line of an accepted entry (a secret's number is never in it)."""
    kind = action["type"]
    if kind == "pile":
        return [Msg(N_("Pebbles in the pile at the start: %(n)s."), n=after["pile"])]
    if kind == "secret":
        return [Msg(N_("%(seat)s writes down a secret number."), seat=Seat(acting_seat(action)))]
    if kind == "drop":
        return [
            Msg(
                N_("A pebble falls from %(seat)s's heap back on the pile (pile: %(n)s)."),
                seat=Seat(before["turn"]),
                n=after["pile"],
            )
        ]
    return [
        Msg(
            N_("%(seat)s takes %(n)s (pile: %(left)s)."),
            seat=Seat(acting_seat(action)),
            n=action["n"],
            left=after["pile"],
        )
    ]


def score_table(state: dict, result: dict) -> ScoreTable:
    """Pebbles and the secret's bonus, then the total, first place first."""
    points = result["points"]
    order = sorted(range(state["players"]), key=lambda s: -points[s])
    ranks = [1 + sum(1 for t in order if points[t] > points[s]) for s in order]
    rows = [
        (N_("Pebbles"), [result["breakdown"][s][0] for s in order]),
        (N_("Secret bonus"), [result["breakdown"][s][1] for s in order]),
    ]
    return ScoreTable(order, ranks, result["winners"], rows, [points[s] for s in order])


def standings_at(state: dict, result: dict | None, everything: bool) -> Standings:
    """Pebbles taken and the points if the pile were empty now; the secret numbers (and
    their bonus) only with everything or once the result stands (they are private)."""
    shown = everything or result is not None
    players = range(state["players"])
    values = []
    for seat in players:
        pebbles, bonus = score(state, seat)
        secret = [state["secret"][seat]] if shown else []
        values.append([pebbles, *secret, pebbles + bonus if shown else pebbles])
    best = max(row[-1] for row in values)
    columns = [N_("Pebbles"), *([N_("Secret number")] if shown else []), N_("Points")]
    note = (
        N_("Points if the pile were empty now, the secret numbers' bonus included.")
        if shown
        else N_("The secret numbers are private until the end: their bonus is left out.")
    )
    leaders = [s for s in players if values[s][-1] == best] if best else []
    return Standings(columns, values, leaders, note)


def step_round(state: dict) -> Msg:
    """Two phases and the end: secrets and the pile's size, then taking pebbles."""
    if result(state) is not None:
        return Msg(N_("The pile is empty."))
    if not state["started"]:
        return Msg(N_("Before the first take"))
    return Msg(N_("Taking pebbles"))


def variants(state: dict) -> list[str]:
    """The table options in force, in English: a pile the host set to another size."""
    size = state["pile"] + sum(state["taken"])  # pebbles only move between pile and heaps
    return [] if size == PILE else [f"Pile of {size}"]


def may_undo(before: dict, action: dict, after: dict) -> bool:
    """The exception to the one undo policy: the take that empties the pile ends the game and
    shows every secret number (rule "secret"), so that seat may not take it back."""
    return result(after) is None


def setup_guide(options: dict, players: int) -> list[SetupStep]:
    """The set-up: one pile (the tests' game has no rule text to quote)."""
    return [
        SetupStep(
            "pile",
            Msg(N_("Put %(n)s pebbles in one pile."), n=options.get("pile", PILE)),
            rule="pile",
            filled=N_("Pebbles is the tests' own game: it has no rule text to quote."),
        ),
        SetupStep(
            "secrets",
            Msg(N_("Each player writes a secret number from 0 to 9.")),
            rule="secret",
            filled=N_("Pebbles is the tests' own game: it has no rule text to quote."),
        ),
    ]


#: Pebbles as the app plays it: every member of companion.games.base.Rules is given (a new game
#: copied from here leaves out the optional ones it does not need: their defaults say what then).
GAME = Rules(
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    new=new,
    moves=MOVES,
    view=view,
    result=result,
    describe=describe,
    progress=progress,
    summaries=RULES,
    readings=CLARIFICATIONS,
    seat_labels=(),
    variants=variants,
    may_undo=may_undo,
    score_table=score_table,
    standings=standings_at,
    step_round=step_round,
    start_seat=lambda state: 0,
    terms=TERMS,
    setup=setup_guide,
    start_pick="first-seat",
    prompt=prompt,
    first_game=FIRST_GAME,
)

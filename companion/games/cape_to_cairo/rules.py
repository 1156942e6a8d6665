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

This module is the entry point: GAME, its companion.games.base.Rules. The rules live in small
modules:

    facts      the numbers of the game, the validators of what comes from outside
    texts      RULES and CLARIFICATIONS, the rules page's entries
    bid_order  who chooses a card first (shared with the calculator)
    crossing   what a crossing costs (shared with the calculator)
    state      new() and the questions asked of a state
    moves      one handler per action type, applied by the shared Moves dispatcher
    views      view() and result()
    history    describe(): the history lines
    prompt     what a seat (or the table) may enter now, in one sentence (the phone's prompt)
    scoreboard the final score table, the replay's standings and rounds, the start seat
    search_terms  the words players say, for the rules search (TERMS)
"""

from __future__ import annotations

from companion.games.base import N_, Msg, Rules
from companion.games.cape_to_cairo import scoreboard, setup
from companion.games.cape_to_cairo.bid_order import (
    acquisition_order,
    order_reasons,
    tie_draws_needed,
)
from companion.games.cape_to_cairo.crossing import (
    cheapest_crossing,
    crossing_choices,
    crossing_cost,
    crossing_plan,
    explain_plan,
    tracks_short,
)
from companion.games.cape_to_cairo.facts import (
    BONUS_MAX,
    INCOME_MAX,
    INCOME_MIN,
    MARKS_MAX,
    MARKS_MIN,
    MAX_PLAYERS,
    MIN_PLAYERS,
    START_MONEY,
    TERRAIN_NAMES,
    TERRAINS,
    TERRAINS_TO_WIN,
    TRACK_PRICE,
    TRACKS_NEEDED,
    terrain_name,
)
from companion.games.cape_to_cairo.history import describe
from companion.games.cape_to_cairo.moves import MOVES, apply, seat_may_undo
from companion.games.cape_to_cairo.prompt import prompt
from companion.games.cape_to_cairo.search_terms import TERMS
from companion.games.cape_to_cairo.state import marks_for, new, next_terrain
from companion.games.cape_to_cairo.texts import CLARIFICATIONS, FIRST_GAME, RULES
from companion.games.cape_to_cairo.views import result, view

# Whose move it is and who may enter what (the Rules protocol): from the moves' declaration.
turn = MOVES.turn
may_enter = MOVES.may_enter
concerns = MOVES.concerns
entry = MOVES.entry


def progress(state: dict) -> Msg:
    """Where the game stands, in a few words (lists of tables): the phase of the round."""
    n = state["round"]
    phase = state["phase"]
    if phase == "building":
        return Msg(N_("Building phase (round %(n)s)"), n=n)
    if phase == "bidding":
        return Msg(N_("Acquisition round %(n)s: sealed bids"), n=n)
    if phase == "draw":
        return Msg(N_("Acquisition round %(n)s: a tie to break"), n=n)
    if phase == "taking":
        return Msg(N_("Acquisition round %(n)s: choosing cards"), n=n)
    return Msg(N_("Acquisition round %(n)s: turn up the cards"), n=n)


__all__ = [
    "GAME",
    "progress",
    "prompt",
    "concerns",
    "entry",
    "may_enter",
    "turn",
    "BONUS_MAX",
    "CLARIFICATIONS",
    "INCOME_MAX",
    "INCOME_MIN",
    "MARKS_MAX",
    "MARKS_MIN",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "MOVES",
    "RULES",
    "START_MONEY",
    "TERRAINS",
    "TERRAINS_TO_WIN",
    "TERRAIN_NAMES",
    "TRACKS_NEEDED",
    "TRACK_PRICE",
    "acquisition_order",
    "apply",
    "cheapest_crossing",
    "crossing_choices",
    "crossing_cost",
    "crossing_plan",
    "describe",
    "explain_plan",
    "marks_for",
    "new",
    "next_terrain",
    "order_reasons",
    "result",
    "seat_may_undo",
    "terrain_name",
    "tie_draws_needed",
    "tracks_short",
    "view",
]


#: The game as the app plays it: the contract of companion.games.base.Rules.
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
    may_undo=seat_may_undo,
    score_table=scoreboard.score_table,
    standings=scoreboard.standings_at,
    step_round=scoreboard.step_round,
    start_seat=scoreboard.start_seat,
    terms=TERMS,
    setup=setup.setup,
    prompt=prompt,
    first_game=FIRST_GAME,
)

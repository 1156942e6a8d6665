"""Africana (Michael Schacht, Abacus/Z-Man 2012, 2-4 players): the pure rules.

The app sits beside the physical game. It does not know the map or the values printed on the
cards: players type what their cards show. What it keeps is the money (a ledger of named entries
so nobody does mental arithmetic), the turn order with the end-of-turn checks, the expedition row
and deck (which decides when the game ends), and the final scoring with the best artifact sets.

Coins are always counted by value in silver (1 gold coin = 5 silver). The starting coins are
read as silver coins unless the table chose to read them as gold (the game option readings =
{"starting-coins-silver": "literal"}: 10, 10, 15 and 20 silver).

Seats are in clockwise order and seat 0 is the start player, who takes company 1 (Italy); the
others take the companies in number order (rule "set-up").

Action types (every action also has "type", "seat" and "host"):

    choose_action       seat; action: "draw" | "buy" | "move"
                        The current player picks the turn's one action. It may be changed while
                        nothing has been entered for it yet. Ledger entries pick it implicitly.
    buy_adventure       seat; cards: int >= 1 (usually 1)          -- 5 silver each ("buy" turn)
    turn_pages          seat; pages: int >= 1                      -- first page of a turn free,
                                                                      then 1 silver each ("buy")
    change_colour       seat; cards: int >= 1                      -- 5 silver each ("move" turn)
    join_expedition     seat; slot: 1..5; bonus_coins: int >= 0    -- the join bonus printed above
                        the space (0 when it shows movement cards) ("move" turn)
    complete_expedition seat; slot: 1..5; coins: int >= 0; points: int >= 0
                        -- reward as printed on the card; the seat must have joined it ("move")
    complete_artifact   seat; kind: kind key "A".."E" or its current name; coins: int >= 0;
                        points: int >= 0                           -- as printed ("move" turn)
    complete_guide      seat                                       -- a guide adventure ("move")
    end_turn            seat; discarded_adventures: int >= 0 (optional, default 0);
                        override: bool (optional, host only)
                        Ends the current player's turn: refused while more than 3 unfinished
                        adventures would stay (rule "adventure-limit"), unless the host asks
                        for the override; refills the expedition row from the deck, announces
                        the last round, ends the game.
    rename_kinds        seat (or None); names: list of 5 distinct non-empty strings (<= 20 chars)
                        The table may rename the five artifact kinds once.
    submit_sheet        seat; expedition_points: list[int]; artifact_cards: list[[kind, int]];
                        guide_adventures: int; coins: int; movement_cards: int;
                        unfinished_artifacts: int (required while the entries leave the seat
                        unfinished adventures the app cannot tell apart)
                        (instead of coins: gold: int and silver: int, the pieces counted; the
                        sheet keeps their value in silver)
                        A seat's own final scoring sheet, once the game is over (may be
                        resubmitted to correct it).
    correct_coins       host only; seat; amount: int (may be negative) -- fixes a ledger slip
    finish_game         host only -- ends play now (e.g. the table did not use the turn tracker)

Pure scoring functions used by the calculator page: artifact_bonus, best_artifact_sets,
final_score, rank_scores, setup_facts, coin_value (and greedy_artifact_sets, the obvious but
wrong grouping, shown on the rules page for comparison).

This module is the entry point: GAME, its companion.games.base.Rules. The rules live in small
modules:

    facts.py    the rule text's facts (companies, deck, prices, limits) and their arithmetic
    fields.py   reading an entry's numbers within the game's limits, refused in words
    sets.py     the best grouping of artifact cards into sets (and the greedy one, to compare)
    scoring.py  a scoring sheet checked, one player's final score, the ranking and tie-break
    state.py    the state of a new game and what can be read off it
    turn.py     whose turn, the turn's one action, the coin ledger, the end-of-turn checks
    moves.py    one handler per action type and the shared dispatcher (MOVES, apply)
    views.py    what a seat or the table sees, the reminders, the suggested sheet, the result
    prompt.py   the line under "Your turn.": what a seat (or the table) may enter now
    history.py  the history lines of an accepted action, and what a seat may take back
    texts.py    the rules page's titles (RULES), our readings (CLARIFICATIONS) and the other
                reading a table may choose (OTHER_READINGS, with READS_FROM: the rule's sentence)
    scoreboard.py  the final score table, the replay's standings and rounds, the variants
    search_terms.py  the words players say, for the rules search (TERMS)
"""

from __future__ import annotations

from companion.games.africana import scoreboard, setup
from companion.games.africana.facts import (
    ADVENTURE_CARDS,
    ADVENTURE_PRICE,
    ARTIFACT_CARDS,
    ARTIFACT_COPIES,
    ARTIFACT_KINDS,
    C_CARDS_REMOVED,
    COLOUR_CHANGE_PRICE,
    COMPANIES,
    ENTRY_ACTION,
    EXPEDITION_CARDS,
    GUIDE_ADVENTURES,
    HAND_LIMIT,
    KIND_KEYS,
    KIND_NAME_MAX,
    MARKERS,
    MAX_COINS,
    MAX_EXPEDITIONS,
    MAX_PLAYERS,
    MAX_PRINTED,
    MIN_PLAYERS,
    OPEN_ADVENTURE_LIMIT,
    PAGE_PRICE,
    RECEIVES,
    ROW_SPACES,
    SEAT_LABELS,
    SET_BONUS,
    SILVER_PER_GOLD,
    TURN_ACTION_LABELS,
    TURN_ACTIONS,
    coin_value,
    company_facts,
    company_name,
    page_cost,
    setup_facts,
)
from companion.games.africana.history import describe, seat_may_undo
from companion.games.africana.moves import MOVES, apply
from companion.games.africana.prompt import prompt
from companion.games.africana.scoring import (
    SCORE_LINES,
    SCORE_ROWS,
    TIE_BREAK_TEXT,
    check_sheet,
    decided_by,
    final_score,
    guide_penalty,
    rank_scores,
)
from companion.games.africana.search_terms import TERMS
from companion.games.africana.sets import (
    artifact_bonus,
    best_artifact_sets,
    greedy_artifact_sets,
    set_bonus_of,
)
from companion.games.africana.state import known_unfinished_artifacts, markers_used, new
from companion.games.africana.texts import (
    CLARIFICATIONS,
    FIRST_GAME,
    OTHER_READINGS,
    READS_FROM,
    RULES,
)
from companion.games.africana.turn import refill_row
from companion.games.africana.views import (
    ENTRY_LABELS,
    end_of_turn_checks,
    result,
    suggested_sheet,
    view,
)
from companion.games.base import N_, Msg, Rules

# Whose move it is and who may enter what (the Rules protocol): from the moves' declaration.
turn = MOVES.turn
may_enter = MOVES.may_enter
concerns = MOVES.concerns
entry = MOVES.entry


def progress(state: dict) -> Msg:
    """Where the game stands, in a few words (lists of tables): the round and the turn."""
    number = state["turn"]["number"]
    return Msg(
        N_("Round %(round)s · turn %(turn)s"),
        round=(number - 1) // state["players"] + 1,
        turn=number,
    )


__all__ = [
    "GAME",
    "progress",
    "concerns",
    "entry",
    "may_enter",
    "turn",
    # the Rules protocol
    "MIN_PLAYERS",
    "MAX_PLAYERS",
    "RULES",
    "CLARIFICATIONS",
    "OTHER_READINGS",
    "READS_FROM",
    "new",
    "apply",
    "view",
    "result",
    "describe",
    "seat_may_undo",
    "MOVES",
    # facts
    "ADVENTURE_CARDS",
    "ADVENTURE_PRICE",
    "ARTIFACT_CARDS",
    "ARTIFACT_COPIES",
    "ARTIFACT_KINDS",
    "C_CARDS_REMOVED",
    "COLOUR_CHANGE_PRICE",
    "COMPANIES",
    "ENTRY_ACTION",
    "EXPEDITION_CARDS",
    "GUIDE_ADVENTURES",
    "HAND_LIMIT",
    "KIND_KEYS",
    "KIND_NAME_MAX",
    "MARKERS",
    "MAX_COINS",
    "MAX_EXPEDITIONS",
    "MAX_PRINTED",
    "OPEN_ADVENTURE_LIMIT",
    "PAGE_PRICE",
    "RECEIVES",
    "ROW_SPACES",
    "SEAT_LABELS",
    "SET_BONUS",
    "SILVER_PER_GOLD",
    "TURN_ACTION_LABELS",
    "TURN_ACTIONS",
    "coin_value",
    "company_facts",
    "company_name",
    "page_cost",
    "setup_facts",
    # scoring (the calculator's too)
    "SCORE_LINES",
    "SCORE_ROWS",
    "TIE_BREAK_TEXT",
    "artifact_bonus",
    "best_artifact_sets",
    "check_sheet",
    "decided_by",
    "final_score",
    "greedy_artifact_sets",
    "guide_penalty",
    "rank_scores",
    "set_bonus_of",
    # the table
    "ENTRY_LABELS",
    "end_of_turn_checks",
    "known_unfinished_artifacts",
    "markers_used",
    "refill_row",
    "suggested_sheet",
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
    other_readings=OTHER_READINGS,
    reads_from=READS_FROM,
    seat_labels=SEAT_LABELS,
    variants=scoreboard.variants,
    may_undo=seat_may_undo,
    score_table=scoreboard.score_table,
    standings=scoreboard.standings_at,
    step_round=scoreboard.step_round,
    terms=TERMS,
    setup=setup.setup,
    start_pick="first-seat",
    prompt=prompt,
    first_game=FIRST_GAME,
)

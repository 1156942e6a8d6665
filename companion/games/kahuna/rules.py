"""Kahuna: the pure rules (two players, twelve islands, three scorings).

The board (islands, bridge sites, layout) comes from data/kahuna_board.json beside this module,
read once at import. Seat 0 plays White, seat 1 plays Black; White takes the first turn.

The app does not see the cards in anyone's hand: it counts them. The table enters every face-up
card as it is turned over, and each played card names its island, so the app can check that the
card could be in that hand (2 copies of each island exist) and that it fits the move.

Action types (every action also carries "seat" and "host" as the protocol says):

    reveal    {"island": str}
        The table enters a card just turned face up (3 at the start of each round, then one each
        time a face-up card is taken while the deck has cards). "seat" may be None: anyone may
        enter it. Nothing else can happen while a face-up card is waiting to be entered.
    place     {"seat": int, "site": "Aloa-Bari", "card": str}
        Play one card and build a bridge on a free site touching the card's island.
        "site" may also be a list of the two island names, in either order.
    remove    {"seat": int, "site": "Aloa-Bari", "cards": [str, str]}
        Play two cards, each naming either end of the site, to remove the opponent's bridge there.
    discard   {"seat": int, "count": int}
        Instead of playing cards: put this many cards face down under the discard pile.
    draw      {"seat": int, "source": "deck" | "display", "island": str (for "display")}
        End the turn by taking the top card of the deck or one face-up card.
    end_turn  {"seat": int}
        End the turn without drawing (then the opponent must draw next turn).
    set_option {"arabana": bool}
        The host's device switches the Arabana table option, only before the first turn action
        (the lobby creates every table with the defaults).

Pure functions for the calculator pages: control(), place(), remove(), round_points(),
control_report(), legal_cards_for(); board data: ISLANDS, SITES, DEGREES, SITES_OF, LAYOUT.

This module is the entry point: GAME, its companion.games.base.Rules. The rules live in small
modules:

    facts     the board (read from data/), the numbers of the game, readers of names from outside
    texts     RULES and CLARIFICATIONS, the rules page's entries, and the option's label
    bridges   control of the islands, building and removing a bridge (the control checker too)
    scoring   the points of a round, the winner and its tie-breaks, the checker's report
    state     new() and the questions asked of a state
    checks    every check of a play, and legal_cards_for() (the "which card?" question)
    moves     one handler per action type, applied by the shared Moves dispatcher; undo policy
    views     view() and result()
    prompt    the line under "Your turn.": what a seat (or the table) may enter now
    history   describe(): the history lines, and the tie-break of a result in words
    course    how a game went (islands held after every turn), for the summary's picture
    scoreboard  the final score table, the replay's standings and rounds, the start seat
    search_terms  the words players say, for the rules search (TERMS)

Beside them: drawing (the board's SVG geometry, pure), web (the table page's adapter and forms)
and calculator (the control checker).
"""

from __future__ import annotations

from companion.games.base import N_, Msg, Rules
from companion.games.kahuna import scoreboard, setup
from companion.games.kahuna.bridges import (
    bridge_counts,
    bridges_from_json,
    bridges_to_json,
    control,
    islands_held,
    place,
    remove,
)
from companion.games.kahuna.checks import legal_cards_for
from companion.games.kahuna.facts import (
    BOARD,
    BRIDGES_PER_COLOUR,
    CARDS_PER_ISLAND,
    COLOUR_WORDS,
    COLOURS,
    DECK_SIZE,
    DEGREES,
    DISPLAY_SIZE,
    HAND_LIMIT,
    ISLANDS,
    LAYOUT,
    MAX_CARDS_PER_TURN,
    MAX_PLAYERS,
    MIN_PLAYERS,
    ROUND_POINTS,
    ROUNDS,
    SEAT_LABELS,
    SITES,
    SITES_OF,
    START_HAND,
    STONES_PER_COLOUR,
    Site,
    check_board,
    needed,
    other,
    parse_colour,
    parse_island,
    parse_site,
    site_key,
    site_name,
)
from companion.games.kahuna.history import (
    describe,
    describe_play,
    describe_scoring,
)
from companion.games.kahuna.moves import (
    MOVES,
    apply,
    seat_may_undo,
)
from companion.games.kahuna.prompt import prompt
from companion.games.kahuna.scoring import (
    control_report,
    decide_winner,
    explain_round,
    round_points,
)
from companion.games.kahuna.search_terms import TERMS
from companion.games.kahuna.state import (
    accounted,
    drawable,
    new,
    options_open,
)
from companion.games.kahuna.texts import (
    CLARIFICATIONS,
    FIRST_GAME,
    OPTIONS,
    RULES,
)
from companion.games.kahuna.views import (
    result,
    view,
)

# Whose move it is and who may enter what (the Rules protocol): from the moves' declaration.
turn = MOVES.turn
may_enter = MOVES.may_enter
concerns = MOVES.concerns
entry = MOVES.entry


def progress(state: dict) -> Msg:
    """Where the game stands, in a few words (lists of tables): the round of the three."""
    return Msg(N_("Round %(round)s of %(rounds)s"), round=state["round"], rounds=ROUNDS)


def variants(state: dict) -> list[str]:
    """The table options a game was played with, in English (the exports: BG Stats' "board")."""
    return ["Arabana"] if state["options"].get("arabana") else []


__all__ = [
    "GAME",
    "progress",
    "variants",
    "concerns",
    "entry",
    "may_enter",
    "turn",
    "BOARD",
    "BRIDGES_PER_COLOUR",
    "CARDS_PER_ISLAND",
    "CLARIFICATIONS",
    "COLOURS",
    "COLOUR_WORDS",
    "DECK_SIZE",
    "DEGREES",
    "DISPLAY_SIZE",
    "HAND_LIMIT",
    "ISLANDS",
    "LAYOUT",
    "MAX_CARDS_PER_TURN",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "MOVES",
    "OPTIONS",
    "ROUNDS",
    "ROUND_POINTS",
    "RULES",
    "SEAT_LABELS",
    "SITES",
    "SITES_OF",
    "START_HAND",
    "STONES_PER_COLOUR",
    "Site",
    "accounted",
    "apply",
    "bridge_counts",
    "bridges_from_json",
    "bridges_to_json",
    "check_board",
    "control",
    "control_report",
    "decide_winner",
    "describe",
    "describe_play",
    "describe_scoring",
    "drawable",
    "explain_round",
    "islands_held",
    "legal_cards_for",
    "needed",
    "new",
    "options_open",
    "other",
    "parse_colour",
    "parse_island",
    "parse_site",
    "place",
    "remove",
    "result",
    "round_points",
    "seat_may_undo",
    "site_key",
    "site_name",
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
    seat_labels=SEAT_LABELS,
    variants=variants,
    may_undo=seat_may_undo,
    score_table=scoreboard.score_table,
    standings=scoreboard.standings_at,
    step_round=scoreboard.step_round,
    start_seat=scoreboard.start_seat,
    terms=TERMS,
    setup=setup.setup,
    start_pick="first-seat",
    prompt=prompt,
    first_game=FIRST_GAME,
)

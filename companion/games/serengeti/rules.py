"""Serengeti (Michael Schacht, Abacus 2007) and its original "Don" rules: the pure rules.

One module serves both rule sets: new({"variant": "abacus"}, n) or new({"variant": "don"}, n).
Other options (all optional):
    "start":   the seat that starts round 1 (default 0; the rules let the table pick it freely)
    "penalty": True (default) or False; False = the table plays friendly and an illegal bid
               costs nothing (the "penalty" action is then refused).

Actions (every action also carries "seat" and "host"; numbers may be ints or digit strings):

    card     seat: None (anyone at the table)   tribe: str, one of TRIBES   digit: int 0-9
             One card turned up for this round's lot. When the lot is complete (1, 2 or 3 cards)
             the auction opens by itself.
    bid      seat: the bidder (must be on turn)  amount: int
             again: true (optional) confirms the same illegal bid right after its fine: without
             it that bid is refused under "penalty-again" and costs nothing (just_fined_bid())
    pass     seat: the passer (must be on turn)
    discard  seat: the winner who cannot pay     tribe: str   digit: int   (one of their cards)
    penalty  seat: the player on turn whose bid was just refused   bid: int (optional, for history)
             Submit it after a refused bid whose rule id is in PENALTY_RULES (penalty_applies()
             tells whether the table plays with penalties). It is its own history entry.
    waive    host only; player (or, without it, seat): whose latest penalty is refunded (1 chip
             back from bank / pot). "player" lets the host waive from the table view (seat None).
    fines    host only; on: bool. Switches the fines for illegal bids on or off (a friendly
             table), at any time; its own history entry.
    start    host only; player: the seat that starts round 1. Only before the first card.
    sell     Don only; seat: the seller   tribe: str   digit: int   (one of their own cards)
             Only at the start of a round, before the first card of the lot is entered.

Phases: "reveal" (the table enters the lot's cards; in Don a player may start a sale here),
"auction" (bid or pass in turn), "discard" (a winner who cannot pay picks a card to discard),
"over" (result() gives the final scores). Settling an auction (payout, free lot, cannot-pay,
restart, next round) happens inside the bid / pass / discard that decides it.

Fines: when apply() refuses a bid with a RuleError whose .rule is in PENALTY_RULES (the digit
rule) and penalty_applies(state, rule) is True, the web layer submits {"type": "penalty", "seat":
the bidder, "bid": the refused amount}: 1 chip to the bank (Don: the pot), its own history entry.
The host undoes a fine with {"type": "waive", "player": i, "host": True}, switches fines off with
{"type": "fines", "on": False, "host": True}, or the table starts with {"penalty": False}.

view(state, seat, reveal) -> {"variant", "players", "round", "rounds", "lot_size", "phase",
"start", "lot", "auction" (kind, seller, card, starter, turn, high, high_seat, passed, excluded,
active, defaulter, default_bid) or None, "to_act", "waiting_for" (Msg), "bank", "pot", "seats"
(per seat: cards by tribe, card_count, forbidden_digits, and "chips" only with reveal=True or
once the game is over), "out", "cards_left", "penalties", "payout_line" (Msg), "payout_why"
([Msg]: the same sentences as the calculator), "last_payout",
"penalty_on", "me"}. "me" is None for the table; for a seat: its own chips, cards,
forbidden_digits, my_turn, may_bid, may_pass, pass_bonus, min_bid, legal_bids, must_discard,
may_sell. pass_bonus_due(state, seat) tells what passing now would earn.
bid_warning(state, seat, amount) gives the private "above your chips" warning.

result(state) -> standings(): per player (in ranking order) the per-tribe breakdown, card
points, chips, chip bonus, total, cards, digit sum, rank and decided_by; plus ranking, winners,
tie_break ("points", "cards", "chips", "digit_sum" or "shared") and tie_break_text (Msg).

apply() refuses an action of an unknown type or with a host flag that is not true/false (rule
"action") and anything entered once the game is over (rule "game-over").

Public pure functions used elsewhere with exactly these signatures: payout(), bid_error(),
score(); plus standings() (the end-screen table), payout_line() and payout_explanation() (the
payout and why), and bid_hint() (the keypad).

This module is the entry point: GAME, its companion.games.base.Rules. The rules live in small
modules:

    facts.py    the rule text's numbers (chips, deck, rounds, tribes, points) and lot_size()
    fields.py   reading entered values (whole numbers, digit strings, the rule set); InputError
    phrases.py  the pieces sentences are built from: a card's name, a list of names
    payout.py   who receives a paid bid (payout, Payout) and the sentence that says so
    bids.py     what a bid may be (bid_error, bid_rule) and the keypad's lowest legal bids
    scoring.py  the final scores, the chip bonus, the ranking and its tie-breaks (standings)
    state.py    the state of a new game and what can be read off a state without changing it
    auction.py  an auction from its opening to its settling (payout, free lot, cannot pay)
    moves.py    one handler per action type and the shared dispatcher (MOVES, apply)
    views.py    what a seat or the table sees, the private bid warning, the result
    history.py  the history lines of an accepted action, and what a seat may take back
    prompt.py   what a seat (or the table) may enter now, in one sentence (the phone's prompt)
    texts.py    the rules page's titles and summaries (RULES) and our readings (CLARIFICATIONS)
    scoreboard.py  the final score table, the replay's standings and rounds, the start seat, the fine
    search_terms.py  the words players say, for the rules search (TERMS)
"""

from __future__ import annotations

from companion.games.base import N_, Msg, Rules
from companion.games.serengeti import scoreboard, setup
from companion.games.serengeti.bids import bid_error, bid_hint, bid_rule
from companion.games.serengeti.facts import (
    CARDS_PER_DIGIT,
    CARDS_PER_TRIBE,
    CHIP_BONUS,
    DECK_SIZE,
    MAX_BID,
    MAX_PLAYERS,
    MIN_PLAYERS,
    PASS_BONUS,
    PENALTY_RULES,
    ROUNDS,
    START_CHIPS,
    TIE_BREAKS,
    TOTAL_CHIPS_ABACUS,
    TRIBE_POINTS,
    TRIBES,
    VARIANTS,
    lot_size,
)
from companion.games.serengeti.fields import InputError
from companion.games.serengeti.history import describe, seat_may_undo
from companion.games.serengeti.moves import MOVES, apply
from companion.games.serengeti.payout import Payout, payout, payout_explanation, payout_line
from companion.games.serengeti.prompt import prompt
from companion.games.serengeti.scoring import score, standings
from companion.games.serengeti.search_terms import TERMS
from companion.games.serengeti.state import (
    just_fined_bid,
    new,
    pass_bonus_due,
    penalty_applies,
    total_chips,
)
from companion.games.serengeti.texts import (
    CLARIFICATION_QUESTIONS,
    CLARIFICATIONS,
    FIRST_GAME,
    OTHER_READINGS,
    READS_FROM,
    RULE_SUMMARIES,
    RULES,
)
from companion.games.serengeti.views import bid_warning, result, view

# Whose move it is and who may enter what (the Rules protocol): from the moves' declaration.
turn = MOVES.turn
may_enter = MOVES.may_enter
concerns = MOVES.concerns
entry = MOVES.entry


def progress(state: dict) -> Msg:
    """Where the game stands, in a few words (lists of tables): the round of the fifteen."""
    return Msg(N_("Round %(round)s of %(rounds)s"), round=state["round"], rounds=ROUNDS)


__all__ = [
    "GAME",
    "progress",
    "prompt",
    "concerns",
    "entry",
    "may_enter",
    "turn",
    "CARDS_PER_DIGIT",
    "CARDS_PER_TRIBE",
    "CHIP_BONUS",
    "CLARIFICATION_QUESTIONS",
    "OTHER_READINGS",
    "READS_FROM",
    "CLARIFICATIONS",
    "DECK_SIZE",
    "MAX_BID",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "MOVES",
    "PASS_BONUS",
    "PENALTY_RULES",
    "ROUNDS",
    "RULE_SUMMARIES",
    "RULES",
    "START_CHIPS",
    "TIE_BREAKS",
    "TOTAL_CHIPS_ABACUS",
    "TRIBE_POINTS",
    "TRIBES",
    "VARIANTS",
    "InputError",
    "Payout",
    "apply",
    "bid_error",
    "bid_hint",
    "bid_rule",
    "bid_warning",
    "describe",
    "just_fined_bid",
    "lot_size",
    "new",
    "pass_bonus_due",
    "payout",
    "payout_explanation",
    "payout_line",
    "penalty_applies",
    "result",
    "score",
    "seat_may_undo",
    "standings",
    "total_chips",
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
    other_readings=OTHER_READINGS,
    reads_from=READS_FROM,
    variants=scoreboard.variants,
    may_undo=seat_may_undo,
    score_table=scoreboard.score_table,
    standings=scoreboard.standings_at,
    step_round=scoreboard.step_round,
    start_seat=scoreboard.start_seat,
    follow_up=scoreboard.follow_up,
    terms=TERMS,
    setup=setup.setup,
    start_pick="option",
    prompt=prompt,
    first_game=FIRST_GAME,
)

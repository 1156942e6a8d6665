"""Serengeti / Don: the facts of the game (numbers from the rule text) and the arithmetic on them
that needs nothing else: the chips, the deck, the rounds, the tribes and their points."""

from __future__ import annotations

from companion.games.base import N_

VARIANTS = ("abacus", "don")
MIN_PLAYERS, MAX_PLAYERS = 3, 5
ROUNDS = 15
TOTAL_CHIPS_ABACUS = 65
START_CHIPS = {"abacus": 10, "don": 12}
PASS_BONUS = 2  # Abacus only: chips from the bank for passing at your first turn
CHIP_BONUS = {"abacus": 3, "don": 2}  # end-of-game points for most chips
CARDS_PER_TRIBE = 5
CARDS_PER_DIGIT = 3  # each digit 0-9 is on (at most) 3 of the 30 cards
DECK_SIZE = 30
MAX_BID = 999  # no table holds that many chips; anything larger is a typo (CLARIFICATIONS)

# Tribe keys (what actions and states use) and their names (translatable).
TRIBES: dict[str, str] = {
    "nuba": N_("Nuba"),
    "massai": N_("Massai"),
    "bantu": N_("Bantu"),
    "nandi": N_("Nandi"),
    "tonga": N_("Tonga"),
    "samburu": N_("Samburu"),
}

# Points for 0..5 cards of one tribe: 1, 3, 6, 10, 15 (triangular numbers).
TRIBE_POINTS = (0, 1, 3, 6, 10, 15)

# Refusals after which the rules charge the bidder a chip (the text attaches the fine to the
# digit restriction only; see CLARIFICATIONS["penalty-which-bids"]).
PENALTY_RULES = frozenset({"bid-digit"})

# What breaks a tie on points, in order, per rule set.
TIE_BREAKS = {"abacus": ("points", "cards", "chips"), "don": ("points", "digit_sum")}


def lot_size(round_number: int) -> int:
    """Cards auctioned in a round (1-based): 1, 2, 3, 1, 2, 3, ... (15 rounds use all 30 cards)."""
    return (round_number - 1) % 3 + 1


# Open points of the rule text a table may read literally instead of our way (a table option:
# options["readings"] = {id: "literal"}); each is a reading of the rules page, with the rule's
# sentence and the other reading beside it (texts.py: READS_FROM, OTHER_READINGS).
SWITCHABLE_READINGS = ("last-player-alone", "sale-who-may")

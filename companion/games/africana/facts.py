"""Africana's facts from the rule text and the plain arithmetic on them.

Companies, start regions and starting coins, the expedition deck by player count, prices,
card counts and limits, the set bonuses, the turn actions; the set-up screen's facts, the value
of a pile of coins and the price of page turns. Coins are counted by value in silver
(1 gold coin = 5 silver).
"""

from __future__ import annotations

from typing import Any

from companion.games.base import N_, Msg, RuleError, is_int, short

# The companies' countries, in seat order: what the app calls a seat besides its player's name.
SEAT_LABELS = (N_("Italy"), N_("France"), N_("Germany"), N_("England"))

MIN_PLAYERS, MAX_PLAYERS = 2, 4
SILVER_PER_GOLD = 5

# Company number, country, colour, start region, starting coins as printed, in seat order. The
# rule text does not say which coins: we read silver; a table may read gold (starting_coins).
COMPANIES: tuple[dict[str, Any], ...] = (
    {"number": 1, "name": SEAT_LABELS[0], "colour": N_("white"), "start": "Napoli", "coins": 2},
    {"number": 2, "name": SEAT_LABELS[1], "colour": N_("blue"), "start": "Cape Town", "coins": 2},
    {"number": 3, "name": SEAT_LABELS[2], "colour": N_("yellow"), "start": "Lagos", "coins": 3},
    {"number": 4, "name": SEAT_LABELS[3], "colour": N_("red"), "start": "Jidda", "coins": 4},
)

# The open point a table may read the other way (the game option readings = {id: "literal"}):
# our reading reads the starting coins as silver, the other one as gold (texts.py).
STARTING_COINS = "starting-coins-silver"
SWITCHABLE_READINGS = (STARTING_COINS,)

# What every player receives at set-up besides the coins (rule "set-up").
RECEIVES = (
    N_("the company card"),
    N_("the explorer of your colour, placed on your start region"),
    N_("4 company markers of your colour"),
    N_("1 joker and 1 movement card drawn face down (your secret hand)"),
)

EXPEDITION_CARDS = 34  # expedition cards in the box (backs A, B, C)
C_CARDS_REMOVED = {2: 10, 3: 7, 4: 4}  # C cards removed unseen, by player count
ROW_SPACES = 5  # expedition spaces under the map, each with a join bonus printed above it
MARKERS = 4  # company markers per player: at most 4 expeditions joined at once

ADVENTURE_PRICE = 5  # silver per adventure card bought from a book
COLOUR_CHANGE_PRICE = 5  # silver per movement or guide card played as another colour
PAGE_PRICE = 1  # silver per page turned after the first free page of the turn
ADVENTURE_CARDS = 30  # 15 in each book
GUIDE_ADVENTURES = 10  # 5 colours x 2
ARTIFACT_KINDS = 5
ARTIFACT_COPIES = 4  # of each kind: two in each book
ARTIFACT_CARDS = ARTIFACT_KINDS * ARTIFACT_COPIES  # 20
HAND_LIMIT = 5  # cards in hand at the end of a turn
OPEN_ADVENTURE_LIMIT = 3  # unfinished adventure cards in front of you at the end of a turn

# Artifact set bonuses (rule "artifact-sets"): (size, identical?) -> bonus points.
SET_BONUS = {(2, True): 6, (3, True): 12, (2, False): 2, (4, False): 10}

KIND_KEYS = ("A", "B", "C", "D", "E")
KIND_NAME_MAX = 20

# Limits for values printed on cards we have not seen: generous but finite, so a typo like
# 500 instead of 5 is refused rather than scored.
MAX_PRINTED = 99
MAX_COINS = 9999
MAX_EXPEDITIONS = EXPEDITION_CARDS - min(C_CARDS_REMOVED.values())  # 30 in the biggest deck

TURN_ACTIONS = ("draw", "buy", "move")
TURN_ACTION_LABELS = {
    "draw": N_("draw 2 movement cards"),
    "buy": N_("buy adventures"),
    "move": N_("move the explorer"),
}

# Which turn action each ledger entry belongs to.
ENTRY_ACTION = {
    "buy_adventure": "buy",
    "turn_pages": "buy",
    "change_colour": "move",
    "join_expedition": "move",
    "complete_expedition": "move",
    "complete_artifact": "move",
    "complete_guide": "move",
}


def coin_value(gold: int, silver: int) -> int:
    """The value in silver of a pile of gold and silver coins (1 gold = 5 silver)."""
    for message, count in (
        (N_("The number of gold coins must be a whole number of 0 or more."), gold),
        (N_("The number of silver coins must be a whole number of 0 or more."), silver),
    ):
        if not is_int(count) or count < 0:
            raise RuleError("sheet-values", message)
    return gold * SILVER_PER_GOLD + silver


def company_name(seat: int) -> Msg:
    """The company of a seat as a translatable message parameter."""
    return Msg(SEAT_LABELS[seat])


def starting_coins(seat: int, in_gold: bool = False) -> int:
    """A company's starting coins by value in silver: the printed number read as silver coins
    (ours), or as gold coins (a table's other reading: 5 silver each)."""
    return COMPANIES[seat]["coins"] * (SILVER_PER_GOLD if in_gold else 1)


def company_facts(seat: int, in_gold: bool = False) -> dict:
    """A seat's company (number, name, colour, start region, starting coins by value in silver;
    "printed": the number in the company table, "in_gold": whether the table reads it as gold
    coins), names as Msg."""
    facts = dict(COMPANIES[seat], seat=seat)
    facts["name"] = Msg(facts["name"])
    facts["colour"] = Msg(facts["colour"])
    facts.update(printed=facts["coins"], coins=starting_coins(seat, in_gold), in_gold=in_gold)
    return facts


def setup_facts(players: int, in_gold: bool = False) -> dict:
    """Everything the set-up screen shows for this player count.

    The expedition deck is the 34 expedition cards minus the C cards removed (4 players: 4,
    3 players: 7, 2 players: 10); 5 of them are dealt to the row at once, the rest are the
    refills left. in_gold: the table reads the starting coins as gold coins.
    """
    if not is_int(players) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise RuleError(
            "players", N_("Africana is for 2 to 4 players, not %(n)s."), n=short(players)
        )
    removed = C_CARDS_REMOVED[players]
    deck = EXPEDITION_CARDS - removed
    return {
        "players": players,
        "companies": [company_facts(seat, in_gold) for seat in range(players)],
        "receives": [Msg(text) for text in RECEIVES],
        "c_cards_removed": removed,
        "expedition_deck": deck,
        "row_spaces": ROW_SPACES,
        "refills": deck - ROW_SPACES,
    }


def page_cost(pages_before: int, pages: int) -> int:
    """Silver for turning `pages` more pages when `pages_before` were turned this turn.

    The first page of a turn is free, every further page costs 1 silver.
    """
    free_left = 1 if pages_before == 0 else 0
    return max(0, pages - free_left) * PAGE_PRICE

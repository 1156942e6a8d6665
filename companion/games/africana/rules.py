"""Africana (Michael Schacht, Abacus/Z-Man 2012, 2-4 players): the pure rules.

The app sits beside the physical game. It does not know the map or the values printed on the
cards: players type what their cards show. What it keeps is the money (a ledger of named entries
so nobody does mental arithmetic), the turn order with the end-of-turn checks, the expedition row
and deck (which decides when the game ends), and the final scoring with the best artifact sets.

Coins are always counted by value in silver (1 gold coin = 5 silver).

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
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from functools import cache
from itertools import combinations
from typing import Any

from companion.games.base import N_, Msg, RuleError, Seat

SEAT_LABELS = (N_("Italy"), N_("France"), N_("Germany"), N_("England"))

# ---------------------------------------------------------------------------------------------
# Facts from the rule text
# ---------------------------------------------------------------------------------------------

MIN_PLAYERS, MAX_PLAYERS = 2, 4
SILVER_PER_GOLD = 5

# Company number, country, colour, start region, starting coins (silver), in seat order.
COMPANIES = (
    {"number": 1, "name": SEAT_LABELS[0], "colour": N_("white"), "start": "Napoli", "coins": 2},
    {"number": 2, "name": SEAT_LABELS[1], "colour": N_("blue"), "start": "Cape Town", "coins": 2},
    {"number": 3, "name": SEAT_LABELS[2], "colour": N_("yellow"), "start": "Lagos", "coins": 3},
    {"number": 4, "name": SEAT_LABELS[3], "colour": N_("red"), "start": "Jidda", "coins": 4},
)

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

RULES: dict[str, str] = {
    "players": N_("Africana is for 2 to 4 players"),
    "set-up": N_("Set-up: companies, start regions, starting coins and the expedition deck"),
    "turn-order": N_("Turns go clockwise from the start player"),
    "one-action": N_("One action per turn: draw 2 movement cards, buy adventures or move"),
    "buy-adventure": N_("Buying an adventure card costs 5 silver"),
    "page-turn": N_("Turning pages: the first page of a turn is free, then 1 silver each"),
    "change-colour": N_("Changing a card's colour costs 5 silver per card"),
    "join-expedition": N_("Joining an expedition: one marker per expedition, 4 markers in all"),
    "complete-expedition": N_("Completing an expedition pays the printed coins and points"),
    "complete-adventure": N_("Completing an adventure: artifacts pay, guides join your hand"),
    "no-debt": N_("Coins never go below 0: you cannot pay what you do not have"),
    "end-of-turn": N_("End of turn: hand limit 5, at most 3 unfinished adventures"),
    "adventure-limit": N_("A turn ends with at most 3 unfinished adventures"),
    "refill-row": N_("Refill the expedition row from the deck, left to right"),
    "game-end": N_("The game ends when the row cannot be refilled, after a full round"),
    "artifact-sets": N_(
        "Artifact sets: 2 identical 6, 3 identical 12, 2 different 2, 4 different 10"
    ),
    "artifact-limits": N_("There are 5 artifact kinds with 4 cards each"),
    "guide-penalty": N_("Completed guide adventures: 2 cost 5 points, 3 or more cost 10"),
    "other-points": N_("Other points: coins, movement cards, unfinished artifact adventures"),
    "sheet-values": N_("What a scoring sheet may hold"),
    "tie-break": N_("Ties: more coins wins, otherwise a shared victory"),
    "kind-names": N_("The table may rename the artifact kinds once"),
    "host-only": N_("Only the host may do this"),
    "game-over": N_("After the game is over only scoring sheets may change"),
    "bad-action": N_("The app did not understand the entry"),
}

CLARIFICATIONS: dict[str, str] = {
    "coins-by-value": N_(
        "Coins are counted by value in silver: a gold coin is worth 5 silver. '10 silver = 1 "
        "point' means 10 silver worth of coins, so 2 gold coins also make a point, and the tie "
        "break compares the value of the coins, not how many pieces a player holds."
    ),
    "starting-coins-silver": N_(
        "The starting coins in the company table (2, 2, 3, 4) are silver coins."
    ),
    "start-player": N_(
        "Seat 1 in the app is the start player and takes company 1 (Italy); the others take the "
        "companies in number order clockwise. Turns always start from seat 1."
    ),
    "page-turn": N_(
        "A page turn is turning one page of a book to see the next adventure cards. The first "
        "page turned during a turn is free, every further page that turn costs 1 silver, "
        "whichever book and direction. Pages can only be turned with the 'buy adventures' "
        "action; the count starts again each turn."
    ),
    "change-colour": N_(
        "Changing the colour of a movement or guide card is part of moving, so it is entered "
        "during a 'move' turn. Nothing is exchanged: the card just counts as another colour."
    ),
    "implicit-action": N_(
        "Entering a purchase or page turn chooses 'buy adventures' for the turn, and entering "
        "a colour change, a join or a completion chooses 'move', unless another action was "
        "already chosen: then the entry is refused, since a turn has only one action."
    ),
    "join-bonus": N_(
        "A join bonus is entered with the coins printed above the space; when the space shows "
        "movement cards instead, enter 0 coins and take the cards from the deck."
    ),
    "expedition-complete": N_(
        "Only a player whose marker is on an expedition may complete it. When it is completed "
        "the card leaves the row and every marker on it goes back to its owner."
    ),
    "refill-partial": N_(
        "At the end of a turn the empty spaces are filled left to right while the deck has "
        "cards. If a space stays empty, the game end is triggered. An empty deck with a full "
        "row does not trigger it yet."
    ),
    "last-round": N_(
        "After the trigger the round is played out: the game ends after the turn of the player "
        "to the right of the start player (the last seat). If the trigger happens in that very "
        "turn, the game ends at once, since every player has had the same number of turns."
    ),
    "reminders": N_(
        "The app does not see hands, so the hand limit of 5 is only a reminder: the players "
        "discard the extra cards themselves."
    ),
    "adventure-limit": N_(
        "The count of unfinished adventures comes from the entries (bought, completed, "
        "discarded), so a missed entry makes it wrong. The host can therefore end a turn over "
        "the limit anyway, and the history records it. The count itself stays as the entries "
        "leave it until the missed completion is entered in a later turn of moving."
    ),
    "sets-best": N_(
        "Each artifact card counts in at most one set, and the app picks the grouping with the "
        "highest bonus by trying every grouping. Taking the biggest set first is not always "
        "best: with three of one kind and one each of three others, a triple and a pair of "
        "different kinds give 12 + 2 = 14, but a pair of the three-card kind and four different "
        "kinds give 6 + 10 = 16. Four of a kind score as two pairs (12), the same as a triple."
    ),
    "guide-penalty": N_(
        "The guide penalty counts the completed guide adventure cards under the company card, "
        "not the guide cards in hand. An unfinished guide adventure scores nothing and costs "
        "nothing."
    ),
    "movement-cards": N_(
        "Only movement cards in hand score (1 point per 2); jokers and guide cards do not. As "
        "the hand limit is checked at the end of every turn, a final hand has at most 5 cards."
    ),
    "unfinished-artifacts": N_(
        "Each unfinished artifact adventure in front of a player scores 1 point. The game ends "
        "after a turn, when at most 3 adventures may be left in front of a player. Buying an "
        "adventure does not tell the app whether it is a guide or an artifact, so the scoring "
        "sheet leaves this number to the player unless the app is sure (no unfinished "
        "adventure, or every guide or every artifact adventure already completed)."
    ),
    "sheet-privacy": N_(
        "Coins come from and go to the bank in the open, so every ledger is public. The cards "
        "under a company card (points, artifact kinds) and the scoring sheets stay private to "
        "their seat until the result, except on the host's 'show all' screen."
    ),
    "sheet-cross-check": N_(
        "Each sheet is checked on its own (at most 4 of a kind, at most 20 artifact cards). "
        "When all sheets together claim more than 4 of a kind, the result shows a warning "
        "instead of refusing a sheet, since we cannot tell which sheet is wrong."
    ),
    "tie-break": N_(
        "Places follow the total; equal totals are ordered by coin value, and players equal in "
        "both share the place. Only a tie for first place is called a shared victory."
    ),
}

# ---------------------------------------------------------------------------------------------
# Small helpers
# ---------------------------------------------------------------------------------------------


def coin_value(gold: int, silver: int) -> int:
    """The value in silver of a pile of gold and silver coins (1 gold = 5 silver)."""
    for name, count in ((N_("gold"), gold), (N_("silver"), silver)):
        if not _is_int(count) or count < 0:
            raise RuleError(
                "sheet-values",
                N_("The number of %(what)s coins must be a whole number of 0 or more."),
                what=Msg(name),
            )
    return gold * SILVER_PER_GOLD + silver


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# What each number of an action or a sheet is called in a refusal (people never see the keys).
FIELD_LABELS = {
    "cards": N_("Cards"),
    "pages": N_("Pages"),
    "slot": N_("Expedition space"),
    "bonus_coins": N_("Join bonus (silver)"),
    "coins": N_("Coins (silver)"),
    "points": N_("Points"),
    "amount": N_("Amount (silver)"),
    "discarded_adventures": N_("Discarded adventures"),
    "guide_adventures": N_("Completed guide adventures"),
    "movement_cards": N_("Movement cards in hand"),
    "unfinished_artifacts": N_("Unfinished artifact adventures"),
    "gold": N_("Gold coins"),
    "silver": N_("Silver coins"),
}


def field_label(key: str) -> Msg:
    """A field's name for a refusal, as a translatable message."""
    return Msg(FIELD_LABELS.get(key, key))


def _int_field(
    data: Mapping, key: str, lo: int, hi: int, rule: str = "bad-action", default: Any = None
) -> int:
    """Read a whole number between lo and hi from an action or sheet, or refuse it."""
    field = field_label(key)
    if key not in data or data[key] is None:
        if default is not None:
            return default
        raise RuleError(rule, N_("The entry needs a value for '%(field)s'."), field=field)
    value = data[key]
    if not _is_int(value):
        raise RuleError(rule, N_("'%(field)s' must be a whole number."), field=field)
    if value < lo:
        if lo == 0:
            raise RuleError(
                rule, N_("'%(field)s' cannot be negative: enter 0 or more."), field=field
            )
        raise RuleError(rule, N_("'%(field)s' must be at least %(lo)s."), field=field, lo=lo)
    if value > hi:
        raise RuleError(rule, N_("'%(field)s' can be at most %(hi)s."), field=field, hi=hi)
    return value


def company_name(seat: int) -> Msg:
    """The company of a seat as a translatable message parameter."""
    return Msg(SEAT_LABELS[seat])


def company_facts(seat: int) -> dict:
    """A seat's company (number, name, colour, start region, starting coins), names as Msg."""
    facts = dict(COMPANIES[seat], seat=seat)
    facts["name"] = Msg(facts["name"])
    facts["colour"] = Msg(facts["colour"])
    return facts


# ---------------------------------------------------------------------------------------------
# Set-up facts
# ---------------------------------------------------------------------------------------------


def setup_facts(players: int) -> dict:
    """Everything the set-up screen shows for this player count.

    The expedition deck is the 34 expedition cards minus the C cards removed (4 players: 4,
    3 players: 7, 2 players: 10); 5 of them are dealt to the row at once, the rest are the
    refills left.
    """
    if not _is_int(players) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise RuleError("players", N_("Africana is for 2 to 4 players, not %(n)s."), n=str(players))
    removed = C_CARDS_REMOVED[players]
    deck = EXPEDITION_CARDS - removed
    return {
        "players": players,
        "companies": [company_facts(seat) for seat in range(players)],
        "receives": [Msg(text) for text in RECEIVES],
        "c_cards_removed": removed,
        "expedition_deck": deck,
        "row_spaces": ROW_SPACES,
        "refills": deck - ROW_SPACES,
    }


# ---------------------------------------------------------------------------------------------
# Artifact sets
# ---------------------------------------------------------------------------------------------


def _check_kinds(kinds: Sequence[str]) -> list[str]:
    """Refuse artifact holdings the game cannot produce (rule "artifact-limits")."""
    if isinstance(kinds, (str, bytes)) or not isinstance(kinds, Sequence):
        raise RuleError("bad-action", N_("The artifact kinds must be a list."))
    kinds = list(kinds)
    for kind in kinds:
        if not isinstance(kind, str) or not kind.strip():
            raise RuleError("artifact-limits", N_("Every artifact card needs its kind."))
    if len(kinds) > ARTIFACT_CARDS:
        raise RuleError(
            "artifact-limits",
            N_("There are only %(max)s artifact cards in the game; the sheet lists %(n)s."),
            max=ARTIFACT_CARDS,
            n=len(kinds),
        )
    distinct = sorted(set(kinds))
    if len(distinct) > ARTIFACT_KINDS:
        raise RuleError(
            "artifact-limits",
            N_("There are only %(max)s artifact kinds; the sheet lists %(n)s."),
            max=ARTIFACT_KINDS,
            n=len(distinct),
        )
    for kind in distinct:
        if kinds.count(kind) > ARTIFACT_COPIES:
            raise RuleError(
                "artifact-limits",
                N_(
                    "There are only 4 artifact cards of each kind; "
                    "the sheet lists %(n)s of %(kind)s."
                ),
                n=kinds.count(kind),
                kind=kind,
            )
    return kinds


@cache
def _best_from_counts(counts: tuple[int, ...]) -> tuple[int, tuple[tuple[int, ...], ...]]:
    """Best bonus and grouping (as tuples of kind indices) for the card counts per kind.

    Tries every set that can be taken next and recurses on what is left: at most 5^5 holdings,
    each memoised, so the whole search space is tiny and nothing greedy is involved.
    """
    best: tuple[int, tuple[tuple[int, ...], ...]] = (0, ())
    present = [i for i, c in enumerate(counts) if c > 0]
    options: list[tuple[int, tuple[int, ...]]] = []
    for i in present:
        if counts[i] >= 3:
            options.append((SET_BONUS[(3, True)], (i, i, i)))
        if counts[i] >= 2:
            options.append((SET_BONUS[(2, True)], (i, i)))
    for group in combinations(present, 4):
        options.append((SET_BONUS[(4, False)], group))
    for group in combinations(present, 2):
        options.append((SET_BONUS[(2, False)], group))
    for bonus, group in options:
        rest = list(counts)
        for i in group:
            rest[i] -= 1
        sub_bonus, sub_groups = _best_from_counts(tuple(rest))
        if bonus + sub_bonus > best[0]:
            best = (bonus + sub_bonus, (group,) + sub_groups)
    return best


def best_artifact_sets(kinds: Sequence[str]) -> tuple[int, list[list[str]]]:
    """The highest set bonus for these completed artifact cards and the sets that give it.

    kinds has one entry per completed artifact adventure card: its kind's label. Sets are
    2 identical (6), 3 identical (12), 2 different (2) and 4 different (10); each card is in at
    most one set (rule "artifact-sets"). The order of kinds never matters: the answer, groups
    included, is the same for any order. Cards in no set are not listed.
    """
    kinds = _check_kinds(kinds)
    labels = sorted(set(kinds))
    counts = tuple(kinds.count(label) for label in labels)
    bonus, groups = _best_from_counts(counts)
    return bonus, [[labels[i] for i in group] for group in groups]


def artifact_bonus(kinds: Sequence[str]) -> int:
    """The highest total set bonus over every grouping of these artifact cards into sets."""
    return best_artifact_sets(kinds)[0]


def greedy_artifact_sets(kinds: Sequence[str]) -> tuple[int, list[list[str]]]:
    """The obvious grouping, for comparison only (the rules page shows why it is not used):
    always take the most valuable set still possible (3 identical, 4 different, 2 identical,
    2 different). For three of one kind and one each of three others it gives 14, not 16."""
    kinds = _check_kinds(kinds)
    counts = {label: kinds.count(label) for label in sorted(set(kinds))}
    total, groups = 0, []
    while True:
        present = [label for label, n in counts.items() if n > 0]
        triple = next((label for label in present if counts[label] >= 3), None)
        pair = next((label for label in present if counts[label] >= 2), None)
        if triple is not None:
            group = [triple] * 3
        elif len(present) >= 4:
            group = present[:4]
        elif pair is not None:
            group = [pair] * 2
        elif len(present) >= 2:
            group = present[:2]
        else:
            return total, groups
        for label in group:
            counts[label] -= 1
        total += set_bonus_of(group)
        groups.append(group)


def set_bonus_of(group: Sequence[str]) -> int:
    """The bonus one set is worth (0 when the cards are not a set)."""
    identical = len(set(group)) == 1
    if not identical and len(set(group)) != len(group):
        return 0
    return SET_BONUS.get((len(group), identical), 0)


# ---------------------------------------------------------------------------------------------
# Final score
# ---------------------------------------------------------------------------------------------


def guide_penalty(completed_guides: int) -> int:
    """Points lost for completed guide adventure cards: 2 cost 5, 3 or more cost 10."""
    if completed_guides >= 3:
        return 10
    if completed_guides == 2:
        return 5
    return 0


def check_sheet(sheet: Mapping) -> dict:
    """A clean copy of a scoring sheet, or RuleError saying what is outside the game's limits.

    Coins may be given as "coins" (value in silver) or as "gold" and "silver" pieces; the clean
    sheet has "coins" only.
    """
    if not isinstance(sheet, Mapping):
        raise RuleError("bad-action", N_("The scoring sheet is missing."))
    points = sheet.get("expedition_points", [])
    if isinstance(points, (str, bytes)) or not isinstance(points, Sequence):
        raise RuleError("sheet-values", N_("The expedition points must be a list of numbers."))
    if len(points) > MAX_EXPEDITIONS:
        raise RuleError(
            "sheet-values", N_("At most %(max)s expeditions can be completed."), max=MAX_EXPEDITIONS
        )
    for value in points:
        if not _is_int(value) or not 0 <= value <= MAX_PRINTED:
            raise RuleError(
                "sheet-values",
                N_("Each expedition's points must be a whole number from 0 to %(max)s."),
                max=MAX_PRINTED,
            )
    cards = sheet.get("artifact_cards", [])
    if isinstance(cards, (str, bytes)) or not isinstance(cards, Sequence):
        raise RuleError("sheet-values", N_("The artifact cards must be a list of kind and points."))
    clean_cards = []
    for card in cards:
        if (
            isinstance(card, (str, bytes))
            or not isinstance(card, Sequence)
            or len(card) != 2
            or not isinstance(card[0], str)
        ):
            raise RuleError("sheet-values", N_("Each artifact card needs a kind and its points."))
        kind, value = card[0].strip(), card[1]
        if not _is_int(value) or not 0 <= value <= MAX_PRINTED:
            raise RuleError(
                "sheet-values",
                N_("Each artifact card's points must be a whole number from 0 to %(max)s."),
                max=MAX_PRINTED,
            )
        clean_cards.append([kind, value])
    _check_kinds([kind for kind, _ in clean_cards])
    clean = {
        "expedition_points": list(points),
        "artifact_cards": clean_cards,
        "guide_adventures": _int_field(
            sheet, "guide_adventures", 0, GUIDE_ADVENTURES, "sheet-values", default=0
        ),
        "coins": _sheet_coins(sheet),
        "movement_cards": _int_field(
            sheet, "movement_cards", 0, HAND_LIMIT, "sheet-values", default=0
        ),
        "unfinished_artifacts": _int_field(
            sheet, "unfinished_artifacts", 0, OPEN_ADVENTURE_LIMIT, "sheet-values", default=0
        ),
    }
    if len(clean_cards) + clean["unfinished_artifacts"] > ARTIFACT_CARDS:
        raise RuleError(
            "artifact-limits",
            N_(
                "There are only %(max)s artifact adventure cards: "
                "completed and unfinished together are %(n)s."
            ),
            max=ARTIFACT_CARDS,
            n=len(clean_cards) + clean["unfinished_artifacts"],
        )
    return clean


def _sheet_coins(sheet: Mapping) -> int:
    """The sheet's coins by value: "coins" in silver, or "gold" and "silver" pieces counted
    (rule "sheet-values"; clarification "coins-by-value"), never both."""
    pieces = [key for key in ("gold", "silver") if sheet.get(key) is not None]
    if not pieces:
        return _int_field(sheet, "coins", 0, MAX_COINS, "sheet-values", default=0)
    if sheet.get("coins") is not None:
        raise RuleError(
            "sheet-values",
            N_(
                "Give the coins either as their value in silver or as "
                "gold and silver pieces, not both."
            ),
        )
    gold = _int_field(sheet, "gold", 0, MAX_COINS, "sheet-values", default=0)
    silver = _int_field(sheet, "silver", 0, MAX_COINS, "sheet-values", default=0)
    value = coin_value(gold, silver)
    if value > MAX_COINS:
        raise RuleError(
            "sheet-values",
            N_("'%(field)s' can be at most %(hi)s."),
            field=field_label("coins"),
            hi=MAX_COINS,
        )
    return value


def final_score(sheet: Mapping) -> dict:
    """One player's final score with its breakdown; the sheet is checked first.

    total = expedition points + artifact points + best set bonus - guide penalty
            + coins // 10 + movement cards // 2 + unfinished artifact adventures
    """
    clean = check_sheet(sheet)
    bonus, groups = best_artifact_sets([kind for kind, _ in clean["artifact_cards"]])
    parts = {
        "expedition_points": sum(clean["expedition_points"]),
        "artifact_points": sum(value for _, value in clean["artifact_cards"]),
        "set_bonus": bonus,
        "guide_penalty": -guide_penalty(clean["guide_adventures"]),
        "coin_points": clean["coins"] // 10,
        "movement_points": clean["movement_cards"] // 2,
        "unfinished_points": clean["unfinished_artifacts"],
    }
    return dict(
        parts,
        sets=[{"kinds": group, "bonus": set_bonus_of(group)} for group in groups],
        coins=clean["coins"],
        sheet=clean,
        total=sum(parts.values()),
    )


SCORE_LINES = (
    ("expedition_points", N_("Completed expeditions")),
    ("artifact_points", N_("Completed artifact adventures")),
    ("set_bonus", N_("Artifact set bonus")),
    ("guide_penalty", N_("Completed guide adventures")),
    ("coin_points", N_("Coins (1 point per 10 silver)")),
    ("movement_points", N_("Movement cards in hand (1 point per 2)")),
    ("unfinished_points", N_("Unfinished artifact adventures")),
)


def rank_scores(scores: Sequence[Mapping]) -> dict:
    """Rank players by total; equal totals by coins; still equal: the same place.

    scores is one mapping per player with "total" and "coins" (value in silver). Returns
    "order" (indexes, best first), "places" (1-based, aligned with scores), "winners" and
    "tie_break": "none" (one highest total), "coins" (the coins decided first place) or
    "shared" (a shared victory).
    """
    if not scores:
        raise RuleError("bad-action", N_("There are no scores to rank."))
    keys = [(score["total"], score["coins"]) for score in scores]
    order = sorted(range(len(scores)), key=lambda i: (-keys[i][0], -keys[i][1], i))
    places = [0] * len(scores)
    for position, i in enumerate(order):
        previous = order[position - 1] if position else None
        if previous is not None and keys[previous] == keys[i]:
            places[i] = places[previous]
        else:
            places[i] = position + 1
    best_total = keys[order[0]][0]
    winners = [i for i in order if places[i] == 1]
    tied_on_total = [i for i in order if keys[i][0] == best_total]
    if len(tied_on_total) == 1:
        tie_break = "none"
    elif len(winners) == 1:
        tie_break = "coins"
    else:
        tie_break = "shared"
    return {"order": order, "places": places, "winners": winners, "tie_break": tie_break}


TIE_BREAK_TEXT = {
    "none": N_("The highest total wins."),
    "coins": N_("Equal totals: the player with more coins wins."),
    "shared": N_("Equal totals and equal coins: a shared victory."),
}

# ---------------------------------------------------------------------------------------------
# The table: state, ledger, turns
# ---------------------------------------------------------------------------------------------

ENTRY_LABELS = {
    "start": N_("Starting coins"),
    "buy_adventure": N_("Bought adventure cards"),
    "turn_pages": N_("Turned pages"),
    "change_colour": N_("Changed card colours"),
    "join_expedition": N_("Join bonus"),
    "complete_expedition": N_("Expedition reward"),
    "complete_artifact": N_("Artifact adventure reward"),
    "correct_coins": N_("Correction by the host"),
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


def new(options: dict, players: int) -> dict:
    """The state of a new game: companies dealt, starting coins paid, the row dealt."""
    facts = setup_facts(players)
    seats = []
    for seat in range(players):
        coins = COMPANIES[seat]["coins"]
        seats.append(
            {
                "coins": coins,
                "ledger": [{"what": "start", "amount": coins, "balance": coins, "turn": 0}],
                "adventures_open": 0,
                "tally": {"expeditions": [], "artifacts": [], "guides": 0},
                "sheet": None,
            }
        )
    return {
        "game": "africana",
        "players": players,
        "options": dict(options or {}),
        "phase": "playing",
        "turn": {"seat": 0, "number": 1, "action": None, "pages": 0, "entries": 0},
        "row": [{"card": n + 1, "joined": []} for n in range(ROW_SPACES)],
        "next_card": ROW_SPACES + 1,
        "deck": facts["expedition_deck"] - ROW_SPACES,
        "last_round": False,
        "ended_by": None,
        "seats": seats,
        "bought": 0,
        "completed_kinds": {key: 0 for key in KIND_KEYS},
        "completed_guides": 0,
        "kind_names": list(KIND_KEYS),
        "kinds_renamed": False,
        "last_end": None,
    }


def _seat_of(state: dict, action: Mapping, allow_none: bool = False) -> int | None:
    seat = action.get("seat")
    if seat is None and allow_none:
        return None
    if not _is_int(seat) or not 0 <= seat < state["players"]:
        raise RuleError("bad-action", N_("The entry must say which player it is for."))
    return seat


def _charge(state: dict, seat: int, what: str, cost: int, **details: Any) -> None:
    """Take coins from a seat, refusing what it cannot pay (rule "no-debt")."""
    have = state["seats"][seat]["coins"]
    if cost > have:
        raise RuleError(
            "no-debt",
            N_("That costs %(cost)s silver but %(company)s has only %(have)s."),
            cost=cost,
            have=have,
            company=company_name(seat),
        )
    _book(state, seat, what, -cost, **details)


def _book(state: dict, seat: int, what: str, amount: int, **details: Any) -> None:
    """Write a ledger entry and move the balance."""
    record = state["seats"][seat]
    record["coins"] += amount
    entry = {
        "what": what,
        "amount": amount,
        "balance": record["coins"],
        "turn": state["turn"]["number"],
    }
    entry.update(details)
    record["ledger"].append(entry)


def _require_playing(state: dict) -> None:
    if state["phase"] != "playing":
        raise RuleError(
            "game-over", N_("The game is over: only scoring sheets can be entered now.")
        )


def _require_turn(state: dict, seat: int) -> None:
    """Only the player whose turn it is acts (rule "turn-order")."""
    _require_playing(state)
    current = state["turn"]["seat"]
    if seat != current:
        raise RuleError(
            "turn-order",
            N_("It is %(current)s's turn, not %(seat)s's."),
            current=Seat(current),
            seat=Seat(seat),
        )


def _require_action(state: dict, seat: int, needed: str) -> None:
    """Check the turn's action is `needed`, choosing it when none is chosen yet."""
    _require_turn(state, seat)
    turn = state["turn"]
    if turn["action"] is None:
        turn["action"] = needed
    elif turn["action"] != needed:
        raise RuleError(
            "one-action",
            N_(
                "This turn's action is to %(chosen)s; that entry needs "
                "the action '%(needed)s', and a turn has only one."
            ),
            chosen=Msg(TURN_ACTION_LABELS[turn["action"]]),
            needed=Msg(TURN_ACTION_LABELS[needed]),
        )
    turn["entries"] += 1


def page_cost(pages_before: int, pages: int) -> int:
    """Silver for turning `pages` more pages when `pages_before` were turned this turn.

    The first page of a turn is free, every further page costs 1 silver.
    """
    free_left = 1 if pages_before == 0 else 0
    return max(0, pages - free_left) * PAGE_PRICE


def _kind_key(state: dict, value: Any) -> str:
    """The kind key for a key ("A".."E") or a current kind name."""
    if isinstance(value, str):
        text = value.strip()
        if text in KIND_KEYS:
            return text
        if text in state["kind_names"]:
            return KIND_KEYS[state["kind_names"].index(text)]
    raise RuleError(
        "artifact-limits",
        N_("Choose one of the five artifact kinds: %(kinds)s."),
        kinds=", ".join(state["kind_names"]),
    )


def _slot(state: dict, action: Mapping) -> int:
    return _int_field(action, "slot", 1, ROW_SPACES) - 1


def _open_slots(state: dict) -> str:
    return ", ".join(str(i + 1) for i, card in enumerate(state["row"]) if card) or "-"


# --- action handlers: each gets a private copy of the state and may change it -------------


def _choose_action(state: dict, action: Mapping) -> None:
    seat = _seat_of(state, action)
    _require_turn(state, seat)
    choice = action.get("action")
    if choice not in TURN_ACTIONS:
        raise RuleError("one-action", N_("Choose draw, buy or move."))
    turn = state["turn"]
    if turn["action"] == choice:
        raise RuleError("one-action", N_("That action is already chosen for this turn."))
    if turn["action"] is not None and turn["entries"]:
        raise RuleError(
            "one-action",
            N_(
                "This turn's action is already to %(chosen)s and "
                "entries were made for it; undo them to change it."
            ),
            chosen=Msg(TURN_ACTION_LABELS[turn["action"]]),
        )
    turn["action"] = choice


def _buy_adventure(state: dict, action: Mapping) -> None:
    seat = _seat_of(state, action)
    _require_action(state, seat, "buy")
    left = ADVENTURE_CARDS - state["bought"]
    if left == 0:
        raise RuleError("buy-adventure", N_("All 30 adventure cards have been bought."))
    cards = _int_field(action, "cards", 1, left, "buy-adventure", default=1)
    have = state["seats"][seat]["coins"]
    if cards * ADVENTURE_PRICE > have:
        raise RuleError(
            "no-debt",
            N_(
                "Adventure cards cost 5 silver each: %(cards)s cost "
                "%(cost)s silver, but %(company)s has %(have)s (enough "
                "for %(can)s)."
            ),
            cards=cards,
            cost=cards * ADVENTURE_PRICE,
            have=have,
            company=company_name(seat),
            can=have // ADVENTURE_PRICE,
        )
    _charge(state, seat, "buy_adventure", cards * ADVENTURE_PRICE, count=cards)
    state["seats"][seat]["adventures_open"] += cards
    state["bought"] += cards


def _turn_pages(state: dict, action: Mapping) -> None:
    seat = _seat_of(state, action)
    _require_action(state, seat, "buy")
    pages = _int_field(action, "pages", 1, 99, "page-turn")
    before = state["turn"]["pages"]
    cost = page_cost(before, pages)
    have = state["seats"][seat]["coins"]
    if cost > have:
        can = have + (1 if before == 0 else 0)
        raise RuleError(
            "no-debt",
            N_(
                "Pages turned: %(pages)s cost %(cost)s silver (the first "
                "page of a turn is free, then 1 each), but %(company)s "
                "has %(have)s (enough for %(can)s pages)."
            ),
            pages=pages,
            cost=cost,
            have=have,
            company=company_name(seat),
            can=can,
        )
    state["turn"]["pages"] = before + pages
    _book(state, seat, "turn_pages", -cost, count=pages)


def _change_colour(state: dict, action: Mapping) -> None:
    seat = _seat_of(state, action)
    _require_action(state, seat, "move")
    cards = _int_field(action, "cards", 1, 99, "change-colour", default=1)
    have = state["seats"][seat]["coins"]
    if cards * COLOUR_CHANGE_PRICE > have:
        raise RuleError(
            "no-debt",
            N_(
                "A colour change costs 5 silver per card: %(cards)s "
                "cost %(cost)s silver, but %(company)s has %(have)s "
                "(enough for %(can)s)."
            ),
            cards=cards,
            cost=cards * COLOUR_CHANGE_PRICE,
            have=have,
            company=company_name(seat),
            can=have // COLOUR_CHANGE_PRICE,
        )
    _charge(state, seat, "change_colour", cards * COLOUR_CHANGE_PRICE, count=cards)


def markers_used(state: dict, seat: int) -> int:
    """Company markers this seat has on expeditions in the row."""
    return sum(1 for card in state["row"] if card and seat in card["joined"])


def _expedition_for_move(state: dict, action: Mapping, rule: str) -> tuple[int, int, dict]:
    """The moving seat, the row space the action names, and the expedition lying there."""
    seat = _seat_of(state, action)
    _require_action(state, seat, "move")
    slot = _slot(state, action)
    card = state["row"][slot]
    if card is None:
        raise RuleError(
            rule,
            N_("Space %(slot)s has no expedition; expeditions lie in spaces %(open)s."),
            slot=slot + 1,
            open=_open_slots(state),
        )
    return seat, slot, card


def _join_expedition(state: dict, action: Mapping) -> None:
    seat, slot, card = _expedition_for_move(state, action, "join-expedition")
    if seat in card["joined"]:
        raise RuleError(
            "join-expedition",
            N_(
                "%(company)s has already joined the expedition "
                "in space %(slot)s: once per expedition."
            ),
            company=company_name(seat),
            slot=slot + 1,
        )
    if markers_used(state, seat) >= MARKERS:
        raise RuleError(
            "join-expedition",
            N_("All 4 markers of %(company)s are on expeditions: complete one to free a marker."),
            company=company_name(seat),
        )
    bonus = _int_field(action, "bonus_coins", 0, MAX_PRINTED, "join-expedition", default=0)
    card["joined"].append(seat)
    _book(state, seat, "join_expedition", bonus, slot=slot + 1)


def _complete_expedition(state: dict, action: Mapping) -> None:
    seat, slot, card = _expedition_for_move(state, action, "complete-expedition")
    if seat not in card["joined"]:
        raise RuleError(
            "complete-expedition",
            N_(
                "%(company)s has no marker on the expedition "
                "in space %(slot)s: only players who joined "
                "it may complete it."
            ),
            company=company_name(seat),
            slot=slot + 1,
        )
    coins = _int_field(action, "coins", 0, MAX_PRINTED, "complete-expedition")
    points = _int_field(action, "points", 0, MAX_PRINTED, "complete-expedition")
    state["row"][slot] = None  # the card goes under the company card, all markers go home
    state["seats"][seat]["tally"]["expeditions"].append(points)
    _book(state, seat, "complete_expedition", coins, slot=slot + 1)


def _take_open_adventure(state: dict, seat: int) -> None:
    record = state["seats"][seat]
    if record["adventures_open"] < 1:
        raise RuleError(
            "complete-adventure",
            N_(
                "%(company)s has no unfinished adventure card "
                "in the app: buy it first (or ask the host to "
                "fix the entries)."
            ),
            company=company_name(seat),
        )
    record["adventures_open"] -= 1


def _complete_artifact(state: dict, action: Mapping) -> None:
    seat = _seat_of(state, action)
    _require_action(state, seat, "move")
    kind = _kind_key(state, action.get("kind"))
    if state["completed_kinds"][kind] >= ARTIFACT_COPIES:
        raise RuleError(
            "artifact-limits",
            N_("All 4 artifact cards of kind %(kind)s are already completed."),
            kind=state["kind_names"][KIND_KEYS.index(kind)],
        )
    coins = _int_field(action, "coins", 0, MAX_PRINTED, "complete-adventure")
    points = _int_field(action, "points", 0, MAX_PRINTED, "complete-adventure")
    _take_open_adventure(state, seat)
    state["completed_kinds"][kind] += 1
    state["seats"][seat]["tally"]["artifacts"].append([kind, points])
    _book(state, seat, "complete_artifact", coins)


def _complete_guide(state: dict, action: Mapping) -> None:
    seat = _seat_of(state, action)
    _require_action(state, seat, "move")
    if state["completed_guides"] >= GUIDE_ADVENTURES:
        raise RuleError("complete-adventure", N_("All 10 guide adventures are already completed."))
    _take_open_adventure(state, seat)
    state["completed_guides"] += 1
    state["seats"][seat]["tally"]["guides"] += 1


def refill_row(row: list, deck: int) -> tuple[list, int, list[int], bool]:
    """Fill empty spaces left to right from the deck (rule "refill-row").

    Returns the new row, the cards left in the deck, the 0-based spaces filled and whether a
    space stayed empty (which triggers the end of the game).
    """
    row = [copy.deepcopy(card) for card in row]
    filled = []
    for i, card in enumerate(row):
        if card is None and deck > 0:
            row[i] = {"card": 0, "joined": []}
            deck -= 1
            filled.append(i)
    return row, deck, filled, any(card is None for card in row)


def _check_adventure_limit(held: int, discarded: int, seat: int, action: Mapping) -> bool:
    """Refuse to end a turn that leaves more than 3 unfinished adventures (rule
    "adventure-limit"), unless the host asks for the override; True when it is used.

    The count comes from the entries, which can miss a completion, so the host may end such a
    turn anyway; a seat may not.
    """
    if held - discarded <= OPEN_ADVENTURE_LIMIT:
        return False
    extra = held - OPEN_ADVENTURE_LIMIT
    if action.get("override") is True:
        if action.get("host") is not True:
            raise RuleError(
                "host-only",
                N_(
                    "Only the host can end a turn with more than 3 "
                    "unfinished adventures: discard %(extra)s first."
                ),
                extra=extra,
            )
        return True
    if discarded:
        raise RuleError(
            "adventure-limit",
            N_(
                "%(company)s has %(n)s unfinished adventures, and "
                "at most 3 may stay at the end of a turn: discard "
                "%(extra)s (they leave the game), not "
                "%(discarded)s."
            ),
            company=company_name(seat),
            n=held,
            extra=extra,
            discarded=discarded,
        )
    raise RuleError(
        "adventure-limit",
        N_(
            "%(company)s has %(n)s unfinished adventures, and at "
            "most 3 may stay at the end of a turn: discard "
            "%(extra)s (they leave the game) to end the turn."
        ),
        company=company_name(seat),
        n=held,
        extra=extra,
    )


def _end_turn(state: dict, action: Mapping) -> None:
    seat = _seat_of(state, action)
    _require_turn(state, seat)
    turn = state["turn"]
    if turn["action"] is None:
        raise RuleError(
            "one-action",
            N_("Choose the turn's action first: draw 2 movement cards, buy adventures or move."),
        )
    record = state["seats"][seat]
    discarded = _int_field(
        action, "discarded_adventures", 0, record["adventures_open"], "adventure-limit", default=0
    )
    override = _check_adventure_limit(record["adventures_open"], discarded, seat, action)
    record["adventures_open"] -= discarded
    row, deck, filled, gap = refill_row(state["row"], state["deck"])
    for i in filled:
        row[i]["card"] = state["next_card"]
        state["next_card"] += 1
    state["row"], state["deck"] = row, deck
    announced = gap and not state["last_round"]
    if gap:
        state["last_round"] = True
    # Rule "game-end": the round is completed, so the game ends after the last seat's turn.
    game_over = state["last_round"] and seat == state["players"] - 1
    state["last_end"] = {
        "seat": seat,
        "turn": turn["number"],
        "discarded": discarded,
        "adventures_open": record["adventures_open"],
        "override": override,
        "filled": [i + 1 for i in filled],
        "announced": announced,
        "game_over": game_over,
    }
    if game_over:
        state["phase"] = "over"
        state["ended_by"] = "deck"
        return
    state["turn"] = {
        "seat": (seat + 1) % state["players"],
        "number": turn["number"] + 1,
        "action": None,
        "pages": 0,
        "entries": 0,
    }


def _rename_kinds(state: dict, action: Mapping) -> None:
    _seat_of(state, action, allow_none=True)
    if state["kinds_renamed"]:
        raise RuleError(
            "kind-names",
            N_("The artifact kinds were already renamed: the table may rename them once."),
        )
    names = action.get("names")
    if not isinstance(names, list) or len(names) != ARTIFACT_KINDS:
        raise RuleError("kind-names", N_("Give all five artifact kinds a name."))
    clean = []
    for name in names:
        if not isinstance(name, str) or not name.strip():
            raise RuleError("kind-names", N_("Every artifact kind needs a name."))
        name = " ".join(name.split())
        if len(name) > KIND_NAME_MAX:
            raise RuleError(
                "kind-names",
                N_("A kind's name can have at most %(max)s characters."),
                max=KIND_NAME_MAX,
            )
        clean.append(name)
    if len(set(clean)) != len(clean):
        raise RuleError("kind-names", N_("Two artifact kinds cannot have the same name."))
    for name in clean:
        if name in KIND_KEYS and KIND_KEYS.index(name) != clean.index(name):
            raise RuleError(
                "kind-names",
                N_("'%(name)s' is another kind's letter: choose a different name."),
                name=name,
            )
    state["kind_names"] = clean
    state["kinds_renamed"] = True


def _submit_sheet(state: dict, action: Mapping) -> None:
    seat = _seat_of(state, action)
    if state["phase"] == "playing":
        raise RuleError("game-end", N_("Scoring sheets are filled in once the game is over."))
    raw = dict(action)
    cards = raw.get("artifact_cards", [])
    if isinstance(cards, Sequence) and not isinstance(cards, (str, bytes)):
        converted = []
        for card in cards:
            if isinstance(card, Sequence) and not isinstance(card, (str, bytes)) and len(card) == 2:
                converted.append([_kind_key(state, card[0]), card[1]])
            else:
                converted.append(card)  # check_sheet refuses it with the reason
        raw["artifact_cards"] = converted
        keys = [card[0] for card in converted if isinstance(card, list)]
        for key in KIND_KEYS:
            if keys.count(key) > ARTIFACT_COPIES:
                raise RuleError(
                    "artifact-limits",
                    N_(
                        "There are only 4 artifact cards of each "
                        "kind; the sheet lists %(n)s of %(kind)s."
                    ),
                    n=keys.count(key),
                    kind=_kind_label(state, key),
                )
    held = state["seats"][seat]["adventures_open"]
    if raw.get("unfinished_artifacts") is None and known_unfinished_artifacts(state, seat) is None:
        raise RuleError(
            "other-points",
            N_(
                "%(company)s has %(n)s unfinished adventures in the "
                "app, which cannot tell guides from artifacts: enter "
                "how many of them are artifact adventures (0 if all "
                "are guides)."
            ),
            company=company_name(seat),
            n=held,
        )
    state["seats"][seat]["sheet"] = check_sheet(raw)


def _correct_coins(state: dict, action: Mapping) -> None:
    if action.get("host") is not True:
        raise RuleError("host-only", N_("Only the host can correct a ledger."))
    _require_playing(state)
    seat = _seat_of(state, action)
    amount = _int_field(action, "amount", -MAX_COINS, MAX_COINS)
    if amount == 0:
        raise RuleError("bad-action", N_("A correction needs an amount other than 0."))
    if state["seats"][seat]["coins"] + amount < 0:
        raise RuleError(
            "no-debt",
            N_("%(company)s has %(have)s silver: a correction can take at most that much."),
            company=company_name(seat),
            have=state["seats"][seat]["coins"],
        )
    _book(state, seat, "correct_coins", amount)


def _finish_game(state: dict, action: Mapping) -> None:
    if action.get("host") is not True:
        raise RuleError("host-only", N_("Only the host can end the game early."))
    _require_playing(state)
    state["phase"] = "over"
    state["ended_by"] = "host"


HANDLERS = {
    "choose_action": _choose_action,
    "buy_adventure": _buy_adventure,
    "turn_pages": _turn_pages,
    "change_colour": _change_colour,
    "join_expedition": _join_expedition,
    "complete_expedition": _complete_expedition,
    "complete_artifact": _complete_artifact,
    "complete_guide": _complete_guide,
    "end_turn": _end_turn,
    "rename_kinds": _rename_kinds,
    "submit_sheet": _submit_sheet,
    "correct_coins": _correct_coins,
    "finish_game": _finish_game,
}


def apply(state: dict, action: dict) -> dict:
    """The state after an action, or RuleError; the given state is never changed."""
    if not isinstance(action, Mapping):
        raise RuleError("bad-action", N_("The app did not understand the entry."))
    handler = HANDLERS.get(action.get("type"))
    if handler is None:
        raise RuleError(
            "bad-action",
            N_("The app does not know the entry '%(type)s'."),
            type=str(action.get("type")),
        )
    after = copy.deepcopy(state)
    handler(after, action)
    return after


# ---------------------------------------------------------------------------------------------
# What players see
# ---------------------------------------------------------------------------------------------


def _kind_label(state: dict, key: str) -> str:
    return state["kind_names"][KIND_KEYS.index(key)]


def known_unfinished_artifacts(state: dict, seat: int) -> int | None:
    """How many of this seat's unfinished adventures are artifact adventures, when the entries
    settle it; None when they do not.

    A purchase does not say whether the card is a guide or an artifact adventure, so only these
    cases are certain: no unfinished adventure; every guide adventure already completed (all are
    artifacts); every artifact adventure already completed (all are guides). Never more than 3,
    the most that stay at the end of a turn.
    """
    held = state["seats"][seat]["adventures_open"]
    if held == 0 or sum(state["completed_kinds"].values()) >= ARTIFACT_CARDS:
        return 0
    if state["completed_guides"] >= GUIDE_ADVENTURES:
        return min(held, OPEN_ADVENTURE_LIMIT)
    return None


def suggested_sheet(state: dict, seat: int) -> dict:
    """A scoring sheet pre-filled from what the ledger recorded for this seat.

    Unfinished artifact adventures are None (for the player to fill in) unless the entries
    settle the number; unfinished guide adventures score nothing and must not be counted.
    """
    record = state["seats"][seat]
    return {
        "expedition_points": list(record["tally"]["expeditions"]),
        "artifact_cards": [[_kind_label(state, k), p] for k, p in record["tally"]["artifacts"]],
        "guide_adventures": record["tally"]["guides"],
        "coins": record["coins"],
        "movement_cards": 0,
        "unfinished_artifacts": known_unfinished_artifacts(state, seat),
    }


def _labelled_sheet(state: dict, sheet: dict | None) -> dict | None:
    if sheet is None:
        return None
    labelled = copy.deepcopy(sheet)
    labelled["artifact_cards"] = [[_kind_label(state, k), p] for k, p in sheet["artifact_cards"]]
    return labelled


def end_of_turn_checks(state: dict) -> list[Msg]:
    """Reminders for the current player before ending the turn (rules "end-of-turn",
    "refill-row")."""
    seat = state["turn"]["seat"]
    notes = [
        Msg(
            N_(
                "If you hold more than 5 cards, discard down to 5 (movement cards to the "
                "discard pile; a discarded joker or guide leaves the game)."
            )
        )
    ]
    open_adventures = state["seats"][seat]["adventures_open"]
    if open_adventures > OPEN_ADVENTURE_LIMIT:
        notes.append(
            Msg(
                N_(
                    "%(company)s has %(n)s unfinished adventures: discard %(extra)s "
                    "(they leave the game)."
                ),
                company=company_name(seat),
                n=open_adventures,
                extra=open_adventures - OPEN_ADVENTURE_LIMIT,
            )
        )
    empty = [i + 1 for i, card in enumerate(state["row"]) if card is None]
    fill = min(len(empty), state["deck"])
    if fill:
        notes.append(
            Msg(
                N_(
                    "Refill the expedition row from the deck, left to right (new: "
                    "%(fill)s; in the deck: %(deck)s)."
                ),
                fill=fill,
                deck=state["deck"],
            )
        )
    # Rule "game-end": only the first refill that leaves a space empty triggers the end; the
    # last round is then announced by its own banner, not again here.
    if fill < len(empty) and not state["last_round"]:
        if seat == state["players"] - 1:
            notes.append(
                Msg(
                    N_(
                        "The deck cannot fill the row: ending this turn ends the game, "
                        "since every player has had the same number of turns."
                    )
                )
            )
        else:
            notes.append(
                Msg(N_("The deck cannot fill the row: ending this turn starts the last round."))
            )
    return notes


def view(state: dict, seat: int | None, reveal: bool = False) -> dict:
    """What a seat's phone (or the table screen, seat None) may see.

    Public: set-up facts, turn, row with markers, deck, every ledger (coins move in the open),
    unfinished adventure counts. Private to the seat: its completed cards' points and kinds, its
    scoring sheet and a sheet suggested from its entries. reveal=True (host's "show all") and
    the finished result show every sheet.
    """
    finished = result(state) is not None
    facts = setup_facts(state["players"])
    seats = []
    for i, record in enumerate(state["seats"]):
        entry = {
            "seat": i,
            "company": company_facts(i),
            "coins": record["coins"],
            "ledger": [
                dict(line, label=Msg(ENTRY_LABELS[line["what"]])) for line in record["ledger"]
            ],
            "markers_free": MARKERS - markers_used(state, i),
            "adventures_open": record["adventures_open"],
            "sheet_submitted": record["sheet"] is not None,
        }
        if i == seat or reveal or finished:
            entry["tally"] = {
                "expeditions": list(record["tally"]["expeditions"]),
                "artifacts": [[_kind_label(state, k), p] for k, p in record["tally"]["artifacts"]],
                "guides": record["tally"]["guides"],
            }
            entry["sheet"] = _labelled_sheet(state, record["sheet"])
            entry["suggested_sheet"] = suggested_sheet(state, i)
            if record["sheet"] is not None:
                score = final_score(record["sheet"])
                entry["score"] = score["total"]
        seats.append(entry)
    turn = state["turn"]
    out = {
        "players": state["players"],
        "seat": seat,
        "setup": facts,
        "phase": state["phase"],
        "turn": {
            "seat": turn["seat"],
            "number": turn["number"],
            "round": (turn["number"] - 1) // state["players"] + 1,
            "action": turn["action"],
            "action_label": Msg(TURN_ACTION_LABELS[turn["action"]]) if turn["action"] else None,
            "pages": turn["pages"],
            "next_page_cost": page_cost(turn["pages"], 1),
        },
        "row": [
            None if card is None else {"slot": i + 1, "joined": list(card["joined"])}
            for i, card in enumerate(state["row"])
        ],
        "deck": state["deck"],
        "last_round": state["last_round"],
        "ended_by": state["ended_by"],
        "last_end": copy.deepcopy(state["last_end"]),
        "kind_names": list(state["kind_names"]),
        "kinds_renamed": state["kinds_renamed"],
        "seats": seats,
        "checks": end_of_turn_checks(state) if state["phase"] == "playing" else [],
    }
    if seat is not None:
        out["company"] = company_facts(seat)
        out["my_turn"] = state["phase"] == "playing" and turn["seat"] == seat
    return out


def result(state: dict) -> dict | None:
    """The final result once play is over and every seat has submitted its sheet.

    {"scores": [per seat: seat, company, lines (key, label, value), every breakdown field,
    "sets" with kind names and bonus, "total", "coins", "place"], "order", "winners",
    "tie_break" ("none" | "coins" | "shared"), "tie_break_text", "warnings"}; None before.
    """
    if state["phase"] != "over":
        return None
    if any(record["sheet"] is None for record in state["seats"]):
        return None
    scores = []
    for i, record in enumerate(state["seats"]):
        score = final_score(record["sheet"])
        score["sets"] = [
            {"kinds": [_kind_label(state, k) for k in group["kinds"]], "bonus": group["bonus"]}
            for group in score["sets"]
        ]
        score["sheet"] = _labelled_sheet(state, score["sheet"])
        score["lines"] = [(key, Msg(label), score[key]) for key, label in SCORE_LINES]
        score.update(seat=i, company=Msg(SEAT_LABELS[i]))
        scores.append(score)
    ranking = rank_scores(scores)
    for i, score in enumerate(scores):
        score["place"] = ranking["places"][i]
    warnings = []
    for key in KIND_KEYS:
        claimed = sum(
            1 for record in state["seats"] for k, _ in record["sheet"]["artifact_cards"] if k == key
        )
        if claimed > ARTIFACT_COPIES:
            warnings.append(
                Msg(
                    N_(
                        "The sheets together list %(n)s artifact cards of kind "
                        "%(kind)s, but only 4 exist: check the sheets."
                    ),
                    n=claimed,
                    kind=_kind_label(state, key),
                )
            )
    guides = sum(record["sheet"]["guide_adventures"] for record in state["seats"])
    if guides > GUIDE_ADVENTURES:
        warnings.append(
            Msg(
                N_(
                    "The sheets together list %(n)s completed guide adventures, but "
                    "only 10 exist: check the sheets."
                ),
                n=guides,
            )
        )
    return {
        "scores": scores,
        "order": ranking["order"],
        "winners": ranking["winners"],
        "tie_break": ranking["tie_break"],
        "tie_break_text": Msg(TIE_BREAK_TEXT[ranking["tie_break"]]),
        "warnings": warnings,
    }


def describe(before: dict, action: dict, after: dict) -> list[Msg]:
    """Plain-words history lines for an accepted action (no private points or kinds)."""
    kind = action.get("type")
    seat = action.get("seat")
    who = Seat(seat) if _is_int(seat) else None
    lines: list[Msg] = []
    if (
        kind in ENTRY_ACTION
        and before["turn"]["action"] is None
        and after["turn"]["action"] is not None
    ):
        lines.append(
            Msg(
                N_("%(seat)s chose to %(action)s."),
                seat=who,
                action=Msg(TURN_ACTION_LABELS[after["turn"]["action"]]),
            )
        )
    if who is not None and kind in ENTRY_ACTION and kind != "complete_guide":
        entry = after["seats"][seat]["ledger"][-1]
        amount, balance = entry["amount"], entry["balance"]
    else:
        amount = balance = 0
    if kind == "choose_action":
        lines.append(
            Msg(
                N_("%(seat)s chose to %(action)s."),
                seat=who,
                action=Msg(TURN_ACTION_LABELS[action["action"]]),
            )
        )
    elif kind == "buy_adventure":
        lines.append(
            Msg(
                N_(
                    "%(seat)s bought adventure cards: %(n)s for %(cost)s silver (%(balance)s left)."
                ),
                seat=who,
                n=action.get("cards", 1),
                cost=-amount,
                balance=balance,
            )
        )
    elif kind == "turn_pages":
        lines.append(
            Msg(
                N_("%(seat)s turned pages: %(n)s for %(cost)s silver (%(balance)s left)."),
                seat=who,
                n=action["pages"],
                cost=-amount,
                balance=balance,
            )
        )
    elif kind == "change_colour":
        lines.append(
            Msg(
                N_("%(seat)s changed card colours: %(n)s for %(cost)s silver (%(balance)s left)."),
                seat=who,
                n=action.get("cards", 1),
                cost=-amount,
                balance=balance,
            )
        )
    elif kind == "join_expedition":
        lines.append(
            Msg(
                N_(
                    "%(seat)s joined the expedition in space %(slot)s: +%(coins)s silver "
                    "join bonus."
                ),
                seat=who,
                slot=action["slot"],
                coins=amount,
            )
        )
    elif kind == "complete_expedition":
        lines.append(
            Msg(
                N_(
                    "%(seat)s completed the expedition in space %(slot)s: +%(coins)s "
                    "silver; its markers go home."
                ),
                seat=who,
                slot=action["slot"],
                coins=amount,
            )
        )
    elif kind == "complete_artifact":
        lines.append(
            Msg(
                N_("%(seat)s completed an artifact adventure: +%(coins)s silver."),
                seat=who,
                coins=amount,
            )
        )
    elif kind == "complete_guide":
        lines.append(
            Msg(N_("%(seat)s completed a guide adventure and takes the guide card."), seat=who)
        )
    elif kind == "end_turn":
        lines.extend(_describe_end(after))
    elif kind == "rename_kinds":
        lines.append(
            Msg(
                N_("The artifact kinds are now called %(names)s."),
                names=", ".join(after["kind_names"]),
            )
        )
    elif kind == "submit_sheet":
        lines.append(Msg(N_("%(seat)s handed in a scoring sheet."), seat=who))
    elif kind == "correct_coins":
        lines.append(
            Msg(
                N_(
                    "The host corrected the coins of %(seat)s by %(amount)s silver "
                    "(%(balance)s now)."
                ),
                seat=who,
                amount=f"{amount:+d}",
                balance=balance,
            )
        )
    elif kind == "finish_game":
        lines.append(Msg(N_("The host ended the game: fill in the scoring sheets.")))
    return lines


def _describe_end(after: dict) -> list[Msg]:
    end = after["last_end"]
    who = Seat(end["seat"])
    lines = [Msg(N_("%(seat)s ended the turn."), seat=who)]
    if end["discarded"]:
        lines.append(
            Msg(
                N_("%(seat)s discarded unfinished adventures: %(n)s."), seat=who, n=end["discarded"]
            )
        )
    if end.get("override"):
        lines.append(
            Msg(
                N_(
                    "The host ended the turn of %(seat)s with %(n)s unfinished "
                    "adventures (limit 3)."
                ),
                seat=who,
                n=end["adventures_open"],
            )
        )
    if end["filled"]:
        lines.append(
            Msg(
                N_("Refill expedition spaces %(slots)s from the deck (%(deck)s left)."),
                slots=", ".join(str(s) for s in end["filled"]),
                deck=after["deck"],
            )
        )
    if end["announced"] and not end["game_over"]:
        lines.append(
            Msg(
                N_(
                    "The expedition row cannot be refilled: this is the last round, it "
                    "ends after %(last)s's turn."
                ),
                last=Seat(after["players"] - 1),
            )
        )
    if end["game_over"]:
        lines.append(Msg(N_("The game is over: fill in the scoring sheets.")))
    else:
        lines.append(Msg(N_("Now it is %(seat)s's turn."), seat=Seat(after["turn"]["seat"])))
    return lines


def seat_may_undo(before: dict, action: dict, after: dict) -> bool:
    """A seat may take back its own entries (nothing secret is revealed by any of them), but
    not the turn end that finished the game, nor host actions."""
    if action.get("host") or action.get("type") in ("correct_coins", "finish_game"):
        return False
    if action.get("type") == "end_turn" and after["phase"] == "over":
        return False
    return _is_int(action.get("seat"))

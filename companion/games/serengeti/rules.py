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
once the game is over), "out", "cards_left", "penalties", "payout_line" (Msg), "last_payout",
"penalty_on", "me"}. "me" is None for the table; for a seat: its own chips, cards,
forbidden_digits, my_turn, may_bid, may_pass, pass_bonus, min_bid, legal_bids, must_discard,
may_sell. pass_bonus_due(state, seat) tells what passing now would earn.
bid_warning(state, seat, amount) gives the private "above your chips" warning.

result(state) -> standings(): per player (in ranking order) the per-tribe breakdown, card
points, chips, chip bonus, total, cards, digit sum, rank and decided_by; plus ranking, winners,
tie_break ("points", "cards", "chips", "digit_sum" or "shared") and tie_break_text (Msg).

Public pure functions used elsewhere with exactly these signatures: payout(), bid_error(),
score(); plus standings() (the end-screen table), payout_line() and bid_hint() (the keypad).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.games.base import N_, Msg, RuleError, Seat

# --------------------------------------------------------------------------------------------
# Facts of the game
# --------------------------------------------------------------------------------------------

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

# The rules page, in reading order: rule id -> title.
RULES: dict[str, str] = {
    "setup": N_("Set-up: chips, bank and start player"),
    "players": N_("Three to five players"),
    "rounds": N_("Fifteen rounds: lots of 1, 2, 3 cards"),
    "deck": N_("The deck: six tribes of five cards, each digit on three cards"),
    "card-tribe": N_("Entering a card: its tribe"),
    "card-digit": N_("Entering a card: its digit"),
    "turn": N_("Bidding goes clockwise from the start player"),
    "bid-number": N_("A bid is a positive whole number"),
    "bid-higher": N_("Each bid must beat the high bid"),
    "bid-digit": N_("No bid may end in a digit you own"),
    "penalty": N_("An illegal bid costs a chip"),
    "waive": N_("The host may waive a penalty"),
    "pass": N_("Passing takes you out of this auction"),
    "pass-bonus": N_("Passing at once earns 2 chips (Abacus)"),
    "free-lot": N_("Nobody bids: the start player takes the lot free"),
    "pay": N_("The winner pays the bid"),
    "payout": N_("Who receives the bid (Abacus)"),
    "payout-don": N_("Who receives the bid (Don)"),
    "cannot-pay": N_("A winner who cannot pay discards a card"),
    "card-owned": N_("Choosing one of your own cards"),
    "next-start": N_("The winner starts the next round"),
    "sale": N_("Don: selling one of your own cards"),
    "hidden-chips": N_("Chips are kept hidden"),
    "end": N_("End of the game and scoring"),
    "chip-bonus": N_("Most chips earns a bonus"),
    "tie-break": N_("Breaking ties"),
    "host": N_("Host-only actions"),
    "phase": N_("One thing at a time"),
    "action": N_("Actions the app knows"),
    "seat": N_("Seats at the table"),
    "options": N_("Table options"),
}

# The rules page: a short summary of each rule in our own words (same keys and order as RULES).
RULE_SUMMARIES: dict[str, str] = {
    "setup": N_(
        "Abacus: each player starts with 10 chips and the other chips (65 in all) form "
        "the bank. Don: 12 chips each and no bank. Keep your chips hidden. Any player "
        "may start."
    ),
    "players": N_("The game is for 3, 4 or 5 players."),
    "rounds": N_(
        "There are 15 rounds. In each, cards are turned up from the deck and auctioned "
        "together: 1 card in round 1, 2 in round 2, 3 in round 3, then 1, 2, 3 again. "
        "After 15 rounds all 30 cards are gone."
    ),
    "deck": N_(
        "30 cards: six tribes (Nuba, Massai, Bantu, Nandi, Tonga, Samburu) of five cards "
        "each. Every card shows a digit; a tribe never shows the same digit twice and each "
        "digit appears on three cards, so the app refuses a card that cannot exist."
    ),
    "card-tribe": N_("Enter the tribe shown on the card that was turned up."),
    "card-digit": N_("Enter the digit (0 to 9) shown on the card that was turned up."),
    "turn": N_(
        "The start player bids first, then the others clockwise. On your turn, bid more "
        "than the high bid or pass."
    ),
    "bid-number": N_("A bid is a whole number of chips, at least 1."),
    "bid-higher": N_("Each bid must be higher than the high bid so far."),
    "bid-digit": N_(
        "You may not bid a number whose last digit is on one of your own cards: "
        "owning a 4 rules out 4, 14, 24 and so on."
    ),
    "penalty": N_(
        "A bid that breaks the digit rule does not count and costs the bidder 1 chip "
        "(to the bank; in Don to the pot), if they have one. Then they bid again or "
        "pass."
    ),
    "waive": N_("The host may give a fine back, or the table may play without fines."),
    "pass": N_(
        "A player who passes is out of this auction. When all but one have passed, the "
        "one left wins with their bid."
    ),
    "pass-bonus": N_(
        "Abacus: a player who passes at their first turn, without bidding, takes 2 "
        "chips from the bank (what is left if the bank holds fewer). Not in Don."
    ),
    "free-lot": N_("If nobody bids at all, the start player takes the cards for nothing."),
    "pay": N_("The winner pays the bid and lays the cards face up in front of them."),
    "payout": N_(
        "Abacus: only the last digit of the bid counts, and the winner's cards never do. "
        "If only one other player owns cards with that digit, that player takes the "
        "whole bid, however many such cards they own. If two or more players own such "
        "cards, the bid is divided by the number of those cards and each card earns the "
        "same share. If nobody owns one, all the other players share it equally. Chips "
        "that do not divide go to the bank."
    ),
    "payout-don": N_(
        "Don: the pot is added to the bid. The player owning the most cards with "
        "the last digit of the bid takes it all (tied players share); with no such "
        "card the other players share it. Chips that do not divide stay in the pot."
    ),
    "cannot-pay": N_(
        "A winner who cannot pay discards one of their cards (their choice) from "
        "the game, and the auction of the same cards starts again without them."
    ),
    "card-owned": N_("Choose one of the cards that player owns."),
    "next-start": N_("The winner of an auction starts the next round."),
    "sale": N_(
        "Don: a player short of chips may, at the start of a round before any card is "
        "turned up, auction one of their own cards to the others."
    ),
    "hidden-chips": N_(
        "Everybody keeps their chips hidden: your phone shows only your own count. "
        "Chips that change hands are seen by everyone, as at the table."
    ),
    "end": N_(
        "After round 15 each player scores each tribe they own: 1, 3, 6, 10 or 15 points "
        "for 1, 2, 3, 4 or 5 cards."
    ),
    "chip-bonus": N_(
        "The player with the most chips scores 3 more points (Don: 2); tied players all score it."
    ),
    "tie-break": N_(
        "Most points wins. Abacus ties: more cards, then more chips. Don ties: the "
        "higher sum of the digits on your cards."
    ),
    "host": N_("Some actions, such as waiving a fine, only the host can do."),
    "phase": N_(
        "The app takes things in the order of play: cards first, then bids, then the next round."
    ),
    "action": N_("The app only accepts the moves the game has."),
    "seat": N_("Every action names one of the seats at the table."),
    "options": N_(
        "The table chooses the rule set (Abacus or Don), the start player and whether "
        "illegal bids are fined."
    ),
}

# Our reading of every point the rule text leaves open.
CLARIFICATIONS: dict[str, str] = {
    "free-lot-bonus": N_(
        "When nobody bids, everyone (the start player included) passed at their first turn, so "
        "in Abacus each of them takes the 2-chip pass bonus as they pass, and then the start "
        "player also takes the lot free."
    ),
    "last-player-alone": N_(
        "If nobody has bid and all but one player have passed, the last player still has a "
        "turn: a bid wins the lot at once, a pass means nobody bid and the start player takes "
        "the lot free."
    ),
    "pass-bonus-once": N_(
        "The pass bonus is paid at most once per player per round, and only to a player who "
        "has not bid in this round; a restarted auction of the same lot pays nobody twice."
    ),
    "pass-bonus-after-fine": N_(
        "A player fined for an illegal bid has called out a price, so a pass afterwards in the "
        "same round earns no pass bonus, even if the host waives the fine. With fines switched "
        "off an illegal bid is only refused and changes nothing."
    ),
    "pass-bonus-bank": N_(
        "The pass bonus comes from the bank; when the bank holds fewer than 2 chips the player "
        "takes what is left (1 or 0)."
    ),
    "bid-above-chips": N_(
        "Chips are hidden, so a bid above your own chips is legal. The app warns you privately "
        "on your phone; if you win and cannot pay, the cannot-pay rule applies."
    ),
    "chips-public": N_(
        "Only what everyone at a real table would see. Your phone shows your own count and "
        "nobody else's; everyone's count is shown at the end, and on the host's screen while "
        "the host chooses to show all chips: the history says each time the host switches "
        "that on, and the first time the host opens the seat of a player who has their own "
        "phone. Every chip that changes hands is in the history "
        "(bids paid and who received what, pass bonuses, fines and fines given back) and the "
        "bank (Don: the pot) is shown, so a player who keeps careful track could work out the "
        "others' chips, as at the table. Some entries also tell something about one player's "
        "chips: a winner who pays held at least the bid, a winner who cannot pay holds fewer "
        "chips than the bid, and a player who cannot pay a fine has no chip left."
    ),
    "cannot-pay-reveal": N_(
        "Only that they hold fewer chips than their bid: the history says they cannot pay, as "
        "everyone at a real table would see. The app does not show how many they hold."
    ),
    "cannot-pay-no-card": N_(
        "A winner who cannot pay and owns no card has nothing to discard: they simply drop out "
        "and the auction of the same lot starts again without them."
    ),
    "restart-order": N_(
        "A restarted auction begins with the round's start player, or, if that player has "
        "dropped out, with the next player clockwise who is still in. Everybody but the "
        "players who dropped out may bid again, including those who passed before. If nobody "
        "bids in the restarted auction, the player it began with takes the lot free."
    ),
    "all-dropped-out": N_(
        "If every player drops out of the auction of a lot (each won and could not pay), the "
        "lot leaves the game unsold and the same start player begins the next round."
    ),
    "penalty-which-bids": N_(
        "The 1-chip fine is for a bid ending in a digit you own (the rule it is written under). "
        "A bid that does not beat the high bid or is not a number is only refused."
    ),
    "penalty-destination": N_(
        "In Abacus the fine goes to the bank. Don has no bank, so there the fine goes to the "
        "pot and is shared out with the next payout."
    ),
    "penalty-no-chip": N_(
        "They pay nothing, and the bid still does not count. The history records the illegal "
        "bid and that the fine could not be paid, so the table learns that this player has no "
        "chip left, as everyone at a real table would see."
    ),
    "penalty-turn": N_(
        "After a fine the bid does not count and the same player bids again or passes."
    ),
    "waive-friendly": N_(
        "Tables that play friendly can switch fines off for the whole game, or the host can "
        "waive a single fine: the player's latest fine comes back from the bank (or the pot), "
        "provided it still holds a chip."
    ),
    "payout-small-bid": N_(
        "It matters only when two or more players own matching cards, as the bid is then "
        "divided per card: a bid of 1 against two players with a 1 each earns each card "
        "nothing, and the chip goes to the bank. A lone holder always takes the whole bid, "
        "however many matching cards they own: a bid of 1 against one player with two 1s pays "
        "that player the chip."
    ),
    "don-payout-tie": N_(
        "Don: players tied for the most matching cards share the bid and the pot equally; "
        "what cannot be shared stays in the pot."
    ),
    "don-pot": N_(
        "Don: the pot is added to the next bid that is paid (a lot taken free leaves the pot "
        "alone); the pot is never anybody's at the end."
    ),
    "sale-who-may": N_(
        "Don: at the start of a round, before the first card of the lot is turned up, any "
        "player who owns a card may put one of them up for auction, at most once a round. The "
        "app does not check that they are short of chips: chips are hidden and the rule names "
        "no number."
    ),
    "sale-who-is-paid": N_(
        "Don: in a sale the seller receives the whole winning bid; nobody else is paid and the "
        "pot is untouched. The seller does not bid. The auction starts with the player to the "
        "seller's left and otherwise runs like any other (digits you own may not end your "
        "bid; a winner who cannot pay discards a card and the sale restarts without them)."
    ),
    "sale-unsold": N_(
        "Don: if nobody bids for a card on sale, the seller keeps it. A sale does not change "
        "who starts the round."
    ),
    "chip-bonus-tie": N_(
        "Every player tied for most chips gets the full bonus (3 in Abacus, 2 in Don)."
    ),
    "bid-limit": N_(
        "A bid above 999 is refused as a typo: no table has that many chips (all chips together "
        "are 65 in Abacus and at most 60 in Don)."
    ),
    "chip-bonus-zero": N_(
        "The chip bonus needs at least one chip: if nobody has any, nobody gets it."
    ),
    "tie-break-shared": N_("Players still tied after every tie-break share the place."),
    "end-chips": N_("At the end everybody's chips are shown: the chip bonus needs them."),
    "fines-switch": N_(
        "The host can switch fines off (and on again) at any moment of the game; fines already "
        "paid stay paid unless the host waives them one by one."
    ),
    "start-player": N_(
        "Any player may start round 1: the host picks the start player before the first card is "
        "turned up. From round 2 on, the winner of the last auction starts."
    ),
}


# The question each clarification answers (the rules page shows it as the entry's title).
CLARIFICATION_QUESTIONS: dict[str, str] = {
    "free-lot-bonus": N_("Nobody bids: does the start player also get the pass bonus?"),
    "last-player-alone": N_(
        "Nobody has bid and all but one have passed: does the last player still have a turn?"
    ),
    "pass-bonus-once": N_("Can a player get the pass bonus twice for the same lot?"),
    "pass-bonus-after-fine": N_(
        "After a fine for an illegal bid, does a pass still earn the pass bonus?"
    ),
    "pass-bonus-bank": N_("What if the bank holds fewer than 2 chips for the pass bonus?"),
    "bid-above-chips": N_("May I bid more chips than I have?"),
    "chips-public": N_("What does the app show about the other players' chips?"),
    "cannot-pay-reveal": N_("Does the table learn the chips of a winner who cannot pay?"),
    "cannot-pay-no-card": N_("What if a winner who cannot pay owns no card?"),
    "restart-order": N_("Who starts a restarted auction, and who may bid in it?"),
    "all-dropped-out": N_("What if every player drops out of an auction?"),
    "penalty-which-bids": N_("Which illegal bids cost a chip?"),
    "penalty-destination": N_("Where does the fine go?"),
    "penalty-no-chip": N_("What if the player fined has no chip?"),
    "penalty-turn": N_("What happens after a fine?"),
    "waive-friendly": N_("Can a table play without fines?"),
    "payout-small-bid": N_("What if the bid is smaller than the number of matching cards?"),
    "don-payout-tie": N_("Don: what if several players tie for the most matching cards?"),
    "don-pot": N_("Don: when is the pot paid out?"),
    "sale-who-may": N_("Don: who may sell a card, and when?"),
    "sale-who-is-paid": N_("Don: who is paid in a sale?"),
    "sale-unsold": N_("Don: what if nobody bids for a card on sale?"),
    "chip-bonus-tie": N_("What if several players tie for the most chips?"),
    "bid-limit": N_("Is there a highest bid?"),
    "chip-bonus-zero": N_("What if nobody has a chip at the end?"),
    "tie-break-shared": N_("What if players are still tied after every tie-break?"),
    "end-chips": N_("Are the chips shown at the end?"),
    "fines-switch": N_("Can fines be switched off during the game?"),
    "start-player": N_("Who starts round 1?"),
}


# --------------------------------------------------------------------------------------------
# Errors for the pure calculators
# --------------------------------------------------------------------------------------------


class InputError(RuleError, ValueError):
    """Bad input to a pure calculator (payout, score, standings): a RuleError and a ValueError."""


def _check_variant(variant: Any) -> str:
    if variant not in VARIANTS:
        raise InputError(
            "options",
            N_("Unknown rule set %(variant)s: choose abacus or don."),
            variant=_short(variant),
        )
    return variant


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _short(value: Any) -> str:
    """A bad input value, shortened for an error message (and safe for giant ints)."""
    if _is_int(value) and abs(value) > 10**12:
        return "…"
    text = str(value)
    return text if len(text) <= 20 else text[:19] + "…"


# --------------------------------------------------------------------------------------------
# Payout
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Payout:
    """Who receives a paid bid.

    shares: player -> chips received (only players who receive at least 1).
    remainder: chips that nobody receives: to the bank (Abacus) or the new pot (Don).
    digit: the digit that counted (last digit of the bid). pool: chips shared out (the bid, plus
    the old pot in Don). matches: other players -> their matching cards (only those with one).
    method: "alone" (Abacus, one other player owns matching cards and takes the whole bid),
    "match" (Abacus, two or more do: shared per matching card), "most" (Don, most matching cards)
    or "split" (no matching card: equal split among all the other players).
    """

    shares: dict
    remainder: int
    digit: int = 0
    pool: int = 0
    matches: dict = field(default_factory=dict)
    method: str = "split"


def payout(
    bid: int, winner: str, holdings: dict[str, list[int]], *, variant: str = "abacus", pot: int = 0
) -> Payout:
    """Share a paid bid among the other players.

    holdings maps every player (the winner included) to the digits of the cards they own after
    this auction. Only the last digit of the bid counts, and the winner's cards never count.
    Abacus: if one other player owns matching cards, they take the whole bid however many they
    own; if two or more do, each matching card earns bid // (matching cards); with no match, the
    other players split the bid equally; what is left goes to the bank. Don: the old pot is added
    to the bid; the player(s) with the most matching cards take it (ties split); no match splits
    among the others; what is left is the new pot.
    """
    _check_variant(variant)
    if not _is_int(bid) or not 1 <= bid <= MAX_BID:
        raise InputError(
            "bid-number",
            N_("The bid must be a whole number from 1 to 999, not %(bid)s."),
            bid=_short(bid),
        )
    if not _is_int(pot) or not 0 <= pot <= MAX_BID:
        raise InputError(
            "payout-don",
            N_("The pot must be a whole number of chips, not %(pot)s."),
            pot=_short(pot),
        )
    if variant == "abacus" and pot:
        raise InputError("payout", N_("Abacus has no pot: odd chips go to the bank."))
    if not isinstance(holdings, Mapping):
        raise InputError("payout", N_("Say who holds which digits."))
    digit_lists = {player: _digits_of(player, digits) for player, digits in holdings.items()}

    digit = bid % 10  # rule: only the last digit of a two-digit bid counts (14 -> 4, 10 -> 0)
    pool = bid + pot if variant == "don" else bid
    others = [player for player in digit_lists if player != winner]
    matches = {p: digit_lists[p].count(digit) for p in others if digit in digit_lists[p]}

    if not others:  # only reachable from the calculator: nobody to pay
        return Payout({}, pool, digit, pool, {}, "split")
    if len(matches) == 1 and variant == "abacus":
        # rule: a lone holder receives the whole bid, however many matching cards they own; the
        # division per card is only for two or more holders (else 7 to two 7s would leave 1 over)
        raw = dict.fromkeys(matches, pool)
        method = "alone"
    elif matches and variant == "abacus":
        per_card = pool // sum(matches.values())
        raw = {p: count * per_card for p, count in matches.items()}
        method = "match"
    elif matches:
        most = max(matches.values())
        leaders = [p for p, count in matches.items() if count == most]
        raw = {p: pool // len(leaders) for p in leaders}
        method = "most"
    else:
        raw = {p: pool // len(others) for p in others}
        method = "split"
    shares = {p: amount for p, amount in raw.items() if amount > 0}
    return Payout(shares, pool - sum(shares.values()), digit, pool, matches, method)


def _digits_of(player: Any, digits: Any) -> list[int]:
    try:
        values = list(digits)
    except TypeError:
        values = None
    if (
        values is None
        or isinstance(digits, (str, bytes))
        or not all(_is_int(d) and 0 <= d <= 9 for d in values)
    ):
        raise InputError(
            "card-digit",
            N_("Each card shows one digit from 0 to 9 (check %(player)s)."),
            player=_short(player),
        )
    return values


def payout_line(
    winner: Any, bid: int, pay: Payout, *, variant: str = "abacus", pot: int = 0
) -> Msg:
    """A plain sentence: "Anna paid 13: Ben 6, Chris 6, 1 to the bank".

    winner and the keys of pay.shares may be Seat values (rendered as names) or plain names.
    """
    parts = [
        Msg(N_("%(player)s %(amount)s"), player=player, amount=amount)
        for player, amount in pay.shares.items()
    ]
    if variant == "don":
        parts.append(Msg(N_("%(count)s in the pot"), count=pay.remainder))
    elif pay.remainder:
        parts.append(Msg(N_("%(count)s to the bank"), count=pay.remainder))
    listed = _join(parts) if parts else Msg(N_("nobody"))
    if variant == "don" and pot:
        return Msg(
            N_("%(winner)s paid %(bid)s, plus %(pot)s from the pot: %(shares)s"),
            winner=winner,
            bid=bid,
            pot=pot,
            shares=listed,
        )
    return Msg(N_("%(winner)s paid %(bid)s: %(shares)s"), winner=winner, bid=bid, shares=listed)


def _join(parts: list) -> Any:
    """ "a, b, c" as nested translatable messages (parts are Msg, Seat or str)."""
    if len(parts) == 1:
        return parts[0]
    return Msg(N_("%(head)s, %(tail)s"), head=parts[0], tail=_join(parts[1:]))


# --------------------------------------------------------------------------------------------
# Bids
# --------------------------------------------------------------------------------------------


def _next_legal(least: int, forbidden: set[int]) -> int | None:
    """The smallest bid >= least whose last digit is allowed; None if every digit is forbidden."""
    least = max(least, 1)
    for candidate in range(least, least + 10):
        if candidate % 10 not in forbidden:
            return candidate
    return None


def _prev_legal(below: int, above: int, forbidden: set[int]) -> int | None:
    """The largest allowed bid < below and > above (and >= 1), or None."""
    for candidate in range(below - 1, max(above, 0, below - 11), -1):
        if candidate % 10 not in forbidden:
            return candidate
    return None


def _bid_problem(bid: Any, own_digits: Iterable[int], high_bid: int | None):
    """(rule id, msgid, params) of what is wrong with a bid, or None for a legal bid."""
    forbidden = {d % 10 for d in own_digits}
    floor = (high_bid or 0) + 1
    least = _next_legal(floor, forbidden)
    if least is None:  # a player who owns all ten digits can only pass
        return ("bid-digit", N_("You own every digit from 0 to 9, so you cannot bid: pass."), {})
    if not _is_int(bid) or not 1 <= bid <= MAX_BID:
        return (
            "bid-number",
            N_("A bid is a positive whole number of chips, at most 999: try %(least)s."),
            {"least": least},
        )
    if high_bid is not None and bid <= high_bid:
        return (
            "bid-higher",
            N_("The high bid is %(high)s: bid at least %(least)s, or pass."),
            {"high": high_bid, "least": least},
        )
    digit = bid % 10
    if digit in forbidden:
        higher = _next_legal(bid, forbidden)
        lower = _prev_legal(bid, high_bid or 0, forbidden)
        if lower is None:
            return (
                "bid-digit",
                N_("You own a %(digit)s, so no bid may end in %(digit)s: try %(higher)s."),
                {"digit": digit, "higher": higher},
            )
        return (
            "bid-digit",
            N_("You own a %(digit)s, so no bid may end in %(digit)s: try %(lower)s or %(higher)s."),
            {"digit": digit, "lower": lower, "higher": higher},
        )
    return None


def bid_error(bid: int, own_digits: Iterable[int], high_bid: int | None = None) -> str | None:
    """None for a legal bid, otherwise the reason (a translatable Msg, which is a str).

    A bid must be a positive whole number (at most MAX_BID, against typos), above the current high
    bid, and must not end in a digit shown on one of your own cards (own a 4: no 4, 14, 24...).
    """
    problem = _bid_problem(bid, list(own_digits), high_bid)
    if problem is None:
        return None
    _rule, msgid, params = problem
    return Msg(msgid, **params)


def bid_rule(bid: int, own_digits: Iterable[int], high_bid: int | None = None) -> str | None:
    """The rule id that bid_error's reason comes from (None for a legal bid)."""
    problem = _bid_problem(bid, list(own_digits), high_bid)
    return None if problem is None else problem[0]


def bid_hint(own_digits: Iterable[int], high_bid: int | None = None, count: int = 5) -> dict:
    """What a keypad shows before anyone types: forbidden last digits and the lowest legal bids."""
    forbidden = sorted({d % 10 for d in own_digits})
    bids: list[int] = []
    candidate = (high_bid or 0) + 1
    while len(forbidden) < 10 and len(bids) < count:
        candidate = _next_legal(candidate, set(forbidden))
        bids.append(candidate)
        candidate += 1
    return {"forbidden_digits": forbidden, "min_bid": bids[0] if bids else None, "legal_bids": bids}


# --------------------------------------------------------------------------------------------
# Scoring
# --------------------------------------------------------------------------------------------


def _tribe_points(count: int) -> int:
    if count > CARDS_PER_TRIBE:
        raise InputError("deck", N_("Nobody can own more than 5 cards of one tribe."))
    return TRIBE_POINTS[count]


def _chip_bonus_players(chips: Mapping[Any, int]) -> list:
    """Everyone tied for the most chips, provided the most is at least 1 (see CLARIFICATIONS)."""
    if not chips:
        return []
    most = max(chips.values())
    return [p for p, count in chips.items() if count == most] if most > 0 else []


def _check_chips(chips: Any) -> dict:
    if not isinstance(chips, Mapping) or not all(_is_int(c) and c >= 0 for c in chips.values()):
        raise InputError("end", N_("Chips are whole numbers, 0 or more."))
    return dict(chips)


def score(
    collections: dict[str, list[str]], chips: dict[str, int], *, variant: str = "abacus"
) -> dict[str, int]:
    """Final points: per tribe 1/3/6/10/15 for 1-5 cards, +3 (Don +2) to everyone tied for most chips.

    collections maps each player to the tribe of each card they own; chips maps players to their
    chips (a player missing from either mapping has no cards / no chips).
    """
    _check_variant(variant)
    chips = _check_chips(chips)
    if not isinstance(collections, Mapping):
        raise InputError("end", N_("Say which tribes each player owns."))
    players = list(dict.fromkeys([*collections, *chips]))
    bonus_to = set(_chip_bonus_players({p: chips.get(p, 0) for p in players}))
    totals = {}
    for player in players:
        tribes = collections.get(player, [])
        if isinstance(tribes, (str, bytes)) or not all(isinstance(t, str) for t in tribes):
            raise InputError(
                "end", N_("List the tribe of each card %(player)s owns."), player=_short(player)
            )
        points = sum(_tribe_points(n) for n in Counter(tribes).values())
        totals[player] = points + (CHIP_BONUS[variant] if player in bonus_to else 0)
    return totals


TIE_BREAKS = {"abacus": ("points", "cards", "chips"), "don": ("points", "digit_sum")}


def standings(
    cards: Mapping[Any, list[dict]], chips: Mapping[Any, int], *, variant: str = "abacus"
) -> dict:
    """The end screen: per-player per-tribe breakdown, chip bonus, ranking and the deciding tie-break.

    cards maps each player to their cards ({"tribe": key, "digit": d}); chips to their chips.
    Returns {"variant", "players": [row...] in ranking order, "ranking": [player...],
    "winners": [player...], "tie_break": "points" | "cards" | "chips" | "digit_sum" | "shared",
    "tie_break_text": Msg, "chip_bonus": 3 | 2, "chip_bonus_to": [player...]}. Each row: {"player",
    "tribes": {tribe: {"cards", "points"}} (all six tribes), "card_points", "chips", "chip_bonus",
    "total", "cards", "digit_sum", "rank" (shared ranks are equal), "decided_by"}.
    """
    _check_variant(variant)
    chips = _check_chips(chips)
    players = list(dict.fromkeys([*cards, *chips]))
    collections = {p: [c["tribe"] for c in cards.get(p, [])] for p in players}
    totals = score(collections, {p: chips.get(p, 0) for p in players}, variant=variant)
    bonus_to = _chip_bonus_players({p: chips.get(p, 0) for p in players})
    rows = {}
    for p in players:
        counts = Counter(collections[p])
        tribes = {
            t: {"cards": counts.get(t, 0), "points": _tribe_points(counts.get(t, 0))}
            for t in [*TRIBES, *sorted(set(counts) - set(TRIBES))]
        }
        chip_bonus = CHIP_BONUS[variant] if p in bonus_to else 0
        rows[p] = {
            "player": p,
            "tribes": tribes,
            "card_points": totals[p] - chip_bonus,
            "chips": chips.get(p, 0),
            "chip_bonus": chip_bonus,
            "total": totals[p],
            "cards": len(collections[p]),
            "digit_sum": sum(c["digit"] for c in cards.get(p, [])),
        }
    criteria = TIE_BREAKS[variant]

    def key(p):
        row = rows[p]
        return tuple(row["total"] if c == "points" else row[c] for c in criteria)

    ranking = sorted(players, key=key, reverse=True)  # stable: equal keys keep seating order
    for p in players:
        rows[p]["rank"] = 1 + sum(1 for q in players if key(q) > key(p))
        rows[p]["decided_by"] = _decided_by(p, players, key, criteria)
    winners = [p for p in ranking if rows[p]["rank"] == 1]
    tie_break = (
        "shared" if len(winners) > 1 else rows[winners[0]]["decided_by"] if winners else "shared"
    )
    return {
        "variant": variant,
        "players": [rows[p] for p in ranking],
        "ranking": ranking,
        "winners": winners,
        "tie_break": tie_break,
        "tie_break_text": _tie_break_text(winners, tie_break),
        "chip_bonus": CHIP_BONUS[variant],
        "chip_bonus_to": bonus_to,
    }


def _decided_by(player, players, key, criteria) -> str:
    """The criterion that separates player from everyone with the same points ("shared" if none)."""
    deepest = 0
    for other in players:
        if other == player or key(other)[0] != key(player)[0]:
            continue
        differing = [i for i in range(len(criteria)) if key(other)[i] != key(player)[i]]
        if not differing:
            return "shared"
        deepest = max(deepest, differing[0])
    return criteria[deepest]


_TIE_BREAK_TEXT = {
    "points": N_("%(winner)s wins on points."),
    "cards": N_("%(winner)s ties on points and wins with more cards."),
    "chips": N_("%(winner)s ties on points and cards and wins with more chips."),
    "digit_sum": N_("%(winner)s ties on points and wins with the higher sum of card digits."),
}


def _tie_break_text(winners: list, tie_break: str) -> Msg:
    if tie_break == "shared":
        return Msg(
            N_("%(winners)s share the win: every tie-break is equal."),
            winners=_join([_as_param(w) for w in winners]) if winners else Msg(N_("nobody")),
        )
    return Msg(_TIE_BREAK_TEXT[tie_break], winner=_as_param(winners[0]))


def _as_param(player: Any) -> Any:
    if isinstance(player, (Seat, str, Msg)):
        return player
    if _is_int(player):
        return Seat(player)
    return str(player)


# --------------------------------------------------------------------------------------------
# The game: set-up
# --------------------------------------------------------------------------------------------


def lot_size(round_number: int) -> int:
    """Cards auctioned in a round (1-based): 1, 2, 3, 1, 2, 3, ... (15 rounds use all 30 cards)."""
    return (round_number - 1) % 3 + 1


def new(options: dict, players: int) -> dict:
    """A new game: Abacus 10 chips each and a bank of 65 - 10 x players; Don 12 each, no bank."""
    if options is not None and not isinstance(options, Mapping):
        raise RuleError("options", N_("The table options are missing."))
    options = dict(options or {})
    variant = options.get("variant", "abacus")
    if variant not in VARIANTS:
        raise RuleError(
            "options",
            N_("Unknown rule set %(variant)s: choose abacus or don."),
            variant=_short(variant),
        )
    if not _is_int(players) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise RuleError(
            "players",
            N_("Serengeti is for 3 to 5 players, not %(players)s."),
            players=_short(players),
        )
    start = options.get("start", 0)
    if not _is_int(start) or not 0 <= start < players:
        raise RuleError(
            "options", N_("The start player must be a seat from 1 to %(players)s."), players=players
        )
    penalty = options.get("penalty", True)
    if not isinstance(penalty, bool):
        raise RuleError("options", N_("The penalty option is on or off."))
    chips = START_CHIPS[variant]
    return {
        "variant": variant,
        "players": players,
        "penalty_on": penalty,
        "round": 1,
        "start": start,
        "phase": "reveal",
        "chips": [chips] * players,
        "bank": TOTAL_CHIPS_ABACUS - chips * players if variant == "abacus" else None,
        "pot": 0 if variant == "don" else None,
        "cards": [[] for _ in range(players)],
        "out": [],  # cards out of the game: discarded by winners who could not pay, unsold lots
        "lot": [],
        "auction": None,
        "sold_this_round": [],
        "penalties": [],
        "last_payout": None,
        "events": [],
    }


def total_chips(state: dict) -> int:
    """Every chip in the game: players + bank (Abacus) or + pot (Don). Never changes."""
    return sum(state["chips"]) + (state["bank"] or 0) + (state["pot"] or 0)


def penalty_applies(state: dict, rule_id: str) -> bool:
    """Should the web layer follow a refusal with this rule id by a "penalty" action?"""
    return (
        bool(state.get("penalty_on")) and rule_id in PENALTY_RULES and state["phase"] == "auction"
    )


# --------------------------------------------------------------------------------------------
# The game: apply
# --------------------------------------------------------------------------------------------


def _clone(value: Any) -> Any:
    """A deep copy of plain JSON-like data (dicts, lists, scalars): much faster than deepcopy."""
    if isinstance(value, dict):
        return {k: _clone(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_clone(v) for v in value]
    return value


def apply(state: dict, action: dict) -> dict:
    """The state after an action (a new dict; the input is never changed). Raises RuleError."""
    if not isinstance(action, Mapping):
        raise RuleError("action", N_("An action must be a form with a type."))
    kind = action.get("type")
    handler = _HANDLERS.get(kind) if isinstance(kind, str) else None
    if handler is None:
        raise RuleError("action", N_("The app knows no action %(type)s here."), type=_short(kind))
    host = action.get("host", False)
    if not isinstance(host, bool):
        raise RuleError("action", N_("The host flag must be true or false."))
    if state["phase"] == "over":
        raise RuleError("phase", N_("The game is over."))
    new_state = _clone(state)
    new_state["events"] = []
    handler(new_state, action)
    return new_state


def _seat_of(state: dict, action: Mapping, *, required: bool = True) -> int | None:
    seat = action.get("seat")
    if seat is None and not required:
        return None
    if not _is_int(seat) or not 0 <= seat < state["players"]:
        raise RuleError(
            "seat", N_("Choose a seat from 1 to %(players)s."), players=state["players"]
        )
    return seat


def _int_field(value: Any) -> int | None:
    """An int from an int or a string of digits (forms send strings); None if it is neither."""
    if _is_int(value):
        return value
    if isinstance(value, str):
        text = value.strip()
        body = text[1:] if text.startswith("-") else text
        if body.isascii() and body.isdecimal() and len(body) <= 9:
            return int(text)
    return None


def _card_of(action: Mapping) -> dict:
    tribe = action.get("tribe")
    key = tribe.strip().lower() if isinstance(tribe, str) else None
    if key not in TRIBES:
        raise RuleError(
            "card-tribe",
            N_("%(tribe)s is not a tribe: choose Nuba, Massai, Bantu, Nandi, Tonga or Samburu."),
            tribe=_short(tribe),
        )
    digit = _int_field(action.get("digit"))
    if digit is None or not 0 <= digit <= 9:
        raise RuleError(
            "card-digit",
            N_("A card shows one digit from 0 to 9, not %(digit)s."),
            digit=_short(action.get("digit")),
        )
    return {"tribe": key, "digit": digit}


def _card_msg(card: dict) -> Msg:
    return Msg(N_("%(tribe)s %(digit)s"), tribe=Msg(TRIBES[card["tribe"]]), digit=card["digit"])


def _waiting_for(state: dict) -> Msg:
    """What the game waits for now, in words (used in "not now" refusals)."""
    phase = state["phase"]
    if phase == "reveal":
        return Msg(
            N_("the table enters card %(n)s of %(size)s for round %(round)s."),
            n=len(state["lot"]) + 1,
            size=lot_size(state["round"]),
            round=state["round"],
        )
    if phase == "auction":
        return Msg(N_("%(seat)s bids or passes."), seat=Seat(state["auction"]["turn"]))
    if phase == "discard":
        return Msg(N_("%(seat)s discards a card."), seat=Seat(state["auction"]["defaulter"]))
    return Msg(N_("the game is over."))


def _need_phase(state: dict, *phases: str) -> None:
    if state["phase"] not in phases:
        raise RuleError("phase", N_("Not now: %(waiting)s"), waiting=_waiting_for(state))


def _seen_cards(state: dict) -> list[dict]:
    """Every card turned up so far: owned, out of the game, or in the lot on offer."""
    return [c for cards in state["cards"] for c in cards] + state["out"] + state["lot"]


def _check_deck(state: dict, card: dict) -> None:
    """The deck's invariants: no digit twice in a tribe, <= 5 cards a tribe, <= 3 of a digit."""
    seen = _seen_cards(state)
    if card in seen:
        raise RuleError(
            "deck",
            N_("%(card)s is already in the game: no tribe shows a digit twice."),
            card=_card_msg(card),
        )
    if sum(c["tribe"] == card["tribe"] for c in seen) >= CARDS_PER_TRIBE:
        raise RuleError(
            "deck",
            N_("All 5 %(tribe)s cards are already in the game."),
            tribe=Msg(TRIBES[card["tribe"]]),
        )
    if sum(c["digit"] == card["digit"] for c in seen) >= CARDS_PER_DIGIT:
        raise RuleError(
            "deck", N_("All 3 cards with a %(digit)s are already in the game."), digit=card["digit"]
        )


def _act_card(state: dict, action: Mapping) -> None:
    _need_phase(state, "reveal")
    _seat_of(state, action, required=False)
    card = _card_of(action)
    _check_deck(state, card)
    state["lot"].append(card)
    state["events"].append({"e": "card", "card": card, "round": state["round"]})
    if len(state["lot"]) == lot_size(state["round"]):
        _open_auction(state, kind="lot", first=state["start"])


def _open_auction(
    state: dict, *, kind: str, first: int, seller: int | None = None, card: dict | None = None
) -> None:
    state["auction"] = {
        "kind": kind,
        "seller": seller,
        "card": card,
        "round_start": first,  # who the auction (and every restart) begins with, if still in
        "starter": first,
        "turn": first,
        "high": None,
        "high_seat": None,
        "passed": [],
        "excluded": [],
        "bid_this_round": [],
        "bonus_paid": [],
        "defaulter": None,
        "default_bid": None,
    }
    state["phase"] = "auction"
    _begin_attempt(state)


def _eligible(state: dict) -> list[int]:
    """Seats that may take part in this auction: not dropped out, not the seller."""
    auction = state["auction"]
    return [
        s
        for s in range(state["players"])
        if s not in auction["excluded"] and s != auction["seller"]
    ]


def _active(state: dict) -> list[int]:
    return [s for s in _eligible(state) if s not in state["auction"]["passed"]]


def _clockwise_from(state: dict, seat: int, candidates: list[int], *, include: bool) -> int | None:
    """The first candidate seat clockwise from seat (seat itself first if include)."""
    n = state["players"]
    for step in range(0 if include else 1, n + 1):
        s = (seat + step) % n
        if s in candidates:
            return s
    return None


def _begin_attempt(state: dict) -> None:
    """Start (or restart) the auction of the current lot or sale with whoever is still in."""
    auction = state["auction"]
    auction.update(high=None, high_seat=None, passed=[], defaulter=None, default_bid=None)
    starter = _clockwise_from(state, auction["round_start"], _eligible(state), include=True)
    if starter is None:
        _nobody_left(state)
        return
    auction["starter"] = auction["turn"] = starter
    state["phase"] = "auction"
    state["events"].append(
        {
            "e": "open",
            "kind": auction["kind"],
            "starter": starter,
            "restart": bool(auction["excluded"]),
        }
    )


def _act_bid(state: dict, action: Mapping) -> None:
    _need_phase(state, "auction")
    seat = _seat_of(state, action)
    auction = state["auction"]
    _need_turn(state, seat)
    amount = _int_field(action.get("amount"))
    problem = _bid_problem(
        amount if amount is not None else action.get("amount"),
        _digits(state, seat),
        auction["high"],
    )
    if problem is not None:
        rule, msgid, params = problem
        raise RuleError(rule, msgid, **params)
    auction["high"], auction["high_seat"] = amount, seat
    if seat not in auction["bid_this_round"]:
        auction["bid_this_round"].append(seat)
    state["events"].append({"e": "bid", "seat": seat, "amount": amount})
    _advance(state, seat)


def _act_pass(state: dict, action: Mapping) -> None:
    _need_phase(state, "auction")
    seat = _seat_of(state, action)
    auction = state["auction"]
    _need_turn(state, seat)
    due = _pass_bonus_is_due(state, seat)
    auction["passed"].append(seat)
    bonus = 0
    if due:
        bonus = min(PASS_BONUS, state["bank"])
        state["bank"] -= bonus
        state["chips"][seat] += bonus
        auction["bonus_paid"].append(seat)
    state["events"].append({"e": "pass", "seat": seat, "bonus": bonus, "due": due})
    _advance(state, seat)


def _pass_bonus_is_due(state: dict, seat: int) -> bool:
    """Abacus: passing without ever bidding (or being fined for an illegal bid) for this lot earns
    the pass bonus, once per round. Don has no pass bonus, and a sale is not a lot."""
    auction = state["auction"]
    return (
        state["variant"] == "abacus"
        and auction is not None
        and auction["kind"] == "lot"
        and seat not in auction["bid_this_round"]
        and seat not in auction["bonus_paid"]
    )


def pass_bonus_due(state: dict, seat: int) -> int:
    """The chips a pass by this seat would earn now (0 if it is not their turn or none is due)."""
    auction = state["auction"]
    if (
        state["phase"] != "auction"
        or auction["turn"] != seat
        or not _pass_bonus_is_due(state, seat)
    ):
        return 0
    return min(PASS_BONUS, state["bank"])


def _need_turn(state: dict, seat: int) -> None:
    turn = state["auction"]["turn"]
    if seat != turn:
        raise RuleError(
            "turn",
            N_("It is not %(seat)s's turn: %(turn)s bids or passes now."),
            seat=Seat(seat),
            turn=Seat(turn),
        )


def _digits(state: dict, seat: int) -> list[int]:
    return [c["digit"] for c in state["cards"][seat]]


def _advance(state: dict, last: int) -> None:
    """After a bid or pass: end the auction if it is decided, else hand the turn on clockwise."""
    auction = state["auction"]
    active = _active(state)
    if auction["high"] is None and not active:
        _nobody_bid(state)
    elif auction["high"] is not None and active == [auction["high_seat"]]:
        _resolve(state, auction["high_seat"], auction["high"])
    else:
        auction["turn"] = _clockwise_from(state, last, active, include=False)


def _seller_keeps_card(state: dict) -> None:
    """A Don sale nobody bought (or could pay for): the card stays with its seller."""
    auction = state["auction"]
    state["events"].append({"e": "kept", "seat": auction["seller"], "card": auction["card"]})
    _end_sale(state)


def _nobody_bid(state: dict) -> None:
    auction = state["auction"]
    if auction["kind"] == "sale":
        _seller_keeps_card(state)
        return
    starter = auction["starter"]
    state["cards"][starter].extend(state["lot"])
    state["events"].append({"e": "free", "seat": starter, "cards": list(state["lot"])})
    state["last_payout"] = {"kind": "free", "winner": starter, "bid": 0}
    _end_round(state, next_start=starter)


def _nobody_left(state: dict) -> None:
    """Everyone dropped out: an unsold lot leaves the game; a card on sale stays with the seller."""
    if state["auction"]["kind"] == "sale":
        _seller_keeps_card(state)
        return
    state["out"].extend(state["lot"])
    state["events"].append({"e": "unsold", "cards": list(state["lot"])})
    state["last_payout"] = {"kind": "unsold", "winner": None, "bid": 0}
    _end_round(state, next_start=state["start"])


def _resolve(state: dict, winner: int, bid: int) -> None:
    """The auction is won: pay if possible, else the winner must discard and drop out."""
    auction = state["auction"]
    state["events"].append({"e": "won", "seat": winner, "bid": bid, "kind": auction["kind"]})
    if state["chips"][winner] < bid:
        auction["defaulter"], auction["default_bid"] = winner, bid
        has_card = bool(state["cards"][winner])
        state["events"].append(
            {"e": "cannot_pay", "seat": winner, "bid": bid, "must_discard": has_card}
        )
        if has_card:
            state["phase"] = "discard"
        else:  # nothing to discard (CLARIFICATIONS["cannot-pay-no-card"])
            _drop_out(state, winner)
        return
    state["chips"][winner] -= bid
    if auction["kind"] == "sale":
        _complete_sale(state, winner, bid)
    else:
        _complete_lot(state, winner, bid)


def _complete_lot(state: dict, winner: int, bid: int) -> None:
    state["cards"][winner].extend(state["lot"])
    holdings = {s: _digits(state, s) for s in range(state["players"])}
    old_pot = state["pot"] or 0
    pay = payout(bid, winner, holdings, variant=state["variant"], pot=old_pot)
    for seat, amount in pay.shares.items():
        state["chips"][seat] += amount
    if state["variant"] == "abacus":
        state["bank"] += pay.remainder
    else:
        state["pot"] = pay.remainder
    record = {
        "kind": "lot",
        "winner": winner,
        "bid": bid,
        "pot": old_pot,
        "digit": pay.digit,
        "method": pay.method,
        "shares": [[s, a] for s, a in pay.shares.items()],
        "remainder": pay.remainder,
        "matches": [[s, c] for s, c in pay.matches.items()],
    }
    state["last_payout"] = record
    state["events"].append({"e": "payout", **record})
    _end_round(state, next_start=winner)


def _complete_sale(state: dict, buyer: int, bid: int) -> None:
    auction = state["auction"]
    seller, card = auction["seller"], auction["card"]
    state["chips"][seller] += bid  # CLARIFICATIONS["sale-who-is-paid"]: the seller takes it all
    state["cards"][seller].remove(card)
    state["cards"][buyer].append(card)
    record = {"kind": "sale", "winner": buyer, "seller": seller, "bid": bid, "card": card}
    state["last_payout"] = record
    state["events"].append({"e": "sold", **record})
    _end_sale(state)


def _end_sale(state: dict) -> None:
    state["auction"] = None
    state["phase"] = "reveal"


def _end_round(state: dict, *, next_start: int) -> None:
    state["auction"] = None
    state["lot"] = []
    state["sold_this_round"] = []
    if state["round"] >= ROUNDS:
        state["phase"] = "over"
        state["events"].append({"e": "over"})
        return
    state["round"] += 1
    state["start"] = next_start
    state["phase"] = "reveal"
    state["events"].append(
        {
            "e": "round",
            "round": state["round"],
            "start": next_start,
            "size": lot_size(state["round"]),
        }
    )


def _drop_out(state: dict, seat: int) -> None:
    state["auction"]["excluded"].append(seat)
    _begin_attempt(state)


def _act_discard(state: dict, action: Mapping) -> None:
    _need_phase(state, "discard")
    seat = _seat_of(state, action)
    defaulter = state["auction"]["defaulter"]
    if seat != defaulter:
        raise RuleError(
            "cannot-pay",
            N_("Only %(seat)s, who cannot pay, discards a card now."),
            seat=Seat(defaulter),
        )
    card = _owned_card(state, seat, action)
    state["cards"][seat].remove(card)
    state["out"].append(card)
    state["events"].append({"e": "discard", "seat": seat, "card": card})
    _drop_out(state, seat)


def _owned_card(state: dict, seat: int, action: Mapping) -> dict:
    card = _card_of(action)
    if card not in state["cards"][seat]:
        owned = [_card_msg(c) for c in state["cards"][seat]]
        raise RuleError(
            "card-owned",
            N_("%(seat)s owns no %(card)s; their cards: %(owned)s."),
            seat=Seat(seat),
            card=_card_msg(card),
            owned=_join(owned) if owned else Msg(N_("none")),
        )
    return card


def _act_sell(state: dict, action: Mapping) -> None:
    if state["variant"] != "don":
        raise RuleError(
            "sale",
            N_("Selling one of your own cards is a Don rule; this table plays the Abacus rules."),
        )
    _need_phase(state, "reveal")
    seat = _seat_of(state, action)
    if state["lot"]:
        raise RuleError(
            "sale",
            N_("A card can be offered only before the first card of the round is turned up."),
        )
    if seat in state["sold_this_round"]:
        raise RuleError(
            "sale", N_("%(seat)s has already offered a card this round."), seat=Seat(seat)
        )
    card = _owned_card(state, seat, action)
    state["sold_this_round"].append(seat)
    state["events"].append({"e": "offer", "seat": seat, "card": card})
    _open_auction(state, kind="sale", first=(seat + 1) % state["players"], seller=seat, card=card)


def _act_penalty(state: dict, action: Mapping) -> None:
    if not state["penalty_on"]:
        raise RuleError("penalty", N_("This table plays without fines for illegal bids."))
    _need_phase(state, "auction")
    seat = _seat_of(state, action)
    turn = state["auction"]["turn"]
    if seat != turn:
        raise RuleError(
            "penalty", N_("Only the player on turn (%(turn)s) can be fined now."), turn=Seat(turn)
        )
    bid = action.get("bid")
    bid = _int_field(bid) if bid is not None else None
    paid = 1 if state["chips"][seat] >= 1 else 0
    state["chips"][seat] -= paid
    to = "bank" if state["variant"] == "abacus" else "pot"
    state[to] += paid
    # The illegal bid was still a price called out: passing afterwards is not "passing at once",
    # so no pass bonus for this lot (CLARIFICATIONS["pass-bonus-after-fine"]).
    if seat not in state["auction"]["bid_this_round"]:
        state["auction"]["bid_this_round"].append(seat)
    state["penalties"].append(
        {"seat": seat, "round": state["round"], "paid": paid, "bid": bid, "to": to, "waived": False}
    )
    state["events"].append({"e": "penalty", "seat": seat, "paid": paid, "bid": bid, "to": to})


def _act_waive(state: dict, action: Mapping) -> None:
    if action.get("host") is not True:
        raise RuleError("host", N_("Only the host can waive a fine."))
    if action.get("player") is not None:
        seat = _seat_of(state, {"seat": action.get("player")})
    else:
        seat = _seat_of(state, action)
    open_fines = [
        p for p in state["penalties"] if p["seat"] == seat and p["paid"] and not p["waived"]
    ]
    if not open_fines:
        raise RuleError("waive", N_("%(seat)s has no fine to waive."), seat=Seat(seat))
    fine = open_fines[-1]
    if state[fine["to"]] < fine["paid"]:
        raise RuleError(
            "waive",
            N_("The %(place)s has no chip left to give back."),
            place=Msg(N_("bank")) if fine["to"] == "bank" else Msg(N_("pot")),
        )
    state[fine["to"]] -= fine["paid"]
    state["chips"][seat] += fine["paid"]
    fine["waived"] = True
    state["events"].append({"e": "waive", "seat": seat, "paid": fine["paid"], "to": fine["to"]})


def _act_fines(state: dict, action: Mapping) -> None:
    if action.get("host") is not True:
        raise RuleError("host", N_("Only the host can switch fines on or off."))
    on = action.get("on")
    if not isinstance(on, bool):
        raise RuleError("waive", N_("Fines are either on or off."))
    if on == state["penalty_on"]:
        raise RuleError(
            "waive", N_("Fines are already on.") if on else N_("Fines are already off.")
        )
    state["penalty_on"] = on
    state["events"].append({"e": "fines", "on": on})


def _act_start(state: dict, action: Mapping) -> None:
    if action.get("host") is not True:
        raise RuleError("host", N_("Only the host can choose the start player."))
    if state["round"] != 1 or state["phase"] != "reveal" or state["lot"]:
        raise RuleError(
            "setup", N_("The start player can only be chosen before the first card is turned up.")
        )
    seat = _seat_of(state, {"seat": action.get("player")})
    state["start"] = seat
    state["events"].append({"e": "start", "seat": seat})


_HANDLERS = {
    "card": _act_card,
    "bid": _act_bid,
    "pass": _act_pass,
    "discard": _act_discard,
    "penalty": _act_penalty,
    "waive": _act_waive,
    "sell": _act_sell,
    "fines": _act_fines,
    "start": _act_start,
}


# --------------------------------------------------------------------------------------------
# The game: views, result, history
# --------------------------------------------------------------------------------------------


def _by_tribe(cards: list[dict]) -> dict[str, list[int]]:
    """{tribe: sorted digits} for the tribes present, in TRIBES order."""
    return {
        t: sorted(c["digit"] for c in cards if c["tribe"] == t)
        for t in TRIBES
        if any(c["tribe"] == t for c in cards)
    }


def _last_payout_line(state: dict) -> Msg | None:
    record = state["last_payout"]
    if record is None:
        return None
    if record["kind"] == "free":
        return Msg(N_("Nobody bid: %(seat)s took the lot free."), seat=Seat(record["winner"]))
    if record["kind"] == "unsold":
        return Msg(N_("Nobody could pay: the lot left the game."))
    if record["kind"] == "sale":
        return Msg(
            N_("%(buyer)s paid %(bid)s to %(seller)s for %(card)s."),
            buyer=Seat(record["winner"]),
            bid=record["bid"],
            seller=Seat(record["seller"]),
            card=_card_msg(record["card"]),
        )
    pay = Payout({Seat(s): a for s, a in record["shares"]}, record["remainder"])
    return payout_line(
        Seat(record["winner"]), record["bid"], pay, variant=state["variant"], pot=record["pot"]
    )


def view(state: dict, seat: int | None, reveal: bool = False) -> dict:
    """What a seat's phone (or the table, seat None) may see.

    Public: round, lot, start player, phase, whose turn, high bid, bank / pot, every seat's cards
    by tribe (and so their forbidden digits), cards out of the game, fines, the last payout line.
    Chips: a seat sees only its own (under "me"); the table sees none unless reveal=True (the
    host's "show all"); at the end everybody's chips are shown (the chip bonus needs them).
    """
    if seat is not None and (not _is_int(seat) or not 0 <= seat < state["players"]):
        raise RuleError(
            "seat", N_("Choose a seat from 1 to %(players)s."), players=state["players"]
        )
    show_chips = bool(reveal) or state["phase"] == "over"
    auction = state["auction"]
    public_auction = None
    if auction is not None:
        public_auction = {
            k: _clone(auction[k])
            for k in (
                "kind",
                "seller",
                "card",
                "starter",
                "turn",
                "high",
                "high_seat",
                "passed",
                "excluded",
                "defaulter",
                "default_bid",
            )
        }
        public_auction["active"] = _active(state)
    seats = []
    for s in range(state["players"]):
        row = {
            "seat": s,
            "cards": _by_tribe(state["cards"][s]),
            "card_count": len(state["cards"][s]),
            "forbidden_digits": sorted(set(_digits(state, s))),
        }
        if show_chips:
            row["chips"] = state["chips"][s]
        seats.append(row)
    return {
        "variant": state["variant"],
        "players": state["players"],
        "round": state["round"],
        "rounds": ROUNDS,
        "lot_size": lot_size(state["round"]),
        "phase": state["phase"],
        "start": state["start"],
        "lot": _clone(state["lot"]),
        "auction": public_auction,
        "to_act": _to_act(state),
        "waiting_for": _waiting_for(state),
        "bank": state["bank"],
        "pot": state["pot"],
        "seats": seats,
        "out": _clone(state["out"]),
        "cards_left": DECK_SIZE - len(_seen_cards(state)),
        "penalties": _clone(state["penalties"]),
        "payout_line": _last_payout_line(state),
        "last_payout": _clone(state["last_payout"]),
        "penalty_on": state["penalty_on"],
        "me": None if seat is None else _my_view(state, seat),
    }


def _to_act(state: dict) -> int | None:
    """The seat the game waits for (None: the table enters a card, or the game is over)."""
    if state["phase"] == "auction":
        return state["auction"]["turn"]
    if state["phase"] == "discard":
        return state["auction"]["defaulter"]
    return None


def _my_view(state: dict, seat: int) -> dict:
    auction = state["auction"]
    my_turn = state["phase"] == "auction" and auction["turn"] == seat
    high = auction["high"] if auction else None
    hint = bid_hint(_digits(state, seat), high)
    return {
        "seat": seat,
        "chips": state["chips"][seat],  # private: the page warns when a bid is above this
        "cards": _by_tribe(state["cards"][seat]),
        "forbidden_digits": hint["forbidden_digits"],
        "my_turn": my_turn,
        "may_bid": my_turn and hint["min_bid"] is not None,
        "may_pass": my_turn,
        "min_bid": hint["min_bid"] if my_turn else None,
        "legal_bids": hint["legal_bids"] if my_turn else [],
        "pass_bonus": pass_bonus_due(state, seat),
        "must_discard": state["phase"] == "discard" and auction["defaulter"] == seat,
        "may_sell": (
            state["variant"] == "don"
            and state["phase"] == "reveal"
            and not state["lot"]
            and seat not in state["sold_this_round"]
            and bool(state["cards"][seat])
        ),
    }


def bid_warning(state: dict, seat: int, amount: int) -> Msg | None:
    """A private warning for the bidder's phone when a (legal) bid is above their chips."""
    if _is_int(amount) and amount > state["chips"][seat]:
        return Msg(
            N_(
                "Your chips: %(chips)s. If you win at %(amount)s you cannot pay and must "
                "discard a card."
            ),
            chips=state["chips"][seat],
            amount=amount,
        )
    return None


def result(state: dict) -> dict | None:
    """The end screen (see standings()), keyed by seat; None while the game goes on."""
    if state["phase"] != "over":
        return None
    cards = {s: state["cards"][s] for s in range(state["players"])}
    chips = {s: state["chips"][s] for s in range(state["players"])}
    return standings(cards, chips, variant=state["variant"])


def describe(before: dict, action: dict, after: dict) -> list[Msg]:
    """History lines for an accepted action, from the events apply() recorded in `after`."""
    variant = after["variant"]
    lines = []
    for event in after.get("events", []):
        line = _event_line(event, variant)
        if line is not None:
            lines.append(line)
    return lines


def _event_line(event: dict, variant: str) -> Msg | None:
    e = event["e"]
    if e == "card":
        return Msg(
            N_("Round %(round)s: %(card)s turned up."),
            round=event["round"],
            card=_card_msg(event["card"]),
        )
    if e == "open":
        if event["restart"]:
            msgid = N_(
                "The auction starts again without those who could not pay: %(seat)s bids first."
            )
        elif event["kind"] == "sale":
            msgid = N_("The sale opens: %(seat)s bids first.")
        else:
            msgid = N_("The auction opens: %(seat)s bids first.")
        return Msg(msgid, seat=Seat(event["starter"]))
    if e == "bid":
        return Msg(N_("%(seat)s bid %(amount)s."), seat=Seat(event["seat"]), amount=event["amount"])
    if e == "pass":
        if event["due"] and event["bonus"] < PASS_BONUS:
            return Msg(
                N_("%(seat)s passed at once; the bank had only %(bonus)s to give."),
                seat=Seat(event["seat"]),
                bonus=event["bonus"],
            )
        if event["bonus"]:
            return Msg(
                N_("%(seat)s passed at once and took %(bonus)s from the bank."),
                seat=Seat(event["seat"]),
                bonus=event["bonus"],
            )
        return Msg(N_("%(seat)s passed."), seat=Seat(event["seat"]))
    if e == "won":
        return Msg(N_("%(seat)s won with %(bid)s."), seat=Seat(event["seat"]), bid=event["bid"])
    if e == "cannot_pay":
        if event["must_discard"]:
            return Msg(
                N_("%(seat)s cannot pay %(bid)s and must discard a card."),
                seat=Seat(event["seat"]),
                bid=event["bid"],
            )
        return Msg(
            N_("%(seat)s cannot pay %(bid)s and has no card to discard: they drop out."),
            seat=Seat(event["seat"]),
            bid=event["bid"],
        )
    if e == "discard":
        return Msg(
            N_("%(seat)s discarded %(card)s."),
            seat=Seat(event["seat"]),
            card=_card_msg(event["card"]),
        )
    if e == "payout":
        pay = Payout({Seat(s): a for s, a in event["shares"]}, event["remainder"])
        return payout_line(
            Seat(event["winner"]), event["bid"], pay, variant=variant, pot=event["pot"]
        )
    if e == "free":
        return Msg(N_("Nobody bid: %(seat)s takes the lot free."), seat=Seat(event["seat"]))
    if e == "unsold":
        return Msg(N_("Nobody is left who can pay: the lot leaves the game."))
    if e == "offer":
        return Msg(
            N_("%(seat)s puts %(card)s up for sale."),
            seat=Seat(event["seat"]),
            card=_card_msg(event["card"]),
        )
    if e == "sold":
        return Msg(
            N_("%(buyer)s paid %(bid)s to %(seller)s for %(card)s."),
            buyer=Seat(event["winner"]),
            bid=event["bid"],
            seller=Seat(event["seller"]),
            card=_card_msg(event["card"]),
        )
    if e == "kept":
        return Msg(
            N_("Nobody bought it: %(seat)s keeps %(card)s."),
            seat=Seat(event["seat"]),
            card=_card_msg(event["card"]),
        )
    if e == "penalty":
        if not event["paid"]:
            return Msg(
                N_("%(seat)s made an illegal bid but has no chip to pay the fine."),
                seat=Seat(event["seat"]),
            )
        if event["to"] == "bank":
            return Msg(
                N_("%(seat)s paid a 1-chip fine to the bank for an illegal bid."),
                seat=Seat(event["seat"]),
            )
        return Msg(
            N_("%(seat)s paid a 1-chip fine into the pot for an illegal bid."),
            seat=Seat(event["seat"]),
        )
    if e == "waive":
        return Msg(N_("The host waived %(seat)s's fine: 1 chip back."), seat=Seat(event["seat"]))
    if e == "fines":
        if event["on"]:
            return Msg(N_("The host switched fines for illegal bids on."))
        return Msg(N_("The host switched fines for illegal bids off."))
    if e == "start":
        return Msg(N_("%(seat)s starts round 1."), seat=Seat(event["seat"]))
    if e == "round":
        return Msg(
            N_("Round %(round)s: a lot of %(size)s; %(seat)s starts."),
            round=event["round"],
            size=event["size"],
            seat=Seat(event["start"]),
        )
    if e == "over":
        return Msg(N_("The game is over after round 15."))
    return None


def seat_may_undo(before: dict, action: dict, after: dict) -> bool:
    """A seat may take back a card entry, a sale offer, or a bid or pass that did not end the
    auction; never a discard, a fine, a waiver, or a move that settled an auction."""
    kind = action.get("type")
    if kind in ("card", "sell"):
        return not any(e["e"] in ("won", "free", "unsold") for e in after["events"])
    if kind in ("bid", "pass"):
        return all(e["e"] in ("bid", "pass") for e in after["events"])
    return False

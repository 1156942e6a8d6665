"""From Cape to Cairo: the rules page's texts. RULES has one entry per rule id a refusal can
carry (each an anchor on /rules/cape_to_cairo); CLARIFICATIONS holds our readings of the points
the rule text leaves open."""

from __future__ import annotations

from companion.games.base import N_

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

# "Your first game" (Rules.first_game): the steps the rules page opens with, set-up to the win.
FIRST_GAME: tuple[str, ...] = (
    N_(
        "Everyone starts with 100 pounds. Turn up a terrain card per player; each player makes "
        "a sealed bid, 0 up to their money."
    ),
    N_(
        "Bids are paid; the highest chooses first (equal: less money left, then a drawn card), "
        "to the end of their row."
    ),
    N_(
        "Building: the highest bidder turns up a card, then crosses their next terrain or "
        "passes to the left."
    ),
    N_("A crossing needs tracks: river 10, mountain 9, desert 8, village 7, savanna 6."),
    N_(
        "The symbols turned up and on your row count, then bonus tracks; buy the rest at 10 "
        "pounds each."
    ),
    N_("A crossing earns the card's income; others facing a river gain a bonus track (up to 5)."),
    N_("An empty row ends the building phase. The first to cross 8 terrains wins at once."),
)

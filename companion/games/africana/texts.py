"""The rules page's texts: the title of every rule a refusal can name (its id is the page's
anchor), our readings of the points the rule text leaves open, and the other reading a table
may choose instead of one of ours, with the rule text's sentence both read; and the steps of a
first game the page opens with (FIRST_GAME)."""

from __future__ import annotations

from companion.games.base import N_

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
    "action": N_("The app did not understand the entry"),
}

# "Your first game" (Rules.first_game): set-up to scoring in a few steps, with the rule text's
# numbers; each repeats a rule the page explains under its own entry.
FIRST_GAME: tuple[str, ...] = (
    N_(
        "Each player takes a company (seat 1 is Italy and starts), its coins, 4 markers, a joker "
        "and a movement card."
    ),
    N_(
        "A turn is one action: draw 2 movement cards, buy adventures (5 silver each; first page "
        "free, then 1 silver) or move."
    ),
    N_(
        "Moving costs a movement card a step. Join an expedition at its start; complete it, or an "
        "adventure, at its destination."
    ),
    N_(
        "End of turn: at most 5 cards and 3 unfinished adventures. When the row cannot be "
        "refilled, the round is played out."
    ),
    N_(
        "Score card points and artifact sets (2 alike 6, 3 alike 12, 2 different 2, 4 different "
        "10); 2 guides −5, 3 or more −10."
    ),
    N_("Plus a point per 10 silver, 2 movement cards and unfinished artifact. Ties: more coins."),
)

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


# The rule text's sentence a reading reads, where a table may read it the other way: its lines
# in the Japanese rule text (seed 000), the sentence as printed, and a rendering of it in the
# reader's language; and the other reading the sentence allows, which a table may play instead
# (the game option readings = {id: "literal"}: the starting coins are then gold coins).
READS_FROM: dict[str, tuple[str, str, str]] = {
    "starting-coins-silver": (
        "ja L140",
        "各プレイヤーは、自分の探検家駒を自分の会社カードに示されたボード上の開始地域に置き"
        "（開始地域は、ボード上にも色で示されています）、適切な初期資金を受け取ります。",
        N_(
            "Each player puts their explorer on the start region shown on their company card "
            "(the start regions are also marked on the board in colour) and receives the "
            "appropriate starting funds."
        ),
    ),
}
OTHER_READINGS: dict[str, str] = {
    "starting-coins-silver": N_(
        "The starting coins in the company table (2, 2, 3, 4) are gold coins, worth 10, 10, 15 "
        "and 20 silver."
    ),
}

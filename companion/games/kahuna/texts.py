"""Kahuna's rules-page texts: the rule ids (each an anchor of the rules page, in its order) with
their titles, our readings of the points the rule text leaves open, the table option's label,
and the steps of a first game the page opens with (FIRST_GAME). The rules page
(templates/kahuna/rules.html) adds a summary of each rule.
"""

from __future__ import annotations

from companion.games.base import N_

OPTIONS = {"arabana": N_("Arabana: no bridge on a site touching an island the opponent controls")}

# "Your first game" (Rules.first_game): set-up to the winner in a few steps, with the rule
# text's numbers; each repeats a rule the page explains under its own entry.
FIRST_GAME: tuple[str, ...] = (
    N_("Each player takes 25 bridges and 10 Kahuna stones; deal 3 cards each and turn 3 face up."),
    N_(
        "White starts. Play up to 5 cards a turn: each builds a bridge on a free site at its "
        "island."
    ),
    N_("Two cards, each naming an end of an opponent's bridge, remove it."),
    N_(
        "More than half of an island's sites: it is yours (a Kahuna stone on it), and the opponent's "
        "bridges there are destroyed."
    ),
    N_("Then draw a card (deck or face up), or not: the opponent must then draw. Hand: at most 5."),
    N_("No card left to draw: the round ends; more islands scores 1 point (round 1), 2 (round 2)."),
    N_(
        "Round 3: one more turn each, then more islands scores the difference. Ties: round 3, "
        "then more bridges."
    ),
)


# --- rule ids and readings (the rules page lists them in this order) -------------------------

RULES: dict[str, str] = {
    "board": N_("The board: 12 islands and 27 bridge sites"),
    "reveal": N_("The face-up cards"),
    "turn-order": N_("Taking turns"),
    "play-limit": N_("Playing up to 5 cards in a turn"),
    "card-count": N_("Which cards can be in a hand"),
    "island-unknown": N_("The island names"),
    "site-unknown": N_("Bridge sites"),
    "site-free": N_("Building on a free site"),
    "place-card": N_("One card builds one bridge"),
    "bridge-supply": N_("25 bridges each"),
    "arabana": N_("Table option: Arabana"),
    "remove-opponent": N_("Removing an opponent's bridge"),
    "remove-cards": N_("Two cards remove one bridge"),
    "control": N_("Controlling an island"),
    "destroy": N_("Taking an island destroys the opponent's bridges there"),
    "stone-supply": N_("10 Kahuna stones each"),
    "discard": N_("The turn of discarding face down"),
    "draw": N_("Drawing a card"),
    "hand-limit": N_("Never more than 5 cards in hand"),
    "must-draw": N_("Declining to draw"),
    "round-end": N_("End of a round and its scoring"),
    "final-turns": N_("The last turns of round 3"),
    "winner": N_("Winner and tie-breaks"),
    "game-over": N_("The game is over"),
    "action": N_("Entries the app understands"),
    "players": N_("Two players"),
}

CLARIFICATIONS: dict[str, str] = {
    "control": N_(
        "An island is controlled by the colour that owns bridges on strictly more than half of ALL "
        "its sites, free sites included: 2 of 3, 3 of 4, 3 of 5, 4 of 6. Control depends only on "
        "your own bridges, so removing an opponent's bridge can cost them an island but never "
        "gives you one."
    ),
    "double-capture": N_(
        "One bridge counts for both islands it joins, so a single bridge can take both of them; "
        "the opponent's bridges on both islands are then destroyed."
    ),
    "destroy": N_(
        "Bridges are destroyed only at the moment an island is taken. An opponent's bridge built "
        "later on an island you already hold stays (unless the Arabana option forbids building it)."
    ),
    "chain": N_(
        "A destroyed bridge can cost its owner the island at its other end: only the stone goes, "
        "their other bridges there stay. Nothing goes further, because losing bridges never gives "
        "anyone control."
    ),
    "arabana": N_(
        "With the table option Arabana (the original reading), no bridge may be built on a site "
        "touching an island the opponent controls. It is off by default: building there is allowed."
    ),
    "remove-then-build": N_(
        "After removing a bridge you may build on the freed site in the same turn with one more card, "
        "as for any free site."
    ),
    "stone-supply": N_(
        "Each player has 10 Kahuna stones and the number of stones on the board is the number of "
        "islands held. A bridge that would give a player an 11th island is therefore refused."
    ),
    "bridge-supply": N_(
        "A player with all 25 bridges on the board cannot build until one comes back."
    ),
    "first-player": N_(
        "The rule text does not say who starts: in the app White starts, so whoever should begin "
        "takes White."
    ),
    "card-count": N_(
        "The app tracks every card whose island is public: the face-up cards, cards taken from "
        "them, and played cards. A card can only be played if one of its two copies may still be in "
        "that hand. After discarding face down, the cards left in that hand count as unknown again."
    ),
    "play-limit": N_(
        "A turn plays at most 5 cards, one move at a time; a removal plays its two cards together."
    ),
    "discard": N_(
        "Discarding face down is a turn of its own: only when no card has been played this turn, "
        "and no card can be played after it. It is also how a player holding 5 cards makes room "
        "before drawing (with a card played, a hand holds at most 4)."
    ),
    "draw": N_(
        "When a face-up card is taken, the table turns up the next deck card and enters it before "
        "play goes on. Once the deck is empty, the face-up row simply shrinks."
    ),
    "hand-limit": N_(
        "A player holding 5 cards must discard at least one before drawing; a hand of 4 may draw "
        "up to 5."
    ),
    "must-draw": N_(
        "A player who declines to draw obliges the opponent to draw on their next turn. The "
        "obligation lapses when there is nothing left to draw (the last turns of round 3)."
    ),
    "round-end": N_(
        "A round ends as soon as the last card of the deck and the face-up row has been drawn. "
        "Rounds 1 and 2 are scored at once; all discards become the new deck, hands and board stay, "
        "3 cards are turned face up and the other player begins."
    ),
    "final-turns": N_(
        "In round 3, once the last card is drawn, the other player has one more turn, then the "
        "player who drew it has one more turn; nobody can draw. Then round 3 is scored and the game ends."
    ),
}
# Not a reading: the tie-breaks (round 3's scorer, then more bridges, then a draw) are printed
# rule text, so the rules page states them in the "winner" rule's own summary.

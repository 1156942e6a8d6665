"""Serengeti / Don: the rules page's texts. RULES (rule id -> title, in reading order; every id a
refusal carries is an anchor there), RULE_SUMMARIES (our short summary of each rule),
CLARIFICATIONS (our reading of each point the rule text leaves open) and CLARIFICATION_QUESTIONS
(the question each reading answers, the entry's title)."""

from __future__ import annotations

from companion.games.base import N_

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
    "penalty-again": N_("The same illegal bid twice in a row"),
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
    "game-over": N_("Nothing is entered after the end"),
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
    "penalty-again": N_(
        "A phone that sends the bid just fined once more, before anything else happened in "
        "the auction, is taken to have been tapped twice: the bid is refused again and costs "
        "nothing. To call that number again anyway, confirm it on the phone: that bid is a "
        "new illegal bid and costs another chip."
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
    "game-over": N_(
        "Once round 15 is settled the game is over: the app shows the final scores and accepts "
        "no more entries."
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


# The rule sentence a reading reads, where the text allows two readings: its paragraph in the
# Japanese rule text, the words quoted (the source, cited), and a rendering of them in the
# reader's language; and the other reading the sentence allows, which a table may play instead.
READS_FROM: dict[str, tuple[str, str, str]] = {
    "last-player-alone": (
        "40",
        "1 人以外の全てのプレイヤーがパスを行うまで、このようにして競りを続けます。",
        N_("The auction goes on like this until every player but one has passed."),
    ),
    "sale-who-may": (
        "119",
        "手持ちチップが足りない場合は、自分の手番が来た時に、ラウンドの最初"
        "[(A) カードを引く より前] に自分の街区カードを 1 枚、競売にかけることができる。",
        N_(
            "A player short of chips may, when their turn comes, at the start of the round "
            "(before the cards are drawn), put one of their own cards up for auction."
        ),
    ),
}
OTHER_READINGS: dict[str, str] = {
    "last-player-alone": N_(
        "Read literally, the auction ends as soon as all but one have passed: when nobody has "
        "bid, the start player takes the lot free at once and the last player gets no turn "
        "(and no pass bonus)."
    ),
    "sale-who-may": N_(
        "Read literally, only the player whose turn comes first in the round (the start "
        "player), and only when short of chips, may put a card up for sale."
    ),
}

# "Your first game" (Rules.first_game): the steps the rules page opens with, set-up to scoring.
# The page serves both lobby entries and shows the Abacus rules, so Don's changes are one step.
FIRST_GAME: tuple[str, ...] = (
    N_("Shuffle the 30 cards face down. Each player takes 10 hidden chips; the rest is the bank."),
    N_("Play 15 rounds: turn up 1, 2, 3, 1, 2, 3… cards and auction each lot."),
    N_("In turn, bid higher or pass until one bidder is left. Passing at once earns 2 chips."),
    N_("No bid may end in a digit on your cards (own a 4: no 4, 14, 24…): a 1-chip fine."),
    N_(
        "The holders of the bid's last digit share it per card (none: all the others). "
        "The winner starts next."
    ),
    N_("At the end a tribe's 1 to 5 cards score 1, 3, 6, 10, 15 points; the most chips 3 more."),
    N_(
        "Don: 12 chips, no bank or pass bonus; the most matching cards take it all; you may "
        "sell a card; the most chips score 2."
    ),
)

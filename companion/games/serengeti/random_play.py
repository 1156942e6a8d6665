"""Random Serengeti / Don games: an action for any state, mostly legal, now and then a blunder.

next_action(state, rng) is what the contract test (tests/test_contract.py) plays random games
with; the property tests (test_props.py) drive their games with the same pieces: junk from a
careless phone, a Don sale, a discard, and the player on turn bidding, passing or blundering into
an illegal bid.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from companion.games.serengeti import rules as g

if TYPE_CHECKING:  # the random source is always an argument: the rules stay pure
    import random

JUNK_TYPES = ["bid", "pass", "discard", "penalty", "waive", "sell", "dance", None, 7]
# Anything a form or a hand-made request might send, right or wrong (a list of odd types).
JUNK_VALUES: list = [None, -1, 0, 1, 3, 9, 10, 99, "4", "x", "", 2.5, True, [], {}, "nuba", "Tonga"]


def random_deck(rng: random.Random) -> list[dict]:
    """30 cards: 6 tribes x 5 different digits, every digit on exactly 3 cards, shuffled."""
    digits = list(range(10))
    rng.shuffle(digits)
    tribes = list(g.TRIBES)
    rng.shuffle(tribes)
    # windows of 5 consecutive digits (cyclically); both offset patterns cover each digit 3 times
    offsets = rng.choice([(0, 5, 0, 5, 0, 5), (0, 1, 2, 5, 6, 7)])
    deck = [
        {"tribe": t, "digit": digits[(o + k) % 10]}
        for t, o in zip(tribes, offsets)
        for k in range(5)
    ]
    rng.shuffle(deck)
    return deck


def junk_action(rng: random.Random, players: int) -> dict:
    """What a careless phone might send: any type, any seat, any values (mostly refused)."""
    action = {
        "type": rng.choice(JUNK_TYPES),
        "seat": rng.choice([None, *range(players), players, -1, "0", True]),
    }
    for key in ("amount", "tribe", "digit", "bid", "host"):
        if rng.random() < 0.5:
            action[key] = rng.choice(JUNK_VALUES)
    return action


def sale_offer(state: dict, rng: random.Random) -> dict | None:
    """Don, before the first card of a round: now and then a player puts a card up for sale."""
    sellers = [
        s
        for s in range(state["players"])
        if state["cards"][s] and s not in state["sold_this_round"]
    ]
    if state["variant"] == "don" and not state["lot"] and sellers and rng.random() < 0.2:
        seller = rng.choice(sellers)
        return {"type": "sell", "seat": seller, **rng.choice(state["cards"][seller])}
    return None


def discard(state: dict, rng: random.Random) -> dict:
    """The winner who cannot pay discards one of their cards."""
    seat = state["auction"]["defaulter"]
    return {"type": "discard", "seat": seat, **rng.choice(state["cards"][seat])}


def auction_action(state: dict, rng: random.Random) -> tuple[dict, bool]:
    """The player on turn bids or passes: (action, True). Or they blunder into an illegal bid
    (one ending in a digit they own, or one that does not beat the high bid): (action, False)."""
    auction = state["auction"]
    seat = auction["turn"]
    own = [c["digit"] for c in state["cards"][seat]]
    high = auction["high"]
    roll = rng.random()
    if roll < 0.12:
        bad = [b for b in range((high or 0) + 1, (high or 0) + 30) if b % 10 in own]
        bid = rng.choice(bad) if bad and rng.random() < 0.7 else rng.randint(-2, high or 0)
        return {"type": "bid", "seat": seat, "amount": bid}, False
    hint = g.bid_hint(own, high, 8)
    chips = state["chips"][seat]
    if hint["min_bid"] is None or roll < 0.45 or hint["min_bid"] > chips + 4:
        return {"type": "pass", "seat": seat}, True
    return {"type": "bid", "seat": seat, "amount": rng.choice(hint["legal_bids"])}, True


def _completable(seen: list[dict]) -> bool:
    """Can the rest of the deck still be dealt? Every tribe needs 5 cards of different digits and
    every digit is on 3 cards: a flow from tribes to digits over the cards not seen yet."""
    tribe_need = {t: g.CARDS_PER_TRIBE for t in g.TRIBES}
    digit_room = {d: g.CARDS_PER_DIGIT for d in range(10)}
    used = set()
    for c in seen:
        tribe_need[c["tribe"]] -= 1
        digit_room[c["digit"]] -= 1
        used.add((c["tribe"], c["digit"]))
    if min(tribe_need.values()) < 0 or min(digit_room.values()) < 0:
        return False
    on_digit: dict[int, list[str]] = {d: [] for d in range(10)}  # the tribes dealt each digit

    def place(tribe: str, tried: set) -> bool:
        """Deal this tribe one more digit, moving other tribes' cards along if need be."""
        for d in range(10):
            if (tribe, d) in used or tribe in on_digit[d] or d in tried:
                continue
            tried.add(d)
            if len(on_digit[d]) < digit_room[d]:
                on_digit[d].append(tribe)
                return True
            for other in list(on_digit[d]):
                if place(other, tried):
                    on_digit[d].remove(other)
                    on_digit[d].append(tribe)
                    return True
        return False

    return all(place(t, set()) for t, need in tribe_need.items() for _ in range(need))


def next_card(state: dict, rng: random.Random) -> dict:
    """A card the table could turn up now, chosen so that the rest of the deck can still exist."""
    seen = [c for cards in state["cards"] for c in cards] + state["out"] + state["lot"]
    tribes = Counter(c["tribe"] for c in seen)
    digits = Counter(c["digit"] for c in seen)
    candidates = [
        {"tribe": t, "digit": d}
        for t in g.TRIBES
        for d in range(10)
        if {"tribe": t, "digit": d} not in seen
        and tribes[t] < g.CARDS_PER_TRIBE
        and digits[d] < g.CARDS_PER_DIGIT
    ]
    rng.shuffle(candidates)
    for candidate in candidates:
        if _completable([*seen, candidate]):
            return candidate
    raise AssertionError("no card can complete this deck")


def next_action(state: dict, rng: random.Random) -> dict | None:
    """An action for the current state: mostly legal, sometimes junk or an illegal bid; a fine
    (and the host waiving it) now and then. None once the game is over."""
    if state["phase"] == "over":
        return None
    if rng.random() < 0.05:
        return junk_action(rng, state["players"])
    phase = state["phase"]
    if phase == "reveal":
        return sale_offer(state, rng) or {"type": "card", "seat": None, **next_card(state, rng)}
    if phase == "discard":
        return discard(state, rng)
    seat = state["auction"]["turn"]
    if state["penalty_on"] and rng.random() < 0.03:
        return {"type": "penalty", "seat": seat, "bid": None}
    fined = [p["seat"] for p in state["penalties"] if p["paid"] and not p["waived"]]
    if fined and rng.random() < 0.03:
        return {"type": "waive", "seat": None, "player": rng.choice(fined), "host": True}
    return auction_action(state, rng)[0]


def fined_entry(state: dict, rng: random.Random) -> tuple[list[dict], dict] | None:
    """An entry the rules refuse and answer with a fine (the adapter's follow_up): the bidder on
    turn bidding a number that ends in a digit they own. Returns the host's entries that make it
    possible first (fines switched on) and the bid; None when no auction allows one now."""
    if state["phase"] != "auction":
        return None
    seat = state["auction"]["turn"]
    forbidden = {c["digit"] for c in state["cards"][seat]}
    high = state["auction"]["high"] or 0
    amount = next((b for b in range(high + 1, high + 11) if b % 10 in forbidden), None)
    if amount is None:
        return None
    setup = (
        [] if state["penalty_on"] else [{"type": "fines", "on": True, "seat": None, "host": True}]
    )
    bid = {"type": "bid", "seat": seat, "amount": amount}
    if amount == g.just_fined_bid(state, seat):
        bid["again"] = True  # the bid just fined: fined again only when the player confirms it
    return setup, bid


def repeatable_action(state: dict) -> tuple[str, dict]:
    """A host entry that may be sent at any point of the game, again and again, each time
    changing the state (the benchmark's writer): switching fines off or on, as its form does."""
    return "fines", {"on": "off" if state["penalty_on"] else "on"}

"""Random Kahuna games: the generator of the contract test, the property tests and the checks.

next_action(state, rng) sees only the state, as the app does: it enters face-up cards the count
allows, plays the card choices legal_cards_for() offers, discards, draws or declines, and now and
then sends an entry the rules may refuse. The simulated physical table of the tests
(tests/kahuna/physical_table.py: Table) ends its turns the same way (finish_turn).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.games.kahuna import rules as k

if TYPE_CHECKING:  # the random source is always an argument: the rules stay pure
    import random

PLAY_TURN = 0.8  # a turn plays cards; otherwise it discards face down
DRAW = 0.85  # a player who may choose ends the turn with a draw
FROM_DISPLAY = 0.5  # a draw takes a face-up card rather than the deck's top card
KEEP_PLAYING = 0.7  # after a move, the generator plays another one
STRAY = 0.03  # the generator sends an entry the rules may refuse

# Refusals a physically possible move may still meet: they come from the board, not the cards.
BOARD_RULES = {"arabana", "stone-supply", "bridge-supply", "play-limit"}


def finish_turn(state: dict, rng: random.Random) -> dict:
    """How the player on turn ends it: a draw (a hand of 5 first discards one) or a decline.

    A player obliged to draw draws while anything is left to draw.
    """
    seat = state["turn"]
    if k.drawable(state) and (state["must_draw"] or rng.random() < DRAW):
        if state["hands"][seat] >= k.HAND_LIMIT:
            return {"type": "discard", "seat": seat, "count": 1}
        if state["display"] and (not state["deck"] or rng.random() < FROM_DISPLAY):
            island = rng.choice(state["display"])
            return {"type": "draw", "seat": seat, "source": "display", "island": island}
        return {"type": "draw", "seat": seat, "source": "deck"}
    return {"type": "end_turn", "seat": seat}


def _play(state: dict, seat: int, rng: random.Random) -> dict | None:
    """A move the rules accept now, from legal_cards_for() on the sites in random order."""
    sites = list(k.SITES)
    rng.shuffle(sites)
    for site in sites:
        options = k.legal_cards_for(state, seat, site)["options"]
        if options:
            cards = rng.choice(options)
            key = k.site_key(site)
            if len(cards) == 1:
                return {"type": "place", "seat": seat, "site": key, "card": cards[0]}
            return {"type": "remove", "seat": seat, "site": key, "cards": cards}
    return None


def _stray(state: dict, rng: random.Random) -> dict:
    """An entry picked without looking at the rules (often refused, sometimes not)."""
    site = k.site_key(rng.choice(k.SITES))
    card = rng.choice(k.ISLANDS)
    seat = rng.choice([0, 1, None])
    return rng.choice(
        [
            {"type": "place", "seat": seat, "site": site, "card": card},
            {"type": "remove", "seat": seat, "site": site, "cards": [card, card]},
            {"type": "reveal", "seat": None, "island": card},
            {"type": "draw", "seat": seat, "source": "display", "island": card},
            {"type": "discard", "seat": seat, "count": rng.randint(0, 6)},
            {"type": "set_option", "seat": None, "arabana": True},
            {"type": "fly", "seat": seat},
        ]
    )


def next_action(state: dict, rng: random.Random) -> dict | None:
    """An action for this state (mostly legal), or None once the game is over."""
    if state["over"]:
        return None
    action = _next(state, rng)
    return {"host": action["type"] == "set_option", **action}


def _next(state: dict, rng: random.Random) -> dict:
    if rng.random() < STRAY:
        return _stray(state, rng)
    if state["pending_reveals"]:
        free = [i for i in k.ISLANDS if k.accounted(state, i) < k.CARDS_PER_ISLAND]
        return {"type": "reveal", "seat": None, "island": rng.choice(free)}
    if k.options_open(state) and rng.random() < 0.05:
        return {"type": "set_option", "seat": None, "arabana": not state["options"]["arabana"]}
    seat = state["turn"]
    hand = state["hands"][seat]
    fresh = not state["played"] and not state["discarded"]
    if fresh and hand and rng.random() >= PLAY_TURN:
        return {"type": "discard", "seat": seat, "count": rng.randint(1, hand)}
    if not state["discarded"] and (fresh or rng.random() < KEEP_PLAYING):
        move = _play(state, seat, rng)
        if move is not None:
            return move
    return finish_turn(state, rng)

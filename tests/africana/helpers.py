"""Helpers several Africana test files share: an empty scoring sheet and an independent brute
force for the artifact set bonus.

Everything else comes from tests/helpers.py and the fixtures of tests/conftest.py.
"""

from __future__ import annotations

import itertools
from functools import cache


def sheet(**changes) -> dict:
    """A scoring sheet with nothing on it (coins as their value in silver), changed by `changes`."""
    return {
        "expedition_points": [],
        "artifact_cards": [],
        "guide_adventures": 0,
        "coins": 0,
        "movement_cards": 0,
        "unfinished_artifacts": 0,
        **changes,
    }


# An independent brute force for the set bonus: it works on the cards themselves (not on counts
# per kind) and, for the first card left, tries leaving it out or putting it in every possible
# set made of it and other remaining cards, scoring a set by the printed table directly. The app's
# rules module is never asked.


def printed_value(cards: tuple[str, ...]) -> int | None:
    """The rule text's table: 2 identical 6, 3 identical 12, 2 different 2, 4 different 10."""
    if len(set(cards)) == 1:
        return {2: 6, 3: 12}.get(len(cards))
    if len(set(cards)) == len(cards):
        return {2: 2, 4: 10}.get(len(cards))
    return None


@cache
def brute_force(cards: tuple[str, ...]) -> int:
    """Best bonus over every way to pick disjoint sets from these (sorted) cards."""
    if not cards:
        return 0
    first, rest = cards[0], cards[1:]
    best = brute_force(rest)  # the first card in no set
    tried = set()
    for size in (1, 2, 3):  # partners for the first card: sets of 2, 3 or 4 cards
        for picked in itertools.combinations(range(len(rest)), size):
            partners = tuple(rest[i] for i in picked)
            if partners in tried:
                continue
            tried.add(partners)
            value = printed_value((first,) + partners)
            if value is None:
                continue
            left = tuple(card for i, card in enumerate(rest) if i not in picked)
            best = max(best, value + brute_force(left))
    return best

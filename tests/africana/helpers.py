"""Helpers several Africana test files share: an empty scoring sheet, posting the turn's action
and a scoring sheet's form fields, and an independent brute force for the artifact set bonus.

Everything else comes from tests/helpers.py and the fixtures of tests/conftest.py.
"""

from __future__ import annotations

import itertools
from functools import cache

from tests.helpers import post_from


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


def choose(table, who, choice: str, query: str = "", *, csrf: bool = True, **data):
    """Post the turn's action choice (draw, buy or move) from the page `who` shows now.

    The form's field is called "action", which is also the name of TableDriver.post's own
    parameter, so this one form goes through post_from (same token and version handling; an
    empty token where csrf=False).
    """
    if not csrf:
        data["csrf_token"] = ""
    return post_from(
        table.device(who),
        f"/t/{table.code}/{query}",
        f"/t/{table.code}/act/choose_action{query}",
        action=choice,
        **data,
    )


def sheet_data(
    expeditions=(), artifacts=(), guides=0, gold=0, silver=0, movement=0, unfinished=0, prefix=""
):
    """Form fields of a scoring sheet; artifacts as (kind letter, points)."""
    data = {
        f"{prefix}guide_adventures": guides,
        f"{prefix}gold": gold,
        f"{prefix}silver": silver,
        f"{prefix}movement_cards": movement,
        f"{prefix}unfinished_artifacts": unfinished,
    }
    for i, points in enumerate(expeditions):
        data[f"{prefix}expedition_points-{i}"] = points
    per_kind: dict[str, int] = {}
    for kind, points in artifacts:
        n = per_kind.get(kind, 0)
        data[f"{prefix}art_{kind}-{n}"] = points
        per_kind[kind] = n + 1
    return data


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

"""Artifact sets (rule "artifact-sets"): the best grouping of completed artifact cards into
sets, found by trying every grouping, and the obvious greedy one the rules page compares it with.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import combinations

from companion.games.africana.facts import (
    ARTIFACT_CARDS,
    ARTIFACT_COPIES,
    ARTIFACT_KINDS,
    SET_BONUS,
)
from companion.games.base import N_, Msg, Plural, RuleError


def too_many_of_a_kind(n: int, kind: str) -> Msg:
    """The refusal's message for a sheet listing more than 4 cards of one artifact kind."""
    return Plural(
        "There are only 4 artifact cards of each kind; the sheet lists %(n)s card of %(kind)s.",
        "There are only 4 artifact cards of each kind; the sheet lists %(n)s cards of %(kind)s.",
        "n",
        n=n,
        kind=kind,
    )


def check_kinds(kinds: Sequence[str]) -> list[str]:
    """Refuse artifact holdings the game cannot produce (rule "artifact-limits")."""
    if isinstance(kinds, (str, bytes)) or not isinstance(kinds, Sequence):
        raise RuleError("action", N_("The artifact kinds must be a list."))
    kinds = list(kinds)
    for kind in kinds:
        if not isinstance(kind, str) or not kind.strip():
            raise RuleError("artifact-limits", N_("Every artifact card needs its kind."))
    if len(kinds) > ARTIFACT_CARDS:
        raise RuleError.of(
            "artifact-limits",
            Plural(
                "There are only %(max)s artifact cards in the game; the sheet lists %(n)s card.",
                "There are only %(max)s artifact cards in the game; the sheet lists %(n)s cards.",
                "n",
                max=ARTIFACT_CARDS,
                n=len(kinds),
            ),
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
            raise RuleError.of("artifact-limits", too_many_of_a_kind(kinds.count(kind), kind))
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
    for size in (4, 2):  # 4 different kinds, then 2
        for group in combinations(present, size):
            options.append((SET_BONUS[(size, False)], group))
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
    kinds = check_kinds(kinds)
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
    kinds = check_kinds(kinds)
    counts = {label: kinds.count(label) for label in sorted(set(kinds))}
    total = 0
    groups: list[list[str]] = []
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

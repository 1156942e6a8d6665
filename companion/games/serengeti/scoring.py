"""Serengeti / Don: the final scoring. Per tribe 1/3/6/10/15 points for 1-5 cards, the chip bonus
(+3, Don +2) for everyone tied for most chips, and the ranking with its tie-breaks (Abacus: more
cards, then more chips; Don: the higher sum of card digits)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from companion.games.base import N_, Msg, comma_list
from companion.games.serengeti.facts import (
    CARDS_PER_TRIBE,
    CHIP_BONUS,
    TIE_BREAKS,
    TRIBE_POINTS,
    TRIBES,
)
from companion.games.serengeti.fields import InputError, check_variant, is_int, short
from companion.games.serengeti.phrases import as_param


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
    if not isinstance(chips, Mapping) or not all(is_int(c) and c >= 0 for c in chips.values()):
        raise InputError("end", N_("Chips are whole numbers, 0 or more."))
    return dict(chips)


def score(
    collections: dict[str, list[str]], chips: dict[str, int], *, variant: str = "abacus"
) -> dict[str, int]:
    """Final points: per tribe 1/3/6/10/15 for 1-5 cards, +3 (Don +2) to everyone tied for most chips.

    collections maps each player to the tribe of each card they own; chips maps players to their
    chips (a player missing from either mapping has no cards / no chips).
    """
    check_variant(variant)
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
                "end", N_("List the tribe of each card %(player)s owns."), player=short(player)
            )
        points = sum(_tribe_points(n) for n in Counter(tribes).values())
        totals[player] = points + (CHIP_BONUS[variant] if player in bonus_to else 0)
    return totals


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
    check_variant(variant)
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
            winners=comma_list([as_param(w) for w in winners]) if winners else Msg(N_("nobody")),
        )
    return Msg(_TIE_BREAK_TEXT[tie_break], winner=as_param(winners[0]))

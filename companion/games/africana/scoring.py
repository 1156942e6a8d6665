"""The final scoring: a scoring sheet checked against the game's limits, one player's score
with its breakdown, and the ranking with its tie-break (used by the table and the calculator)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.games.africana.facts import (
    ARTIFACT_CARDS,
    GUIDE_ADVENTURES,
    HAND_LIMIT,
    MAX_COINS,
    MAX_EXPEDITIONS,
    MAX_PRINTED,
    OPEN_ADVENTURE_LIMIT,
    coin_value,
    is_int,
)
from companion.games.africana.fields import field_label, int_field
from companion.games.africana.phrases import listing, silver
from companion.games.africana.sets import best_artifact_sets, check_kinds, set_bonus_of
from companion.games.base import N_, Msg, Plural, RuleError, Seat


def guide_penalty(completed_guides: int) -> int:
    """Points lost for completed guide adventure cards: 2 cost 5, 3 or more cost 10."""
    if completed_guides >= 3:
        return 10
    if completed_guides == 2:
        return 5
    return 0


def check_sheet(sheet: Mapping) -> dict:
    """A clean copy of a scoring sheet, or RuleError saying what is outside the game's limits.

    Coins may be given as "coins" (value in silver) or as "gold" and "silver" pieces; the clean
    sheet has "coins" only.
    """
    if not isinstance(sheet, Mapping):
        raise RuleError("action", N_("The scoring sheet is missing."))
    points = sheet.get("expedition_points", [])
    if isinstance(points, (str, bytes)) or not isinstance(points, Sequence):
        raise RuleError("sheet-values", N_("The expedition points must be a list of numbers."))
    if len(points) > MAX_EXPEDITIONS:
        raise RuleError.of(
            "sheet-values",
            Plural(
                "At most %(max)s expedition can be completed.",
                "At most %(max)s expeditions can be completed.",
                "max",
                max=MAX_EXPEDITIONS,
            ),
        )
    for value in points:
        if not is_int(value) or not 0 <= value <= MAX_PRINTED:
            raise RuleError(
                "sheet-values",
                N_("Each expedition's points must be a whole number from 0 to %(max)s."),
                max=MAX_PRINTED,
            )
    cards = sheet.get("artifact_cards", [])
    if isinstance(cards, (str, bytes)) or not isinstance(cards, Sequence):
        raise RuleError("sheet-values", N_("The artifact cards must be a list of kind and points."))
    clean_cards: list[list[Any]] = []  # [kind, points], as stored
    for card in cards:
        if (
            isinstance(card, (str, bytes))
            or not isinstance(card, Sequence)
            or len(card) != 2
            or not isinstance(card[0], str)
        ):
            raise RuleError("sheet-values", N_("Each artifact card needs a kind and its points."))
        kind, value = card[0].strip(), card[1]
        if not is_int(value) or not 0 <= value <= MAX_PRINTED:
            raise RuleError(
                "sheet-values",
                N_("Each artifact card's points must be a whole number from 0 to %(max)s."),
                max=MAX_PRINTED,
            )
        clean_cards.append([kind, value])
    check_kinds([kind for kind, _ in clean_cards])
    clean: dict[str, Any] = {
        "expedition_points": list(points),
        "artifact_cards": clean_cards,
        "guide_adventures": int_field(
            sheet, "guide_adventures", 0, GUIDE_ADVENTURES, "sheet-values", default=0
        ),
        "coins": sheet_coins(sheet),
        "movement_cards": int_field(
            sheet, "movement_cards", 0, HAND_LIMIT, "sheet-values", default=0
        ),
        "unfinished_artifacts": int_field(
            sheet, "unfinished_artifacts", 0, OPEN_ADVENTURE_LIMIT, "sheet-values", default=0
        ),
    }
    if len(clean_cards) + clean["unfinished_artifacts"] > ARTIFACT_CARDS:
        raise RuleError(
            "artifact-limits",
            N_(
                "There are only %(max)s artifact adventure cards: "
                "completed and unfinished together are %(n)s."
            ),
            max=ARTIFACT_CARDS,
            n=len(clean_cards) + clean["unfinished_artifacts"],
        )
    return clean


def sheet_coins(sheet: Mapping) -> int:
    """The sheet's coins by value: "coins" in silver, or "gold" and "silver" pieces counted
    (rule "sheet-values"; clarification "coins-by-value"), never both."""
    pieces = [key for key in ("gold", "silver") if sheet.get(key) is not None]
    if not pieces:
        return int_field(sheet, "coins", 0, MAX_COINS, "sheet-values", default=0)
    if sheet.get("coins") is not None:
        raise RuleError(
            "sheet-values",
            N_(
                "Give the coins either as their value in silver or as "
                "gold and silver pieces, not both."
            ),
        )
    gold = int_field(sheet, "gold", 0, MAX_COINS, "sheet-values", default=0)
    silver = int_field(sheet, "silver", 0, MAX_COINS, "sheet-values", default=0)
    value = coin_value(gold, silver)
    if value > MAX_COINS:
        raise RuleError(
            "sheet-values",
            N_("'%(field)s' can be at most %(hi)s."),
            field=field_label("coins"),
            hi=MAX_COINS,
        )
    return value


def final_score(sheet: Mapping) -> dict:
    """One player's final score with its breakdown; the sheet is checked first.

    total = expedition points + artifact points + best set bonus - guide penalty
            + coins // 10 + movement cards // 2 + unfinished artifact adventures
    """
    clean = check_sheet(sheet)
    bonus, groups = best_artifact_sets([kind for kind, _ in clean["artifact_cards"]])
    parts = {
        "expedition_points": sum(clean["expedition_points"]),
        "artifact_points": sum(value for _, value in clean["artifact_cards"]),
        "set_bonus": bonus,
        "guide_penalty": -guide_penalty(clean["guide_adventures"]),
        "coin_points": clean["coins"] // 10,
        "movement_points": clean["movement_cards"] // 2,
        "unfinished_points": clean["unfinished_artifacts"],
    }
    return dict(
        parts,
        sets=[{"kinds": group, "bonus": set_bonus_of(group)} for group in groups],
        coins=clean["coins"],
        sheet=clean,
        total=sum(parts.values()),
    )


SCORE_LINES = (
    ("expedition_points", N_("Completed expeditions")),
    ("artifact_points", N_("Completed artifact adventures")),
    ("set_bonus", N_("Artifact set bonus")),
    ("guide_penalty", N_("Completed guide adventures")),
    ("coin_points", N_("Coins (1 point per 10 silver)")),
    ("movement_points", N_("Movement cards in hand (1 point per 2)")),
    ("unfinished_points", N_("Unfinished artifact adventures")),
)


def rank_scores(scores: Sequence[Mapping]) -> dict:
    """Rank players by total; equal totals by coins; still equal: the same place.

    scores is one mapping per player with "total" and "coins" (value in silver). Returns
    "order" (indexes, best first), "places" (1-based, aligned with scores), "winners" and
    "tie_break": "none" (one highest total), "coins" (the coins decided first place) or
    "shared" (a shared victory).
    """
    if not scores:
        raise RuleError("action", N_("There are no scores to rank."))
    keys = [(score["total"], score["coins"]) for score in scores]
    order = sorted(range(len(scores)), key=lambda i: (-keys[i][0], -keys[i][1], i))
    places = [0] * len(scores)
    for position, i in enumerate(order):
        previous = order[position - 1] if position else None
        if previous is not None and keys[previous] == keys[i]:
            places[i] = places[previous]
        else:
            places[i] = position + 1
    best_total = keys[order[0]][0]
    winners = [i for i in order if places[i] == 1]
    tied_on_total = [i for i in order if keys[i][0] == best_total]
    if len(tied_on_total) == 1:
        tie_break = "none"
    elif len(winners) == 1:
        tie_break = "coins"
    else:
        tie_break = "shared"
    return {"order": order, "places": places, "winners": winners, "tie_break": tie_break}


TIE_BREAK_TEXT = {
    "none": N_("The highest total wins."),
    "coins": N_("Equal totals: the player with more coins wins."),
    "shared": N_("Equal totals and equal coins: a shared victory."),
}


# The score's parts as the comparison table's rows: (key in a player's score, short label).
# Short, since a phone shows four players' columns beside them; plain, since the CSV export uses
# the English labels as its column names.
SCORE_ROWS = (
    ("expedition_points", N_("Expeditions")),
    ("artifact_points", N_("Artifacts")),
    ("set_bonus", N_("Artifact sets")),
    ("guide_penalty", N_("Guide adventures")),
    ("coin_points", N_("Coins")),
    ("movement_points", N_("Movement cards")),
    ("unfinished_points", N_("Unfinished adventures")),
)


def decided_by(result: Mapping) -> Msg | None:
    """The tie-break of a result (views.result) in words, with the coins of the players tied on
    the highest total; None when one player has the highest total."""
    if result["tie_break"] == "none":
        return None
    scores = result["scores"]
    best = scores[result["order"][0]]["total"]
    tied = [i for i in result["order"] if scores[i]["total"] == best]
    coins = listing(
        [
            Msg(N_("%(name)s: %(silver)s"), name=Seat(i), silver=silver(scores[i]["coins"]))
            for i in tied
        ]
    )
    if result["tie_break"] == "coins":
        return Msg(N_("Equal totals, so the player with more coins wins (%(coins)s)."), coins=coins)
    return Msg(N_("Equal totals and equal coins (%(coins)s): a shared victory."), coins=coins)

"""From Cape to Cairo: what a crossing costs, pure arithmetic shared by the game and the
calculator. The symbols that count are free; whatever is still missing comes from bonus tracks
(one track each), then from tracks bought at 10 pounds each."""

from __future__ import annotations

from typing import Any

from companion.games.base import N_, Msg, Plural, RuleError
from companion.games.cape_to_cairo.facts import (
    BONUS_MAX,
    TRACK_PRICE,
    TRACKS_NEEDED,
    check_terrain,
    int_in,
    pounds,
    terrain_name,
)


def _check_crossing_inputs(terrain: Any, marks: Any, bonus_tracks: Any, money: Any) -> None:
    check_terrain(terrain)
    int_in(
        marks,
        0,
        None,
        "cross-tracks",
        N_("The number of track symbols is a whole number, at least %(low)s."),
    )
    int_in(
        bonus_tracks,
        0,
        BONUS_MAX,
        "cross-bonus",
        Plural(
            "A player holds %(low)s to %(high)s bonus track.",
            "A player holds %(low)s to %(high)s bonus tracks.",
            "high",
            low=0,
            high=BONUS_MAX,
        ),
    )
    int_in(money, 0, None, "money", N_("Money is a whole number of pounds, at least %(low)s."))


def track_plan(terrain: str, marks: int, bonus: int) -> dict:
    """The tracks of a crossing that spends `bonus` bonus tracks (unchecked: callers check the
    inputs), the missing rest bought: {"terrain", "needed", "symbols", "bonus", "bought",
    "pounds"}."""
    needed = TRACKS_NEEDED[terrain]
    symbols = min(marks, needed)
    bought = max(0, needed - marks - bonus)
    return {
        "terrain": terrain,
        "needed": needed,
        "symbols": symbols,
        "bonus": bonus,
        "bought": bought,
        "pounds": bought * TRACK_PRICE,
    }


def tracks_short(terrain: str, marks: int) -> int:
    """Tracks still missing after the free symbols: what bonus and bought tracks must cover."""
    return max(0, TRACKS_NEEDED[terrain] - marks)


def crossing_plan(
    terrain: str, marks: int, bonus_tracks: int, money: int, bonus: int | None = None
) -> dict | None:
    """One way to cross: spend `bonus` bonus tracks (None: as many as useful, the cheapest way)
    and buy the rest at 10 pounds each. Returns {"terrain", "needed", "symbols", "bonus",
    "bought", "pounds"}, or None when the money does not reach. A bonus count above what is held
    or above what is missing is a RuleError."""
    _check_crossing_inputs(terrain, marks, bonus_tracks, money)
    short = tracks_short(terrain, marks)
    if bonus is None:
        bonus = min(bonus_tracks, short)  # bonus tracks are free, money is not: spend them first
    int_in(
        bonus,
        0,
        bonus_tracks,
        "cross-bonus",
        Plural(
            "You hold %(high)s bonus track: spend %(low)s to %(high)s.",
            "You hold %(high)s bonus tracks: spend %(low)s to %(high)s.",
            "high",
            low=0,
            high=bonus_tracks,
        ),
    )
    if bonus > short:
        raise RuleError.of(
            "cross-bonus",
            Plural(
                "Only %(short)s more track is missing: spend at most %(short)s bonus track.",
                "Only %(short)s more tracks are missing: spend at most %(short)s bonus tracks.",
                "short",
                short=short,
            ),
        )
    plan = track_plan(terrain, marks, bonus)
    return plan if plan["pounds"] <= money else None


def cheapest_crossing(terrain: str, marks: int, bonus_tracks: int, money: int) -> dict | None:
    """The cheapest way to cross (free symbols, then bonus tracks, then money), as in
    crossing_plan, or None when even all bonus tracks and all money are not enough."""
    return crossing_plan(terrain, marks, bonus_tracks, money)


def crossing_cost(terrain: str, marks: int, bonus_tracks: int, money: int) -> int | None:
    """The fewest pounds needed to cross `terrain`, or None when it cannot be done.

    marks: the track symbols that count (the cards turned up in this building sequence plus the
    printed symbols of the player's own row from the card being crossed onwards). Free symbols
    first, then bonus tracks (1 track each), then tracks bought at 10 pounds each.
    """
    plan = cheapest_crossing(terrain, marks, bonus_tracks, money)
    return None if plan is None else plan["pounds"]


def crossing_choices(terrain: str, marks: int, bonus_tracks: int, money: int) -> list[dict]:
    """Every sensible way to cross, from the most bonus tracks spent (cheapest) to none: each a
    crossing_plan dict plus "affordable" and "cheapest" flags, for a phone to let the player
    choose between spending bonus tracks and money."""
    _check_crossing_inputs(terrain, marks, bonus_tracks, money)
    short = tracks_short(terrain, marks)
    best = cheapest_crossing(terrain, marks, bonus_tracks, money)
    choices = []
    for bonus in range(min(bonus_tracks, short), -1, -1):
        plan = track_plan(terrain, marks, bonus)
        plan["affordable"] = plan["pounds"] <= money
        plan["cheapest"] = best is not None and bonus == best["bonus"]
        choices.append(plan)
    return choices


def explain_plan(plan: dict, marks: int) -> list[Msg]:
    """One way to cross (a track_plan dict) worked out in words, one line per step: the
    tracks needed, what the symbols that count (`marks`) cover, the bonus tracks spent, and the
    tracks bought at 10 pounds each. The table's panel and the calculator both show these."""
    needed, bonus, bought = plan["needed"], plan["bonus"], plan["bought"]
    short = max(0, needed - marks)
    lines: list[Msg] = [
        Plural(
            "The %(terrain)s needs %(needed)s track.",
            "The %(terrain)s needs %(needed)s tracks.",
            "needed",
            terrain=terrain_name(plan["terrain"]),
            needed=needed,
        )
    ]
    if short == 0:
        lines.append(
            Msg(N_("Track symbols that count: %(marks)s, enough on their own."), marks=marks)
        )
        return lines
    lines.append(
        Plural(
            "Track symbols that count: %(marks)s, so %(short)s track is missing.",
            "Track symbols that count: %(marks)s, so %(short)s tracks are missing.",
            "short",
            marks=marks,
            short=short,
        )
    )
    if bonus:
        lines.append(
            Msg(
                N_("Bonus tracks spent: %(bonus)s; still missing: %(left)s."),
                bonus=bonus,
                left=short - bonus,
            )
        )
    if bought:
        lines.append(
            Msg(
                N_("Tracks bought: %(bought)s × %(price)s = %(pounds)s."),
                bought=bought,
                price=pounds(TRACK_PRICE),
                pounds=pounds(plan["pounds"]),
            )
        )
    else:
        lines.append(Msg(N_("Nothing to buy: this way costs no money.")))
    return lines

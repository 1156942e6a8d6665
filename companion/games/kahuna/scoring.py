"""Kahuna's scoring: the points of a round from the islands each colour holds, the winner and
its tie-break, and the control checker's report of a position.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.base import N_, Msg, Plural
from companion.games.kahuna.bridges import bridge_counts, control, islands_held, validated
from companion.games.kahuna.facts import COLOURS, ROUND_POINTS, ROUNDS


def round_points(round_no: int, islands: dict[str, int]) -> dict[str, int]:
    """Points a scoring gives each colour, from the number of islands each controls.

    Rounds 1 and 2 give 1 and 2 points to the colour with more islands; round 3 gives it the
    difference. Equal numbers give nothing.
    """
    if type(round_no) is not int or not 1 <= round_no <= ROUNDS:
        raise ValueError(f"round_no must be 1, 2 or 3, not {round_no!r}")
    held = {c: int(islands.get(c, 0)) for c in COLOURS}
    white, black = held["white"], held["black"]
    points = {c: 0 for c in COLOURS}
    if white == black:
        return points
    leader = "white" if white > black else "black"
    points[leader] = ROUND_POINTS.get(round_no, abs(white - black))
    return points


def explain_round(round_no: int, islands: list[int]) -> Msg:
    """A scoring's arithmetic in words, from the islands [white, black] held: the same sentence
    on the table page (under each scoring) and in the control checker."""
    white, black = islands
    points = max(round_points(round_no, {"white": white, "black": black}).values())
    if points == 0:
        return Msg(
            N_("Islands held: White %(white)s, Black %(black)s; with equal numbers nobody scores."),
            white=white,
            black=black,
        )
    won = Plural("%(number)s point", "%(number)s points", "number", number=points)
    if round_no in ROUND_POINTS:
        return Msg(
            N_(
                "Islands held: White %(white)s, Black %(black)s; in round %(round)s whoever "
                "holds more scores %(points)s."
            ),
            white=white,
            black=black,
            round=round_no,
            points=won,
        )
    return Msg(
        N_(
            "Islands held: White %(white)s, Black %(black)s; round 3 gives whoever holds more "
            "the difference: %(more)s − %(fewer)s = %(points)s."
        ),
        white=white,
        black=black,
        more=max(white, black),
        fewer=min(white, black),
        points=won,
    )


def decide_winner(
    points: list[int], round3: list[int], bridges: list[int]
) -> tuple[int | None, str]:
    """(winning seat or None, tie-break used): points, then the round-3 scorer, then bridges."""
    for values, how in ((points, "points"), (round3, "round-3"), (bridges, "bridges")):
        if values[0] != values[1]:
            return (0 if values[0] > values[1] else 1), how
    return None, "draw"


def control_report(bridges: Mapping[Any, str]) -> dict:
    """For the stand-alone control checker: who holds what and what each round would give
    (bridges: site -> colour, a site as a tuple or as "Aloa-Bari"; validated here)."""
    board = validated(bridges)
    held = islands_held(board)
    return {
        "control": control(board),
        "islands": held,
        "bridges": bridge_counts(board),
        "round_points": {r: round_points(r, held) for r in range(1, ROUNDS + 1)},
    }

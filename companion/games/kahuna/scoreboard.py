"""What the pages read off a Kahuna state beyond the view: the final score table, the
replay's standings and round, and the seat that started."""

from __future__ import annotations

from companion.games.base import N_, Msg, ScoreTable, Standings
from companion.games.kahuna.bridges import bridge_counts, bridges_from_json
from companion.games.kahuna.facts import COLOURS, ROUNDS
from companion.games.kahuna.history import tie_break_line
from companion.games.kahuna.state import held_by_seat, total_points

#: The score table's rows (English msgids: also the CSV export's column names). The rounds' points
#: add up to the total; the islands and bridges at the end are what the tie-breaks look at.
ROUND_ROWS = (N_("Round 1 points"), N_("Round 2 points"), N_("Round 3 points"))
ISLANDS_ROW = N_("Islands held at the end")
BRIDGES_ROW = N_("Bridges on the board at the end")
TOTAL_ROW = N_("Total points")


def score_table(state: dict, result: dict) -> ScoreTable:
    """The result as a comparison table: the winner first (White first in a draw), each round's
    points, the islands and bridges at the end, the total and the tie-break in words."""
    winner = result["winner"]
    seats = [0, 1] if winner in (None, 0) else [1, 0]
    points = {r["round"]: r["points"] for r in result["rounds"]}
    rows = [
        (label, [points.get(n, [0, 0])[s] for s in seats])
        for n, label in enumerate(ROUND_ROWS, start=1)
    ]
    rows.append((ISLANDS_ROW, [result["islands"][s] for s in seats]))
    rows.append((BRIDGES_ROW, [result["bridges"][s] for s in seats]))
    return ScoreTable(
        seats=seats,
        ranks=[1, 1] if winner is None else [1, 2],
        winners=[0, 1] if winner is None else [winner],
        rows=rows,
        totals=[result["points"][s] for s in seats],
        total_label=TOTAL_ROW,
        decided_by=tie_break_line(result),
    )


def standings_at(state: dict, result: dict | None, everything: bool) -> Standings:
    """The replay's standings, all public: the points of the scorings so far, the islands each
    holds now (what the next scoring counts), the bridges on the board and the cards in hand.
    The lead: more points; equal points, more islands held. Nothing is private."""
    points = total_points(state)
    islands = held_by_seat(state)
    bridges = bridge_counts(bridges_from_json(state["bridges"]))
    values = [[points[s], islands[s], bridges[COLOURS[s]], state["hands"][s]] for s in (0, 1)]
    leaders: list[int] = []
    for measure in (points, islands):
        if measure[0] != measure[1]:
            leaders = [0 if measure[0] > measure[1] else 1]
            break
    note = N_("Points from the scorings so far; the islands held now decide the next scoring.")
    return Standings(
        [N_("Points"), N_("Islands held"), N_("Bridges"), N_("Cards in hand")],
        values,
        leaders,
        note,
    )


def step_round(state: dict) -> Msg:
    """The three rounds, each ending with its scoring, then the end."""
    if state["over"]:
        return Msg(N_("The game is over"))
    return Msg(N_("Round %(round)s of %(total)s"), round=state["round"], total=ROUNDS)


def start_seat(state: dict) -> int:
    """White starts the game (our reading "first-player"); seat 0 is White."""
    return COLOURS.index("white")

"""How a Kahuna game went, for the summary's picture: the islands each player held after every
turn, and the turns at whose end the three scorings came. Read from the state after every
action (a replay of the log), so it needs nothing the states do not keep.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.games.kahuna.state import held_by_seat


def islands_by_turn(states: Sequence[dict]) -> dict:
    """{"islands": [[white...], [black...]], "scorings": [(turn, round), ...]}.

    Entry 0 of each list is the start (nobody holds an island); entry n is the position at the
    end of turn n. A turn ends when the turn passes (a draw or a decline); the face-up cards
    entered between turns belong to no turn. A scoring is listed at the turn whose end brought
    it. A game that stops mid-turn ends with its last position as one more entry.
    """
    islands: list[list[int]] = [[0], [0]]
    scorings: list[tuple[int, int]] = []
    turn, scored, sampled = 0, 0, True
    for state in states:
        sampled = state["turn"] != turn
        if not sampled:
            continue
        turn = state["turn"]
        _add(islands, state)
        for entry in state["rounds"][scored:]:
            scorings.append((len(islands[0]) - 1, entry["round"]))
        scored = len(state["rounds"])
    if not sampled:
        _add(islands, states[-1])
    return {"islands": islands, "scorings": scorings}


def _add(islands: list[list[int]], state: dict) -> None:
    for seat, held in enumerate(held_by_seat(state)):
        islands[seat].append(held)

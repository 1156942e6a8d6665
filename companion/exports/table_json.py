"""Everything of a table as JSON: the table, its seats, its events (each with the time it was
stored, ISO 8601 with the table's offset), and once the game is over its result, its score table
and each seat's thinking time.

It is lossless except for what was never public: before the end a game action is left out (a
sealed bid or a private point is in one), and after it an undone secret action keeps only its
kind and seat (the caller's `action`, companion.web.after.shown_action).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion import localtime
from companion.games.base import ScoreTable
from companion.plaintext import plain_data
from companion.tables import Event, SeatRow, Table


def table_json(
    table: Table,
    seats: list[SeatRow],
    events: list[Event],
    *,
    started: float | None,
    result: dict | None,
    score: ScoreTable | None,
    action: Callable[[Event], dict],
    lines: Callable[[Event], list[str]],
    seconds: list[float] | None = None,
) -> dict:
    """The table as JSON-ready data. result is None while the game goes on; score is the game's
    score table (a ScoreTable) or None; action(event) is what may be
    shown of an event's action, lines(event) its history lines in English."""
    zone = table.timezone
    over = result is not None
    data: dict[str, Any] = {
        "table": {
            "code": table.code,
            "game": table.game.key,
            "game_name": table.game.label,
            "options": table.options,
            "settings": table.settings,  # the table's options beyond the game's (a time bank)
            "players": table.players,
            "time_zone": zone,
            "created": localtime.iso(table.created, zone),
            "started": localtime.iso(started, zone),
            "ended": localtime.iso(table.ended if over else None, zone),
        },
        "seats": [{"seat": s.seat, "name": s.name} for s in seats],
        "events": [
            {
                "seq": e.seq,
                "seat": e.seat,
                "host": e.host,
                "kind": e.kind,
                "created": localtime.iso(e.created, zone),
                **({"action": action(e)} if over or e.kind != "game" else {}),
                "lines": lines(e),
                "undone": e.undone,
            }
            for e in events
        ],
        "result": result if over else None,
    }
    if over and score is not None:
        data["scores"] = {
            "seats": score.seats,
            "ranks": score.ranks,
            "winners": score.winners,
            "totals": score.totals,
            "rows": [[label, values] for label, values in score.rows],
        }
    if over and seconds is not None:
        data["thinking_seconds"] = [round(s, 1) for s in seconds]
    # Names, notes and history lines are typed text: no control character reaches the file.
    return plain_data(data)

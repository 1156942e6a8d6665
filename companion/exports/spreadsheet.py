"""The record as a spreadsheet (CSV): one row per player of each play, oldest play first.

The columns: date (the table's own day), game, duration in minutes, seat, name, score, rank,
winner, then the games' breakdown rows (English labels; with several games, every game's rows,
empty where a game has no such row), then the start player, the thinking time in seconds, the
variant played, the place, the time zone, the table's code and the play's id (the same uuid as
in the BG Stats file).
"""

from __future__ import annotations

import csv
import io

from companion import localtime
from companion.exports.bgstats import SOURCE_NAME, place, play_uuid
from companion.games import GAMES
from companion.plays import Play

FIRST = ["date", "game", "duration_minutes", "seat", "name", "score", "rank", "winner"]
LAST = [
    "start_player",
    "thinking_seconds",
    "board",
    "location",
    "time_zone",
    "table",
    "play_id",
]


def _yes(value: bool | None) -> str:
    return "" if value is None else "yes" if value else "no"


# A cell that a spreadsheet would read as a formula (OWASP's CSV injection): "=HYPERLINK(...)",
# "+cmd|...", "@SUM(...)", "-2+3", or one that starts with a tab or carriage return.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def cell(typed: str) -> str:
    """A cell of typed text (a name, a place) as text, never a formula: one that begins as a
    formula would gets a leading apostrophe, which spreadsheets show as text. Numbers the app
    computed (a negative score) are written as numbers, not through here."""
    return "'" + typed if typed.startswith(FORMULA_START) else typed


def csv_text(found: list[Play], *, location: str = SOURCE_NAME) -> str:
    """The plays as CSV text (names with commas, quotes or line breaks quoted as CSV does)."""
    found = [play.plain() for play in found]
    columns: list[str] = []
    for play in found:
        for label in play.rows or []:
            if label not in columns:
                columns.append(label)
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([*FIRST, *columns, *LAST])
    for play in sorted(found, key=lambda p: p.ended):
        info = GAMES.get(play.game)
        day = localtime.local(play.started or play.ended, play.timezone).strftime("%Y-%m-%d")
        for p in sorted(play.players, key=lambda p: p.seat):
            parts = dict(zip(play.rows or [], p.parts or []))
            writer.writerow(
                [
                    day,
                    info.label if info is not None else play.game,
                    "" if play.minutes is None else play.minutes,
                    p.seat + 1,
                    cell(p.name),
                    "" if p.score is None else p.score,
                    "" if p.rank is None else p.rank,
                    _yes(p.winner),
                    *[parts.get(label, "") for label in columns],
                    _yes(None if play.start_seat is None else p.seat == play.start_seat),
                    "" if p.seconds is None else round(p.seconds),
                    play.board,
                    cell(place(play, location)),
                    play.timezone or "",
                    play.code,
                    play_uuid(play),
                ]
            )
    return out.getvalue()

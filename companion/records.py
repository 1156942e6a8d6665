"""What a finished table leaves in the record of plays, built from the table itself: each
player's score, rank and win (the game's score table), their part of the breakdown and their
thinking time, the start seat, the options and variant played, the table's zone and place.

A play is written once its game is over (ensure_play). A play recorded before the record held all
of this is completed from its table while the table exists; once the table is purged it keeps
(and exports) what it has.
"""

from __future__ import annotations

from companion import plays, tables
from companion.games.base import Msg
from companion.store import Store


def build_play(db: Store, table: tables.Table) -> plays.Play | None:
    """The play of a finished table as the record keeps it (None while the game goes on)."""
    rules = table.game.rules
    state = tables.state_of(db, table)
    result = rules.result(state)
    if result is None or table.ended is None:
        return None
    score = rules.score_table(state, result)
    clock = tables.rebuild_clock(db, table)  # from the log, once: pauses left out
    seconds = clock.seconds(clock.since if clock.since is not None else 0.0)
    found = []
    for row in tables.seats(db, table):
        value, rank, winner, parts = None, None, False, None
        if score is not None and row.seat in score.seats:
            i = score.seats.index(row.seat)
            value, rank = score.totals[i], score.ranks[i]
            winner = row.seat in score.winners
            parts = [values[i] for _, values in score.rows]
        found.append(
            plays.PlayerResult(
                row.seat,
                row.name,
                row.named,
                value,
                rank,
                winner,
                parts,
                round(seconds[row.seat], 1),
            )
        )
    board = [table.game.variant, *rules.variants(state)]
    decided = score.decided_by if score is not None else None
    if decided is not None and not isinstance(decided, Msg):
        decided = Msg(str(decided))
    return plays.Play(
        code=table.code,
        game=table.game.key,
        started=tables.started_at(db, table),
        ended=table.ended,
        players=found,
        created=table.created,
        start_seat=rules.start_seat(state),
        options=dict(table.options),
        board=", ".join(part for part in board if part),
        timezone=table.timezone,
        location=table.location,
        rows=[label for label, _ in score.rows] if score is not None else [],
        decided_by=decided.to_json() if decided is not None else None,
    )


def ensure_play(db: Store, code: str) -> plays.Play | None:
    """The play of the table with this code: recorded now if its game is over and its play is
    not recorded yet (or was recorded before the record kept all it keeps now)."""
    table = tables.find_table(db, code)
    if table is None or table.ended is None:
        return None
    found = plays.play_of(db, table.id)
    if found is not None and found.complete:
        return found
    play = build_play(db, table)
    if play is not None:
        plays.record_play(db, table.id, play)
    return play or found


def ensure_all_plays(db: Store) -> None:
    """Every finished table has its whole play (e.g. before /plays shows the record, or before
    old tables are purged)."""
    for (code,) in db.execute(
        "SELECT code FROM tables WHERE ended IS NOT NULL"
        " AND id NOT IN (SELECT table_id FROM plays WHERE score_rows IS NOT NULL)"
    ).fetchall():
        ensure_play(db, code)

"""Past plays a device brought from BG Stats or BoardGameGeek (read by companion/imports.py,
matched by companion/import_match.py): where they are kept and how the record reads them.

They belong to the importing device's own id (the signed `device` cookie, companion.web.device):
the record's other plays are found through the device's signed list of table codes, which has
room for a hundred tables and none for years of plays. A play is kept once per device and
source id (BG Stats' play uuid, BGG's play id), so a second import of the same file adds
nothing. The choices a device made while matching (a game, a player, who it is) are kept for
its next import; a file read but not yet confirmed is a draft, kept a day.

An imported play reads as a companion.plays.Play (source "bgstats" or "bgg"), so /plays, /stats,
the player pages and the exports treat it as any other. Its time is the source's wall time
(no zone is known): kept as that time in UTC, with the zone "UTC", it shows as written.
"""

from __future__ import annotations

import datetime as dt
import json
import time
from collections.abc import Iterable

from companion.imports import Imported, ImportedPlay
from companion.plays import Play, PlayerResult
from companion.store import Store

DRAFT_SECONDS = 24 * 3600  # a preview nobody confirmed is dropped after a day
WALL = "%Y-%m-%d %H:%M:%S"


# --- drafts: a file read, waiting for the person's choices ----------------------------------------


def save_draft(db: Store, device: str, name: str, found: Imported, now: float | None = None) -> int:
    """Keep what a file holds until the person confirms the import; the draft's id. Drafts
    older than a day (anyone's) go."""
    now = time.time() if now is None else now
    with db.transaction():
        db.execute("DELETE FROM import_drafts WHERE created < ?", [now - DRAFT_SECONDS])
        row = db.execute(
            "INSERT INTO import_drafts (device, created, name, data) VALUES (?, ?, ?, ?)"
            " RETURNING id",
            [device, now, name[:200], found.to_json()],
        ).fetchone()
    return int(row[0])


def draft(db: Store, device: str, draft_id: int) -> tuple[str, Imported] | None:
    """The file name and reading of this device's draft, or None (gone, another's, or an id no
    draft can have: a URL's number is not bounded, a database integer is)."""
    if not 0 < draft_id < 2**63:
        return None
    row = db.execute(
        "SELECT name, data FROM import_drafts WHERE id = ? AND device = ?", [draft_id, device]
    ).fetchone()
    return None if row is None else (row[0], Imported.from_json(row[1]))


def drop_draft(db: Store, device: str, draft_id: int) -> None:
    """Forget a draft (imported, or given up)."""
    with db.transaction():
        db.execute("DELETE FROM import_drafts WHERE id = ? AND device = ?", [draft_id, device])


# --- what the device chose before ------------------------------------------------------------------


def choices(db: Store, device: str, kind: str) -> dict[str, str]:
    """The device's remembered choices of one kind ("game", "player", "me"): key -> choice."""
    return dict(
        db.execute(
            "SELECT source_key, choice FROM import_choices WHERE device = ? AND kind = ?",
            [device, kind],
        ).fetchall()
    )


def remember(db: Store, device: str, kind: str, chosen: dict[str, str]) -> None:
    """Keep these choices for the device's next import (a new choice replaces the old)."""
    with db.transaction():
        for key, choice in chosen.items():
            db.execute(
                "INSERT INTO import_choices (device, kind, source_key, choice) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (device, kind, source_key) DO UPDATE SET choice = excluded.choice",
                [device, kind, key[:200], choice[:200]],
            )


# --- the imported plays --------------------------------------------------------------------------


def known_ids(db: Store, device: str) -> set[tuple[str, str]]:
    """(source, id) of every play the device imported, its BGG play id too when known."""
    found: set[tuple[str, str]] = set()
    for source, source_id, bgg_play in db.execute(
        "SELECT source, source_id, bgg_play FROM imported_plays WHERE device = ?", [device]
    ).fetchall():
        found.add((source, source_id))
        if bgg_play:
            found.add(("bgg", bgg_play))
    return found


def store(
    db: Store,
    device: str,
    found: Iterable[ImportedPlay],
    names: dict[str, str],
    now: float | None = None,
) -> int:
    """Keep these plays for the device, each player under the name they were matched to
    (names: player key -> the name in the record; "" or missing: their own); how many were
    new (a play already kept is left as it is)."""
    now = time.time() if now is None else now
    added = 0
    with db.transaction():
        for play in found:
            players = [
                _player_row(i, p, names.get(p.key) or "") for i, p in enumerate(play.players)
            ]
            row = db.execute(
                "INSERT INTO imported_plays (device, source, source_id, bgg_play, game, played,"
                " minutes, location, board, comments, players, imported)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (device, source, source_id) DO NOTHING RETURNING id",
                [
                    device,
                    play.source,
                    play.source_id,
                    play.bgg_play,
                    play.game,
                    play.played.strftime(WALL),
                    play.minutes,
                    play.location,
                    play.board,
                    play.comments,
                    json.dumps(players, ensure_ascii=False),
                    now,
                ],
            ).fetchone()
            added += row is not None
    return added


def _player_row(index: int, player, matched: str) -> dict:
    named = not player.anonymous and bool(player.name.strip())
    return {
        "seat": (player.seat - 1) if player.seat else index,
        "name": matched or player.name,
        "named": named,
        "score": _whole(player.score),
        "rank": player.rank,
        "winner": player.winner,
        "source_id": player.source_id,
        "username": player.username,
        "score_text": player.score_text,
        "source_name": player.name,
        "start": player.start,
    }


def _whole(score: float | None) -> float | int | None:
    return int(score) if score is not None and float(score).is_integer() else score


def stored(
    db: Store, device: str | None, *, game: str | None = None, player: str | None = None
) -> list[Play]:
    """The device's imported plays as plays of the record, newest first: of one game, or with
    a player of that name (matched as the record matches names)."""
    if not device:
        return []
    found = []
    for row in db.query(
        "SELECT * FROM imported_plays WHERE device = ? ORDER BY played DESC, id DESC", [device]
    ):
        if game and row["game"] != game:
            continue
        play = as_play(row)
        if player and not play.has_player(player):
            continue
        found.append(play)
    return found


def as_play(row: dict) -> Play:
    """An imported play as a play of the record (companion.plays.Play)."""
    wall = dt.datetime.strptime(row["played"], WALL).replace(tzinfo=dt.UTC).timestamp()
    minutes = row["minutes"]
    data = json.loads(row["players"])
    known = set(PlayerResult.__dataclass_fields__)
    players = [PlayerResult(**{k: v for k, v in p.items() if k in known}) for p in data]
    start = next((p["seat"] for p in data if p.get("start")), None)
    return Play(
        code=f"imported-{row['id']}",
        game=row["game"],
        started=wall if minutes else None,
        ended=wall + 60 * minutes if minutes else wall,
        players=players,
        start_seat=start,
        board=row["board"],
        timezone="UTC",
        location=row["location"] or None,
        source=row["source"],
        source_id=row["source_id"],
        bgg_play=row["bgg_play"],
        comments=row["comments"],
    )


def forget(db: Store, device: str) -> int:
    """Remove every play the device imported (its choices stay); how many."""
    with db.transaction():
        cursor = db.execute("DELETE FROM imported_plays WHERE device = ?", [device])
    return cursor.rowcount

"""The record of plays: one row per finished table, kept when old tables are purged, and the
statistics /plays and /stats show from it.

A play is written when a table's game is over (its result appeared; see tables._mark_end) by the
web layer, which knows the scores (the game adapter's score table); an undo that takes back the
end removes it. Names are compared case- and space-insensitively; a seat whose name nobody typed
(a default such as "Player 2" or "Italy") is no person and counts in no player's figures.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field

from companion.store import Store


@dataclass(frozen=True)
class PlayerResult:
    seat: int
    name: str
    named: bool
    score: float | int | None
    rank: int | None
    winner: bool


@dataclass(frozen=True)
class Play:
    code: str
    game: str  # registry key
    started: float | None
    ended: float
    players: list[PlayerResult]

    @property
    def minutes(self) -> int | None:
        """The duration in whole minutes (from the first action to the end)."""
        if self.started is None:
            return None
        return max(0, round((self.ended - self.started) / 60))

    @property
    def winners(self) -> list[PlayerResult]:
        return [p for p in self.players if p.winner]


def person(name: str) -> str:
    """The key a name is matched by: case and spacing do not matter."""
    return " ".join(name.split()).casefold()


def record_play(
    db: Store,
    table_id: int,
    code: str,
    game: str,
    started: float | None,
    ended: float,
    players: list[PlayerResult],
) -> None:
    """Write (or rewrite) the play of a finished table."""
    data = json.dumps([p.__dict__ for p in players], ensure_ascii=False)
    with db.transaction():
        db.execute(
            "INSERT INTO plays (table_id, code, game, started, ended, players) VALUES"
            " (?, ?, ?, ?, ?, ?) ON CONFLICT (table_id) DO UPDATE SET code = excluded.code,"
            " game = excluded.game, started = excluded.started, ended = excluded.ended,"
            " players = excluded.players",
            [table_id, code, game, started, ended, data],
        )


def has_play(db: Store, table_id: int) -> bool:
    return db.execute("SELECT 1 FROM plays WHERE table_id = ?", [table_id]).fetchone() is not None


def tables_kept(db: Store, codes: list[str]) -> set[str]:
    """The codes, of these, whose table is still on the server (not purged: it has a replay)."""
    kept: set[str] = set()
    for start in range(0, len(codes), 500):
        chunk = codes[start : start + 500]
        marks = ", ".join("?" for _ in chunk)
        rows = db.execute(f"SELECT code FROM tables WHERE code IN ({marks})", chunk).fetchall()
        kept.update(code for (code,) in rows)
    return kept


def has_play_of(db: Store, code: str) -> bool:
    """Whether a play of a table with this code is recorded (its table may be purged since)."""
    return db.execute("SELECT 1 FROM plays WHERE code = ?", [code]).fetchone() is not None


def plays(
    db: Store,
    *,
    codes: set[str] | None = None,
    game: str | None = None,
    player: str | None = None,
) -> list[Play]:
    """Finished plays, newest first: only those of these table codes (None: every play), of one
    game, or with a player of that name."""
    found = []
    for row in db.query("SELECT * FROM plays ORDER BY ended DESC"):
        if codes is not None and row["code"] not in codes:
            continue
        if game and row["game"] != game:
            continue
        players = [PlayerResult(**p) for p in json.loads(row["players"])]
        if player and not any(p.named and person(p.name) == person(player) for p in players):
            continue
        found.append(Play(row["code"], row["game"], row["started"], row["ended"], players))
    return found


@dataclass
class Figures:
    """Plays, wins and scores of one game or one player."""

    plays: int = 0
    wins: int = 0
    scores: list = field(default_factory=list)
    longest: int | None = None  # minutes

    @property
    def win_rate(self) -> float:
        return self.wins / self.plays if self.plays else 0.0

    @property
    def average(self) -> float | None:
        return sum(self.scores) / len(self.scores) if self.scores else None

    @property
    def best(self):
        return max(self.scores) if self.scores else None

    def add(self, won: bool, score, minutes: int | None) -> None:
        self.plays += 1
        self.wins += int(won)
        if isinstance(score, (int, float)):
            self.scores.append(score)
        if minutes is not None:
            self.longest = minutes if self.longest is None else max(self.longest, minutes)


def statistics(
    found: list[Play],
) -> tuple[dict[str, Figures], dict[tuple[str, str], Figures], dict[str, str]]:
    """Per game (key -> figures of its plays: wins there are plays with a winner), and per game
    and player ((game, person key) -> figures), with each person's name as last typed."""
    per_game: dict[str, Figures] = {}
    per_player: dict[tuple[str, str], Figures] = {}
    shown: dict[str, str] = {}
    for play in sorted(found, key=lambda p: p.ended):
        game = per_game.setdefault(play.game, Figures())
        game.add(
            bool(play.winners),
            max((p.score for p in play.players if isinstance(p.score, (int, float))), default=None),
            play.minutes,
        )
        for p in play.players:
            if not p.named:
                continue
            key = person(p.name)
            shown[key] = p.name
            per_player.setdefault((play.game, key), Figures()).add(p.winner, p.score, play.minutes)
    return per_game, per_player, shown


def purge(
    db: Store,
    *,
    unfinished_days: float | None,
    finished_days: float | None,
    now: float | None = None,
) -> dict[str, int]:
    """Remove tables nobody will come back to: unfinished ones untouched for unfinished_days,
    finished ones older than finished_days (None: keep them). Their plays stay. Returns counts."""
    now = time.time() if now is None else now
    doomed = []
    if unfinished_days is not None:
        doomed += [
            r[0]
            for r in db.execute(
                "SELECT id FROM tables WHERE ended IS NULL AND coalesce(touched, created) < ?",
                [now - unfinished_days * 86400],
            ).fetchall()
        ]
    if finished_days is not None:
        doomed += [
            r[0]
            for r in db.execute(
                "SELECT id FROM tables WHERE ended IS NOT NULL AND ended < ?",
                [now - finished_days * 86400],
            ).fetchall()
        ]
    counts = {"unfinished": 0, "finished": 0}
    with db.transaction():
        for table_id in doomed:
            ended = db.execute("SELECT ended FROM tables WHERE id = ?", [table_id]).fetchone()[0]
            counts["finished" if ended is not None else "unfinished"] += 1
            for name in ("events", "snapshots", "submissions", "seats", "displays"):
                db.execute(f"DELETE FROM {name} WHERE table_id = ?", [table_id])
            db.execute("DELETE FROM tables WHERE id = ?", [table_id])
    return counts

"""The record of plays: one row per finished table, kept when old tables are purged, and the
statistics /plays, /stats and the player pages show from it.

A play is written when a table's game is over (its result appeared; see
tables.event_log._mark_end) by companion.records, which knows the scores (the game adapter's
score table); an undo that takes back the end removes it. Names are compared case- and
space-insensitively; a seat whose name nobody typed (a default such as "Player 2" or "Italy") is
no person and counts in no player's figures.
"""

from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass, field, replace

from companion.plaintext import plain
from companion.store import Store


@dataclass(frozen=True)
class PlayerResult:
    seat: int
    name: str
    named: bool
    score: float | int | None
    rank: int | None
    winner: bool
    parts: list | None = None  # this seat's value in each row of the score table
    seconds: float | None = None  # thinking time (companion.timing); None: not measured
    # An imported play's player (companion/past_plays.py): who they are in the source, and
    # the score as the source wrote it when it is a sum ("10+3+0")
    source_id: str = ""
    username: str = ""
    score_text: str = ""


@dataclass(frozen=True)
class Play:
    code: str
    game: str  # registry key
    started: float | None
    ended: float
    players: list[PlayerResult]
    created: float | None = None  # the table's creation: with the code, the play's stable id
    start_seat: int | None = None
    options: dict = field(default_factory=dict)  # the table's options (e.g. the variant)
    board: str = ""  # the variant and options played, in English (BG Stats' "board")
    timezone: str | None = None  # the table's IANA zone (None: the server's)
    location: str | None = None  # where it was played, as the host named it (None: the default)
    rows: list[str] | None = None  # the score table's row labels (msgids); None: recorded before
    decided_by: dict | None = None  # the tie-break in words (a Msg's JSON), if one decided
    # A play a device imported (companion/past_plays.py): "bgstats" or "bgg" ("": played here),
    # its id there, its BoardGameGeek play id when known, and the source's comments
    source: str = ""
    source_id: str = ""
    bgg_play: str = ""
    comments: str = ""

    def plain(self) -> Play:
        """This play with its typed text (names, the place) made plain for an export
        (companion.plaintext): a row stored before the forms refused control characters
        cannot forge a line or turn text around in what people take home."""
        return replace(
            self,
            players=[replace(p, name=plain(p.name)) for p in self.players],
            location=None if self.location is None else plain(self.location),
        )

    @property
    def minutes(self) -> int | None:
        """The duration in whole minutes (from the first action to the end)."""
        if self.started is None:
            return None
        return max(0, round((self.ended - self.started) / 60))

    @property
    def ranked(self) -> list[PlayerResult]:
        """The players best first (by rank; an imported play may have none: then by seat)."""
        return sorted(self.players, key=lambda p: (p.rank is None, p.rank or 0, p.seat))

    def has_player(self, name: str) -> bool:
        """Whether a named player of this play is called `name` (as person() matches names)."""
        return any(p.named and person(p.name) == person(name) for p in self.players)

    @property
    def winners(self) -> list[PlayerResult]:
        return [p for p in self.players if p.winner]

    @property
    def complete(self) -> bool:
        """Whether the play holds what the exports need (a play recorded before does not)."""
        return self.rows is not None

    @property
    def timed(self) -> bool:
        """Whether each seat's thinking time was measured."""
        return any(p.seconds is not None for p in self.players)


def person(name: str) -> str:
    """The key a name is matched by: case and spacing do not matter."""
    return " ".join(name.split()).casefold()


HOLDING = 8  # characters of a seat token's hash kept (companion.web.device.HOLDING)

COLUMNS = (
    "code",
    "game",
    "started",
    "ended",
    "players",
    "created",
    "start_seat",
    "options",
    "board",
    "timezone",
    "location",
    "score_rows",
    "decided_by",
)


def record_play(db: Store, table_id: int, play: Play) -> None:
    """Write (or rewrite) the play of a finished table. Each player's entry also keeps which
    holding of the seat (the start of its token's hash; None: no phone) was there at the end:
    once the table is purged, that says which phone's list entry still opens the play
    (companion.web.device.entitled; freeing the seat clears it)."""
    holders = dict(
        db.execute("SELECT seat, token_hash FROM seats WHERE table_id = ?", [table_id]).fetchall()
    )
    players = [
        {**asdict(p), "holder": (holders.get(p.seat) or "")[:HOLDING] or None} for p in play.players
    ]
    values = [
        play.code,
        play.game,
        play.started,
        play.ended,
        json.dumps(players, ensure_ascii=False),
        play.created,
        play.start_seat,
        json.dumps(play.options),
        play.board,
        play.timezone,
        play.location,
        None if play.rows is None else json.dumps(play.rows),
        None if play.decided_by is None else json.dumps(play.decided_by, ensure_ascii=False),
    ]
    updates = ", ".join(f"{c} = excluded.{c}" for c in COLUMNS)
    with db.transaction():
        db.execute(
            f"INSERT INTO plays (table_id, {', '.join(COLUMNS)}) VALUES"
            f" (?, {', '.join('?' * len(COLUMNS))}) ON CONFLICT (table_id) DO UPDATE SET {updates}",
            [table_id, *values],
        )


def _play(row: dict) -> Play:
    known = set(PlayerResult.__dataclass_fields__)
    players = [
        PlayerResult(**{k: v for k, v in p.items() if k in known})
        for p in json.loads(row["players"])
    ]
    return Play(
        code=row["code"],
        game=row["game"],
        started=row["started"],
        ended=row["ended"],
        players=players,
        created=row.get("created"),
        start_seat=row.get("start_seat"),
        options=json.loads(row.get("options") or "{}"),
        board=row.get("board") or "",
        timezone=row.get("timezone"),
        location=row.get("location"),
        rows=json.loads(row["score_rows"]) if row.get("score_rows") is not None else None,
        decided_by=json.loads(row["decided_by"]) if row.get("decided_by") else None,
    )


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
        play = _play(row)
        if player and not play.has_player(player):
            continue
        found.append(play)
    return found


def play_of(db: Store, table_id: int) -> Play | None:
    """The play of one table, or None (not finished, or not recorded yet)."""
    rows = list(db.query("SELECT * FROM plays WHERE table_id = ?", [table_id]))
    return _play(rows[0]) if rows else None


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


@dataclass
class Rival:
    """Head to head: the plays a player shared with another named player, and who won them."""

    name: str  # the other player's name as last typed
    games: int = 0
    wins: int = 0  # plays the page's player won (a shared win counts for both)
    their_wins: int = 0


@dataclass
class PlayerRecord:
    """What a player's page shows: their plays, their figures overall and per game, head to head
    against everyone they played with, and their winning streaks."""

    name: str  # as last typed
    plays: list[Play]  # newest first
    overall: Figures
    per_game: dict[str, Figures]  # game key -> figures, in the order first played
    rivals: list[Rival]  # most games together first
    streak: int  # wins in a row up to the latest play
    best_streak: int  # the longest run of wins in a row


def player_record(found: list[Play], name: str) -> PlayerRecord | None:
    """The record of the player called `name` (matched as person() matches) among these plays,
    or None if they played none of them."""
    key = person(name)
    mine = [
        (play, me)
        for play in sorted(found, key=lambda p: p.ended)
        for me in play.players
        if me.named and person(me.name) == key
    ]
    if not mine:
        return None
    overall = Figures()
    per_game: dict[str, Figures] = {}
    rivals: dict[str, Rival] = {}
    streak = best = 0
    for play, me in mine:
        overall.add(me.winner, me.score, play.minutes)
        per_game.setdefault(play.game, Figures()).add(me.winner, me.score, play.minutes)
        streak = streak + 1 if me.winner else 0
        best = max(best, streak)
        for other in play.players:
            if other is me or not other.named or person(other.name) == key:
                continue
            rival = rivals.setdefault(person(other.name), Rival(other.name))
            rival.name = other.name
            rival.games += 1
            rival.wins += int(me.winner)
            rival.their_wins += int(other.winner)
    return PlayerRecord(
        name=mine[-1][1].name,
        plays=[play for play, _ in reversed(mine)],
        overall=overall,
        per_game=per_game,
        rivals=sorted(rivals.values(), key=lambda r: (-r.games, person(r.name))),
        streak=streak,
        best_streak=best,
    )


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
            _remove_table(db, table_id)
    return counts


def _remove_table(db: Store, table_id: int) -> None:
    for name in ("events", "snapshots", "submissions", "seats", "displays"):
        db.execute(f"DELETE FROM {name} WHERE table_id = ?", [table_id])
    db.execute("DELETE FROM tables WHERE id = ?", [table_id])


EMPTY_AFTER = 24 * 3600  # seconds an empty table (no event, no seat taken) is kept untouched
EMPTY_SWEEP_EVERY = 600  # seconds between this process's looks for them
_last_empty_sweep = [0.0]


def remove_empty_tables(db: Store, now: float | None = None, *, force: bool = False) -> int:
    """Remove tables nothing ever happened at (no event, no seat taken) untouched for a day:
    started and abandoned, or started by a script. Looked for at most every ten minutes per
    process (force: now); the rest waits for the manual purge. Returns how many went."""
    now = time.time() if now is None else now
    if not force and now - _last_empty_sweep[0] < EMPTY_SWEEP_EVERY:
        return 0
    _last_empty_sweep[0] = now
    empty = [
        row[0]
        for row in db.execute(
            "SELECT id FROM tables t WHERE coalesce(t.touched, t.created) < ?"
            " AND NOT EXISTS (SELECT 1 FROM events e WHERE e.table_id = t.id)"
            " AND NOT EXISTS (SELECT 1 FROM seats s WHERE s.table_id = t.id"
            " AND s.token_hash IS NOT NULL)",
            [now - EMPTY_AFTER],
        ).fetchall()
    ]
    if empty:
        with db.transaction():
            for table_id in empty:
                _remove_table(db, table_id)
    return len(empty)

"""kill -9 during writes: every acknowledged action survives the restart, none is applied twice,
and every table's stored state is the replay of its log.

    python -m scripts.check_crash                 # 20 kills (about a minute)
    python -m scripts.check_crash --quick         # 3 kills: what `make test` runs
    python -m scripts.check_crash --kills 50 --seed 4

The app is served as `make run` serves it (scripts/check_kit.py) on a free loopback port with a table of every
game. One writer per table keeps posting, as a phone's script does, each submission with its own
key: legal game actions (the games' random-game generators, through the games' forms, from the
seat's phone or the host's device), notes with words of their own, and the host's undos. Meanwhile
the server is killed with SIGKILL at random moments and started again on the same database file;
a writer whose request got no answer sends the very same request again once the server is back
(as the page's script does with what got no answer), until it is answered.

Then: every submission whose answer reached the writer (200) has its key among the table's
applied keys and its effect in the log; each applied key made exactly one change (one event, or
one undone event: nothing applied twice, even when sent again); every acknowledged note's words
are in the log once; each table's stored snapshot equals tables.replay() of its log; SQLite's
integrity check passes. The exit status is 1 if any of that fails.
"""

from __future__ import annotations

import http.client
import random
import secrets
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

from companion import tables
from scripts.check_kit import (
    GAMES,
    HX,
    Figures,
    Store,
    TableAt,
    announce,
    check_database,
    check_parser,
    conclude,
    csrf_from,
    forms_app,
    legal_post,
    open_table,
    start_app,
    version_of,
)


class Writer(threading.Thread):
    """One table's phones and host, posting one submission after another, each with a key; a
    submission that got no answer is sent again, unchanged, until it gets one."""

    def __init__(self, table: TableAt, store: Store, up: threading.Event, seed: int):
        super().__init__(daemon=True)
        self.table, self.store, self.up = table, store, up
        self.rng = random.Random(seed)
        self.stop = threading.Event()
        self.posting = threading.Event()  # a POST of this writer is on its way
        self.sent: dict[str, str] = {}  # key -> kind ("game", "note", "undo")
        self.acknowledged: dict[str, str] = {}  # key -> kind
        self.refused: dict[str, int] = {}  # key -> status
        self.notes: dict[str, str] = {}  # key -> words
        self.cut = 0  # submissions whose answer a kill cut off (then sent again)
        self.errors: list[str] = []

    def next_submission(self):
        """(client, raw request, key, kind) of a new submission, or None (nothing to send now)."""
        table, rng = self.table, self.rng
        key = secrets.token_urlsafe(12)
        roll = rng.random()
        if roll < 0.55:
            state = self.store.state(table.code)
            if GAMES[table.game].rules.result(state) is not None:
                return None
            made = legal_post(table.game, state, rng, tries=20)
            if made is None:
                return None
            action, fields = made
            client, query = table.device(action.get("seat"), bool(action.get("host")))
            path, kind, data = f"/t/{table.code}/act/{action['type']}{query}", "game", fields
        elif roll < 0.9:
            phones = [p for p in table.phones if p is not None]
            client, query = rng.choice([table.host, *phones]), ""
            words = f"note {key[:8]}"
            self.notes[key] = words
            path, kind, data = f"/t/{table.code}/note", "note", {"text": words}
        else:
            db = self.store.db()
            try:
                record = tables.get_table(db, table.code)
                if tables.may_undo(db, record, seat=None, host=True) is None:
                    return None
            finally:
                db.conn.close()
            client, query = table.host, ""
            path, kind, data = f"/t/{table.code}/undo", "undo", {}
        page = client.get(f"/t/{table.code}/{query}")
        if page.status_code != 200:
            raise RuntimeError(f"page {page.status_code}")
        form = {"csrf_token": csrf_from(page.text), "version": version_of(page.text), **data}
        form["key"] = key
        return client, client.build("POST", path, data=form, headers=HX), key, kind

    def deliver(self, client, raw: bytes, key: str, kind: str) -> None:
        """Send until answered (the server may be down for a while)."""
        cut = False
        while True:
            self.up.wait()
            self.posting.set()
            try:
                answer = client.send(raw, "POST")
            except (OSError, http.client.HTTPException):  # the kill cut the answer off
                self.cut += 0 if cut else 1
                cut = True
                time.sleep(0.05)
                continue
            finally:
                self.posting.clear()
            if answer.status_code == 200:
                self.acknowledged[key] = kind
            else:
                self.refused[key] = answer.status_code
                if answer.status_code >= 500:
                    self.errors.append(f"{kind} answered {answer.status_code}")
            return

    def run(self) -> None:
        while not self.stop.is_set():
            self.up.wait()
            try:
                made = self.next_submission()
            except (OSError, http.client.HTTPException, RuntimeError):
                time.sleep(0.05)  # the server went down while the page was read: start again
                continue
            except Exception as error:  # the check reports it
                self.errors.append(repr(error)[:300])
                time.sleep(0.05)
                continue
            if made is None:
                time.sleep(0.01)
                continue
            client, raw, key, kind = made
            self.sent[key] = kind
            self.deliver(client, raw, key, kind)


def verify(store: Store, writers: list[Writer]) -> dict:
    """What the log says about every writer's submissions."""
    report = Counter()
    problems: list[str] = []
    db = store.db()
    try:
        for writer in writers:
            record = tables.get_table(db, writer.table.code)
            applied = store.keys(writer.table.code)
            log = tables.events(db, record)
            report["acknowledged"] += len(writer.acknowledged)
            lost = [k for k in writer.acknowledged if k not in applied]
            report["lost"] += len(lost)
            problems += [
                f"{writer.table.game}: acknowledged {writer.sent[k]} {k} not applied" for k in lost
            ]
            ours = {k: kind for k, kind in writer.sent.items() if k in applied}
            strangers = applied - set(writer.sent)
            if strangers:
                problems.append(f"{writer.table.game}: keys applied that nobody sent: {strangers}")
            # Each applied key made exactly one change: game and note keys one event each,
            # undo keys one undone event each.
            events_made = sum(1 for e in log if e.kind in ("game", "note"))
            undone = sum(1 for e in log if e.undone)
            keys_made = sum(1 for kind in ours.values() if kind in ("game", "note"))
            keys_undo = sum(1 for kind in ours.values() if kind == "undo")
            if events_made != keys_made or undone != keys_undo:
                report["duplicated or phantom"] += 1
                problems.append(
                    f"{writer.table.game}: {events_made} events for {keys_made} applied keys, "
                    f"{undone} undone for {keys_undo} undo keys"
                )
            words = Counter(e.action.get("text") for e in log if e.kind == "note")
            for key, text in writer.notes.items():
                if key in writer.acknowledged and words[text] != 1:
                    report["notes not once"] += 1
                    problems.append(
                        f"{writer.table.game}: note {text!r} in the log {words[text]} times"
                    )
    finally:
        db.conn.close()
    report["problems"] = problems
    return report


def run(
    kills: int, seed: int, backend: str = "sqlite", processes: int = 1
) -> tuple[Figures, float]:
    figures = Figures("crash")
    rng = random.Random(seed)
    started = time.time()
    with (
        tempfile.TemporaryDirectory() as tmp,
        check_database(backend, Path(tmp), "crash") as database,
    ):
        server = start_app(database, processes=processes)
        store = Store(database)
        up = threading.Event()
        up.set()
        writers = []
        try:
            for i, game in enumerate(GAMES):
                info = GAMES[game]
                players = rng.randint(info.min_players, info.max_players)
                table = open_table(server.port, game, players, display=False)
                writers.append(Writer(table, store, up, seed * 100 + i))
            forms_app()  # made once, before the writers need it
            for writer in writers:
                writer.start()
            downtime = []
            for _ in range(kills):
                # A random moment while a write is under way: wait a little, then for a POST
                # to be on its way, then a few milliseconds more (the request is being read,
                # checked, committed or answered).
                time.sleep(rng.uniform(0.2, 1.0))
                deadline = time.time() + 10  # several processes: workers still loading
                while not any(w.posting.is_set() for w in writers) and time.time() < deadline:
                    time.sleep(0.001)
                time.sleep(rng.uniform(0, 0.03))
                up.clear()
                server.kill()
                down = time.perf_counter()
                server.start()
                downtime.append(time.perf_counter() - down)
                up.set()
            time.sleep(0.5)
            for writer in writers:
                writer.stop.set()
            for writer in writers:
                writer.join(60)
            server.stop()
            report = verify(store, writers)
            replay_wrong = store.replay_differences()
            integrity = store.integrity()
        finally:
            up.set()
            server.kill()
        tracebacks = server.tracebacks()
    elapsed = time.time() - started
    sent = sum(len(w.sent) for w in writers)
    cut = sum(w.cut for w in writers)
    errors = [e for w in writers for e in w.errors]
    figures.add("kills (-9) during writes", kills, f">= {kills}", server.starts == kills + 1)
    figures.add("restart time, the slowest", f"{max(downtime):.1f} s")
    figures.add("submissions sent", sent)
    figures.add("submissions whose answer a kill cut off (sent again)", cut)
    figures.add("submissions acknowledged", report["acknowledged"])
    refused = Counter(status for w in writers for status in w.refused.values())
    figures.add("submissions refused (by status)", dict(refused))
    figures.add("acknowledged, then lost", report["lost"], "0", report["lost"] == 0)
    figures.add(
        "tables where a key made more or fewer than one change",
        report["duplicated or phantom"],
        "0",
        report["duplicated or phantom"] == 0,
    )
    figures.add("acknowledged notes not in the log exactly once", report["notes not once"], "0",
                report["notes not once"] == 0)  # fmt: skip
    figures.add(
        "tables whose snapshot is not the replay of the log",
        len(replay_wrong),
        "0",
        not replay_wrong,
    )
    figures.add("database integrity", integrity, "ok", integrity == "ok")
    figures.add("5xx answers or writer errors", len(errors), "0", not errors)
    figures.add("tracebacks in the server's stderr", len(tracebacks), "0", not tracebacks)
    for item in report["problems"][:5] + errors[:5] + tracebacks[:3]:
        print(f"  problem: {item}")
    return figures, elapsed


def main(argv: list[str] | None = None) -> int:
    parser = check_parser(__doc__)
    parser.add_argument("--kills", type=int, default=None, help="how many (20; quick 3)")
    args = parser.parse_args(argv)
    kills = args.kills or (3 if args.quick else 20)
    announce("Crash", args, f"{kills} kills")
    figures, elapsed = run(kills, args.seed, args.backend, args.processes)
    return conclude(figures, elapsed)


if __name__ == "__main__":
    sys.exit(main())

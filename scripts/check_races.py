"""The same submission twice at the same moment: nothing acknowledged is lost, nothing is applied
twice.

    python -m scripts.check_races                 # 1,000 pairs (about a minute)
    python -m scripts.check_races --quick         # 30 pairs: what `make test` runs
    python -m scripts.check_races --seed 3 --pairs 200

The app is served as `make run` serves it (scripts/check_kit.py) on a free loopback port with a table of every
game. Each pair is one form sent twice by the same device, on two connections, at the same moment
(both requests are sent but for their last byte, then both last bytes together), with the same
submission key (a phone resending after a lost answer), without a key (a double tap without the
page's script) or with two different keys (two taps the script told apart), all from the same
version of the page. The forms are:

- a legal action of every game (from the games' random-game generators, sent through the game's
  own form, from the seat's phone or the host's device as the action says);
- an entry a game answers with a fine (its random play's fined_entry): exactly one fine;
- an undo by the host, and by a seat of its own last action;
- a note (same key or no key: one note; two keys: two notes, both must be written);
- the host's switches: lock joining, "show all".

After each pair the table's log says what was applied. Lost: an answer said it was applied
(200) but the log has nothing new. Duplicated: one submission applied twice (two events, two
fines, two undone events, a switch switched back, two "show all" lines). The exit status is 1 if
any pair lost or duplicated something, answered 5xx or not at all, or if a legal action was
applied by neither request.
"""

from __future__ import annotations

import html
import random
import re
import secrets
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from companion import tables
from companion.web.adapter import adapter_of
from scripts.check_kit import (
    GAMES,
    HX,
    Client,
    Figures,
    Store,
    TableAt,
    advance,
    announce,
    check_database,
    check_parser,
    conclude,
    csrf_from,
    legal_post,
    open_table,
    send_together,
    start_app,
    version_of,
)

KINDS = {  # share of the pairs
    "action": 0.5,
    "fine": 0.1,
    "undo by the host": 0.08,
    "undo by a seat": 0.08,
    "note": 0.1,
    "lock": 0.07,
    "show all": 0.07,
}
VARIANTS = ("same key", "no key", "two keys")


class Races:
    """Prepares each pair, sends it and reads what the log says happened."""

    def __init__(self, server, store: Store, rng: random.Random):
        self.server, self.store, self.rng = server, store, rng
        self.port = server.port
        self.tables: dict[str, TableAt] = {}
        self.outcomes: Counter = Counter()  # (kind, variant, statuses, applied)
        self.lost: list[str] = []
        self.duplicated: list[str] = []
        self.neither: list[str] = []
        self.failed: list[str] = []
        self.skipped: Counter = Counter()
        self.pairs = 0

    # -- tables

    def table(self, game: str) -> TableAt:
        """The game's table, a new one once its game is over."""
        table = self.tables.get(game)
        if table is not None:
            state = self.store.state(table.code)
            if GAMES[game].rules.result(state) is None:
                return table
        info = GAMES[game]
        players = self.rng.randint(info.min_players, info.max_players)
        table = self.tables[game] = open_table(self.port, game, players, display=False)
        return table

    def counts(self, code: str) -> dict:
        """What a pair may change, read from the store (the log read with the app's own
        function, so that the same count works on SQLite and PostgreSQL)."""
        db = self.store.db()
        try:
            record = tables.get_table(db, code)
            log = tables.events(db, record)

            def count(kind: str, action_type: str | None = None) -> int:
                return sum(
                    1 for e in log if e.kind == kind and action_type in (None, e.action.get("type"))
                )

            (locked, reveal, version) = db.execute(
                "SELECT locked, reveal, version FROM tables WHERE id = ?", [record.id]
            ).fetchone()
            return {
                "game": count("game"),
                "note": count("note"),
                "penalty": count("game", "penalty"),
                "undone": sum(1 for e in log if e.undone),
                "show all": count("trace", "show_all"),
                "locked": locked,
                "reveal": reveal,
                "version": version,
            }
        finally:
            db.conn.close()

    # -- the pairs

    def page(self, client: Client, code: str, query: str = "") -> tuple[str, int]:
        answer = client.get(f"/t/{code}/{query}")
        assert answer.status_code == 200, (answer.status_code, answer.text[:300])
        return csrf_from(answer.text), version_of(answer.text)

    def prepare(self, kind: str):
        """(table, client, path, form data, what to count) for a pair of this kind, or None."""
        rng = self.rng
        if kind == "action":
            game = rng.choice(list(GAMES))
            table = self.table(game)
            made = legal_post(game, self.store.state(table.code), rng)
            if made is None:
                advance(self.store, table.code, game, 1, rng)
                return None
            action, fields = made
            client, query = table.device(action.get("seat"), bool(action.get("host")))
            csrf, version = self.page(client, table.code, query)
            data = {"csrf_token": csrf, "version": version, **fields}
            return table, client, f"/t/{table.code}/act/{action['type']}{query}", data, "game"
        if kind == "fine":
            # A game whose generator knows an entry the rules answer with a fine (an illegal bid's
            # illegal bid): exactly one fine must be applied, however the pair races.
            games = [g for g, info in GAMES.items() if hasattr(info.random_play, "fined_entry")]
            if not games:
                return None
            table = self.table(rng.choice(games))
            made = self.fined_entry(table)
            if made is None:
                return None
            client, query = table.device(made["seat"], False)
            csrf, version = self.page(client, table.code, query)
            fields = {k: v for k, v in made.items() if k not in ("type", "seat", "host")}
            data = {"csrf_token": csrf, "version": version, **fields}
            return table, client, f"/t/{table.code}/act/{made['type']}{query}", data, "penalty"
        if kind == "undo by the host":
            table = self.table(rng.choice(list(GAMES)))
            if self.undoable(table, None) is None:
                self.note_by(table, None)
            csrf, version = self.page(table.host, table.code)
            return (
                table,
                table.host,
                f"/t/{table.code}/undo",
                {"csrf_token": csrf, "version": version},
                "undone",
            )
        if kind == "undo by a seat":
            table = self.table(rng.choice(list(GAMES)))
            seat = rng.choice([s for s, p in enumerate(table.phones) if p is not None])
            self.seat_acts(table, seat)
            if self.undoable(table, seat) is None:
                self.note_by(table, seat)
            client = table.phones[seat]
            csrf, version = self.page(client, table.code)
            return (
                table,
                client,
                f"/t/{table.code}/undo",
                {"csrf_token": csrf, "version": version},
                "undone",
            )
        if kind == "note":
            table = self.table(rng.choice(list(GAMES)))
            client = rng.choice([table.host] + [p for p in table.phones if p is not None])
            csrf, version = self.page(client, table.code)
            text = f"note {secrets.token_hex(4)}"
            data = {"csrf_token": csrf, "version": version, "text": text}
            return table, client, f"/t/{table.code}/note", data, "note"
        if kind in ("lock", "show all"):
            games = [
                g for g, info in GAMES.items() if kind == "lock" or adapter_of(info).show_all_line
            ]
            table = self.table(rng.choice(games))
            page = table.host.get(f"/t/{table.code}/").text
            switch = "lock" if kind == "lock" else "reveal"
            found = re.search(rf'action="([^"]*/host/{switch}[^"]*)"', page)
            if found is None:
                # Not on the page at this point of the game (a game may show "show all" only once the
                # sheets are due): play on toward where the game keeps something private.
                positions = GAMES[table.game].privacy.positions
                if positions:
                    last = positions[-1]
                    advance(
                        self.store, table.code, table.game, 50, rng,
                        until=last.reached, steer=last.steer,
                    )  # fmt: skip
                return None
            # The address the page's button posts to, as the browser reads it.
            path = html.unescape(found.group(1))
            what = "locked" if kind == "lock" else "reveal"
            return table, table.host, path, {"csrf_token": csrf_from(page)}, what
        raise ValueError(kind)

    def fined_entry(self, table: TableAt) -> dict | None:
        """An entry the rules will refuse with a fine, once the table allows one (the host's
        set-up entries, e.g. fines switched on, applied first)."""
        generator_ = GAMES[table.game].random_play
        for _ in range(200):
            state = self.store.state(table.code)
            if GAMES[table.game].rules.result(state) is not None:
                self.tables.pop(table.game)
                return None
            made = generator_.fined_entry(state, self.rng)
            if made is not None:
                setup, entry = made
                for action in setup:
                    self.store.act(table.code, action)
                return entry
            advance(self.store, table.code, table.game, 1, self.rng)
        return None

    def undoable(self, table: TableAt, seat: int | None):
        db = self.store.db()
        try:
            record = tables.get_table(db, table.code)
            return tables.may_undo(db, record, seat=seat, host=seat is None)
        finally:
            db.conn.close()

    def note_by(self, table: TableAt, seat: int | None) -> None:
        db = self.store.db()
        try:
            record = tables.get_table(db, table.code)
            tables.add_note(db, record, "to undo", seat=seat, host=seat is None)
        finally:
            db.conn.close()

    def seat_acts(self, table: TableAt, seat: int) -> None:
        """Now and then the seat's own legal action first (its undo then takes back a move)."""
        if self.rng.random() < 0.5:
            return
        state = self.store.state(table.code)
        for _ in range(5):
            made = legal_post(table.game, state, self.rng, tries=5)
            if made is not None and made[0].get("seat") == seat and not made[0].get("host"):
                self.store.act(table.code, made[0])
                return

    def pair(self, kind: str, variant: str) -> None:
        prepared = self.prepare(kind)
        if prepared is None:
            self.skipped[kind] += 1
            return
        table, client, path, data, what = prepared
        forms = [dict(data), dict(data)]
        if variant == "same key":
            key = secrets.token_urlsafe(12)
            forms[0]["key"] = forms[1]["key"] = key
        elif variant == "two keys":
            forms[0]["key"], forms[1]["key"] = secrets.token_urlsafe(12), secrets.token_urlsafe(12)
        before = self.counts(table.code)
        answers = send_together(
            self.port, [client.build("POST", path, data=form, headers=HX) for form in forms]
        )
        after = self.counts(table.code)
        self.pairs += 1
        statuses = tuple(sorted(a.status_code if hasattr(a, "status_code") else 0 for a in answers))
        label = f"{kind}, {variant}: {path.split('/', 3)[-1]} answered {statuses}"
        for answer in answers:
            if not hasattr(answer, "status_code"):
                self.failed.append(f"{label}: {answer!r}"[:300])
            elif answer.status_code >= 500:
                self.failed.append(label)
        acks = sum(1 for a in answers if getattr(a, "status_code", 0) == 200)
        if what in ("locked", "reveal"):
            # A switch: switched once is right; back where it was after two changes is a
            # double tap applied twice (the version moved); unchanged and unmoved: not applied.
            if after[what] != before[what]:
                applied = 1
            else:
                applied = 2 if after["version"] - before["version"] >= 2 else 0
            if what == "reveal" and after["show all"] - before["show all"] > 1:
                applied = 2
        else:
            applied = after[what] - before[what]
        self.outcomes[(kind, variant, statuses, applied)] += 1
        # The same key, or the same form without one, is one submission: it applies once. Two
        # keys are two submissions; at one version only one of them may apply (a game form, an
        # undo, a switch), except two notes, which are two lines.
        may_apply = 2 if (variant == "two keys" and kind == "note") else 1
        if applied > may_apply:
            self.duplicated.append(f"{label}: applied {applied} times")
        # Two keys: each acknowledged submission must be in the log; except a switch, where
        # both asked for the same state and the second finds it so.
        switch = what in ("locked", "reveal")
        acknowledged = acks if variant == "two keys" and not switch else min(acks, 1)
        if applied < acknowledged:
            self.lost.append(f"{label}: {acknowledged} acknowledged, {applied} applied")
        if kind in ("action", "fine", "note", "lock", "show all") and applied == 0:
            self.neither.append(label)

    def run(self, pairs: int) -> None:
        kinds, weights = zip(*KINDS.items())
        while self.pairs < pairs:
            kind = self.rng.choices(kinds, weights)[0]
            self.pair(kind, self.rng.choice(VARIANTS))


def run(
    pairs: int, seed: int, backend: str = "sqlite", processes: int = 1
) -> tuple[Figures, Races, float]:
    figures = Figures("races")
    started = time.time()
    with (
        tempfile.TemporaryDirectory() as tmp,
        check_database(backend, Path(tmp), "races") as database,
    ):
        server = start_app(database, processes=processes)
        try:
            store = Store(database)
            races = Races(server, store, random.Random(seed))
            races.run(pairs)
            replay_wrong = store.replay_differences()
        finally:
            server.stop()
        tracebacks = server.tracebacks()
    elapsed = time.time() - started
    by_kind = Counter()
    for (kind, _, _, _), n in races.outcomes.items():
        by_kind[kind] += n
    figures.add("pairs sent", races.pairs, f"{pairs}", races.pairs >= pairs)
    figures.add("pairs by kind", dict(by_kind))
    figures.add("lost (acknowledged, not in the log)", len(races.lost), "0", not races.lost)
    figures.add("duplicated (applied twice)", len(races.duplicated), "0", not races.duplicated)
    figures.add(
        "legal submissions applied by neither request", len(races.neither), "0", not races.neither
    )
    figures.add("5xx answers or no answer", len(races.failed), "0", not races.failed)
    figures.add("tracebacks in the server's stderr", len(tracebacks), "0", not tracebacks)
    figures.add(
        "tables whose snapshot is not the replay of the log",
        len(replay_wrong),
        "0",
        not replay_wrong,
    )
    for title, items in (
        ("lost", races.lost),
        ("duplicated", races.duplicated),
        ("neither", races.neither),
        ("failed", races.failed),
        ("traceback", tracebacks),
    ):
        for item in items[:5]:
            print(f"  {title}: {item}")
    return figures, races, elapsed


def main(argv: list[str] | None = None) -> int:
    parser = check_parser(__doc__)
    parser.add_argument("--pairs", type=int, default=None, help="how many (1,000; quick 30)")
    parser.add_argument("--outcomes", action="store_true", help="print every kind of outcome")
    args = parser.parse_args(argv)
    pairs = args.pairs or (30 if args.quick else 1000)
    announce("Race", args, f"{pairs} pairs")
    figures, races, elapsed = run(pairs, args.seed, args.backend, args.processes)
    if args.outcomes:
        for (kind, variant, statuses, applied), n in sorted(races.outcomes.items()):
            print(f"    {kind:17} {variant:9} answers {statuses} applied {applied}: {n}")
    return conclude(figures, elapsed)


if __name__ == "__main__":
    sys.exit(main())

"""Make an upgrade fixture: a database written by an OLD version of the app, as its devices left it.

tests/test_upgrade.py opens each fixture with today's code (which migrates it) and checks that
every table, seat, display link, hand-over and finished play still works. The fixtures must be
written by the old code itself, not by today's code pretending to be old: so this script runs
the old checkout's own app in a subprocess (cwd and PYTHONPATH = the checkout, this
environment's python) and drives it as devices do, through its Flask test client: the host's
device starts a table of every game on `/`, phones take their seats with the join form and make
moves as `POST /t/<code>/act/<action>`, the host makes a display link and hands the host role
over. A finished game is played to its end with the old version's own random play (over HTTP
where its form can carry the move, through its tables module where not). The cookies the old
app set on each device go into a JSON sidecar next to the database, with the secret key that
signed them and what each table holds.

How to run it (from the top of today's checkout):

    old=$(mktemp -d)/checkout && git worktree add --detach "$old" <commit>
    .venv/bin/python -m scripts.make_upgrade_fixture "$old"                   # both stores
    .venv/bin/python -m scripts.make_upgrade_fixture "$old" --backend sqlite  # or only one
    git worktree remove --force "$old"

It writes tests/data/upgrade/sqlite-vNN.db and .json, and (for a commit with PostgreSQL
support) postgresql-vNN.sql and .json, NN being the schema version of that commit (the length
of its companion/db.py or companion/pg.py MIGRATIONS). A schema change reruns it on the commit
it leaves behind (HEAD before the change), so that the test keeps a fixture of every version;
tests/data/README.md lists the fixtures and the commit each was made from.

The old code is what it was: an old commit may need a package this environment no longer has
(COMPAT below gives those a stand-in) and names its modules differently (the driver below asks
for what each version has: its random play in companion/games/<game>/random_play.py, before
that in tests/<game>/legal.py, and before that none, where a move is found by filling the
game's own forms at random until its rules accept one).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import re
import secrets
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "data" / "upgrade"

# Stand-ins for packages an old commit imported and this environment no longer installs.
# htmx-flask (the first two schema versions) gave `Htmx(app)` and `request.htmx`.
COMPAT = {
    "htmx_flask/__init__.py": '''"""A stand-in for htmx-flask 0.1: what the old code used of it."""
from flask import request as _request


class Htmx:
    def __init__(self, app=None):
        pass

    def init_app(self, app):
        pass


class _Request:
    def __getattr__(self, name):
        return getattr(_request, name)

    @property
    def htmx(self):
        return bool(_request.headers.get("HX-Request"))


request = _Request()
''',
}

# What every fixture holds (as far as the version has the game): the tables and which of them
# gets what. The games are named there, in data, not in this code (tests/test_game_names.py).
PLAN = json.loads((OUT / "plan.json").read_text())
TABLES = [(t["name"], t["game"], tuple(t["players"])) for t in PLAN["tables"]]
FINISHED = PLAN["finished"]
# A version without a random play (schema 1 to 3) finishes this one instead, its moves found by
# filling its forms.
FINISHED_BY_FILLING = PLAN["finished_by_filling"]
MOVES = 6  # moves of the phones at each table in progress


# --- the outer side: today's code ------------------------------------------------------------------


def git(checkout: Path, *args: str) -> str:
    """What a git command says about the checkout."""
    return subprocess.run(
        ["git", "-C", str(checkout), *args], check=True, capture_output=True, text=True
    ).stdout.strip()


def run_old(checkout: Path, task: dict, compat: Path) -> dict:
    """Run this file's driver (inner()) under the old checkout's code; returns what it reports."""
    with tempfile.TemporaryDirectory(prefix="upgrade-fixture-") as scratch:
        report = Path(scratch) / "report.json"
        env = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join([str(checkout), str(compat)]),
            "COMPANION_INSTANCE": str(Path(scratch) / "instance"),
        }
        for name in ("COMPANION_DATABASE", "COMPANION_SECRET_KEY"):
            env.pop(name, None)
        done = subprocess.run(
            [
                sys.executable,
                str(Path(__file__).resolve()),
                "--inner",
                json.dumps(task),
                str(report),
            ],
            cwd=checkout,
            env=env,
            timeout=1800,
        )
        if done.returncode != 0:
            raise SystemExit(f"the old app's driver failed ({done.returncode})")
        return json.loads(report.read_text())


def compact_sqlite(path: Path) -> None:
    """Everything in the one file, as small as it goes (the WAL checkpointed, VACUUM); the
    schema version and the journal mode the old code set stay."""
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.execute("VACUUM")
    conn.close()


def pg_bin(name: str) -> str:
    """A PostgreSQL client program of the installed server (pg_dump)."""
    from scripts.throwaway_postgres import binaries

    return str(binaries() / name)


def make(checkout: Path, backends: list[str], out: Path) -> list[Path]:
    """Write the fixtures of this checkout; returns the files written."""
    compat = Path(tempfile.mkdtemp(prefix="upgrade-compat-"))
    for relative, source in COMPAT.items():
        (compat / relative).parent.mkdir(parents=True, exist_ok=True)
        (compat / relative).write_text(source)
    try:
        probe = run_old(checkout, {"probe": True}, compat)
        commit = git(checkout, "rev-parse", "HEAD")
        written = []
        for backend in backends:
            version = probe["sqlite"] if backend == "sqlite" else probe["postgresql"]
            if version is None:
                print(f"{commit[:7]} has no PostgreSQL support: no {backend} fixture")
                continue
            written += make_one(checkout, commit, backend, version, probe, compat, out)
        return written
    finally:
        shutil.rmtree(compat, ignore_errors=True)


def make_one(
    checkout: Path, commit: str, backend: str, version: int, probe: dict, compat: Path, out: Path
) -> list[Path]:
    """One backend's fixture: the old app writes a fresh database (a SQLite file, or a database
    of a throwaway PostgreSQL server, dumped), then its sidecar is written beside it."""
    out.mkdir(parents=True, exist_ok=True)
    stem = out / f"{backend}-v{version:02d}"
    key = secrets.token_hex(16)
    task = {"secret_key": key, "seed": version}
    with tempfile.TemporaryDirectory(prefix="upgrade-db-") as scratch:
        if backend == "sqlite":
            path = Path(scratch) / "companion.db"
            report = run_old(checkout, {**task, "database": str(path)}, compat)
            compact_sqlite(path)
            target = stem.with_suffix(".db")
            shutil.copyfile(path, target)
        else:
            from scripts.throwaway_postgres import ThrowawayPostgres

            with ThrowawayPostgres() as server:
                url = server.create_database("companion")
                report = run_old(checkout, {**task, "database": url}, compat)
                target = stem.with_suffix(".sql")
                dump = subprocess.run(
                    [pg_bin("pg_dump"), "--no-owner", "--no-privileges", "--dbname", url],
                    check=True,
                    capture_output=True,
                    text=True,
                ).stdout
                # The server's own version and the dump's time: noise in a committed file.
                dump = "\n".join(
                    line for line in dump.splitlines() if not line.startswith("-- Dumped ")
                )
                target.write_text(dump + "\n")
    sidecar = {
        "commit": commit,
        "commit_date": git(checkout, "log", "-1", "--format=%cI"),
        "backend": backend,
        "schema_version": version,
        "sqlite_schema_version": probe["sqlite"],
        "made_by": f"python -m scripts.make_upgrade_fixture <checkout of {commit[:7]}>"
        f" --backend {backend}",
        "made": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "secret_key": key,
        **report,
    }
    stem.with_suffix(".json").write_text(json.dumps(sidecar, indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {target} and its .json")
    return [target, stem.with_suffix(".json")]


def main(argv: list[str] | None = None) -> None:
    """The command line (see the module's docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("checkout", type=Path, help="a checkout of the old commit (git worktree)")
    parser.add_argument("--backend", choices=("sqlite", "postgresql", "both"), default="both")
    parser.add_argument("--out", type=Path, default=OUT, help="default: tests/data/upgrade")
    args = parser.parse_args(argv)
    backends = ["sqlite", "postgresql"] if args.backend == "both" else [args.backend]
    make(args.checkout.resolve(), backends, args.out.resolve())


# --- the inner side: runs under the OLD code -------------------------------------------------------
# Everything below imports `companion` lazily: in the subprocess that is the old checkout's.

HX = {"HX-Request": "true"}


def csrf_from(html: str) -> str:
    """The form token of a page (the same reading as tests/support/forms.py: this side cannot
    import today's tests)."""
    match = re.search(r'name="csrf_token" (?:type="hidden" )?value="([^"]+)"', html) or re.search(
        r'value="([^"]+)"[^>]*name="csrf_token"', html
    )
    assert match, "page has no CSRF token"
    return match.group(1)


def version_from(html: str) -> str | None:
    """The version a page's forms carry (each old version put it somewhere of these)."""
    for pattern in (
        r'name="version" (?:type="hidden" )?value="(\d+)"',
        r'value="(\d+)"[^>]*name="version"',
        r'data-version="(\d+)"',
    ):
        match = re.search(pattern, html)
        if match:
            return match.group(1)
    return None


def cookies_of(client) -> list[dict]:
    """A test client's cookies as the old app set them."""
    return sorted(
        (
            {"name": c.key, "value": c.value, "path": c.path, "domain": c.domain}
            for c in client._cookies.values()
        ),
        key=lambda c: (c["path"], c["name"]),
    )


class Old:
    """The old app and its devices."""

    def __init__(self, task: dict):
        import random

        import companion
        from companion import db as database

        self.version = len(database.MIGRATIONS)
        self.app = companion.create_app(
            {"DATABASE": task["database"], "SECRET_KEY": task["secret_key"], "TESTING": True}
        )
        self.rng = random.Random(task["seed"])
        self.devices = {"host": self.app.test_client()}
        for i in range(3):  # phone<i> sits at seat i of every table
            self.devices[f"phone{i}"] = self.app.test_client()
        self.devices["display"] = self.app.test_client()
        # the pages a device opens first: its cookies (device id, session) are the app's own
        for client in self.devices.values():
            assert client.get("/").status_code == 200

    # reading the store with the old code's own functions
    def store(self, what):
        """what(db, tables) with the old code's store and tables module."""
        from companion import get_db, tables

        with self.app.app_context():
            return what(get_db(), tables)

    def table(self, code: str):
        """The old code's Table of this code."""
        return self.store(lambda db, tables: tables.get_table(db, code))

    def state(self, code: str) -> dict:
        """The game state the old code keeps for the table."""
        return self.store(lambda db, tables: tables.state_of(db, tables.get_table(db, code)))

    def count(self, code: str, where: str = "1 = 1") -> int:
        """How many of the table's events match the SQL condition."""

        def counted(db, tables):
            table = tables.get_table(db, code)
            return db.execute(
                f"SELECT count(*) FROM events WHERE table_id = ? AND {where}", [table.id]
            ).fetchone()[0]

        return self.store(counted)

    # the devices over HTTP
    def start(self, game: str, names: tuple) -> str:
        """The host's device starts a table from the home page's form; returns its code."""
        host = self.devices["host"]
        home = host.get("/")
        data = {"csrf_token": csrf_from(home.text), "game": game, "players": len(names)}
        for i, name in enumerate(names):
            data[f"names-{i}"] = name
        answer = host.post("/tables", data=data)
        assert answer.status_code == 302, answer.text[:500]
        return re.match(r".*/t/(\w+)/", answer.headers["Location"]).group(1)

    def sit(self, device: str, code: str, seat: int) -> None:
        """A phone takes a seat with the join page's form, then opens the table."""
        phone = self.devices[device]
        page = phone.get(f"/t/{code}/join")
        assert page.status_code == 200, page.status_code
        answer = phone.post(
            f"/t/{code}/join", data={"csrf_token": csrf_from(page.text), "seat": seat, "name": ""}
        )
        assert answer.status_code == 302, answer.text[:500]
        assert phone.get(f"/t/{code}/").status_code == 200

    def page(self, device: str, code: str) -> str:
        """The table page as the device sees it (it must open)."""
        answer = self.devices[device].get(f"/t/{code}/")
        assert answer.status_code == 200, (device, code, answer.status_code)
        return answer.text

    def post(self, device: str, code: str, path: str, **fields):
        """A form of the device's table page, posted as htmx posts it."""
        page = self.page(device, code)
        data = {"csrf_token": csrf_from(page)}
        version = version_from(page)
        if version is not None:
            data["version"] = version
        data.update(fields)
        return self.devices[device].post(f"/t/{code}{path}", data=data, headers=HX)

    # moves
    def forms(self, code: str) -> dict:
        """The game's forms (action type -> form class) as the old version finds them."""
        table = self.table(code)
        adapter = getattr(table.game, "adapter", None)
        if adapter is None and hasattr(table.game, "rules"):  # the contract as one object
            from companion.web.adapter import adapter_of

            adapter = adapter_of(table.game)
        if adapter is not None and hasattr(adapter, "forms"):
            return dict(adapter.forms)
        from companion.web import games  # the first versions: companion/web/games.py

        return dict(games.forms_of(table.game))

    def generator(self, code: str):
        """The old version's random play of this table's game, if it had one."""
        game = self.table(code).game
        module = getattr(game, "module", None) or game.rules_module
        return self.random_play(module.__name__.split(".")[2])

    @staticmethod
    def random_play(package: str):
        """The old version's random play of a game package (its folder's name), if it had one."""
        import importlib

        for module in (f"companion.games.{package}.random_play", f"tests.{package}.legal"):
            try:
                return importlib.import_module(module)
            except ImportError:
                continue
        return None

    def fields_for(self, form_class, action: dict, state: dict) -> dict:
        """The form fields that carry this action: the form's own inverse if the version has
        one, else the generic reading (plain values, true/false, lists as numbered fields) and
        the shapes the games' forms had."""
        own = getattr(form_class, "fields_for", None)
        if own is not None:
            return own(action, state)
        fields: dict = {}
        names = set(dir(form_class))  # the form's fields are attributes of its class
        for key, value in action.items():
            if key in ("type", "seat", "host") or value is None:
                continue
            if isinstance(value, bool):
                fields[key] = "y" if value else ""
            elif isinstance(value, list):
                for i, item in enumerate(value):
                    fields[f"{key}-{i}"] = item
            else:
                fields[key] = value
        if "tribe" in action and "digit" in action and "card" in names and "tribe" not in names:
            fields = {"card": f"{action['tribe']}:{action['digit']}"}
        if isinstance(action.get("cards"), list) and "first" in names:
            first, second = action["cards"]
            fields = {"site": action.get("site"), "first": first, "second": second}
        if "on" in action and isinstance(action["on"], bool):
            fields["on"] = "on" if action["on"] else "off"
        return fields

    def form_action(self, form_class, atype: str, fields: dict) -> dict | None:
        """The action the old form makes of these fields (None: the form refuses them)."""
        from werkzeug.datastructures import MultiDict

        with self.app.test_request_context():
            form = form_class(
                formdata=MultiDict({k: str(v) for k, v in fields.items()}), meta={"csrf": False}
            )
            if not form.validate():
                return None
            return {"type": atype, **form.to_action()}

    def applies(self, module, state: dict, action: dict):
        """The state after the action under the old rules, or None if they refuse it."""
        try:
            return module.apply(state, action)
        except Exception:  # RuleError, or a form value the old rules choke on
            return None

    def from_generator(self, code: str, state: dict, gen, forms: dict, module):
        """(action, fields): a move of the old random play that a phone's form can carry."""
        action = gen.next_action(state, self.rng)
        if action is None or action.get("host"):
            return action, None
        form_class = forms.get(action.get("type"))
        after = self.applies(module, state, action)
        if form_class is None or after is None:
            return action, None
        try:
            fields = self.fields_for(form_class, action, state)
        except Exception:
            return action, None
        made = self.form_action(form_class, action["type"], fields)
        if made is None:
            return action, None
        made.update(seat=action.get("seat"), host=False)
        if self.applies(module, state, made) != after:
            return action, None
        return action, fields

    def filled(self, code: str, state: dict, forms: dict, module, players: int):
        """(action, fields): a move found by filling one of the game's forms at random (values
        from its validators, from the state and from the rules' constants) until the rules
        accept it for one of the seats: for the versions that had no random play."""
        strings = sorted(_strings(state) | _strings(vars(module)))
        atype = self.rng.choice(sorted(forms))
        form_class = forms[atype]
        with self.app.test_request_context():
            form = form_class(formdata=None, meta={"csrf": False})
            fields = {}
            for field in form:
                if field.name in ("version", "key", "csrf_token") or field.type in (
                    "SubmitField",
                    "HiddenField",
                    "FieldList",
                    "FormField",
                ):
                    continue
                fields[field.name] = self.value_for(field, strings)
        made = self.form_action(form_class, atype, fields)
        if made is None:
            return None
        for seat in range(players):
            action = {**made, "seat": seat, "host": False}
            if self.applies(module, state, action) is not None:
                return action, fields
        return None

    def value_for(self, field, strings: list):
        """A random value a form field may take: from its validators, choices or type."""
        from wtforms.validators import AnyOf, NumberRange

        for validator in field.validators:
            if isinstance(validator, AnyOf):
                return self.rng.choice(list(validator.values))
            if isinstance(validator, NumberRange):
                low = validator.min if validator.min is not None else 0
                high = validator.max if validator.max is not None else low + 12
                return self.rng.randint(int(low), int(min(high, low + 40)))
        choices = getattr(field, "choices", None)
        if choices:
            picked = self.rng.choice(list(choices))
            return picked[0] if isinstance(picked, tuple) else picked
        if field.type == "BooleanField":
            return self.rng.choice(["y", ""])
        if field.type in ("IntegerField", "WholeNumber", "DecimalField"):
            return self.rng.randint(0, 12)
        return self.rng.choice(strings) if strings and self.rng.random() < 0.9 else ""

    def move(self, code: str, players: int, seats: dict, *, api_fallback: bool = False) -> bool:
        """One legal move: posted by the phone of the seat it is for when a form can carry it
        (returns True); with api_fallback, else through the old tables module (False)."""
        table = self.table(code)
        module = _rules_of(table.game)
        forms = self.forms(code)
        gen = self.generator(code)
        state = self.state(code)
        for _ in range(3000):
            if gen is not None:
                action, fields = self.from_generator(code, state, gen, forms, module)
            else:
                found = self.filled(code, state, forms, module, players)
                action, fields = found if found else (None, None)
            if fields is not None:
                before = self.count(code)
                # a public event (no seat: a card turned up) is entered by any phone
                seat = action.get("seat")
                device = seats[seat if seat is not None else self.rng.choice(sorted(seats))]
                answer = self.post(device, code, f"/act/{action['type']}", **fields)
                assert answer.status_code in (200, 409, 422), answer.status_code
                if self.count(code) > before:
                    return True
            elif api_fallback and action is not None:
                if self.api_act(code, action):
                    return False
        raise AssertionError(f"no legal move found at {code}")

    def api_act(self, code: str, action: dict) -> bool:
        """Apply the action through the old tables module (as the host's or a phone's entry);
        False if the old rules refuse it."""
        from companion.games.base import RuleError

        fields = {k: v for k, v in action.items() if k not in ("seat", "host")}

        def act(db, tables):
            table = tables.get_table(db, code)
            try:
                tables.act(
                    db,
                    table,
                    fields,
                    seat=action.get("seat"),
                    host=bool(action.get("host")),
                    expected_version=None,
                )
            except RuleError:
                return False
            return True

        return self.store(act)

    def over(self, code: str) -> bool:
        """Whether the table's game has ended (its result appeared)."""
        table = self.table(code)
        return _rules_of(table.game).result(self.state(code)) is not None


def _rules_of(game):
    """A game's rules as the old version has them: its rules module (GameInfo.module), or, once
    the contract became one declaration, GameInfo.rules (both have new, apply and result)."""
    module = getattr(game, "module", None)
    return module if module is not None else game.rules


def _strings(data, depth: int = 0) -> set:
    """The short strings in a state or a module's constants: the values a form may want."""
    found: set = set()
    if depth > 6:
        return found
    if isinstance(data, str):
        if 0 < len(data) <= 24 and not data.startswith("_"):
            found.add(data)
    elif isinstance(data, dict):
        for key, value in data.items():
            if isinstance(key, str) and key.startswith("__"):
                continue
            found |= _strings(key, depth + 1) | _strings(value, depth + 1)
    elif isinstance(data, (list, tuple, set, frozenset)):
        for item in data:
            found |= _strings(item, depth + 1)
    return found


def inner(task: dict, report: Path) -> None:
    """The driver, run under the old checkout's code (see run_old)."""
    import companion

    where = Path(companion.__file__).resolve()
    assert where.is_relative_to(Path.cwd().resolve()), f"companion from {where}, not the checkout"
    if task.get("probe"):
        from companion import db as database

        try:
            from companion import pg

            postgresql = len(pg.MIGRATIONS)
        except ImportError:
            postgresql = None
        report.write_text(
            json.dumps({"sqlite": len(database.MIGRATIONS), "postgresql": postgresql})
        )
        return
    old = Old(task)
    made = [table_in_progress(old, name, game, names) for name, game, names in TABLES]
    made.append(finished_game(old))
    if old.version >= 5:
        links(old, {t["name"]: t for t in made})
    # every device opens its tables once more, last: the cookies it ends with are the ones kept
    for entry in made:
        for device in {entry["host"], *entry["seats"].values()}:
            old.page(device, entry["code"])
    report.write_text(
        json.dumps(
            {
                "features": {
                    "display": old.version >= 5,
                    "handover": old.version >= 5,
                    "plays": old.version >= 7,
                },
                "tables": made,
                "devices": {name: cookies_of(client) for name, client in old.devices.items()},
            }
        )
    )


def seated(old: Old, name: str, game: str, names: tuple) -> tuple[dict, dict]:
    """A table started by the host's device, a phone at each seat: its sidecar entry and its
    seats (seat -> device)."""
    code = old.start(game, names)
    seats = {i: f"phone{i}" for i in range(len(names))}
    for seat, device in seats.items():
        old.sit(device, code, seat)
    entry = {
        "name": name,
        "code": code,
        "game": game,
        "names": list(names),
        "host": "host",
        "seats": {str(s): d for s, d in seats.items()},
        "finished": False,
    }
    return entry, seats


def table_in_progress(old: Old, name: str, game: str, names: tuple) -> dict:
    """A table with MOVES moves of its phones (the plan's take_back table: and one a phone took
    back; its note table: and a note)."""
    entry, seats = seated(old, name, game, names)
    code = entry["code"]
    by_phone = sum(old.move(code, len(names), seats) for _ in range(MOVES))
    if name == PLAN["take_back"]:
        # a move taken back by the phone that made it: an undone event in the old log (a move
        # a phone may not take back, e.g. one that showed a secret, is left standing)
        for _ in range(10):
            by_phone += old.move(code, len(names), seats)
            last = old.store(
                lambda db, tables: db.execute(
                    "SELECT seat FROM events WHERE table_id = ? ORDER BY seq DESC LIMIT 1",
                    [tables.get_table(db, code).id],
                ).fetchone()[0]
            )
            if last in seats:
                old.post(seats[last], code, "/undo")
                if old.count(code, "undone = 1"):
                    by_phone -= 1
                    entry["undone"] = 1
                    break
        assert entry.get("undone"), "no phone could take its move back"
    if name == PLAN["note"]["table"]:
        answer = old.post("phone0", code, "/note", text=PLAN["note"]["text"])
        assert answer.status_code == 200 and old.count(code, "kind = 'note'") == 1
        entry["notes"] = 1
    entry["moves"] = old.count(code, "kind = 'game' AND undone = 0")
    entry["moves_by_phones"] = by_phone
    return entry


def finished_game(old: Old) -> dict:
    """A game played to its end with the old version's random play (a version without one: the
    plan's finished_by_filling game, its moves found by filling forms); from schema 7 on, its
    play recorded as the old version records it (its devices open the summary)."""
    chosen = FINISHED if old.random_play(FINISHED["package"]) else FINISHED_BY_FILLING
    name, game, names = chosen["name"], chosen["game"], tuple(chosen["players"])
    entry, seats = seated(old, name, game, names)
    code = entry["code"]
    by_phone = 0
    for _ in range(3000):
        if old.over(code):
            break
        by_phone += old.move(code, len(names), seats, api_fallback=True)
    assert old.over(code), "the finished game did not end"
    entry.update(
        finished=True,
        moves=old.count(code, "kind = 'game' AND undone = 0"),
        moves_by_phones=by_phone,
    )
    for device in ["host", *seats.values()]:
        old.page(device, code)
    if old.version >= 7:  # the record of plays: written when a device opens the summary
        for device in ["host", *seats.values()]:
            assert old.devices[device].get(f"/t/{code}/summary").status_code == 200
        entry["play"] = old.store(lambda db, tables: _play(db, code))
        assert entry["play"] is not None, "the old version recorded no play"
    return entry


def links(old: Old, by_name: dict) -> None:
    """The display link (opened on a device of its own), a hand-over taken, one never taken."""
    shown = by_name[PLAN["display"]]
    code = shown["code"]
    answer = old.post("host", code, "/host/display")
    key = re.search(r"/display/\?key=([\w-]+)", answer.text).group(1)
    url = f"/t/{code}/display/?key={key}"
    assert old.devices["display"].get(url).status_code == 200
    shown["display"] = {"device": "display", "url": url}

    # phone1, seated at the plan's handover_taken table, takes over as its host
    taken_at = by_name[PLAN["handover_taken"]]
    code = taken_at["code"]
    answer = old.post("host", code, "/host/handover")
    url = re.search(r"/t/\w+/host/take\?token=[\w-]+", answer.text).group(0)
    taker = old.devices["phone1"]
    page = taker.get(url)
    assert page.status_code == 200
    token = url.rsplit("token=", 1)[1]
    taken = taker.post(url, data={"csrf_token": csrf_from(page.text), "token": token})
    assert taken.status_code == 302, taken.text[:300]
    taken_at["host"] = "phone1"
    taken_at["handover"] = {"url": url, "taken_by": "phone1", "handed_by": "host"}
    # From schema 10 on the device that handed over may stay at the table as its display
    handed = old.devices["host"].get(f"/t/{code}/host/handed")
    if handed.status_code == 200:
        stay = old.devices["host"].post(
            f"/t/{code}/host/stay", data={"csrf_token": csrf_from(handed.text)}
        )
        assert stay.status_code == 302, stay.status_code
        assert old.devices["host"].get(f"/t/{code}/display/").status_code == 200
        taken_at["handover"]["stayed"] = "host"

    # the plan's handover_untaken table: a hand-over link nobody takes (it expires ten minutes
    # later)
    untaken_at = by_name[PLAN["handover_untaken"]]
    code = untaken_at["code"]
    answer = old.post("host", code, "/host/handover")
    url = re.search(r"/t/\w+/host/take\?token=[\w-]+", answer.text).group(0)
    until = old.store(
        lambda db, tables: db.execute(
            "SELECT handover_until FROM tables WHERE code = ?", [code]
        ).fetchone()[0]
    )
    untaken_at["handover"] = {"url": url, "taken_by": None, "until": until}


def _editable(finder) -> bool:
    """Whether an import hook is setuptools' finder of an editable install."""
    module = getattr(finder, "__module__", None) or type(finder).__module__
    return module.startswith("__editable__")


def _play(db, code: str) -> dict | None:
    """The play the old version recorded for a finished table."""
    row = db.execute("SELECT players, ended FROM plays WHERE code = ?", [code]).fetchone()
    if row is None:
        return None
    players = json.loads(row[0])
    return {
        "ended": row[1],
        "players": [
            {k: p.get(k) for k in ("seat", "name", "score", "rank", "winner")} for p in players
        ],
    }


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--inner":
        # Run by run_old() under the old code: its checkout first on the path, not this folder,
        # and not today's checkout either, which this environment installs in editable mode:
        # setuptools' finder would hand out today's module for any the old code lacks.
        sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).parent]
        sys.meta_path[:] = [f for f in sys.meta_path if not _editable(f)]
        sys.path_hooks[:] = [h for h in sys.path_hooks if not _editable(h)]
        sys.path_importer_cache.clear()
        inner(json.loads(sys.argv[2]), Path(sys.argv[3]))
        sys.stdout.flush()
        os._exit(0)  # an old pool's threads must not keep the process
    main()

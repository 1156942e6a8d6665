"""An existing database from every past schema version opens today with every table and play
intact: the upgrade a user meets when they install a new release over their old database.

Each fixture in tests/data/upgrade/ was written by the old version itself (scripts/
make_upgrade_fixture.py ran that commit's app and drove it as devices do), with a JSON sidecar
holding the secret key it signed with and the cookies it set on each device. Here today's
create_app opens a copy (which migrates it) and, with each device's own cookies:

- every table's page opens for its host and for each phone at its seat (not the join page);
  each device's home page lists its tables and its polls answer;
- at every table in progress the phone whose turn it is makes a legal move over HTTP and takes
  it back: the undo replays the OLD event log with TODAY's rules, so the state must come back
  to the one the old version stored (fields the game's state gained since aside);
- the finished game's whole log replays to the end the old version stored; its play is in
  /plays for its devices, with the players and scores the old version recorded; its summary,
  exports and player page open, and a rematch starts from it;
- the display link still opens the display; a hand-over link that was taken is used up (the
  device that took it is the host), one never taken has expired as it should;
- every history line the old version stored has a Japanese and a Russian translation today.

An upgrade bug is pinned as an expected failure until a migration fixes it: names typed
before schema 7 are not people today (see its test). A game that ended before schema 7 was not
over either, until schema 12 marked it (its test stays).

`make test` opens four SQLite fixtures (about half a second each: see QUICK_SQLITE) and the
newest PostgreSQL one; `make test-deep` (which CI runs) all of them.
"""

from __future__ import annotations

import csv
import functools
import io
import json
import random
import re
import shutil
import sqlite3
import subprocess
import time
from pathlib import Path

import jinja2
import jinja2.bccache
import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from companion import create_app, get_db, i18n, tables
from companion import db as database
from companion.games import GAMES, INSTALLED, PACKAGES
from companion.games.base import Msg, RuleError
from companion.web.adapter import adapter_of
from tests.helpers import HX, alert_text, csrf_from, version_of, visible

FIXTURES = Path(__file__).parent / "data" / "upgrade"
SQLITE = sorted(FIXTURES.glob("sqlite-v*.db"))
POSTGRESQL = sorted(FIXTURES.glob("postgresql-v*.sql"))


def sidecar(fixture: Path) -> dict:
    return json.loads(fixture.with_suffix(".json").read_text())


class CompiledOnce(jinja2.BytecodeCache):
    """The templates compiled once for all the fixtures' apps (each app would compile every
    template again: most of a fixture's time)."""

    def __init__(self) -> None:
        self.kept: dict[str, bytes] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        if bucket.key in self.kept:
            bucket.bytecode_from_string(self.kept[bucket.key])

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self.kept[bucket.key] = bucket.bytecode_to_string()


TEMPLATES = CompiledOnce()


class Upgraded:
    """Today's app on an old database, and the old devices with their own cookies."""

    def __init__(self, url: str, meta: dict):
        self.meta = meta
        self.app = create_app({"DATABASE": url, "SECRET_KEY": meta["secret_key"], "TESTING": True})
        self.app.jinja_env.bytecode_cache = TEMPLATES
        self.shown: dict[tuple[str, str], str] = {}  # (device, code) -> what it shows
        self.devices = {}
        for name, cookies in meta["devices"].items():
            client = self.app.test_client()
            for c in cookies:
                client.set_cookie(c["name"], c["value"], domain=c["domain"], path=c["path"])
            self.devices[name] = client

    def close(self) -> None:
        self.app.extensions["companion.db"].close()

    def store(self, what):
        with self.app.app_context():
            return what(get_db())

    def schema_version(self) -> int:
        return self.store(database.schema_version)

    def table(self, code: str) -> tables.Table:
        return self.store(lambda db: tables.get_table(db, code))

    def state(self, code: str) -> dict:
        return self.store(lambda db: tables.state_of(db, tables.get_table(db, code)))

    def events(self, code: str) -> list[tables.Event]:
        return self.store(lambda db: tables.events(db, tables.get_table(db, code)))

    def count_events(self, code: str) -> int:
        return self.store(lambda db: tables.count_events(db, tables.get_table(db, code)))

    def page(self, device: str, code: str) -> str:
        answer = self.devices[device].get(f"/t/{code}/")
        assert answer.status_code == 200, (device, code, answer.status_code, answer.location)
        self.shown[device, code] = answer.text
        return answer.text

    def post(self, device: str, code: str, path: str, **fields):
        """A form of what the device shows of the table, posted as htmx posts it (its token, its
        version): the page or live region it was last given, while the table has not moved on
        since (else the page, opened again)."""
        shown = self.shown.get((device, code))
        if shown is None or version_of(shown) != self.table(code).version:
            shown = self.page(device, code)
        data = {"csrf_token": csrf_from(shown), "version": version_of(shown), **fields}
        answer = self.devices[device].post(f"/t/{code}{path}", data=data, headers=HX)
        if 'id="live"' in answer.text:
            self.shown[device, code] = answer.text
        return answer


def check_upgrade(url: str, meta: dict, version_before: int) -> None:
    """Everything the old version left works on today's code (see the module's docstring)."""
    assert version_before == meta["schema_version"]
    up = Upgraded(url, meta)
    try:
        assert up.schema_version() == database.latest_version(url) >= version_before
        for entry in meta["tables"]:
            seats_open(up, entry)
            if entry["finished"]:
                finished_play(up, entry)
            else:
                move_and_undo(up, entry)
            if "display" in entry:
                display_opens(up, entry)
            if "handover" in entry:
                handover_as_it_should(up, entry)
        home_lists(up)
    finally:
        up.close()


def seats_open(up: Upgraded, entry: dict) -> None:
    """The host's device sees the host's view, each phone its own seat (not the join page); each
    device's poll answers (the unchanged one before Flask, a changed one with the live region)."""
    code, names = entry["code"], entry["names"]
    host_seat = next((int(s) for s, d in entry["seats"].items() if d == entry["host"]), None)
    text = visible(up.page(entry["host"], code))
    if host_seat is None:
        assert "This device is the host." in text, text[:300]
    else:
        assert f"You are {names[host_seat]}. This device is the host." in text, text[:300]
    for seat, device in entry["seats"].items():
        assert f"You are {names[int(seat)]}." in visible(up.page(device, code)), (code, device)
    version = up.table(code).version
    for device in {entry["host"], *entry["seats"].values()}:
        unchanged = up.devices[device].get(f"/t/{code}/live?v={version}")
        assert unchanged.status_code == 200 and unchanged.data == b"", (code, device)
    changed = up.devices[entry["seats"]["0"]].get(f"/t/{code}/live?v={version - 1}", headers=HX)
    assert changed.status_code == 200 and 'id="live"' in changed.text, code


def home_lists(up: Upgraded) -> None:
    """Each device's home page lists the tables it is a member of (the list before it was
    signed, schema 8, is rebuilt as the device opens each table: seats_open did)."""
    for device, client in up.devices.items():
        home = client.get("/").text
        for entry in up.meta["tables"]:
            if device in (entry["host"], *entry["seats"].values()):
                assert f'<span class="code">{entry["code"]}</span>' in home, (device, entry)


def move_and_undo(up: Upgraded, entry: dict, tries: int = 200) -> None:
    """The next legal move, made by the phone whose turn it is, then undone by that phone: the
    state is back to what the old version stored (the undo replayed the old log)."""
    code = entry["code"]
    table = up.table(code)
    info = table.game
    before = up.state(code)
    events = up.events(code)
    kept = len(events)
    assert len([e for e in events if e.kind == "game" and not e.undone]) == entry["moves"]
    rng = random.Random(code)
    for _ in range(tries):
        action = info.random_play.next_action(before, rng)
        if action is None or action.get("host"):
            continue
        seat = action.get("seat")
        # a public event (no seat: a card turned up) is entered by any phone at the table
        device = entry["seats"][str(seat if seat is not None else 0)]
        form = adapter_of(info).forms.get(action["type"])
        if form is None or not legal(info.rules, before, action):
            continue  # (a refused bid may be fined: not the move this test makes)
        answer = up.post(device, code, f"/act/{action['type']}", **form.fields_for(action, before))
        if up.count_events(code) > kept:
            assert answer.status_code == 200 and alert_text(answer.text) == ""
            break
    else:
        raise AssertionError(f"no legal move accepted at {entry['name']} ({code})")
    moved = up.state(code)
    assert moved != before
    # A phone takes back its own move, unless the move revealed a secret: then the host does.
    undoer = device if up.events(code)[-1].seat_may_undo else entry["host"]
    answer = up.post(undoer, code, "/undo")
    assert answer.status_code == 200, alert_text(answer.text) or answer.status_code
    assert alert_text(answer.text) == ""
    last = up.events(code)[-1]
    assert last.undone and last.action["type"] == action["type"]
    after = up.state(code)
    assert within(before, after), f"the replay of the old log differs: {after} != {before}"
    # What the replay holds beyond the stored state: fields today's game keeps from its start
    # and the old version did not have yet (the games read them with a default).
    assert set(after) - set(before) <= set(info.rules.new(table.options, table.players))


def legal(module, state: dict, action: dict) -> bool:
    """Whether today's rules accept the action now."""
    try:
        module.apply(state, action)
    except RuleError:
        return False
    return True


def within(stored, replayed) -> bool:
    """Whether the replayed state holds everything the old version stored, with the same values
    (dicts may hold more keys: fields added to the game's state since)."""
    if isinstance(stored, dict):
        return isinstance(replayed, dict) and all(
            k in replayed and within(v, replayed[k]) for k, v in stored.items()
        )
    if isinstance(stored, list):
        return (
            isinstance(replayed, list)
            and len(stored) == len(replayed)
            and all(within(a, b) for a, b in zip(stored, replayed, strict=True))
        )
    return stored == replayed


# What a table opens only once its game is over (its `ended` time is set).
OVER_ONLY = ("replay/1", "export.csv", "export.bgsplay")


def finished_play(up: Upgraded, entry: dict) -> None:
    """The finished game shows its end, and today's rules replay its whole old log to that end;
    its summary and exports open; its play (schema 7 on) is in /plays for each of its devices
    with the players and scores the old version recorded, on its first player's page, and a
    rematch starts from it."""
    code = entry["code"]
    host = up.devices[entry["host"]]
    assert 'data-over="yes"' in up.page(entry["host"], code)
    # Today's rules replay the whole old log to the end the old version stored.
    stored = up.state(code)
    replayed = tables.replay(up.table(code), up.events(code))
    assert within(stored, replayed), f"the replay of the old log differs: {replayed} != {stored}"
    # The summary and the exports replay the whole old log with today's rules.
    for path in ("summary", "export.json", "export.txt", *OVER_ONLY):
        answer = host.get(f"/t/{code}/{path}")
        assert answer.status_code == 200, (path, answer.status_code)
        assert path != "summary" or all(name in answer.text for name in entry["names"])
    play = entry.get("play")
    if play is None:  # a version before the record of plays: nothing recorded to find
        return
    expected = [[str(p["seat"] + 1), p["name"], str(p["score"])] for p in play["players"]]
    for device in {entry["host"], *entry["seats"].values()}:
        client = up.devices[device]
        assert code in client.get("/plays").text, device
        rows = list(csv.DictReader(io.StringIO(client.get("/plays/export.csv").text)))
        found = [[r["seat"], r["name"], r["score"]] for r in rows if r["table"] == code]
        assert found == expected, (device, found)
    assert host.get("/stats").status_code == 200
    first = play["players"][0]
    player = visible(host.get("/player", query_string={"name": first["name"]}).text)
    assert "1 game played" in player and f"{first['name']} {first['score']}" in player, player
    rematch(up, entry)


def rematch(up: Upgraded, entry: dict, *, names: bool = True) -> None:
    """The host starts a rematch of the old game; a phone follows to its person's seat there
    (names: under its person's name)."""
    code = entry["code"]
    page = up.page(entry["host"], code)
    started = up.devices[entry["host"]].post(
        f"/t/{code}/rematch", data={"csrf_token": csrf_from(page), "order": "same"}
    )
    assert started.status_code == 302, started.status_code
    new = started.location.rstrip("/").rsplit("/", 1)[1]
    assert new != code and "This device is the host." in visible(up.page(entry["host"], new))
    phone = up.devices[entry["seats"]["0"]]
    followed = phone.get(f"/t/{code}/rematch/follow")
    assert followed.status_code == 302 and followed.location.endswith(f"/t/{new}/")
    who = entry["names"][0] if names else ""
    assert f"You are {who}" in visible(up.page(entry["seats"]["0"], new))


def display_opens(up: Upgraded, entry: dict) -> None:
    """The display link the host made still opens the table display."""
    answer = up.devices[entry["display"]["device"]].get(entry["display"]["url"])
    assert answer.status_code == 200 and entry["code"] in answer.text


def handover_as_it_should(up: Upgraded, entry: dict) -> None:
    """A hand-over link taken is used up (its taker is the host: seats_open checked that; the
    device that handed over is not, or is the table display it chose to stay as); one never
    taken has expired, ten minutes after it was made (or still works, if it has not)."""
    handover = entry["handover"]
    code, url = entry["code"], handover["url"]
    claimer = up.devices["display"]  # a device of no seat there
    token = url.rsplit("token=", 1)[1]
    page = claimer.get(url)
    claimed = claimer.post(url, data={"csrf_token": csrf_from(page.text), "token": token})
    if handover["taken_by"] is not None:
        assert claimed.status_code == 403, claimed.status_code
        assert "expired or was already used" in visible(claimed.text)
        old_host = up.devices[handover["handed_by"]].get(f"/t/{code}/")
        assert "This device is the host." not in visible(old_host.text)
        if "stayed" in handover:  # it stayed at the table as its display (schema 10 on)
            display = up.devices[handover["stayed"]].get(f"/t/{code}/display/")
            assert display.status_code == 200 and code in display.text
    elif time.time() > handover["until"]:
        assert claimed.status_code == 403, claimed.status_code
        assert "expired or was already used" in visible(claimed.text)
    else:
        assert claimed.status_code == 302, claimed.status_code


# --- the fixtures ---------------------------------------------------------------------------------


def test_every_schema_version_before_todays_has_a_fixture():
    """A SQLite fixture per schema version, a PostgreSQL one per PostgreSQL version, each made by
    that version's own code: every version before today's, today's too once it is left behind.
    A schema change reruns scripts/make_upgrade_fixture.py on the commit it leaves behind (see
    tests/data/README.md)."""
    from companion import pg

    for fixtures, latest in ((SQLITE, len(database.MIGRATIONS)), (POSTGRESQL, len(pg.MIGRATIONS))):
        versions = [sidecar(f)["schema_version"] for f in fixtures]
        assert versions in (list(range(1, latest)), list(range(1, latest + 1))), versions
        for fixture in fixtures:
            assert fixture.stem.endswith(f"-v{sidecar(fixture)['schema_version']:02d}")


def _deep_but(fixtures: list[Path], quick: list[Path]) -> list:
    """The quick fixtures run in `make test`, the others in `make test-deep` (which CI runs)."""
    return [
        pytest.param(f, id=f.stem, marks=() if f in quick else pytest.mark.deep) for f in fixtures
    ]


# `make test` opens the oldest SQLite fixture (every migration), the first with the record of
# plays (schema 7), and the two newest (the last migration, today's schema): half a second each;
# the others run in `make test-deep`.
QUICK_SQLITE = [f for f in SQLITE if f in (SQLITE[0], *SQLITE[-2:]) or f.stem == "sqlite-v07"]


@pytest.mark.parametrize("fixture", _deep_but(SQLITE, QUICK_SQLITE))
def test_sqlite_database_of_an_old_version_opens_today(fixture, tmp_path):
    path = tmp_path / "companion.db"
    shutil.copyfile(fixture, path)
    store = database.connect_sqlite(path)
    before = database.schema_version(store)
    store.conn.close()
    check_upgrade(str(path), sidecar(fixture), before)


@pytest.mark.parametrize("fixture", _deep_but(POSTGRESQL, POSTGRESQL[-1:]))
def test_postgresql_database_of_an_old_version_opens_today(fixture, postgres_server):
    url = postgres_server.create_database(f"upgrade_{fixture.stem.replace('-', '_')}")
    subprocess.run(
        [str(postgres_server.bin / "psql"), "-q", "-v", "ON_ERROR_STOP=1", "-d", url, "-f"]
        + [str(fixture)],
        check=True,
        capture_output=True,
    )
    store = database.connect(url)
    before = database.schema_version(store)
    store.close()
    check_upgrade(url, sidecar(fixture), before)


ENDED_BEFORE_PLAYS = [
    f for f in SQLITE if any(t["finished"] and "play" not in t for t in sidecar(f)["tables"])
]


@pytest.mark.parametrize("fixture", ENDED_BEFORE_PLAYS, ids=[f.stem for f in ENDED_BEFORE_PLAYS])
def test_a_game_that_ended_before_schema_7_is_over_today(fixture, tmp_path):
    """A game played to its end before the app noted when games end (schema 7: `ended` was
    added empty) is over today, since schema 12 marks it: its replay and exports open, the
    record of plays has it, with its players, and a rematch starts."""
    path = tmp_path / "companion.db"
    shutil.copyfile(fixture, path)
    up = Upgraded(str(path), sidecar(fixture))
    try:
        entry = next(t for t in up.meta["tables"] if t["finished"])
        code, host = entry["code"], up.devices[entry["host"]]
        for step in OVER_ONLY:
            answer = host.get(f"/t/{code}/{step}")
            assert answer.status_code == 200, (step, answer.status_code)
        assert up.table(code).ended is not None
        rows = list(csv.DictReader(io.StringIO(host.get("/plays/export.csv").text)))
        assert [r["name"] for r in rows if r["table"] == code] == entry["names"]
        rematch(up, entry)
    finally:
        up.close()


NAMED_BEFORE_PLAYS = [f for f in SQLITE if sidecar(f)["schema_version"] < 7]


@pytest.mark.parametrize("fixture", NAMED_BEFORE_PLAYS, ids=[f.stem for f in NAMED_BEFORE_PLAYS])
def test_names_typed_before_schema_7_are_people_today(fixture, tmp_path):
    """The names the host typed when it started each table (before the app noted which names a
    person typed: schema 7 added `named` as 0 for every seat) are people today, not default
    names, since schema 12 tells them from the defaults: the record of plays and the player pages
    count them, BG Stats names them and a rematch keeps them."""
    path = tmp_path / "companion.db"
    shutil.copyfile(fixture, path)
    up = Upgraded(str(path), sidecar(fixture))
    try:
        for entry in up.meta["tables"]:
            seats = up.store(lambda db, e=entry: tables.seats(db, tables.get_table(db, e["code"])))
            assert [s.name for s in seats] == entry["names"]
            assert [s.named for s in seats] == [True] * len(seats), entry["name"]
    finally:
        up.close()


def test_default_names_stay_defaults_when_typed_names_become_people(tmp_path, monkeypatch):
    """Schema 12 tells a typed name from a seat's default name in any of the app's languages:
    "Player 2" and its Japanese, and a game's own seat label in Russian, stay defaults."""
    labelled = next(i for i in GAMES.values() if i.name in INSTALLED and i.rules.seat_labels)
    plain = next(i for i in GAMES.values() if i.name in INSTALLED and not i.rules.seat_labels)
    label = labelled.rules.seat_labels[1]
    russian = catalogue(labelled.name, "ru").get(label).string
    japanese = catalogue(i18n.CORE, "ja").get("Player %(n)s").string % {"n": 3}
    path = tmp_path / "companion.db"
    latest = list(database.MIGRATIONS)
    monkeypatch.setattr(database, "MIGRATIONS", latest[:6])
    old = database.connect(path, setup=True)
    for table_id, info, names in (
        (1, plain, ["Anna", "Player 2", japanese]),
        (2, labelled, [labelled.rules.seat_labels[0], russian, "Boris"]),
    ):
        old.execute(
            "INSERT INTO tables (id, code, game, players, host_hash, version, state)"
            " VALUES (?, ?, ?, ?, 'x', 1, '{}')",
            [table_id, f"CODE{table_id}", info.key, len(names)],
        )
        for seat, name in enumerate(names):
            old.execute(
                "INSERT INTO seats (table_id, seat, name) VALUES (?, ?, ?)", [table_id, seat, name]
            )
    old.conn.commit()
    old.close()
    monkeypatch.setattr(database, "MIGRATIONS", latest)
    store = database.connect(path, setup=True)
    named = store.execute("SELECT table_id, seat, named FROM seats ORDER BY 1, 2").fetchall()
    store.close()
    assert [row[2] for row in named] == [1, 0, 0, 0, 0, 1]


# --- the history the old versions wrote, in every language -----------------------------------------


@functools.cache
def catalogue(part: str, lang: str) -> Catalog:
    """A part's catalogue (the core's, or a game package's) as its .po file holds it."""
    folder = (
        i18n.TRANSLATIONS
        if part == i18n.CORE
        else i18n.package_dir(PACKAGES[part]) / "translations"
    )
    with open(folder / lang / "LC_MESSAGES" / "messages.po", "rb") as po:
        return read_po(po)


def translated(part: str, lang: str, msgid: str) -> bool:
    """Whether a msgid read in this part (its own catalogue, then the core's, as the app reads
    it) has a translation in that language."""
    for where in dict.fromkeys((part, i18n.CORE)):
        message = catalogue(where, lang).get(msgid)
        if (
            message is not None
            and not message.fuzzy
            and all(message.string if isinstance(message.string, tuple) else (message.string,))
        ):
            return True
    return False


def stored_msgs(line: Msg):
    """A stored history line and the messages inside it (a line may hold lines)."""
    yield line
    for value in line.params.values():
        if isinstance(value, Msg):
            yield from stored_msgs(value)


@pytest.mark.parametrize("fixture", SQLITE, ids=[f.stem for f in SQLITE])
def test_every_history_line_an_old_version_stored_reads_in_each_language(fixture):
    """The history keeps each line as its msgid: a line reworded since must keep its old msgid
    in the catalogues (the games' EARLIER_LINES, STORED_BEFORE_...), or the rows written before
    read in English on a Japanese or Russian phone."""
    conn = sqlite3.connect(fixture)
    rows = conn.execute(
        "SELECT DISTINCT t.game, e.lines FROM events e JOIN tables t ON t.id = e.table_id"
    ).fetchall()
    conn.close()
    untranslated = set()
    for game, lines in rows:
        for line in json.loads(lines):
            for msg in stored_msgs(Msg.from_json(line)):
                if not re.search(r"[^\W\d_]", re.sub(r"%\(\w+\)s", "", msg.msgid)):
                    continue  # no words to translate ("%(tribe)s %(digit)s")
                part = msg.domain or GAMES[game].name
                for lang in ("ja", "ru"):
                    if not translated(part, lang, msg.msgid):
                        untranslated.add((lang, part, msg.msgid))
    assert not untranslated, sorted(untranslated)

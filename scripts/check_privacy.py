"""Private values stay private: every page and fragment, as every viewer, before and after a
private change, for every game.

    python -m scripts.check_privacy               # every game, every position (a few minutes)
    python -m scripts.check_privacy --quick       # the first game, one position: `make test`
    python -m scripts.check_privacy --games KEY KEY      # the registry's keys

What each game keeps private comes from the game's own declaration (its package's privacy.py:
PRIVACY, a companion.games.base.Privacy): the positions where private values exist, how to change
one seat's values, which viewers may see them, and the private actions for twin tables. A game
that keeps nothing private declares that too (no sweep then).

How: the app is served as `make run` serves it (scripts/check_kit.py) on a free loopback port; a table of the
game is played (by its random-game generator) to positions where private values exist. The
viewers are each seat's phone (one seat is left without a phone), the host's device for the
table and acting for each seat, with "show all" off and on (where the game has it), a stranger,
the table display (its link) and the table device (the old host's device that stayed at the
table as its display after handing the host role over: its own cookie). Their pages: the table
page, the live region (a poll), the history, the seats fragment, the manifest, the QR code, the
join page, the push stream's first message, the display page, its poll and its push stream.

1. Changes behind the app's back: one seat's private values are changed in the stored snapshot
   (nothing else), and every viewer's every page is fetched again. A viewer not allowed to see
   that seat's values must get exactly the same bytes as before (CSRF tokens aside); the seat's
   own phone (or the host acting for a seat without one) must see a difference, or the check
   could not have seen a leak.
2. Changes made by real actions (twin tables): two tables are played identically to a private
   action (a sealed bid; a completed expedition or artifact adventure; a scoring sheet), which is
   then sent through the game's form with one private value different on each table. Every
   viewer not allowed to see it must get the same pages on both tables (codes, secrets and
   tokens aside): the history lines, undo buttons and answers included.

3. Who may see a table at all (a finished table whose host started a rematch): the home page's
   list of tables, the record of plays (/plays, /stats), the join QR code and the rematch's follow
   link, as each seat's phone, the host, the display, a stranger, another table's phone and a
   device whose list of tables is forged, and the table device. Only the table's own devices
   (its phones, the host, and the table device, which was its host) find it on the home page
   and in the record of plays; the QR code is for members and the
   displays; the follow link leads a seat to its seat, the host to the new table and the
   displays to a display of it (the table device in its cookie), and tells anyone else nothing
   (the answer of an unknown table, without the rematch's code).

Goal: 0 private values shown to the wrong viewer. The exit status is 1 otherwise.
"""

from __future__ import annotations

import difflib
import html
import http.client
import random
import re
import socket
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from companion.games.base import (
    HOST_DEVICE,
    PHONE,
    STRANGER,
    Position,
    Privacy,
    RuleError,
)
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
    form_fields,
    generator,
    hand_over,
    open_table,
    start_app,
)
from tests.support.pages import without_clock

# --- who looks -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Viewer:
    kind: str  # PHONE, HOST_DEVICE, STRANGER or DISPLAY (companion.games.base), "table device"
    seat: int | None = None  # the phone's seat, or the seat the host acts for

    def __str__(self) -> str:
        if self.kind == PHONE:
            return f"seat {self.seat}'s phone"
        if self.kind == HOST_DEVICE:
            return "the host" + (f" acting for seat {self.seat}" if self.seat is not None else "")
        return f"a {self.kind}" if self.kind == STRANGER else f"the {self.kind}"


def may_see(privacy: Privacy, reveal: bool):
    """The declaration's may_see as the sweep asks it: (viewer, seat) -> bool."""
    return lambda v, seat: privacy.may_see(v.kind, v.seat, seat, reveal)


# --- pages -----------------------------------------------------------------------------------------

CSRF_INPUT = re.compile(r'(<input[^>]*name="csrf_token"[^>]*value=")[^"]*(")')
CSRF_INPUT_FIRST = re.compile(r'(<input[^>]*value=")[^"]*("[^>]*name="csrf_token")')
CSRF_HEADER = re.compile(r'("X-CSRFToken": ")[^"]*(")')
# A push message's presence ("1101": which seats' phones are online) moves with time and with
# the process's last sweep, not with any private value; its version is kept and compared.
PUSH_PRESENCE = re.compile(r"^(data: \d+) \S+( renew)?$", re.M)
SVG = re.compile(r"<svg.*?</svg>", re.S)


def normalize(text: str, table: TableAt | None = None, secret: str = "") -> str:
    """A page without what changes from one load to the next (CSRF tokens) and, for twins,
    without what differs between two tables (code, join secret, display key, QR codes)."""
    text = CSRF_INPUT.sub(r"\1CSRF\2", text)
    text = CSRF_INPUT_FIRST.sub(r"\1CSRF\2", text)
    text = CSRF_HEADER.sub(r"\1CSRF\2", text)
    text = PUSH_PRESENCE.sub(r"\1", text)
    text = without_clock(text)  # the table clock runs with time, not with any private value
    if table is not None:
        text = SVG.sub("<svg/>", text)
        text = text.replace(table.code, "CODE").replace(table.code.lower(), "code")
        if secret:  # the join link carries it, the QR code's address its first 8 characters
            text = text.replace(secret, "SECRET").replace(secret[:8], "SECRET8")
        if table.display_key:
            text = text.replace(table.display_key, "DISPLAYKEY")
    return text


def viewers(table: TableAt) -> list[Viewer]:
    seats = range(len(table.phones))
    return (
        [Viewer("phone", s) for s in seats if table.phones[s] is not None]
        + [Viewer("host")]
        + [Viewer("host", s) for s in seats]
        + [Viewer("stranger"), Viewer("display")]
        + ([Viewer("table device")] if table.table_device is not None else [])
    )


def pages_of(viewer: Viewer, table: TableAt) -> list[str]:
    base = f"/t/{table.code}"
    if viewer.kind == "display":
        key = table.display_key
        return [
            f"{base}/display/?key={key}",
            f"{base}/display/live?key={key}&v=0",
            f"{base}/display/push?key={key}",
        ]
    if viewer.kind == "table device":  # its own cookie, and the pages of a member
        return [
            f"{base}/display/",
            f"{base}/display/live?v=0",
            f"{base}/display/push",
            f"{base}/",
            f"{base}/live?v=0",
            f"{base}/push",
            f"{base}/history",
            f"{base}/seats",
            f"{base}/qr.svg",
            f"{base}/join",
        ]
    query = f"as={viewer.seat}" if viewer.kind == "host" and viewer.seat is not None else ""
    q = f"?{query}" if query else ""
    return [
        f"{base}/{q}",
        f"{base}/live?v=0" + (f"&{query}" if query else ""),
        f"{base}/push",
        f"{base}/history{q}",
        f"{base}/seats{q}",
        f"{base}/manifest.webmanifest",
        f"{base}/qr.svg",
        f"{base}/join",
    ]


class Sweep:
    """Fetches every viewer's every page, and compares."""

    def __init__(self, server, store: Store):
        self.server, self.store = server, store
        self.stranger = Client(server.port, source="127.0.2.1")
        self.display = Client(server.port, source="127.0.2.2")
        self.requests = 0
        self.compared = 0
        self.leaks: list[str] = []
        # Changes no page showed, not even to their owner (e.g. a completed card's points while
        # playing, a sealed bid of a seat without a phone): allowed, but a game none of whose
        # changes was ever seen would mean the check is blind to it.
        self.unseen: list[str] = []
        self.seen_games: set[str] = set()
        self.noisy: list[str] = []  # pages that changed with nothing changed

    def client(self, viewer: Viewer, table: TableAt) -> Client:
        if viewer.kind == "phone":
            return table.phones[viewer.seat]
        if viewer.kind == "host":
            return table.host
        if viewer.kind == "table device":
            return table.table_device
        return self.stranger if viewer.kind == "stranger" else self.display

    def fetch(self, table: TableAt, twin: bool = False) -> dict:
        """(viewer, page) -> what that viewer gets (status, redirect and normalized body)."""
        secret = self.store.table(table.code).join_secret
        found = {}
        for viewer in viewers(table):
            client = self.client(viewer, table)
            for path in pages_of(viewer, table):
                headers = HX if "/live" in path else None
                if "/push" in path:
                    answer = client.first_event(path)
                else:
                    answer = client.get(path, headers=headers)
                self.requests += 1
                body = normalize(answer.text, table if twin else None, secret if twin else "")
                location = answer.headers.get("Location", "")
                if twin:
                    location = normalize(location, table, secret)
                if twin:
                    path = path.replace(table.code, "CODE")
                    path = path.replace(table.display_key or "\0", "DISPLAYKEY")
                found[(viewer, path)] = (
                    answer.status_code,
                    location,
                    body.replace(table.display_key or "\0", "DISPLAYKEY"),
                )
        return found

    def compare(self, before: dict, after: dict, seat: int, allowed, label: str) -> None:
        """A viewer not allowed to see the seat's values must see no difference; the allowed
        ones must see one somewhere (or the check is blind)."""
        seen = False
        for key, old in before.items():
            viewer, path = key
            new = after.get(key)
            self.compared += 1
            if new == old:
                continue
            if allowed(viewer, seat):
                seen = True
                continue
            self.leaks.append(
                f"{label}: seat {seat}'s value reached {viewer} on {path}: {diff(old, new)}"
            )
        if seen:
            self.seen_games.add(label.split(",")[0].split()[0])
        else:
            self.unseen.append(f"{label}: seat {seat}'s change was shown to nobody")

    def same(self, before: dict, after: dict, label: str) -> None:
        for key, old in before.items():
            if after.get(key) != old:
                self.noisy.append(f"{label}: {key[0]} {key[1]} changed with nothing changed")


def diff(old: tuple, new: tuple) -> str:
    if old[:2] != new[:2]:
        return f"answer {old[:2]} became {new[:2]}"
    lines = difflib.unified_diff(old[2].splitlines(), new[2].splitlines(), lineterm="", n=0)
    changed = [line for line in lines if line[:1] in "+-" and line[:3] not in ("+++", "---")]
    return " | ".join(line.strip()[:160] for line in changed[:4])


# --- the sweeps ------------------------------------------------------------------------------------


def reveal_switch(table: TableAt, on: bool) -> None:
    """The host switches "show all" with the page's own button (or, where the page shows no
    button at this point of the game, with the address the button has elsewhere)."""
    page = table.host.get(f"/t/{table.code}/").text
    found = re.search(r'action="([^"]*/host/reveal[^"]*)"', page)
    path = html.unescape(found.group(1)) if found else f"/t/{table.code}/host/reveal"
    path = re.sub(r"[?&]on=[01]", "", path)
    path += ("&" if "?" in path else "?") + f"on={1 if on else 0}"
    answer = table.host.post(path, {"csrf_token": csrf_from(page)}, HX)
    assert answer.status_code == 200, answer.status_code


def mutation_sweep(
    sweep: Sweep, game: str, privacy: Privacy, position: Position, rng, quick: bool
) -> int:
    """Part 1 at one position: returns how many private changes were checked."""
    label = position.label
    store = sweep.store
    info = GAMES[game]
    players = info.min_players if quick else min(info.max_players, info.min_players + 1)
    table = open_table(sweep.server.port, game, players, free_seats=1)
    hand_over(table)
    advance(store, table.code, game, 400, rng, until=position.reached, steer=position.steer)
    state = store.state(table.code)
    if not position.reached(state):
        sweep.unseen.append(f"{game}: the position '{label}' was not reached")
        return 0
    checked = 0
    has_switch = bool(adapter_of(info).show_all_line)
    for reveal in (False, True) if has_switch else (False,):
        if reveal:
            reveal_switch(table, True)
        sweep.fetch(table)  # first looks (the host's traces) happen here, before comparing
        before = sweep.fetch(table)
        for seat in range(players):
            changed = privacy.mutate(state, seat)
            if changed is None:
                continue
            store.set_state(table.code, changed)
            try:
                after = sweep.fetch(table)
            finally:
                store.set_state(table.code, state)
            where = f"{info.key}, {label}, show all {'on' if reveal else 'off'}"
            sweep.compare(before, after, seat, may_see(privacy, reveal), where)
            checked += 1
        sweep.same(before, sweep.fetch(table), f"{info.key}, {label}")
    return checked


def twin_sweep(sweep: Sweep, game: str, privacy: Privacy, rng: random.Random, events: int) -> int:
    """Part 2: twin tables, one private action with different values. Returns how many."""
    info = GAMES[game]
    module = info.rules
    legal = generator(game)
    store = sweep.store
    done = 0
    attempts = 0
    while done < events and attempts < events * 4:
        attempts += 1
        players = min(info.max_players, info.min_players + 1)
        names = ("Anna", "Ben", "Chris", "Dana", "Emil")[:players]
        a = open_table(sweep.server.port, game, players, free_seats=1, names=names)
        b = open_table(sweep.server.port, game, players, free_seats=1, names=names)
        hand_over(a)
        hand_over(b)
        for _ in range(800):
            state = store.state(a.code)
            if module.result(state) is not None:
                break
            action = legal.next_action(state, rng)
            if action is None:
                break
            try:
                module.apply(state, action)
            except RuleError:
                continue
            wanted = privacy.twin_kinds[done % len(privacy.twin_kinds)]
            other = privacy.private_action(state, action) if action["type"] == wanted else None
            if other is not None and rng.random() < 0.7:
                if twin_pair(sweep, game, privacy, a, b, state, action, other):
                    done += 1
                    break
            store.act(a.code, action)
            store.act(b.code, action)
    return done


def stream_paths(viewer: Viewer, table: TableAt) -> list[str]:
    """The push streams a viewer's pages hold (a stranger holds none)."""
    return [path for path in pages_of(viewer, table) if "/push" in path]


class MessageAfter:
    """A viewer's push stream, opened before a change: the first message it sends after the
    version it opened at, with the live region it carries (the stream's payload)."""

    def __init__(self, client: Client, path: str):
        self.path = path
        self.sock = socket.create_connection(
            ("127.0.0.1", client.port), timeout=15, source_address=(client.source, 0)
        )
        self.sock.sendall(client.build("GET", path))
        self.answer = http.client.HTTPResponse(self.sock, method="GET")
        self.answer.begin()
        self.buffer = b""
        self.opened_at = int(self._next().split(b"\n", 1)[0][6:].split(b" ")[0]) if self.ok else 0

    @property
    def ok(self) -> bool:
        return self.answer.status == 200

    def _next(self) -> bytes:
        while b"\n\n" not in self.buffer:
            piece = self.answer.read1(65536)
            if not piece:
                raise ConnectionError(f"{self.path}: the stream ended")
            self.buffer += piece
        message, self.buffer = self.buffer.split(b"\n\n", 1)
        return message

    def after(self) -> tuple[int, str, str]:
        """(status, "", the first message after the opening version), then closed."""
        try:
            if not self.ok:
                return self.answer.status, "", ""
            while True:
                message = self._next()
                if int(message.split(b"\n", 1)[0][6:].split(b" ")[0]) > self.opened_at:
                    return 200, "", message.decode() + "\n\n"
        finally:
            self.sock.close()


def open_streams(sweep, table: TableAt) -> dict:
    """Every viewer's streams of the table, open now: (viewer, path) -> MessageAfter."""
    return {
        (viewer, path): MessageAfter(sweep.client(viewer, table), path)
        for viewer in viewers(table)
        if viewer.kind != "stranger"
        for path in stream_paths(viewer, table)
    }


def messages_after(streams: dict, table: TableAt, secret: str) -> dict:
    """What each stream sent after the change, normalized as the twins' pages are."""
    found = {}
    for (viewer, path), stream in streams.items():
        status, location, body = stream.after()
        shown = path.replace(table.code, "CODE").replace(table.display_key or "\0", "DISPLAYKEY")
        found[(viewer, f"{shown} (its message after the action)")] = (
            status,
            location,
            normalize(body, table, secret),
        )
    return found


def twin_pair(sweep, game, privacy: Privacy, a: TableAt, b: TableAt, state, action, other) -> bool:
    """Send the action on table a and its other value on table b (each through the form, from
    the right device), then compare every viewer's pages across the twins, and what each
    viewer's push stream, open before the action, sent after it (its live region)."""
    module = GAMES[game].rules
    try:
        module.apply(state, other)
    except RuleError:
        return False
    fields_a = form_fields(game, state, action)
    fields_b = form_fields(game, state, other)
    if fields_a is None or fields_b is None:
        return False
    seat = action.get("seat")
    streams = {a.code: open_streams(sweep, a), b.code: open_streams(sweep, b)}
    answers = {}
    for table, fields in ((a, fields_a), (b, fields_b)):
        client, query = table.device(seat, bool(action.get("host")))
        page = client.get(f"/t/{table.code}/{query}").text
        data = {"csrf_token": csrf_from(page), **fields}
        data["version"] = re.search(r'data-version="(\d+)"', page).group(1)
        answer = client.post(f"/t/{table.code}/act/{action['type']}{query}", data, HX)
        assert answer.status_code == 200, (answer.status_code, answer.text[:300])
        # The device that acted gets its region in the answer (its own stream brings none:
        # push.py), so the answer is compared as that viewer's along with the streams.
        actor = Viewer(HOST_DEVICE, seat if query else None)
        if client is not table.host:
            actor = Viewer(PHONE, seat)
        secret = sweep.store.table(table.code).join_secret
        answers[table.code] = {
            (actor, "the action's answer"): (200, "", normalize(answer.text, table, secret))
        }
    pushed = tuple(
        messages_after(streams[t.code], t, sweep.store.table(t.code).join_secret) | answers[t.code]
        for t in (a, b)
    )
    sweep.requests += len(pushed[0]) + len(pushed[1])
    label = f"{GAMES[game].key} twins, {action['type']} by seat {seat}"
    sweep.compare(pushed[0], pushed[1], seat, may_see(privacy, False), label + ", pushed")
    sweep.fetch(a, twin=True)  # first looks
    sweep.fetch(b, twin=True)
    sweep.compare(
        sweep.fetch(a, twin=True), sweep.fetch(b, twin=True), seat,
        may_see(privacy, False), label,
    )  # fmt: skip
    return True


ACCESS_NAMES = ("Quokka", "Wombat", "Numbat", "Dingo", "Bilby")  # found nowhere else


def access_sweep(sweep: Sweep, game: str, rng: random.Random) -> int:
    """Part 3 for one game: returns how many (viewer, page) answers were checked."""
    info = GAMES[game]
    players = min(info.max_players, info.min_players + 1) if info.min_players < 3 else 3
    port, store = sweep.server.port, sweep.store
    table = open_table(port, game, players, free_seats=1, names=ACCESS_NAMES[:players])
    hand_over(table)
    other = open_table(port, game, info.min_players)
    advance(store, table.code, game, 5000, rng)
    if info.rules.result(store.state(table.code)) is None:
        sweep.unseen.append(f"{game}: access sweep: the game did not end")
        return 0
    page = table.host.get(f"/t/{table.code}/").text
    # The join QR code's address as the pages give it while joining is open (a finished game's
    # pages invite nobody, but the address still answers whom it answered).
    qr_path = f"/t/{table.code}/qr.svg?k={store.table(table.code).join_secret[:8]}"
    started = table.host.post(f"/t/{table.code}/rematch", {"csrf_token": csrf_from(page)})
    new = re.search(r"/t/(\w+)/", started.location).group(1)
    forged = Client(port, source="127.0.2.3")
    forged.cookies["tables"] = f"{table.code}:hs"
    forged.cookies["my_tables"] = f"{table.code}:hs"
    seen_as = [(f"seat {s}'s phone", p, "seat") for s, p in enumerate(table.phones) if p]
    seen_as += [("the host", table.host, "host"), ("the display", sweep.display, "display")]
    seen_as += [("the table device", table.table_device, "table device")]
    seen_as += [
        ("a stranger", sweep.stranger, None),
        ("another table's phone", other.phones[0], None),
    ]
    seen_as += [("a device with a forged list", forged, None)]
    key = f"key={table.display_key}"
    checked = 0
    for label, client, role in seen_as:
        # The table device was the table's host: it keeps the table's record (issue 39).
        member = role in ("seat", "host", "table device")
        answers = {
            "home": table.code in client.get("/").text,
            "plays": ACCESS_NAMES[0] in client.get("/plays").text,
            "stats": ACCESS_NAMES[0] in client.get("/stats").text,
        }
        for what, found in answers.items():
            if found != member:
                where = "shows" if found else "hides from its own device"
                sweep.leaks.append(f"{game} access: {what} {where} the table, as {label}")
        sep = "&" if role == "display" else ""
        qr_answer = client.get(qr_path + (sep + key if role == "display" else ""))
        if (qr_answer.status_code == 200) != (role is not None):
            sweep.leaks.append(
                f"{game} access: the QR code answered {qr_answer.status_code} to {label}"
            )
        follow = client.get(
            f"/t/{table.code}/rematch/follow" + (f"?{key}" if role == "display" else "")
        )
        leads_to_new = new in follow.location or new in follow.text
        if role is None and (leads_to_new or follow.status_code != 404):
            sweep.leaks.append(f"{game} access: the follow link answered {label}")
        if role is not None and not leads_to_new:
            sweep.leaks.append(f"{game} access: the follow link did not lead {label} on")
        if role == "display" and "/display/?key=" not in follow.location:
            sweep.leaks.append(f"{game} access: the display was not led to a display")
        if role == "table device" and follow.location != f"/t/{new}/display/":
            sweep.leaks.append(f"{game} access: the table device was not led to its display")
        checked += len(answers) + 2
        sweep.requests += len(answers) + 2
    sweep.seen_games.add(f"{info.key} access")
    return checked


def run(
    games: list[str], seed: int, quick: bool, backend: str = "sqlite", processes: int = 1
) -> tuple[Figures, float]:
    figures = Figures("privacy")
    started = time.time()
    rng = random.Random(seed)
    checked, twins, access, swept = 0, 0, 0, []
    with (
        tempfile.TemporaryDirectory() as tmp,
        check_database(backend, Path(tmp), "privacy") as database,
    ):
        # Presence marks must not flip between two loads of a page ("online" stays online).
        server = start_app(database, processes=processes, env={"COMPANION_ONLINE_WITHIN": "100000"})
        try:
            sweep = Sweep(server, Store(database))
            for game in games[:1] if quick else games:
                access += access_sweep(sweep, game, rng)
            for game in games:
                privacy = GAMES[game].privacy
                if not privacy.keeps_anything:
                    print(f"  {game}: nothing private ({privacy.what}): no sweep")
                    continue
                swept.append(game)
                for position in privacy.positions[:1] if quick else privacy.positions:
                    checked += mutation_sweep(sweep, game, privacy, position, rng, quick)
                if privacy.private_action is not None and not quick:
                    twins += twin_sweep(sweep, game, privacy, rng, 3)
        finally:
            server.stop()
        tracebacks = server.tracebacks()
    elapsed = time.time() - started
    figures.add("games swept", ", ".join(swept))
    figures.add("private changes behind the app's back", checked)
    figures.add("private actions on twin tables", twins)
    figures.add("access answers checked (home, plays, stats, QR, rematch follow)", access)
    figures.add("pages fetched", sweep.requests)
    figures.add("page comparisons", sweep.compared)
    figures.add("private values shown to the wrong viewer", len(sweep.leaks), "0", not sweep.leaks)
    figures.add("private changes no page showed, not even to their owner", len(sweep.unseen))
    blind = [GAMES[g].key for g in swept if GAMES[g].key not in sweep.seen_games]
    figures.add(
        "games where no page ever showed a private change (the check would be blind)",
        len(blind),
        "0",
        not blind,
    )
    figures.add("pages that changed with nothing changed", len(sweep.noisy), "0", not sweep.noisy)
    figures.add("tracebacks in the server's stderr", len(tracebacks), "0", not tracebacks)
    for item in (sweep.leaks + sweep.noisy)[:12] + tracebacks[:3]:
        print(f"  problem: {item}")
    for item in sweep.unseen[:12]:
        print(f"  shown to nobody: {item}")
    return figures, elapsed


def main(argv: list[str] | None = None) -> int:
    parser = check_parser(__doc__)
    parser.add_argument("--games", nargs="*", default=None, help="game keys (default: all)")
    args = parser.parse_args(argv)
    games = args.games or (list(GAMES)[:1] if args.quick else list(GAMES))
    announce("Privacy", args, f"{', '.join(games)}")
    figures, elapsed = run(games, args.seed, args.quick, args.backend, args.processes)
    return conclude(figures, elapsed)


if __name__ == "__main__":
    sys.exit(main())

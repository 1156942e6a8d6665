"""Private values stay private: every page and fragment, as every viewer, before and after a
private change, for every game.

    python scripts/check_privacy.py               # every game, every position (a few minutes)
    python scripts/check_privacy.py --quick       # Serengeti, one position: what `make test` runs
    python scripts/check_privacy.py --games cape_to_cairo africana

What each game keeps private (read from each game's view()):
- Serengeti and Don: a seat's chips. Its own phone sees them; the host's device when it acts for
  that seat or shows all; nobody else (the display never), until the game is over.
- From Cape to Cairo: a sealed bid, while bids are awaited. Only the phone that made it; not the
  host's device, not even acting for that seat or showing all.
- Africana: a seat's completed cards (points, kinds, guides) and its scoring sheet. Its own
  phone; the host's device acting for it or showing all; nobody else, until the result.
- Kahuna: nothing (hands are only counted; the app never knows a card in a hand): no sweep.

How: the app is served by waitress on a free loopback port (scripts/check_kit.py); a table of the
game is played (by its random-game generator) to positions where private values exist. The
viewers are each seat's phone (one seat is left without a phone), the host's device for the
table and acting for each seat, with "show all" off and on (where the game has it), a stranger
and the table display. Their pages: the table page, the live region (a poll), the history, the
seats fragment, the manifest, the QR code, the join page, the push stream's first message, the
display page, its poll and its push stream.

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

Goal: 0 private values shown to the wrong viewer. The exit status is 1 otherwise.
"""

from __future__ import annotations

import copy
import difflib
import html
import random
import re
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from check_kit import (  # noqa: E402
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
    open_table,
    start_app,
)

from companion.games.base import RuleError  # noqa: E402

# --- what each game keeps private ----------------------------------------------------------------


@dataclass(frozen=True)
class Viewer:
    kind: str  # "phone", "host", "stranger", "display"
    seat: int | None = None  # the phone's seat, or the seat the host acts for

    def __str__(self) -> str:
        if self.kind == "phone":
            return f"seat {self.seat}'s phone"
        if self.kind == "host":
            return "the host" + (f" acting for seat {self.seat}" if self.seat is not None else "")
        return f"a {self.kind}" if self.kind == "stranger" else "the display"


def host_may_see(viewer: Viewer, seat: int, reveal: bool) -> bool:
    return viewer.kind == "host" and (viewer.seat == seat or reveal)


@dataclass
class Spec:
    """A game's private values: where to find them, how to change them, who may see them."""

    positions: list[tuple[str, Callable[[dict], bool], Callable | None]]
    mutate: Callable[[dict, int], dict | None]  # a copy with seat's private values changed
    allowed: Callable[[Viewer, int, bool], bool]  # (viewer, seat, "show all" on)
    private_action: Callable[[dict, dict], dict | None] | None = None  # twin's other action
    twin_kinds: tuple[str, ...] = ()  # the private actions the twins are played to, in turn
    what: str = ""


def serengeti_mutate(state: dict, seat: int) -> dict:
    changed = copy.deepcopy(state)
    changed["chips"][seat] += 7
    return changed


def ctc_mutate(state: dict, seat: int) -> dict | None:
    if state["phase"] != "bidding" or state["bids"][seat] is None:
        return None
    changed = copy.deepcopy(state)
    money = state["money"][seat]
    changed["bids"][seat] = (state["bids"][seat] + 1) % (money + 1) if money else 0
    return changed if changed["bids"][seat] != state["bids"][seat] else None


def ctc_private_action(state: dict, action: dict) -> dict | None:
    """A sealed bid that is not the last one (the last reveals them all), with another amount."""
    if action.get("type") != "bid" or sum(b is None for b in state["bids"]) < 2:
        return None
    money = state["money"][action["seat"]]
    other = next((a for a in (action["amount"] + 1, action["amount"] - 1) if 0 <= a <= money), None)
    return None if other is None else {**action, "amount": other}


def africana_mutate(state: dict, seat: int) -> dict | None:
    changed = copy.deepcopy(state)
    record = changed["seats"][seat]
    tally = record["tally"]
    tally["guides"] += 1
    tally["expeditions"] = [p + 1 for p in tally["expeditions"]] or [3]
    tally["artifacts"] = [[k, p + 1] for k, p in tally["artifacts"]]
    if record["sheet"] is not None:
        record["sheet"]["coins"] += 13
    return changed


def africana_private_action(state: dict, action: dict) -> dict | None:
    """A completed expedition or artifact adventure (its points; an artifact's kind too), or a
    scoring sheet that is not the last one (the last shows the result), with other values."""
    kind = action.get("type")
    if kind == "complete_expedition":
        return {**action, "points": action["points"] + 1}
    if kind == "complete_artifact":
        kinds = ["A", "B", "C", "D", "E"]
        other = kinds[(kinds.index(action["kind"]) + 1) % 5] if action["kind"] in kinds else "A"
        return {**action, "kind": other, "points": action["points"] + 1}
    if kind == "submit_sheet" and sum(r["sheet"] is None for r in state["seats"]) >= 2:
        return {**action, "coins": action.get("coins", 0) + 10}
    return None


def africana_sheets(store: Store, code: str, rng: random.Random) -> None:
    """Play until cards are completed, then the host ends play (the sheets are due)."""
    advance(store, code, "africana", 300, rng, until=lambda s: any_tally(s) and rng.random() < 0.1)
    if store.state(code)["phase"] == "playing":
        store.act(code, {"type": "finish_game", "host": True})


def any_tally(state: dict) -> bool:
    return any(r["tally"]["expeditions"] or r["tally"]["artifacts"] for r in state["seats"])


def some_bids_in(state: dict) -> bool:
    bids = [b is not None for b in state["bids"]]
    return state["phase"] == "bidding" and 0 < sum(bids) < len(bids)


SPECS = {
    "serengeti": Spec(
        positions=[
            ("an auction in round 1", lambda s: s["phase"] == "auction", None),
            (
                "an auction from round 4",
                lambda s: s["phase"] == "auction" and s["round"] >= 4,
                None,
            ),
        ],
        mutate=serengeti_mutate,
        allowed=lambda v, seat, reveal: (
            (v.kind == "phone" and v.seat == seat) or host_may_see(v, seat, reveal)
        ),
        what="chips",
    ),
    "cape_to_cairo": Spec(
        positions=[
            ("sealed bids, some in", some_bids_in, None),
            ("sealed bids of round 2", lambda s: some_bids_in(s) and s["round"] >= 2, None),
        ],
        mutate=ctc_mutate,
        allowed=lambda v, seat, reveal: v.kind == "phone" and v.seat == seat,
        private_action=ctc_private_action,
        twin_kinds=("bid",),
        what="sealed bids",
    ),
    "africana": Spec(
        positions=[
            ("completed cards in play", lambda s: s["phase"] == "playing" and any_tally(s), None),
            (
                "scoring sheets, some handed in",
                lambda s: (
                    s["phase"] == "over"
                    and 0 < sum(r["sheet"] is not None for r in s["seats"]) < s["players"]
                ),
                africana_sheets,
            ),
        ],
        mutate=africana_mutate,
        allowed=lambda v, seat, reveal: (
            (v.kind == "phone" and v.seat == seat) or host_may_see(v, seat, reveal)
        ),
        private_action=africana_private_action,
        twin_kinds=("complete_expedition", "complete_artifact", "submit_sheet"),
        what="completed cards and scoring sheets",
    ),
}


# --- pages -----------------------------------------------------------------------------------------

CSRF_INPUT = re.compile(r'(<input[^>]*name="csrf_token"[^>]*value=")[^"]*(")')
CSRF_INPUT_FIRST = re.compile(r'(<input[^>]*value=")[^"]*("[^>]*name="csrf_token")')
CSRF_HEADER = re.compile(r'("X-CSRFToken": ")[^"]*(")')
# A push message's presence ("1101": which seats' phones are online) moves with time and with
# the process's last sweep, not with any private value; its version is kept and compared.
PUSH_PRESENCE = re.compile(r"^(data: \d+) \S+$", re.M)
SVG = re.compile(r"<svg.*?</svg>", re.S)


def normalize(text: str, table: TableAt | None = None, secret: str = "") -> str:
    """A page without what changes from one load to the next (CSRF tokens) and, for twins,
    without what differs between two tables (code, join secret, display key, QR codes)."""
    text = CSRF_INPUT.sub(r"\1CSRF\2", text)
    text = CSRF_INPUT_FIRST.sub(r"\1CSRF\2", text)
    text = CSRF_HEADER.sub(r"\1CSRF\2", text)
    text = PUSH_PRESENCE.sub(r"\1", text)
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
        # Changes no page showed, not even to their owner (e.g. Africana's completed cards while
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


def mutation_sweep(sweep: Sweep, game: str, spec: Spec, position, rng, quick: bool) -> int:
    """Part 1 at one position: returns how many private changes were checked."""
    label, until, prepare = position
    store = sweep.store
    info = GAMES[game]
    players = info.min_players if quick else min(info.max_players, info.min_players + 1)
    table = open_table(sweep.server.port, game, players, free_seats=1)
    if prepare is not None:
        prepare(store, table.code, rng)
    advance(store, table.code, game, 400, rng, until=until)
    state = store.state(table.code)
    if not until(state):
        sweep.unseen.append(f"{game}: the position '{label}' was not reached")
        return 0
    checked = 0
    has_switch = bool(info.adapter.show_all_line)
    for reveal in (False, True) if has_switch else (False,):
        if reveal:
            reveal_switch(table, True)
        sweep.fetch(table)  # first looks (the host's traces) happen here, before comparing
        before = sweep.fetch(table)
        for seat in range(players):
            changed = spec.mutate(state, seat)
            if changed is None:
                continue
            store.set_state(table.code, changed)
            try:
                after = sweep.fetch(table)
            finally:
                store.set_state(table.code, state)
            where = f"{info.key}, {label}, show all {'on' if reveal else 'off'}"
            sweep.compare(before, after, seat, lambda v, s, r=reveal: spec.allowed(v, s, r), where)
            checked += 1
        sweep.same(before, sweep.fetch(table), f"{info.key}, {label}")
    return checked


def twin_sweep(sweep: Sweep, game: str, spec: Spec, rng: random.Random, events: int) -> int:
    """Part 2: twin tables, one private action with different values. Returns how many."""
    info = GAMES[game]
    module = info.module
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
            wanted = spec.twin_kinds[done % len(spec.twin_kinds)]
            other = spec.private_action(state, action) if action["type"] == wanted else None
            if other is not None and rng.random() < 0.7:
                if twin_pair(sweep, game, spec, a, b, state, action, other):
                    done += 1
                    break
            store.act(a.code, action)
            store.act(b.code, action)
    return done


def twin_pair(sweep, game, spec, a: TableAt, b: TableAt, state, action, other) -> bool:
    """Send the action on table a and its other value on table b (each through the form, from
    the right device), then compare every viewer's pages across the twins."""
    module = GAMES[game].module
    try:
        module.apply(state, other)
    except RuleError:
        return False
    fields_a = form_fields(game, state, action)
    fields_b = form_fields(game, state, other)
    if fields_a is None or fields_b is None:
        return False
    seat = action.get("seat")
    for table, fields in ((a, fields_a), (b, fields_b)):
        client, query = table.device(seat, bool(action.get("host")))
        page = client.get(f"/t/{table.code}/{query}").text
        data = {"csrf_token": csrf_from(page), **fields}
        data["version"] = re.search(r'data-version="(\d+)"', page).group(1)
        answer = client.post(f"/t/{table.code}/act/{action['type']}{query}", data, HX)
        assert answer.status_code == 200, (answer.status_code, answer.text[:300])
    sweep.fetch(a, twin=True)  # first looks
    sweep.fetch(b, twin=True)
    label = f"{GAMES[game].key} twins, {action['type']} by seat {seat}"
    sweep.compare(
        sweep.fetch(a, twin=True), sweep.fetch(b, twin=True), seat,
        lambda v, s: spec.allowed(v, s, False), label,
    )  # fmt: skip
    return True


def run(
    games: list[str], seed: int, quick: bool, backend: str = "sqlite", processes: int = 1
) -> tuple[Figures, float]:
    figures = Figures("privacy")
    started = time.time()
    rng = random.Random(seed)
    checked, twins, swept = 0, 0, []
    with (
        tempfile.TemporaryDirectory() as tmp,
        check_database(backend, Path(tmp), "privacy") as database,
    ):
        # Presence marks must not flip between two loads of a page ("online" stays online).
        server = start_app(database, processes=processes, env={"COMPANION_ONLINE_WITHIN": "100000"})
        try:
            sweep = Sweep(server, Store(database))
            for game in games:
                spec = SPECS.get(GAMES[game].name)
                if spec is None:
                    print(f"  {game}: nothing private (its view hides nothing): no sweep")
                    continue
                swept.append(game)
                for position in spec.positions[:1] if quick else spec.positions:
                    checked += mutation_sweep(sweep, game, spec, position, rng, quick)
                if spec.private_action is not None and not quick:
                    twins += twin_sweep(sweep, game, spec, rng, 3)
        finally:
            server.stop()
        tracebacks = server.tracebacks()
    elapsed = time.time() - started
    figures.add("games swept", ", ".join(swept))
    figures.add("private changes behind the app's back", checked)
    figures.add("private actions on twin tables", twins)
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
    games = args.games or (["serengeti"] if args.quick else list(GAMES))
    announce("Privacy", args, f"{', '.join(games)}")
    figures, elapsed = run(games, args.seed, args.quick, args.backend, args.processes)
    return conclude(figures, elapsed)


if __name__ == "__main__":
    sys.exit(main())

"""The game contract, checked for every entry of the registry (no game is named here).

A game package plugs in by following the contract: its pure rules declared in one object
(<package>/rules.py: GAME, a companion.games.base.Rules) and a web adapter (<package>/web.py:
ADAPTER, a companion.web.adapter.GameAdapter). These tests hold every installed game to
it, so a fifth game is covered the moment its name is added to the registry:

- the rules are pure: no Flask, database, clock or randomness anywhere in the package but its web
  modules;
- every player count in the game's limits starts, and new/apply/view/result speak JSON;
- a random game from the game's own generator (<package>/random_play.py: next_action(state,
  rng)) raises nothing but RuleError and reaches its end;
- whose move it is: what the rules accept, may_enter allows, and a seat not on turn is refused;
- what the game keeps private is declared (<package>/privacy.py: PRIVACY) and holds in its view():
  a seat's private values changed, nobody who may not see them sees a difference;
- every rule id a refusal can carry has an entry (an anchor) on the game's rules page;
- the adapter's forms, templates and calculators exist.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import json
import random
import re
from pathlib import Path

import pytest

from companion.forms import VersionedForm
from companion.games import GAMES, INSTALLED, PACKAGES
from companion.games.base import (
    DISPLAY,
    ENTRY_KINDS,
    HOST_DEVICE,
    ON_TURN,
    OTHER_WAY,
    PHONE,
    GameInfo,
    Move,
    Moves,
    Privacy,
    RuleError,
    Rules,
)
from companion.web.adapter import GameAdapter, adapter_of
from tests.helpers import random_states, rule_ids_in

ENTRIES = sorted(GAMES)
RULES_PAGES = sorted({info.rules_page for info in GAMES.values()})
WEB_MODULES = {"web.py", "calculator.py"}  # a package's web side; everything else must be pure
IMPURE = {
    "flask",
    "flask_babel",
    "flask_wtf",
    "flask_htmx",
    "werkzeug",
    "jinja2",
    "wtforms",
    "sqlite3",
    "sqlite_utils",
    "psycopg",
    "random",
    "time",
    "datetime",
    "secrets",
    "uuid",
    "os",
    "companion.tables",
    "companion.db",
    "companion.web",
    "companion.forms",
    "companion.i18n",
}
STEPS = 20_000  # actions of one random game at most (the longest games take a few hundred)


def package_dir(name: str) -> Path:
    return Path(importlib.import_module(PACKAGES[name]).__file__).parent


def imported_modules(path: Path) -> set[str]:
    """The modules a file imports, except under `if TYPE_CHECKING:` (for annotations only)."""
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
            node.body = []
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def _impure(module: str) -> bool:
    return any(module == bad or module.startswith(bad + ".") for bad in IMPURE)


def test_the_registry_names_every_package_once_and_each_has_entries():
    assert len(INSTALLED) == len(set(INSTALLED)) and set(PACKAGES) >= set(INSTALLED)
    for name in INSTALLED:
        assert PACKAGES[name] == f"companion.games.{name}"
    for info in GAMES.values():
        assert isinstance(info, GameInfo) and info.package.rsplit(".", 1)[1] == info.name
        assert 1 <= info.min_players <= info.max_players


@pytest.mark.parametrize("name", sorted(PACKAGES))
def test_the_rules_are_pure(name):
    found = {}
    for path in sorted(package_dir(name).rglob("*.py")):
        if path.name in WEB_MODULES:
            continue
        bad = sorted(m for m in imported_modules(path) if _impure(m))
        if bad:
            found[path.name] = bad
    assert found == {}


@pytest.mark.parametrize("key", ENTRIES)
def test_the_rules_are_one_declaration(key):
    """GAME is a Rules whose player limits hold the entry's; its rule summaries and readings are
    msgids under distinct ids; its moves' declarations name only action types it handles."""
    info = GAMES[key]
    rules = info.rules
    assert isinstance(rules, Rules) and isinstance(rules.moves, Moves)
    assert rules.min_players <= info.min_players <= info.max_players <= rules.max_players
    assert rules.summaries and all(isinstance(v, str) for v in rules.summaries.values())
    assert all(isinstance(v, str) for v in rules.readings.values())
    assert rules.moves.moves and all(isinstance(m, Move) for m in rules.moves.moves.values())
    assert {m.who for m in rules.moves.moves.values()} <= ENTRY_KINDS
    assert set(rules.terms.reads) <= set(rules.readings) | set(rules.summaries)
    # A table's other reading is one of an open point we read, with the sentence both read.
    assert set(rules.reads_from) <= set(rules.other_readings) <= set(rules.readings)
    assert all(isinstance(v, str) for v in rules.other_readings.values())
    assert all(
        len(v) == 3 and all(isinstance(p, str) for p in v) for v in rules.reads_from.values()
    )


@pytest.mark.parametrize("key", ENTRIES)
def test_a_table_reading_every_open_point_the_other_way_starts_and_sets_up(key):
    """The game option readings = {id: OTHER_WAY} starts every player count and its set-up
    guide; a reading the game does not offer is refused."""
    info = GAMES[key]
    rules = info.rules
    options = {**info.options, "readings": {r: OTHER_WAY for r in rules.other_readings}}
    for players in range(info.min_players, info.max_players + 1):
        json.dumps(rules.new(dict(options), players))
        if rules.setup is not None:
            assert rules.setup(dict(options), players)
    if rules.other_readings:
        with pytest.raises(RuleError):
            rules.new({**info.options, "readings": {"no-such-reading": OTHER_WAY}}, players)


@pytest.mark.parametrize("key", ENTRIES)
def test_every_player_count_starts_and_speaks_json(key):
    info = GAMES[key]
    rules = info.rules
    for players in range(info.min_players, info.max_players + 1):
        state = rules.new(dict(info.options), players)
        json.dumps(state)
        for seat in [None, *range(players)]:
            json.dumps(rules.view(state, seat))
        json.dumps(rules.view(state, None, reveal=True))
        assert rules.result(state) is None
    for players in (info.min_players - 1, info.max_players + 1):
        with pytest.raises((RuleError, ValueError)):
            rules.new(dict(info.options), players)


def _generator(name: str):
    return GAMES[next(k for k, i in GAMES.items() if i.name == name)].random_play


@pytest.mark.parametrize("key", ENTRIES)
def test_what_the_game_keeps_private_is_declared_and_its_view_keeps_it(key):
    """The declaration against the pure view: at every position it names, each seat's private
    values changed (mutate) must change nothing any viewer without the right sees (the other
    phones, the table, the host's device with and without "show all"), and must show somewhere
    (or the declaration would describe nothing)."""
    info = GAMES[key]
    privacy = info.privacy
    assert isinstance(privacy, Privacy) and privacy.what
    if not privacy.keeps_anything:
        return
    assert privacy.mutate is not None
    rules, generator = info.rules, info.random_play
    rng = random.Random(f"privacy-{key}")
    players = info.max_players
    state = rules.new(dict(info.options), players)
    looked = shown = 0
    # The seats' phones and the table's view (the display; the host's table view with and without
    # "show all"). The host acting for a seat is the adapter's to filter further (a sealed bid is
    # never on the host's screen): the privacy check (scripts/check_privacy.py) sees its pages.
    viewers = [(PHONE, s, False) for s in range(players)]
    viewers += [(HOST_DEVICE, None, False), (HOST_DEVICE, None, True), (DISPLAY, None, False)]
    for _ in range(STEPS):
        if rules.result(state) is not None or (looked > 400 and shown > 0):
            break
        for position in privacy.positions:
            if not position.reached(state):
                continue
            for seat in range(players):
                changed = privacy.mutate(state, seat)
                if changed is None:
                    continue
                for kind, viewer_seat, reveal in viewers:
                    view_seat = None if kind == DISPLAY else viewer_seat
                    old = rules.view(state, view_seat, reveal=reveal)
                    new = rules.view(changed, view_seat, reveal=reveal)
                    if privacy.may_see(kind, viewer_seat, seat, reveal):
                        shown += old != new
                    else:
                        assert old == new, (position.label, kind, viewer_seat, reveal, seat)
                    looked += 1
        action = (position_steer(privacy, state, rng)) or generator.next_action(state, rng)
        try:
            state = json.loads(json.dumps(rules.apply(state, action)))
        except RuleError:
            continue
    assert looked > 0, "no position of the declaration was reached"
    assert shown > 0, "no change was ever shown to a viewer allowed to see it"


def position_steer(privacy: Privacy, state: dict, rng: random.Random) -> dict | None:
    for position in privacy.positions:
        if position.steer is not None:
            action = position.steer(state, rng)
            if action is not None:
                return action
    return None


@pytest.mark.parametrize("key", ENTRIES)
@pytest.mark.parametrize("seed", range(3))
def test_a_random_game_raises_only_rule_errors_and_reaches_its_end(key, seed):
    info = GAMES[key]
    rules, generator = info.rules, _generator(info.name)
    rng = random.Random(f"{key}-{seed}")
    players = rng.randint(info.min_players, info.max_players)
    state = rules.new(dict(info.options), players)
    refused = 0
    for _ in range(STEPS):
        if rules.result(state) is not None:
            break
        action = generator.next_action(state, rng)
        assert action is not None, "the generator found nothing to do before the end"
        try:
            after = rules.apply(state, action)
        except RuleError as error:
            refused += 1
            assert error.rule and str(error)
            continue
        assert isinstance(after, dict) and after is not state
        lines = rules.describe(state, action, after)
        assert all(isinstance(line, str) for line in lines)
        state = json.loads(json.dumps(after))  # as the store keeps it
        json.dumps(rules.view(state, rng.randrange(players)))
    result = rules.result(state)
    assert result is not None, f"no end after {STEPS} actions"
    json.dumps(result)
    assert refused < STEPS // 2


@pytest.mark.parametrize("key", ENTRIES)
def test_whose_move_it_is_is_the_games_own_and_checked_once(key):
    """Every action type says who may enter it; the seats the game waits for (turn) are the only
    ones whose turn entries apply, whoever sends them; what the rules accept, may_enter allows."""
    info = GAMES[key]
    rules, generator = info.rules, _generator(info.name)
    moves = rules.moves
    assert {rules.entry(kind) for kind in moves.moves} <= ENTRY_KINDS
    rng = random.Random(f"turn-{key}")
    players = info.max_players
    state = rules.new(dict(info.options), players)
    checked = refused_off_turn = 0
    for _ in range(STEPS):
        if rules.result(state) is not None:
            break
        turn = rules.turn(state)
        assert len(set(turn)) == len(turn) and all(0 <= s < players for s in turn)
        action = generator.next_action(state, rng)
        try:
            after = rules.apply(state, action)
        except RuleError:
            continue
        kind, seat, host = action["type"], action.get("seat"), bool(action.get("host"))
        assert rules.may_enter(state, kind, seat=seat, host=host), (kind, seat, host, turn)
        if rules.entry(kind) == ON_TURN:
            assert seat in turn, (kind, seat, turn)
            for other in set(range(players)) - set(turn):
                for as_host in (False, True):
                    with pytest.raises(RuleError):
                        rules.apply(state, {**action, "seat": other, "host": as_host})
                    assert not rules.may_enter(state, kind, seat=other, host=as_host)
                    refused_off_turn += 1
        checked += 1
        state = json.loads(json.dumps(after))
    assert checked >= 5 and refused_off_turn > 0


@pytest.mark.parametrize("page", RULES_PAGES)
def test_every_rule_id_a_refusal_can_carry_has_an_anchor_on_the_rules_page(client, page):
    info = GAMES[page]
    ids = rule_ids_in(
        *(
            path.read_text()
            for path in package_dir(info.name).rglob("*.py")
            if path.name not in WEB_MODULES
        )
    )
    assert len(ids) >= 5, "the walk found too few ids: has the source changed shape?"
    html = client.get(f"/rules/{page}").text
    anchors = set(re.findall(r'\bid="([^"]+)"', html))
    assert sorted(ids - anchors) == []


def test_the_rule_id_walk_finds_literals_helper_arguments_and_returned_triples():
    source = """
class InputError(RuleError): pass
def _check(x, rule="default-id"):
    raise RuleError(rule, N_("no"))
def f():
    raise RuleError("direct", N_("no"))
    raise InputError("subclass", N_("no"))
    raise RuleError.of("built", msg)
    _check(1, "positional")
    _check(1, rule="keyword")
    labels = [("not-an-id", N_("a label"))]
    return ("returned", N_("no"), {})
"""
    assert rule_ids_in(source) == {
        "direct",
        "subclass",
        "built",
        "positional",
        "keyword",
        "returned",
        "default-id",
    }


@pytest.mark.parametrize("key", ENTRIES)
def test_the_adapter_follows_the_protocol(app, key):
    adapter = adapter_of(GAMES[key])
    assert isinstance(adapter, GameAdapter)
    for action, form in adapter.forms.items():
        assert issubclass(form, VersionedForm) and callable(form.to_action), action
        assert inspect.getdoc(form) or form.__doc__ is not None, action
    templates = [adapter.panel_template, adapter.rules_template]
    with app.app_context():
        for name in filter(None, templates):
            app.jinja_env.get_template(name)
    assert callable(adapter.panel_context) and callable(adapter.summary_chart)


def test_every_calculator_answers(client):
    from companion.web.tools import CALCULATORS

    assert CALCULATORS
    index = client.get("/tools/").text
    with client.application.test_request_context():
        from flask import url_for

        urls = [url_for(endpoint) for _, endpoint, _ in CALCULATORS]
    for url in urls:
        assert url in index
        assert client.get(url).status_code == 200


@pytest.mark.parametrize("key", ENTRIES)
def test_may_enter_agrees_with_apply_in_every_state_a_random_game_reaches(key):
    """may_enter is what a screen asks before it offers a form ("what can I do now"): whenever
    the rules accept an entry of some kind from a device, may_enter says yes for that kind and
    device; where a phase rules a kind out (Move.phase), may_enter says no, and every value
    of that kind seen in the whole game is refused there."""
    from collections import defaultdict

    from companion.games.base import HOST, copy_state

    info = GAMES[key]
    rules, generator = info.rules, _generator(info.name)
    moves = rules.moves
    pool: dict[str, list[dict]] = defaultdict(list)
    for players, step, state, rng in random_states(key, "may-enter", steps=STEPS):
        if step == 0:
            pool.clear()  # each game's own entries
        for _ in range(4):
            action = generator.next_action(state, rng)
            if action is not None and len(pool[action["type"]]) < 8:
                pool[action["type"]].append(action)
        if step % 3:
            continue
        for kind in moves.moves:
            for seat in range(players):
                for host in (False, True):
                    if moves.may_enter(state, kind, seat=seat, host=host):
                        continue
                    for candidate in pool.get(kind, []):
                        sent = {**candidate, "host": host}
                        if moves.entry(kind) != HOST:
                            sent["seat"] = seat
                        try:
                            rules.apply(copy_state(state), sent)
                        except RuleError:
                            continue
                        raise AssertionError(
                            f"may_enter says no to {kind} for seat {seat} (host {host}) "
                            f"but the rules accept {sent} at step {step}"
                        )


@pytest.mark.parametrize("key", ENTRIES)
def test_the_prompt_names_what_may_be_entered_and_only_that(key):
    """Rules.prompt, the first-game line under "Your turn.": in every state a random game
    reaches, a seat the game waits for is told what it may enter (a Msg, in the game's words),
    and a seat is told something only when may_enter lets its phone enter some kind now; the
    table (None) only when some kind is open to anyone or the host."""
    from companion.games.base import ANYONE, HOST, ON_TURN, Msg

    rules = GAMES[key].rules
    moves = rules.moves
    for players, step, state, _ in random_states(key, "prompt", steps=STEPS):
        over = rules.result(state) is not None
        for seat in [*range(players), None]:
            said = rules.prompt(state, seat)
            assert said is None or isinstance(said, Msg), (seat, said)
            if over:
                assert said is None, f"a prompt after the end: {said} (step {step})"
                continue
            if seat is None:
                open_kinds = [
                    k
                    for k, m in moves.moves.items()
                    if m.who in (ANYONE, HOST) and moves.may_enter(state, k, seat=None, host=True)
                ]
            else:
                open_kinds = [
                    k
                    for k, m in moves.moves.items()
                    if m.who != HOST and moves.may_enter(state, k, seat=seat, host=False)
                ]
            if said is not None:
                assert open_kinds, f"seat {seat} told {said!r} but may enter nothing"
            on_turn = seat is not None and seat in rules.turn(state)
            if on_turn and any(moves.entry(k) == ON_TURN for k in open_kinds):
                assert said is not None, f"seat {seat} on turn is told nothing (step {step})"


@pytest.mark.parametrize("key", ENTRIES)
def test_a_phase_rules_out_the_entries_of_other_phases(key):
    """At the start of a game (its first phase), every kind the game declares closed there
    (Move.phase) is one may_enter refuses for every seat and the host."""

    info = GAMES[key]
    moves = info.rules.moves
    state = info.rules.new(dict(info.options), info.min_players)
    closed = [kind for kind, move in moves.moves.items() if not move.phase(state)]
    if not closed:
        pytest.skip("every kind is open at the start")
    for kind in closed:
        for seat in range(info.min_players):
            for host in (False, True):
                assert not moves.may_enter(state, kind, seat=seat, host=host), (kind, seat, host)


def test_every_hook_has_an_implementer():
    """datasette's rule: a hook nobody implements goes. The tests' own game implements every
    hook of the web adapter (a game copied from it starts with each); every optional member of
    Rules is given by some registered game."""
    import dataclasses

    pebbles = adapter_of(GAMES["pebbles"])
    for hook, default in vars(GameAdapter).items():
        if hook.startswith("_"):
            continue
        assert getattr(type(pebbles), hook) is not default, f"Pebbles leaves {hook} out"
    for member in dataclasses.fields(Rules):
        if member.default is not dataclasses.MISSING:
            default = member.default
        elif member.default_factory is not dataclasses.MISSING:
            default = member.default_factory()
        else:
            continue  # a required member: every game gives it
        given = [key for key, info in GAMES.items() if getattr(info.rules, member.name) != default]
        assert given, f"no game gives Rules.{member.name}"

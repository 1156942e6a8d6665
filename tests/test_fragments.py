"""Fragments (companion/web/fragments.py): a kept fragment is keyed by its whole content, a
fragment template reads only its inputs and the stateless globals, and every viewer's live
region is the same, byte for byte (CSRF tokens aside), with fragments kept or not, over random
games of every registered game."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from jinja2 import meta, nodes

from companion import create_app, get_db, tables
from companion.games import GAMES
from companion.games.messages import Msg, Seat
from companion.web.fragments import Kept, Unkeyable, key_of
from tests.helpers import HX, TableDriver, play_on

ROOT = Path(__file__).resolve().parent.parent
# What a fragment template may read besides its inputs: the reader's language, relative
# addresses, the session's form token (never kept: a slot), Jinja's own helpers.
SAFE_GLOBALS = {
    "_",
    "gettext",
    "ngettext",
    "url_for",
    "csrf_token",
    "fragment",
    "slot",
    "range",
    "dict",
    "namespace",
    "loop",
    "caller",
}


@dataclass
class Row:
    name: str
    coins: int


def test_a_key_holds_the_whole_content():
    assert key_of(Msg("Bid %(n)s", n=1)) != key_of(Msg("Bid %(n)s.", n=1))
    assert key_of(Msg("%(who)s", who=Seat(0))) != key_of(Msg("%(who)s", who="Player 1"))
    assert key_of(Msg.core("Note")) != key_of(Msg("Note"))  # another catalogue
    assert key_of([1, 2]) != key_of((1, 2)) and key_of({"a": 1}) != key_of([("a", 1)])
    assert key_of({"a": [1, {"b": None}]}) == key_of({"a": [1, {"b": None}]})
    assert key_of(Row("Anna", 3)) != key_of(Row("Anna", 4))
    with pytest.raises(Unkeyable):
        key_of(object())
    with pytest.raises(Unkeyable):
        key_of({"x": len})


def test_kept_fragments_stay_within_their_bytes():
    kept = Kept(limit=10)
    kept.put("a", "12345")
    kept.put("b", "12345")
    assert kept.get("a") == "12345"  # now the most recently used
    kept.put("c", "123")
    assert kept.get("b") is None and kept.get("a") == "12345" and kept.size <= 10


def fragment_calls(env) -> dict[str, set[str]]:
    """Every fragment template named in the app's templates, with the inputs its callers give."""
    found: dict[str, set[str]] = {}
    for name in env.list_templates(extensions=["html"]):
        source = env.loader.get_source(env, name)[0]
        if "fragment(" not in source:
            continue
        for call in env.parse(source).find_all(nodes.Call):
            if isinstance(call.node, nodes.Name) and call.node.name == "fragment":
                target = call.args[0]
                assert isinstance(target, nodes.Const), f"{name}: a fragment's name is written out"
                found.setdefault(target.value, set()).update(k.key for k in call.kwargs)
    return found


def test_a_fragment_template_reads_only_its_inputs_and_stateless_globals(app):
    """Its key covers what it reads: its inputs, and globals whose answer depends only on what
    the key also holds (the language, the address prefix). request, session, g, config or a
    caller's variables would make one viewer's fragment another's: refused. So is importing or
    including a template with context; what it imports is held to the same rule."""
    env = app.jinja_env
    calls = fragment_calls(env)
    assert calls, "no fragment is used"
    todo: list[tuple[str, set[str] | None]] = [(name, inputs) for name, inputs in calls.items()]
    seen = set()
    unsafe = set(env.globals) - SAFE_GLOBALS
    while todo:
        name, inputs = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        ast = env.parse(env.loader.get_source(env, name)[0])
        read = meta.find_undeclared_variables(ast)
        if inputs is None:
            # A macro library imported without context: its macros see their arguments and
            # the globals only, so only the globals are asked.
            extra = read & unsafe
        else:
            extra = read - inputs - SAFE_GLOBALS - set(env.filters)
        assert not extra, f"{name} reads {sorted(extra)}, which its key does not hold"
        for node in ast.find_all((nodes.Include, nodes.FromImport, nodes.Import)):
            if isinstance(node, nodes.Include):
                assert isinstance(node.template, nodes.Const), f"{name}: includes by name"
                todo.append((node.template.value, inputs))
            else:
                assert not node.with_context, f"{name} imports with context"
                todo.append((node.template.value, None))


def token_free(html: str) -> str:
    """A region without what two requests a moment apart differ in anyway: their form tokens and
    the clocks' seconds."""
    html = re.sub(r'name="csrf_token"( type="hidden")? value="[^"]+"', "csrf", html)
    return re.sub(r'data-seconds="[^"]*"([^>]*)>[\d:]+<', r"\1><", html)


@pytest.mark.parametrize("key", list(GAMES))
def test_every_viewers_region_is_the_same_with_fragments_kept_or_not(key, tmp_path):
    """Random games: after every few moves each viewer's region (each seat's phone, the host
    for the table and acting for each seat, the display) is fetched with fragments rendered
    afresh and with the kept ones: the same bytes. The kept ones come from every viewer and
    every version before, so a key that missed an input would show here."""
    app = create_app(
        {
            "TESTING": True,
            "DATABASE": str(tmp_path / "fragments.db"),
            "SECRET_KEY": "fragments",
            "EXTRA_GAMES": ["tests.fixture_game"],
        }
    )
    info = GAMES[key]
    rng = random.Random(f"fragments-{key}")
    players = max(info.min_players, min(4, info.max_players))
    table = TableDriver(app, key, ["Anna", "Ben", "Chris", "Dana", "Emil"][:players])
    table.page("host")
    with app.app_context():
        display_key = tables.new_display_token(get_db(), tables.get_table(get_db(), table.code))
    display = app.test_client()
    viewers = [(phone, "") for phone in table.phones]
    viewers += [(table.host, "")] + [(table.host, f"as={s}&") for s in range(players)]
    viewers += [(display, f"key={display_key}&")]
    base = {"host": f"/t/{table.code}/live?", "display": f"/t/{table.code}/display/live?"}
    compared = 0
    for _ in range(12):
        play_on(app, table.code, rng, rng.randint(1, 4))
        for client, query in viewers:
            path = (base["display"] if client is display else base["host"]) + f"{query}v=0"
            app.config["FRAGMENTS"] = False
            fresh = client.get(path, headers=HX)
            app.config["FRAGMENTS"] = True
            kept = client.get(path, headers=HX)
            assert fresh.status_code == kept.status_code == 200, (path, fresh.status_code)
            assert token_free(kept.text) == token_free(fresh.text), (key, path)
            compared += 1
    kept_fragments = app.extensions["companion.fragments"]
    assert compared >= 12 * len(viewers)
    if kept_fragments.hits == 0:
        pytest.skip(f"{key} keeps no fragment yet")

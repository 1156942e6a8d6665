"""The docs follow the code (as datasette's tests/test_docs.py does): every hook of the game
contract and every module of the core is described in docs/architecture.md, so that adding a hook
or a module without saying what it is for fails here; and the contract's two tables follow it
back: every row names a member or hook that exists, with its parameters."""

from __future__ import annotations

import dataclasses
import inspect
import re
from pathlib import Path

import pytest

from companion.games import base
from companion.web.adapter import GameAdapter

ROOT = Path(__file__).resolve().parent.parent
ARCHITECTURE = (ROOT / "docs" / "architecture.md").read_text()
DOCUMENTED = set(re.findall(r"`([A-Za-z_][\w.]*)", ARCHITECTURE))


def _public(names) -> list[str]:
    return sorted(n for n in names if not n.startswith("_"))


def adapter_hooks() -> list[str]:
    return _public(name for name in vars(GameAdapter) if name not in ("__doc__",))


def rules_members() -> list[str]:
    members = set(base.Rules.__annotations__)
    members |= {n for n, v in vars(base.Rules).items() if inspect.isfunction(v)}
    return _public(members)


@pytest.mark.parametrize("hook", adapter_hooks())
def test_every_adapter_hook_is_documented(hook):
    assert hook in DOCUMENTED, f"docs/architecture.md does not describe GameAdapter.{hook}"


@pytest.mark.parametrize("member", rules_members())
def test_every_rules_member_is_documented(member):
    assert member in DOCUMENTED, f"docs/architecture.md does not describe Rules.{member}"


@pytest.mark.parametrize(
    "cls",
    [base.Move, base.Moves, base.Privacy, base.Position, base.GameInfo, base.SetupStep],
    ids=lambda c: c.__name__,
)
def test_every_field_of_the_contracts_declarations_is_documented(cls):
    missing = [f.name for f in dataclasses.fields(cls) if f.name not in DOCUMENTED]
    assert missing == [], f"docs/architecture.md does not describe {cls.__name__}: {missing}"


def core_modules() -> list[str]:
    found = []
    for path in sorted((ROOT / "companion").rglob("*.py")):
        rel = path.relative_to(ROOT / "companion")
        if rel.parts[0] == "games" and len(rel.parts) > 2:
            continue  # a game's own modules: its package's docstring describes them
        if path.name == "__init__.py" and rel.parent != Path("."):
            name = f"{rel.parent.name}/"
        else:
            name = path.name
        found.append(name)
    return found


@pytest.mark.parametrize("module", core_modules())
def test_every_core_module_is_in_the_layout(module):
    assert module in ARCHITECTURE, f"docs/architecture.md's layout does not list {module}"


def table_rows(heading: str) -> dict[str, list[str] | None]:
    """The first cells of the table after a bold heading of the contract section: each name
    written there -> its parameters as written (None: written without parentheses)."""
    section = ARCHITECTURE.split(heading, 1)[1]
    table = "|" + section.split("\n\n|", 1)[1].split("\n\n", 1)[0]
    found: dict[str, list[str] | None] = {}
    for cell in re.findall(r"^\| ([^|]+) \|", table, re.M):  # the header has no code in it
        for name, params in re.findall(r"`(\w+)(?:\(([^)]*)\))?`", cell):
            found[name] = [p.strip() for p in params.split(",")] if "(" in cell else None
    return found


def _parameters(function) -> list[str]:
    return [p for p in inspect.signature(function).parameters if p != "self"]


def _callable_arity(annotation: str) -> int | None:
    """How many arguments a Callable[[...], ...] annotation takes (None: not a Callable)."""
    match = re.match(r"Callable\[\[([^\]]*)\]", annotation)
    return len([a for a in match.group(1).split(",") if a.strip()]) if match else None


def test_the_rules_table_lists_every_member_with_its_parameters():
    documented = table_rows("**The pure rules**")
    assert set(documented) == set(rules_members())
    fields = {f.name: f for f in dataclasses.fields(base.Rules)}
    for name, params in documented.items():
        if name in fields:
            annotation = str(fields[name].type)
            if annotation == "ViewFunction":
                assert params == _parameters(base.ViewFunction.__call__), name
            elif _callable_arity(annotation) is not None:
                assert params is not None and len(params) == _callable_arity(annotation), name
            else:
                assert params is None, name
        else:
            assert params == _parameters(getattr(base.Rules, name)), name


def test_the_adapter_table_lists_every_hook_with_its_parameters():
    documented = table_rows("**The web adapter**")
    assert set(documented) == set(adapter_hooks())
    for name, params in documented.items():
        hook = getattr(GameAdapter, name)
        if inspect.isfunction(hook):
            assert params == _parameters(hook), name
        else:
            assert params is None, name


def test_the_docs_test_would_notice_a_new_hook():
    assert "no_such_hook_anywhere" not in DOCUMENTED
    assert adapter_hooks() and rules_members() and core_modules()
    assert len(table_rows("**The pure rules**")) > 20 and len(table_rows("**The web adapter**")) > 5

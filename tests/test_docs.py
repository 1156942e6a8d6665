"""The docs follow the code (as datasette's tests/test_docs.py does): every hook of the game
contract and every module of the core is described in docs/architecture.md, so that adding a hook
or a module without saying what it is for fails here."""

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
    "cls", [base.Moves, base.Privacy, base.Position, base.GameInfo], ids=lambda c: c.__name__
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


def test_the_docs_test_would_notice_a_new_hook():
    assert "no_such_hook_anywhere" not in DOCUMENTED
    assert adapter_hooks() and rules_members() and core_modules()

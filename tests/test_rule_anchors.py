"""Every rule id a refusal can carry has an entry on its game's rules page.

A refusal links to /rules/<game>#<rule id>. The ids are found by reading the game modules' source
(not by playing), so a rare refusal cannot hide: every `RuleError(...)` (or subclass) whose first
argument is a literal, every literal passed as the `rule` argument of a helper that raises with
it, and every `("rule-id", N_(...), params)` triple a helper returns for a caller to raise.
"""

from __future__ import annotations

import ast
import inspect
import re

import pytest

from companion.games import GAMES


def _error_classes(tree: ast.Module) -> set[str]:
    names = {"RuleError"}
    changed = True
    while changed:
        changed = False
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.ClassDef)
                and node.name not in names
                and any(getattr(base, "id", None) in names for base in node.bases)
            ):
                names.add(node.name)
                changed = True
    return names


def _rule_params(tree: ast.Module) -> dict[str, int]:
    """Functions with a parameter named `rule`: name -> its position."""
    found = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef):
            names = [a.arg for a in node.args.args]
            if "rule" in names:
                found[node.name] = names.index("rule")
    return found


def _literal(node: ast.AST | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def rule_ids_in(source: str) -> set[str]:
    """Every literal rule id the module's source can raise."""
    tree = ast.parse(source)
    errors, helpers = _error_classes(tree), _rule_params(tree)
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = getattr(node.func, "id", getattr(node.func, "attr", None))
            if name in errors and node.args:
                ids.add(_literal(node.args[0]))
            if name in helpers:
                position = helpers[name]
                if len(node.args) > position:
                    ids.add(_literal(node.args[position]))
                ids.update(_literal(k.value) for k in node.keywords if k.arg == "rule")
        if isinstance(node, ast.Tuple) and len(node.elts) == 3:  # (rule, msgid, params)
            second = node.elts[1]
            if isinstance(second, ast.Call) and getattr(second.func, "id", None) == "N_":
                ids.add(_literal(node.elts[0]))
    # Defaults of `rule` parameters are ids too.
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name in helpers:
            args = node.args.args
            defaults = dict(
                zip(
                    [a.arg for a in args[len(args) - len(node.args.defaults) :]], node.args.defaults
                )
            )
            ids.add(_literal(defaults.get("rule")))
    ids.discard(None)
    return ids


RULES_PAGES = sorted({info.rules_page for info in GAMES.values()})


@pytest.mark.parametrize("page", RULES_PAGES)
def test_every_rule_id_a_refusal_can_carry_has_an_anchor_on_the_rules_page(client, page):
    info = next(i for i in GAMES.values() if i.key == page)
    ids = rule_ids_in(inspect.getsource(info.module))
    assert len(ids) >= 10, "the walk found too few ids: has the source changed shape?"
    html = client.get(f"/rules/{page}").text
    anchors = set(re.findall(r'\bid="([^"]+)"', html))
    assert sorted(ids - anchors) == []


def test_the_walk_finds_literal_ids_helper_arguments_and_returned_pairs():
    source = """
class InputError(RuleError): pass
def _check(x, rule="default-id"):
    raise RuleError(rule, N_("no"))
def f():
    raise RuleError("direct", N_("no"))
    raise InputError("subclass", N_("no"))
    _check(1, "positional")
    _check(1, rule="keyword")
    labels = [("not-an-id", N_("a label"))]
    return ("returned", N_("no"), {})
"""
    assert rule_ids_in(source) == {
        "direct",
        "subclass",
        "positional",
        "keyword",
        "returned",
        "default-id",
    }

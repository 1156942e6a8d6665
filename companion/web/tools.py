"""Stand-alone calculators that need no table: the index, and each game's calculator blueprint."""

from __future__ import annotations

import importlib

from flask import Blueprint, current_app, render_template, request

from companion.games import GAMES
from companion.i18n import use_part
from companion.web.adapter import adapter_of

bp = Blueprint("tools", __name__, url_prefix="/tools")

# (label msgid, endpoint, part) of each calculator page, in the order the index lists them.
CALCULATORS: list[tuple[str, str, str]] = []
# calculator blueprint name -> its game's part: its pages read the game's catalogue
PARTS: dict[str, str] = {}


def use_calculator_part() -> None:
    """Before a calculator's request: translate from its game's catalogue (then the core's)."""
    part = PARTS.get(request.blueprint or "")
    if part is not None:
        use_part(part)


def game_calculators() -> list[Blueprint]:
    """The blueprints of the games' calculators (each adapter's calculator_module), once each.

    Such a module defines `bp` and CALCULATORS, a list of (label msgid, endpoint) for the index.
    """
    found: list[Blueprint] = []
    for info in GAMES.values():
        name = adapter_of(info).calculator_module
        if name is None:
            continue
        module = importlib.import_module(name)
        if module.bp not in found:
            found.append(module.bp)
            PARTS[module.bp.name] = info.name
        for label, endpoint in module.CALCULATORS:
            if (label, endpoint, info.name) not in CALCULATORS:
                CALCULATORS.append((label, endpoint, info.name))
    return found


@bp.get("/")
def index():
    """The list of calculators: of this app's games (the list is the process's, and a process
    may make apps with other games registered, as the tests do)."""
    mine = [c for c in CALCULATORS if c[1].split(".", 1)[0] in current_app.blueprints]
    return render_template("tools/index.html", calculators=mine)

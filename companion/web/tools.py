"""Stand-alone calculators that need no table: the index, and each game's calculator blueprint."""

from __future__ import annotations

import importlib

from flask import Blueprint, render_template

from companion.games import GAMES

bp = Blueprint("tools", __name__, url_prefix="/tools")

# (label msgid, endpoint) of each calculator page, in the order the index lists them.
CALCULATORS: list[tuple[str, str]] = []


def game_calculators() -> list[Blueprint]:
    """The blueprints of the games' calculators (each adapter's calculator_module), once each.

    Such a module defines `bp` and CALCULATORS, a list of (label msgid, endpoint) for the index.
    """
    found: list[Blueprint] = []
    for info in GAMES.values():
        name = info.adapter.calculator_module
        if name is None:
            continue
        module = importlib.import_module(name)
        if module.bp not in found:
            found.append(module.bp)
        for entry in getattr(module, "CALCULATORS", []):
            if entry not in CALCULATORS:
                CALCULATORS.append(entry)
    return found


@bp.get("/")
def index():
    """The list of calculators."""
    return render_template("tools/index.html", calculators=CALCULATORS)

"""Stand-alone calculators that need no table; each game's calculator adds itself to CALCULATORS."""

from __future__ import annotations

import importlib

from flask import Blueprint, render_template

from companion.games.base import GAMES

bp = Blueprint("tools", __name__, url_prefix="/tools")

# (label msgid, endpoint) of each calculator page, in the order the index lists them.
CALCULATORS: list[tuple[str, str]] = []


def game_calculators() -> list[Blueprint]:
    """The blueprints of the games' calculators: companion.web.tools_<game>, where one exists.

    Each such module defines `bp` and `CALCULATORS` (label msgid, endpoint) for the index.
    """
    found = []
    for name in dict.fromkeys(info.module_name.rsplit(".", 1)[1] for info in GAMES.values()):
        module_name = f"companion.web.tools_{name}"
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as error:
            if error.name != module_name:
                raise
            continue
        found.append(module.bp)
        for entry in getattr(module, "CALCULATORS", []):
            if entry not in CALCULATORS:
                CALCULATORS.append(entry)
    return found


@bp.get("/")
def index():
    """The list of calculators."""
    return render_template("tools/index.html", calculators=CALCULATORS)

"""Stand-alone calculators that need no table; each game's calculator adds itself to CALCULATORS."""

from __future__ import annotations

from flask import Blueprint, render_template

bp = Blueprint("tools", __name__, url_prefix="/tools")

# (label msgid, endpoint) of each calculator page, in the order the index lists them.
CALCULATORS: list[tuple[str, str]] = []


@bp.get("/")
def index():
    """The list of calculators."""
    return render_template("tools/index.html", calculators=CALCULATORS)

"""The Kahuna control checker: tap bridges onto an empty board and see who holds what.

Stateless: the position is the query string (?white=Aloa-Bari,Duda-Elai&black=Elai-Faaa), and
every site on the board is a link to the position with that site's next state (free -> white ->
black -> free). It works without JavaScript and is htmx-boosted. The checker shows the position
it is given: it does not destroy bridges the way building one does in a game.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, redirect, render_template, request, url_for

from companion.games.base import N_, Msg, Plural, RuleError
from companion.games.kahuna import rules as k
from companion.games.kahuna.drawing import drawing, tapped_site

bp = Blueprint("tools_kahuna", __name__, url_prefix="/tools/kahuna")
CALCULATORS = [(N_("Kahuna: who holds which island"), "tools_kahuna.checker")]

NEXT = {None: "white", "white": "black", "black": None}
MAX_QUERY = 2000  # characters per colour: far more than 27 sites need


def parse_position(args) -> tuple[dict[str, str], list[tuple[Msg, str]]]:
    """The bridges a query string describes ({"Aloa-Bari": "white"}) and what was wrong in it:
    (message, rule id) pairs."""
    bridges: dict[str, str] = {}
    both: set[str] = set()
    errors: list[tuple[Msg, str]] = []
    for colour in k.COLOURS:
        for raw in args.getlist(colour):
            if len(raw) > MAX_QUERY:
                errors.append(
                    (
                        Msg(
                            N_("The list of %(colour)s bridges is too long."),
                            colour=Msg(k.COLOUR_WORDS[colour]),
                        ),
                        "site-unknown",
                    )
                )
                continue
            for part in raw.split(","):
                if not part.strip():
                    continue
                try:
                    key = k.site_key(k.parse_site(part.strip()))
                except RuleError as refused:
                    errors.append((refused.msg, refused.rule))
                    continue
                if bridges.get(key, colour) != colour:
                    both.add(key)
                bridges[key] = colour
    for key in sorted(both):
        del bridges[key]
        errors.append(
            (
                Msg(
                    N_("Site %(site)s was given both colours, so it is shown free."),
                    site=k.site_name(key),
                ),
                "site-free",
            )
        )
    return bridges, errors


def position_url(bridges: dict[str, str]) -> str:
    """The checker's address for a position (sites sorted, so each position has one address)."""
    args: dict[str, Any] = {
        c: ",".join(sorted(s for s, owner in bridges.items() if owner == c)) for c in k.COLOURS
    }
    return url_for("tools_kahuna.checker", **{c: v for c, v in args.items() if v})


@bp.get("/")
def checker():
    """The board, the control of each island and what each round's scoring would give."""
    bridges, errors = parse_position(request.args)

    def href(key: str) -> str:
        after = dict(bridges)
        following = NEXT[after.get(key)]
        if following is None:
            after.pop(key, None)
        else:
            after[key] = following
        return position_url(after)

    if "tap" in request.args:
        # A tap on the board, its place (kahuna.js): the position that site's link gives, or
        # the same position where it met no site.
        tapped = tapped_site(request.args["tap"])
        return redirect(href(tapped) if tapped else position_url(bridges))
    report = k.control_report(bridges)
    held = [report["islands"][c] for c in k.COLOURS]
    sums = {r: k.explain_round(r, held) for r in report["round_points"]}
    board = drawing(bridges, href)
    warnings = []
    for colour in k.COLOURS:
        if report["bridges"][colour] > k.BRIDGES_PER_COLOUR:
            warnings.append(
                Plural(
                    "%(colour)s has %(number)s bridge on the board, more than the "
                    "%(max)s in the box.",
                    "%(colour)s has %(number)s bridges on the board, more than the "
                    "%(max)s in the box.",
                    "number",
                    colour=Msg(k.COLOUR_WORDS[colour]),
                    number=report["bridges"][colour],
                    max=k.BRIDGES_PER_COLOUR,
                )
            )
        if report["islands"][colour] > k.STONES_PER_COLOUR:
            warnings.append(
                Plural(
                    "%(colour)s holds %(number)s island, more than its %(max)s "
                    "Kahuna stones can mark.",
                    "%(colour)s holds %(number)s islands, more than its %(max)s "
                    "Kahuna stones can mark.",
                    "number",
                    colour=Msg(k.COLOUR_WORDS[colour]),
                    number=report["islands"][colour],
                    max=k.STONES_PER_COLOUR,
                )
            )
    here = position_url(bridges)  # a tap's place is added to it (kahuna.js)
    html = render_template(
        "kahuna/calculator.html",
        board=board,
        report=report,
        sums=sums,
        errors=errors,
        warnings=warnings,
        bridges=bridges,
        clear_url=position_url({}),
        islands=board["islands"],
        next_state=NEXT,
        tap=here + ("&" if "?" in here else "?") + "tap=",
    )
    # 422 as every refused entry in the app: the page again with what is wrong, not an error page
    return html, (422 if errors else 200)

"""Kahuna at the table: the island board as SVG, tap a site, say which card(s), end the turn.

Tapping a site on the board is a GET of the table page with ?site=Aloa-Bari (htmx swaps the live
region; without JavaScript it is an ordinary link). panel_context() then asks the rules which
card(s) make that move legal (kahuna.legal_cards_for) and the panel shows them as buttons in a
sheet at the bottom of the screen, with the refused ones and their reasons.

The forms only check the shape of the input (present, short); the rules module gives the reasons
for everything else (an unknown island, a card that does not fit, a wrong turn...).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable

from flask import url_for
from flask_babel import lazy_gettext as _l
from wtforms import IntegerField, StringField
from wtforms.validators import InputRequired, Length, NumberRange, Optional

from companion.forms import VersionedForm
from companion.games.base import N_, RuleError
from companion.games.kahuna import rules as k
from companion.web.adapter import GameAdapter, Panel

PANEL = "kahuna/_panel.html"
NAME_MAX = 40  # longer than any island or site name: the rules refuse unknown names with a reason

# --- the forms ----------------------------------------------------------------------------------


class RevealForm(VersionedForm):
    """The table enters a card just turned face up (any seated phone or the host)."""

    island = StringField(
        _l("Island on the card"),
        validators=[
            InputRequired(_l("Tap the island named on the card just turned face up.")),
            Length(max=NAME_MAX),
        ],
    )

    def to_action(self) -> dict:
        return {"island": self.island.data}


class PlaceForm(VersionedForm):
    """One card builds one bridge on a free site touching the card's island."""

    site = StringField(
        validators=[
            InputRequired(_l("Tap a bridge site on the board first.")),
            Length(max=NAME_MAX),
        ]
    )
    card = StringField(
        validators=[InputRequired(_l("Say which card was played.")), Length(max=NAME_MAX)]
    )

    def to_action(self) -> dict:
        return {"site": self.site.data, "card": self.card.data}


class RemoveForm(VersionedForm):
    """Two cards, each naming an end of the site, remove the opponent's bridge there."""

    site = StringField(
        validators=[
            InputRequired(_l("Tap a bridge site on the board first.")),
            Length(max=NAME_MAX),
        ]
    )
    first = StringField(
        validators=[InputRequired(_l("Say which two cards were played.")), Length(max=NAME_MAX)]
    )
    second = StringField(
        validators=[InputRequired(_l("Say which two cards were played.")), Length(max=NAME_MAX)]
    )

    def to_action(self) -> dict:
        return {"site": self.site.data, "cards": [self.first.data, self.second.data]}


class DiscardForm(VersionedForm):
    """Instead of playing: put cards face down under the discard pile."""

    count = IntegerField(
        _l("Cards discarded face down"),
        validators=[
            InputRequired(_l("Say how many cards were discarded: a number from 1 to 5.")),
            NumberRange(
                min=1,
                max=k.HAND_LIMIT,
                message=_l("Say how many cards were discarded: a number from 1 to 5."),
            ),
        ],
    )

    def to_action(self) -> dict:
        return {"count": self.count.data}


class DrawForm(VersionedForm):
    """End the turn with the top card of the deck or one face-up card."""

    source = StringField(
        validators=[InputRequired(_l("Say where the card was drawn from.")), Length(max=NAME_MAX)]
    )
    island = StringField(validators=[Optional(), Length(max=NAME_MAX)])

    def to_action(self) -> dict:
        action = {"source": self.source.data}
        if self.island.data:
            action["island"] = self.island.data
        return action


class EndTurnForm(VersionedForm):
    """End the turn without drawing (the opponent must then draw)."""

    def to_action(self) -> dict:
        return {}


class OptionForm(VersionedForm):
    """The host switches the Arabana option before the first turn action."""

    arabana = StringField(validators=[InputRequired(_l("Choose on or off.")), Length(max=NAME_MAX)])

    def to_action(self) -> dict:
        value = {"on": True, "off": False}.get(self.arabana.data, self.arabana.data)
        return {"arabana": value}


FORMS = {
    "reveal": RevealForm,
    "place": PlaceForm,
    "remove": RemoveForm,
    "discard": DiscardForm,
    "draw": DrawForm,
    "end_turn": EndTurnForm,
    "set_option": OptionForm,
}


# --- the board drawing (shared with the control checker) ---------------------------------------

WIDTH = 400  # the SVG viewBox width; the board's own x range 0.11..0.93 fills it
X0, X1 = 0.11, 0.93  # room east of Gola for the site Coco-Kahu, which bends round it
Y0, Y1 = 0.175, 0.95
STRETCH = 1.15  # a little taller than the printed board: phones are held upright
SCALE = WIDTH / (X1 - X0)
HEIGHT = round((Y1 - Y0) * SCALE * STRETCH)
ISLAND_R = 23

STONE_LETTERS = {"white": N_("W"), "black": N_("B")}
BRIDGE_WORDS = {None: N_("free"), "white": N_("White bridge"), "black": N_("Black bridge")}


def island_xy(name: str) -> tuple[float, float]:
    x, y = k.LAYOUT[name]
    return round((x - X0) * SCALE, 1), round((y - Y0) * SCALE * STRETCH, 1)


CLEARANCE = ISLAND_R + 20  # a site drawn closer than this to a third island bends around it


def _crosses(p: tuple, q: tuple, r: tuple, s: tuple) -> bool:
    """Do the segments p-q and r-s cross (touching ends do not count)?"""

    def turn(a, b, c):
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])

    return turn(p, q, r) * turn(p, q, s) < 0 and turn(r, s, p) * turn(r, s, q) < 0


def _crossings(a: str, b: str, bend: float) -> int:
    """How many other sites (drawn straight) the site a-b crosses when bent by `bend`."""
    (x1, y1), (x2, y2) = island_xy(a), island_xy(b)
    length = math.hypot(x2 - x1, y2 - y1)
    nx, ny = -(y2 - y1) / length, (x2 - x1) / length
    cx, cy = (x1 + x2) / 2 + 2 * bend * nx, (y1 + y2) / 2 + 2 * bend * ny
    steps = [i / 24 for i in range(25)]
    curve = [
        (
            (1 - t) ** 2 * x1 + 2 * (1 - t) * t * cx + t * t * x2,
            (1 - t) ** 2 * y1 + 2 * (1 - t) * t * cy + t * t * y2,
        )
        for t in steps
    ]
    count = 0
    for c, d in k.SITES:
        if {c, d} & {a, b}:
            continue
        r, s = island_xy(c), island_xy(d)
        count += any(_crosses(curve[i], curve[i + 1], r, s) for i in range(len(curve) - 1))
    return count


@functools.cache
def site_path(a: str, b: str) -> tuple[str, float, float]:
    """The SVG path of a site and its midpoint: straight, or bent around an island in its way.

    On the board data's layout the straight line Coco-Kahu crosses Gola and Aloa-Huna grazes
    Duda; such a site becomes a quadratic curve whose middle passes CLEARANCE from that island,
    on whichever side crosses fewer other sites (the printed board has no crossing sites):
    Coco-Kahu goes round the east of Gola, Aloa-Huna round the west of Duda.
    """
    (x1, y1), (x2, y2) = island_xy(a), island_xy(b)
    dx, dy = x2 - x1, y2 - y1
    length = math.hypot(dx, dy)
    nx, ny = -dy / length, dx / length  # unit normal
    bend = 0.0
    for other in k.ISLANDS:
        if other in (a, b):
            continue
        px, py = island_xy(other)
        t = ((px - x1) * dx + (py - y1) * dy) / length**2
        side = (px - x1) * nx + (py - y1) * ny  # signed distance of the island from the line
        if 0.15 < t < 0.85 and abs(side) < CLEARANCE:
            away = -math.copysign(CLEARANCE - abs(side), side) if side else CLEARANCE
            around = math.copysign(CLEARANCE + abs(side), side) if side else -CLEARANCE
            bend = min((away, around), key=lambda b_: (_crossings(a, b, b_), abs(b_)))
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    if not bend:
        return f"M{x1} {y1}L{x2} {y2}", round(mx, 1), round(my, 1)
    # A quadratic curve's middle lies halfway between the chord's middle and the control point.
    cx, cy = mx + 2 * bend * nx, my + 2 * bend * ny
    return (
        f"M{x1} {y1}Q{cx:.1f} {cy:.1f} {x2} {y2}",
        round(mx + bend * nx, 1),
        round(my + bend * ny, 1),
    )


def drawing(
    bridges: dict[str, str],
    site_href: Callable[[str], str | None],
    changes: dict | None = None,
    selected: str | None = None,
) -> dict:
    """What the board macro draws: islands with their stones, sites with their bridges and links.

    bridges: {"Aloa-Bari": "white"}; site_href(key) gives each site's link (None: not a link);
    changes: state["last_changes"] to highlight; selected: the site whose sheet is open.
    """
    board = k.bridges_from_json(bridges)
    held = k.control(board)
    changes = changes or {}
    gained = {i for islands in (changes.get("gained") or {}).values() for i in islands}
    lost = {i for islands in (changes.get("lost") or {}).values() for i in islands}
    destroyed = set(changes.get("destroyed") or [])
    islands = []
    for name in k.ISLANDS:
        x, y = island_xy(name)
        counts = {c: sum(1 for s in k.SITES_OF[name] if board.get(s) == c) for c in k.COLOURS}
        islands.append(
            {
                "name": name,
                "x": x,
                "y": y,
                "degree": k.DEGREES[name],
                "needed": k.needed(name),
                "controller": held.get(name),
                "bridges": counts,
                "gained": name in gained,
                "lost": name in lost,
            }
        )
    sites = []
    for a, b in k.SITES:
        key = k.site_key((a, b))
        path, mx, my = site_path(a, b)
        owner = board.get((a, b))
        sites.append(
            {
                "key": key,
                "a": a,
                "b": b,
                "path": path,
                "mx": mx,
                "my": my,
                "bridge": owner,
                "word": BRIDGE_WORDS[owner],
                "href": site_href(key),
                "played": key == changes.get("site"),
                "destroyed": key in destroyed and owner is None,
                "selected": key == selected,
            }
        )
    return {
        "width": WIDTH,
        "height": HEIGHT,
        "r": ISLAND_R,
        "islands": islands,
        "sites": sites,
        "play": changes.get("play"),
        "stone_letters": STONE_LETTERS,
    }


# --- the panel ------------------------------------------------------------------------------


def _reveal_choices(state: dict) -> list[dict]:
    """Each island's button for the face-up card picker; both copies out = disabled."""
    choices = []
    for island in k.ISLANDS:
        try:
            k.apply(state, {"type": "reveal", "island": island, "seat": None, "host": False})
            choices.append({"island": island, "ok": True})
        except RuleError:
            choices.append({"island": island, "ok": False})
    return choices


def site_choice(state: dict, seat: int | None, site: str) -> dict:
    """The sheet for a tapped site: the legal card choices and the refused ones with reasons."""
    answer = k.legal_cards_for(state, seat, site[:NAME_MAX])
    owner = state["bridges"].get(answer["site"]) if answer["site"] else None
    answer["bridge"] = owner
    answer["word"] = BRIDGE_WORDS[owner]
    return answer


def panel_context(panel: Panel) -> dict:
    """The board with its tappable sites, the open card question (the tapped site travels in the
    query as ?site=...), and what the round panel needs."""
    state, view, seat, host = panel.state, panel.view, panel.seat, panel.host
    chosen = panel.query.get("site")
    tappable = seat is not None and not view["over"]

    def href(key: str) -> str | None:
        if not tappable:
            return None
        return url_for("table.page", code=panel.code, site=key, **panel.args)

    choice = site_choice(state, seat, chosen) if chosen and seat is not None else None
    board = drawing(
        state["bridges"], href, view["last_changes"], selected=choice["site"] if choice else None
    )
    latest = view["rounds"][-1] if view["rounds"] else None
    return {
        "board": board,
        "site_choice": choice,
        "reveal_choices": _reveal_choices(state) if view["can"]["reveal"] else [],
        "options_open": host and k.options_open(state),
        "last_play_lines": k.describe_play(view["last_changes"]),
        "scoring_lines": [k.describe_scoring(r) for r in view["rounds"]],
        "fresh_scoring": latest is not None
        and view["pending_reveals"] > 0
        and latest["round"] == view["round"] - 1,
        "hand_limit": k.HAND_LIMIT,
        "max_cards": k.MAX_CARDS_PER_TURN,
        "rounds_total": k.ROUNDS,
    }


class KahunaAdapter(GameAdapter):
    """How Kahuna plugs into the table page, the rules page and the calculators."""

    forms = FORMS
    panel_template = PANEL
    rules_template = "kahuna/rules.html"
    calculator_module = "companion.games.kahuna.calculator"

    def panel_context(self, panel: Panel) -> dict:
        return panel_context(panel)


ADAPTER = KahunaAdapter()

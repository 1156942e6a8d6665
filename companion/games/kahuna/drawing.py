"""Kahuna's board drawing: where each island and bridge site goes in the SVG, and what the board
macro (templates/kahuna/_board.html) draws for a position. Pure: the table page and the control
checker both use it, each giving its own links for the sites.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable

from companion.games.base import N_
from companion.games.kahuna import rules as k

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
    """Where an island's centre is drawn in the SVG (board layout scaled and stretched)."""
    x, y = k.LAYOUT[name]
    return round((x - X0) * SCALE, 1), round((y - Y0) * SCALE * STRETCH, 1)


HIT = 23  # half the width of a site's tap target (.k-hit's stroke, 46 in kahuna.css)
CLEARANCE = ISLAND_R + 20  # a site drawn closer than this to a third island bends around it
# ... and where the board has room its middle (where people tap) passes so far from the island
# that the whole width of its tap target lies clear of it
TAP_CLEARANCE = ISLAND_R + HIT + 4


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


def _bent(a: str, b: str, clearance: float) -> tuple[str, float, float]:
    """The site a-b as drawn when its middle must pass `clearance` from any island in its way."""
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
        if 0.15 < t < 0.85 and abs(side) < clearance:
            away = -math.copysign(clearance - abs(side), side) if side else clearance
            around = math.copysign(clearance + abs(side), side) if side else -clearance
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


def _clear_of_the_others(a: str, b: str, drawn: tuple[str, float, float]) -> bool:
    """Whether a bent site's tap target leaves every other site's middle to that site, and its
    own middle to itself (the others taken as drawn straight)."""
    path, mx, my = drawn
    for c, e in k.SITES:
        if {c, e} == {a, b}:
            continue
        other_path, ox, oy = _bent(c, e, 0)
        if _near((ox, oy), path) <= HIT or _near((mx, my), other_path) <= HIT:
            return False
    return True


@functools.cache
def site_path(a: str, b: str) -> tuple[str, float, float]:
    """The SVG path of a site and its midpoint: straight, or bent around an island in its way.

    On the board data's layout the straight line Coco-Kahu crosses Gola and Aloa-Huna grazes
    Duda; such a site becomes a quadratic curve whose middle passes clear of that island, on
    whichever side crosses fewer other sites (the printed board has no crossing sites):
    Coco-Kahu goes round the east of Gola, Aloa-Huna round the west of Duda. Where the board has
    room, the middle passes so far (TAP_CLEARANCE) that a tap on it cannot land on the island;
    else CLEARANCE.
    """
    wide = _bent(a, b, TAP_CLEARANCE)
    if "Q" in wide[0] and _clear_of_the_others(a, b, wide):
        return wide
    return _bent(a, b, CLEARANCE)


def _near(point: tuple[float, float], path: str) -> float:
    """How close a site's drawn path comes to a point (the path sampled along its curve)."""
    numbers = [float(v) for v in path.replace("M", " ").replace("L", " ").replace("Q", " ").split()]
    if len(numbers) == 4:
        x1, y1, x2, y2 = numbers
        cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
    else:
        x1, y1, cx, cy, x2, y2 = numbers
    best = math.inf
    for i in range(41):
        t = i / 40
        x = (1 - t) ** 2 * x1 + 2 * (1 - t) * t * cx + t * t * x2
        y = (1 - t) ** 2 * y1 + 2 * (1 - t) * t * cy + t * t * y2
        best = min(best, math.hypot(x - point[0], y - point[1]))
    return best


@functools.cache
def drawing_order() -> tuple[tuple[str, str], ...]:
    """The sites in the order they are drawn (the later on top): a site bent around an island
    comes after the straight ones, so that a tap on its middle is its own, not that of a straight
    site passing near (Aloa–Huna bends round Duda, close to Duda's own sites)."""
    return tuple(sorted(k.SITES, key=lambda s: "Q" in site_path(*s)[0]))


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
    for a, b in drawing_order():
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

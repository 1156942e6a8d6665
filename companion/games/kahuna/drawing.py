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


def island_xy(name: str) -> tuple[int, int]:
    """Where an island's centre is drawn in the SVG (board layout scaled and stretched), in whole
    units (under a pixel on a phone): every site's line starts and ends at two of them, and the
    page carries them 5-6 times each."""
    x, y = k.LAYOUT[name]
    return round((x - X0) * SCALE), round((y - Y0) * SCALE * STRETCH)


# half the width a finger covers round a line, which the bending of the sites keeps clear (the
# room where a tap goes is site_at: the board shared out among the sites)
HIT = 23
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
        f"M{x1} {y1}Q{cx:.0f} {cy:.0f} {x2} {y2}",
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
    return min(math.dist(point, p) for p in _points_along(path, 40))


# --- where a tap goes: the board shared out among the sites, each point to the nearest line ---
#
# A site's line is short where two islands stand close (Gola–Jojo: 28 units of line between the
# islands, about 23 px on a 360 px phone), too short for a finger. So a tap on the board goes to
# the site whose line is nearest to it (site_at), if that line is within TAP_REACH: nothing
# overlaps, and a finger has 44 px or more across a line on a 360 px phone wherever the board
# allows. Around an island's centre (ISLAND_CORE) every one of its sites is as near, so there a
# tap is nobody's; the rest of an island goes to its sites by direction, so that a tap on an
# island's edge next to a line is that line's. The page carries the lines alone: kahuna.js sends
# a tap's place, and the server finds its site (tapped_site).

TAP_REACH = 58  # units: 47 px on a 360 px phone (0.815 px a unit), 44 px and a little more
ISLAND_CORE = 9  # the middle of an island, where no site is nearer than another


def _polyline(path: str) -> list[tuple[float, float]]:
    """A site's drawn line as points, each piece between them straight: a straight line's two
    ends, or 33 points along its quadratic curve."""
    points = _points_along(path, 32)
    return [points[0], points[-1]] if "Q" not in path else points


def _points_along(path: str, steps: int) -> list[tuple[float, float]]:
    """steps + 1 points evenly along a site's drawn line (straight, or its quadratic curve)."""
    numbers = [float(v) for v in path.replace("M", " ").replace("L", " ").replace("Q", " ").split()]
    if len(numbers) == 4:
        x1, y1, x2, y2 = numbers
        cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
    else:
        x1, y1, cx, cy, x2, y2 = numbers
    return [
        (
            (1 - t) ** 2 * x1 + 2 * (1 - t) * t * cx + t * t * x2,
            (1 - t) ** 2 * y1 + 2 * (1 - t) * t * cy + t * t * y2,
        )
        for t in (i / steps for i in range(steps + 1))
    ]


def _to_polyline(point: tuple[float, float], line: list[tuple[float, float]]) -> float:
    """The distance from a point to a line given as points (each piece between them straight)."""
    px, py = point
    best = math.inf
    for (ax, ay), (bx, by) in zip(line, line[1:]):
        dx, dy = bx - ax, by - ay
        t = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)))
        best = min(best, math.hypot(ax + t * dx - px, ay + t * dy - py))
    return best


@functools.cache
def _lines() -> dict[tuple[str, str], list[tuple[float, float]]]:
    return {site: _polyline(site_path(*site)[0]) for site in drawing_order()}


def site_at(x: float, y: float) -> tuple[str, str] | None:
    """The site a tap at (x, y) (board units) goes to: the one whose line is nearest (of two as
    near, the first drawn), if it is nearer than TAP_REACH; None off the board and on an island's
    core. A tap on the board is sent as its place (tapped_site), and the server answers it as the
    tap on that site's link."""
    if not (0 <= x <= WIDTH and 0 <= y <= HEIGHT):
        return None
    if any(math.dist((x, y), island_xy(i)) < ISLAND_CORE for i in k.ISLANDS):
        return None
    near = {site: _to_polyline((x, y), line) for site, line in _lines().items()}
    nearest = min(near, key=near.__getitem__)  # the first of two as near: dicts keep the order
    return nearest if near[nearest] < TAP_REACH else None


def tapped_site(value: str | None) -> str | None:
    """The key of the site a tap at "x,y" (board units, as kahuna.js sends a tap's place) goes
    to (site_at); None for a tap that goes to no site and for anything else."""
    try:
        x, y = (float(v) for v in (value or "")[:40].split(","))
    except ValueError:
        return None
    site = site_at(x, y)  # (nan and inf are off the board)
    return k.site_key(site) if site else None


def _reach(point: tuple, normal: tuple, side: int, site: tuple[str, str]) -> float:
    """How far from a point of a site's line, on one side, a tap is still the site's (up to
    TAP_REACH, measured by halving)."""
    (px, py), (nx, ny) = point, normal
    if site_at(px + side * TAP_REACH * nx, py + side * TAP_REACH * ny) == site:
        return TAP_REACH
    inside, outside = 0.0, float(TAP_REACH)
    for _ in range(9):
        middle = (inside + outside) / 2
        if site_at(px + side * middle * nx, py + side * middle * ny) == site:
            inside = middle
        else:
            outside = middle
    return inside


def room_across(a: str, b: str) -> float:
    """How wide, across the middle of the site a-b, a tap is the site's (nearer to its line than
    to any other, clear of the islands' cores and the edge), up to TAP_REACH on either side."""
    own = _lines()[(a, b)]
    total = sum(math.dist(p, q) for p, q in zip(own, own[1:]))
    point, normal = _along(own, total / 2)
    return sum(_reach(point, normal, side, (a, b)) for side in (1, -1))


def _along(line: list, at: float) -> tuple[tuple[float, float], tuple[float, float]]:
    """The point `at` units along a line given as points, and the unit normal there."""
    for (ax, ay), (bx, by) in zip(line, line[1:]):
        piece = math.hypot(bx - ax, by - ay)
        if at <= piece or (bx, by) == line[-1]:
            t = min(at / piece, 1.0)
            return (ax + t * (bx - ax), ay + t * (by - ay)), (-(by - ay) / piece, (bx - ax) / piece)
        at -= piece
    raise ValueError("a line without points")


@functools.cache
def drawing_order() -> tuple[tuple[str, str], ...]:
    """The sites in the order they are drawn (the later on top): a site bent around an island
    comes after the straight ones, so that without the script (where a line's own stroke is its
    link) a tap on its middle is its own, not that of a straight site passing near (Aloa–Huna
    bends round Duda, close to Duda's own sites)."""
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

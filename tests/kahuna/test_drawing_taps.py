"""A tap on the middle of a bridge site is that site's, on the drawn board: no site drawn after it
passes within a finger's width (HIT) of its middle, and no island lies over it; and the tap areas
(drawing.site_areas) share the board out among the sites, each point to the nearest line."""

from __future__ import annotations

import math
import re

from companion.games.kahuna import drawing as d
from companion.games.kahuna import rules as k


def test_the_middle_of_every_site_is_its_own_tap_target():
    order = d.drawing_order()
    assert sorted(order) == sorted(k.SITES)
    for i, (a, b) in enumerate(order):
        _, mx, my = d.site_path(a, b)
        for c, e in order[i + 1 :]:
            path = d.site_path(c, e)[0]
            assert d._near((mx, my), path) > d.HIT, f"{c}–{e} covers the middle of {a}–{b}"
        for island in k.ISLANDS:
            x, y = d.island_xy(island)
            assert math.hypot(mx - x, my - y) > d.ISLAND_R, f"{island} lies on {a}–{b}"


def test_aloa_huna_passes_duda_so_far_that_a_tap_on_its_middle_cannot_land_on_duda():
    _, mx, my = d.site_path("Aloa", "Huna")
    x, y = d.island_xy("Duda")
    assert math.hypot(mx - x, my - y) > d.ISLAND_R + d.HIT


def test_aloa_huna_is_drawn_after_dudas_sites():
    order = d.drawing_order()
    assert order.index(("Aloa", "Huna")) > order.index(("Duda", "Huna"))


# --- the tap areas (drawing.site_areas): the board shared out among the sites -----------------


def polygon(path: str) -> list[tuple[float, float]]:
    """An area's corners, from its SVG path: the first corner, then each as a step from the one
    before ("M x yl dx dy dx dy...z")."""
    assert re.fullmatch(r"M-?\d+ -?\d+l(-?\d+[ -]?)+z", path.replace(" -", "-")), path
    numbers = [float(n) for n in re.findall(r"-?\d+", path)]
    corners = [(numbers[0], numbers[1])]
    for dx, dy in zip(numbers[2::2], numbers[3::2]):
        corners.append((corners[-1][0] + dx, corners[-1][1] + dy))
    return corners


def test_an_area_is_written_as_steps_from_its_first_corner():
    assert d._relative_path([(41, 51), (73, 81), (82, 86), (77, 98)]) == "M41 51l32 30 9 5-5 12z"
    assert polygon("M41 51l32 30 9 5-5 12z") == [(41, 51), (73, 81), (82, 86), (77, 98)]


def inside(point: tuple[float, float], corners: list[tuple[float, float]]) -> bool:
    """Whether a point lies inside a polygon (even-odd rule, written out for the test)."""
    x, y = point
    found = False
    for (x1, y1), (x2, y2) in zip(corners, corners[1:] + corners[:1]):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            found = not found
    return found


def along(a: str, b: str, units: float) -> tuple[float, float]:
    """The point `units` from the middle of a site's line along it (the line's own measure)."""
    line = d._polyline(d.site_path(a, b)[0])
    total = sum(math.dist(p, q) for p, q in zip(line, line[1:]))
    return d._along(line, total / 2 + units)[0]


def test_every_tap_area_holds_its_line_and_no_other_sites_line():
    areas = {site: polygon(path) for site, path in d.site_areas().items()}
    assert sorted(areas) == sorted(k.SITES)
    # 20 px either way on a 360 px phone is 24.5 units (0.815 px a unit).
    for (a, b), corners in areas.items():
        for units in (-25, -12, 0, 12, 25):
            point = along(a, b, units)
            assert inside(point, corners), (a, b, units)
            others = [s for s, c in areas.items() if s != (a, b) and inside(point, c)]
            assert others == [], f"{others} take a tap on {a}–{b} ({units} from its middle)"


def test_the_areas_share_the_board_out_nearest_first_and_leave_the_islands_cores():
    """On a grid over the board: a point in a site's area is that site's nearest, or nearly so:
    another line may be nearer by no more than two areas' overlap (AREA_OVERLAP), the whole units
    they are written in and the chords between their corners (4 units, about 3 px in all); and
    no area reaches into an island's core."""
    areas = {site: polygon(path) for site, path in d.site_areas().items()}
    lines = {site: d._polyline(d.site_path(*site)[0]) for site in k.SITES}
    slack = d.AREA_OVERLAP + 2.5
    for x in range(0, d.WIDTH, 5):
        for y in range(0, d.HEIGHT, 5):
            holders = [site for site, corners in areas.items() if inside((x, y), corners)]
            for site in holders:
                near = d._to_polyline((x, y), lines[site])
                nearest = min(d._to_polyline((x, y), line) for line in lines.values())
                assert near <= nearest + slack, (site, x, y, near, nearest)
            if holders:
                core = min(math.dist((x, y), d.island_xy(i)) for i in k.ISLANDS)
                assert core >= d.ISLAND_CORE - slack, (holders, x, y)

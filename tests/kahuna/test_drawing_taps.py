"""A tap on the middle of a bridge site is that site's, on the drawn board: no site drawn after it
passes within a finger's width (HIT) of its middle, and no island lies over it; and a tap goes to
the site whose line is nearest (drawing.site_at), nobody's on an island's core."""

from __future__ import annotations

import math

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


# --- where a tap goes (drawing.site_at): the board shared out among the sites ----------------


def test_a_tap_on_a_line_or_beside_it_is_that_sites():
    # On the line 20 px either way of its middle on a 360 px phone (24.5 units, 0.815 px a
    # unit), and beside its middle 12 units (10 px) either side.
    for a, b in k.SITES:
        line = d._polyline(d.site_path(a, b)[0])
        total = sum(math.dist(p, q) for p, q in zip(line, line[1:]))
        for units in (-25, -12, 12, 25):
            assert d.site_at(*d._along(line, total / 2 + units)[0]) == (a, b), (a, b, units)
        (x, y), (nx, ny) = d._along(line, total / 2)
        for across in (-12, -6, 0, 6, 12):
            assert d.site_at(x + across * nx, y + across * ny) == (a, b), (a, b, across)


def test_an_islands_core_is_nobodys_and_its_edge_goes_by_direction():
    x, y = d.island_xy("Gola")
    assert d.site_at(x, y) is None
    assert d.site_at(x + d.ISLAND_CORE - 0.5, y) is None
    # Gola's sites leave it towards Coco (up), Faaa (up left), Jojo (left), Kahu (down left):
    # a tap on its edge goes to the site it lies towards.
    for other in ("Coco", "Faaa", "Jojo", "Kahu"):
        ox, oy = d.island_xy(other)
        length = math.dist((x, y), (ox, oy))
        edge = (x + (ox - x) * 20 / length, y + (oy - y) * 20 / length)
        assert d.site_at(*edge) == tuple(sorted(("Gola", other))), other


def test_a_tap_far_from_every_line_or_off_the_board_is_nobodys():
    # The board's top right corner: Coco (354.1, 98.2) is the nearest line's end, 98 units away.
    assert d.site_at(d.WIDTH, 0) is None
    assert d.site_at(-1, 100) is None
    assert d.site_at(100, d.HEIGHT + 1) is None
    # Straight up from Aloa-Bari's middle (109, 63.5): the line is the nearest one.
    assert d.site_at(109, 63.5 - 30) == ("Aloa", "Bari")


def test_a_tap_goes_to_the_nearest_line_on_a_grid_over_the_board():
    """Written out again for the test: the nearest line by sampling each line at 200 points."""
    lines = {s: d._points_along(d.site_path(*s)[0], 200) for s in k.SITES}
    cores = [d.island_xy(i) for i in k.ISLANDS]
    for x in range(0, d.WIDTH, 7):
        for y in range(0, d.HEIGHT, 7):
            got = d.site_at(x, y)
            if any(math.dist((x, y), c) < d.ISLAND_CORE for c in cores):
                assert got is None, (x, y)
                continue
            near = {s: min(math.dist((x, y), p) for p in pts) for s, pts in lines.items()}
            best = min(near.values())
            if best >= d.TAP_REACH + 0.1:
                assert got is None, (x, y)
            elif got is not None:
                assert near[got] <= best + 0.1, (x, y, got, near[got], best)
            else:
                assert best >= d.TAP_REACH - 0.1, (x, y, best)


def test_a_taps_place_as_the_page_sends_it_names_its_site():
    # kahuna.js sends "x,y" in board units (whole units); the middle of Aloa-Bari is (109, 63.5).
    assert d.tapped_site("109,64") == "Aloa-Bari"
    assert d.tapped_site("109,34") == "Aloa-Bari"  # 30 units above the line: still the nearest
    x, y = d.island_xy("Gola")
    assert d.tapped_site(f"{x},{y}") is None  # an island's core is nobody's
    for bad in (None, "", "109", "109,64,1", "a,b", "nan,nan", "inf,64", "-5,64", "1e9,1"):
        assert d.tapped_site(bad) is None, bad

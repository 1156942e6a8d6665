"""A tap on the middle of a bridge site is that site's, on the drawn board: no site drawn after it
covers its middle with its tap target, and no island lies over it (the islands take taps)."""

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

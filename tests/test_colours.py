"""Colours everyone at the table can tell apart: the charts' series (static/css/app.css, light
and dark) stay distinct under simulated protanopia and deuteranopia (the red-green colour
blindness one man in twelve has), and from the card they are drawn on.

The simulation is Machado, Oliveira and Fernandes (2009), severity 1, on linear RGB; the
difference is CIE76 ΔE in Lab. 20 is told apart at a glance on a line or a bar; the old
palette's green and red came to 14 for a protan, its blue and purple to 13.
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path

CSS = Path(__file__).resolve().parent.parent / "static" / "css" / "app.css"
APART = 20.0  # ΔE between any two series, seen by anyone
FROM_CARD = 25.0  # ΔE between a series and the card it is drawn on

PROTAN = ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216),
          (-0.003882, -0.048116, 1.051998))  # fmt: skip
DEUTAN = ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
          (-0.011820, 0.042940, 0.968881))  # fmt: skip
NORMAL = ((1, 0, 0), (0, 1, 0), (0, 0, 1))


def _linear(hex_colour: str) -> tuple[float, ...]:
    channels = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    return tuple(c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)


def _lab(linear: tuple[float, ...]) -> tuple[float, float, float]:
    r, g, b = (min(1.0, max(0.0, c)) for c in linear)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def seen(hex_colour: str, matrix) -> tuple[float, float, float]:
    """The colour's Lab as seen with this vision (a simulation matrix on linear RGB)."""
    rgb = _linear(hex_colour)
    return _lab(tuple(sum(m * c for m, c in zip(row, rgb)) for row in matrix))


def delta(one: str, other: str, matrix) -> float:
    a, b = seen(one, matrix), seen(other, matrix)
    return sum((p - q) ** 2 for p, q in zip(a, b)) ** 0.5


def palettes() -> dict[str, tuple[list[str], str]]:
    """Light and dark: the series' colours in order, and the card's colour."""
    css = CSS.read_text(encoding="utf-8")
    dark_at = css.index("prefers-color-scheme: dark) {\n  .series-0")
    light = re.findall(r"\.series-\d \{ --series: (#[0-9a-f]{6}); \}", css[:dark_at])
    dark = re.findall(r"\.series-\d \{ --series: (#[0-9a-f]{6}); \}", css[dark_at:])
    cards = re.findall(r"--card: (#[0-9a-f]{6})", css)
    return {"light": (light[:6], cards[0]), "dark": (dark[:6], cards[1])}


def test_the_palettes_are_read_from_the_style_sheet():
    found = palettes()
    assert all(len(series) == 6 for series, _ in found.values())


def test_chart_series_are_told_apart_with_red_green_colour_blindness():
    close = []
    for scheme, (series, card) in palettes().items():
        for vision, matrix in (("normal", NORMAL), ("protan", PROTAN), ("deutan", DEUTAN)):
            for (i, one), (j, other) in itertools.combinations(enumerate(series), 2):
                if delta(one, other, matrix) < APART:
                    close.append(f"{scheme} {vision}: series {i} {one} and {j} {other}")
            for i, one in enumerate(series):
                if delta(one, card, matrix) < FROM_CARD:
                    close.append(f"{scheme} {vision}: series {i} {one} on the card {card}")
    assert close == []


def test_the_check_finds_the_green_and_red_it_was_written_for():
    # The old palette's first two series: a green and a red a protan reads as one colour.
    assert delta("#2f6f4f", "#c0392b", NORMAL) > 40
    assert delta("#2f6f4f", "#c0392b", PROTAN) < APART


def _contrast(one: str, other: str) -> float:
    def luminance(colour: str) -> float:
        r, g, b = _linear(colour)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    high, low = sorted((luminance(one), luminance(other)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_every_series_stands_out_from_its_card():
    # WCAG's 3:1 for the parts of a graphic (a line, a bar).
    for scheme, (series, card) in palettes().items():
        assert all(_contrast(colour, card) >= 3 for colour in series), scheme

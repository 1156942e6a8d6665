"""Small inline SVG charts drawn by the server (no script, no CDN), for the game summaries.

Each chart fits a 360 px screen (it scales to the width it is given), takes its colours from
app.css (classes series-0 .. series-5, so dark mode works), carries a <title> and <desc>, and
comes with a table of its numbers as the text alternative. Labels arrive translated.
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence

from markupsafe import Markup, escape

WIDTH, HEIGHT = 340, 196
# The axis's name sits 5 units above the bottom: its letters' descent (and a Japanese glyph's
# full height) stays inside the SVG, which a phone's browser clips at its edge.
LEFT, RIGHT, TOP, BOTTOM = 34, 8, 10, 32
SERIES = 6  # distinct colours; more series repeat them with a dash pattern


def _data_table(caption: str, head: Sequence[str], rows: Sequence[Sequence]) -> Markup:
    cells = "".join(f'<th scope="col">{escape(h)}</th>' for h in head)
    body = "".join(
        "<tr>"
        + f'<th scope="row">{escape(row[0])}</th>'
        + "".join(f'<td class="num">{escape(v)}</td>' for v in row[1:])
        + "</tr>"
        for row in rows
    )
    return Markup(
        f'<details class="chart-data"><summary>{escape(caption)}</summary>'
        f'<div class="score-wrap"><table class="grid"><thead><tr>{cells}</tr></thead>'
        f"<tbody>{body}</tbody></table></div></details>"
    )


def _nice_top(value: float) -> float:
    """A round number at or above value, for the top of an axis."""
    if value <= 0:
        return 1
    step = 10 ** (len(str(int(value))) - 1)
    return ((int(value) // step) + 1) * step if value % step else value


def _tick_every(steps: int, most: int = 8) -> int:
    """A round step between labelled ticks, so that at most `most` labels fit under an axis."""
    for every in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000):
        if steps <= every * most:
            return every
    return max(1, steps // most)


def _chart_id(title: str) -> str:
    """An id prefix of the chart's own (from its title): a page may show several charts."""
    return f"chart-{zlib.crc32(title.encode()):08x}"


def line_chart(
    title: str,
    series: Sequence[tuple[str, Sequence[float]]],
    *,
    x_label: str,
    data_label: str,
    marks: Sequence[tuple[int, str]] = (),
    step_label: str = "",
) -> Markup:
    """Lines over time: series are (name, one value per step); marks are (step, label) drawn as
    vertical lines (e.g. the scorings). Returns the SVG and its data table."""
    key = _chart_id(title)
    steps = max((len(values) for _, values in series), default=0)
    top = _nice_top(max((max(values) for _, values in series if values), default=1))
    inner_w, inner_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(i: int) -> float:
        return LEFT + (inner_w * i / max(steps - 1, 1))

    def y(v: float) -> float:
        return TOP + inner_h - inner_h * v / top

    parts = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-labelledby="{key}-title {key}-desc" xmlns="http://www.w3.org/2000/svg">',
        f'<title id="{key}-title">{escape(title)}</title>',
        f'<desc id="{key}-desc">{escape(data_label)}</desc>',
        f'<line class="axis" x1="{LEFT}" y1="{TOP + inner_h}" x2="{WIDTH - RIGHT}" '
        f'y2="{TOP + inner_h}"/>',
        f'<line class="axis" x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{TOP + inner_h}"/>',
        f'<text class="tick" x="{LEFT - 4}" y="{TOP + 4}" text-anchor="end">{top:g}</text>',
        f'<text class="tick" x="{LEFT - 4}" y="{y(top / 2) + 3:.1f}" text-anchor="end">'
        f"{top / 2:g}</text>",
        f'<text class="tick" x="{LEFT - 4}" y="{TOP + inner_h}" text-anchor="end">0</text>',
        f'<text class="tick" x="{LEFT + inner_w / 2}" y="{HEIGHT - 5}" '
        f'text-anchor="middle">{escape(x_label)}</text>',
    ]
    # The steps' numbers under the axis (every round when they fit, else every 2, 5, 10...).
    every = _tick_every(steps - 1)
    for j in range(0, steps, every):
        parts.append(
            f'<text class="tick" x="{x(j):.1f}" y="{TOP + inner_h + 11}" '
            f'text-anchor="middle">{j}</text>'
        )
    for step, label in marks:
        parts.append(
            f'<line class="mark" x1="{x(step):.1f}" y1="{TOP}" x2="{x(step):.1f}" '
            f'y2="{TOP + inner_h}"/>'
        )
        parts.append(
            f'<text class="tick" x="{x(step) + 2:.1f}" y="{TOP + 10}">{escape(label)}</text>'
        )
    for i, (name, values) in enumerate(series):
        points = " ".join(f"{x(j):.1f},{y(v):.1f}" for j, v in enumerate(values))
        dashed = " dashed" if i >= SERIES else ""
        parts.append(
            f'<polyline class="line series-{i % SERIES}{dashed}" points="{points}">'
            f"<title>{escape(name)}</title></polyline>"
        )
    parts.append("</svg>")
    legend = "".join(
        f'<li><span class="swatch series-{i % SERIES}" aria-hidden="true"></span>{escape(name)}'
        f"</li>"
        for i, (name, _) in enumerate(series)
    )
    rows = [[name, *values] for name, values in series]
    head = [step_label or x_label, *[str(j) for j in range(steps)]]
    return (
        Markup("".join(parts))
        + Markup(f'<ul class="legend">{legend}</ul>')
        + _data_table(data_label, head, rows)
    )


def stacked_bars(
    title: str,
    players: Sequence[str],
    categories: Sequence[tuple[str, Sequence[float]]],
    *,
    data_label: str,
    category_label: str,
) -> Markup:
    """One horizontal bar per player, made of one segment per category (e.g. the parts of a
    score). Returns the SVG and its data table."""
    key = _chart_id(title)
    totals = [
        sum(values[i] for _, values in categories if values[i] > 0) for i in range(len(players))
    ]
    top = _nice_top(max(totals, default=1))
    bar, gap, left = 22, 10, 70
    height = TOP + len(players) * (bar + gap) + 6
    # room after the longest bar for its total (up to three digits)
    inner_w = WIDTH - left - RIGHT - 22
    parts = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {height}" role="img" '
        f'aria-labelledby="{key}-title {key}-desc" xmlns="http://www.w3.org/2000/svg">',
        f'<title id="{key}-title">{escape(title)}</title>',
        f'<desc id="{key}-desc">{escape(data_label)}</desc>',
    ]
    for p, name in enumerate(players):
        y = TOP + p * (bar + gap)
        parts.append(
            f'<text class="label" x="{left - 4}" y="{y + bar * 0.7:.1f}" '
            f'text-anchor="end">{escape(name[:10])}</text>'
        )
        x = float(left)
        for c, (label, values) in enumerate(categories):
            value = values[p]
            if value <= 0:
                continue
            w = inner_w * value / top
            parts.append(
                f'<rect class="seg series-{c % SERIES}" x="{x:.1f}" y="{y}" '
                f'width="{w:.1f}" height="{bar}"><title>{escape(label)}: {value:g}'
                f"</title></rect>"
            )
            x += w
        parts.append(
            f'<text class="tick" x="{x + 3:.1f}" y="{y + bar * 0.7:.1f}">{totals[p]:g}</text>'
        )
    parts.append("</svg>")
    legend = "".join(
        f'<li><span class="swatch series-{c % SERIES}" aria-hidden="true"></span>{escape(label)}'
        f"</li>"
        for c, (label, _) in enumerate(categories)
    )
    rows = [[label, *values] for label, values in categories]
    return (
        Markup("".join(parts))
        + Markup(f'<ul class="legend">{legend}</ul>')
        + _data_table(data_label, [category_label, *players], rows)
    )

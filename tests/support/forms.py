"""Driving the app over HTTP as a device does: the form token, the page's version, starting a
table and taking a seat. Shared by the tests (tests/helpers.py) and the robustness scripts."""

from __future__ import annotations

import re
from collections.abc import Iterable

HX = {"HX-Request": "true"}  # the header htmx sends


def csrf_from(html: str) -> str:
    """The CSRF token a rendered page carries, as a browser would send it back."""
    match = re.search(r'name="csrf_token" (?:type="hidden" )?value="([^"]+)"', html)
    if not match:
        match = re.search(r'value="([^"]+)"[^>]*name="csrf_token"', html)
    assert match, "page has no CSRF token"
    return match.group(1)


def version_of(html: str) -> int:
    """The table version a rendered live region was made from."""
    return int(re.search(r'data-version="(\d+)"', html).group(1))


def start_table(
    client,
    game: str = "pebbles",
    names: Iterable[str] = ("Anna", "Ben", "Chris"),
    players: int | None = None,
    extra: dict | None = None,
) -> str:
    """Start a table from the home page as the host's device does; returns its code. extra: more
    fields of the form (the table's options)."""
    names = tuple(names)
    home = client.get("/")
    data = {
        "csrf_token": csrf_from(home.text),
        "game": game,
        "players": len(names) if players is None else players,
    }
    for i, name in enumerate(names):
        data[f"names-{i}"] = name
    response = client.post("/tables", data={**data, **(extra or {})})
    assert response.status_code == 302, response.text
    return re.match(r"/t/(\w+)/", response.headers["Location"]).group(1)


def take_seat(client, code: str, seat, name: str = ""):
    """A phone takes a seat from the join page; returns the response (302 when it worked)."""
    page = client.get("/")
    return client.post(
        f"/t/{code}/join", data={"csrf_token": csrf_from(page.text), "seat": seat, "name": name}
    )

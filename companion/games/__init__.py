"""The registry: the one place that names the installed games.

Each name is a package companion/games/<name>/ that declares its lobby entries in ENTRIES (a
tuple of GameInfo). Adding a game is: copy a game folder, add its name here, write its tests.
"""

from __future__ import annotations

import importlib

from companion.games.base import GameInfo

INSTALLED = ("serengeti", "cape_to_cairo", "africana", "kahuna")


def _entries() -> dict[str, GameInfo]:
    found: dict[str, GameInfo] = {}
    for name in INSTALLED:
        for info in importlib.import_module(f"{__name__}.{name}").ENTRIES:
            if info.key in found:
                raise ValueError(f"two games use the key {info.key!r}")
            found[info.key] = info
    return found


GAMES: dict[str, GameInfo] = _entries()
PACKAGES: dict[str, str] = {info.name: info.package for info in GAMES.values()}

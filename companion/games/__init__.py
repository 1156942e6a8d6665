"""The registry: the one place that names the installed games.

Each name is a package companion/games/<name>/ that declares its lobby entries in ENTRIES (a
tuple of GameInfo). Adding a game is: copy a game folder, add its name here, write its tests.
"""

from __future__ import annotations

import importlib

from companion.games.base import GameInfo

INSTALLED = ("serengeti", "cape_to_cairo", "africana", "kahuna")


GAMES: dict[str, GameInfo] = {}  # entry key -> its GameInfo (a package may have several)
PACKAGES: dict[str, str] = {}  # package name (its folder's) -> the package


def install(package: str) -> list[GameInfo]:
    """Register a game package's lobby entries (ENTRIES). The installed games are registered at
    import; the tests register their fixture game (tests/fixture_game) the same way."""
    infos = list(importlib.import_module(package).ENTRIES)
    for info in infos:
        if GAMES.get(info.key, info) != info:
            raise ValueError(f"two games use the key {info.key!r}")
    for info in infos:
        GAMES[info.key] = info
        PACKAGES[info.name] = info.package
    return infos


for _name in INSTALLED:
    install(f"{__name__}.{_name}")

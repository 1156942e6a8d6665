"""Kahuna's facts: the board read from data/kahuna_board.json, the numbers of the game, and the
readers of what comes from outside (island and site names, colours).

The board file is read once at import and checked (check_board): every later rule trusts its
islands, sites and degrees. Seat 0 plays White, seat 1 plays Black.
"""

from __future__ import annotations

import json
from collections import Counter
from importlib import resources
from typing import Any

from companion.games.base import N_, RuleError, comma_list, short

MIN_PLAYERS = MAX_PLAYERS = 2
SEAT_LABELS = (N_("White"), N_("Black"))
COLOURS = ("white", "black")  # index = seat
COLOUR_WORDS = {"white": N_("white"), "black": N_("black")}

Site = tuple[str, str]


# --- the board, loaded once from the data file -------------------------------------------------


def _load_board() -> dict:
    """Read the board graph shipped beside this module (data/kahuna_board.json)."""
    ref = resources.files(__package__).joinpath("data").joinpath("kahuna_board.json")
    return json.loads(ref.read_text(encoding="utf-8"))


def check_board(board: dict) -> None:
    """Refuse to start with a damaged board file: every later rule trusts these numbers."""
    islands = board["islands"]
    sites = [tuple(s) for s in board["sites"]]
    if len(set(islands)) != len(islands):
        raise ValueError("kahuna board: an island is listed twice")
    if len(set(sites)) != len(sites):
        raise ValueError("kahuna board: a site is listed twice")
    for a, b in sites:
        if a not in islands or b not in islands or not a < b:
            raise ValueError(f"kahuna board: bad site {a}-{b}")
    degrees = Counter(i for s in sites for i in s)
    if dict(degrees) != board["degrees"]:
        raise ValueError("kahuna board: printed degrees differ from the sites")
    if set(board["layout"]) != set(islands):
        raise ValueError("kahuna board: layout does not cover every island")


BOARD = _load_board()
check_board(BOARD)

ISLANDS: tuple[str, ...] = tuple(BOARD["islands"])
SITES: tuple[Site, ...] = tuple((a, b) for a, b in BOARD["sites"])
DEGREES: dict[str, int] = dict(BOARD["degrees"])
SITES_OF: dict[str, tuple[Site, ...]] = {i: tuple(s for s in SITES if i in s) for i in ISLANDS}
LAYOUT: dict[str, tuple[float, float]] = {i: (xy[0], xy[1]) for i, xy in BOARD["layout"].items()}
BRIDGES_PER_COLOUR: int = BOARD["pieces_per_player"]["bridges"]  # 25
STONES_PER_COLOUR: int = BOARD["pieces_per_player"]["kahuna_stones"]  # 10

CARDS_PER_ISLAND = 2
DECK_SIZE = CARDS_PER_ISLAND * len(ISLANDS)  # 24
START_HAND = 3
DISPLAY_SIZE = 3
HAND_LIMIT = 5
MAX_CARDS_PER_TURN = 5
ROUNDS = 3
ROUND_POINTS = {1: 1, 2: 2}  # round 3 scores the difference

_ISLAND_BY_LOWER = {i.lower(): i for i in ISLANDS}
_SITE_SET = frozenset(SITES)
# Each site under the names the engine stores it by: "Aloa-Bari" and ("Aloa", "Bari").
SITE_BY_KEY: dict = {**{f"{a}-{b}": (a, b) for a, b in SITES}, **{s: s for s in SITES}}


# --- names from outside: islands, sites, colours ---------------------------------------------


def site_key(site: Site) -> str:
    """The JSON form of a site: "Aloa-Bari"."""
    return f"{site[0]}-{site[1]}"


def site_name(site: Site | str) -> str:
    """A site as people read it: "Aloa–Bari", with an en dash, in the history, the refusals, the
    board and the calculator alike. Its JSON and address form (site_key) keeps the hyphen."""
    a, b = site.split("-") if isinstance(site, str) else site
    return f"{a}–{b}"


def parse_island(value: Any) -> str:
    """The island an input names (case does not matter); RuleError when none."""
    if isinstance(value, str) and value.strip().lower() in _ISLAND_BY_LOWER:
        return _ISLAND_BY_LOWER[value.strip().lower()]
    raise RuleError(
        "island-unknown",
        N_("%(value)s is not an island: the islands are %(islands)s."),
        value=short(value),
        islands=comma_list(ISLANDS),
    )


def parse_site(value: Any) -> Site:
    """A site from "Aloa-Bari" (or "Aloa–Bari", as the app writes it), ("Aloa", "Bari") or either
    order; RuleError when no such site."""
    parts: Any = value
    if isinstance(value, str):
        parts = value.replace("–", "-").split("-")
    if not isinstance(parts, (list, tuple)) or len(parts) != 2:
        raise RuleError(
            "site-unknown",
            N_("%(value)s is not a bridge site: write it like Aloa–Bari."),
            value=short(value),
        )
    a, b = sorted((parse_island(parts[0]), parse_island(parts[1])))
    if (a, b) not in _SITE_SET:
        raise RuleError(
            "site-unknown",
            N_("No bridge site joins %(a)s and %(b)s: %(a)s has sites to %(others)s."),
            a=a,
            b=b,
            others=comma_list([_other_end(a, s) for s in SITES_OF[a]]),
        )
    return (a, b)


def _other_end(island: str, site: Site) -> str:
    return site[1] if site[0] == island else site[0]


def parse_colour(value: Any) -> str:
    """ "white" or "black"; RuleError otherwise."""
    if value in COLOURS:
        return value
    raise RuleError(
        "action", N_("%(value)s is not a colour: use white or black."), value=short(value)
    )


def other(colour: str) -> str:
    """The opponent's colour."""
    return COLOURS[1 - COLOURS.index(colour)]


def needed(island: str) -> int:
    """Bridges a colour needs on an island to control it: strictly more than half of its sites."""
    return DEGREES[island] // 2 + 1

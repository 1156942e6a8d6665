"""Kahuna's board arithmetic: bridges on sites, who controls which island, what building or
removing a bridge does. Pure functions of a bridges mapping (site -> colour); the game's moves and
the control checker both use them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from companion.games.base import N_, Msg, Plural, RuleError
from companion.games.kahuna.facts import (
    BRIDGES_PER_COLOUR,
    COLOUR_WORDS,
    COLOURS,
    ISLANDS,
    SITE_BY_KEY,
    SITES_OF,
    STONES_PER_COLOUR,
    Site,
    needed,
    other,
    parse_colour,
    parse_site,
    site_key,
    site_name,
)


def validated(bridges: Mapping) -> dict[Site, str]:
    """A checked copy of a bridges mapping (site -> colour) with normalised site tuples."""
    if not isinstance(bridges, Mapping):
        raise RuleError("action", N_("The bridges must be a map from site to colour."))
    checked = {}
    for site, colour in bridges.items():
        # The engine's own keys ("Aloa-Bari" or a site tuple) are looked up, not parsed again:
        # control() and every view read the whole board after each move.
        known = SITE_BY_KEY.get(site) if isinstance(site, (str, tuple)) else None
        checked[known or parse_site(site)] = colour if colour in COLOURS else parse_colour(colour)
    return checked


def bridges_from_json(data: Mapping[str, str]) -> dict[Site, str]:
    """Bridges stored in a state ({"Aloa-Bari": "white"}) as a site-tuple mapping."""
    return validated(data)


def bridges_to_json(bridges: Mapping[Site, str]) -> dict[str, str]:
    """Bridges as stored in a state: {"Aloa-Bari": "white"}, sorted by site."""
    return {site_key(s): bridges[s] for s in sorted(bridges)}


def bridge_counts(bridges: Mapping[Site, str]) -> dict[str, int]:
    """How many bridges each colour has on the board."""
    counts = Counter(bridges.values())
    return {c: counts[c] for c in COLOURS}


# --- control, building and removing (the control checker uses these too) ------------------


def control(bridges: Mapping[Site, str]) -> dict[str, str]:
    """The controlled islands, each mapped to its controller's colour.

    A colour controls an island when it owns bridges on strictly more than half of ALL the
    island's sites (free ones count too): 2 of 3, 3 of 4, 3 of 5, 4 of 6.
    """
    board = validated(bridges)
    owned: dict[str, Counter[str]] = {c: Counter() for c in COLOURS}  # island -> bridges
    for site, colour in board.items():
        owned[colour].update(site)
    return {
        island: colour
        for island in ISLANDS
        for colour in COLOURS
        if owned[colour][island] >= needed(island)
    }


def islands_held(bridges: Mapping[Site, str]) -> dict[str, int]:
    """How many islands each colour controls (= its stones on the board)."""
    held = Counter(control(bridges).values())
    return {c: held[c] for c in COLOURS}


def place(bridges: Mapping[Site, str], site: Any, colour: str) -> tuple[dict, list]:
    """Build one bridge and resolve control; returns (new bridges, removed sites).

    Each island the placement brings under the placer's control loses all the opponent's bridges
    on its sites (one bridge can do this at both of its ends). Those losses may cost the opponent
    other islands, which only removes their stones: nothing else follows, since losing bridges
    never gives anyone control. Refused: an unknown or occupied site, a 26th bridge, an 11th island.
    """
    board = validated(bridges)
    site = parse_site(site)
    colour = parse_colour(colour)
    if site in board:
        raise RuleError(
            "site-free",
            N_("Site %(site)s already holds a %(colour)s bridge."),
            site=site_name(site),
            colour=Msg(COLOUR_WORDS[board[site]]),
        )
    if bridge_counts(board)[colour] >= BRIDGES_PER_COLOUR:
        raise RuleError.of(
            "bridge-supply",
            Plural(
                "The %(number)s %(colour)s bridge is already on the board.",
                "All %(number)s %(colour)s bridges are on the board.",
                "number",
                number=BRIDGES_PER_COLOUR,
                colour=Msg(COLOUR_WORDS[colour]),
            ),
        )
    before = control(board)
    after = dict(board)
    after[site] = colour
    now = control(after)
    gained = [i for i in site if now.get(i) == colour and before.get(i) != colour]
    if sum(1 for c in now.values() if c == colour) > STONES_PER_COLOUR:
        raise RuleError.of(
            "stone-supply",
            Plural(
                "This bridge would give %(colour)s an island more than its "
                "%(number)s Kahuna stone can mark.",
                "This bridge would give %(colour)s an island more than its "
                "%(number)s Kahuna stones can mark.",
                "number",
                colour=Msg(COLOUR_WORDS[colour]),
                number=STONES_PER_COLOUR,
            ),
        )
    rival = other(colour)
    removed = sorted({s for i in gained for s in SITES_OF[i] if after.get(s) == rival})
    for s in removed:
        del after[s]
    return after, removed


def remove(bridges: Mapping[Site, str], site: Any, colour: str) -> dict:
    """The bridges after the colour `colour` removes the opponent's bridge on `site`.

    Only the opponent's bridge may be removed; the two-card check is separate (see apply).
    Removing never gives the remover control: control counts only the controller's bridges.
    """
    board = validated(bridges)
    site = parse_site(site)
    colour = parse_colour(colour)
    owner = board.get(site)
    if owner is None:
        raise RuleError(
            "remove-opponent",
            N_(
                "Site %(site)s is free: there is no bridge to remove; "
                "one card builds a bridge there."
            ),
            site=site_name(site),
        )
    if owner == colour:
        raise RuleError(
            "remove-opponent",
            N_("The bridge on %(site)s is your own: only %(rival)s bridges can be removed."),
            site=site_name(site),
            rival=Msg(COLOUR_WORDS[other(colour)]),
        )
    after = dict(board)
    del after[site]
    return after

"""Pebbles' search words (the shape every game's search_terms.py has; see
companion/games/serengeti/search_terms.py for what each part means): what players say, mapped to
the rules page's ids, and which rule each reading reads."""

from __future__ import annotations

from companion.games.base import SearchTerms

PHRASES: dict[str, dict[str, tuple[str, ...]]] = {
    "en": {"fell": ("drop", "drop-turn"), "how many": ("take",)},
    "ja": {"落ち": ("drop", "drop-turn"), "何個": ("take",)},
    "ru": {"упал*": ("drop", "drop-turn"), "сколько": ("take",)},
}
READS: dict[str, str] = {"drop-turn": "drop"}

TERMS = SearchTerms(PHRASES, READS)

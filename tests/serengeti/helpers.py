"""Helpers the Serengeti / Don tests share (the shared ones of every game are in tests/helpers.py)."""

from __future__ import annotations

from companion.games.serengeti import rules

# A valid deck: tribes 1, 3, 5 show digits 0-4, tribes 2, 4, 6 show 5-9 (each digit 3 times).
DECK = [
    f"{t}{d}"
    for i, t in enumerate(rules.TRIBES)
    for d in (range(5) if i % 2 == 0 else range(5, 10))
]


def card(spec: str) -> dict:
    """card("nuba4") -> {"tribe": "nuba", "digit": 4}."""
    return {"tribe": spec[:-1], "digit": int(spec[-1])}


def cards(*specs: str) -> list[dict]:
    """cards("nuba4", "tonga0") -> card dicts."""
    return [card(spec) for spec in specs]

"""Africana (Michael Schacht): a coin ledger, the end of the game and the best artifact sets."""

from companion.games.base import N_, GameInfo

ENTRIES = (GameInfo("africana", N_("Africana"), __name__, 2, 4),)

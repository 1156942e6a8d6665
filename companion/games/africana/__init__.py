"""Africana (Michael Schacht): a coin ledger, the end of the game and the best artifact sets."""

from companion.games.base import N_, GameInfo

# Its BoardGameGeek id is left at 0 until its BGG page is cited here.
ENTRIES = (GameInfo("africana", N_("Africana"), __name__, 2, 4, bgg_name="Africana"),)

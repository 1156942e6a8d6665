"""Kahuna (Günter Cornett): two players, twelve islands, bridges, control and three scorings."""

from companion.games.base import N_, GameInfo

ENTRIES = (GameInfo("kahuna", N_("Kahuna"), __name__, 2, 2),)

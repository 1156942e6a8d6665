"""Pebbles: the small game the tests register (never installed in production), for the core's
tests and as the starting point of a new game (docs/architecture.md, "Adding a game").

Two to four players take 1 to 3 pebbles in turn from one pile; before the first pebble each may
write down a secret number (private: only their phone, and the host's "show all", see it), which
is worth 5 more points if it is exactly the number of pebbles they end with. Anybody at the table
may put back a pebble that fell on the floor (a public event); the host may set the pile's size
before the first pebble is taken. It exercises every part of the contract: each kind of entry
(on turn, own, host, anyone), one private value, a result with a breakdown.
"""

from companion.games.base import N_, GameInfo

ENTRIES = (GameInfo("pebbles", N_("Pebbles"), __name__, 2, 4),)

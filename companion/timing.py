"""Time per player: how long the table waited for each seat, from the stored times of the game's
actions and the game's own word on whom it waits for (its rules' turn(state)).

How it counts. Between two accepted actions (those not undone, in order), the time belongs to
the seats the game waited for just before the later one:

- all of it to a seat the game waited for alone (from the moment it named only that seat to the
  seat's action: a turn, a bid in an open auction);
- an equal share to each when it waited for several at once (a round of sealed bids: while three
  bids are missing each of the three gets a third of that stretch, then each of the two left a
  half, and so on);
- nobody's when it waited for an entry anyone may make (a card turned up) or for nobody.

Who typed the action does not matter: time the host spends entering for a seat is that seat's.
An action taken back (undone) is skipped, so the wait runs on to the action that stood. The time
before the first action (people sitting down, reading the rules) is nobody's.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence


def thinking_seconds(steps: Iterable[tuple[float, Sequence[int]]], players: int) -> list[float]:
    """Each seat's share of the waiting, in seconds. steps: for every accepted action in order,
    (when it was stored, the seats the game waited for just before it)."""
    found = [0.0] * players
    previous: float | None = None
    for when, waited in steps:
        seats = [s for s in dict.fromkeys(waited) if 0 <= s < players]
        if previous is not None and seats:
            share = max(0.0, when - previous) / len(seats)
            for seat in seats:
                found[seat] += share
        previous = when
    return found

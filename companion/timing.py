"""The table clock: how long the table waited for each seat, from the stored times of the game's
actions, the game's own word on whom it waits for (its rules' turn(state)) and the host's
pauses. Pure: the caller gives the times (no clock is read here).

How it counts. Between two accepted actions (those not undone, in order), the time runs for
every seat the game waited for just before the later one, each in full:

- a seat the game waits for alone (a turn, a bid in an open auction) runs alone;
- when it waits for several at once (a round of sealed bids) each of them runs until it has
  entered (it then leaves turn(state)), so a shared wait counts in full for each and the times
  of a game can add up to more than its length (the summary says so);
- nobody runs while it waits for an entry anyone may make (a card turned up) or for nobody;
- nobody runs while the host has paused the clock (a break).

Who typed the action does not matter: time the host spends entering for a seat is that seat's.
An action taken back (undone) is left out, so the wait runs on to the action that stood. The time
before the clock begins (people sitting down, setting up) is nobody's: it begins when the host
says the table is set up, or with the first action.

A time bank (a table option, BGA's model): each seat starts with `start` seconds; its time on
turn is taken from it, and each turn it ends adds `credit`, never above the start. The bank is
advisory: below zero it shows the overrun; nothing is refused.

The clock of a table is kept as a small JSON-able dict (Clock.to_json), updated with each action
(tick), pause and resume, so a page reads it without replaying the game; replay() builds the same
from the log, after an undo and for the records.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Bank:
    """A time bank: `start` seconds each, `credit` more for each turn a seat ends."""

    start: float
    credit: float

    @classmethod
    def from_settings(cls, settings: dict) -> Bank | None:
        """The bank a table's settings ask for (minutes and seconds), or None (advisory)."""
        minutes = settings.get("bank_minutes")
        if not isinstance(minutes, int) or isinstance(minutes, bool) or minutes <= 0:
            return None
        credit = settings.get("bank_credit", 0)
        credit = credit if isinstance(credit, int) and not isinstance(credit, bool) else 0
        return cls(start=60.0 * minutes, credit=float(max(0, credit)))


@dataclass
class Clock:
    """Each seat's time on turn so far, up to `since` (the last action, or the resume after a
    pause); the seats it runs for now (`running`, from turn(state)); `paused`: since when the
    host paused it (None: running); the banks left, with a bank."""

    used: list[float]
    running: list[int] = field(default_factory=list)
    since: float | None = None  # None: no action yet, nothing runs
    paused: float | None = None
    bank: list[float] | None = None
    #: the seats that asked for a break since the host last paused or resumed the clock
    asked: list[int] = field(default_factory=list)

    @classmethod
    def start(cls, players: int, bank: Bank | None) -> Clock:
        return cls([0.0] * players, bank=[bank.start] * players if bank else None)

    def to_json(self) -> dict:
        return {
            "used": self.used,
            "running": self.running,
            "since": self.since,
            "paused": self.paused,
            "bank": self.bank,
            "asked": self.asked,
        }

    @classmethod
    def from_json(cls, data: dict) -> Clock:
        return cls(
            [float(x) for x in data["used"]],
            list(data.get("running") or []),
            data.get("since"),
            data.get("paused"),
            data.get("bank"),
            list(data.get("asked") or []),
        )

    def _fold(self, until: float) -> None:
        """Add the time since `since` (up to `until`) to the running seats (and their banks)."""
        if self.since is None or self.paused is not None:
            return
        spent = max(0.0, until - self.since)
        for seat in self.running:
            self.used[seat] += spent
            if self.bank is not None:
                self.bank[seat] -= spent
        self.since = until

    def tick(self, when: float, waited: Sequence[int], bank: Bank | None) -> None:
        """An accepted action at `when`; `waited`: the seats the game waits for after it. Each
        seat that was running and no longer is has ended its turn (its bank gets the credit)."""
        self._fold(when)
        if self.since is None:
            self.since = when
        now_waited = _seats(waited, len(self.used))
        if self.bank is not None and bank is not None:
            for seat in set(self.running) - set(now_waited):
                self.bank[seat] = min(bank.start, self.bank[seat] + bank.credit)
        self.running = now_waited

    def begin(self, when: float, waited: Sequence[int]) -> None:
        """The table says it is set up (before any action): the clock runs from `when` for the
        seats the game waits for (the start player's first turn counts). Once it runs, nothing."""
        if self.since is None:
            self.since = when
            self.running = _seats(waited, len(self.used))

    def pause(self, when: float) -> None:
        """The host pauses the clock (a break): nobody runs until resume()."""
        self.asked = []
        if self.paused is None:
            self._fold(when)
            self.paused = when

    def resume(self, when: float) -> None:
        """The clock runs again from `when`."""
        self.asked = []
        if self.paused is not None:
            self.paused = None
            if self.since is not None:
                self.since = when

    def ask(self, seat: int) -> None:
        """A seat asks the host for a break (the host's device shows who asked, until the clock
        is paused or resumed)."""
        if 0 <= seat < len(self.used) and seat not in self.asked:
            self.asked.append(seat)

    def seconds(self, now: float) -> list[float]:
        """Each seat's time on turn up to `now` (the running seats' current stretch included)."""
        found = list(self.used)
        if self.since is not None and self.paused is None:
            for seat in self.running:
                found[seat] += max(0.0, now - self.since)
        return found

    def bank_left(self, now: float) -> list[float] | None:
        """Each seat's bank at `now` (negative: the overrun), or None without a bank."""
        if self.bank is None:
            return None
        found = list(self.bank)
        if self.since is not None and self.paused is None:
            for seat in self.running:
                found[seat] -= max(0.0, now - self.since)
        return found


def _seats(waited: Iterable[int], players: int) -> list[int]:
    return [s for s in dict.fromkeys(waited) if isinstance(s, int) and 0 <= s < players]


# A step of the log, as replay() reads it: ("act", when, the seats waited for after the action),
# ("begin", when, the seats waited for then), ("pause", when, ()), ("resume", when, ()) or
# ("ask", when, (the seat that asked for a break,)).
Step = tuple[str, float, Sequence[int]]


def replay(steps: Iterable[Step], players: int, bank: Bank | None) -> Clock:
    """The clock after the log's steps, in order (accepted actions not undone, pauses, resumes)."""
    clock = Clock.start(players, bank)
    for kind, when, waited in steps:
        if kind == "act":
            clock.tick(when, waited, bank)
        elif kind == "begin":
            clock.begin(when, waited)
        elif kind == "pause":
            clock.pause(when)
        elif kind == "resume":
            clock.resume(when)
        elif kind == "ask" and waited:
            clock.ask(waited[0])
    return clock

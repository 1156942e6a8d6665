"""The table clock's arithmetic (companion/timing.py): pure, by hand and by property."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from companion.timing import Bank, Clock, replay


def thinking_seconds(steps, players: int) -> list[float]:
    """Each seat's time on turn over a finished log: the clock replayed, read at its last step
    (as the record of a play reads it)."""
    clock = replay(steps, players, None)
    return clock.seconds(clock.since if clock.since is not None else 0.0)


def test_one_seat_at_a_time_each_wait_is_the_waited_seats_and_the_first_is_nobodys():
    # actions at 0, 10, 40, 45; after each the game waits for seat 1, 2, 0, then nobody
    steps = [("act", 0, [1]), ("act", 10, [2]), ("act", 40, [0]), ("act", 45, [])]
    assert thinking_seconds(steps, 3) == [5, 10, 30]


def test_a_shared_wait_counts_in_full_for_each_seat_until_it_has_entered():
    # A sealed round from 100: three bids missing for 30 s, two for 20 s, the last for 60 s.
    steps = [("act", 100, [0, 1, 2]), ("act", 130, [1, 2]), ("act", 150, [2]), ("act", 210, [])]
    assert thinking_seconds(steps, 3) == [30, 50, 110]


def test_waiting_for_anyone_is_nobodys_time_and_seats_out_of_range_are_ignored():
    assert thinking_seconds([("act", 0, []), ("act", 50, [1, 7]), ("act", 60, [])], 2) == [0, 10]
    assert thinking_seconds([], 2) == [0, 0]


def test_a_pause_is_left_out_and_a_second_pause_changes_nothing():
    steps = [
        ("act", 0, [0]),
        ("pause", 10, ()),
        ("pause", 20, ()),
        ("resume", 70, ()),
        ("act", 80, [1]),
        ("act", 90, []),
    ]
    assert thinking_seconds(steps, 2) == [20, 10]


def test_the_running_seat_counts_up_to_now_and_stops_while_paused():
    clock = replay([("act", 0, [1])], 2, None)
    assert clock.seconds(12.5) == [0, 12.5]
    clock.pause(20)
    assert clock.seconds(100) == [0, 20]
    clock.resume(100)
    assert clock.seconds(105) == [0, 25]


def test_a_bank_loses_the_time_on_turn_and_gains_the_credit_at_each_turn_end_up_to_its_start():
    bank = Bank(start=60, credit=10)
    clock = replay([("act", 0, [0])], 2, bank)
    clock.tick(50, [1], bank)  # seat 0 used 50: 10 left, +10 credit
    assert clock.bank == [20, 60]
    clock.tick(55, [0], bank)  # seat 1 used 5: 55 left, +10 credit, never above 60
    assert clock.bank == [20, 60]
    assert clock.bank_left(80) == [-5, 60]  # seat 0 runs over: shown, never enforced


def test_the_clock_begins_when_the_table_is_set_up_or_with_the_first_action():
    begun = [("begin", 0, [0]), ("act", 30, [1]), ("act", 40, [])]
    assert thinking_seconds(begun, 2) == [30, 10]  # the start player's first turn counts
    twice = [("begin", 0, [0]), ("begin", 20, [1]), ("act", 30, [1]), ("act", 40, [])]
    assert thinking_seconds(twice, 2) == [30, 10]  # once it runs, a second begin is nothing
    assert thinking_seconds([("act", 30, [1]), ("act", 40, [])], 2) == [0, 10]


def test_who_asked_for_a_break_is_kept_until_the_clock_pauses_or_resumes():
    asked = [("act", 0, [0]), ("ask", 5, [1]), ("ask", 6, [1]), ("ask", 7, [0])]
    assert replay(asked, 2, None).asked == [1, 0]
    assert replay([*asked, ("pause", 8, ())], 2, None).asked == []
    assert (
        replay([*asked, ("pause", 8, ()), ("ask", 9, [1]), ("resume", 10, ())], 2, None).asked == []
    )


def test_settings_ask_for_a_bank_in_minutes():
    assert Bank.from_settings({}) is None
    assert Bank.from_settings({"bank_minutes": 0}) is None
    assert Bank.from_settings({"bank_minutes": 5, "bank_credit": 20}) == Bank(300, 20)
    assert Bank.from_settings({"bank_minutes": True}) is None


STEP = st.tuples(
    st.sampled_from(["act", "act", "act", "begin", "pause", "resume", "ask"]),
    st.floats(0, 100, allow_nan=False),
    st.lists(st.integers(0, 3), max_size=4),
)


def _in_time_order(steps):
    when = 0.0
    found = []
    for kind, gap, seats in steps:
        when += gap
        found.append((kind, when, seats))
    return found


@given(st.lists(STEP, max_size=30))
def test_kept_with_every_step_or_replayed_the_clock_is_the_same(raw):
    steps = _in_time_order(raw)
    kept = Clock.start(4, Bank(60, 5))
    for kind, when, seats in steps:
        if kind == "act":
            kept.tick(when, seats, Bank(60, 5))
        elif kind == "begin":
            kept.begin(when, seats)
        elif kind == "pause":
            kept.pause(when)
        elif kind == "ask":
            if seats:
                kept.ask(seats[0])
        else:
            kept.resume(when)
        again = Clock.from_json(kept.to_json())
        assert again == kept
    assert kept == replay(steps, 4, Bank(60, 5))


@given(st.lists(STEP, max_size=30), st.floats(0, 1000, allow_nan=False))
def test_no_seat_runs_longer_than_the_game_and_time_only_grows(raw, later):
    steps = _in_time_order(raw)
    clock = replay(steps, 4, None)
    end = steps[-1][1] if steps else 0.0
    first = next((when for kind, when, _ in steps if kind in ("act", "begin")), end)
    now = clock.seconds(end)
    assert all(0 <= s <= end - first + 1e-6 for s in now)
    assert all(b >= a for a, b in zip(now, clock.seconds(end + later)))


@given(st.lists(st.tuples(st.floats(0, 100, allow_nan=False), st.integers(0, 3)), max_size=30))
def test_one_seat_at_a_time_the_seats_share_exactly_the_time_played(raw):
    steps = _in_time_order([("act", gap, [seat]) for gap, seat in raw])
    if not steps:
        return
    clock = replay(steps, 4, None)
    end = steps[-1][1]
    assert abs(sum(clock.seconds(end)) - (end - steps[0][1])) < 1e-6

"""Serengeti's search vocabulary: numbers in a question point at the digit rule."""

from __future__ import annotations

from companion.games import GAMES
from companion.web.rules import vocabulary


def test_a_bid_and_a_digit_it_ends_in_are_read_as_the_digit_rule():
    numbers = vocabulary(GAMES["serengeti"]).numbers
    assert "bid-digit" in numbers([15, 5]) and "bid-digit" in numbers([20, 0])
    assert not numbers([15, 4]) and not numbers([15])

"""What two loads of one page may differ in without anything having changed: the table clock,
which runs with time (templates/_macros.html: seat_clock). Tests and the privacy check compare
pages without it."""

from __future__ import annotations

import re

# A seat's time on turn or bank: its number (data-seconds) and its text move with time; a bank
# turns "low" below 30 s by itself.
CLOCK = re.compile(r'(<span[^>]*data-(?:clock|bank)[^>]*data-seconds=")[^"]*("[^>]*>)[^<]*')
BANK_CLASS = re.compile(r'class="bank[^"]*"')


def without_clock(text: str) -> str:
    """The page with every clock's figures blanked."""
    return BANK_CLASS.sub('class="bank"', CLOCK.sub(r"\1T\2T", text))

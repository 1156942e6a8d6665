"""Text people type, kept to what can be shown and exported safely.

A name, a note or a place is one line of visible text. Control characters (C0 and C1, NUL, line
and paragraph breaks, tabs) and the invisible bidirectional controls (overrides, embeddings,
isolates and marks) can forge a line in an export ("Anna\\nWinner: Mallory" adds a line to the text
to paste) or turn text around where it is shown (U+202E). The forms refuse them (PlainText in
companion/forms.py); every export passes what it writes through plain() as well, so rows stored
before the forms refused them cannot forge anything either.
"""

from __future__ import annotations

import re
from typing import Any

# C0 (with tab, line feed, carriage return), DEL, C1, the Arabic letter mark, the bidi marks,
# embeddings, overrides and isolates, the line and paragraph separators.
CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
BREAKS = re.compile("[\t\n\r\x0b\x0c\x85\u2028\u2029]+")


def has_control(text: str) -> bool:
    """Whether the text holds a character a typed name or note may not."""
    return CONTROL.search(text) is not None


def plain(text: str) -> str:
    """The text as one line: breaks and tabs become a space, other controls are removed."""
    return CONTROL.sub("", BREAKS.sub(" ", text))


def plain_data(data: Any) -> Any:
    """JSON-ready data with every string in it made plain (keys too)."""
    if isinstance(data, str):
        return plain(data)
    if isinstance(data, dict):
        return {plain_data(key): plain_data(value) for key, value in data.items()}
    if isinstance(data, list | tuple):
        return [plain_data(value) for value in data]
    return data

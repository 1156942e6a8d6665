"""A table's own clock: moments shown in the table's time zone (the one its host's browser
named, or the server's setting), and durations as a clock shows them.

A zone is an IANA name ("Asia/Tokyo"); an unknown or missing one means the server's local zone,
as before zones were recorded.
"""

from __future__ import annotations

import datetime
import zoneinfo
from functools import lru_cache

ZONE_MAX = 64  # characters: the longest IANA names are about 30


@lru_cache(maxsize=1)
def _zones() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones())


def valid_zone(name: str | None) -> str | None:
    """The zone name if it is a known IANA zone, else None (a browser may send anything)."""
    if not name or len(name) > ZONE_MAX:
        return None
    name = name.strip()
    return name if name in _zones() else None


def local(moment: float, zone: str | None) -> datetime.datetime:
    """The moment as a date and time with its offset, in the zone (None: the server's own)."""
    known = valid_zone(zone)
    if known is None:
        return datetime.datetime.fromtimestamp(moment).astimezone()
    return datetime.datetime.fromtimestamp(moment, zoneinfo.ZoneInfo(known))


def iso(moment: float | None, zone: str | None) -> str | None:
    """ISO 8601 with the offset, to the second: 2026-11-27T21:05:03+09:00."""
    if moment is None:
        return None
    return local(moment, zone).isoformat(timespec="seconds")


def wall(moment: float, zone: str | None) -> str:
    """The wall-clock time at the table, as BG Stats writes it: 2026-11-27 21:05:03."""
    return local(moment, zone).strftime("%Y-%m-%d %H:%M:%S")


def signed_clock(seconds: float | None) -> str:
    """A duration that may have run over (a time bank below zero): "−0:05" past zero."""
    if seconds is not None and round(seconds) < 0:
        return "−" + clock(-seconds)
    return clock(seconds)


def clock(seconds: float | None) -> str:
    """A duration as a clock shows it: 0:42, 12:05, 1:02:03 ('' when not measured)."""
    if seconds is None:
        return ""
    whole = max(0, round(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours}:{minutes:02d}:{secs:02d}"
    return f"{minutes}:{secs:02d}"

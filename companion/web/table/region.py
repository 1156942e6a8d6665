"""What a game's panel and the region around it are rendered from, built in one place for the
live region of a table page, the table display and a step of the replay (Region).

A Region only reads: what opening a region writes (presence, the host's look) is done by the
request's own steps before it is built (live.note_viewing).
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from babel.lists import format_list
from flask_babel import get_locale

from companion import tables
from companion.forms import VersionedForm, is_bound
from companion.web.adapter import Panel, adapter_of
from companion.web.table.access import Who


class FormsOnDemand(Mapping):
    """The game's forms by action type, each made when the panel first asks for it (a panel
    shows a few of a game's forms at a time, and making a form costs more than rendering it)."""

    def __init__(self, classes: Mapping[str, type], version: int, bound: Mapping[str, Any]):
        self.classes, self.version, self.made = classes, version, dict(bound)
        for form in self.made.values():
            form.version.data = version

    def __getitem__(self, action_type: str) -> VersionedForm:
        form = self.made.get(action_type)
        if form is None:
            form = self.made[action_type] = self.classes[action_type](formdata=None)
            form.version.data = self.version
        return form

    def bound(self, action_type: str) -> VersionedForm | None:
        """The form of this action type if this request bound it (a refused entry, shown with
        what was typed and its errors), else None; makes no form (a template may then render
        the plain, unbound form as a fragment)."""
        form = self.made.get(action_type)
        return form if form is not None and is_bound(form) else None

    def __iter__(self):
        return iter(self.classes)

    def __len__(self) -> int:
        return len(self.classes)


@dataclass
class Region:
    """The names every panel template reads (the game's own from its panel_context in extra)."""

    table: tables.Table
    who: Who
    seat: int | None  # the seat shown: the phone's own, the host's "act for", or None
    names: list[str]
    seats: list[tables.SeatRow]
    state: dict
    view: dict  # what this device may see (rules.view)
    result: dict | None
    forms: FormsOnDemand
    panel: str  # the game's panel template
    turn_seats: list[int]  # the seats the game waits for
    waiting_names: str  # their names as a list in the reader's language ("" for none)
    args: dict  # query arguments every link keeps
    history: list = field(default_factory=list)
    history_total: int = 0
    undoable: Any = None  # the event this device may take back, or None
    error: Any = None  # a refusal to show (a Msg), and its rule id
    rule: str | None = None
    display: bool = False  # the table display's region
    replay: bool = False  # a replay's step: nothing is awaited, nothing entered
    # whether this device may enter anything here: not a replay's step, not a display link (a
    # TV); the table device, which stayed at the table, enters what anyone may
    enters: bool = True
    now: float = field(default_factory=time.time)
    clock: dict | None = None  # each seat's time on turn as the page shows it (clock_context)
    prompt: Any = None  # what the seat shown may enter now, in the game's words (Rules.prompt)
    extra: dict = field(default_factory=dict)  # the game's panel_context

    def context(self) -> dict:
        """The template variables: every field (shallow) and the game's own."""
        found = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "extra"}
        return {**found, **self.extra}


def build_region(
    w: Who,
    state: dict,
    seat_rows: list[tables.SeatRow],
    *,
    seat: int | None,
    reveal: bool,
    bound_forms: Mapping[str, Any] | None = None,
    args: dict | None = None,
    query: Mapping[str, str] | None = None,
    awaited: bool = True,
) -> Region:
    """The region of w.table at `state` for the seat shown (None: the table), with the game's
    panel context. awaited=False: nobody is waited for (a replay's step)."""
    table = w.table
    rules, adapter = table.game.rules, adapter_of(table.game)
    names = [s.name for s in seat_rows]
    view = rules.view(state, seat, reveal=reveal)
    result = rules.result(state)
    extra = adapter.panel_context(
        Panel(
            code=table.code,
            state=state,
            view=view,
            seat=seat,
            host=w.host,
            names=names,
            own=seat is not None and seat == w.seat,
            args=args or {},
            query=query or {},
        )
    )
    turn = [s for s in rules.turn(state) if 0 <= s < len(names)] if awaited else []
    waiting = [names[s] for s in turn if s != seat]
    return Region(
        table=table,
        who=w,
        seat=seat,
        names=names,
        seats=seat_rows,
        state=state,
        view=view,
        result=result,
        forms=FormsOnDemand(adapter.forms, table.version, bound_forms or {}),
        panel=adapter.panel_template,
        turn_seats=turn,
        waiting_names=format_list(waiting, locale=get_locale() or "en") if waiting else "",
        prompt=rules.prompt(state, seat) if awaited and result is None else None,
        args=args or {},
        extra=extra,
    )


def clock_context(db, table: tables.Table, now: float) -> dict:
    """The table clock as the page shows it at `now` (the server's time: the phone counts on
    from it, so a phone whose own clock is wrong still shows the right time): each seat's time
    on turn, the seats it runs for, whether the host paused it, the banks left (a time bank),
    and whether a seat asked for a break since the last pause or resume."""
    clock = tables.clock_shown(db, table)
    bank = tables.bank_of(table)
    paused = clock.paused is not None
    return {
        "seconds": clock.seconds(now),
        "running": [] if paused else list(clock.running),
        "paused": paused,
        "bank": clock.bank_left(now),
        "bank_start": bank.start if bank else None,
        "asked": list(clock.asked),
        "started": clock.since is not None,
    }


def guide_context(db, table: tables.Table) -> dict:
    """The game's set-up guide while no move stands (the host's device and the table display
    show it until the first move), with the lines ticked at this table; {} afterwards or for a
    game without a guide."""
    setup = table.game.rules.setup
    if setup is None or tables.has_moves(db, table):
        return {"guide": None}
    return {
        "guide": setup(dict(table.options), table.players),
        "ticks": set(table.ticks),
        "guide_lang": str(get_locale() or "en"),
        "rules_page": table.game.rules_page,
    }

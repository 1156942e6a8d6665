"""The replay of a finished game, step by step: /t/<code>/replay/<step>.

Step 0 is the table before anything happened; step n is the table right after event n of its log
(every event is a step: an action, a note, a line the app wrote, an action that was undone, which
shows as entered and undone and changes nothing). Each step has its own address; plain links move
between steps, and htmx, when it is there, swaps only the replay's region.

Who may open it: the one rule of a finished play (the guard's "viewer": the devices whose signed
list holds the table, and the table's display with its key). Before the end there is no replay
(the history stays as it is); a table purged since has none either (its events are gone), and
the page says so to the devices that may see its play.

The state of a step is rebuilt from the nearest checkpoint (tables.state_after), so a step costs
the same at step 3 or 300. What the controls need of the whole game (the rounds, each player's
turns) is one replay of the log, kept per table and version in this process (an outline).

Each game shows its step through its panel for the table (read-only, as on the display; `replay`
is true in its context), its standings (Rules.standings_at) and its rounds (Rules.step_round).
The core owns the controls and the addresses.
"""

from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from flask import (
    Blueprint,
    abort,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)

from companion import get_db, htmx, plays, tables
from companion.games.base import N_, ON_TURN, Msg, Seat, Standings, is_int
from companion.store import Store
from companion.web import device
from companion.web.after import shown_action
from companion.web.table import Who, refuse, seats_shown, table_route
from companion.web.table.region import build_region

bp = Blueprint("replay", __name__, url_prefix="/t/<code>/replay")

PLAY_EVERY = 3000  # ms between two steps when the display plays the replay by itself
PLAY_AT_END = 10000  # ms between two looks at the last step (the switch may change)
BEFORE_SHOWN = 3  # history lines of the steps just before, under the step's own
OUTLINES_KEPT = 32  # tables whose outline this process keeps


# --- the outline: what the controls need of the whole game ---------------------------------------


@dataclass(frozen=True)
class Step:
    """One step of the replay: its event's seq, kind, undone flag and action (step 0, the
    start, has none), the round it belongs to (the adapter's words; None: the game has no
    rounds) and, if it is a player's turn, whose."""

    seq: int
    kind: str | None
    undone: bool
    action: dict
    section: Any
    turn_of: int | None


_outlines: OrderedDict[tuple[str, int, int], list[Step]] = OrderedDict()
_outlines_lock = threading.Lock()


def outline(table: tables.Table) -> list[Step]:
    """Every step of the table, from its whole log: one replay, in place, kept per table and
    version (a finished game rarely changes; when it does, its version moves on). The key holds
    the table's random code as well as its id, which a new database file counts from 1 again."""
    key = (table.code, table.id, table.version)
    with _outlines_lock:
        found = _outlines.get(key)
        if found is not None:
            _outlines.move_to_end(key)
            return found
    found = _make_outline(table, tables.actions_of(get_db(), table))
    with _outlines_lock:
        _outlines[key] = found
        while len(_outlines) > OUTLINES_KEPT:
            _outlines.popitem(last=False)
    return found


def _make_outline(table: tables.Table, log: list[tuple[int, str, bool, dict]]) -> list[Step]:
    rules = table.game.rules
    rounds = rules.step_round
    # The state is followed only for a game with rounds (None: the outline does not need it).
    state = rules.new(table.options, table.players) if rounds is not None else None
    steps = [
        Step(0, None, False, {}, rounds(state) if rounds and state is not None else None, None)
    ]
    for seq, kind, undone, action in log:
        turn_of = None
        if kind == "game" and not undone:
            if state is not None:
                state = rules.moves.apply(state, action, copy=False)  # ours: no copies
            seat = action.get("seat")
            if is_int(seat) and rules.entry(str(action.get("type"))) == ON_TURN:
                turn_of = seat
        section = rounds(state) if rounds and state is not None else None
        steps.append(Step(seq, kind, undone, action, section, turn_of))
    return steps


def step_index(steps: list[Step], seq: int) -> int | None:
    """The index of the step of event seq (seqs count 1, 2, 3... in a table's log), or None."""
    if 0 <= seq < len(steps) and steps[seq].seq == seq:
        return seq
    return next((i for i, s in enumerate(steps) if s.seq == seq), None)


def round_starts(steps: list[Step]) -> list[int]:
    """The steps (indexes) where a round begins: the first step, and each step whose round
    differs from the step before."""
    if steps[0].section is None and all(s.section is None for s in steps):
        return []
    return [0] + [i for i in range(1, len(steps)) if steps[i].section != steps[i - 1].section]


# --- the step ----------------------------------------------------------------------------------


def _everything(w: Who) -> bool:
    """Whether the step shows what the game kept private (it may: the game is over). A phone
    chooses with ?all=1; the display follows the switch a phone at the table set."""
    if w.display and not w.member:
        return w.table.replay_all
    return request.args.get("all") == "1"


def _link_args(w: Who, everything: bool) -> dict:
    """Query arguments every link of the replay keeps: the display's key (and its autoplay),
    a phone's choice to see everything."""
    args: dict[str, Any] = {}
    key = request.args.get("key")
    if key and w.display:
        args["key"] = key
        if request.args.get("play") == "1":
            args["play"] = 1
    elif everything:
        args["all"] = 1
    return args


def _entered_by(event: tables.Event) -> Msg | None:
    """Which device entered a game action (the history line says what it was)."""
    if event.kind != "game":
        return None
    if event.host:
        if event.seat is None:
            return Msg.core(N_("Entered on the host's device."))
        return Msg.core(N_("Entered on the host's device, for %(seat)s."), seat=Seat(event.seat))
    if event.seat is not None:
        return Msg.core(N_("Entered on %(seat)s's phone."), seat=Seat(event.seat))
    return None


def _numeric(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def standings_rows(
    now: Standings | None, before: Standings | None, names: list[str]
) -> list[dict] | None:
    """The standings as the template lists them: per seat its name, whether it leads, and each
    value with what changed since the step before (the change in number, or just changed)."""
    if now is None:
        return None
    earlier: dict[str, list] = {}
    if before is not None:
        for c, label in enumerate(before.columns):
            earlier[label] = [row[c] if c < len(row) else None for row in before.values]
    rows = []
    for seat, values in enumerate(now.values):
        cells = []
        for c, value in enumerate(values):
            label = now.columns[c]
            old = earlier.get(label, [None] * len(now.values))[seat] if earlier else value
            delta = None
            if _numeric(value) and _numeric(old) and value != old:
                delta = value - old
            cells.append({"value": value, "delta": delta, "changed": value != old})
        rows.append(
            {
                "seat": seat,
                "name": names[seat] if seat < len(names) else str(seat + 1),
                "cells": cells,
                "leader": seat in now.leaders,
            }
        )
    return rows


def step_context(w: Who, index: int, steps: list[Step], everything: bool) -> dict:
    """Everything the step's region needs: where it is, the controls' targets, what happened,
    the standings and the game's panel as they stood after it."""
    table = w.table
    db = get_db()
    step = steps[index]
    earlier = range(index - 1, max(0, index - BEFORE_SHOWN - 1), -1)  # newest first
    shown = {  # the events whose lines the step shows: its own and a few before it
        e.seq: e
        for e in tables.events_between(db, table, steps[min(earlier, default=index)].seq, step.seq)
    }
    event = shown.get(step.seq) if index else None
    seat_rows = seats_shown(db, table)
    names = [s.name for s in seat_rows]
    before, after, applied = _step_states(db, table, step)
    result = table.game.rules.result(after)
    args = _link_args(w, everything)

    def url(i: int | None, **more: Any) -> str | None:
        if i is None:
            return None
        return url_for("replay.step", code=table.code, step=steps[i].seq, **{**args, **more})

    return dict(
        **_panel_context(w, after, result, seat_rows, everything),
        # the replay's own
        step=step,
        index=index,
        last=len(steps) - 1,
        event=event,
        entered_by=_entered_by(event) if event is not None else None,
        withheld=bool(event and event.undone and shown_action(table, event).get("withheld")),
        earlier=[{"event": shown[steps[i].seq], "url": url(i)} for i in earlier],
        section=step.section,
        everything=everything,
        **_standings_context(table, before, after, result, applied, everything, names),
        nav=_navigation(url, index, steps, names),
        **_links(w, step, steps, index, args, url),
    )


def _step_states(db: Store, table: tables.Table, step: Step) -> tuple[dict, dict, bool]:
    """The states just before and right after the step, and whether the step changed the game
    (a game action not undone; any other step leaves the state as it was)."""
    if step.kind == "game" and not step.undone:
        before = tables.state_after(db, table, step.seq - 1)
        return before, table.game.rules.apply(before, step.action), True
    state = tables.state_after(db, table, step.seq)
    return state, state, False


def _panel_context(
    w: Who, after: dict, result: Any, seat_rows: list[tables.SeatRow], everything: bool
) -> dict:
    """What the game's panel needs to show the table after the step, read-only, as the table
    display does: nobody's seat, nothing awaited, nothing entered (the region every panel is
    rendered from, tables/region.py)."""
    as_table = replace(w, seat=None, host=False, acting_for=None, reveal=everything)
    region = build_region(
        as_table, after, seat_rows, seat=None, reveal=everything, awaited=result is None
    )
    region.display = w.display and not w.member
    region.replay = True
    region.enters = False
    return region.context()


def _standings_context(
    table: tables.Table,
    before: dict,
    after: dict,
    result: Any,
    applied: bool,
    everything: bool,
    names: list[str],
) -> dict:
    """The standings after the step, each value with its change since the step before."""
    rules = table.game.rules
    now = rules.standings_at(after, result, everything)
    then = rules.standings_at(before, rules.result(before), everything) if applied else now
    return dict(
        standings=standings_rows(now, then, names),
        standings_columns=now.columns if now else [],
        standings_note=now.note if now else None,
    )


def _navigation(
    url: Callable[..., str | None], index: int, steps: list[Step], names: list[str]
) -> dict:
    """The controls' targets: first, previous, next, last, the rounds around this step and each
    player's next turn (None: no such step)."""
    last = len(steps) - 1
    starts = round_starts(steps)
    current_start = max((s for s in starts if s <= index), default=None)
    next_turns = []
    for seat in range(len(names)):
        target = next((j for j in range(index + 1, len(steps)) if steps[j].turn_of == seat), None)
        next_turns.append({"seat": seat, "name": names[seat], "url": url(target)})
    return {
        "first": url(0) if index > 0 else None,
        "previous": url(index - 1) if index > 0 else None,
        "next": url(index + 1) if index < last else None,
        "last": url(last) if index < last else None,
        "previous_round": url(
            max(
                (s for s in starts if current_start is not None and s < current_start),
                default=None,
            )
        )
        if starts
        else None,
        "next_round": url(min((s for s in starts if s > index), default=None)) if starts else None,
        "has_rounds": bool(starts),
        "next_turns": next_turns,
    }


def _links(
    w: Who,
    step: Step,
    steps: list[Step],
    index: int,
    args: dict[str, Any],
    url: Callable[..., str | None],
) -> dict:
    """The step's own addresses (public, with everything, for the slider's form), the display's
    play and pause, and the ways out to the summary and the table."""
    table = w.table
    last = len(steps) - 1
    return dict(
        link_args=args,
        here=url(index),
        public_url=url_for(
            "replay.step",
            code=table.code,
            step=step.seq,
            **{k: v for k, v in args.items() if k != "all"},
        ),
        all_url=url_for("replay.step", code=table.code, step=step.seq, all=1),
        go_url=url_for("replay.go", code=table.code),
        play_every=PLAY_EVERY if index < last else PLAY_AT_END,
        playing=args.get("play") == 1,
        play_url=url(index, play=1) if w.display else None,
        pause_url=url_for("replay.step", code=table.code, step=step.seq, key=args["key"])
        if "key" in args
        else None,
        display_switch=w.member,
        last_seq=steps[last].seq,
        summary_url=url_for("after.summary", code=table.code, key=args.get("key")),
        table_url=url_for("table.page", code=table.code)
        if w.member
        else url_for("display.page", code=table.code, key=args.get("key")),
    )


# --- the routes ----------------------------------------------------------------------------------


def replay_route(view: Callable[..., Any]) -> Callable[..., Any]:
    """The replay's guard: a table purged since its game (its play is kept, its events are not)
    says so to the devices that may see its play; otherwise the guard's "viewer" role, and the
    game must be over."""
    guarded = table_route("viewer")(view)

    @functools.wraps(view)
    def checked(code: str, **kwargs: Any) -> Any:
        db = get_db()
        if tables.find_table(db, code) is None:
            gone = tables.normalize_code(code)
            if plays.has_play_of(db, gone) and device.may_see_play(gone):
                return make_response(render_template("replay/gone.html", code=gone), 410)
        return guarded(code, **kwargs)

    return checked


def _over(w: Who) -> None:
    if w.table.ended is None:
        refuse(
            409,
            Msg.core(
                N_("The replay opens once the game is over: the history is on the table page.")
            ),
        )


@bp.get("/")
@replay_route
def start(w: Who):
    """The first step (the table before anything happened)."""
    _over(w)
    return redirect(
        url_for("replay.step", code=w.table.code, step=0, **_link_args(w, _everything(w)))
    )


@bp.get("/go")
@replay_route
def go(w: Who):
    """The step a form asked for by its number (the slider): the nearest step there is; htmx
    gets the step itself and its address to show."""
    _over(w)
    steps = outline(w.table)
    wanted = request.args.get("step", type=int) or 0
    index = max(0, min(len(steps) - 1, wanted))
    everything = _everything(w)
    target = url_for(
        "replay.step", code=w.table.code, step=steps[index].seq, **_link_args(w, everything)
    )
    if not htmx:
        return redirect(target)
    response = make_response(
        render_template("replay/_region.html", **step_context(w, index, steps, everything))
    )
    response.headers["HX-Push-Url"] = target
    response.headers["Vary"] = "HX-Request"
    return response


@bp.get("/<int:step>")
@replay_route
def step(w: Who, step: int):
    """One step: the whole page, or (htmx) only the replay's region."""
    _over(w)
    steps = outline(w.table)
    index = step_index(steps, step)
    if index is None:
        abort(404)
    context = step_context(w, index, steps, _everything(w))
    region = htmx and not request.headers.get("HX-History-Restore-Request")
    body = render_template("replay/_region.html" if region else "replay/page.html", **context)
    response = make_response(body)
    response.headers["Vary"] = "HX-Request"
    return response


@bp.post("/display")
@table_route("member")
def display_switch(w: Who):
    """A phone at the table switches what the replay on the table display shows: everything the
    game kept private, or the public view."""
    _over(w)
    tables.set_replay_all(get_db(), w.table, request.form.get("all") == "1")
    back = request.form.get("step", type=int) or 0
    args: dict[str, Any] = {"all": 1} if request.form.get("mine") == "1" else {}
    return redirect(url_for("replay.step", code=w.table.code, step=max(0, back), **args))


__all__ = ["bp", "outline", "round_starts", "standings_rows", "step_context"]

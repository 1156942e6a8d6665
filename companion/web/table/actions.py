"""Changing the table: a game action from its form, a note, an undo. Each answers with the live
region (htmx) or the page, and says what happened in its status: 200, 422 (a refusal), 409 (the
table changed under the form).
"""

from __future__ import annotations

import hashlib

from companion import get_db, tables
from companion.forms import PLAIN_TEXT, NoteForm, UndoForm
from companion.games.base import ANYONE, N_, Msg, RuleError, Seat
from companion.plaintext import has_control
from companion.web.adapter import adapter_of
from companion.web.table import bp
from companion.web.table.access import Who, table_route
from companion.web.table.live import (
    acting_seat,
    after_change,
    refusal_status,
    render_live,
    submission_key,
)


@bp.post("/act/<action_type>")
@table_route("table")
def act(w: Who, action_type: str):
    """One game action from its form: checked by the form, then by the rules, then stored. The
    table display that stays at the table may enter only what anyone at the table may enter."""
    table = w.table
    form_class = adapter_of(table.game).forms.get(action_type)
    if form_class is None:
        return render_live(w, error=Msg(N_("This game has no such action.")))
    module = table.game.rules
    public = module.entry(action_type) == ANYONE
    if not w.member and not public:
        return render_live(
            w,
            error=Msg(
                N_(
                    "The table display enters only what everyone sees (a card turned up). "
                    "Enter this on the player's phone or the host's device."
                )
            ),
            status=403,
        )
    form = form_class()
    if not form.validate_on_submit():
        first = next(iter(e for errors in form.errors.values() for e in errors), "")
        return render_live(w, error=Msg(str(first)), bound_forms={action_type: form})
    action = {"type": action_type, **form.to_action()}
    try:
        tables.act(
            get_db(),
            table,
            action,
            # a public event is the table's (the game says whom it concerns); anything else is
            # for the phone's own seat, or the seat the host acts for
            seat=(w.acting_for if w.host else None) if public else acting_seat(w),
            host=w.host,
            by=None if w.host else w.seat,
            expected_version=form.expected_version(),
            key=submission_key(),
        )
    except tables.Conflict as conflict:
        message = already_entered(table, action_type) if public else None
        return render_live(
            w, error=message or conflict.msg, bound_forms={action_type: form}, status=409
        )
    except RuleError as refusal:
        return render_live(w, error=refusal.msg, rule=refusal.rule, bound_forms={action_type: form})
    except tables.TableError as refused:  # a submission key used for another entry
        return render_live(
            w, error=refused.msg, bound_forms={action_type: form}, status=refused.status
        )
    return after_change(w)


def already_entered(table: tables.Table, action_type: str) -> Msg | None:
    """A public event someone else entered while this device was entering it too (two phones
    turning up the same card): who entered it and what, instead of "the table changed"."""
    for event in tables.recent_events(get_db(), table, 5):
        if event.kind != "game" or event.undone:
            continue
        if event.action.get("type") != action_type or not event.lines:
            return None
        who_ = Seat(event.seat) if event.seat is not None else Msg.core(N_("Host"))
        return Msg.core(N_("%(who)s already entered this: %(line)s"), who=who_, line=event.lines[0])
    return None


def note_key(w: Who, form: NoteForm) -> str | None:
    """The key of a note sent without one (no page script): the same words from the same device,
    for the same seat, from the same page are one note sent twice (a double tap): written once.
    Notes are not refused as stale (two players may write at once), so the version cannot."""
    if not form.version.data:
        return None
    sender = f"{'host' if w.host else w.seat}|{acting_seat(w)}|{form.version.data}|{form.text.data}"
    return "note-" + hashlib.sha256(sender.encode()).hexdigest()[:40]


@bp.post("/note")
@table_route("member")
def note(w: Who):
    """A free-text line in the history."""
    table = w.table
    form = NoteForm()
    if not form.validate_on_submit():
        wrong = PLAIN_TEXT if has_control(form.text.data or "") else N_("Write something first.")
        return render_live(w, error=Msg(wrong), bound_forms={"note": form})
    try:
        tables.add_note(
            get_db(),
            table,
            form.text.data,
            seat=acting_seat(w),
            host=w.host,
            key=submission_key() or note_key(w, form),
        )
    except tables.TableError as exc:
        return render_live(w, error=exc.msg, bound_forms={"note": form}, status=refusal_status(exc))
    return after_change(w)


@bp.post("/undo")
@table_route("member")
def undo(w: Who):
    """Undo the last action (the host), or the seat's own last action while nobody acted since."""
    table = w.table
    form = UndoForm()
    if not form.validate_on_submit():
        return render_live(w, error=Msg(N_("The undo request was incomplete; try again.")))
    try:
        tables.undo(
            get_db(),
            table,
            seat=None if w.host else w.seat,
            host=w.host,
            expected_version=form.expected_version(),
            key=submission_key(),
        )
    except tables.TableError as exc:
        return render_live(w, error=exc.msg, status=refusal_status(exc))
    return after_change(w)

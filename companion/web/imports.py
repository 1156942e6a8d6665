"""Add past plays: /plays/import takes a BG Stats export or BGG's plays XML, shows what it would
add (companion.import_match.preview) and adds it once the person confirms, under this device's
id (companion.past_plays). Nothing is written until then; a bad file is refused with its reason.

The upload is the one body larger than 64 KB the app takes: security.LARGE_BODIES lets this
route's body reach 11 MB (10 MB of files and the form), with a longer deadline for a slow
phone's upload.
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import Blueprint, abort, redirect, render_template, request, url_for
from flask_babel import ngettext

from companion import get_db, import_match, past_plays, plays
from companion.exports import bgstats
from companion.games import GAMES
from companion.games.base import N_, Msg
from companion.i18n import game_names, render_msg
from companion.imports import MAX_BYTES, Imported, ImportRefused, game_finder, read_file
from companion.web import device
from companion.web.records import seen_plays

bp = Blueprint("imports", __name__)
UPLOAD_FILES = 20  # BGG's pages of 100 plays each: 2,000 plays
NO_FILE = Msg.core(N_("Choose a file first: a BG Stats export or BGG’s plays XML."))
UNDECIDED = Msg.core(N_("Say for each possible duplicate whether to add it or skip it."))


def _device() -> str:
    """This device's id; a device that has none yet (no page seen) is sent to the page first."""
    found = device.device_id()
    if not found:
        abort(redirect(url_for("imports.upload")))
    return found


def _my_name(here: list[plays.Play]) -> str:
    """The name this device last played under here (its seat at its newest finished table)."""
    seats = {code: device.seat_in(roles) for code, roles in device.entitled().items()}
    for play in here:  # newest first
        seat = seats.get(play.code)
        for p in play.players:
            if seat is not None and p.seat == seat and p.named:
                return p.name
    return ""


@bp.get("/plays/import")
def upload():
    """The upload form, and what this device imported before."""
    db = get_db()
    mine = past_plays.stored(db, device.device_id())
    return render_template("records/import.html", mine=len(mine), error=None)


@bp.post("/plays/import")
def read():
    """Read the file(s); refused with the reason, or on to the preview."""
    device_id = _device()
    files = [f for f in request.files.getlist("file") if f.filename or f.content_length]
    error = None
    if not files:
        error = render_msg(NO_FILE)
    elif len(files) > UPLOAD_FILES:
        error = ngettext(
            "At most %(num)s file at once.", "At most %(num)s files at once.", UPLOAD_FILES
        )
    else:
        pages = [f.read(MAX_BYTES + 1) for f in files]
        try:
            found = read_file(pages, game_finder(GAMES, game_names))
        except ImportRefused as refused:
            error = render_msg(refused.args[0])
    if error is not None:
        db = get_db()
        mine = len(past_plays.stored(db, device_id))
        return render_template("records/import.html", mine=mine, error=error), 400
    name = ", ".join(f.filename or "" for f in files)
    draft_id = past_plays.save_draft(get_db(), device_id, name, found)
    return redirect(url_for("imports.preview", draft=draft_id))


@dataclass
class Choices:
    """What the person chose on the preview (or chose before, for this device)."""

    games: dict[str, str]
    players: dict[str, str]
    me: str
    duplicates: dict[str, str]  # new play's source_id -> "add" or "skip"


def _choices(device_id: str, found: Imported, known: set[str]) -> Choices:
    """The remembered choices, with what this request's form says over them (a value that is
    no game, no person of the record or no player of the file counts for nothing)."""
    db = get_db()
    games = past_plays.choices(db, device_id, "game")
    players = past_plays.choices(db, device_id, "player")
    me = found.me or past_plays.choices(db, device_id, "me").get("me", "")
    keys = {p.key for play in found.plays for p in play.players}
    duplicates = {}
    for field, value in request.form.items():
        kind, _, key = field.partition(":")
        if kind == "game" and (value in GAMES or value == ""):
            games[key] = value
        elif kind == "player" and key in keys and (value in known or value == ""):
            players[key] = value
        elif kind == "dup" and value in ("add", "skip"):
            duplicates[key] = value
    if request.form.get("me") in keys | {""}:
        me = request.form["me"]
    return Choices(games, players, me if me in keys else "", duplicates)


def _preview(device_id: str, draft_id: int):
    db = get_db()
    kept = past_plays.draft(db, device_id, draft_id)
    if kept is None:
        return None
    name, found = kept
    here = seen_plays()
    people = import_match.people_of(here)
    chosen = _choices(device_id, found, set(people.values()))
    known_ids = past_plays.known_ids(db, device_id) | {
        ("bgstats", bgstats.play_uuid(p)) for p in here if not p.source
    }
    shown = import_match.preview(
        found,
        games=GAMES,
        here=here,
        known_ids=known_ids,
        game_choices=chosen.games,
        player_choices=chosen.players,
        me=chosen.me,
        my_name=_my_name(here),
    )
    return name, found, chosen, shown, sorted(people.values(), key=plays.person)


@bp.get("/plays/import/<int:draft>")
def preview(draft: int):
    """What the file would add: the plays of each game, those here already, the games and
    players to match, the possible duplicates; nothing is written yet."""
    made = _preview(_device(), draft)
    if made is None:
        return redirect(url_for("imports.upload"))
    return _page(draft, *made)


def _adding(shown: import_match.Preview, chosen: Choices) -> list:
    """The new plays the person adds: all but the possible duplicates they skip (the default)."""
    return [
        p
        for p in shown.new
        if p.source_id not in shown.alike or chosen.duplicates.get(p.source_id) == "add"
    ]


def _page(draft: int, name, found, chosen, shown, people, note=None, status: int = 200):
    return render_template(
        "records/import_preview.html",
        draft=draft,
        name=name,
        found=found,
        chosen=chosen,
        shown=shown,
        people=people,
        games=GAMES,
        note=note,
        adding=len(_adding(shown, chosen)),
    ), status


@bp.post("/plays/import/<int:draft>")
def confirm(draft: int):
    """Update the preview with the form's choices, or import what it shows and remember the
    choices for the next import."""
    device_id = _device()
    made = _preview(device_id, draft)
    if made is None:
        return redirect(url_for("imports.upload"))
    name, found, chosen, shown, people = made
    if request.form.get("do") != "import":
        return _page(draft, name, found, chosen, shown, people)
    if any(sid not in chosen.duplicates for sid in shown.alike):
        note = render_msg(UNDECIDED)
        return _page(draft, name, found, chosen, shown, people, note=note, status=409)
    db = get_db()
    adding = _adding(shown, chosen)
    added = past_plays.store(db, device_id, adding, import_match.names(shown.players))
    games = {key: chosen.games.get(key, "") for key, _, _ in shown.others}
    past_plays.remember(db, device_id, "game", games)
    past_plays.remember(db, device_id, "player", {row.key: row.match for row in shown.players})
    past_plays.remember(db, device_id, "me", {"me": chosen.me})
    past_plays.drop_draft(db, device_id, draft)
    return redirect(url_for("records.plays_page", imported=added))


@bp.post("/plays/import/forget")
def forget():
    """Remove every play this device imported (its remembered choices stay), once the person
    ticked that they are sure."""
    if request.form.get("sure") == "1":
        past_plays.forget(get_db(), _device())
    return redirect(url_for("imports.upload"))

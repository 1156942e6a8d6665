"""Matching a file's plays to the record before they are imported: which of the file's games are
this app's, who each player is here, which plays are here already or look like a play here.
Pure: the reading (companion.imports), what the record holds and what the person chose in,
the preview out; companion/web/imports.py asks and companion/past_plays.py keeps.

- A game the reader did not recognise is one of this app's if the person said so (remembered
  per BGG id, else per name).
- A player is, in this order: who the person said (remembered per BG Stats uuid, BGG username
  or name: ImportedPlayer.key); the record's player of the same name (the record's one name
  rule, companion.plays.person); for the player the person says is them, the name this device
  last played under here; else a new person, under their own name.
- A play is here already when its id is (an earlier import, or a play of this server exported
  and brought back: its BG Stats uuid); it looks like one when a play here has the same game,
  day and named players, and the same place unless either has none. The person decides.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace

from companion import localtime
from companion.imports import Imported, ImportedPlay, ImportedPlayer
from companion.plays import Play, person

NEW = ""  # a player's choice: a new person, under the name the file gives


@dataclass
class PlayerRow:
    """One person of the file, as the preview asks about them."""

    key: str  # ImportedPlayer.key
    name: str  # as the file names them
    plays: int  # how many of the plays to import they are in
    match: str  # the record's name they are matched to, or NEW
    why: str  # "chosen" (by the person, now or before), "name", "me", or "" (new)
    anonymous: bool = False


@dataclass
class Preview:
    """What an import would do."""

    ours: list[ImportedPlay]  # the plays of this app's games in the file (chosen games too)
    new: list[ImportedPlay]  # of those, the ones not here yet
    here: int  # of those, the ones here already
    per_game: dict[str, int]  # game key -> plays to import
    others: list[tuple[str, str, int]]  # a game not ours: (choice key, name, plays)
    players: list[PlayerRow]
    places: list[str]
    me: str  # the key of the player who is the person importing ("" none)
    alike: dict[str, Play] = field(default_factory=dict)  # new play's source_id -> play here


def games_of(found: Imported, chosen: Mapping[str, str], games: Iterable[str]) -> list:
    """The plays of this app's games: those the reader found, and those of a game the person
    said is one of ours (chosen: ImportedPlay.game_choice -> game key; "" leaves it out)."""
    allowed = set(games)
    ours = []
    for play in found.plays:
        key = play.game or chosen.get(play.game_choice, "")
        if key in allowed:
            ours.append(play if play.game else _with_game(play, key))
    return ours


def _with_game(play: ImportedPlay, key: str) -> ImportedPlay:
    return replace(play, game=key)


def other_games(found: Imported) -> list[tuple[str, str, int]]:
    """The games of the file the reader did not recognise: (choice key, name, plays), most
    played first."""
    counts: dict[str, list] = {}
    for play in found.plays:
        if not play.game:
            entry = counts.setdefault(play.game_choice, [play.game_name, 0])
            entry[1] += 1
    return sorted(((k, n, c) for k, (n, c) in counts.items()), key=lambda e: (-e[2], e[1]))


def match_players(
    plays: list[ImportedPlay],
    known: Mapping[str, str],
    chosen: Mapping[str, str],
    me: str = "",
    my_name: str = "",
) -> list[PlayerRow]:
    """Each person of these plays with who they are here (the module's order). known: the
    record's people (person key -> name as last typed); chosen: player key -> a name or NEW;
    me: the key of the person importing; my_name: the name this device played under here."""
    rows: dict[str, PlayerRow] = {}
    for play in plays:
        for p in play.players:
            row = rows.get(p.key)
            if row is None:
                row = rows[p.key] = _row(p, known, chosen, me, my_name)
            row.plays += 1
    return sorted(rows.values(), key=lambda r: (-r.plays, person(r.name)))


def _row(
    p: ImportedPlayer, known: Mapping[str, str], chosen: Mapping[str, str], me: str, my_name: str
) -> PlayerRow:
    row = PlayerRow(p.key, p.name, 0, NEW, "", anonymous=p.anonymous or not p.name.strip())
    if row.anonymous:
        return row
    if p.key in chosen:
        row.match, row.why = chosen[p.key], "chosen"
    elif person(p.name) in known:
        row.match, row.why = known[person(p.name)], "name"
    elif p.key == me and my_name:
        row.match, row.why = my_name, "me"
    return row


def names(players: list[PlayerRow]) -> dict[str, str]:
    """player key -> the name they go by in the record ("" keeps the file's)."""
    return {row.key: row.match for row in players if row.match}


def people_of(here: Iterable[Play]) -> dict[str, str]:
    """The record's people in these plays: person key -> their name as last typed."""
    oldest_first = sorted(here, key=lambda play: play.ended)
    return {person(p.name): p.name for play in oldest_first for p in play.players if p.named}


def day(play: Play) -> str:
    """The local day of a play of the record."""
    return localtime.local(play.started or play.ended, play.timezone).strftime("%Y-%m-%d")


def _people(names_here: Iterable[str]) -> frozenset[str]:
    return frozenset(person(n) for n in names_here if n.strip())


def look_alike(
    new: list[ImportedPlay], here: list[Play], matched: Mapping[str, str]
) -> dict[str, Play]:
    """The new plays that look like a play here (same game, day and named players; the same
    place unless either has none): source_id -> the play here."""
    index: dict[tuple, list[Play]] = {}
    for kept in here:
        people = _people(p.name for p in kept.players if p.named)
        index.setdefault((kept.game, day(kept), people), []).append(kept)
    found = {}
    for play in new:
        named = _people(
            matched.get(p.key) or p.name for p in play.players if not p.anonymous and p.name
        )
        for other in index.get((play.game, play.played.strftime("%Y-%m-%d"), named), []):
            if (
                not play.location
                or not other.location
                or (person(play.location) == person(other.location))
            ):
                found[play.source_id] = other
                break
    return found


def preview(
    found: Imported,
    *,
    games: Iterable[str],
    here: list[Play],
    known_ids: set[tuple[str, str]],
    game_choices: Mapping[str, str],
    player_choices: Mapping[str, str],
    me: str,
    my_name: str = "",
) -> Preview:
    """What importing `found` would do, with these choices. here: the plays this device sees
    (played here and imported); known_ids: (source, id) of plays here (past_plays.known_ids
    and the BG Stats uuids of the plays played here)."""
    ours = games_of(found, game_choices, games)
    new = [p for p in ours if not is_known(p, known_ids)]
    known = people_of(here)
    players = match_players(new, known, player_choices, me, my_name)
    per_game: dict[str, int] = {}
    for play in new:
        per_game[play.game] = per_game.get(play.game, 0) + 1
    return Preview(
        ours=ours,
        new=new,
        here=len(ours) - len(new),
        per_game=per_game,
        others=other_games(found),
        players=players,
        places=sorted({p.location for p in new if p.location}, key=person),
        me=me,
        alike=look_alike(new, here, names(players)),
    )


def is_known(play: ImportedPlay, known: set[tuple[str, str]]) -> bool:
    """Whether this play is here already (its id, or its BGG play id, among `known`)."""
    return (play.source, play.source_id) in known or (
        bool(play.bgg_play) and ("bgg", play.bgg_play) in known
    )

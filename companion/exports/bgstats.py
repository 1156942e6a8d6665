"""BG Stats: the play file (.bgsplay) and the one-tap link (bgstats://…/createPlay.html), built
from plays of the record (companion.plays.Play).

The two formats differ (tests/data/bgstats_reference.json holds both shapes, key by key, with
the types BG Stats writes and which keys it always writes):

- the file is normalised: players, locations, games and plays with file-local integer ids, a
  play's score a string; it carries every key BG Stats' own files carry (its Android reader is
  known to throw on a missing one), and the play's uuid makes a second import update instead of
  duplicating;
- the link carries one play, denormalised, a score a number; sourceName and sourcePlayId tell
  BG Stats it has seen the play before.

Identities: a play's uuid comes from its table's code and creation (the same in every file, per
table or in bulk); a player's from their name as the record matches it, with a per-server salt
(two Annas on two servers are two people); every seat nobody named is the one anonymous player;
a game's from the entry its plays are filed under (a variant's plays are its game's plays,
with the variant as the board).
Uuids are upper-case, as BG Stats writes them.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import uuid
from collections.abc import Callable
from urllib.parse import quote

from companion import localtime
from companion.games import GAMES
from companion.games.base import N_
from companion.plaintext import plain
from companion.plays import Play, PlayerResult, person

NAMESPACE = uuid.UUID("6f1d7c1e-3a55-4c9b-9a57-1c2f0e0a7b42")  # the app's ids for BG Stats
SOURCE_NAME = "Table companion"  # the link's sourceName, and the default place of a play
# BG Stats marks its own play files with this text (a person who opens one as text reads it).
ABOUT = (
    "This is a Play file that can be read by Board Game Stats. If you see this text, try to use "
    "a share, export or open-in function to open it with Board Game Stats."
)
ANONYMOUS = "Anonymous player"
LINK_BASE = "bgstats://app.bgstatsapp.com/createPlay.html?data="  # works with no internet
LINK_SAFE = ":,"  # left as they are in the link's query (valid there): a shorter QR code

Translate = Callable[[str, str], str]  # (part, msgid) -> the reader's text


def _english(part: str, msgid: str) -> str:
    return msgid


def _id(text: str) -> str:
    return str(uuid.uuid5(NAMESPACE, text)).upper()


def salt_of(secret_key: str) -> str:
    """This server's salt for player and place ids, derived from its secret key."""
    return hmac.new(secret_key.encode(), b"bgstats ids", hashlib.sha256).hexdigest()[:16]


def play_uuid(play: Play) -> str:
    """The play's id in BG Stats: the same in every file made of it (an imported play's: its
    own uuid, or one made from its BGG play id)."""
    if play.source == "bgstats":
        return play.source_id
    if play.source == "bgg":
        return _id(f"bgg-play:{play.source_id}")
    if play.created is None:  # recorded before the table's creation was kept, its table gone
        return _id(f"play:{play.code}")
    return _id(f"play:{play.code}:{play.created}")


def player_uuid(player: PlayerResult, salt: str, known: dict[str, str] | None = None) -> str:
    """A named player's id: their BG Stats uuid when they came from there (an imported
    player's own, or, through `known`, person key -> uuid, the one of the imported player the
    record matched them to), else their name as the record matches it, salted per server; the
    one anonymous player's for a seat nobody named."""
    if not player.named:
        return player.source_id or _id("player:anonymous")
    return (
        (known or {}).get(person(player.name))
        or player.source_id
        or _id(f"player:{salt}:{person(player.name)}")
    )


def game_key(play: Play) -> str:
    """The entry a play is filed under in BG Stats (a variant's plays are its game's)."""
    info = GAMES.get(play.game)
    return info.export_key if info is not None else play.game


def game_name(play: Play) -> str:
    """The game's English name, whatever the reader's language."""
    info = GAMES.get(play.game)
    return info.export_name if info is not None else play.game


def place(play: Play, default: str) -> str:
    """Where the play was: as the host named it, else the server's default."""
    return plain((play.location or "").strip() or default or SOURCE_NAME)


def _number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _sums(player: PlayerResult) -> bool:
    parts = player.parts or []
    return bool(parts) and all(_number(p) for p in parts) and sum(parts) == player.score


def adds_up(play: Play) -> bool:
    """Whether every scored player's breakdown adds up to their score (the game's score table
    is the score's parts, not a tie-break's figures)."""
    scored = [p for p in play.players if p.score is not None]
    return bool(scored) and all(_sums(p) for p in scored)


def score_text(player: PlayerResult, play: Play) -> str:
    """A score as BG Stats keeps it: the breakdown as a sum ("30+0+9-10") when the play's
    breakdowns add up to the scores, else the total; "" for none."""
    if player.score is None:
        return ""
    if player.score_text:  # an imported sum, as its source wrote it
        return player.score_text
    parts = player.parts or []
    if len(parts) > 1 and adds_up(play):
        return "+".join(str(p) for p in parts).replace("+-", "-")
    return str(player.score)


def comments(play: Play, tr: Translate = _english) -> str:
    """The play's comments: where it comes from, the breakdown when it does not add up to the
    score, and each player's thinking time."""
    if play.source:  # an imported play: its source's own
        return play.comments
    lines = [f"{SOURCE_NAME} · {play.code}"]
    part = GAMES[play.game].name if play.game in GAMES else "core"
    if play.rows and not adds_up(play):
        for p in sorted(play.players, key=lambda p: (p.rank or 99, p.seat)):
            if p.parts:
                values = ", ".join(
                    f"{tr(part, label)} {value}" for label, value in zip(play.rows, p.parts)
                )
                lines.append(f"{p.name}: {values}")
    if play.timed:
        times = ", ".join(f"{p.name} {localtime.clock(p.seconds)}" for p in play.players)
        lines.append(f"{tr('core', N_('Thinking time'))}: {times}")
    return "\n".join(lines)


class _Ids:
    """File-local integer ids, one per uuid, in order of first use."""

    def __init__(self) -> None:
        self.rows: dict[str, dict] = {}

    def get(self, key: str, make: Callable[[int], dict], moment: str) -> int:
        row = self.rows.get(key)
        if row is None:
            row = self.rows[key] = make(len(self.rows) + 1)
        row["modificationDate"] = max(row.get("modificationDate", ""), moment)
        return row["id"]


def _place_row(where: str, salt: str) -> Callable[[int], dict]:
    def row(i: int) -> dict:
        return {"id": i, "uuid": _id(f"location:{salt}:{person(where)}"), "name": where}

    return row


def _game_row(play: Play) -> Callable[[int], dict]:
    info = GAMES.get(play.game)
    return lambda i: {
        "id": i,
        "uuid": _id(f"game:{game_key(play)}"),
        "name": game_name(play),
        "bggName": game_name(play),
        "bggId": info.bgg_id if info is not None else 0,
        "highestWins": True,
        "noPoints": False,
        "cooperative": False,
        "usesTeams": False,
        "isBaseGame": 1,
        "isExpansion": 0,
    }


def _player_row(player: PlayerResult, uid: str) -> Callable[[int], dict]:
    return lambda i: {
        "id": i,
        "uuid": uid,
        "name": player.name if player.named else ANONYMOUS,
        "isAnonymous": not player.named,
        "bggUsername": player.username,
    }


def _play_row(play: Play, refs: dict, scores: list[dict], tr: Translate) -> dict:
    start = localtime.local(play.started or play.ended, play.timezone)
    moment = localtime.wall(play.ended, play.timezone)
    return {
        "uuid": play_uuid(play),
        "gameRefId": refs["game"],
        "locationRefId": refs["place"],
        "playDate": start.strftime("%Y-%m-%d %H:%M:%S"),
        "playDateYmd": int(start.strftime("%Y%m%d")),
        "entryDate": moment,
        "modificationDate": moment,
        "durationMin": play.minutes or 0,
        "board": play.board,
        "comments": comments(play, tr),
        "ignored": False,
        "manualWinner": False,
        "rounds": 0,
        "scoringSetting": 0,
        "usesTeams": False,
        "rating": 0,
        "playImages": "[]",
        "expansionPlays": [],
        "bggId": int(play.bgg_play or 0),  # the play's id on BoardGameGeek, when known
        "importPlayId": 0,
        "nemestatsId": 0,
        "playerScores": scores,
    }


def play_file(
    found: list[Play],
    *,
    salt: str,
    location: str = SOURCE_NAME,
    me: tuple[str, int] | str | None = None,
    tr: Translate = _english,
) -> dict:
    """A BG Stats play file of these plays. location: the name of a place the host did not
    name; me: (table code, seat) of the phone that downloads, or the name of the person whose
    record it is, so that BG Stats knows which player is its owner (a seat nobody named is
    nobody's). A person matched to an imported BG Stats player keeps that player's uuid in
    every play, so that BG Stats finds them its own."""
    found = [play.plain() for play in found]
    known = {
        person(p.name): p.source_id
        for play in found
        if play.source == "bgstats"
        for p in play.players
        if p.named and p.source_id
    }
    players, places, games = _Ids(), _Ids(), _Ids()
    me_ref = None
    out_plays = []
    for play in sorted(found, key=lambda p: p.ended):
        moment = localtime.wall(play.ended, play.timezone)
        where = place(play, location)
        refs = {
            "game": games.get(game_key(play), _game_row(play), moment),
            "place": places.get(f"place:{person(where)}", _place_row(where, salt), moment),
        }
        scores = []
        for p in play.players:
            uid = player_uuid(p, salt, known)
            ref = players.get(uid, _player_row(p, uid), moment)
            if p.named:
                players.rows[uid]["name"] = p.name  # as last typed
                if me == (play.code, p.seat) or (
                    isinstance(me, str) and person(me) == person(p.name)
                ):
                    me_ref = ref
            scores.append(
                {
                    "playerRefId": ref,
                    "score": score_text(p, play),
                    "winner": bool(p.winner),
                    "rank": p.rank or 0,
                    "seatOrder": p.seat + 1,
                    "startPlayer": play.start_seat is not None and p.seat == play.start_seat,
                    "newPlayer": False,
                }
            )
        out_plays.append(_play_row(play, refs, scores, tr))
    return {
        "about": ABOUT,
        "userInfo": {"meRefId": me_ref} if me_ref is not None else {},
        "players": list(players.rows.values()),
        "locations": list(places.rows.values()),
        "games": list(games.rows.values()),
        "plays": out_plays,
    }


def link_data(play: Play, *, salt: str, location: str = SOURCE_NAME) -> dict:
    """One play in BG Stats' "push plays" shape: what the bgstats:// link carries."""
    play = play.plain()
    info = GAMES.get(play.game)
    game: dict[str, object] = {"name": game_name(play), "sourceGameId": game_key(play)}
    if info is not None and info.bgg_id:
        game["bggId"] = info.bgg_id
    game.update(highestWins=True, noPoints=False)
    players = []
    for p in play.players:
        entry = {
            "name": p.name if p.named else ANONYMOUS,
            # short (the QR code must stay readable), and unique enough among one's players
            "sourcePlayerId": player_uuid(p, salt)[:8],
            "winner": bool(p.winner),
            "startPlayer": play.start_seat is not None and p.seat == play.start_seat,
        }
        if p.score is not None:
            entry["score"] = p.score
        if p.rank:
            entry["rank"] = p.rank
        players.append(entry)  # in seat order: the order they sat in
    data = {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": play.code,
        "playDate": localtime.wall(play.started or play.ended, play.timezone),
        "durationMin": play.minutes or 0,
        "location": place(play, location),
        "game": game,
        "players": players,
    }
    if play.board:
        data["board"] = play.board
    return data


def link(play: Play, *, salt: str, location: str = SOURCE_NAME) -> str:
    """The bgstats:// link that opens BG Stats with this play filled in."""
    data = json.dumps(
        link_data(play, salt=salt, location=location), ensure_ascii=False, separators=(",", ":")
    )
    return LINK_BASE + quote(data, safe=LINK_SAFE)

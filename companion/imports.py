"""Past plays a person brings: a BG Stats export (the whole backup or one play, .json or
.bgsplay) or BGG plays XML (pages saved from /xmlapi2/plays), read into one shape (Imported),
with the plays of this app's games found and everything else counted. Pure: a file's bytes in,
data out, or an ImportRefused with the reason in words; nothing is written here.

What is read, and why so:
- BG Stats: the normalised file (players, games, locations, plays pointing at them by id; a
  score is a string, even an expression such as "10+3+0", which is summed). Plays marked
  `ignored`, and objects listed in `deletedObjects`, are left out (BG Stats' own statistics
  leave them out). A play's `uuid` (and each player's) is the source id, so a re-import adds
  nothing. `userInfo.meRefId` is the file owner's player.
- BGG: <plays><play id date length location><item objectid name/><players><player username
  name startposition score win/></players></play></plays>; the play id is the source id.
  Parsed with defusedxml: an entity expansion or an external entity is refused, not expanded.
- A game is this app's by its BGG id where the app knows one (GameInfo.bgg_id), else by its
  name as BoardGameGeek or the lobby writes it, in any of the app's languages; an entry that
  is a rule set of another (GameInfo.bgg_game) by the first word of its variant in the play's
  board (BG Stats' variant field).
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from defusedxml import ElementTree
from defusedxml.common import DefusedXmlException

from companion.games.base import GameInfo

MAX_BYTES = 10 * 1024 * 1024  # a whole BG Stats backup of years of plays fits
FIRST_YEAR, LAST_YEAR = 1950, 2100  # a play dated outside these is a broken file
SCORE = re.compile(r"^\s*[+-]?\d+(?:\.\d+)?(?:\s*[+-]\s*\d+(?:\.\d+)?)*\s*$")


class ImportRefused(ValueError):
    """A file that cannot be read as plays: the reason, for the person who brought it."""


@dataclass(frozen=True)
class ImportedPlayer:
    """One player of an imported play."""

    name: str
    source_id: str = ""  # BG Stats' player uuid, or a BGG username ("" when none)
    score: float | None = None
    winner: bool = False
    rank: int | None = None
    seat: int | None = None  # 1-based seat order, when the source says
    start: bool = False


@dataclass(frozen=True)
class ImportedPlay:
    """One play of one of this app's games, as the source tells it."""

    source: str  # "bgstats" or "bgg"
    source_id: str  # the play's uuid (BG Stats) or play id (BGG): a re-import finds it
    game: str  # the lobby entry it is (GameInfo.key)
    played: dt.datetime  # local wall time, as the source writes it
    minutes: int | None
    location: str
    players: tuple[ImportedPlayer, ...]
    board: str = ""


@dataclass
class Imported:
    """What a file holds: the plays of this app's games, and counts of the rest."""

    plays: list[ImportedPlay] = field(default_factory=list)
    other_games: dict[str, int] = field(default_factory=dict)  # game name -> plays skipped
    ignored: int = 0  # plays the source marks ignored or deleted
    me: str = ""  # the file owner's player (BG Stats userInfo.meRefId), by source id


def score_of(text: object) -> float | None:
    """A score as BG Stats writes it: "" (none), a number, or a sum such as "10+3+0" or
    "-10+7+22"; anything else is refused."""
    if text is None or text == "":
        return None
    if isinstance(text, bool):
        raise ImportRefused(f"A score is a number, not {text!r}.")
    if isinstance(text, (int, float)):
        return float(text)
    if not isinstance(text, str) or len(text) > 200 or not SCORE.match(text):
        raise ImportRefused(f"A score is a number or a sum such as 10+3+0, not {str(text)[:40]!r}.")
    return float(
        sum(float(part) for part in re.findall(r"[+-]?\s*\d+(?:\.\d+)?", text.replace(" ", "")))
    )


def _date(text: object) -> dt.datetime:
    if not isinstance(text, str):
        raise ImportRefused("A play has no date.")
    for form in ("%Y-%m-%d %H:%M:%S", "%Y-%m-%d"):
        try:
            found = dt.datetime.strptime(text.strip(), form)
        except ValueError:
            continue
        if not FIRST_YEAR <= found.year <= LAST_YEAR:
            raise ImportRefused(f"A play is dated {text[:20]}: outside {FIRST_YEAR}-{LAST_YEAR}.")
        return found
    raise ImportRefused(f"A play's date is not a date: {text[:20]!r}.")


def _int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def game_finder(games: Mapping[str, GameInfo], names: Callable[[GameInfo], Iterable[str]]):
    """The lobby entry a source's game is (by BGG id, then by name; a rule set of another entry
    by its board), or None.
    names(info): the names an entry goes by (its BGG name, its label in each language)."""
    by_id = {info.bgg_id: key for key, info in games.items() if info.bgg_id and not info.variant}
    by_name: dict[str, str] = {}
    for key, info in games.items():
        if info.bgg_game:  # a rule set of another entry's game: found by its board
            continue
        for name in names(info):
            by_name.setdefault(" ".join(name.split()).casefold(), key)
    variants = {
        key: (info.export_key, info.variant.casefold())
        for key, info in games.items()
        if info.bgg_game and info.variant
    }

    def find(bgg_id: int | None, name: str, board: str = "") -> str | None:
        key = by_id.get(bgg_id or 0) or by_name.get(" ".join(name.split()).casefold())
        if key is None:
            return None
        for variant, (base, word) in variants.items():
            if base == key and board and word.split()[0] in board.casefold():
                return variant
        return key

    return find


def _json(data: bytes) -> object:
    if len(data) > MAX_BYTES:
        raise ImportRefused("The file is over 10 MB: that is not a plays file.")
    try:
        return json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError):
        raise ImportRefused(
            "The file is not JSON: a BG Stats export is a .json or .bgsplay file."
        ) from None


def read_bgstats(data: bytes, find) -> Imported:
    """A BG Stats export (the whole backup, or one shared play) as plays of this app's games."""
    top = _json(data)
    if not isinstance(top, dict) or not isinstance(top.get("plays"), list):
        raise ImportRefused("This JSON is not a BG Stats export: it has no plays.")
    deleted = {
        str(d.get("uuid", "")).upper()
        for d in top.get("deletedObjects") or []
        if isinstance(d, dict)
    }
    players = {p.get("id"): p for p in top.get("players") or [] if isinstance(p, dict)}
    games = {g.get("id"): g for g in top.get("games") or [] if isinstance(g, dict)}
    places = {p.get("id"): p for p in top.get("locations") or [] if isinstance(p, dict)}
    found = Imported()
    me = (
        (top.get("userInfo") or {}).get("meRefId")
        if isinstance(top.get("userInfo"), dict)
        else None
    )
    if me in players:
        found.me = str(players[me].get("uuid", "")).upper()
    for play in top["plays"]:
        if not isinstance(play, dict):
            raise ImportRefused("A play of this export is not a play.")
        uuid = str(play.get("uuid") or "").upper()
        if play.get("ignored") is True or (uuid and uuid in deleted):
            found.ignored += 1
            continue
        game = games.get(play.get("gameRefId"))
        if game is None:
            raise ImportRefused("A play points at a game the export does not hold.")
        name = str(game.get("name") or game.get("bggName") or "")
        key = find(_int(game.get("bggId")), name, str(play.get("board") or ""))
        if key is None:
            found.other_games[name] = found.other_games.get(name, 0) + 1
            continue
        if not uuid:
            raise ImportRefused("A play of this export has no uuid.")
        found.plays.append(
            ImportedPlay(
                source="bgstats",
                source_id=uuid,
                game=key,
                played=_date(play.get("playDate")),
                minutes=_int(play.get("durationMin")) or None,
                location=str((places.get(play.get("locationRefId")) or {}).get("name") or ""),
                players=tuple(_bgstats_player(s, players) for s in play.get("playerScores") or []),
                board=str(play.get("board") or ""),
            )
        )
    return found


def _bgstats_player(score: object, players: Mapping) -> ImportedPlayer:
    if not isinstance(score, dict):
        raise ImportRefused("A player's score of this export is not a score.")
    who = players.get(score.get("playerRefId"))
    if who is None:
        raise ImportRefused("A score points at a player the export does not hold.")
    return ImportedPlayer(
        name=str(who.get("name") or "")[:80],
        source_id=str(who.get("uuid") or "").upper(),
        score=score_of(score.get("score")),
        winner=score.get("winner") is True,
        rank=_int(score.get("rank")) or None,
        seat=_int(score.get("seatOrder")) or None,
        start=score.get("startPlayer") is True,
    )


def read_bgg(pages: Iterable[bytes], find) -> Imported:
    """BGG plays XML, one or several pages, as plays of this app's games."""
    found = Imported()
    seen: set[str] = set()
    total = 0
    for data in pages:
        total += len(data)
        if total > MAX_BYTES:
            raise ImportRefused("The files are over 10 MB together: that is not a plays file.")
        try:
            root = ElementTree.fromstring(data)
        except DefusedXmlException:
            raise ImportRefused("The XML uses entities or external references: refused.") from None
        except ElementTree.ParseError:
            raise ImportRefused("The file is not XML: BGG's plays are an XML page.") from None
        if root.tag != "plays":
            raise ImportRefused("This XML is not BGG's plays: its top is not <plays>.")
        for play in root.findall("play"):
            play_id = play.get("id", "")
            if not play_id.isdigit():
                raise ImportRefused("A BGG play has no play id.")
            if play_id in seen:  # the same play on two pages
                continue
            seen.add(play_id)
            item = play.find("item")
            if item is None:
                raise ImportRefused("A BGG play names no game.")
            name = item.get("name", "")
            object_id = item.get("objectid", "")
            key = find(int(object_id) if object_id.isdigit() else None, name)
            if key is None:
                found.other_games[name] = found.other_games.get(name, 0) + int(
                    play.get("quantity") or 1
                )
                continue
            length = play.get("length", "")
            found.plays.append(
                ImportedPlay(
                    source="bgg",
                    source_id=play_id,
                    game=key,
                    played=_date(play.get("date")),
                    minutes=int(length) if length.isdigit() and int(length) else None,
                    location=play.get("location", ""),
                    players=tuple(_bgg_player(p) for p in play.findall("players/player")),
                )
            )
    return found


def _bgg_player(player) -> ImportedPlayer:
    position = player.get("startposition", "")
    return ImportedPlayer(
        name=(player.get("name") or player.get("username") or "")[:80],
        source_id=player.get("username", ""),
        score=score_of(player.get("score", "")),
        winner=player.get("win") == "1",
        seat=int(position) if position.isdigit() and int(position) else None,
        start=position == "1",
    )

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
from dataclasses import asdict, dataclass, field

from defusedxml import ElementTree
from defusedxml.common import DefusedXmlException

from companion.games.base import N_, GameInfo, Msg
from companion.plays import person

MAX_BYTES = 10 * 1024 * 1024  # a whole BG Stats backup of years of plays fits
FIRST_YEAR, LAST_YEAR = 1950, 2100  # a play dated outside these is a broken file
SCORE = re.compile(r"^\s*[+-]?\d+(?:\.\d+)?(?:\s*[+-]\s*\d+(?:\.\d+)?)*\s*$")


class ImportRefused(ValueError):
    """A file that cannot be read as plays: the reason (a Msg of the core catalogue), for the
    person who brought it."""


def _refused(msgid: str, **params) -> ImportRefused:
    return ImportRefused(Msg.core(msgid, **params))


TOO_BIG = N_("The file is over 10 MB: a plays file is far smaller.")
BROKEN = N_("This BG Stats export is damaged: a play points at something it does not hold.")
BROKEN_BGG = N_("This BGG plays file is damaged: a play has no id or no game.")


@dataclass(frozen=True)
class ImportedPlayer:
    """One player of an imported play."""

    name: str
    source_id: str = ""  # BG Stats' player uuid ("" when none, and in BGG's plays)
    username: str = ""  # the player's BoardGameGeek username ("" when none)
    anonymous: bool = False  # BG Stats' anonymous player, or a BGG player with no name
    score: float | None = None
    score_text: str = ""  # the score as the source wrote it when it is a sum ("10+3+0")
    winner: bool = False
    rank: int | None = None
    seat: int | None = None  # 1-based seat order, when the source says
    start: bool = False

    @property
    def shown_score(self) -> str:
        """The score as a person reads it: "" (none), "13", "2.5", or the sum as written."""
        if self.score is None:
            return ""
        total = int(self.score) if float(self.score).is_integer() else self.score
        return f"{total} ({self.score_text})" if self.score_text else str(total)

    @property
    def key(self) -> str:
        """Who this player is across imports: BG Stats' uuid, else the BGG username, else the
        name as the record matches names (companion.plays.person)."""
        if self.source_id:
            return f"uuid:{self.source_id}"
        if self.username:
            return f"bgg:{self.username.casefold()}"
        return f"name:{person(self.name)}"


@dataclass(frozen=True)
class ImportedPlay:
    """One play as the source tells it; game is the lobby entry it is (GameInfo.key), or ""
    for a game the app did not recognise (game_name and game_id say which)."""

    source: str  # "bgstats" or "bgg"
    source_id: str  # the play's uuid (BG Stats) or play id (BGG): a re-import finds it
    game: str
    played: dt.datetime  # local wall time, as the source writes it
    minutes: int | None
    location: str
    players: tuple[ImportedPlayer, ...]
    board: str = ""
    comments: str = ""
    game_name: str = ""  # as the source names the game
    game_id: int | None = None  # its BoardGameGeek id, when the source gives one
    bgg_play: str = ""  # BG Stats: the play's id on BoardGameGeek, when it was logged there

    @property
    def game_choice(self) -> str:
        """The key a person's choice of game for this source's game is remembered by."""
        if self.game_id:
            return f"bgg:{self.game_id}"
        return f"name:{person(self.game_name)}"


@dataclass
class Imported:
    """What a file holds: every play read (those of games the app does not know with game
    ""), and counts of what was left out."""

    plays: list[ImportedPlay] = field(default_factory=list)
    other_games: dict[str, int] = field(default_factory=dict)  # game name -> plays not ours
    ignored: int = 0  # plays the source marks ignored or deleted
    unreadable: int = 0  # plays of other games that could not be read (left out)
    me: str = ""  # the file owner's player key (BG Stats userInfo.meRefId), or ""

    def to_json(self) -> str:
        """The whole reading as JSON (kept between the preview and the import)."""
        data = asdict(self)
        for play in data["plays"]:
            play["played"] = play["played"].isoformat()
        return json.dumps(data, ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str) -> Imported:
        """The reading to_json kept."""
        data = json.loads(text)
        plays = []
        for play in data.pop("plays"):
            players = tuple(ImportedPlayer(**p) for p in play.pop("players"))
            played = dt.datetime.fromisoformat(play.pop("played"))
            plays.append(ImportedPlay(**play, players=players, played=played))
        return cls(plays=plays, **data)


def score_of(text: object) -> float | None:
    """A score as BG Stats writes it: "" (none), a number, or a sum such as "10+3+0" or
    "-10+7+22"; anything else is refused."""
    if text is None or text == "":
        return None
    if isinstance(text, bool):
        raise _refused(
            N_("A score is a number or a sum such as 10+3+0, not “%(text)s”."), text=text
        )
    if isinstance(text, (int, float)):
        return float(text)
    if not isinstance(text, str) or len(text) > 200 or not SCORE.match(text):
        raise _refused(
            N_("A score is a number or a sum such as 10+3+0, not “%(text)s”."), text=str(text)[:40]
        )
    return float(
        sum(float(part) for part in re.findall(r"[+-]?\s*\d+(?:\.\d+)?", text.replace(" ", "")))
    )


def _date(text: object) -> dt.datetime:
    if not isinstance(text, str):
        raise _refused(N_("A play has no date."))
    for form in ("%Y-%m-%d %H:%M:%S", "%Y-%m-%d"):
        try:
            found = dt.datetime.strptime(text.strip(), form)
        except ValueError:
            continue
        if not FIRST_YEAR <= found.year <= LAST_YEAR:
            raise _refused(
                N_("A play is dated %(date)s: a date from %(first)s to %(last)s was expected."),
                date=text[:20],
                first=FIRST_YEAR,
                last=LAST_YEAR,
            )
        return found
    raise _refused(N_("A play’s date is not a date: “%(text)s”."), text=text[:20])


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
        raise _refused(TOO_BIG)
    try:
        return json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError):
        raise _refused(
            N_("The file is neither a BG Stats export (.json, .bgsplay) nor BGG’s plays (.xml).")
        ) from None


def read_bgstats(data: bytes, find) -> Imported:
    """A BG Stats export (the whole backup, or one shared play): every play it holds, those of
    this app's games found (the rest kept with game "", for the person to match or skip)."""
    top = _json(data)
    if not isinstance(top, dict) or not isinstance(top.get("plays"), list):
        raise _refused(N_("This JSON file is not a BG Stats export: it holds no plays."))
    deleted = {
        str(d.get("uuid", "")).upper()
        for d in top.get("deletedObjects") or []
        if isinstance(d, dict)
    }
    players = {p.get("id"): p for p in top.get("players") or [] if isinstance(p, dict)}
    games = {g.get("id"): g for g in top.get("games") or [] if isinstance(g, dict)}
    places = {p.get("id"): p for p in top.get("locations") or [] if isinstance(p, dict)}
    found = Imported()
    info = top.get("userInfo")
    me = info.get("meRefId") if isinstance(info, dict) else None
    if me in players:
        found.me = _bgstats_player({"playerRefId": me}, players).key
    for play in top["plays"]:
        if not isinstance(play, dict):
            raise _refused(BROKEN)
        uuid = str(play.get("uuid") or "").upper()
        if play.get("ignored") is True or (uuid and uuid in deleted):
            found.ignored += 1
            continue
        game = games.get(play.get("gameRefId"))
        if not isinstance(game, dict):
            raise _refused(BROKEN)
        name = str(game.get("name") or game.get("bggName") or "")[:200]
        board = str(play.get("board") or "")[:200]
        game_id = _int(game.get("bggId")) or None
        key = find(game_id, name, board) or ""
        if not key:
            found.other_games[name] = found.other_games.get(name, 0) + 1
        if not uuid:
            raise _refused(BROKEN)
        try:
            read = ImportedPlay(
                source="bgstats",
                source_id=uuid,
                game=key,
                played=_date(play.get("playDate")),
                minutes=_int(play.get("durationMin")) or None,
                location=str((places.get(play.get("locationRefId")) or {}).get("name") or ""),
                players=tuple(_bgstats_player(s, players) for s in play.get("playerScores") or []),
                board=board,
                comments=str(play.get("comments") or "")[:2000],
                game_name=name,
                game_id=game_id,
                bgg_play=str(_int(play.get("bggId")) or ""),
            )
        except ImportRefused:
            if key:  # a play of this app's games must be read whole
                raise
            found.unreadable += 1
            continue
        found.plays.append(read)
    return found


def _bgstats_player(score: object, players: Mapping) -> ImportedPlayer:
    if not isinstance(score, dict):
        raise _refused(BROKEN)
    who = players.get(score.get("playerRefId"))
    if not isinstance(who, dict):
        raise _refused(BROKEN)
    text = score.get("score")
    return ImportedPlayer(
        name=str(who.get("name") or "")[:80],
        source_id=str(who.get("uuid") or "").upper()[:80],
        username=str(who.get("bggUsername") or "")[:80],
        anonymous=who.get("isAnonymous") is True,
        score=score_of(text),
        score_text=_sum_text(text),
        winner=score.get("winner") is True,
        rank=_int(score.get("rank")) or None,
        seat=_int(score.get("seatOrder")) or None,
        start=score.get("startPlayer") is True,
    )


def _sum_text(text: object) -> str:
    """The score as written when it is a sum of parts (kept beside the total), else ""."""
    if isinstance(text, str) and re.search(r"\d\s*[+-]", text):
        return " ".join(text.split())
    return ""


def read_bgg(pages: Iterable[bytes], find) -> Imported:
    """BGG plays XML, one or several pages: every play they hold, those of this app's games
    found (the rest kept with game "")."""
    found = Imported()
    seen: set[str] = set()
    total = 0
    for data in pages:
        total += len(data)
        if total > MAX_BYTES:
            raise _refused(TOO_BIG)
        try:
            root = ElementTree.fromstring(data)
        except DefusedXmlException:
            raise _refused(
                N_("The XML file declares entities or external references, which BGG’s never do.")
            ) from None
        except ElementTree.ParseError:
            raise _refused(N_("The file is not readable XML.")) from None
        if root.tag != "plays":
            raise _refused(N_("This XML file is not BGG’s plays: it does not start with <plays>."))
        for play in root.findall("play"):
            play_id = play.get("id", "")
            if not play_id.isdigit():
                raise _refused(BROKEN_BGG)
            if play_id in seen:  # the same play on two pages
                continue
            seen.add(play_id)
            read = _bgg_play(play, play_id, find)
            if not read.game:  # BGG counts a play logged as played twice as two
                times = int(play.get("quantity", "1")) if play.get("quantity", "").isdigit() else 1
                found.other_games[read.game_name] = found.other_games.get(read.game_name, 0) + times
            found.plays.append(read)
    return found


def _bgg_play(play, play_id: str, find) -> ImportedPlay:
    item = play.find("item")
    if item is None:
        raise _refused(BROKEN_BGG)
    name = item.get("name", "")[:200]
    object_id = item.get("objectid", "")
    game_id = int(object_id) if object_id.isdigit() and len(object_id) < 10 else None
    length = play.get("length", "")
    return ImportedPlay(
        source="bgg",
        source_id=play_id,
        game=find(game_id, name) or "",
        played=_date(play.get("date")),
        minutes=int(length) if length.isdigit() and 0 < int(length) < 100_000 else None,
        location=play.get("location", "")[:200],
        players=tuple(_bgg_player(p) for p in play.findall("players/player")),
        comments=(play.findtext("comments") or "")[:2000],
        game_name=name,
        game_id=game_id,
        bgg_play=play_id,
    )


def _bgg_player(player) -> ImportedPlayer:
    position = player.get("startposition", "")
    name = (player.get("name") or player.get("username") or "")[:80]
    return ImportedPlayer(
        name=name,
        username=player.get("username", "")[:80],
        anonymous=not name,
        score=score_of(player.get("score", "")),
        score_text=_sum_text(player.get("score", "")),
        winner=player.get("win") == "1",
        rank=None,
        seat=int(position) if position.isdigit() and 0 < int(position) < 100 else None,
        start=position == "1",
    )


def read_file(pages: list[bytes], find) -> Imported:
    """A file (or BGG's pages) as the person brought it: BGG's XML when it starts with "<",
    else a BG Stats export."""
    if not pages or not any(page.strip() for page in pages):
        raise _refused(N_("The file is empty."))
    if sum(len(page) for page in pages) > MAX_BYTES:
        raise _refused(TOO_BIG)
    xml = [page.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<") for page in pages]
    if all(xml):
        return read_bgg(pages, find)
    if any(xml) or len(pages) > 1:
        raise _refused(N_("Bring one BG Stats export, or BGG’s XML pages, not both at once."))
    return read_bgstats(pages[0], find)

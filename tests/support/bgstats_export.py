"""A BG Stats backup as BG Stats writes one (the shape and keys of a real export, from
tests/data/bgstats_reference.json and the format review): what the import tests bring.

Export(...) collects players, places, games and plays; .bytes() is the file. Every key BG
Stats always writes is written; uuids are upper-case; a score is a string ("" for none, or a
sum such as "10+3+0"); ranks and seat orders of 0 mean unset, as there.
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass, field

STAMP = "2024-06-01 12:00:00"


def _uuid(text: str) -> str:
    return str(uuid.uuid5(uuid.NAMESPACE_URL, text)).upper()


@dataclass
class Export:
    players: list[dict] = field(default_factory=list)
    locations: list[dict] = field(default_factory=list)
    games: list[dict] = field(default_factory=list)
    plays: list[dict] = field(default_factory=list)
    deleted: list[dict] = field(default_factory=list)
    me: int | None = None

    def player(self, name: str, *, uid: str | None = "", anonymous: bool = False, bgg="") -> int:
        """A player's id (uid None: a player written without a uuid, as old files have)."""
        row = {
            "id": len(self.players) + 1,
            "name": name,
            "isAnonymous": anonymous,
            "modificationDate": STAMP,
            "bggUsername": bgg,
            "metaData": "{}",
        }
        if uid is not None:
            row["uuid"] = uid or _uuid(f"player:{name}")
        self.players.append(row)
        return row["id"]

    def location(self, name: str) -> int:
        row = {"id": len(self.locations) + 1, "uuid": _uuid(f"place:{name}"), "name": name}
        row["modificationDate"] = STAMP
        self.locations.append(row)
        return row["id"]

    def game(self, name: str, bgg_id: int = 0) -> int:
        row = {
            "id": len(self.games) + 1,
            "uuid": _uuid(f"game:{name}"),
            "name": name,
            "bggName": name,
            "bggId": bgg_id,
            "highestWins": True,
            "noPoints": False,
            "cooperative": False,
            "usesTeams": False,
            "isBaseGame": 1,
            "isExpansion": 0,
            "modificationDate": STAMP,
        }
        self.games.append(row)
        return row["id"]

    def play(
        self,
        game: int,
        date: str,
        scores: list[tuple[int, str, bool]],
        *,
        place: int = 0,
        minutes: int = 0,
        board: str = "",
        ignored: bool = False,
        ranks: bool = True,
        key: str = "",
        comments: str = "",
    ) -> str:
        """A play: scores are (player id, score text, winner) in seat order; its uuid."""
        uid = _uuid(f"play:{key or len(self.plays)}:{date}")
        winners = sorted({s for _, s, w in scores if w})
        self.plays.append(
            {
                "uuid": uid,
                "gameRefId": game,
                "locationRefId": place,
                "playDate": date,
                "playDateYmd": int(date[:10].replace("-", "")),
                "entryDate": date,
                "modificationDate": date,
                "durationMin": minutes,
                "ignored": ignored,
                "manualWinner": False,
                "rounds": 0,
                "scoringSetting": 0,
                "usesTeams": False,
                "rating": 0,
                "playImages": "[]",
                "expansionPlays": [],
                "bggId": 0,
                "importPlayId": 0,
                "nemestatsId": 0,
                "board": board,
                "comments": comments,
                "playerScores": [
                    {
                        "playerRefId": who,
                        "score": score,
                        "winner": won,
                        "rank": (1 if won else 2) if ranks and winners else 0,
                        "seatOrder": i + 1,
                        "startPlayer": i == 0,
                        "newPlayer": False,
                    }
                    for i, (who, score, won) in enumerate(scores)
                ],
            }
        )
        return uid

    def delete(self, play_uuid: str) -> None:
        """A tombstone, as BG Stats leaves one for a play deleted on another device."""
        self.deleted.append({"uuid": play_uuid.lower(), "type": "play", "date": STAMP})

    def data(self) -> dict:
        return {
            "about": "This is a Play file that can be read by Board Game Stats.",
            "userInfo": {"meRefId": self.me} if self.me else {},
            "players": self.players,
            "locations": self.locations,
            "games": self.games,
            "plays": self.plays,
            "groups": [],
            "tags": [],
            "challenges": [],
            "deletedObjects": self.deleted,
        }

    def bytes(self) -> bytes:
        return json.dumps(self.data(), ensure_ascii=False, indent=1).encode()

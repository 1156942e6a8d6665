"""Taking a game home, for every game entry: the BG Stats file has every key BG Stats writes
with its type (tests/data/bgstats_reference.json, key by key), the one-tap link's data parses to
BG Stats' push format, names and dates are the same whatever the reader's language, and the
file's identities (players, places, games, plays) behave as BG Stats needs them to.

Games are played to their end by each game's own random generator (<package>/random_play.py)
through the store, as the host's device would enter them."""

from __future__ import annotations

import datetime
import json
import random
import re
from pathlib import Path
from urllib.parse import unquote

import pytest

from companion import create_app, get_db, tables
from companion.games import GAMES
from companion.games.base import RuleError
from tests.helpers import csrf_from, start_table, take_seat, visible

REFERENCE = json.loads((Path(__file__).parent / "data" / "bgstats_reference.json").read_text())
# Every registered entry at the most players it takes; in every other entry the third seat is
# left unnamed (an anonymous player in BG Stats).
NAMES = {
    key: tuple(
        "" if i == 2 and n % 2 else name
        for i, name in enumerate(("Anna", "Ben", "Chris", "Dmitri", "Emiko")[: info.max_players])
    )
    for n, (key, info) in enumerate(GAMES.items())
}
MOST_PLAYERS = max(GAMES, key=lambda key: GAMES[key].max_players)  # a five-player game
UUID = re.compile(r"[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}")
DATETIME = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d")


# --- the reference shape -----------------------------------------------------------------------


def type_ok(kind: str, value) -> bool:
    """Whether a value has the type the reference names (tests/data: "_types")."""
    if kind == "string":
        return isinstance(value, str)
    if kind == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if kind == "boolean":
        return isinstance(value, bool)
    if kind == "flag":
        return value in (0, 1) and not isinstance(value, bool)
    if kind == "uuid":
        return isinstance(value, str) and UUID.fullmatch(value) is not None
    if kind == "datetime":
        return isinstance(value, str) and DATETIME.fullmatch(value) is not None
    if kind == "ymd":
        return type_ok("integer", value) and 19000101 <= value <= 99991231
    if kind == "json-string":
        return isinstance(value, str) and isinstance(json.loads(value), (list, dict))
    if kind == "array":
        return isinstance(value, list)
    if kind == "object":
        return isinstance(value, dict)
    raise AssertionError(f"no such type in the reference: {kind}")


def shape_problems(obj: dict, shape: dict, where: str) -> list[str]:
    """Every "always" key of the shape present, every key known to it, every value of its type."""
    problems = [
        f"{where}: no {key!r}"
        for key, (_, level) in shape.items()
        if level == "always" and key not in obj
    ]
    for key, value in obj.items():
        if key not in shape:
            problems.append(f"{where}: {key!r} is not a key BG Stats writes")
        elif not type_ok(shape[key][0], value):
            problems.append(f"{where}.{key}: {value!r} is not {shape[key][0]}")
    return problems


def file_problems(data: dict) -> list[str]:
    """Where a play file differs from the shape BG Stats writes (and refs that point nowhere)."""
    shape = REFERENCE["file"]
    problems = shape_problems(data, shape["top"], "file")
    problems += shape_problems(data.get("userInfo", {}), shape["userInfo"], "userInfo")
    ids = {}
    for part, kind in (("players", "player"), ("locations", "location"), ("games", "game")):
        for i, row in enumerate(data.get(part, [])):
            problems += shape_problems(row, shape[kind], f"{part}[{i}]")
        ids[part] = {row["id"] for row in data.get(part, [])}
        if len(ids[part]) != len(data.get(part, [])):
            problems.append(f"{part}: two share an id")
    for i, play in enumerate(data.get("plays", [])):
        problems += shape_problems(play, shape["play"], f"plays[{i}]")
        for j, score in enumerate(play.get("playerScores", [])):
            problems += shape_problems(score, shape["playerScore"], f"plays[{i}].scores[{j}]")
            if score.get("playerRefId") not in ids["players"]:
                problems.append(f"plays[{i}].scores[{j}]: no player {score.get('playerRefId')}")
        if play.get("gameRefId") not in ids["games"]:
            problems.append(f"plays[{i}]: no game {play.get('gameRefId')}")
        if play.get("locationRefId") not in ids["locations"]:
            problems.append(f"plays[{i}]: no location {play.get('locationRefId')}")
    me = data.get("userInfo", {}).get("meRefId")
    if me is not None and me not in ids["players"]:
        problems.append(f"userInfo: no player {me}")
    return problems


def link_data(link: str) -> dict:
    """The play a bgstats:// link carries (its data parameter, URL-decoded)."""
    prefix = REFERENCE["link"]["_prefix"]
    assert link.startswith(prefix), link[:80]
    return json.loads(unquote(link[len(prefix) :]))


def link_problems(data: dict) -> list[str]:
    shape = REFERENCE["link"]
    problems = shape_problems(data, shape["top"], "link")
    problems += shape_problems(data.get("game", {}), shape["game"], "link.game")
    for i, player in enumerate(data.get("players", [])):
        problems += shape_problems(player, shape["player"], f"link.players[{i}]")
    return problems


def test_the_shape_checks_catch_what_bg_stats_would_refuse():
    """The checks themselves: a missing key, a string bggId, a lower-case uuid, a number score
    in a file, an unknown key are all reported."""
    good = {"playerRefId": 1, "score": "4", "winner": True, "rank": 1, "seatOrder": 1}
    good.update(startPlayer=False, newPlayer=False)
    shape = REFERENCE["file"]["playerScore"]
    assert shape_problems(good, shape, "s") == []
    assert shape_problems({**good, "score": 4}, shape, "s") == ["s.score: 4 is not string"]
    missing = dict(good)
    del missing["startPlayer"]
    assert shape_problems(missing, shape, "s") == ["s: no 'startPlayer'"]
    assert shape_problems({**good, "extra": 1}, shape, "s")
    game = REFERENCE["link"]["game"]
    assert shape_problems({"name": "X", "highestWins": True, "noPoints": False}, game, "g") == []
    assert shape_problems(
        {"name": "X", "highestWins": True, "noPoints": False, "bggId": "394"}, game, "g"
    )
    assert not type_ok("uuid", "3b76aee5-4650-55a3-8817-6957488191cb")
    assert not type_ok("flag", True)


# --- playing each game to its end --------------------------------------------------------------


def finish(app, code: str, seed: int = 1) -> None:
    """Play the table's game to its end with the game's random generator, as the host enters it."""
    with app.app_context():
        db = get_db()
        table = tables.get_table(db, code)
        generator = table.game.random_play
        rng = random.Random(f"{code}-{seed}")
        for _ in range(20_000):
            state = tables.state_of(db, table)
            if table.game.rules.result(state) is not None:
                return
            action = generator.next_action(state, rng)
            try:
                tables.act(
                    db, table, action, seat=action.get("seat"), host=True, expected_version=None
                )
            except RuleError:
                pass
    raise AssertionError("the game did not end")


def played(app, client, key: str) -> str:
    code = start_table(client, key, NAMES[key])
    finish(app, code)
    return code


def summary_link(client, code: str, **headers) -> str:
    page = client.get(f"/t/{code}/summary", headers=headers).text
    match = re.search(r'id="bgstats-link" href="([^"]+)"', page)
    assert match, "the summary has no BG Stats button"
    return match.group(1).replace("&amp;", "&")


@pytest.mark.parametrize("key", list(GAMES))
def test_a_file_for_every_game_has_every_key_bg_stats_writes_with_its_type(app, client, key):
    code = played(app, client, key)
    response = client.get(f"/t/{code}/export.bgsplay", headers={"Accept-Language": "ja"})
    assert response.status_code == 200
    assert response.headers["Content-Disposition"].endswith(f'{key}-{code}.bgsplay"')
    data = json.loads(response.data)
    assert file_problems(data) == []
    (game,) = data["games"]
    (play,) = data["plays"]
    info = GAMES[key]
    # The English name whatever the reader's language (a variant's is its game's, with the
    # variant as the board); each game's own figures are checked in its folder (tests/<game>/).
    assert game["name"] == game["bggName"] == info.export_name
    assert game["bggId"] == info.bgg_id
    assert play["board"].startswith(info.variant)
    if not info.variant and not hasattr(info.rules, "variants"):
        assert play["board"] == ""  # nothing to name: no variant, no table options
    assert [s["seatOrder"] for s in play["playerScores"]] == list(range(1, len(NAMES[key]) + 1))
    assert sum(s["startPlayer"] for s in play["playerScores"]) == 1
    assert sum(s["winner"] for s in play["playerScores"]) >= 1
    assert play["playDateYmd"] == int(play["playDate"][:10].replace("-", ""))
    assert data["locations"][0]["name"] == "Table companion"
    assert data["userInfo"] == {}  # the host's device holds no seat: nobody is "me"
    # Unnamed seats are the one anonymous player.
    unnamed = sum(1 for n in NAMES[key] if not n)
    anonymous = [p for p in data["players"] if p["isAnonymous"]]
    assert len(anonymous) == (1 if unnamed else 0)
    assert len(data["players"]) == len([n for n in NAMES[key] if n]) + len(anonymous)


@pytest.mark.parametrize("key", list(GAMES))
def test_the_link_of_every_game_parses_to_the_push_format(app, client, key):
    code = played(app, client, key)
    for lang in ("en", "ru"):
        data = link_data(summary_link(client, code, **{"Accept-Language": lang}))
        assert link_problems(data) == []
        assert data["sourceName"] == "Table companion" and data["sourcePlayId"] == code
        assert data["game"]["name"] == GAMES[key].export_name
        assert len(data["players"]) == len(NAMES[key])
        file = json.loads(client.get(f"/t/{code}/export.bgsplay").data)
        scores = {s["seatOrder"]: s for s in file["plays"][0]["playerScores"]}
        for seat, player in enumerate(data["players"], start=1):
            assert player["winner"] == scores[seat]["winner"]
            assert player["startPlayer"] == scores[seat]["startPlayer"]
            assert player["score"] == eval(scores[seat]["score"])  # the sum of the parts


def test_a_five_player_link_stays_short_enough_for_a_qr_code(app, client):
    """Five players with long names: the link stays well inside what a QR code a phone reads
    from another phone's screen can carry (the browser test decodes it at 360 px)."""
    names = ("Alexandra", "Bartholomew", "Christopher", "Dmitri Ivanov", "Emiko Tanaka")
    code = start_table(client, MOST_PLAYERS, names[: GAMES[MOST_PLAYERS].max_players])
    finish(app, code)
    link = summary_link(client, code)
    assert len(link) < 1300, len(link)
    assert link_problems(link_data(link)) == []


def test_scores_are_the_breakdown_where_its_parts_add_up(app, client):
    """The fixture game's score table is the score's parts (pebbles, secret bonus): BG Stats
    gets each score as their sum, and the comments leave the rows out."""
    code = played(app, client, "pebbles")
    data = json.loads(client.get(f"/t/{code}/export.bgsplay").data)
    csv_rows = client.get(f"/t/{code}/export.csv").text.splitlines()
    for score in data["plays"][0]["playerScores"]:
        assert "+" in score["score"] or "-" in score["score"]
        row = next(r for r in csv_rows[1:] if r.split(",")[3] == str(score["seatOrder"]))
        assert eval(score["score"]) == int(row.split(",")[5])
    assert "Secret bonus" not in data["plays"][0]["comments"]


def test_a_breakdown_that_is_no_sum_of_the_score_goes_to_the_comments():
    """Rows that do not add up to the score (points per round, a tie-break's figures): the
    score is the total, and each player's rows are in the comments, best first."""
    from dataclasses import replace

    from companion.exports import bgstats
    from companion.plays import Play, PlayerResult

    anna = PlayerResult(0, "Anna", True, 4, 1, True, [4, 3])
    ben = PlayerResult(1, "Ben", True, 2, 2, False, [2, 5])
    play = Play("ABCD", "pebbles", 0.0, 60.0, [ben, anna], rows=["Pebbles", "Secret bonus"])
    assert not bgstats.adds_up(play)
    assert [bgstats.score_text(p, play) for p in (anna, ben)] == ["4", "2"]
    lines = bgstats.comments(play).splitlines()
    assert lines[1:] == ["Anna: Pebbles 4, Secret bonus 3", "Ben: Pebbles 2, Secret bonus 5"]
    # The same rows adding up: the sum instead, and no rows in the comments.
    anna, ben = PlayerResult(0, "Anna", True, 7, 1, True, [4, 3]), replace(ben, score=7)
    play = replace(play, players=[ben, anna])
    assert [bgstats.score_text(p, play) for p in (anna, ben)] == ["4+3", "2+5"]
    assert bgstats.comments(play) == "Table companion · ABCD"


def test_the_downloading_phone_is_its_own_player_in_bg_stats(app, client):
    code = start_table(client, "pebbles", ("", ""))
    phone = app.test_client()
    take_seat(phone, code, 1, "Bea")
    finish(app, code)
    data = json.loads(phone.get(f"/t/{code}/export.bgsplay").data)
    assert file_problems(data) == []
    me = next(p for p in data["players"] if p["id"] == data["userInfo"]["meRefId"])
    assert me["name"] == "Bea" and not me["isAnonymous"]
    host = json.loads(client.get(f"/t/{code}/export.bgsplay").data)
    assert host["userInfo"] == {}  # the host's device holds no seat
    assert host["plays"][0]["uuid"] == data["plays"][0]["uuid"]  # one play, whoever downloads


def test_player_ids_are_salted_per_server_and_stable_on_one(tmp_path, app, client):
    def anna_uuid(some_app, some_client) -> str:
        code = start_table(some_client, "pebbles", ("Anna", ""))
        finish(some_app, code)
        data = json.loads(some_client.get(f"/t/{code}/export.bgsplay").data)
        return next(p["uuid"] for p in data["players"] if p["name"] == "Anna")

    first, again = anna_uuid(app, client), anna_uuid(app, client)
    other = create_app(
        {
            "TESTING": True,
            "DATABASE": str(tmp_path / "other.db"),
            "SECRET_KEY": "another",
            "EXTRA_GAMES": ["tests.fixture_game"],
        }
    )
    try:
        elsewhere = anna_uuid(other, other.test_client())
    finally:
        other.extensions["companion.db"].close()
    assert first == again != elsewhere


def _set_times(app, code: str, start: datetime.datetime, step: int) -> None:
    """Store the table's actions `step` seconds apart from `start`, and its end at the last."""
    stamp = start.timestamp()
    with app.app_context():
        db = get_db()
        table = tables.get_table(db, code)
        seqs = [e.seq for e in tables.events(db, table)]
        for i, seq in enumerate(seqs):
            db.execute(
                "UPDATE events SET created = ? WHERE table_id = ? AND seq = ?",
                [stamp + i * step, table.id, seq],
            )
        db.execute(
            "UPDATE tables SET ended = ?, created = ? WHERE id = ?",
            [stamp + (len(seqs) - 1) * step, stamp - 60, table.id],
        )
        db.commit()


def _start_with_zone(client, game: str, names, zone: str) -> str:
    home = client.get("/")
    assert 'name="timezone"' in home.text and 'id="timezone"' in home.text
    data = {"csrf_token": csrf_from(home.text), "game": game, "players": len(names)}
    data["timezone"] = zone
    for i, name in enumerate(names):
        data[f"names-{i}"] = name
    response = client.post("/tables", data=data)
    return re.match(r"/t/(\w+)/", response.headers["Location"]).group(1)


def test_the_play_is_dated_at_the_tables_own_time(app, client):
    """A Tokyo evening stays a Tokyo evening on a server that runs on UTC; a server setting
    overrides the browser's zone; a zone nobody knows is ignored."""
    utc = datetime.datetime(2026, 11, 27, 13, 30, tzinfo=datetime.UTC)  # 22:30 in Tokyo
    code = _start_with_zone(client, "pebbles", ("Anna", "Ben"), "Asia/Tokyo")
    finish(app, code)
    _set_times(app, code, utc, 10)
    play = json.loads(client.get(f"/t/{code}/export.bgsplay").data)["plays"][0]
    assert play["playDate"] == "2026-11-27 22:30:00" and play["playDateYmd"] == 20261127
    events = json.loads(client.get(f"/t/{code}/export.json").data)["events"]
    assert events[0]["created"] == "2026-11-27T22:30:00+09:00"
    assert events[1]["created"] == "2026-11-27T22:30:10+09:00"
    csv_text = client.get(f"/t/{code}/export.csv").text
    assert ",Asia/Tokyo," in csv_text and csv_text.splitlines()[1].startswith("2026-11-27,")

    app.config["TIME_ZONE"] = "America/New_York"
    code = _start_with_zone(client, "pebbles", ("Anna", "Ben"), "Asia/Tokyo")
    finish(app, code)
    _set_times(app, code, utc, 10)
    play = json.loads(client.get(f"/t/{code}/export.bgsplay").data)["plays"][0]
    assert play["playDate"] == "2026-11-27 08:30:00"

    app.config["TIME_ZONE"] = ""
    code = _start_with_zone(client, "pebbles", ("Anna", "Ben"), "Mars/Olympus_Mons")
    with app.app_context():
        assert tables.get_table(get_db(), code).timezone is None


def test_the_host_names_the_place_of_the_play(app, client):
    code = played(app, client, "pebbles")
    page = client.get(f"/t/{code}/summary").text
    assert "Place: Table companion" in visible(page)
    response = client.post(
        f"/t/{code}/location", data={"csrf_token": csrf_from(page), "location": "Anna's kitchen"}
    )
    assert response.status_code == 302 and response.headers["Location"].endswith("#bgstats")
    data = json.loads(client.get(f"/t/{code}/export.bgsplay").data)
    assert [loc["name"] for loc in data["locations"]] == ["Anna's kitchen"]
    assert link_data(summary_link(client, code))["location"] == "Anna's kitchen"
    too_long = client.post(
        f"/t/{code}/location", data={"csrf_token": csrf_from(page), "location": "x" * 61}
    )
    assert too_long.status_code == 400 and "At most 60 characters." in visible(too_long.text)
    assert "Place: Anna's kitchen" in visible(too_long.text)  # nothing saved is lost
    phone = app.test_client()
    take_seat(phone, code, 0)
    token = csrf_from(phone.get(f"/t/{code}/").text)
    response = phone.post(f"/t/{code}/location", data={"csrf_token": token, "location": "Mine"})
    assert response.status_code == 403
    assert 'id="place-form"' not in phone.get(f"/t/{code}/summary").text


# --- the pure pieces ------------------------------------------------------------------------------


def test_clocks_and_zones():
    from companion import localtime

    assert [localtime.clock(s) for s in (None, 0, 42.4, 725, 3723)] == [
        "",
        "0:00",
        "0:42",
        "12:05",
        "1:02:03",
    ]
    assert localtime.valid_zone("Asia/Tokyo") == "Asia/Tokyo"
    assert localtime.valid_zone("../etc/passwd") is None and localtime.valid_zone("") is None
    moment = datetime.datetime(2026, 11, 27, 13, 30, tzinfo=datetime.UTC).timestamp()
    assert localtime.wall(moment, "Asia/Tokyo") == "2026-11-27 22:30:00"
    assert localtime.iso(moment, "Europe/Moscow") == "2026-11-27T16:30:00+03:00"

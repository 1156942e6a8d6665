"""Adding past plays (/plays/import): a BG Stats export or BGG's plays XML is read, previewed
and, once the person confirms, kept under the importing device's id; the plays then count on
/plays, /stats, the player pages and head to head with the plays made here.

The games here are the test game (Pebbles) and games the app does not have; the reader and the
matching are the same for every game (each game's own tests bring a file of its plays)."""

from __future__ import annotations

import io
import json
import random
import re

import pytest

from companion import get_db, tables
from tests.helpers import csrf_from, play_to_end, visible
from tests.support.bgstats_export import Export
from tests.support.forms import start_table


def backup() -> Export:
    """A backup: Pebbles (by name) and two games the app does not have; Anna (the owner, with a
    uuid), Boris (with one), Chris (written without a uuid, as old files have), an anonymous
    player; a deleted play, an ignored play, a score written as a sum."""
    e = Export()
    anna = e.player("Anna")
    boris = e.player("Boris")
    chris = e.player("Chris", uid=None)
    anon = e.player("Anonymous player", anonymous=True)
    e.me = anna
    home = e.location("Home")
    pebbles = e.game("Pebbles")
    catan = e.game("Catan", 13)
    azul = e.game("Azul", 230802)
    e.play(
        pebbles,
        "2024-05-01 20:15:00",
        [(anna, "10+3+0", True), (boris, "7", False)],
        place=home,
        minutes=40,
    )
    e.play(
        pebbles,
        "2024-05-02 21:00:00",
        [(boris, "9", True), (chris, "4", False), (anon, "2", False)],
    )
    e.play(pebbles, "2024-05-03 19:00:00", [(anna, "5", False), (chris, "8", True)], minutes=25)
    gone = e.play(pebbles, "2024-05-04 19:00:00", [(anna, "1", True)])
    e.delete(gone)
    e.play(pebbles, "2024-05-05 19:00:00", [(anna, "1", True)], ignored=True)
    e.play(catan, "2024-05-06 19:00:00", [(anna, "10", True), (boris, "8", False)])
    e.play(azul, "2024-05-07 19:00:00", [(anna, "60", False), (boris, "72", True)])
    return e


def upload(client, *files: tuple[bytes, str]):
    page = client.get("/plays/import")
    return client.post(
        "/plays/import",
        data={
            "csrf_token": csrf_from(page.text),
            "file": [(io.BytesIO(data), name) for data, name in files],
        },
        content_type="multipart/form-data",
    )


def preview(client, data: bytes, name: str = "backup.json"):
    """Upload and follow to the preview; (its address, its page)."""
    sent = upload(client, (data, name))
    assert sent.status_code == 302, visible(sent.text)
    address = sent.headers["Location"]
    return address, client.get(address)


def confirm(client, address: str, page, **fields):
    """Press "Add" on the preview with its form as shown, and these fields changed."""
    form = form_fields(page.text)
    form.update(fields)
    return client.post(address, data={**form, "do": "import"})


def form_fields(html: str) -> dict:
    """The preview form's fields as a browser would send them unchanged."""
    form = html.split('id="import-form"')[1].split("</form>")[0]
    data = {"csrf_token": csrf_from(html)}
    for select in re.finditer(r'<select id="[^"]+" name="([^"]+)">(.*?)</select>', form, re.S):
        chosen = re.search(r'<option value="([^"]*)" selected>', select.group(2))
        data[select.group(1)] = chosen.group(1) if chosen else ""
    for radio in re.finditer(r'<input type="radio" name="([^"]+)" value="([^"]+)" checked>', form):
        data[radio.group(1)] = radio.group(2)
    return data


def finish_with(app, client, names: tuple[str, ...], seed: int = 3) -> str:
    """A Pebbles table of these names played to its end by the host's device (client)."""
    code = start_table(client, "pebbles", names)
    with app.app_context():
        db = get_db()
        play_to_end(db, tables.get_table(db, code), random.Random(seed))
    return code


def summary(html: str) -> str:
    said = visible(html.split('id="import-summary">')[1].split("</ul>")[0])
    return re.sub(r"\s+([:,.])", r"\1", said)


def test_the_preview_counts_what_the_file_holds_and_writes_nothing(client):
    address, page = preview(client, backup().bytes())
    assert page.status_code == 200
    said = summary(page.text)
    assert "3 new plays of these games: Pebbles 3" in said
    assert "2 plays marked ignored or deleted in BG Stats: left out." in said
    assert "Places: Home" in said
    assert "Catan · 1 play" in visible(page.text) and "Azul · 1 play" in visible(page.text)
    # The owner (userInfo.meRefId) is who the preview takes for the person importing.
    assert re.search(r'<option value="uuid:[^"]+" selected>Anna</option>', page.text)
    assert "No finished game yet." in client.get("/plays").text  # nothing written yet


@pytest.mark.both_stores
def test_the_plays_join_the_record_the_stats_and_the_player_pages(client):
    address, page = preview(client, backup().bytes())
    done = confirm(client, address, page)
    assert done.status_code == 302 and "imported=3" in done.headers["Location"]
    listed = visible(client.get(done.headers["Location"]).text)
    assert "3 plays added to the record." in listed
    assert listed.count("Imported from BG Stats") == 3
    assert "★ Anna 13" in listed  # "10+3+0", summed
    assert "40 minutes" in listed and "Home" in listed
    stats = visible(client.get("/stats").text)
    assert "Anna" in stats and "Boris" in stats and "Chris" in stats
    assert "Anonymous" not in stats  # an anonymous player is nobody's figures
    anna = visible(client.get("/player?name=anna").text)
    assert "2 games played" in anna and "1 win" in anna
    assert re.search(r"Boris 1 1 : 0", anna) and re.search(r"Chris 1 0 : 1", anna)


@pytest.mark.both_stores
def test_importing_the_same_file_again_adds_nothing(client):
    address, page = preview(client, backup().bytes())
    confirm(client, address, page)
    again, page = preview(client, backup().bytes())
    said = summary(page.text)
    assert "0 new plays" in said and "3 plays are here already: not added again." in said
    done = confirm(client, again, page)
    assert "imported=0" in done.headers["Location"]
    assert visible(client.get("/plays").text).count("Imported from BG Stats") == 3


def test_imports_belong_to_the_device_that_imported_them(app, client):
    address, page = preview(client, backup().bytes())
    confirm(client, address, page)
    other = app.test_client()
    assert "No finished game yet." in other.get("/plays").text
    assert "Anna" not in visible(other.get("/stats").text)


def test_a_players_match_is_asked_remembered_and_used_on_the_player_page(app, client):
    finish_with(app, client, ("Anya", "Ben"))
    address, page = preview(client, backup().bytes())
    rows = {
        m.group(2): m.group(1)
        for m in re.finditer(
            r'name="(player:[^"]+)">\s*<option value="">A new person: ([^<]+)</option>', page.text
        )
    }
    assert set(rows) == {"Anna", "Boris", "Chris"}
    # Anna of the file is Anya here; Boris is Ben.
    done = confirm(client, address, page, **{rows["Anna"]: "Anya", rows["Boris"]: "Ben"})
    assert done.status_code == 302
    anya = visible(client.get("/player?name=Anya").text)
    assert "3 games played" in anya  # one here, two imported
    assert re.search(r"Ben 2 ", anya)  # head to head across both
    assert "No finished game" in client.get("/player?name=Anna").text
    # The next import of another file with Anna remembers the choice (by her uuid).
    e = backup()
    e.plays = [p for p in e.plays if p["gameRefId"] == 1][:1]
    e.plays[0]["uuid"] = "NEW-PLAY"
    _, page = preview(client, e.bytes())
    assert re.search(
        rf'name="{re.escape(rows["Anna"])}">.*?<option value="Anya" selected>', page.text, re.S
    )


def test_a_name_like_one_here_is_that_person_without_asking(app, client):
    finish_with(app, client, ("boris", "Dana"))
    _, page = preview(client, backup().bytes())
    assert re.search(r'<option value="boris" selected>Same person as boris</option>', page.text)
    assert "Matched by name." in visible(page.text)


@pytest.mark.both_stores
def test_a_possible_duplicate_is_shown_and_skipped_unless_the_person_adds_it(app, client):
    code = finish_with(app, client, ("Anna", "Boris"))
    with app.app_context():
        db = get_db()
        ended = tables.get_table(db, code).ended
    import datetime as dt

    day = dt.datetime.fromtimestamp(ended).strftime("%Y-%m-%d")
    e = backup()
    e.play(1, f"{day} 10:00:00", [(1, "3", True), (2, "1", False)], key="same-evening")
    address, page = preview(client, e.bytes())
    dupes = visible(page.text.split('id="import-duplicates"')[1].split("</fieldset>")[0])
    assert "Pebbles" in dupes and "Anna 3 · Boris 1" in dupes
    assert "Add 3 plays" in visible(page.text)  # the duplicate is skipped by default
    done = confirm(client, address, page)
    assert "imported=3" in done.headers["Location"]
    # Brought again and added: it is another play after all.
    address, page = preview(client, e.bytes())
    field = re.search(r'name="(dup:[^"]+)" value="add"', page.text).group(1)
    assert "imported=1" in confirm(client, address, page, **{field: "add"}).headers["Location"]


def test_a_game_the_app_did_not_recognise_may_be_matched_and_is_remembered(client):
    e = backup()
    e.games[0]["name"] = e.games[0]["bggName"] = "Kiesel"  # Pebbles under another name
    address, page = preview(client, e.bytes())
    assert "0 new plays" in summary(page.text)
    select = re.search(r'<label for="(game-\d)">Kiesel', page.text).group(1)
    name = re.search(rf'<select id="{select}" name="([^"]+)"', page.text).group(1)
    updated = client.post(address, data={**form_fields(page.text), name: "pebbles", "do": "update"})
    assert "3 new plays of these games: Pebbles 3" in summary(updated.text)
    assert "imported=3" in confirm(client, address, updated).headers["Location"]
    e.plays[0]["uuid"] = "ANOTHER"
    _, page = preview(client, e.bytes())
    assert "1 new play of these games: Pebbles 1" in summary(page.text)  # remembered


def test_the_record_exported_and_brought_back_round_trips(app, client):
    finish_with(app, client, ("Anna", "Ben"))
    address, page = preview(client, backup().bytes())
    confirm(client, address, page)
    exported = client.get("/plays/export.bgsplay").get_data()
    data = json.loads(exported)
    assert len(data["plays"]) == 4
    imported = [p for p in data["plays"] if not p["comments"].startswith("Table companion")]
    summed = [s["score"] for p in imported for s in p["playerScores"] if "+" in s["score"]]
    assert summed == ["10+3+0"]  # the sum as it was written
    # The same device: everything is here already.
    _, page = preview(client, exported, "plays.bgsplay")
    assert "4 plays are here already" in summary(page.text) and "0 new plays" in summary(page.text)
    # Another device brings it: the same plays, players and scores.
    other = app.test_client()
    address, page = preview(other, exported, "plays.bgsplay")
    assert "4 new plays of these games: Pebbles 4" in summary(page.text)
    confirm(other, address, page)
    again = json.loads(other.get("/plays/export.bgsplay").get_data())

    def plays_of(file):
        players = {p["id"]: (p["uuid"], p["name"]) for p in file["players"]}
        return sorted(
            (
                p["uuid"],
                p["playDate"],
                p["durationMin"],
                tuple(
                    (players[s["playerRefId"]], s["score"], s["winner"]) for s in p["playerScores"]
                ),
            )
            for p in file["plays"]
        )

    assert plays_of(again) == plays_of(data)
    _, page = preview(other, json.dumps(again).encode(), "again.bgsplay")
    assert "0 new plays" in summary(page.text)


BGG = b"""<?xml version="1.0" encoding="utf-8"?>
<plays username="anna" userid="1" total="2" page="1">
  <play id="9001" date="2023-02-01" quantity="1" length="30" incomplete="0" nowinstats="0" location="Club">
    <item name="Pebbles" objecttype="thing" objectid="5555"/>
    <comments>close game</comments>
    <players>
      <player username="anna" userid="1" name="Anna" startposition="1" score="10+2" win="1"/>
      <player username="" userid="0" name="Boris" startposition="2" score="8" win="0"/>
    </players>
  </play>
  <play id="9002" date="2023-02-02" quantity="1" length="0" location="">
    <item name="Catan" objecttype="thing" objectid="13"/>
  </play>
</plays>"""


def test_bgg_plays_import_once(client):
    address, page = preview(client, BGG, "plays.xml")
    assert "1 new play of these games: Pebbles 1" in summary(page.text)
    assert "Catan · 1 play" in visible(page.text)
    confirm(client, address, page)
    listed = visible(client.get("/plays").text)
    assert "Imported from BoardGameGeek" in listed and "★ Anna 12" in listed and "Club" in listed
    _, page = preview(client, BGG, "plays.xml")
    assert "0 new plays" in summary(page.text)


@pytest.mark.parametrize(
    "data,said",
    [
        (b"", "The file is empty."),
        (b"hello", "neither a BG Stats export"),
        (b'{"plays": 3}', "not a BG Stats export"),
        (b"<html><body>login</body></html>", "not BGG"),
        (
            b'<?xml version="1.0"?><!DOCTYPE plays [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;">]>'
            b'<plays><play id="1" date="2023-01-01"><item name="&b;" objectid="1"/></play></plays>',
            "entities",
        ),
        (
            b'<?xml version="1.0"?><!DOCTYPE plays [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
            b"<plays>&x;</plays>",
            "entities",
        ),
    ],
)
def test_a_bad_file_is_refused_with_its_reason_and_writes_nothing(client, data, said):
    refused = upload(client, (data, "f.json"))
    assert refused.status_code == 400
    alert = visible(refused.text.split('id="import-error"')[1].split("</p>")[0])
    assert said in alert and "Nothing was added." in alert
    assert "No finished game yet." in client.get("/plays").text


def test_a_broken_play_of_our_game_refuses_the_whole_file(client):
    e = backup()
    e.plays[0]["playDate"] = "1066-10-14 10:00:00"
    refused = upload(client, (e.bytes(), "backup.json"))
    assert refused.status_code == 400 and "1066-10-14" in visible(refused.text)
    e = backup()
    e.plays[1]["playerScores"][0]["score"] = "=1+1"
    assert "=1+1" in visible(upload(client, (e.bytes(), "backup.json")).text)


def test_the_upload_has_its_own_size_limit_and_every_other_body_keeps_64_kb(client):
    big = b"{" + b" " * (10 * 1024 * 1024) + b"}"
    refused = upload(client, (big, "big.json"))
    assert refused.status_code == 400 and "over 10 MB" in visible(refused.text)
    huge = upload(client, (big + b" " * (2 * 1024 * 1024), "huge.json"))
    assert huge.status_code == 413  # refused before the body is read
    fits = b'{"plays": []' + b"\n " * (100 * 1024) + b"}"  # over 64 KB, under 10 MB: read
    assert upload(client, (fits, "empty.json")).status_code == 302
    page = client.get("/")
    other = client.post("/tables", data={"csrf_token": csrf_from(page.text), "x": "y" * 70_000})
    assert other.status_code == 413


def test_a_preview_is_the_devices_own(app, client):
    address, _ = preview(client, backup().bytes())
    stranger = app.test_client()
    stranger.get("/plays/import")
    assert stranger.get(address).status_code == 302  # back to the upload form
    # A draft number no database integer holds is no draft either (not a server error).
    for huge in ("/plays/import/99999999999999999999", "/plays/import/0"):
        assert client.get(huge).status_code == 302
        assert client.post(huge, data={"do": "import"}).status_code in (302, 400)


def test_the_imported_plays_can_be_removed(client):
    address, page = preview(client, backup().bytes())
    confirm(client, address, page)
    form = client.get("/plays/import")
    assert "3 plays imported." in visible(form.text)
    client.post("/plays/import/forget", data={"csrf_token": csrf_from(form.text)})
    assert "Imported from" in client.get("/plays").text  # not ticked: nothing removed
    client.post("/plays/import/forget", data={"csrf_token": csrf_from(form.text), "sure": "1"})
    assert "Imported from" not in client.get("/plays").text

"""Trust: the device's table list, the record of plays, links and error pages cannot be forged or
abused (the signed list, one visibility rule for a finished play, error pages that never raise
or echo, the rematch follow link, the join QR image, cache headers, undone secrets withheld from
exports, and the wrong-code limit per device)."""

from __future__ import annotations

import json
import re
import time

import pytest

from companion import get_db, tables
from companion.web import device
from tests.helpers import HX, csrf_from, post_from, start_table, take_seat

CODE_IN_LIST = re.compile(r'class="my-table" href="/t/(\w+)/"')


def signed_list(app, value: str) -> str:
    """The cookie the app itself would write for this list."""
    with app.test_request_context():
        return device._signer("tables").sign(value).decode()


def listed_codes(client) -> list[str]:
    return CODE_IN_LIST.findall(client.get("/").text)


# --- 1. the signed list ----------------------------------------------------------------------------


def test_a_forged_or_tampered_list_shows_no_table(app, client):
    code = start_table(client)
    assert listed_codes(client) == [code]  # the host's own device lists it
    stranger = app.test_client()
    for forged in (
        f"{code}:h",  # the old unsigned form
        f"{code}:h.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",  # a made-up signature
        signed_list(app, "ZZZZ222:h").replace("ZZZZ222", code),  # a signed list, code changed
    ):
        stranger.set_cookie("tables", forged)
        assert listed_codes(stranger) == []
        assert code not in stranger.get("/").text
    stranger.set_cookie("my_tables", f"{code}:h,{code}:s")  # the list of before the signing
    assert code not in stranger.get("/").text


def test_a_forged_list_gives_no_seat_shortcut(app, client):
    code = start_table(client)
    stranger = app.test_client()
    stranger.set_cookie("tables", f"{code}:s")
    page = stranger.get("/")
    response = stranger.post("/join", data={"csrf_token": csrf_from(page.text), "code": code})
    assert response.headers["Location"].endswith(f"/t/{code}/join")


def test_a_huge_list_is_answered_fast_with_small_headers(app, client):
    start_table(client)
    stranger = app.test_client()
    codes = ",".join(f"Z{i:06d}:hs" for i in range(2000))  # about 20 KB
    for value in (codes, signed_list(app, codes[:1900])):
        stranger.set_cookie("tables", value)
        started = time.perf_counter()
        response = stranger.get("/")
        elapsed = time.perf_counter() - started
        assert response.status_code == 200 and elapsed < 0.5, elapsed
        header_bytes = sum(len(k) + len(v) + 4 for k, v in response.headers.items())
        assert header_bytes < 8192, header_bytes
        assert len(response.headers.getlist("Set-Cookie")) <= 2


def test_the_list_is_written_once_per_answer_and_reads_at_most_the_kept_entries(app):
    host = app.test_client()
    codes = [start_table(host) for _ in range(3)]
    response = host.get(f"/t/{codes[0]}/")
    assert len([c for c in response.headers.getlist("Set-Cookie") if c.startswith("tables=")]) <= 1
    assert sorted(listed_codes(host)) == sorted(codes)
    many = ",".join(f"Z{i:06d}:s" for i in range(device.LIST_KEPT + 50))
    with app.test_request_context(headers={"Cookie": f"tables={signed_list(app, many)}"}):
        assert len(device.listed()) <= device.LIST_KEPT


def test_an_old_list_comes_back_signed_as_the_device_opens_its_tables(app, client):
    code = start_table(client)
    phone = app.test_client()
    take_seat(phone, code, 1)
    # The device as it was before the signing: its unsigned list, its seat and host cookies.
    phone.delete_cookie("tables")
    phone.set_cookie("my_tables", f"{code}:s")
    assert listed_codes(phone) == []  # not shown until verified
    assert "You are Ben." in phone.get(f"/t/{code}/").text  # the seat token holds
    assert listed_codes(phone) == [code]  # written back, signed


def test_a_freed_seat_leaves_the_phones_list(app, client):
    code = start_table(client)
    phone = app.test_client()
    take_seat(phone, code, 1)
    assert listed_codes(phone) == [code]
    post_from(client, f"/t/{code}/", f"/t/{code}/host/free/1", htmx=False)
    phone.get(f"/t/{code}/")
    assert listed_codes(phone) == []


# --- 2. one rule for a finished play -------------------------------------------------------------


def test_plays_stats_and_summary_follow_one_rule(app, client):
    from tests import test_after_the_game as after

    with pytest.MonkeyPatch.context() as mp:
        _register_race(mp)
        code = start_table(client, "race", ("Anna", "Ben"))
        phone = app.test_client()
        take_seat(phone, code, 1)
        after.play(client, code, (0, 9), (1, 1), (0, 1))
        for member in (client, phone):
            assert "Anna" in member.get("/plays").text and "Anna" in member.get("/stats").text
            assert member.get(f"/t/{code}/summary").status_code == 200
        # A phone whose seat cookie expired keeps the play: its signed list holds the table.
        phone.delete_cookie(f"seat_{code}", path=f"/t/{code}")
        assert "Anna" in phone.get("/plays").text
        assert phone.get(f"/t/{code}/summary").status_code == 200
        assert phone.get(f"/t/{code}/export.csv").status_code == 200
        # A device that only claims the table sees nothing of it.
        stranger = app.test_client()
        stranger.set_cookie("tables", f"{code}:s")
        for path in ("/plays", "/stats"):
            text = stranger.get(path).text
            assert code not in text and "Anna" not in text
        for path in ("summary", "export.json", "export.csv", "export.txt", "export.bgsplay"):
            assert stranger.get(f"/t/{code}/{path}").status_code == 404, path
        # Unless the server opens the record to everyone.
        app.config["OPEN_STATS"] = True
        assert "Anna" in stranger.get("/plays").text
        assert stranger.get(f"/t/{code}/summary").status_code == 200


# --- 3. error pages -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "method,path,body",
    [
        ("GET", "/?" + "q" * 5000, None),
        ("POST", "/tables", b"x" * (70 * 1024)),
        ("GET", "/t/ABCDEFG/?" + "x" * 5000, None),
        ("GET", "/nope", None),
    ],
)
def test_a_bad_host_with_an_oversized_request_gets_a_plain_error_page(client, method, path, body):
    response = client.open(
        path, method=method, data=body, headers={"Host": "h" * 300 + "!"}, content_type="text/plain"
    )
    assert response.status_code in (400, 404, 413, 414)
    assert "Traceback" not in response.text and len(response.data) < 16384
    assert "q" * 100 not in response.text and "x" * 100 not in response.text


def test_a_huge_address_is_not_echoed(client):
    response = client.get("/rules/?" + "a" * 200_000)
    assert response.status_code == 414
    assert len(response.data) < 16384 and "a" * 100 not in response.text
    assert 'href="/lang/ja?next=/"' in response.text
    header_bytes = sum(len(k) + len(v) + 4 for k, v in response.headers.items())
    assert header_bytes < 8192


def test_language_links_keep_the_page_unless_its_address_is_long(client):
    page = client.get("/rules/?q=bid")
    assert 'href="/lang/ja?next=/rules/?q%3Dbid"' in page.text
    long = client.get("/rules/?q=" + "a" * 4090)
    assert long.status_code == 200 and 'href="/lang/ja?next=/"' in long.text


def test_an_error_page_leads_its_language_links_home(client):
    response = client.get("/nope/" + "z" * 300)
    assert response.status_code == 404 and "z" * 50 not in response.text
    assert 'href="/lang/ru?next=/"' in response.text


# --- 4. the rematch follow link -------------------------------------------------------------------


def test_following_a_rematch_is_for_the_devices_that_were_at_the_table(app, client):
    from tests import test_after_the_game as after

    with pytest.MonkeyPatch.context() as mp:
        _register_race(mp)
        code = start_table(client, "race", ("Anna", "Ben"))
        phone, other = app.test_client(), app.test_client()
        take_seat(phone, code, 1)
        other_code = start_table(other, "race", ("Xena", "Yuri"))
        # The display link of the old table, made by the host.
        page = client.get(f"/t/{code}/").text
        shown = client.post(
            f"/t/{code}/host/display", data={"csrf_token": csrf_from(page)}, headers=HX
        ).text
        key = re.search(r"/display/\?key=([\w-]+)", shown).group(1)
        after.play(client, code, (0, 9), (1, 1), (0, 1))
        post_from(client, f"/t/{code}/", f"/t/{code}/rematch", htmx=False)
        new = tables_rematch_code(app, code)
        # A stranger and another table's phone get the answer of an unknown table.
        for device_ in (app.test_client(), other):
            response = device_.get(f"/t/{code}/rematch/follow")
            assert response.status_code == 404 and new not in response.text
            assert new not in response.headers.get("Location", "")
        assert other.get(f"/t/{other_code}/").status_code == 200
        # The seated phone goes to its seat, the host to the new table, the display to a display.
        assert phone.get(f"/t/{code}/rematch/follow").headers["Location"].endswith(f"/t/{new}/")
        assert "You are Ben." in phone.get(f"/t/{new}/").text
        assert client.get(f"/t/{code}/rematch/follow").headers["Location"].endswith(f"/t/{new}/")
        screen = app.test_client()
        first = screen.get(f"/t/{code}/rematch/follow?key={key}").headers["Location"]
        again = screen.get(f"/t/{code}/rematch/follow?key={key}").headers["Location"]
        assert first == again and f"/t/{new}/display/?key=" in first
        assert screen.get(first).status_code == 200
        assert screen.get(f"/t/{code}/rematch/follow?key=wrong").status_code == 404


def test_a_phone_whose_rematch_seat_is_taken_is_told_why(app, client):
    with pytest.MonkeyPatch.context() as mp:
        _register_race(mp)
        from tests import test_after_the_game as after

        code = start_table(client, "race", ("Anna", "Ben"))
        phone = app.test_client()
        take_seat(phone, code, 1)
        after.play(client, code, (0, 9), (1, 1), (0, 1))
        post_from(client, f"/t/{code}/", f"/t/{code}/rematch", htmx=False)
        new = tables_rematch_code(app, code)
        take_seat(app.test_client(), new, 1)  # someone else sits in Ben's new seat
        response = phone.get(f"/t/{code}/rematch/follow", follow_redirects=True)
        assert response.status_code == 409 and "already taken" in response.text
        # A locked rematch says so.
        phone2 = app.test_client()
        code2 = start_table(client, "race", ("Anna", "Ben"))
        take_seat(phone2, code2, 1)
        after.play(client, code2, (0, 9), (1, 1), (0, 1))
        post_from(client, f"/t/{code2}/", f"/t/{code2}/rematch", htmx=False)
        new2 = tables_rematch_code(app, code2)
        post_from(client, f"/t/{new2}/", f"/t/{new2}/host/lock", htmx=False)
        response = phone2.get(f"/t/{code2}/rematch/follow")
        assert response.status_code == 403 and "locked" in response.text


def _register_race(mp) -> None:
    import sys
    import types

    from companion.games import GAMES
    from companion.games.base import GameInfo
    from tests import test_after_the_game as after

    package = types.ModuleType("companion.games.test_race")
    mp.setitem(sys.modules, "companion.games.test_race", package)
    mp.setitem(sys.modules, "companion.games.test_race.rules", after.race)
    mp.setitem(sys.modules, "companion.games.test_race.web", after.web)
    mp.setitem(sys.modules, "companion.games.test_race.privacy", after.privacy)
    mp.setitem(GAMES, "race", GameInfo("race", "Race", "companion.games.test_race", 2, 4))


def tables_rematch_code(app, code: str) -> str:
    with app.app_context():
        return tables.get_table(get_db(), code).rematch_code


# --- 5. the join QR image -------------------------------------------------------------------------


def qr_address(page: str) -> str:
    return re.search(r'src="(/t/\w+/qr\.svg\?k=[^"]+)"', page).group(1).replace("&amp;", "&")


def test_the_qr_image_is_for_members_and_the_current_join_link_only(app, client):
    code = start_table(client)
    phone = app.test_client()
    take_seat(phone, code, 1)
    address = qr_address(client.get(f"/t/{code}/").text)
    assert qr_address(phone.get(f"/t/{code}/").text) == address  # the phone's Invite panel
    for member in (client, phone):
        answer = member.get(address)
        assert answer.status_code == 200 and answer.mimetype == "image/svg+xml"
        assert answer.headers["Cache-Control"] == "no-store"
    assert app.test_client().get(address).status_code == 404  # a stranger
    assert client.get(f"/t/{code}/qr.svg").status_code == 404  # no k
    # A new join link: the old image's address answers 404.
    post_from(client, f"/t/{code}/", f"/t/{code}/host/join-link", htmx=False)
    assert client.get(address).status_code == 404
    address = qr_address(client.get(f"/t/{code}/").text)
    assert client.get(address).status_code == 200
    # Locked: no image for anyone.
    post_from(client, f"/t/{code}/", f"/t/{code}/host/lock", htmx=False)
    assert client.get(address).status_code == 404 and phone.get(address).status_code == 404


# --- 6. cache headers -----------------------------------------------------------------------------


def test_every_private_page_says_no_store(app, client):
    code = start_table(client)
    phone = app.test_client()
    take_seat(phone, code, 1)
    page = client.get(f"/t/{code}/").text
    for path in (
        f"/t/{code}/",
        f"/t/{code}/live?v=0",
        f"/t/{code}/history",
        f"/t/{code}/seats",
        f"/t/{code}/summary",
        f"/t/{code}/export.json",
        "/",
        "/plays",
        "/stats",
    ):
        for device_, headers in ((client, {}), (phone, HX)):
            response = device_.get(path, headers=headers)
            assert response.headers.get("Cache-Control") == "no-store", path
            assert "HX-Request" in response.headers.get("Vary", ""), path
    assert page  # the host's page was rendered with the same rules


# --- 7. an undone secret is withheld from the exports ---------------------------------------------


def test_an_undone_secret_keeps_its_value_out_of_the_export(app, client):
    code = start_table(client, "pebbles", ("Anna", "Ben"))
    with app.app_context():
        db = get_db()
        table = tables.get_table(db, code)
        act = lambda seat, **action: tables.act(  # noqa: E731
            db, table, action, seat=seat, host=False, expected_version=None
        )
        act(0, type="secret", number=7)
        tables.undo(db, table, seat=None, host=True, expected_version=None)
        act(0, type="secret", number=3)
        seat = 0
        while table.game.rules.result(tables.state_of(db, table)) is None:
            act(seat, type="take", n=min(3, tables.state_of(db, table)["pile"]))
            seat = 1 - seat
    data = json.loads(client.get(f"/t/{code}/export.json").text)
    undone = [e for e in data["events"] if e["undone"]]
    assert len(undone) == 1
    assert undone[0]["action"] == {"type": "secret", "seat": 0, "host": False, "withheld": True}
    secrets = [e for e in data["events"] if e["action"]["type"] == "secret" and not e["undone"]]
    assert secrets[0]["action"]["number"] == 3  # public once the game is over


# --- 8. the wrong-code limit ------------------------------------------------------------------------


def test_the_display_link_and_a_real_code_pass_a_guessers_limit(app, client):
    code = start_table(client)
    page = client.get(f"/t/{code}/").text
    shown = client.post(f"/t/{code}/host/display", data={"csrf_token": csrf_from(page)}, headers=HX)
    key = re.search(r"/display/\?key=([\w-]+)", shown.text).group(1)
    guesser = app.test_client()  # every test client shares one address: one café Wi-Fi
    guesser.get("/")
    for i in range(25):
        guesser.get(f"/t/ZZZZ{i:03d}/")
    assert guesser.get(f"/t/{code}/join").status_code == 429
    tv = app.test_client()
    assert tv.get(f"/t/{code}/display/?key={key}").status_code == 200
    assert guesser.get(f"/t/{code}/display/?key={key}").status_code == 200  # the key passes
    person = app.test_client()
    home = person.get("/")
    typed = person.post("/join", data={"csrf_token": csrf_from(home.text), "code": code})
    assert typed.status_code == 302 and typed.headers["Location"].endswith(f"/t/{code}/join")
    assert person.get(f"/t/{code}/join").status_code == 200


def test_every_play_in_the_record_opens_for_the_devices_it_is_listed_for(app, client):
    from tests import test_after_the_game as after

    with pytest.MonkeyPatch.context() as mp:
        _register_race(mp)
        code = start_table(client, "race", ("Anna", "Ben"))
        phone = app.test_client()
        take_seat(phone, code, 1)
        after.play(client, code, (0, 9), (1, 1), (0, 1))
        listed = client.get("/plays").text
        assert f'href="/plays/{code}"' in listed
        # While the table exists the play opens on its summary, also after the seat expired.
        phone.delete_cookie(f"seat_{code}", path=f"/t/{code}")
        for device_ in (client, phone):
            response = device_.get(f"/plays/{code}", follow_redirects=True)
            assert response.status_code == 200 and "Anna" in response.text
        # Purged: the record's own page and its exports.
        runner = app.test_cli_runner()
        runner.invoke(args=["purge", "--finished-days", "0"])
        page = phone.get(f"/plays/{code}")
        assert page.status_code == 200 and "★ Anna" in page.text and "removed" in page.text
        assert "Anna" in phone.get(f"/plays/{code}/export.csv").text
        assert '"playerScores"' in phone.get(f"/plays/{code}/export.bgsplay").text
        # A device the record is not listed for gets nothing of it.
        stranger = app.test_client()
        stranger.set_cookie("tables", f"{code}:s")
        for path in ("", "/export.csv", "/export.bgsplay"):
            assert stranger.get(f"/plays/{code}{path}").status_code == 404


@pytest.mark.parametrize(
    "path",
    [
        "host/lock",
        "host/reveal",
        "host/free/1",
        "host/rename/1",
        "host/handover",
        "host/take",
        "host/display",
        "host/stay",
        "host/leave",
        "host/join-link",
        "display/leave",
        "replay/display",
        "location",
        "rematch",
        "note",
        "undo",
    ],
)
def test_every_table_post_without_its_form_token_is_refused_and_changes_nothing(app, path):
    """CSRF is checked for every POST before any view runs (CSRFProtect): the views carry no
    check of their own, and none is needed."""
    from tests.helpers import TableDriver

    table = TableDriver(app, "pebbles", ("Anna", "Ben"))
    before = table.snapshot(), table.version()
    answer = table.host.post(f"/t/{table.code}/{path}", data={"name": "X", "all": "1"})
    assert answer.status_code == 400, (path, answer.status_code)
    assert (table.snapshot(), table.version()) == before

"""The host hands the role over: a seated phone that takes it keeps its seat's view, and the
device that handed over is told so and may stay at the table as its display (the table device),
which sees only what the display sees and enters only what anyone at the table may enter."""

from __future__ import annotations

import html as htmllib
import random
import re

from companion import get_db, tables
from tests.helpers import HX, TableDriver, csrf_from, play_to_end, post_from, visible
from tests.support.pages import without_clock


def hand_over(t: TableDriver, to) -> None:
    """The host makes a hand-over link and the device `to` takes the role with it."""
    response = post_from(t.host, f"/t/{t.code}/", f"/t/{t.code}/host/handover")
    link = re.search(
        r'<p class="join-url"><a href="http[^"]*(/t/[^"]*/host/take[^"]*)"', response.text
    )
    link = htmllib.unescape(link.group(1))
    page = to.get(link)
    token = re.search(r'name="token" value="([^"]+)"', page.text).group(1)
    response = to.post(
        f"/t/{t.code}/host/take", data={"csrf_token": csrf_from(page.text), "token": token}
    )
    assert response.status_code == 302, response.text


def stay(t: TableDriver, device) -> None:
    """The device that handed over stays as the table display."""
    page = device.get(f"/t/{t.code}/host/handed")
    assert page.status_code == 200
    response = device.post(f"/t/{t.code}/host/stay", data={"csrf_token": csrf_from(page.text)})
    assert response.status_code == 302 and response.headers["Location"].endswith("/display/")


def events(t: TableDriver) -> list[tables.Event]:
    with t.app.app_context():
        db = get_db()
        return tables.events(db, tables.get_table(db, t.code))


def test_a_seated_phone_that_takes_the_host_role_keeps_its_seat(make_table):
    t = make_table("pebbles")
    t.act("Anna", "secret", number=2)
    t.act("Ben", "secret", number=9)
    anna = t.device("Anna")
    hand_over(t, anna)
    page = anna.get(f"/t/{t.code}/").text
    text = visible(page)
    # Its own seat is its view, with the host's tools added (no "the table" to act for).
    assert "You are Anna." in text and "This device is the host." in text
    assert "Acting for" not in text
    nav = page.split('class="act-as"')[1].split("</nav>")[0]
    assert ">the table<" not in nav and "Anna (you)" in nav
    assert 'aria-current="page">Anna (you)' in nav
    # The private view of its own seat, and only of its own.
    assert "Anna: 0 pebbles · secret: 2" in text and "secret: 9" not in text
    assert 'id="pile-form"' in page and 'id="pile-form"' not in t.page("Ben")  # a host's entry
    # Looking at its own seat is not the host looking: nothing in the history.
    assert not [e for e in events(t) if e.kind == "trace" and e.action["type"] == "look"]
    assert "moved" not in text and "Anna's phone is the host now." in text
    # Acting for another seat is the host looking, as before.
    assert "Acting for Ben." in visible(anna.get(f"/t/{t.code}/?as=1").text)
    assert [e.action["at"] for e in events(t) if e.action["type"] == "look"] == [1]
    # Its own seat's actions are its own ("Your turn", no ?as= in its forms).
    page = anna.get(f"/t/{t.code}/").text
    assert "Your turn." in visible(page) and 'id="take-form"' in page and "as=0" not in page
    t.act(anna, "take", n=3)
    assert [(e.action["type"], e.seat) for e in events(t) if e.kind == "game"][-1] == ("take", 0)


def test_the_device_that_handed_over_is_told_and_drops_host_from_its_list(make_table):
    t = make_table("pebbles")
    old = t.host
    assert f"{t.code}" in old.get("/").text  # "Your tables" lists it, as the host
    hand_over(t, t.device("Ben"))
    # Its table page and its poll lead it to the news, not to a dead end.
    assert old.get(f"/t/{t.code}/").headers["Location"].endswith("/host/handed")
    poll = old.get(f"/t/{t.code}/live?v=0", headers=HX)
    assert poll.headers["HX-Redirect"].endswith("/host/handed")
    page = old.get(f"/t/{t.code}/host/handed")
    assert "You handed the host role to Ben." in visible(page.text)
    assert "Stay as the table display" in page.text and "Leave this table" in page.text
    assert t.code not in visible(old.get("/").text)  # the host role is gone from its list
    # Leaving: its old token stops working altogether.
    old.post(f"/t/{t.code}/host/leave", data={"csrf_token": csrf_from(page.text)})
    assert old.get(f"/t/{t.code}/host/handed").status_code == 404
    assert old.get(f"/t/{t.code}/display/").status_code == 404


def test_a_seated_phone_that_handed_over_is_told_once_and_goes_on_as_its_seat(make_table):
    t = make_table("pebbles")
    anna = t.device("Anna")
    hand_over(t, anna)
    hand_over_back = anna  # Anna is the host now; she hands the role to Chris's phone
    response = post_from(hand_over_back, f"/t/{t.code}/", f"/t/{t.code}/host/handover")
    link = re.search(r'(/t/[^"]*/host/take\?token=[^"]*)"', response.text).group(1)
    chris = t.device("Chris")
    page = chris.get(htmllib.unescape(link))
    token = re.search(r'name="token" value="([^"]+)"', page.text).group(1)
    chris.post(f"/t/{t.code}/host/take", data={"csrf_token": csrf_from(page.text), "token": token})
    text = visible(anna.get(f"/t/{t.code}/").text)
    assert "You handed the host role to Chris." in text and "You are Anna." in text
    assert "This device is the host." not in text
    assert "You handed" not in visible(anna.get(f"/t/{t.code}/").text)  # told once
    assert anna.get(f"/t/{t.code}/host/handed").status_code == 404


def test_the_table_device_sees_what_the_display_sees_and_enters_only_public_events(make_table):
    t = make_table("pebbles")
    tablet = t.host
    hand_over(t, t.app.test_client())
    stay(t, tablet)
    cookie = tablet.get_cookie(f"display_{t.code}", path=f"/t/{t.code}")
    assert cookie is not None and cookie.http_only and cookie.path == f"/t/{t.code}"
    assert tablet.get_cookie(f"host_{t.code}", path=f"/t/{t.code}") is None
    # Its table page is the display; no member page, history or notes for it.
    assert tablet.get(f"/t/{t.code}/").headers["Location"].endswith("/display/")
    page = tablet.get(f"/t/{t.code}/display/")
    assert page.status_code == 200 and 'class="display table-device"' in page.text
    assert tablet.get(f"/t/{t.code}/history").status_code == 302
    # A pebble that fell is anyone's to enter: the table device enters it (for the table).
    t.act("Anna", "secret", number=3)
    for seat in ("Anna", "Ben", "Chris"):
        t.act(seat, "take", n=1)  # Anna's turn again, a pebble in her heap
    response = post_from(tablet, f"/t/{t.code}/display/", f"/t/{t.code}/act/drop")
    assert response.status_code == 200 and 'data-display="yes"' in response.text
    entered = [e for e in events(t) if e.kind == "game"][-1]
    assert (entered.action["type"], entered.seat, entered.host) == ("drop", None, False)
    # A take is a seat's, the pile the host's: refused, nothing stored; so are notes and undo.
    before = t.snapshot()
    response = post_from(tablet, f"/t/{t.code}/display/", f"/t/{t.code}/act/take", n="1")
    assert response.status_code == 403 and "table display" in visible(response.text)
    for action, data in (("act/secret", {"number": "1"}), ("act/pile", {"size": "9"})):
        response = post_from(tablet, f"/t/{t.code}/display/", f"/t/{t.code}/{action}", **data)
        assert response.status_code == 403, action
    assert (
        post_from(tablet, f"/t/{t.code}/display/", f"/t/{t.code}/note", text="hi").status_code
        == 403
    )
    assert post_from(tablet, f"/t/{t.code}/display/", f"/t/{t.code}/undo").status_code == 403
    assert t.snapshot() == before
    # No private value: Anna's secret changed behind the app's back changes nothing it sees.
    strip = re.compile(r'value="[^"]{30,}"')
    before = without_clock(strip.sub("", tablet.get(f"/t/{t.code}/display/").text))
    state = t.state()
    state["secret"][0] = 8
    t.set_state(state)
    assert without_clock(strip.sub("", tablet.get(f"/t/{t.code}/display/").text)) == before
    # It may leave: its credential stops working.
    page = tablet.get(f"/t/{t.code}/display/")
    tablet.post(f"/t/{t.code}/display/leave", data={"csrf_token": csrf_from(page.text)})
    assert tablet.get(f"/t/{t.code}/display/").status_code == 404


def test_the_table_device_follows_the_rematch_in_its_own_cookie(make_table):
    t = make_table("pebbles", ("Anna", "Ben"))
    tablet = t.host
    new_host = t.app.test_client()
    hand_over(t, new_host)
    stay(t, tablet)
    with t.app.app_context():
        db = get_db()
        table = tables.get_table(db, t.code)
        db.execute("UPDATE tables SET ended = 1 WHERE id = ?", [table.id])
        db.conn.commit()
    page = new_host.get(f"/t/{t.code}/").text
    response = new_host.post(f"/t/{t.code}/rematch", data={"csrf_token": csrf_from(page)})
    new = re.search(r"/t/(\w+)/", response.headers["Location"]).group(1)
    shown = tablet.get(f"/t/{t.code}/display/").text
    follow = re.search(r'data-rematch="([^"]+)"', shown).group(1)
    assert "key=" not in follow
    response = tablet.get(htmllib.unescape(follow))
    assert response.headers["Location"] == f"/t/{new}/display/"
    assert tablet.get(f"/t/{new}/display/").status_code == 200
    assert new in visible(tablet.get("/").text)  # its list holds the rematch as its display
    # Again: the same credential, no second one.
    tablet.get(htmllib.unescape(follow))
    with t.app.app_context():
        db = get_db()
        table = tables.get_table(db, new)
        count = db.execute("SELECT count(*) FROM displays WHERE table_id = ?", [table.id])
        assert count.fetchone()[0] == 1


def test_a_seated_host_starting_the_rematch_takes_its_seat_there(make_table):
    t = make_table("pebbles", ("Anna", "Ben"))
    ben = t.device("Ben")
    hand_over(t, ben)
    with t.app.app_context():
        db = get_db()
        db.execute("UPDATE tables SET ended = 1 WHERE code = ?", [t.code])
        db.conn.commit()
    page = ben.get(f"/t/{t.code}/").text
    response = ben.post(
        f"/t/{t.code}/rematch", data={"csrf_token": csrf_from(page), "order": "next"}
    )
    new = re.search(r"/t/(\w+)/", response.headers["Location"]).group(1)
    text = visible(ben.get(f"/t/{new}/").text)
    assert "You are Ben." in text and "This device is the host." in text
    with t.app.app_context():
        db = get_db()
        seats = tables.seats(db, tables.get_table(db, new))
    assert [s.name for s in seats if s.taken] == ["Ben"] and seats[0].name == "Ben"


def test_the_device_that_stayed_as_the_display_keeps_the_tables_record(make_table):
    t = make_table("pebbles", ("Anna", "Ben"))
    tablet = t.host
    new_host = t.app.test_client()
    hand_over(t, new_host)
    stay(t, tablet)
    home = visible(tablet.get("/").text)
    assert t.code in home and "table display" in home  # "Your tables" still lists it
    with t.app.app_context():
        db = get_db()
        play_to_end(db, tables.get_table(db, t.code), random.Random(4))
    played = visible(tablet.get("/plays").text)
    assert "Pebbles" in played and "No finished game yet." not in played
    assert tablet.get(f"/plays/{t.code}").status_code in (200, 302)
    assert "Anna" in visible(tablet.get("/stats").text)
    # A stranger still sees none of it.
    assert "No finished game yet." in t.app.test_client().get("/plays").text

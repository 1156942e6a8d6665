"""Every route through Flask's test client, with bad input: a clear message, never a 500."""

from __future__ import annotations

import html
import random
import re

import pytest

from companion import create_app, get_db, tables
from companion.games import GAMES
from companion.web.adapter import adapter_of
from tests.helpers import (
    HX,
    csrf_from,
    play_to_end,
    post_from,
    start_table,
    take_seat,
    version_of,
    visible,
)
from tests.support.pages import without_clock

# Both stores (tests/conftest.py): joins, guessed codes, presence, devices, hand-overs, the
# fast path's one query.
pytestmark = pytest.mark.both_stores


def test_home_lists_every_game_and_the_join_form(client):
    page = client.get("/")
    assert page.status_code == 200
    for info in GAMES.values():
        assert html.escape(info.label, quote=False) in page.text
    assert 'id="join-code"' in page.text


def _limits(info) -> str:
    if info.min_players == info.max_players:
        return f": exactly {info.min_players}."
    return f": {info.min_players} to {info.max_players}."


FIRST = next(iter(GAMES))  # any registered game will do


@pytest.mark.parametrize(
    "game,players,expected",
    [
        (key, n, _limits(info))
        for key, info in GAMES.items()
        for n in (info.min_players - 1, info.max_players + 1)
        if n > 0
    ]
    + [(FIRST, "many", "Enter how many play.")],
)
def test_out_of_range_player_counts_are_refused_with_the_limits(client, game, players, expected):
    home = client.get("/")
    response = client.post(
        "/tables", data={"csrf_token": csrf_from(home.text), "game": game, "players": players}
    )
    assert response.status_code == 400
    assert expected in response.text


def test_an_unknown_game_is_refused(client):
    home = client.get("/")
    response = client.post(
        "/tables", data={"csrf_token": csrf_from(home.text), "game": "chess", "players": 2}
    )
    assert response.status_code == 400 and "Not a valid choice" in response.text


def test_missing_csrf_token_is_a_clear_message(client):
    response = client.post("/tables", data={"game": FIRST, "players": 2})
    assert response.status_code == 400
    assert "This form has expired" in response.text


def test_host_sees_the_table_with_qr_code_and_join_address(client):
    code = start_table(client)
    page = client.get(f"/t/{code}/")
    assert page.status_code == 200
    assert f"/t/{code}/qr.svg" in page.text and f"/t/{code}/join" in page.text
    assert "This device is the host." in page.text
    qr_path = re.search(r'src="(/t/\w+/qr\.svg\?k=[^"]+)"', page.text).group(1)
    svg = client.get(qr_path.replace("&amp;", "&"))
    assert svg.status_code == 200 and svg.mimetype == "image/svg+xml"
    assert svg.text.startswith("<svg") or "<svg" in svg.text[:200]


def test_the_qr_code_uses_the_configured_public_url(tmp_path):
    app = create_app(
        {
            "TESTING": True,
            "DATABASE": str(tmp_path / "p.db"),
            "SECRET_KEY": "x",
            "PUBLIC_URL": "https://games.example.org/",
        }
    )
    client = app.test_client()
    code = start_table(client)
    page = client.get(f"/t/{code}/")
    assert f"https://games.example.org/t/{code}/join" in page.text
    assert "phones cannot reach" not in page.text


def test_the_join_address_never_comes_from_the_host_header(app, client, monkeypatch):
    from companion import qr

    monkeypatch.setattr(qr, "lan_address", lambda: "192.168.1.23")
    app.config.update(BIND_HOST="0.0.0.0", BIND_PORT=8000)
    code = start_table(client)
    token = client.get_cookie(f"host_{code}", path=f"/t/{code}").value
    forged = app.test_client()  # the host's device, asking with a forged Host header
    forged.set_cookie(f"host_{code}", token, domain="evil.example", path=f"/t/{code}")
    page = forged.get(f"/t/{code}/", base_url="http://evil.example:666").text
    assert f"http://192.168.1.23:8000/t/{code}/join" in page and "evil.example" not in page
    assert "phones cannot reach" not in page


def test_a_host_on_localhost_is_told_the_qr_code_carries_the_lan_address(app, monkeypatch):
    from companion import qr

    monkeypatch.setattr(qr, "lan_address", lambda: "192.168.1.23")
    app.config.update(BIND_HOST="0.0.0.0", BIND_PORT=8000)

    def table_page(base_url: str) -> str:
        host = app.test_client()
        home = host.get("/", base_url=base_url)
        sent = host.post(
            "/tables",
            data={"csrf_token": csrf_from(home.text), "game": "pebbles", "players": 2},
            base_url=base_url,
        )
        return host.get(sent.headers["Location"], base_url=base_url).text

    page = table_page("http://localhost:8000")
    note = visible(page.split('id="local-note"')[1].split("</p>")[0])
    assert "You opened this page as localhost" in note
    assert "http://192.168.1.23:8000/t/" in page
    # Opened from the LAN address itself: nothing to explain.
    page = table_page("http://192.168.1.23:8000")
    assert 'id="join-qr"' in page and 'id="local-note"' not in page


def test_a_loopback_only_server_says_phones_cannot_reach_it(app, client):
    app.config.update(BIND_HOST="127.0.0.1", BIND_PORT=8000)
    code = start_table(client)
    page = client.get(f"/t/{code}/").text
    assert "phones cannot reach it" in page


def test_join_base_offers_only_addresses_the_server_listens_on(monkeypatch):
    from companion import qr
    from companion.serve import startup_message

    monkeypatch.setattr(qr, "lan_address", lambda: "192.168.1.20")
    assert qr.join_base("https://x.org/", "0.0.0.0", 8000) == ("https://x.org", None)
    assert qr.join_base("", "0.0.0.0", 8000) == ("http://192.168.1.20:8000", None)
    assert qr.join_base("", "10.0.0.5", 8000) == ("http://10.0.0.5:8000", None)
    assert qr.join_base("", "127.0.0.1", 8000) == ("http://127.0.0.1:8000", "loopback")
    monkeypatch.setattr(qr, "lan_address", lambda: None)
    assert qr.join_base("", "0.0.0.0", 8000)[1] == "no-lan"
    assert (
        qr.is_loopback("[::1]") and qr.is_loopback("localhost") and not qr.is_loopback("10.0.0.5")
    )
    message = startup_message("", "127.0.0.1", 8000, "x.db")
    assert "http://127.0.0.1:8000/" in message and "Phones cannot reach this server" in message
    monkeypatch.setattr(qr, "lan_address", lambda: "192.168.1.20")
    message = startup_message("", "0.0.0.0", 8000, "x.db")
    assert "http://192.168.1.20:8000/" in message and "cannot reach" not in message


def test_a_phone_joins_a_seat_and_keeps_it(client, app):
    code = start_table(client)
    phone = app.test_client()
    assert phone.get(f"/t/{code}/").headers["Location"].endswith(f"/t/{code}/join")
    response = take_seat(phone, code, 1, "Benjamin")
    assert response.status_code == 302
    page = phone.get(f"/t/{code}/")
    assert "You are Benjamin." in page.text
    # The cookie is HttpOnly and SameSite, scoped to the table.
    cookie = phone.get_cookie(f"seat_{code}", path=f"/t/{code}")
    assert cookie is not None and cookie.http_only and cookie.same_site == "Lax"
    # The host sees the new seat.
    assert "Benjamin" in client.get(f"/t/{code}/").text


def test_a_seated_phone_cannot_take_a_second_seat(client, app):
    code = start_table(client)
    phone = app.test_client()
    take_seat(phone, code, 1)
    response = take_seat(phone, code, 2)
    assert response.status_code == 302 and response.headers["Location"].endswith(f"/t/{code}/")
    assert [s["taken"] for s in _seats(client, code)] == [False, True, False]


def test_a_device_that_finds_every_seat_taken_is_told_how_to_become_the_display(client, app):
    code = start_table(client, names=("Anna", "Ben"))
    for seat in (0, 1):
        take_seat(app.test_client(), code, seat)
    page = app.test_client().get(f"/t/{code}/join").text
    assert "Every seat is taken." in visible(page)
    offer = visible(page.split('id="display-offer"')[1].split("</p>")[0])
    assert "Ask the host for a display link" in offer and "Table display: make a link" in offer


def test_a_seat_nobody_named_reads_in_each_readers_language(client, app):
    code = start_table(client, names=("", "Ben", ""))  # made on an English device
    russian = {"Accept-Language": "ru"}
    phone = app.test_client()
    take_seat(phone, code, 0)  # no name typed: the seat keeps its default
    page = visible(phone.get(f"/t/{code}/", headers=russian).text)
    assert "Игрок 1" in page and "Игрок 3" in page and "Ben" in page
    assert "Player 1" not in page and "Player 3" not in page
    assert "Player 1" in visible(client.get(f"/t/{code}/").text)  # the English host
    join = visible(app.test_client().get(f"/t/{code}/join", headers={"Accept-Language": "ja"}).text)
    assert "プレイヤー3" in join
    home = visible(phone.get("/", headers=russian).text)
    assert "Игрок 1" in home and "Player 1" not in home
    # Once the game is over, the record reads it the same way.
    with app.app_context():
        db = get_db()
        play_to_end(db, tables.get_table(db, code), random.Random(2))
    played = visible(phone.get("/plays", headers=russian).text)
    assert "Игрок 1" in played and "Player 1" not in played and "Ben" in played


def _seats(client, code):
    text = client.get(f"/t/{code}/").text
    return [{"taken": "no phone" not in row} for row in text.split('class="seat-row"')[1:]]


def test_a_taken_seat_and_a_nonexistent_seat_are_refused(client, app):
    code = start_table(client)
    take_seat(app.test_client(), code, 0)
    response = take_seat(app.test_client(), code, 0)
    assert response.status_code == 400 and "just taken" in response.text
    response = take_seat(app.test_client(), code, 4)  # a seat number, but not at this table
    assert response.status_code == 400 and "no such seat" in response.text
    response = take_seat(app.test_client(), code, 9)  # no table has it
    assert response.status_code == 400 and "Pick one of the free seats." in response.text
    app.test_client().get(f"/t/{code}/join")
    response = app.test_client().post(f"/t/{code}/join", data={"seat": "x"})
    assert response.status_code == 400


def test_unknown_table_code_is_a_clear_404(client):
    response = client.get("/t/NOPE234/")
    assert response.status_code == 404
    assert "There is no table with the code NOPE234" in response.text
    home = client.get("/")
    response = client.post("/join", data={"csrf_token": csrf_from(home.text), "code": "nope 234"})
    assert response.status_code == 404 and "NOPE234" in response.text


def test_typing_the_code_on_the_home_page_leads_to_the_join_page(client, app):
    code = start_table(client)
    phone = app.test_client()
    home = phone.get("/")
    response = phone.post(
        "/join",
        data={
            "csrf_token": csrf_from(home.text),
            "code": code.lower()[:3] + " " + code.lower()[3:],
        },
    )
    assert response.headers["Location"].endswith(f"/t/{code}/join")


def test_guessing_codes_is_limited(client):
    home = client.get("/")
    token = csrf_from(home.text)
    statuses = [
        client.post("/join", data={"csrf_token": token, "code": f"ZZZZ{i:03d}"}).status_code
        for i in range(25)
    ]
    assert statuses[0] == 404 and statuses[-1] == 429
    assert "Too many wrong table codes" in client.get("/t/ZZZZ999/").text


def test_a_guesser_on_the_same_network_does_not_lock_players_out(client, app):
    code = start_table(client)
    phone = app.test_client()
    take_seat(phone, code, 1)
    guesser = app.test_client()  # same address as everyone in the test client
    for i in range(25):
        guesser.get(f"/t/ZZZZ{i:03d}/")
    assert guesser.get(f"/t/{code}/join").status_code == 429  # refused, existence not revealed
    # Another device behind the same address types the real code: the limit counts per device.
    newcomer = app.test_client()
    newcomer.get("/")  # the home page, where a person types a code, gives the device its id
    assert newcomer.get(f"/t/{code}/join").status_code == 200
    assert client.get(f"/t/{code}/").status_code == 200  # the host plays on
    assert "You are Ben." in phone.get(f"/t/{code}/").text  # and so does Ben


def test_locked_table_refuses_to_join(client, app):
    code = start_table(client)
    page = client.get(f"/t/{code}/")
    client.post(f"/t/{code}/host/lock", data={"csrf_token": csrf_from(page.text)})
    phone = app.test_client()
    join_page = phone.get(f"/t/{code}/join")
    assert "locked" in join_page.text
    response = take_seat(phone, code, 0)
    assert response.status_code == 403 or "locked" in response.text


def test_forged_seat_cookie_is_treated_as_no_seat(client, app):
    code = start_table(client)
    phone = app.test_client()
    phone.set_cookie(f"seat_{code}", "forged-token", path=f"/t/{code}")
    response = phone.get(f"/t/{code}/")
    assert response.status_code == 302 and "/join" in response.headers["Location"]
    page = phone.get(f"/t/{code}/join")
    response = phone.post(
        f"/t/{code}/note", data={"csrf_token": csrf_from(page.text), "text": "hi", "version": 1}
    )
    assert response.status_code == 403 and "has no seat" in response.text
    phone.set_cookie(f"host_{code}", "forged-host", path=f"/t/{code}")
    response = phone.post(f"/t/{code}/host/lock", data={"csrf_token": csrf_from(page.text)})
    assert response.status_code == 403 and "Only the host" in response.text


def test_notes_appear_in_the_history_and_on_every_device(client, app):
    code = start_table(client)
    phone = app.test_client()
    take_seat(phone, code, 1)
    page = phone.get(f"/t/{code}/")
    version = version_of(page.text)
    response = phone.post(
        f"/t/{code}/note",
        data={
            "csrf_token": csrf_from(page.text),
            "text": "<b>Ben</b> shuffles",
            "version": version,
        },
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200 and 'id="live"' in response.text
    assert "&lt;b&gt;Ben&lt;/b&gt; shuffles" in response.text  # auto-escaped
    host_view = client.get(f"/t/{code}/live?v={version}")
    assert host_view.status_code == 200 and "shuffles" in host_view.text


def unchanged(response) -> bool:
    """The answer to a poll of an unchanged table: empty, and htmx told not to swap (a 204
    would make waitress close the phone's connection)."""
    return (
        response.status_code == 200
        and response.data == b""
        and response.headers["HX-Reswap"] == "none"
    )


def test_an_unchanged_poll_answers_empty_and_a_changed_one_the_new_state(client):
    code = start_table(client)
    page = client.get(f"/t/{code}/")
    version = version_of(page.text)
    assert unchanged(client.get(f"/t/{code}/live?v={version}"))
    client.post(
        f"/t/{code}/note",
        data={"csrf_token": csrf_from(page.text), "text": "x", "version": version},
    )
    changed = client.get(f"/t/{code}/live?v={version}")
    assert changed.status_code == 200 and version_of(changed.text) == version + 1
    assert client.get("/t/NOPE234/live?v=1").status_code == 204


def test_a_freed_phone_is_sent_back_to_the_join_page(client, app):
    code = start_table(client)
    phone = app.test_client()
    take_seat(phone, code, 2)
    page = client.get(f"/t/{code}/")
    client.post(f"/t/{code}/host/free/2", data={"csrf_token": csrf_from(page.text)})
    poll = phone.get(f"/t/{code}/live?v=1")
    assert poll.headers.get("HX-Redirect", "").endswith(f"/t/{code}/join?lost=1")
    assert "no longer holds a seat" in phone.get(f"/t/{code}/join?lost=1").text


def test_undo_rules_for_seats_and_host(client, app):
    code = start_table(client)
    anna, ben = app.test_client(), app.test_client()
    take_seat(anna, code, 0)
    take_seat(ben, code, 1)
    page = anna.get(f"/t/{code}/")
    anna.post(
        f"/t/{code}/note",
        data={
            "csrf_token": csrf_from(page.text),
            "text": "first",
            "version": version_of(page.text),
        },
    )
    # Ben may not undo Anna's action.
    page = ben.get(f"/t/{code}/")
    assert "Undo:" not in page.text
    response = ben.post(
        f"/t/{code}/undo",
        data={"csrf_token": csrf_from(page.text), "version": version_of(page.text)},
    )
    assert response.status_code == 422 and "nothing you may undo" in response.text
    # Anna may, and the undone line stays visible, struck through.
    page = anna.get(f"/t/{code}/")
    assert "Undo: Anna: first" in page.text
    anna.post(
        f"/t/{code}/undo",
        data={"csrf_token": csrf_from(page.text), "version": version_of(page.text)},
    )
    page = client.get(f"/t/{code}/")
    assert "<del>Anna: first</del>" in page.text


def test_a_stale_form_is_refused_with_the_new_state(client, app):
    code = start_table(client)
    page = client.get(f"/t/{code}/")
    stale = version_of(page.text)
    client.post(
        f"/t/{code}/note",
        data={"csrf_token": csrf_from(page.text), "text": "one", "version": stale},
    )
    response = client.post(
        f"/t/{code}/undo",
        data={"csrf_token": csrf_from(page.text), "version": stale},
        headers={"HX-Request": "true"},
    )
    assert "The table changed" in response.text
    assert "one" in response.text  # nothing was undone
    assert "<del>" not in response.text


def test_host_can_act_for_a_seat_and_rename_it(client):
    code = start_table(client)
    page = client.get(f"/t/{code}/?as=1")
    assert "Acting for Ben." in page.text
    client.post(
        f"/t/{code}/note?as=1",
        data={"csrf_token": csrf_from(page.text), "text": "pass", "version": version_of(page.text)},
    )
    assert "Ben: pass" in client.get(f"/t/{code}/").text
    page = client.get(f"/t/{code}/")
    client.post(
        f"/t/{code}/host/rename/1",
        data={"csrf_token": csrf_from(page.text), "name": "Benedict", "version": 0},
    )
    assert "Benedict: pass" in client.get(f"/t/{code}/").text
    response = client.post(
        f"/t/{code}/host/rename/1", data={"csrf_token": csrf_from(page.text), "name": ""}
    )
    assert "Type a name" in response.text


def test_unknown_action_type_is_refused_in_the_page(client):
    code = start_table(client)
    page = client.get(f"/t/{code}/")
    response = client.post(
        f"/t/{code}/act/teleport",
        data={"csrf_token": csrf_from(page.text)},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 422 and "no such action" in response.text


@pytest.mark.parametrize("lang,expected", [("ja", "テーブル"), ("ru", "стол")])
def test_accept_language_picks_the_language_and_the_footer_switch_changes_it(app, lang, expected):
    client = app.test_client()
    page = client.get("/", headers={"Accept-Language": f"{lang},en;q=0.5"})
    assert f'<html lang="{lang}">' in page.text and expected in page.text
    client.get("/lang/en?next=/")
    page = client.get("/", headers={"Accept-Language": lang})
    assert '<html lang="en">' in page.text


def test_language_switch_never_redirects_off_site(client):
    response = client.get("/lang/ru?next=https://evil.example/")
    assert response.headers["Location"] == "/"


def test_rules_and_tools_pages_answer(client):
    assert client.get("/rules/").status_code == 200
    for key, info in GAMES.items():
        # a variant's rules live on its game's page
        assert client.get(f"/rules/{key}").status_code == (200 if info.rules_page == key else 404)
    assert client.get("/rules/chess").status_code == 404
    assert client.get("/tools/").status_code == 200
    assert client.get("/nowhere").status_code == 404


def test_secret_key_is_generated_once_into_the_instance_folder(tmp_path, monkeypatch):
    import companion

    monkeypatch.delenv("COMPANION_SECRET_KEY", raising=False)
    first = companion._secret_key(tmp_path)
    assert len(first) == 64 and companion._secret_key(tmp_path) == first
    assert (tmp_path / "secret_key").stat().st_mode & 0o077 == 0


@pytest.mark.parametrize(
    "seat", ["99999999999999999999", "-99999999999999999999", "7", "-1", "1e9", "１０"]
)
def test_an_out_of_range_seat_number_is_refused_with_a_message(client, seat):
    code = start_table(client)
    phone = client.application.test_client()
    response = take_seat(phone, code, seat)
    assert response.status_code == 400
    assert "Pick one of the free seats." in response.text


@pytest.mark.parametrize("players", ["99999999999999999999", "-5", "0", "x"])
def test_an_impossible_player_count_is_refused_with_a_message(client, players):
    home = client.get("/")
    response = client.post(
        "/tables",
        data={"csrf_token": csrf_from(home.text), "game": FIRST, "players": players},
    )
    assert response.status_code == 400
    assert _limits(GAMES[FIRST]) in response.text or "Enter how many play." in response.text


def _all_form_classes():
    from companion import forms
    from companion.games import GAMES

    found = {
        cls
        for cls in vars(forms).values()
        if isinstance(cls, type) and issubclass(cls, forms.FlaskForm)
    }
    for info in GAMES.values():
        found.update(adapter_of(info).forms.values())
    return sorted(found, key=lambda cls: f"{cls.__module__}.{cls.__name__}")


def test_every_numeric_form_field_is_bounded(app):
    """A number typed into any form is range-checked before it reaches the rules or SQLite: either
    a WholeNumber (at most 9 digits, refused with a message beyond) or an explicit NumberRange."""
    from wtforms import IntegerField
    from wtforms.validators import NumberRange

    from companion.forms import WholeNumber

    unbounded = []
    with app.test_request_context():
        for cls in _all_form_classes():
            form = cls(formdata=None, meta={"csrf": False})
            for field in form:
                if not isinstance(field, IntegerField) or isinstance(field, WholeNumber):
                    continue
                if not any(
                    isinstance(v, NumberRange) and v.min is not None and v.max is not None
                    for v in field.validators
                ):
                    unbounded.append(f"{cls.__module__}.{cls.__name__}.{field.name}")
    assert unbounded == []


def test_an_unchanged_poll_from_a_member_is_answered_before_flask(app, client):
    """The fast path answers a member's unchanged poll with one query; anything else (a changed
    table, a stranger's poll, a poll without a version) reaches Flask."""
    code = start_table(client)
    version = version_of(client.get(f"/t/{code}/").text)
    reached = []
    inner = app.wsgi_app.wsgi_app

    def counting(environ, start_response):
        reached.append(environ["PATH_INFO"])
        return inner(environ, start_response)

    app.wsgi_app.wsgi_app = counting
    assert unchanged(client.get(f"/t/{code}/live?v={version}"))
    assert unchanged(client.get(f"/t/{code}/live?as=1&v={version}"))
    assert reached == []
    stranger = app.test_client()
    stranger.get(f"/t/{code}/live?v={version}")
    assert reached == [f"/t/{code}/live"]
    assert client.get(f"/t/{code}/live?v={version - 1}").status_code == 200
    assert client.get(f"/t/{code}/live").status_code in (200, 204)
    assert len(reached) == 3


def test_a_resent_submission_is_applied_once_whatever_its_kind(make_table):
    """The phone's script gives every submission a key; a resend after a lost connection carries
    the same key and the same version, and is applied once (a note has no version guard)."""
    t = make_table("pebbles")
    page = t.page("Anna")
    form = {
        "csrf_token": csrf_from(page),
        "version": version_of(page),
        "key": "note-key-0001",
        "text": "back online",
    }
    for _ in range(3):
        assert t.device("Anna").post(f"/t/{t.code}/note", data=form).status_code in (200, 302)
    assert _notes(t) == ["back online"]
    # A game action (Anna takes two pebbles), sent twice with its key.
    page = t.page("Anna")
    take = {
        "csrf_token": csrf_from(page),
        "version": version_of(page),
        "key": "take-key-0001",
        "n": "2",
    }
    for _ in range(2):
        t.device("Anna").post(f"/t/{t.code}/act/take", data=take, headers=HX)
    assert t.state()["taken"] == [2, 0, 0]
    t.act("Ben", "take", n="1")
    # An undo and a host switch (lock) resent: each happens once.
    page = t.page("host")
    undo = {"csrf_token": csrf_from(page), "version": version_of(page), "key": "undo-key-0001"}
    for _ in range(2):
        t.host.post(f"/t/{t.code}/undo", data=undo, headers=HX)
    assert t.state()["taken"] == [2, 0, 0]
    assert _notes(t) == ["back online"]  # the note was not undone too
    lock = {"csrf_token": csrf_from(page), "key": "lock-key-00001"}
    for _ in range(2):
        t.host.post(f"/t/{t.code}/host/lock", data=lock, headers=HX)
    assert "Joining is locked." in visible(t.page())
    # A bad key is ignored (no dedupe), never an error.
    response = t.device("Anna").post(
        f"/t/{t.code}/note", data={**form, "key": "<script>", "text": "again"}
    )
    assert response.status_code in (200, 302)


def test_presence_marks_a_phone_online_and_then_away(make_table, monkeypatch):
    import time

    from companion import tables

    now = [1_000_000.0]
    monkeypatch.setattr(time, "time", lambda: now[0])
    t = make_table("pebbles", ("Anna", "Ben", "Chris"))  # every phone joins: seen then
    now[0] += tables.ONLINE_WITHIN + 1
    t.page("Ben")  # Ben's phone shows the table: seen now
    seats = {s.name: s for s in _seat_rows(t)}
    assert seats["Ben"].online(now[0]) and not seats["Chris"].online(now[0])
    now[0] += tables.ONLINE_WITHIN + 1
    assert not {s.name: s for s in _seat_rows(t)}["Ben"].online(now[0])


def _notes(t) -> list[str]:
    """The texts of the notes in the history that are not undone."""
    from companion import get_db, tables

    with t.app.app_context():
        db = get_db()
        log = tables.events(db, tables.get_table(db, t.code))
    return [e.action["text"] for e in log if e.kind == "note" and not e.undone]


def _seat_rows(t):
    from companion import get_db, tables

    with t.app.app_context():
        db = get_db()
        return tables.seats(db, tables.get_table(db, t.code))


def test_home_lists_this_devices_tables_and_the_host_typing_its_code_lands_as_host(app, client):
    code = start_table(client, names=("Anna", "Ben", "Chris"))
    home = client.get("/").text
    assert 'id="my-tables"' in home and code in home and "Anna, Ben, and Chris" in home
    assert "host" in visible(home.split('id="my-tables"')[1].split("</section>")[0])
    # Typing its own table's code takes the host back to the table, not to "pick a seat".
    response = client.post("/join", data={"csrf_token": csrf_from(home), "code": code.lower()})
    assert response.headers["Location"].endswith(f"/t/{code}/")
    assert "This device is the host." in client.get(f"/t/{code}/").text
    # A phone that joins sees the table in its list as a seat; a stranger's home lists nothing.
    phone = app.test_client()
    take_seat(phone, code, 1)
    mine = phone.get("/").text.split('id="my-tables"')[1].split("</section>")[0]
    assert code in mine and "seat" in visible(mine)
    assert 'id="my-tables"' not in app.test_client().get("/").text


def test_a_freed_seat_and_a_removed_table_leave_the_home_page(app, client):
    from companion import get_db

    code = start_table(client)
    phone = app.test_client()
    take_seat(phone, code, 1)
    post_from(client, f"/t/{code}/", f"/t/{code}/host/free/1")
    phone.get(f"/t/{code}/join?lost=1")
    assert 'id="my-tables"' not in phone.get("/").text
    with app.app_context():
        db = get_db()
        for name in ("seats", "events", "snapshots", "submissions", "displays"):
            db.execute(f"DELETE FROM {name}")
        db.execute("DELETE FROM tables")
        db.conn.commit()
    assert 'id="my-tables"' not in client.get("/").text
    # The list keeps it (its play, if it had one, is still this device's to see).
    assert code in client.get_cookie("tables").value


def _link_in(html: str, part: str) -> str:
    import html as htmllib

    match = re.search(
        r'<p class="join-url"><a href="(http[^"]*' + re.escape(part) + r'[^"]*)"', html
    )
    assert match, f"no {part} link in the page"
    return htmllib.unescape(match.group(1)).split("//", 1)[1].split("/", 1)[1]


def test_the_host_hands_the_role_to_another_device_with_a_one_time_link(app, client):
    code = start_table(client)
    response = post_from(client, f"/t/{code}/", f"/t/{code}/host/handover")
    link = "/" + _link_in(response.text, "/host/take")
    tablet = app.test_client()
    page = tablet.get(link)
    assert page.status_code == 200 and "Become the host" in page.text
    token = re.search(r'name="token" value="([^"]+)"', page.text).group(1)
    response = tablet.post(
        f"/t/{code}/host/take", data={"csrf_token": csrf_from(page.text), "token": token}
    )
    assert response.status_code == 302
    assert "This device is the host." in tablet.get(f"/t/{code}/").text
    assert "The host role moved to another device." in visible(tablet.get(f"/t/{code}/").text)
    # The old device is the host no more; the link works once.
    assert client.get(f"/t/{code}/").status_code == 302
    again = app.test_client()
    page = again.get(link)
    response = again.post(
        f"/t/{code}/host/take", data={"csrf_token": csrf_from(page.text), "token": token}
    )
    assert response.status_code == 403 and "expired or was already used" in response.text
    # Only the host can make a link.
    phone = app.test_client()
    take_seat(phone, code, 0)
    assert post_from(phone, f"/t/{code}/", f"/t/{code}/host/handover").status_code == 403


def test_the_table_display_shows_the_public_state_only_and_links_add_up(make_table):
    t = make_table("pebbles")
    t.act("Anna", "secret", number=4)
    response = post_from(t.host, f"/t/{t.code}/", f"/t/{t.code}/host/display")
    link = "/" + _link_in(response.text, "/display")
    screen = t.app.test_client()
    page = screen.get(link)
    assert (
        page.status_code == 200
        and "Pebbles" in page.text
        and "<form" not in page.text.split('id="live"')[1].split('id="game-panel"')[0]
    )
    # A private change (Anna's secret number) changes nothing on the display.
    before = re.sub(r'"[\w-]{20,}\.[\w-]{5,}\.[\w-]{20,}"', "T", screen.get(link).text)
    state = t.state()
    state["secret"][0] = 9
    t.set_state(state)
    after = re.sub(r'"[\w-]{20,}\.[\w-]{5,}\.[\w-]{20,}"', "T", screen.get(link).text)
    before, after = without_clock(before), without_clock(after)  # time runs on, not secrets
    assert before == after
    # It follows the table: its poll answers the new region once something public happened.
    version = version_of(screen.get(link).text)
    poll = link.replace("/display/?", "/display/live?") + f"&v={version}"
    assert screen.get(poll).data == b""
    t.act("Anna", "take", n=3)
    assert "9 pebbles in the pile" in screen.get(poll).text
    # A second link (a second screen) leaves the first one working; a wrong key is a plain 404.
    response = post_from(t.host, f"/t/{t.code}/", f"/t/{t.code}/host/display")
    second = "/" + _link_in(response.text, "/display")
    assert second != link
    assert screen.get(link).status_code == 200 and screen.get(second).status_code == 200
    assert screen.get(f"/t/{t.code}/display/?key=nope").status_code == 404


def test_the_table_page_can_be_added_to_the_home_screen_and_opens_on_the_table(client):
    import json

    code = start_table(client)
    page = client.get(f"/t/{code}/").text
    assert f'rel="manifest" href="/t/{code}/manifest.webmanifest"' in page
    manifest = client.get(f"/t/{code}/manifest.webmanifest")
    assert manifest.mimetype == "application/manifest+json"
    data = json.loads(manifest.data)
    assert data["start_url"] == f"/t/{code}/" and data["display"] == "standalone"
    for icon in data["icons"]:
        assert client.get(icon["src"]).status_code == 200


def test_a_phone_that_scans_the_qr_code_joins_even_past_the_wrong_code_limit(app, client):
    from companion import tables

    code = start_table(client)
    link = (
        re.search(
            r'<p class="join-url"><a href="http://[^/]+(/t/\w+/join\?s=[\w-]+)"',
            client.get(f"/t/{code}/").text,
        )
        .group(1)
        .replace("&amp;", "&")
    )
    phone = app.test_client()  # the same address as a guesser on the café Wi-Fi
    for i in range(tables.JOIN_FAILURE_LIMIT):
        phone.get(f"/t/NOPE{i:03d}/live?v=1")  # polls of unknown codes count too
    assert phone.get(f"/t/{code}/join").status_code == 429  # typed: refused
    page = phone.get(link)
    assert page.status_code == 200 and "Tap your seat" in page.text
    response = phone.post(link, data={"csrf_token": csrf_from(page.text), "seat": 1})
    assert response.status_code == 302
    assert "You are Ben." in phone.get(f"/t/{code}/").text
    # A new QR code: the old link no longer gets past the limit.
    post_from(client, f"/t/{code}/", f"/t/{code}/host/join-link", htmx=False)
    assert app.test_client().get(link).status_code == 429


def test_a_strangers_poll_says_the_same_whether_the_code_exists_or_not(app, client):
    code = start_table(client)
    stranger = app.test_client()
    real = stranger.get(f"/t/{code}/live?v=1")
    fake = stranger.get("/t/ZZZZ222/live?v=1")
    assert real.status_code == fake.status_code == 204
    assert real.headers["HX-Redirect"].endswith("/join?lost=1")
    assert fake.headers["HX-Redirect"].endswith("/join?lost=1")
    assert set(real.headers.keys()) == set(fake.headers.keys())


def test_every_answer_carries_the_security_headers(client):
    code = start_table(client)
    version = version_of(client.get(f"/t/{code}/").text)
    answers = [
        client.get("/"),
        client.get(f"/t/{code}/"),
        client.get("/static/css/app.css"),
        client.get(f"/t/{code}/live?v={version}"),
        client.get("/nope"),
    ]
    style_sheet = answers.pop(2)  # no document: only nosniff means something there
    assert style_sheet.headers["X-Content-Type-Options"] == "nosniff"
    assert "Content-Security-Policy" not in style_sheet.headers
    # An SVG can be opened as a document: a policy that allows nothing.
    icon = client.get("/static/favicon.svg").headers
    assert icon["Content-Security-Policy"].startswith("default-src 'none'")
    assert icon["X-Content-Type-Options"] == "nosniff"
    for response in answers:
        assert "frame-ancestors 'none'" in response.headers["Content-Security-Policy"]
        assert "script-src 'self'" in response.headers["Content-Security-Policy"]
        assert response.headers["X-Content-Type-Options"] == "nosniff"
        assert response.headers["Referrer-Policy"] == "no-referrer"
        assert "Server" not in response.headers


def test_static_files_come_minified_and_compressed_at_their_best(client):
    import gzip

    import brotli

    from companion.web.assets import minified

    answer = client.get("/static/js/app.js", headers={"Accept-Encoding": "gzip, br"})
    assert answer.headers["Content-Encoding"] == "br"
    with open("static/js/app.js", "rb") as fh:
        raw = fh.read()
    served = brotli.decompress(answer.data)
    assert served == minified("static/js/app.js", raw) and len(served) < 0.85 * len(raw)
    # its minified twin (scripts/minify_js.py: terser), the vendored htmx inside as it is
    assert served.startswith(b"var htmx=function()") and b"// ====" not in served
    again = client.get(
        "/static/js/app.js",
        headers={"Accept-Encoding": "br", "If-None-Match": answer.headers["ETag"]},
    )
    assert again.status_code == 304
    # A phone on the table's plain http address is sent no brotli by its browser: gzip at its
    # best, minified all the same (it was the unminified script at gzip's default level).
    plain = client.get("/static/js/app.js", headers={"Accept-Encoding": "gzip, deflate"})
    assert plain.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(plain.data) == served
    assert "Accept-Encoding" in plain.headers["Vary"]
    sheet = client.get("/static/css/app.css", headers={"Accept-Encoding": "gzip, deflate"})
    with open("static/css/app.css", "rb") as fh:
        css = fh.read()
    assert len(sheet.data) < len(gzip.compress(css, 6)) * 0.8


def test_a_huge_body_or_query_is_refused_before_anything_reads_it(client):
    code = start_table(client)
    response = client.post(f"/t/{code}/note", data={"text": "x" * 10_000_000})
    assert response.status_code == 413 and "That was too long" in response.text
    response = client.get("/tools/", query_string={"white": "Aloa-Bari," * 30_000})
    assert response.status_code == 414 and "That was too long" in response.text


def test_behind_a_trusted_proxy_the_public_url_is_required(tmp_path):
    from companion.security import ConfigurationError

    config = {
        "TESTING": True,
        "DATABASE": str(tmp_path / "p.db"),
        "SECRET_KEY": "x",
        "TRUSTED_PROXIES": True,
        "PUBLIC_URL": "",
    }
    with pytest.raises(ConfigurationError, match="COMPANION_PUBLIC_URL"):
        create_app(config)
    app = create_app({**config, "PUBLIC_URL": "https://games.example.org"})
    client = app.test_client()
    page = client.get("/", headers={"X-Forwarded-Proto": "https", "X-Forwarded-For": "10.1.2.3"})
    assert page.status_code == 200
    assert "Secure" in page.headers.get("Set-Cookie", "Secure")
    code = start_table(client)
    assert f"https://games.example.org/t/{code}/join" in client.get(f"/t/{code}/").text


def test_your_tables_say_where_each_game_stands_and_whose_turn_it_is(make_table):
    t = make_table("pebbles", ("Anna", "Ben"))
    anna, ben = t.device("Anna"), t.device("Ben")
    mine = anna.get("/").text.split('id="my-tables"')[1].split("</section>")[0]
    assert "12 pebbles in the pile" in visible(mine) and "your turn" in visible(mine)
    assert "your turn" not in visible(ben.get("/").text.split('id="my-tables"')[1])
    t.act("Anna", "take", n=3)
    assert "9 pebbles in the pile" in visible(ben.get("/").text)
    assert "your turn" in visible(ben.get("/").text.split('id="my-tables"')[1])
    while t.state()["pile"]:
        state = t.state()
        t.act(state["turn"], "take", n=min(3, state["pile"]))
    home = visible(anna.get("/").text.split('id="my-tables"')[1].split("</section>")[0])
    assert "finished" in home and "your turn" not in home


def test_a_whole_numbers_number_is_read_only_after_it_validated(app):
    """WholeNumber.number: the int a validated, required box holds; before a validation it
    passed (an empty or wrong box) it is the code's mistake, not a silent None."""
    from werkzeug.datastructures import MultiDict

    from companion.forms import TakeSeatForm

    with app.test_request_context():
        form = TakeSeatForm(formdata=MultiDict({"seat": "2"}), meta={"csrf": False})
        assert form.validate() and form.seat.number == 2
        empty = TakeSeatForm(formdata=MultiDict({"seat": ""}), meta={"csrf": False})
        assert not empty.validate()
        with pytest.raises(ValueError, match="seat"):
            assert empty.seat.number is None  # never reached: it raises


def test_rendering_the_live_region_writes_nothing_and_opening_it_does(app):
    """live_context only reads; what opening the region means (the host's first look at a seat
    with a phone, presence) is written by note_viewing before it, once per request."""
    from companion import get_db, tables
    from companion.web.table import access
    from companion.web.table.live import live_context, note_viewing
    from tests.helpers import TableDriver

    table = TableDriver(app, "pebbles", ("Anna", "Ben"))

    def stored():
        with app.app_context():
            db = get_db()
            row = tables.get_table(db, table.code)
            looked = [s.host_looked for s in tables.seats(db, row)]
            return row.version, len(tables.events(db, row)), looked

    host_cookie = table.host.get_cookie(f"host_{table.code}", path=f"/t/{table.code}").value
    with app.test_request_context(
        f"/t/{table.code}/?as=1", headers={"Cookie": f"host_{table.code}={host_cookie}"}
    ):
        w = access.who(tables.get_table(get_db(), table.code))
        before = stored()
        live_context(w)
        assert stored() == before
        note_viewing(w)
        after = stored()
    # Ben's seat has a phone: the host's first look at it is written, with one history line.
    assert after[2] == [False, True] and after[1] == before[1] + 1 and after[0] > before[0]


def test_the_text_size_is_chosen_in_the_footer_and_kept_per_device(client):
    page = client.get("/plays")
    assert 'id="text-larger"' in page.text and "data-text" not in page.text
    larger = client.get("/text/1?next=/plays")
    assert larger.status_code == 302 and larger.headers["Location"] == "/plays"
    client.get("/text/1?next=/plays")
    assert 'data-text="2"' in client.get("/").text  # two steps up, on every page
    for _ in range(6):
        client.get("/text/1")
    assert 'data-text="3"' in client.get("/").text  # the largest size is the limit
    for _ in range(9):
        client.get("/text/-1")
    assert 'data-text="-1"' in client.get("/").text
    assert client.get("/text/1?next=//evil.example/").headers["Location"] == "/"
    client.set_cookie("text", "99")
    assert "data-text" not in client.get("/").text  # a forged size is no size


def test_a_versioned_file_is_kept_a_year_without_validators_whole_or_in_part(client):
    """A versioned address never changes its file: the browser keeps it a year and never asks
    again, so what it would revalidate by (ETag, Last-Modified, Expires) is bytes for nothing,
    also on the part of the keep-awake video a phone asks for (Range: bytes=0-, answered 206)."""
    import re

    code = start_table(client)
    page = client.get(f"/t/{code}/").text
    video = re.search(r'src="(/static/media/keep-awake\.webm\?v=\w+)"', page).group(1)
    whole = client.get(video)
    part = client.get(video, headers={"Range": "bytes=0-"})
    assert (whole.status_code, part.status_code) == (200, 206)
    assert part.headers["Content-Range"].startswith("bytes 0-") and part.data == whole.data
    for answer in (whole, part):
        assert answer.cache_control.immutable and answer.cache_control.max_age == 31536000
        for name in ("ETag", "Last-Modified", "Expires"):
            assert name not in answer.headers, name

"""The table store: creating tables, seats, the event log, versions, undo, replay, restarts."""

from __future__ import annotations

import json
import sys
import types

import pytest

from companion import db as database
from companion import tables
from companion.games import GAMES, base
from companion.games.base import N_, Msg, RuleError, Seat

# Both stores (tests/conftest.py): codes, seats, the event log, undo, concurrent writers.
pytestmark = pytest.mark.both_stores

# A tiny counting game registered for these tests only, so the store is tested apart from any
# real game's rules: each seat adds a positive number to the shared total, in turn.
counter = types.ModuleType("companion.games.test_counter.rules")


def _new(options, players):
    return {"total": 0, "turn": 0, "players": players, "adds": []}


def _add(state, action):
    if action["n"] <= 0:
        raise RuleError("positive", N_("Add a positive number."))
    state["total"] += action["n"]
    state["turn"] = (state["turn"] + 1) % state["players"]
    state["adds"].append(action["n"])


def _describe(before, action, after):
    return [Msg(N_("%(who)s added %(n)s"), who=Seat(action["seat"]), n=action["n"])]


def _may_undo(before, action, after):
    return action["n"] != 13  # a stand-in for "this action revealed a secret"


counter.GAME = base.Rules(
    min_players=2,
    max_players=4,
    new=_new,
    moves=base.Moves(
        {"add": base.Move(_add)},
        is_over=lambda state: False,
        over_message=lambda state: Msg(N_("Over.")),
        turn=lambda state: [state["turn"]],
        not_on_turn=lambda state, action: RuleError(
            "turn", N_("It is %(who)s's turn."), who=Seat(state["turn"])
        ),
    ),
    view=lambda state, seat, reveal=False: state,
    result=lambda state: None,
    describe=_describe,
    progress=lambda state: Msg(N_("Total %(n)s"), n=state["total"]),
    summaries={},
    may_undo=_may_undo,
)


@pytest.fixture(autouse=True)
def counter_game(monkeypatch):
    package = types.ModuleType("companion.games.test_counter")
    monkeypatch.setitem(sys.modules, "companion.games.test_counter", package)
    monkeypatch.setitem(sys.modules, "companion.games.test_counter.rules", counter)
    monkeypatch.setitem(
        GAMES, "counter", base.GameInfo("counter", "Counter", "companion.games.test_counter", 2, 4)
    )
    yield


@pytest.fixture
def db(store_url):
    store = database.connect(store_url, setup=True)
    yield store
    store.conn.close()


@pytest.fixture
def table(db):
    table, _ = tables.create_table(db, "counter", ["Anna", "Ben", "Chris"])
    return table


def add(db, table, seat, n, version=None):
    return tables.act(
        db, table, {"type": "add", "n": n}, seat=seat, host=False, expected_version=version
    )


def test_create_table_gives_code_seats_and_host_token(db):
    table, host_token = tables.create_table(db, "counter", ["Anna", "Ben"])
    assert len(table.code) == 7 and set(table.code) <= set(tables.CODE_ALPHABET)
    assert [s.name for s in tables.seats(db, table)] == ["Anna", "Ben"]
    assert tables.is_host(db, table, host_token)
    assert not tables.is_host(db, table, "forged")
    # The token is stored hashed, never in clear.
    stored = db.execute("SELECT host_hash FROM tables").fetchone()[0]
    assert host_token not in stored and stored == tables.hash_token(host_token)


def test_code_space_is_large_enough():
    assert len(tables.CODE_ALPHABET) ** tables.CODE_LENGTH >= 10**9


def test_player_count_outside_the_game_limits_is_refused(db):
    with pytest.raises(tables.TableError) as info:
        tables.create_table(db, "counter", ["Solo"])
    assert str(info.value) == "Players for Counter: 2 to 4."
    with pytest.raises(tables.TableError):
        tables.create_table(db, "no-such-game", ["A", "B"])


def test_codes_are_found_whatever_the_case_and_spacing(db, table):
    typed = " " + table.code[:3].lower() + "-" + table.code[3:] + " "
    assert tables.find_table(db, typed).id == table.id
    assert tables.find_table(db, "ZZZZZZZ") is None


def test_join_takes_a_free_seat_once(db, table):
    token = tables.join(db, table, 1, "Benny")
    assert tables.seat_for_token(db, table, token) == 1
    assert tables.seats(db, table)[1].name == "Benny"
    with pytest.raises(tables.TableError, match="just taken"):
        tables.join(db, table, 1)
    assert tables.seat_for_token(db, table, "forged-token") is None


def test_locked_table_refuses_new_phones(db, table):
    tables.set_locked(db, table, True)
    with pytest.raises(tables.TableError, match="locked"):
        tables.join(db, table, 0)
    tables.set_locked(db, table, False)
    assert tables.join(db, table, 0)


def test_freeing_a_seat_drops_its_phone(db, table):
    token = tables.join(db, table, 2)
    tables.free_seat(db, table, 2)
    assert tables.seat_for_token(db, table, token) is None
    assert not tables.seats(db, table)[2].taken


def test_an_action_is_stored_with_its_history_line_and_bumps_the_version(db, table):
    v0 = tables.current_version(db, table.code)
    state = add(db, table, 0, 5, version=v0)
    assert state["total"] == 5
    assert tables.current_version(db, table.code) == v0 + 1
    (event,) = tables.events(db, table)
    assert event.action == {"type": "add", "n": 5, "seat": 0, "host": False}
    assert event.lines[0].msgid == "%(who)s added %(n)s"
    assert event.lines[0].params == {"who": Seat(0), "n": 5}


def test_a_refused_action_stores_nothing(db, table):
    v0 = tables.current_version(db, table.code)
    with pytest.raises(RuleError) as info:
        add(db, table, 1, 5, version=v0)  # not Ben's turn
    assert info.value.rule == "turn"
    assert tables.events(db, table) == []
    assert tables.current_version(db, table.code) == v0


def test_of_two_writes_from_the_same_version_exactly_one_wins(db, table):
    v0 = tables.current_version(db, table.code)
    add(db, table, 0, 5, version=v0)
    with pytest.raises(tables.Conflict):
        add(db, table, 1, 7, version=v0)  # rendered before the first write landed
    assert [e.action["n"] for e in tables.events(db, table)] == [5]
    assert tables.state_of(db, table)["total"] == 5


def test_a_join_or_a_note_does_not_make_a_game_form_stale(db, table):
    rendered = tables.current_version(db, table.code)
    tables.join(db, table, 2, "Chris")  # someone joins while Anna types her entry
    tables.add_note(db, table, "Chris is here", seat=2, host=False)
    assert add(db, table, 0, 5, version=rendered)["total"] == 5


def test_a_new_history_line_makes_an_undo_button_stale(db, table):
    add(db, table, 0, 5)
    rendered = tables.current_version(db, table.code)  # the button says "Undo: Anna added 5"
    tables.add_note(db, table, "oops", seat=1, host=False)  # ... but a note came in since
    with pytest.raises(tables.Conflict):
        tables.undo(db, table, seat=None, host=True, expected_version=rendered)
    assert [e.undone for e in tables.events(db, table)] == [False, False]
    tables.join(db, table, 2)  # a join alone does not
    fresh = tables.current_version(db, table.code) - 1
    assert tables.undo(db, table, seat=None, host=True, expected_version=fresh).kind == "note"


def test_concurrent_writers_in_threads_never_both_win(store_url):
    """Two connections (two server threads) submit from the same version at the same moment."""
    import threading

    path = store_url
    setup = database.connect(path, setup=True)
    table, _ = tables.create_table(setup, "counter", ["A", "B"])
    v0 = tables.current_version(setup, table.code)
    outcomes = []
    barrier = threading.Barrier(2)

    def write(n):
        conn = database.connect(path)
        barrier.wait()
        try:
            tables.act(
                conn, table, {"type": "add", "n": n}, seat=0, host=False, expected_version=v0
            )
            outcomes.append("won")
        except tables.Conflict:
            outcomes.append("conflict")

    threads = [threading.Thread(target=write, args=(n,)) for n in (1, 2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["conflict", "won"]
    assert len(tables.events(setup, table)) == 1


def test_undo_marks_the_event_and_replays_without_it(db, table):
    add(db, table, 0, 5)
    add(db, table, 1, 7)
    undone = tables.undo(db, table, seat=None, host=True, expected_version=None)
    assert undone.action["n"] == 7
    state = tables.state_of(db, table)
    assert state["total"] == 5 and state["turn"] == 1
    log = tables.events(db, table)
    assert [(e.action["n"], e.undone) for e in log] == [(5, False), (7, True)]
    # The next undo takes the action before it.
    tables.undo(db, table, seat=None, host=True, expected_version=None)
    assert tables.state_of(db, table) == _new({}, 3)


def test_a_seat_may_undo_only_its_own_last_action_while_nobody_acted_since(db, table):
    add(db, table, 0, 5)
    assert tables.may_undo(db, table, seat=1, host=False) is None
    assert tables.may_undo(db, table, seat=0, host=False) is not None
    add(db, table, 1, 7)
    with pytest.raises(tables.TableError, match="nothing you may undo"):
        tables.undo(db, table, seat=0, host=False, expected_version=None)
    tables.undo(db, table, seat=1, host=False, expected_version=None)
    assert tables.state_of(db, table)["total"] == 5


def test_the_game_can_forbid_a_seat_to_undo_across_a_secret(db, table):
    add(db, table, 0, 13)
    assert tables.may_undo(db, table, seat=0, host=False) is None
    assert tables.may_undo(db, table, seat=None, host=True) is not None


def test_notes_go_to_the_history_without_touching_the_game(db, table):
    add(db, table, 0, 5)
    tables.add_note(db, table, "  Ben   dropped a card ", seat=1, host=False)
    log = tables.events(db, table)
    assert log[-1].kind == "note" and log[-1].lines[0].params["text"] == "Ben dropped a card"
    assert tables.state_of(db, table)["total"] == 5
    with pytest.raises(tables.TableError):
        tables.add_note(db, table, "   ", seat=1, host=False)
    # Undoing the note leaves the game as it was.
    tables.undo(db, table, seat=1, host=False, expected_version=None)
    assert tables.state_of(db, table)["total"] == 5


def test_replay_of_the_log_equals_the_snapshot(db, table):
    for seat, n in [(0, 3), (1, 4), (2, 5), (0, 6)]:
        add(db, table, seat, n)
    tables.undo(db, table, seat=None, host=True, expected_version=None)
    add(db, table, 0, 9)
    assert tables.replay(table, tables.events(db, table)) == tables.state_of(db, table)


def test_everything_survives_reopening_the_file(tmp_path):
    path = tmp_path / "restart.db"
    first = database.connect(path, setup=True)
    table, host_token = tables.create_table(first, "counter", ["Anna", "Ben"])
    seat_token = tables.join(first, table, 1)
    add(first, table, 0, 5)
    first.conn.close()  # the server stops

    again = database.connect(path, setup=True)  # and starts again: migrations are idempotent
    table = tables.get_table(again, table.code)
    assert tables.is_host(again, table, host_token)
    assert tables.seat_for_token(again, table, seat_token) == 1
    assert tables.state_of(again, table)["total"] == 5
    assert len(tables.events(again, table)) == 1
    assert again.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_too_many_wrong_codes_are_refused_for_a_while(db):
    for i in range(tables.JOIN_FAILURE_LIMIT):
        tables.count_unknown_code(db, "guesser", "10.1.1.1", now=1000.0 + i)
    with pytest.raises(tables.TableError, match="Too many"):
        tables.check_join_allowed(db, "guesser", "10.1.1.1", now=1100.0)
    tables.check_join_allowed(db, None, "10.9.9.9", now=1100.0)  # another address is fine
    tables.check_join_allowed(db, "player", "10.1.1.1", now=1100.0)  # so is another device
    later = 1000.0 + tables.JOIN_FAILURE_WINDOW + 60
    tables.check_join_allowed(db, "guesser", "10.1.1.1", now=later)


def test_devices_without_an_id_share_their_addresss_count(db):
    for i in range(tables.JOIN_FAILURE_LIMIT):
        tables.count_unknown_code(db, None, "10.1.1.1", now=1000.0 + i)
    with pytest.raises(tables.TableError, match="Too many"):
        tables.check_join_allowed(db, None, "10.1.1.1", now=1100.0)
    tables.check_join_allowed(db, "player", "10.1.1.1", now=1100.0)


def test_one_address_has_a_ceiling_however_many_devices_it_claims(db):
    for i in range(tables.ADDRESS_FAILURE_LIMIT):
        tables.count_unknown_code(db, f"device{i // 10}", "10.1.1.1", now=1000.0 + i / 10)
    with pytest.raises(tables.TableError, match="Too many"):
        tables.check_join_allowed(db, "someone-new", "10.1.1.1", now=1100.0)
    tables.check_join_allowed(db, "someone-new", "10.2.2.2", now=1100.0)


def test_messages_survive_a_json_round_trip():
    msg = Msg(
        N_("%(who)s paid %(n)s: %(detail)s"),
        who=Seat(2),
        n=13,
        detail=Msg(N_("%(n)s to the bank"), n=1),
    )
    again = Msg.from_json(json.loads(json.dumps(msg.to_json())))
    assert again == msg and again.params == msg.params
    assert isinstance(again.params["who"], Seat)
    assert str(again) == "Player 3 paid 13: 1 to the bank"


def test_undo_from_checkpoints_equals_a_full_replay_however_long_the_log(db, table):
    """Long tables keep a checkpoint every SNAPSHOT_EVERY game events; undos, notes and new
    actions in any order must leave the same state as replaying the whole log."""
    import random

    rng = random.Random(7)
    turn = 0
    for step in range(400):
        roll = rng.random()
        undone = roll < 0.15 and tables.may_undo(db, table, seat=None, host=True) is not None
        if undone:
            tables.undo(db, table, seat=None, host=True, expected_version=None)
            turn = tables.state_of(db, table)["turn"]
        elif roll < 0.25:
            tables.add_note(db, table, f"note {step}", seat=None, host=True)
        else:
            add(db, table, turn, rng.randint(1, 9))
            turn = (turn + 1) % 3
        # After every undo (it starts from a checkpoint) and every tenth step (a difference
        # stays in the state until undone): replaying the whole log each step made this test
        # quadratic.
        if undone or step % 10 == 9:
            assert tables.state_of(db, table) == tables.replay(table, tables.events(db, table))
    kept = db.execute("SELECT count(*) FROM snapshots WHERE table_id = ?", [table.id]).fetchone()
    assert kept[0] >= 5  # the checkpoints were used


def test_events_stored_before_the_undo_flag_ask_the_game_again(db, table):
    add(db, table, 0, 13)  # the counter game's stand-in for "revealed a secret"
    db.execute("UPDATE events SET seat_may_undo = NULL WHERE table_id = ?", [table.id])
    db.conn.commit()
    assert tables.may_undo(db, table, seat=0, host=False) is None
    add(db, table, 1, 4)
    db.execute("UPDATE events SET seat_may_undo = NULL WHERE table_id = ?", [table.id])
    db.conn.commit()
    assert tables.may_undo(db, table, seat=1, host=False) is not None


def test_recent_events_are_the_newest_first_with_the_total(db, table):
    for n in range(1, 8):
        add(db, table, (n - 1) % 3, n)
    assert [e.action["n"] for e in tables.recent_events(db, table, 3)] == [7, 6, 5]
    assert tables.count_events(db, table) == 7

"""Table codes: creating a table under a new code, finding it by what a person typed, and the limit
on wrong codes (codes must not be guessable); the QR code's join secret that passes that limit."""

from __future__ import annotations

import json
import secrets
import time

from companion.games import GAMES
from companion.games.base import N_, Msg
from companion.store import Store
from companion.tables.event_log import note_progress
from companion.tables.model import Table, TableError, hash_token

# No 0/O, 1/I/L, U/V: easy to read aloud and to type. 31 letters ** 7 = 2.75e10 codes.
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTWXYZ"
CODE_LENGTH = 7
JOIN_FAILURE_LIMIT = 20  # wrong codes a device may type ...
ADDRESS_FAILURE_LIMIT = 100  # ... and all the devices behind one address together ...
JOIN_FAILURE_WINDOW = 600  # ... in this many seconds


def normalize_code(text: str) -> str:
    """What a person typed as a table code, uppercased, without spaces or dashes."""
    return "".join(ch for ch in text.upper() if ch.isalnum())


def new_code() -> str:
    """A random table code (the caller makes sure no table has it yet)."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def _row_to_table(row: dict) -> Table:
    return Table(
        id=row["id"],
        code=row["code"],
        game=GAMES[row["game"]],
        players=row["players"],
        options=json.loads(row["options"]),
        locked=bool(row["locked"]),
        version=row["version"],
        reveal=bool(row["reveal"]),
        host_seen=row["host_seen"],
        touched=row["touched"],
        created=row["created"],
        join_secret=row["join_secret"] or "",
        ended=row["ended"],
        rematch_code=row["rematch_code"],
        rematch_shift=row["rematch_shift"] or 0,
        timezone=row["timezone"],
        location=row["location"],
        replay_all=bool(row["replay_all"]),
        settings=json.loads(row.get("settings") or "{}"),
        ticks=tuple(json.loads(row.get("ticks") or "[]")),
        clock=json.loads(row["clock"]) if row.get("clock") else None,
    )


def create_table(
    db: Store,
    game_key: str,
    names: list[str],
    named: list[bool] | None = None,
    *,
    timezone: str | None = None,
    location: str | None = None,
    settings: dict | None = None,
    readings: dict | None = None,
) -> tuple[Table, str]:
    """Start a table for this game with one seat per name; returns it and the host's token.

    named tells which names a person typed (default names are not people, for the statistics);
    timezone (an IANA name) and location are what the exports date and place its play by;
    settings are the table's options beyond the game's (a time bank: companion/timing.py);
    readings, the open points this table reads the other way (the game option "readings").
    """
    game = GAMES.get(game_key)
    if game is None:
        raise TableError(N_("There is no game called %(game)s."), game=game_key)
    players = len(names)
    if not game.min_players <= players <= game.max_players:
        raise TableError(
            N_("Players for %(game)s: %(min)s to %(max)s."),
            game=Msg.of_part(game.name, game.label),
            min=game.min_players,
            max=game.max_players,
        )
    options = dict(game.options)
    if readings:
        options["readings"] = dict(readings)
    state = game.rules.new(options, players)
    host_token = secrets.token_urlsafe(32)
    with db.write():
        code = new_code()
        while db.execute("SELECT 1 FROM tables WHERE code = ?", [code]).fetchone():
            code = new_code()
        now = time.time()
        (table_id,) = db.execute(
            "INSERT INTO tables (code, game, players, options, host_hash, locked, version, state,"
            " created, touched, join_secret, timezone, location, settings)"
            " VALUES (?, ?, ?, ?, ?, 0, 1, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
            [
                code,
                game.key,
                players,
                json.dumps(options),
                hash_token(host_token),
                json.dumps(state),
                now,
                now,
                secrets.token_urlsafe(16),
                timezone,
                location,
                json.dumps(settings or {}),
            ],
        ).fetchone()
        for seat, name in enumerate(names):
            db.execute(
                "INSERT INTO seats (table_id, seat, name, named) VALUES (?, ?, ?, ?)",
                [table_id, seat, name, int(bool(named and named[seat]))],
            )
        note_progress(db, table_id, game.rules, state)
    return get_table(db, code), host_token


def find_table(db: Store, code: str) -> Table | None:
    """The table with this code (as typed: case and spaces do not matter), or None."""
    rows = list(db.query("SELECT * FROM tables WHERE code = ?", [normalize_code(code)]))
    return _row_to_table(rows[0]) if rows else None


def get_table(db: Store, code: str) -> Table:
    """The table with this code, or a TableError people can read."""
    table = find_table(db, code)
    if table is None:
        raise TableError(
            N_("There is no table with the code %(code)s. Check the code on the host's screen."),
            status=404,
            code=normalize_code(code)[:12],
        )
    return table


def scanned(table: Table, secret: str | None) -> bool:
    """Whether a request carries the table's join secret (it came from the QR code)."""
    if not secret or not table.join_secret:
        return False
    # as bytes: compare_digest refuses str with non-ASCII characters (a typed-in link)
    return secrets.compare_digest(secret.encode(), table.join_secret.encode())


# --- join attempts ------------------------------------------------------------------------------


def _limit_keys(device: str | None, address: str) -> tuple[str, str]:
    """The two counts a wrong code adds to: the device's own (or, for a device without an id,
    its address's cookieless one), and the address's (every device behind it together)."""
    own = f"d:{device}" if device else f"n:{address}"
    return own, f"a:{address}"


def _recent(db: Store, keys: tuple[str, str], since: float) -> dict[str, int]:
    """How many attempts each key made since then (the limits' log)."""
    return dict(
        db.execute(
            "SELECT client, count(*) FROM join_failures WHERE client IN (?, ?) AND at > ?"
            " GROUP BY client",
            [*keys, since],
        ).fetchall()
    )


def check_join_allowed(
    db: Store, device: str | None, address: str, now: float | None = None
) -> None:
    """Refuse a device that typed too many wrong codes lately (codes must not be guessable),
    or any device behind an address from which very many wrong codes came: one guesser on a
    shared Wi-Fi locks out only their own device, unless they keep changing it."""
    now = time.time() if now is None else now
    own, shared = _limit_keys(device, address)
    counts = _recent(db, (own, shared), now - JOIN_FAILURE_WINDOW)
    if counts.get(own, 0) >= JOIN_FAILURE_LIMIT or counts.get(shared, 0) >= ADDRESS_FAILURE_LIMIT:
        raise TableError(
            N_(
                "Too many wrong table codes from this device. Wait ten minutes and "
                "try again, or scan the QR code on the host's screen."
            ),
            status=429,
        )


def count_unknown_code(
    db: Store, device: str | None, address: str, now: float | None = None
) -> None:
    """Record that a device asked for a code that does not exist; refuse it past the limit."""
    now = time.time() if now is None else now
    check_join_allowed(db, device, address, now)
    with db.write():
        db.execute("DELETE FROM join_failures WHERE at < ?", [now - JOIN_FAILURE_WINDOW])
        for key in _limit_keys(device, address):
            db.execute("INSERT INTO join_failures (client, at) VALUES (?, ?)", [key, now])


# --- tables started ------------------------------------------------------------------------------
# Started tables are logged in the same table as wrong codes (join_failures: a recent attempt by
# a client key, kept ten minutes), under keys of their own: "c:<device>" (or, for a device
# without an id, "cn:<address>") and "ca:<address>".
CREATE_WINDOW = 60  # seconds the limits on started tables count over


def _create_keys(device: str | None, address: str) -> tuple[str, str]:
    return (f"c:{device}" if device else f"cn:{address}"), f"ca:{address}"


def check_create_allowed(
    db: Store,
    device: str | None,
    address: str,
    *,
    per_device: int,
    per_address: int,
    now: float | None = None,
) -> None:
    """Refuse a device that started per_device tables in the last minute, or any device behind
    an address that started per_address (0: no limit). A host at a real table starts a few in an
    evening; one script started 168 a second, and each table is kept until it is purged."""
    now = time.time() if now is None else now
    own, shared = _create_keys(device, address)
    counts = _recent(db, (own, shared), now - CREATE_WINDOW)
    if (per_device and counts.get(own, 0) >= per_device) or (
        per_address and counts.get(shared, 0) >= per_address
    ):
        raise TableError(
            N_(
                "This device started many tables in the last minute. Wait a minute and try "
                "again; the tables already started are on the list of your tables."
            ),
            status=429,
        )


def count_created(db: Store, device: str | None, address: str, now: float | None = None) -> None:
    """Log a started table for the limits."""
    now = time.time() if now is None else now
    with db.write():
        db.execute("DELETE FROM join_failures WHERE at < ?", [now - JOIN_FAILURE_WINDOW])
        for key in _create_keys(device, address):
            db.execute("INSERT INTO join_failures (client, at) VALUES (?, ?)", [key, now])

"""Hostile requests over every route: the app never answers 5xx, never prints a traceback, and a
refused request (4xx) changes nothing.

    python -m scripts.check_fuzz                      # 10,000 requests (a few minutes)
    python -m scripts.check_fuzz --quick              # 400 requests: what `make test` runs
    python -m scripts.check_fuzz --seed 7 --requests 2000

The app is served as `make run` serves it (scripts/check_kit.py) on a free loopback port with tables of every
game, some fresh, some played half way (by the games' random-game generators). The routes are read
from the app's url_map, so a new route is covered without touching this file. Each request is one
of: a route with odd path values (bad codes, seats, actions, languages, files), an allowed or a
wrong method, a malformed or oversize query string, and for a POST a body made from the route's
form (every game's every action form, the core forms, the calculators' forms) with missing or
wrong CSRF tokens, stale versions, huge and odd numbers, unicode, very long strings, repeated and
unknown fields, or an oversize, JSON, multipart, chunked or undecodable body. It is sent as a
table's host, one of its phones, a phone of another table, the table display, a stranger (from
many loopback addresses, so that the limit on wrong codes is met by some and not others) or a
device with forged cookies; any of them may carry a hostile list of tables (forged, tampered with,
or inflated to 20 KB) or a forged device id, and some requests have an invalid Host header on top
of an oversize query or body. Now and then a member sends a legal action (the games move on).
Every answer's headers must stay under 8 KB, every error page (a refusal shows the whole table again: not
those) under 16 KB, and an answer to a
request with hostile cookies must take under 0.5 s, or (on a machine too busy for that) no longer
than the slowest answer to a request without them in the same run.

Last, the names of every table's seats are set in the database to hostile ones (line breaks that
forge a line, NUL, a right-to-left override, spreadsheet formulas: rows stored before the forms
refused them), each table is played to its end, and every export (text, CSV, JSON, the BG Stats
file and link, the whole record's CSV) must carry no control character, no forged line and no
typed cell a spreadsheet would read as a formula.

Requests go one at a time, so every refusal is checked on its own: the tables' games, logs, seats,
locks, switches, links and applied submission keys must be exactly as before. Allowed: the
presence marks, the version, and a "trace" line (the host's first look at a seat), and the fine
a game adds to a refused entry (its follow_up). The exit status is 1 if any goal is missed.
"""

from __future__ import annotations

import json
import random
import re
import secrets
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from companion import tables
from companion.web.adapter import adapter_of
from scripts.check_kit import (
    GAMES,
    HX,
    ROOT,
    Client,
    Figures,
    Store,
    TableAt,
    advance,
    announce,
    check_database,
    check_parser,
    conclude,
    csrf_from,
    forms_app,
    generator,
    legal_post,
    new_display_key,
    open_table,
    start_app,
    take_seat,
)

NUMBERS = [
    "0", "1", "-1", "2", "3", "5", "9", "10", "11", "99", "999", "1000", "-0", "+5", " 7 ", "007",
    "1e3", "0x1f", "1_000", "3.0", "2.5", "NaN", "inf", "-inf", "٣", "５", "²", "999999999",
    "9999999999", "9" * 50, "9" * 5000, str(2**63), str(-(2**63) - 1), "", "null", "true",
]  # fmt: skip
TEXTS = [
    "", " ", "Anna", "名前です", "Имя игрока", "🦓🦒🐘", "\u202eevil", "a\x00b", "\x00",
    "<script>alert(1)</script>", '"><img src=x>', "{{7*7}}", "%(x)s %s {0}", "' OR 1=1 --",
    "\r\nSet-Cookie: x=1", "ÅÄÖ" * 9, "x" * 25, "y" * 61, "z" * 201, "w" * 5000, "🦓" * 300,
    "nuba", "tonga", "Tonga", "desert", "draw", "buy", "move", "on", "off", "deck", "display",
]  # fmt: skip
BAD_HOSTS = ["h" * 300, "bad host!", "[::1", "a..b", "é.example", "x:y:z", ""]
HEADERS_MAX = 8192  # bytes of an answer's headers
ERROR_PAGE_MAX = 16384  # bytes of an error page
HOSTILE_SECONDS = 0.5  # the slowest answer allowed to a request with hostile cookies
BAD_METHODS = ["PUT", "DELETE", "PATCH", "TRACE", "FOO", "get", "CONNECT"]
QUERY_NAMES = [
    "v", "as", "s", "key", "lost", "reveal", "next", "players", "bid", "winner", "variant", "pot",
    "white", "black", "terrain", "marks", "bonus", "money", "p-0-bid", "p-1-money", "token",
    "lang", "", "v[]", "a" * 300,
]  # fmt: skip
RAW_QUERIES = [
    "%", "%zz", "&&&", "=", "==&=", "a=%FF%FE", "v=1&v=2&v=x", ";", "v=%00", "as=%E2%80%AE1",
    "v=" + "9" * 3000, "x=" + "y" * 5000, "%ED%A0%80=1", "as=1&as=2", "s=" + "A" * 100,
]  # fmt: skip


# --- what the app offers -------------------------------------------------------------------------


def field_specs(form_class, **kwargs) -> list[dict]:
    """The fields a form reads: name, kind (int, bool, text), choices and range."""
    from wtforms import BooleanField, FieldList, FormField, IntegerField
    from wtforms.validators import AnyOf, NumberRange

    specs: list[dict] = []

    def spec(name: str, field_class, validators) -> dict:
        kind = "text"
        if issubclass(field_class, IntegerField):
            kind = "int"
        elif issubclass(field_class, BooleanField):
            kind = "bool"
        choices, low, high = [], None, None
        for validator in validators or []:
            if isinstance(validator, AnyOf):
                choices = list(validator.values)
            if isinstance(validator, NumberRange):
                low, high = validator.min, validator.max
        return {"name": name, "kind": kind, "choices": choices, "low": low, "high": high}

    def walk(fields) -> None:
        for f in fields:
            if f.name in ("csrf_token", "version", "key"):
                continue
            if isinstance(f, FieldList):
                inner = f.unbound_field
                for i in range(max(len(f.entries), 3) + 1):
                    if i < len(f.entries) and isinstance(f.entries[i], FormField):
                        walk(f.entries[i])
                    elif issubclass(inner.field_class, FormField):
                        continue
                    else:
                        specs.append(
                            spec(f"{f.name}-{i}", inner.field_class, inner.kwargs.get("validators"))
                        )
            elif isinstance(f, FormField):
                walk(f)
            else:
                specs.append(spec(f.name, type(f), f.validators))

    with forms_app().test_request_context():
        walk(form_class(formdata=None, meta={"csrf": False}, **kwargs))
    return specs


def endpoint_forms() -> dict[str, list[list[dict]]]:
    """Endpoint -> the field lists it may read (a route may read one of several forms)."""
    import importlib

    from flask_wtf import FlaskForm

    from companion import forms as core

    found: dict[str, list[list[dict]]] = {
        "table.note": [field_specs(core.NoteForm)],
        "table.join": [field_specs(core.TakeSeatForm)],
        "table.rename": [field_specs(core.RenameSeatForm)],
        "lobby.create": [field_specs(core.NewTableForm)],
        "lobby.join_by_code": [field_specs(core.JoinCodeForm)],
        "table.take_host": [[{"name": "token", "kind": "text", "choices": [], "low": 0}]],
    }
    for info in GAMES.values():
        name = adapter_of(info).calculator_module
        if not name:
            continue
        module = importlib.import_module(name)
        endpoint_prefix = module.bp.name
        specs = []
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, FlaskForm) and value is not FlaskForm:
                if value.__module__ == module.__name__:
                    specs.append(field_specs(value))
        for rule in forms_app().url_map.iter_rules():
            if rule.endpoint.startswith(endpoint_prefix + "."):
                found.setdefault(rule.endpoint, []).extend(specs)
        for endpoint, read in getattr(module, "FORMS_READ", {}).items():
            for form_class, kwargs in read:
                found.setdefault(endpoint, []).append(field_specs(form_class, **kwargs))
    return found


GAME_FORMS: dict[str, dict[str, list[dict]]] = {}


def game_forms(game: str) -> dict[str, list[dict]]:
    if game not in GAME_FORMS:
        GAME_FORMS[game] = {
            kind: field_specs(cls) for kind, cls in adapter_of(GAMES[game]).forms.items()
        }
    return GAME_FORMS[game]


def static_files() -> list[str]:
    files = [
        str(p.relative_to(ROOT / "static")) for p in (ROOT / "static").rglob("*") if p.is_file()
    ]
    return sorted(files)[:50]


# --- the fuzzer ----------------------------------------------------------------------------------


class Fuzzer:
    """Makes and sends hostile requests, one at a time, and checks each answer."""

    def __init__(self, server, store: Store, tables_at: list[TableAt], rng: random.Random):
        self.server, self.store, self.tables, self.rng = server, store, tables_at, rng
        self.port = server.port
        self.rules = [r for r in forms_app().url_map.iter_rules()]
        self.forms = endpoint_forms()
        self.files = static_files()
        self.strangers = [Client(self.port, source=f"127.0.1.{i}") for i in range(1, 41)]
        self.csrf: dict[int, str] = {}
        self.keys_used: list[str] = []
        self.statuses: Counter = Counter()
        self.endpoints: Counter = Counter()
        self.server_errors: list[str] = []
        self.no_answer: list[str] = []
        self.changed_by_refusal: list[str] = []
        self.legal_sent = 0
        self.sent = 0
        self.largest_headers = (0, "")
        self.largest_error = (0, "")
        self.slowest_hostile = (0.0, "")
        self.slowest_plain = 0.0  # the same run's baseline: requests without hostile cookies

    # -- who sends it

    def viewer(self, table: TableAt) -> tuple[Client, str]:
        rng = self.rng
        roll = rng.random()
        if roll < 0.3:
            return table.host, "host"
        if roll < 0.6:
            phones = [p for p in table.phones if p is not None]
            return rng.choice(phones), "seat"
        if roll < 0.68:
            other = rng.choice(self.tables)
            phones = [p for p in other.phones if p is not None]
            return rng.choice(phones or [other.host]), "other table"
        if roll < 0.76:
            client = Client(self.port, source=rng.choice(self.strangers).source)
            return client, "display"
        if roll < 0.92:
            return rng.choice(self.strangers), "stranger"
        forged = Client(self.port, source=rng.choice(self.strangers).source)
        victim = rng.choice(self.tables)
        donor = rng.choice(self.tables)
        if rng.random() < 0.5:
            forged.cookies[f"host_{victim.code}"] = rng.choice(
                [secrets.token_urlsafe(32), donor.host.cookies.get(f"host_{donor.code}", "x"), ""]
            )
        else:
            phone = rng.choice([p for p in donor.phones if p is not None])
            forged.cookies[f"seat_{victim.code}"] = phone.cookies.get(f"seat_{donor.code}", "x")
        if rng.random() < 0.3:
            forged.cookies["session"] = rng.choice(["x", "a.b.c", "é" * 40, "0" * 4000])
        return forged, "forged"

    def hostile(self, client: Client) -> Client:
        """A copy of this device whose list of tables or device id is forged, tampered with or
        inflated (the device's own cookies stay as they are)."""
        rng = self.rng
        copy = Client(self.port, source=client.source)
        copy.cookies = dict(client.cookies)
        codes = [t.code for t in self.tables]
        roll = rng.random()
        if roll < 0.3:  # real codes in the unsigned form of before the signing
            copy.cookies["tables"] = ",".join(f"{c}:hs" for c in rng.sample(codes, len(codes)))
            copy.cookies["my_tables"] = copy.cookies["tables"]
        elif roll < 0.55:  # a signed list with its codes changed
            signed = client.cookies.get("tables") or rng.choice(self.tables).host.cookies.get(
                "tables", "X:h.sig"
            )
            copy.cookies["tables"] = signed.replace(signed[:7], rng.choice(codes), 1)
        elif roll < 0.85:  # inflated: thousands of entries (unknown codes and real ones)
            entries = [f"{tables.new_code()}:hs" for _ in range(rng.choice([200, 1000, 2000]))]
            entries += [f"{c}:s" for c in codes]
            rng.shuffle(entries)
            copy.cookies["tables"] = ",".join(entries)
        else:  # a forged device id, long or odd
            copy.cookies["device"] = rng.choice(["x", "a.b", "d" * 3000, "é" * 50, "0" * 200])
        return copy

    def token(self, client: Client) -> str:
        """A valid CSRF token of this client's session (made once, from the home page)."""
        if id(client) not in self.csrf:
            page = client.get("/")
            # A device whose cookies are too big for the server gets no page (gunicorn refuses
            # headers over 8 KB before the app): it has no token to send.
            self.csrf[id(client)] = csrf_from(page.text) if page.status_code == 200 else ""
        return self.csrf[id(client)]

    # -- what it sends

    def value(self, spec: dict | None = None) -> str:
        rng = self.rng
        roll = rng.random()
        if spec is not None and spec["choices"] and roll < 0.5:
            return str(rng.choice(spec["choices"]))
        if spec is not None and spec["kind"] == "int" and roll < 0.6:
            low = spec["low"] if spec["low"] is not None else -3
            high = spec["high"] if spec["high"] is not None else 20
            return str(rng.randint(low - 2, min(high, low + 1000) + 2))
        if spec is not None and spec["kind"] == "bool" and roll < 0.6:
            return rng.choice(["y", "on", "true", "1", "", "false", "0", "off"])
        return rng.choice(NUMBERS if rng.random() < 0.5 else TEXTS)

    def code_value(self, table: TableAt) -> str:
        rng = self.rng
        roll = rng.random()
        if roll < 0.8:
            return table.code
        return rng.choice(
            [
                table.code.lower(),
                f"{table.code[:3]}-{table.code[3:]}",
                tables.new_code(),
                "",
                "A" * 300,
                "ТАБЛИЦА",
                "%00",
                "..",
                "X%2FY",
                "%F0%9F%A6%93",
                rng.choice(self.tables).code,
            ]
        )

    def path(self, rule, table: TableAt) -> str:
        rng = self.rng
        values = {}
        game_forms_here = list(game_forms(table.game))
        for arg in rule.arguments:
            if arg == "code":
                values[arg] = self.code_value(table)
            elif arg == "action_type":
                values[arg] = rng.choice(
                    game_forms_here * 4
                    + [rng.choice(list(game_forms(rng.choice(list(GAMES)))))]
                    + ["penalty", "x", "", "card%00", "a" * 200, "__init__", "act"]
                )
            elif arg == "seat":
                values[arg] = rng.choice(
                    [str(s) for s in range(len(table.phones))]
                    + ["5", "99", str(10**20), "-1", "x", "0x1"]
                )
            elif arg == "lang":
                values[arg] = rng.choice(["en", "ja", "ru", "xx", "EN", "%00", "..", "ja-JP"])
            elif arg == "game":
                values[arg] = rng.choice([*GAMES, "nope", "<x>", f"{next(iter(GAMES))}/../x"])
            elif arg == "filename":
                values[arg] = rng.choice(
                    self.files
                    + ["../../instance/secret_key", "..%2F..%2Fwsgi.py", "x" * 300, "css/", ""]
                )
            else:
                values[arg] = self.value()
        path = rule.rule
        for name, value in values.items():
            path = path.replace(f"<{name}>", value)
            for converter in ("int", "path", "string"):
                path = path.replace(f"<{converter}:{name}>", value)
        return path

    def query(self, table: TableAt, endpoint: str) -> str:
        rng = self.rng
        roll = rng.random()
        if endpoint.startswith("display.") and roll < 0.7:
            key = table.display_key if rng.random() < 0.8 else rng.choice(["", "x", "A" * 24])
            extra = rng.choice(["", f"&v={rng.randint(0, 50)}", "&v=x"])
            return f"?key={key}{extra}"
        if roll < 0.4:
            return ""
        if roll < 0.55:
            return "?" + rng.choice(RAW_QUERIES)
        pairs = []
        for _ in range(rng.randint(1, 4)):
            name = rng.choice(QUERY_NAMES)
            if name == "s" and rng.random() < 0.5:
                value = self.store.table(table.code).join_secret
            elif name == "v" and rng.random() < 0.5:
                value = str(self.store.table(table.code).version)
            elif name == "as":
                value = rng.choice([str(rng.randint(-1, 6)), "x", str(10**30)])
            else:
                value = self.value()
            pairs.append(f"{quote(name)}={quote(value)}")
        return "?" + "&".join(pairs)

    def fields(self, endpoint: str, path: str, table: TableAt) -> list[tuple[str, str]]:
        rng = self.rng
        if endpoint == "table.act":
            kind = path.rstrip("/").rsplit("/", 1)[-1]
            specs = game_forms(table.game).get(kind)
            if specs is None:
                specs = rng.choice(list(game_forms(rng.choice(list(GAMES))).values()))
            choices = [specs]
        else:
            choices = self.forms.get(endpoint) or [[]]
        specs = rng.choice(choices)
        pairs = []
        for spec in specs:
            if rng.random() < 0.85:
                pairs.append((spec["name"], self.value(spec)))
        if rng.random() < 0.1 and pairs:
            pairs.append(rng.choice(pairs))  # a field twice
        if rng.random() < 0.1:
            pairs.append((rng.choice(["type", "seat", "host", "__class__", "x" * 100]), "1"))
        return pairs

    def body(self, client: Client, endpoint: str, path: str, table: TableAt):
        """(body bytes, content type, extra headers) of a POST."""
        rng = self.rng
        pairs = self.fields(endpoint, path, table)
        roll = rng.random()
        if roll < 0.8:
            pairs.insert(0, ("csrf_token", self.token(client)))
        elif roll < 0.88:
            pairs.insert(0, ("csrf_token", rng.choice(["", "x", "a.b.c", "é" * 50])))
        elif roll < 0.94:
            pairs.insert(0, ("csrf_token", self.token(rng.choice(self.strangers))))
        roll = rng.random()
        if roll < 0.7:
            pairs.append(("version", str(self.store.table(table.code).version)))
        elif roll < 0.85:
            pairs.append(("version", rng.choice(["0", "1", "-1", "x", str(10**40), ""])))
        roll = rng.random()
        if roll < 0.3:
            key = secrets.token_urlsafe(12)
            self.keys_used.append(key)
            pairs.append(("key", key))
        elif roll < 0.38 and self.keys_used:
            pairs.append(("key", rng.choice(self.keys_used)))  # a key already sent
        elif roll < 0.45:
            pairs.append(("key", rng.choice(["x", "a" * 65, "bad key!", "é" * 10])))
        return self.encode(pairs)

    def encode(self, pairs):
        rng = self.rng
        roll = rng.random()
        form = "application/x-www-form-urlencoded"
        if roll < 0.84:
            return "&".join(f"{quote(k)}={quote(v)}" for k, v in pairs).encode(), form, {}
        if roll < 0.87:
            size = rng.choice([64 * 1024 + 1, 100_000, 300_000])
            return b"text=" + b"x" * size, form, {}
        if roll < 0.9:
            return json.dumps(dict(pairs)).encode(), "application/json", {}
        if roll < 0.93:
            boundary = "b0undary"
            parts = "".join(
                f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'
                for k, v in pairs
            )
            if rng.random() < 0.5:
                parts += f"--{boundary}--\r\n"
            else:
                boundary = "other"  # the body does not match the header
            return parts.encode(errors="replace"), f"multipart/form-data; boundary={boundary}", {}
        if roll < 0.96:
            raw = "&".join(f"{quote(k)}={quote(v)}" for k, v in pairs).encode()
            return raw + b"&text=%FF%FE%ED%A0%80\xff\xfe", form, {}
        if roll < 0.98:
            raw = "&".join(f"{quote(k)}={quote(v)}" for k, v in pairs).encode()
            chunked = b"".join(
                f"{len(raw[i : i + 50]):x}\r\n".encode() + raw[i : i + 50] + b"\r\n"
                for i in range(0, len(raw), 50)
            )
            return chunked + b"0\r\n\r\n", form, {"Transfer-Encoding": "chunked"}
        return "&".join(f"{quote(k)}={quote(v)}" for k, v in pairs).encode(), None, {}

    def legal(self, table: TableAt):
        """A legal action from the right device, with a valid token and version."""
        state = self.store.state(table.code)
        module = GAMES[table.game].rules
        if module.result(state) is not None:
            return None
        made = legal_post(table.game, state, self.rng, tries=10)
        if made is None:
            return None
        action, fields = made
        client, query = table.device(action.get("seat"), bool(action.get("host")))
        if client is None:
            return None
        page = client.get(f"/t/{table.code}/{query}")
        if page.status_code != 200:
            return None
        data = {"csrf_token": csrf_from(page.text), **fields}
        data["version"] = str(self.store.table(table.code).version)
        raw = client.build(
            "POST", f"/t/{table.code}/act/{action['type']}{query}", data=data, headers=HX
        )
        return client, raw, "POST", "table.act (legal)"

    def make(self):
        """One request: (client, raw bytes, method, label)."""
        rng = self.rng
        table = rng.choice(self.tables)
        if rng.random() < 0.08:
            made = self.legal(table)
            if made is not None:
                self.legal_sent += 1
                return made
        weights = [
            6
            if r.endpoint == "table.act"
            else 2
            if r.endpoint.startswith(("table.", "display."))
            else 1
            for r in self.rules
        ]
        rule = rng.choices(self.rules, weights)[0]
        client, role = self.viewer(table)
        if rng.random() < 0.12:
            client, role = self.hostile(client), f"{role} with hostile cookies"
        methods = sorted(rule.methods - {"OPTIONS"} if rng.random() < 0.97 else rule.methods)
        method = rng.choice(methods) if rng.random() < 0.9 else rng.choice(BAD_METHODS)
        path = self.path(rule, table) + self.query(table, rule.endpoint)
        headers = {}
        if rng.random() < 0.6:
            headers.update(HX)
        if rng.random() < 0.1:
            headers["Accept-Encoding"] = rng.choice(["gzip", "br", "zstd", "x", "*"])
        if rng.random() < 0.05:
            headers["Accept-Language"] = rng.choice(["ja", "ru", "xx", "*;q=x", "a" * 500])
        if rng.random() < 0.03:
            headers["X-Forwarded-For"] = "1.2.3.4"
            headers["X-Forwarded-Proto"] = "https"
        oversize = None
        if rng.random() < 0.05:  # an invalid Host, mostly with an oversize query or body
            headers["Host"] = rng.choice(BAD_HOSTS)
            oversize = rng.choice(["query", "body", None])
            role += " with a bad Host"
            if oversize == "query":
                path += ("&" if "?" in path else "?") + "q=" + "x" * rng.choice([4100, 20_000])
        if method == "POST" or oversize == "body" or (method in BAD_METHODS and rng.random() < 0.5):
            body, content_type, extra = self.body(client, rule.endpoint, path, table)
            if oversize == "body":
                body, content_type, extra = b"text=" + b"x" * 70_000, None, {}
            headers.update(extra)
            raw = client.build(method, path, headers=headers, content_type=content_type, body=body)
        else:
            raw = client.build(method, path, headers=headers)
        return client, raw, method, f"{rule.endpoint} as {role}"

    # -- checking

    def snapshot(self) -> dict:
        """What a refusal must leave as it was (presence, versions and traces left out)."""
        db = self.store.db()
        try:
            snap = {
                "tables": db.execute(
                    "SELECT id, code, locked, reveal, state, state_version, log_version, host_hash,"
                    " join_secret, handover_hash FROM tables ORDER BY id"
                ).fetchall(),
                "displays": db.execute(
                    "SELECT table_id, token_hash FROM displays ORDER BY table_id, token_hash"
                ).fetchall(),
                "seats": db.execute(
                    "SELECT table_id, seat, name, token_hash FROM seats ORDER BY table_id, seat"
                ).fetchall(),
                "events": db.execute(
                    "SELECT table_id, kind, count(*), sum(undone), max(seq) FROM events"
                    " WHERE kind != 'trace' GROUP BY table_id, kind ORDER BY table_id, kind"
                ).fetchall(),
                "keys": db.execute(
                    "SELECT table_id, count(*) FROM submissions GROUP BY table_id ORDER BY table_id"
                ).fetchall(),
            }
        finally:
            db.conn.close()
        return snap

    def fined(self, before: dict, after: dict) -> bool:
        """Whether the only change is the fine of a refused illegal bid: one new game event, a
        penalty, on one table (its state and versions moved with it)."""
        old = {row[0]: row for row in before["tables"]}
        changed = [row for row in after["tables"] if old.get(row[0]) != row]
        if len(changed) != 1 or before["seats"] != after["seats"]:
            return False
        table_id = changed[0][0]
        db = self.store.db()
        try:
            last = db.execute(
                "SELECT kind, action FROM events WHERE table_id = ? AND kind != 'trace'"
                " ORDER BY seq DESC LIMIT 1",
                [table_id],
            ).fetchone()
        finally:
            db.conn.close()
        if last is None or last[0] != "game" or json.loads(last[1]).get("type") != "penalty":
            return False
        counts_before = {(r[0], r[1]): r[2] for r in before["events"]}
        counts_after = {(r[0], r[1]): r[2] for r in after["events"]}
        counts_before[(table_id, "game")] = counts_before.get((table_id, "game"), 0) + 1
        return counts_before == counts_after

    def send(self, client: Client, raw: bytes, method: str, label: str) -> None:
        before = self.snapshot()
        try:
            answer = client.send(raw, method)
        except Exception as error:
            self.no_answer.append(f"{label}: {type(error).__name__} {error}"[:300])
            return
        self.sent += 1
        status = answer.status_code
        self.statuses[status] += 1
        line = raw.split(b"\r\n", 1)[0].decode(errors="replace")[:120]
        header_bytes = sum(len(k) + len(v) + 4 for k, v in answer.headers.items())
        if header_bytes > self.largest_headers[0]:
            self.largest_headers = (header_bytes, f"{status} {label}: {line}")
        # An error page (not a refusal: 409 and 422 show the table again, with the reason)
        if (
            status >= 400
            and status not in (409, 422)
            and len(answer.content) > self.largest_error[0]
        ):
            self.largest_error = (len(answer.content), f"{status} {label}: {line}")
        if "hostile cookies" in label and answer.elapsed > self.slowest_hostile[0]:
            self.slowest_hostile = (answer.elapsed, f"{status} {label}: {line}")
        elif "hostile cookies" not in label:
            self.slowest_plain = max(self.slowest_plain, answer.elapsed)
        self.endpoints[label.split(" as ")[0]] += 1
        if status >= 500:
            line = raw.split(b"\r\n", 1)[0].decode(errors="replace")[:200]
            self.server_errors.append(f"{status} {label}: {line}")
        if 400 <= status < 500:
            after = self.snapshot()
            if after != before and not (status == 422 and self.fined(before, after)):
                line = raw.split(b"\r\n", 1)[0].decode(errors="replace")[:200]
                self.changed_by_refusal.append(f"{status} {label}: {line}")
        if status == 200 and b"/host/display" in raw.split(b"\r\n", 1)[0]:
            for table in self.tables:  # the fuzzer made a new display link: follow it
                if f"/t/{table.code}/".encode() in raw[:300] and "display/?key=" in answer.text:
                    table.display_key = re.search(r"display/\?key=([\w-]+)", answer.text).group(1)

    def repair(self) -> None:
        """Give every table its phones back (the fuzz frees seats and locks tables), so members
        keep being members. Not counted as fuzz requests."""
        for table in self.tables:
            db = self.store.db()
            try:
                record = tables.get_table(db, table.code)
                rows = {s.seat: s for s in tables.seats(db, record)}
                hashes = dict(
                    db.execute(
                        "SELECT seat, token_hash FROM seats WHERE table_id = ?", [record.id]
                    ).fetchall()
                )
            finally:
                db.conn.close()
            for seat, phone in enumerate(table.phones):
                if phone is None:
                    continue
                token = phone.cookies.get(f"seat_{table.code}")
                if token and hashes.get(seat) == tables.hash_token(token):
                    continue
                page = table.host.get(f"/t/{table.code}/").text
                csrf = csrf_from(page)
                if rows[seat].taken:
                    table.host.post(f"/t/{table.code}/host/free/{seat}", {"csrf_token": csrf}, HX)
                if self.store.table(table.code).locked:
                    table.host.post(f"/t/{table.code}/host/lock", {"csrf_token": csrf}, HX)
                phone.cookies.pop(f"seat_{table.code}", None)
                take_seat(phone, table.code, seat)
            if self.rng.random() < 0.2 or not table.display_key:
                table.display_key = new_display_key(table)

    def run(self, requests: int) -> None:
        done = 0
        while done < requests:
            if done % 40 == 0:
                self.repair()
            client, raw, method, label = self.make()
            self.send(client, raw, method, label)
            done += 1


def quote(value: str) -> str:
    import urllib.parse

    return urllib.parse.quote(value, safe="")


def seed_tables(port: int, store: Store, rng: random.Random, quick: bool) -> list[TableAt]:
    """Tables of every game: a fresh one and one played half way (a seat left free on each)."""
    made = []
    for game, info in GAMES.items():
        for steps in (0,) if quick else (0, 40):
            players = rng.randint(info.min_players, info.max_players)
            table = open_table(port, game, players, free_seats=1 if players > 2 else 0)
            if steps:
                advance(store, table.code, game, steps, rng)
            made.append(table)
    for table in made:  # warm each generator once (imports) outside the timing
        generator(table.game)
    return made


# Names as rows stored before the forms refused them could hold (companion.plaintext).
HOSTILE_NAMES = [
    "Anna\nWinner: Mallory",
    "Ben\u202eevil",
    '=HYPERLINK("http://example.org","x")',
    "+cmd|' /C calc'!A0",
    "@SUM(1+1)",
    "-2+3",
    "Chris\x00",
    "Dana\r\nWinner: Eve",
]


def hostile_exports(store: Store, made: list[TableAt], rng: random.Random) -> list[str]:
    """Every seat renamed in the database to a hostile name, every table played to its end, then
    every export as the host takes it home: what forges a line, carries a control character or
    reads as a formula (a list of what is wrong, empty when all is well)."""
    import csv
    import io
    from urllib.parse import unquote

    from companion.exports.spreadsheet import FORMULA_START
    from companion.plaintext import CONTROL

    wrong = []
    for number, table in enumerate(made):
        db = store.db()
        try:
            table_id = store.table(table.code).id
            with db.write():
                for seat in range(len(table.phones)):
                    name = HOSTILE_NAMES[(number + seat) % len(HOSTILE_NAMES)]
                    db.execute(
                        "UPDATE seats SET name = ?, named = 1 WHERE table_id = ? AND seat = ?",
                        [name, table_id, seat],
                    )
        finally:
            db.close()
        advance(store, table.code, table.game, 5000, rng)
        host = table.host
        where = f"/t/{table.code}"
        text = host.get(f"{where}/export.txt").text
        if CONTROL.search(text.replace("\n", "")) or re.search(r"^Winner:", text, re.M):
            wrong.append(f"{where}/export.txt: {text[:120]!r}")
        for path in ("export.json", "export.bgsplay"):
            body = host.get(f"{where}/{path}").text
            try:
                decoded = json.dumps(json.loads(body), ensure_ascii=False)
            except ValueError:
                continue  # not over: a page, not a file
            if CONTROL.search(decoded):
                wrong.append(f"{where}/{path}: a control character")
        summary = host.get(f"{where}/summary").text
        link = re.search(r'href="(bgstats://[^"]+)"', summary)
        if link and CONTROL.search(unquote(link.group(1))):
            wrong.append(f"{where}/summary: the BG Stats link carries a control character")
        for path in (f"{where}/export.csv", "/plays/export.csv"):
            body = host.get(path).text
            for row in list(csv.reader(io.StringIO(body)))[1:]:
                name = row[4] if len(row) > 4 else ""
                if CONTROL.search(name) or name.startswith(FORMULA_START):
                    wrong.append(f"{path}: the name cell {name!r}")
    return wrong


def run(
    requests: int, seed: int, quick: bool, backend: str = "sqlite", processes: int = 1
) -> tuple[Figures, float]:
    figures = Figures("fuzz")
    started = time.time()
    with (
        tempfile.TemporaryDirectory() as tmp,
        check_database(backend, Path(tmp), "fuzz") as database,
    ):
        server = start_app(database, processes=processes, env={"COMPANION_ONLINE_WITHIN": "15"})
        try:
            store = Store(database)
            rng = random.Random(seed)
            fuzzer = Fuzzer(server, store, seed_tables(server.port, store, rng, quick), rng)
            fuzzer.run(requests)
            replay_wrong = store.replay_differences()
            exports_wrong = hostile_exports(store, fuzzer.tables, rng)
            integrity = store.integrity()
        finally:
            server.stop()
        tracebacks = server.tracebacks()
        for trace in tracebacks[:3]:  # what to mend: the first few, whole
            print(trace, file=sys.stderr)
    elapsed = time.time() - started
    classes = Counter(f"{s // 100}xx" for s in fuzzer.statuses.elements())
    figures.add("requests answered", fuzzer.sent, f"{requests}", fuzzer.sent == requests)
    figures.add("answers by class", dict(sorted(classes.items())))
    figures.add("legal actions among them", fuzzer.legal_sent)
    covered = {r.endpoint for r in fuzzer.rules} & set(fuzzer.endpoints)
    figures.add(
        "routes covered",
        f"{len(covered)} of {len({r.endpoint for r in fuzzer.rules})}",
        "all",
        len(covered) == len({r.endpoint for r in fuzzer.rules}) or quick,
    )
    figures.add("5xx answers", len(fuzzer.server_errors), "0", not fuzzer.server_errors)
    figures.add("requests without an answer", len(fuzzer.no_answer), "0", not fuzzer.no_answer)
    size, where = fuzzer.largest_headers
    figures.add("largest answer headers (bytes)", size, f"< {HEADERS_MAX}", size < HEADERS_MAX)
    size, where_error = fuzzer.largest_error
    figures.add("largest error page (bytes)", size, f"< {ERROR_PAGE_MAX}", size < ERROR_PAGE_MAX)
    slowest, where_slow = fuzzer.slowest_hostile
    plain = fuzzer.slowest_plain
    figures.add(
        "slowest answer to hostile cookies (s)",
        round(slowest, 3),
        f"< {HOSTILE_SECONDS} or <= {plain:.3f} (the slowest without them)",
        slowest < HOSTILE_SECONDS or slowest <= plain,
    )
    for title, item in (
        ("largest headers", where),
        ("largest error page", where_error),
        ("slowest hostile", where_slow),
    ):
        print(f"  {title}: {item}")
    figures.add("tracebacks in the server's stderr", len(tracebacks), "0", not tracebacks)
    figures.add(
        "refused requests (4xx) that changed a table",
        len(fuzzer.changed_by_refusal),
        "0",
        not fuzzer.changed_by_refusal,
    )
    figures.add(
        "tables whose snapshot is not the replay of the log",
        len(replay_wrong),
        "0",
        not replay_wrong,
    )
    figures.add("database integrity", integrity, "ok", integrity == "ok")
    figures.add(
        "hostile names that forged a line, kept a control character or made a formula in an export",
        len(exports_wrong),
        "0",
        not exports_wrong,
    )
    for title, items in (
        ("5xx", fuzzer.server_errors),
        ("no answer", fuzzer.no_answer),
        ("changed by a refusal", fuzzer.changed_by_refusal),
        ("traceback", tracebacks),
        ("export", exports_wrong),
    ):
        for item in items[:5]:
            print(f"  {title}: {item}")
    return figures, elapsed


def main(argv: list[str] | None = None) -> int:
    parser = check_parser(__doc__)
    parser.add_argument("--requests", type=int, default=None, help="how many (10,000; quick 400)")
    args = parser.parse_args(argv)
    requests = args.requests or (400 if args.quick else 10_000)
    announce("Fuzz", args, f"{requests} requests")
    figures, elapsed = run(requests, args.seed, args.quick, args.backend, args.processes)
    return conclude(figures, elapsed)


if __name__ == "__main__":
    sys.exit(main())

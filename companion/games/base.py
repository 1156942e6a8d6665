"""The protocol every game module follows, the messages games speak in, and the registry of games.

A game module is pure: no Flask, no database, no clock, no randomness. It exposes

    new(options: dict, players: int) -> state          # state is plain JSON-able data
    apply(state, action: dict) -> state                 # a NEW state; raises RuleError
    view(state, seat: int | None, reveal: bool = False) -> dict
    result(state) -> dict | None                        # None while the game goes on
    describe(before, action, after) -> list[Msg]        # history lines for an accepted action

and optionally

    seat_may_undo(before, action, after) -> bool        # may the acting seat take it back?
    variants(state) -> list[str]                        # table options in force, in English

An action is a dict with "type", "seat" (the seat it is done for, or None for something the whole
table enters, such as a revealed card) and "host" (True when the host's device submitted it).

Messages are English msgids with %(name)s parameters. Games mark them with N_() so the web layer
can translate them later; a Seat parameter renders as the seat's current name, a nested Msg is
translated too. That keeps the games free of Flask-Babel while every sentence stays translatable.
"""

from __future__ import annotations

import importlib
import marshal
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from types import ModuleType
from typing import TYPE_CHECKING, Any, Protocol, TypeGuard, cast

if TYPE_CHECKING:  # for annotations only: the pure side never imports the web layer
    from companion.web.adapter import GameAdapter


def N_(msgid: str) -> str:
    """Mark a string for translation without translating it (pybabel extracts N_ calls)."""
    return msgid


class Seat(int):
    """A seat index used as a message parameter: the web layer shows the seat's name."""

    def __str__(self) -> str:
        return f"Player {int(self) + 1}"


class Msg(str):
    """An English sentence that remembers its msgid and parameters, so it can be translated later.

    It is a str (the English text), so pure functions may return it where a reason string is
    expected, and tests can compare it with plain text. Two optional marks travel with it (and
    with its stored JSON): a plural form (see Plural: the number in one parameter picks the form in
    each language), and domain="core" for the core app's own lines inside a game's history (notes,
    the host's name), which are translated from the core catalogue, never from a game's.
    """

    msgid: str
    params: dict[str, Any]
    plural: str | None = None  # the plural msgid of an ngettext-style message
    # the parameter whose number picks the singular or a plural form (not "count": a Msg is a
    # str, and str.count must stay a method)
    count_param: str | None = None
    domain: str | None = None  # a part ("core" or a game), or None: the part the reader is in

    def __new__(cls, msgid: str, **params: Any) -> Msg:
        english = msgid % {k: str(v) for k, v in params.items()} if params else msgid
        obj = super().__new__(cls, english)
        obj.msgid = msgid
        obj.params = params
        return obj

    @classmethod
    def core(cls, msgid: str, **params: Any) -> Msg:
        """A message of the core app (translated from the core catalogue wherever it shows)."""
        return cls.of_part("core", msgid, **params)

    @classmethod
    def of_part(cls, part: str, msgid: str, **params: Any) -> Msg:
        """A message translated from one part's catalogue ("core" or a game package's name)
        wherever it shows, e.g. a game's name inside a core sentence."""
        msg = cls(msgid, **params)
        msg.domain = part
        return msg

    def to_json(self) -> dict:
        """A JSON-able form that from_json turns back into an equal Msg."""
        data: dict[str, Any] = {
            "id": self.msgid,
            "p": {k: _encode(v) for k, v in self.params.items()},
        }
        if self.plural is not None:
            data["pl"], data["n"] = self.plural, self.count_param
        if self.domain is not None:
            data["d"] = self.domain
        return data

    def plural_forms(self) -> tuple[str, str, int] | None:
        """(singular msgid, plural msgid, the number that picks the form) of a plural message,
        as ngettext takes them; None for a plain message."""
        if self.plural is None or self.count_param is None:
            return None
        return self.msgid, self.plural, self.params[self.count_param]

    @classmethod
    def from_json(cls, data: dict) -> Msg:
        """Rebuild a Msg stored with to_json (rows stored before plurals and domains included)."""
        params = {k: _decode(v) for k, v in data.get("p", {}).items()}
        if data.get("pl") is not None:
            msg = _counted(data["id"], data["pl"], data["n"], params)
        else:
            msg = cls(data["id"], **params)
        msg.domain = data.get("d")
        return msg


def Plural(singular: str, plural: str, count: str, /, **params: Any) -> Msg:  # noqa: N802
    """An ngettext-style message: params[count] (a number) picks the form in each language.

    Russian has three forms (1 фишка, 2 фишки, 5 фишек), Japanese one (with its counter), English
    two. pybabel extracts Plural(singular, plural, ...) as a plural entry (keyword Plural:1,2):
    write both strings as plain literals (not in N_(), not in parentheses). The first three
    arguments are positional, so a message may have a parameter called "count" too.
    """
    return _counted(singular, plural, count, params)


def _counted(singular: str, plural: str, count: str, params: dict[str, Any]) -> Msg:
    number = params[count]
    if not isinstance(number, int) or isinstance(number, bool):
        raise TypeError(f"the count {count!r} of a plural message must be an int")
    msg = Msg(singular if number == 1 else plural, **params)
    msg.msgid, msg.plural, msg.count_param = singular, plural, count
    return msg


def _encode(value: Any) -> Any:
    if isinstance(value, Msg):
        return {"msg": value.to_json()}
    if isinstance(value, Seat):
        return {"seat": int(value)}
    if isinstance(value, (int, str)):
        return value
    raise TypeError(f"a message parameter must be int, str, Seat or Msg, not {type(value)!r}")


def _decode(value: Any) -> Any:
    if isinstance(value, dict) and "msg" in value:
        return Msg.from_json(value["msg"])
    if isinstance(value, dict) and "seat" in value:
        return Seat(value["seat"])
    return value


class RuleError(Exception):
    """An action the rules do not allow: a message for the players and the id of the rule.

    The rule id is the anchor of the entry on the game's rules page that explains the refusal,
    e.g. RuleError("bid-digit", N_("You hold a %(digit)s: ..."), digit=4).
    """

    def __init__(self, rule: str, msgid: str, **params: Any) -> None:
        self.rule = rule
        # A giant number a phone sent, quoted back: shortened, as str() would refuse it.
        bounded = {k: short(v) if is_int(v) and abs(v) > 10**12 else v for k, v in params.items()}
        self.msg = Msg(msgid, **bounded)
        super().__init__(str(self.msg))

    @classmethod
    def of(cls, rule: str, msg: Msg) -> RuleError:
        """A refusal whose message is already built (a Plural message keeps its forms)."""
        error = cls.__new__(cls)
        Exception.__init__(error, str(msg))
        error.rule, error.msg = rule, msg
        return error


def copy_state(value: Any) -> Any:
    """A deep copy of JSON-shaped data (dicts, lists, scalars): marshal copies such data in C,
    about twice as fast as a recursive copy and four times as fast as copy.deepcopy, which is
    why states hold nothing else (the contract test checks it)."""
    return marshal.loads(marshal.dumps(value))


def replay_actions(module: Rules, state: dict, actions: Iterable[dict]) -> dict:
    """The state after applying actions accepted before to a state the caller owns (it is
    changed): without a copy per action where the game declares its moves with Moves."""
    owner = getattr(module.apply, "__self__", None)
    if isinstance(owner, Moves):
        for action in actions:
            state = owner.apply(state, action, copy=False)
        return state
    for action in actions:
        state = module.apply(state, action)
    return state


def is_int(value: Any) -> TypeGuard[int]:
    """Whether a value is a whole number (True and False are not, although Python says so)."""
    return isinstance(value, int) and not isinstance(value, bool)


def short(value: Any, limit: int = 24) -> str:
    """A bad input shortened for a refusal's message: any value, safe for a giant int (str() of
    one is slow, and refused beyond 4,300 digits: a ValueError where a RuleError is due)."""
    if is_int(value) and abs(value) > 10**12:
        return "…"
    try:
        text = str(value)
    except ValueError:  # a structure holding a giant int
        return "…"
    return text if len(text) <= limit else text[: limit - 1] + "…"


Handler = Callable[[dict, Mapping[str, Any]], None]

# Who may enter an action type (Moves.entries). The web layer asks the game (Moves.may_enter)
# instead of working it out again, and Moves.apply checks it once, for every game the same way.
ON_TURN = "on_turn"  # a seat the game waits for now (Moves.turn): its phone, or the host for it
OWN = "own"  # a seat, for itself, whenever the rules allow it: its phone, or the host for it
HOST = "host"  # the host's device only: the table's options, or entering for any seat
ANYONE = "anyone"  # anyone at the table: a public event everybody sees (a card turned up)
ENTRY_KINDS = frozenset({ON_TURN, OWN, HOST, ANYONE})


def _no_turn(state: dict) -> list[int]:
    return []


def acting_seat(action: Mapping[str, Any]) -> int:
    """The seat an accepted ON_TURN or OWN action is for. Moves.apply has checked it before any
    handler runs (an int, one of the table's seats), so the handlers and describe() read it here
    instead of checking it again. (A HOST or ANYONE action's seat is unchecked: the game reads
    and checks it itself.)"""
    seat: int = action["seat"]
    return seat


@dataclass(frozen=True)
class Moves:
    """A game's moves, declared once; the framework applies them (as boardgame.io does).

    handlers maps an action type to a function that changes its own copy of the state in place
    or raises RuleError. apply() does what every game needs before that, the same way for all:
    an action is a mapping with a known "type" and a true/false "host" flag (rule "action"),
    nothing is entered once the game is over (rule "game-over", with the game's own sentence;
    except the moves in open_after_end, such as scoring sheets handed in after the last turn),
    the device may enter it (entries: ON_TURN, OWN, HOST or ANYONE per action type; ON_TURN is
    checked against turn(state), the seats the game waits for, and refused with the game's own
    not_on_turn sentence), and the caller's state is never changed.
    """

    handlers: Mapping[str, Handler]
    is_over: Callable[[dict], bool]
    over_message: Callable[[dict], Msg]
    prepare: Callable[[dict], None] | None = None  # runs on the copy first, e.g. clear scratch
    open_after_end: frozenset[str] = frozenset()  # moves still allowed once play is over
    #: the seats the game waits for now ("Your turn" on their phones); [] when it waits for an
    #: entry anyone may make (a card to turn up) or for nobody
    turn: Callable[[dict], list[int]] = _no_turn
    #: action type -> who may enter it (ON_TURN when not listed)
    entries: Mapping[str, str] = field(default_factory=dict)
    #: the refusal of an ON_TURN entry for a seat the game does not wait for (the game's words:
    #: "It is Anna's turn", "You have already bid"); None: a plain "not your turn"
    not_on_turn: Callable[[dict, Mapping[str, Any]], RuleError] | None = None
    #: the seat a public (ANYONE) event concerns, e.g. the player whose card is turned up; None
    #: for the whole table
    about: Callable[[dict, Mapping[str, Any]], int | None] | None = None
    #: the rule id of "only the host's device" (an anchor on the game's rules page)
    host_rule: str = "action"
    #: action type -> whether the game's phase admits it now, whatever its values (a bid only in
    #: an auction, a scoring sheet only after play): may_enter says no outside it, so that a
    #: screen built on it offers no form the rules would refuse. Not listed: every phase. The
    #: handlers still refuse such an entry themselves, with the game's own words.
    open_when: Mapping[str, Callable[[dict], bool]] = field(default_factory=dict)

    def entry(self, kind: str) -> str:
        """Who may enter this action type: ON_TURN, OWN, HOST or ANYONE."""
        return self.entries.get(kind, ON_TURN)

    def may_enter(self, state: dict, kind: str, *, seat: int | None, host: bool) -> bool:
        """Whether a device may enter this action type now (whether the rules then accept its
        values is another matter): seat is the phone's seat, or the seat the host acts for."""
        if kind not in self.handlers:
            return False
        if kind not in self.open_after_end and self.is_over(state):
            return False
        if kind in self.open_when and not self.open_when[kind](state):
            return False
        who = self.entry(kind)
        if who == ANYONE:
            return True
        if who == HOST:
            return host
        if seat is None:
            return False
        return who == OWN or seat in self.turn(state)

    def concerns(self, state: dict, action: Mapping[str, Any]) -> int | None:
        """The seat an action concerns: its own seat, or for a public event the seat the game
        says it is about (None: the whole table)."""
        if self.entry(str(action.get("type"))) == ANYONE:
            return self.about(state, action) if self.about is not None else None
        seat = action.get("seat")
        return seat if isinstance(seat, int) and not isinstance(seat, bool) else None

    def _check_who(self, state: dict, kind: str, action: Mapping[str, Any]) -> None:
        who = self.entry(kind)
        if who == ANYONE:
            return
        if who == HOST:
            if action.get("host") is not True:
                raise RuleError(self.host_rule, N_("Only the host's device can enter this."))
            return
        seat = action.get("seat")
        players = state.get("players")
        if (
            not isinstance(seat, int)
            or isinstance(seat, bool)
            or (isinstance(players, int) and not 0 <= seat < players)
        ):
            raise RuleError("action", N_("This entry must say which player it is for."))
        if who == ON_TURN and seat not in self.turn(state):
            if self.not_on_turn is not None:
                raise self.not_on_turn(state, action)
            raise RuleError("action", N_("It is not your turn."))

    def apply(self, state: dict, action: Mapping[str, Any], *, copy: bool = True) -> dict:
        """The state after the action (a new object), or a RuleError.

        copy=False changes `state` itself and returns it: only for a caller that owns the state
        and replays actions accepted before (the store's replay), where a copy per action would
        cost more than the moves.
        """
        kind = action.get("type") if isinstance(action, Mapping) else None
        if not isinstance(kind, str) or kind not in self.handlers:
            raise RuleError(
                "action", N_("This game has no entry called %(type)s."), type=short(kind)
            )
        if not isinstance(action.get("host", False), bool):
            raise RuleError("action", N_("The host flag must be true or false."))
        if kind not in self.open_after_end and self.is_over(state):
            raise RuleError.of("game-over", self.over_message(state))
        self._check_who(state, kind, action)
        after = copy_state(state) if copy else state
        if self.prepare is not None:
            self.prepare(after)
        self.handlers[kind](after, action)
        return after


# Who looks at a table (the privacy declarations' viewers; the privacy check plays each one).
PHONE = "phone"  # a seat's own phone (viewer seat: its seat)
HOST_DEVICE = "host"  # the host's device (viewer seat: the seat it acts for, or None)
DISPLAY = "display"  # the table display (and the table device): the table's public view
STRANGER = "stranger"  # any other device


def _sees_nothing(kind: str, viewer_seat: int | None, seat: int, reveal: bool) -> bool:
    return False


@dataclass(frozen=True)
class Position:
    """A point of a game where private values exist, which random play reaches."""

    label: str  # in words, for the check's report
    reached: Callable[[dict], bool]
    #: an action that leads play toward it (given the state and the random source), or None
    steer: Callable[[dict, Any], dict | None] | None = None


@dataclass(frozen=True)
class Privacy:
    """What a game keeps private, declared in its package (<package>/privacy.py: PRIVACY).

    The contract test requires it of every installed game and checks it against the game's view();
    the privacy check (scripts/check_privacy.py) plays every page as every viewer with it; the
    exports withhold the values of secret actions that were undone. A game that keeps nothing
    private says so: Privacy("nothing: ...") with no positions.
    """

    what: str  # in words: whose what, seen by whom
    positions: tuple[Position, ...] = ()
    #: a copy of the state with one seat's private values changed (None: nothing to change there)
    mutate: Callable[[dict, int], dict | None] | None = None
    #: whether a viewer (PHONE/HOST_DEVICE/DISPLAY/STRANGER, its seat) sees a seat's private
    #: values, with the host's "show all" on or off
    may_see: Callable[[str, int | None, int, bool], bool] = _sees_nothing
    #: for twin tables: the same private action with another private value (None: not this one)
    private_action: Callable[[dict, dict], dict | None] | None = None
    twin_kinds: tuple[str, ...] = ()  # the private actions twin tables are played to
    #: action types whose values the table may not see when entered (an undone one is shown,
    #: even after the end, as entered and undone, without them)
    secret_actions: frozenset[str] = frozenset()

    @property
    def keeps_anything(self) -> bool:
        return bool(self.positions)


class Rules(Protocol):
    """What a game's pure rules module provides (no Flask, no database, no clock, no randomness).

    States are JSON-shaped (dicts, lists, str, int, float, bool, None) so the store can keep them.
    """

    MIN_PLAYERS: int
    MAX_PLAYERS: int
    RULES: dict[str, str]  # rule id -> our summary (msgid); each id is a rules-page anchor
    CLARIFICATIONS: dict[str, str]  # reading id -> our reading of an unclear point (msgid)

    def new(self, options: dict, players: int) -> dict:
        """The state before the first action."""

    def apply(self, state: dict, action: dict) -> dict:
        """The state after an action (a new object); RuleError if the rules refuse it."""

    def view(self, state: dict, seat: int | None, reveal: bool = False) -> dict:
        """What a seat (None: the table) may see; reveal: the host's "show all"."""

    def result(self, state: dict) -> dict | None:
        """The final result, or None while the game goes on."""

    def describe(self, before: dict, action: dict, after: dict) -> list[Msg]:
        """History lines for an accepted action."""

    def turn(self, state: dict) -> list[int]:
        """The seats the game waits for now (their phones say "Your turn")."""

    def progress(self, state: dict) -> Msg:
        """Where the game stands, in a few words, for the lists of tables ("Round 4 of 15")."""

    def may_enter(self, state: dict, kind: str, *, seat: int | None, host: bool) -> bool:
        """Whether a device (a seat's phone, or the host's device acting for `seat` or for the
        table) may enter this action type now: Moves.may_enter."""

    def concerns(self, state: dict, action: dict) -> int | None:
        """The seat an action concerns (a public event: the seat it is about): Moves.concerns."""

    def entry(self, kind: str) -> str:
        """Who may enter this action type: ON_TURN, OWN, HOST or ANYONE (Moves.entry)."""


@dataclass(frozen=True)
class GameInfo:
    """One entry of the lobby: a game (or a rule set of one) that a table can be started for.

    A game package (companion/games/<name>/) declares its entries in ENTRIES; the registry
    (companion/games/__init__.py) collects them. The package holds everything else by convention:
    <package>.rules (the pure rules, the Rules protocol), <package>.web (ADAPTER, a GameAdapter),
    and its templates/, static/, translations/ and data/ folders.
    """

    key: str  # URL-safe id of the entry, e.g. "classic" (a package may list several)
    label: str  # English name, marked with N_
    package: str  # the game package: companion.games.<name>
    min_players: int
    max_players: int
    options: dict = field(default_factory=dict)  # passed to new(), e.g. {"variant": "short"}
    rules_key: str = ""  # whose rules page to link; defaults to key
    # How BoardGameGeek and BG Stats know the game (the exports). bgg_id: the game's BGG id, set
    # only with its BGG page cited beside it (0: none; a wrong id files plays under another
    # game); bgg_name: its English name there (default: label), the same in every language;
    # bgg_game: the entry whose game this is there (default: this one); variant: what this
    # entry plays, in English (BG Stats' "board" of a play, e.g. "Short rules").
    bgg_id: int = 0
    bgg_name: str = ""
    bgg_game: str = ""
    variant: str = ""

    @property
    def name(self) -> str:
        """The package's folder name: its blueprint, template folder and catalogue part."""
        return self.package.rsplit(".", 1)[1]

    @property
    def module(self) -> Rules:
        """The game's pure rules module (imported lazily: it imports this module)."""
        return cast("Rules", importlib.import_module(f"{self.package}.rules"))

    @property
    def adapter(self) -> GameAdapter:
        """The game's web adapter (a companion.web.adapter.GameAdapter), imported lazily so the
        pure rules never pull in Flask."""
        return importlib.import_module(f"{self.package}.web").ADAPTER

    @property
    def random_play(self) -> ModuleType:
        """The game's random-game generator (<package>.random_play: next_action(state, rng)),
        which the contract test, the property tests and the robustness checks play with."""
        return importlib.import_module(f"{self.package}.random_play")

    @property
    def privacy(self) -> Privacy:
        """What the game keeps private (<package>.privacy: PRIVACY)."""
        return importlib.import_module(f"{self.package}.privacy").PRIVACY

    @property
    def rules_page(self) -> str:
        return self.rules_key or self.key

    @property
    def export_name(self) -> str:
        """The game's English name in the exports, whatever the reader's language."""
        return self.bgg_name or self.label

    @property
    def export_key(self) -> str:
        """The entry whose game the exports file this entry's plays under."""
        return self.bgg_game or self.key

"""The game contract's pure side: a game's rules (Rules), its moves (Moves), what it keeps private
(Privacy), its results (ScoreTable, Standings) and its entries in the lobby (GameInfo).

A game's rules are pure: no Flask, no database, no clock, no randomness. Its rules module
(<package>/rules.py) declares them in one object, GAME = Rules(...): the class Rules below is the
whole contract of the pure side, each member with its type and, where optional, its default.

An action is a dict with "type", "seat" (the seat it is done for, or None for something the whole
table enters, such as a revealed card) and "host" (True when the host's device submitted it).

The messages games speak in (N_, Msg, Plural, Seat) are in companion.games.messages, the privacy
declaration (Privacy, Position) in companion.games.private; both are re-exported here.
"""

from __future__ import annotations

import importlib
import marshal
from collections.abc import Callable, Container, Iterable, Mapping
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Protocol, TypeGuard

from companion.games.messages import N_, Msg, Plural, Seat, and_list, comma_list
from companion.games.private import Position, Privacy

__all__ = [  # re-exported: a game imports everything it needs from here
    "N_",
    "Msg",
    "Plural",
    "Seat",
    "and_list",
    "comma_list",
    "Position",
    "Privacy",
]


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


def replay_actions(rules: Rules, state: dict, actions: Iterable[dict]) -> dict:
    """The state after applying actions accepted before to a state the caller owns (it is
    changed): without a copy per action."""
    for action in actions:
        state = rules.moves.apply(state, action, copy=False)
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


OTHER_WAY = "literal"  # the game option readings = {id: OTHER_WAY} (its first stored name)


def table_readings(options: Mapping[str, Any], offered: Container[str], rule: str) -> list[str]:
    """The open points a table reads the other way, from its game options, as its state keeps
    them; RuleError (under `rule`) for a reading the game does not offer."""
    readings = options.get("readings", {})
    if not isinstance(readings, Mapping) or any(
        key not in offered or value not in ("app", OTHER_WAY) for key, value in readings.items()
    ):
        raise RuleError(
            rule, N_("A table reading is one the rules page offers, read our way or the other way.")
        )
    return sorted(key for key, value in readings.items() if value == OTHER_WAY)


def reads_other_way(state: Mapping[str, Any], reading: str) -> bool:
    """Whether this table reads an open point (a reading id) the other way, not ours (a state
    stored before table readings existed reads ours)."""
    return reading in state.get("readings", ())


Handler = Callable[[dict, Mapping[str, Any]], None]

# Who may enter an action type (Move.who). The web layer asks the game (Moves.may_enter)
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


def _every_phase(state: dict) -> bool:
    return True


def in_phase(phase: str) -> Callable[[dict], bool]:
    """A Move's phase for a game whose state names its phase (state["phase"]): that one only."""
    return lambda state: state["phase"] == phase


@dataclass(frozen=True)
class Move:
    """One action type of a game, declared once: what it does and who may enter it when.

    The dispatcher (Moves.apply), may_enter, the exports' and the replay's secrecy and the undo
    policy all read this one record."""

    #: changes its own copy of the state in place, or raises RuleError
    handler: Handler
    #: who may enter it: ON_TURN (a seat the game waits for), OWN, HOST or ANYONE
    who: str = ON_TURN
    #: whether the game's phase admits it now, whatever its values (a bid only in an auction, a
    #: scoring sheet only after play): may_enter says no outside it, so that a screen built on it
    #: offers no form the rules would refuse; the handler still refuses it in the game's words
    phase: Callable[[dict], bool] = _every_phase
    #: still open once play is over (a scoring sheet handed in after the last turn)
    after_end: bool = False
    #: its values are private when entered (a sealed bid): an undone one is exported and replayed
    #: as entered and undone, without them
    secret: bool = False


@dataclass(frozen=True)
class Moves:
    """A game's moves, declared once; the framework applies them (as boardgame.io does).

    moves maps an action type to its Move (its handler and who may enter it when). apply() does
    what every game needs before the handler, the same way for all: an action is a mapping with
    a known "type" and a true/false "host" flag (rule "action"), nothing is entered once the game
    is over (rule "game-over", with the game's own sentence; except a move open after the end),
    the device may enter it (ON_TURN is checked against turn(state), the seats the game waits
    for, and refused with the game's own not_on_turn sentence), and the caller's state is never
    changed.
    """

    moves: Mapping[str, Move]
    is_over: Callable[[dict], bool]
    over_message: Callable[[dict], Msg]
    prepare: Callable[[dict], None] | None = None  # runs on the copy first, e.g. clear scratch
    #: the seats the game waits for now ("Your turn" on their phones); [] when it waits for an
    #: entry anyone may make (a card to turn up) or for nobody
    turn: Callable[[dict], list[int]] = _no_turn
    #: the refusal of an ON_TURN entry for a seat the game does not wait for (the game's words:
    #: "It is Anna's turn", "You have already bid"); None: a plain "not your turn"
    not_on_turn: Callable[[dict, Mapping[str, Any]], RuleError] | None = None
    #: the seat a public (ANYONE) event concerns, e.g. the player whose card is turned up; None
    #: for the whole table
    about: Callable[[dict, Mapping[str, Any]], int | None] | None = None
    #: the rule id of "only the host's device" (an anchor on the game's rules page)
    host_rule: str = "action"

    @property
    def secret_actions(self) -> frozenset[str]:
        """The action types whose values are private when entered (Move.secret)."""
        return frozenset(kind for kind, move in self.moves.items() if move.secret)

    def entry(self, kind: str) -> str:
        """Who may enter this action type: ON_TURN, OWN, HOST or ANYONE."""
        move = self.moves.get(kind)
        return move.who if move is not None else ON_TURN

    def may_enter(self, state: dict, kind: str, *, seat: int | None, host: bool) -> bool:
        """Whether a device may enter this action type now (whether the rules then accept its
        values is another matter): seat is the phone's seat, or the seat the host acts for."""
        move = self.moves.get(kind)
        if move is None:
            return False
        if not move.after_end and self.is_over(state):
            return False
        if not move.phase(state):
            return False
        who = move.who
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
        move = self.moves.get(kind) if isinstance(kind, str) else None
        if move is None:
            raise RuleError(
                "action", N_("This game has no entry called %(type)s."), type=short(kind)
            )
        if not isinstance(action.get("host", False), bool):
            raise RuleError("action", N_("The host flag must be true or false."))
        if not move.after_end and self.is_over(state):
            raise RuleError.of("game-over", self.over_message(state))
        self._check_who(state, str(kind), action)
        after = copy_state(state) if copy else state
        if self.prepare is not None:
            self.prepare(after)
        move.handler(after, action)
        return after


# Who looks at a table (the privacy declarations' viewers; the privacy check plays each one).
PHONE = "phone"  # a seat's own phone (viewer seat: its seat)
HOST_DEVICE = "host"  # the host's device (viewer seat: the seat it acts for, or None)
DISPLAY = "display"  # the table display (and the table device): the table's public view
STRANGER = "stranger"  # any other device


@dataclass(frozen=True)
class ScoreTable:
    """A finished game's scores as one comparison table: categories down, players across (in
    ranking order). The result screen, the summary and the CSV export all read it."""

    seats: list[int]  # the players' seats, first place first
    ranks: list[int]  # each listed player's place (1 = first; a shared place repeats)
    winners: list[int]  # the winners' seats
    rows: list[tuple[str, list]]  # (category label msgid, one value per listed player)
    totals: list  # one total per listed player
    total_label: str = N_("Total")  # msgid of the totals row
    decided_by: Msg | None = None  # the tie-break in words, or None when no tie was broken


@dataclass(frozen=True)
class Standings:
    """How the players stand at one step of a replay: a few columns of numbers, one row per seat
    (in seat order, so that two steps compare cell by cell). The replay marks what changed since
    the step before and the seats in the lead."""

    columns: list[str]  # column label msgids, short: a phone shows them side by side
    values: list[list]  # per seat, one value per column (None: not known at this step)
    leaders: list[int] = field(default_factory=list)  # the seats ahead, by the game's measure
    note: str | None = None  # msgid: what the numbers mean ("if the game ended here, ...")


@dataclass(frozen=True)
class SearchTerms:
    """The words players say, for the rules search (<package>/search_terms.py: TERMS).

    phrases: language -> {phrase people say: the rules page's ids it means, the likeliest
    first}; reads: reading id -> the rule it reads; numbers: the question's numbers -> ids (e.g.
    a bid and the digit it ends in), or None. companion/search reads them (its Vocabulary)."""

    phrases: Mapping[str, Mapping[str, tuple[str, ...]]] = field(default_factory=dict)
    reads: Mapping[str, str] = field(default_factory=dict)
    numbers: Callable[[list[int]], Iterable[str]] | None = None


@dataclass(frozen=True)
class SetupStep:
    """One line of a game's set-up guide (Rules.setup): what goes where for this player count
    and variant, and where the rule text says so.

    The line's own words (`text`, with this table's numbers; a Seat shows the seat's name) are
    ours; `original` is the rule text's sentence as printed (Japanese or Russian, `lang`), and
    `rendering` that sentence in English (a msgid, shown in the reader's language). Where the
    texts are silent and a reading or GAME_FACTS fills in, `filled` says so (then `original` may
    be empty)."""

    key: str  # stable: the table's shared ticks are stored by it
    text: Msg
    source: str = ""  # where the rule text says it: "¶23", "L26", "ja L121"
    original: str = ""
    lang: str = "ja"  # the language of `original`
    rendering: str = ""  # msgid
    rule: str = ""  # the rules page's anchor that explains it
    filled: str = ""  # msgid: who fills in where the texts are silent


class ViewFunction(Protocol):
    """view(state, seat, reveal=False): what a seat (None: the table) may see."""

    def __call__(self, state: dict, seat: int | None, reveal: bool = False) -> dict: ...


def _no_exception(before: dict, action: dict, after: dict) -> bool:
    return True


def _no_variants(state: dict) -> list[str]:
    return []


def _no_score_table(state: dict, result: dict) -> ScoreTable | None:
    return None


def _first_seat(state: dict) -> int:
    return 0


def _no_follow_up(state: dict, action: Mapping[str, Any], error: RuleError) -> dict | None:
    return None


def _no_prompt(state: dict, seat: int | None) -> Msg | None:
    return None


@dataclass(frozen=True)
class Rules:
    """A game's pure rules, declared once in its rules module as GAME (no Flask, no database, no
    clock, no randomness). States are JSON-shaped (dicts, lists, str, int, float, bool, None) so
    the store can keep them. The members after `readings` are optional: their defaults say what
    a game without them gets. apply, turn, entry, may_enter and concerns come from `moves`."""

    min_players: int
    max_players: int
    #: new(options, players): the state before the first action
    new: Callable[[dict, int], dict]
    #: the game's moves: every action type, its handler and who may enter it when (Moves)
    moves: Moves
    #: what a seat (None: the table) may see; reveal: the host's "show all"
    view: ViewFunction
    #: result(state): the final result with its breakdown, or None while the game goes on
    result: Callable[[dict], dict | None]
    #: describe(before, action, after): the history lines of an accepted action
    describe: Callable[[dict, dict, dict], list[Msg]]
    #: progress(state): where the game stands in a few words, for lists of tables ("Round 4")
    progress: Callable[[dict], Msg]
    #: rule id -> our summary (msgid); every refusal's rule id is one, an anchor on the rules page
    summaries: Mapping[str, str]
    #: reading id -> our reading of a point the rule text leaves open (msgid)
    readings: Mapping[str, str] = field(default_factory=dict)
    #: reading id -> the other reading of an open point (msgid): a table may choose it instead
    #: of ours (the game option readings = {id: OTHER_WAY}: table_readings, reads_other_way);
    #: the game's rules must follow it
    other_readings: Mapping[str, str] = field(default_factory=dict)
    #: reading id -> (where: a paragraph "40" or lines "ja L140"; the rule text's sentence as
    #: printed; its rendering msgid): what the two readings read, shown beside the choice
    reads_from: Mapping[str, tuple[str, str, str]] = field(default_factory=dict)
    #: each seat's default name, a msgid (Kahuna's colours), or () for "Player n"
    seat_labels: tuple[str, ...] = ()
    #: variants(state): the table options in force, in English (BG Stats' "board")
    variants: Callable[[dict], list[str]] = _no_variants
    #: may_undo(before, action, after): the game's exceptions to the one undo policy (see
    #: seat_may_undo), each citing its rule: False for an action whose taking back would hide a
    #: secret it showed (sealed bids opened, a card seen, the end's private values); default: none
    may_undo: Callable[[dict, dict, dict], bool] = _no_exception
    #: score_table(state, result): the final result as a ScoreTable (result screen, summary, CSV)
    score_table: Callable[[dict, dict], ScoreTable | None] = _no_score_table
    #: standings(state, result, everything): the replay's standings at a state (see
    #: standings_at); None: the totals of score_table once the result stands
    standings: Callable[[dict, dict | None, bool], Standings | None] | None = None
    #: step_round(state): the round or phase a state belongs to, in words (the replay's "next
    #: round": a round starts at the step whose state first says so); None: no rounds
    step_round: Callable[[dict], Msg] | None = None
    #: start_seat(state): the seat that started (the BG Stats export marks it)
    start_seat: Callable[[dict], int] = _first_seat
    #: follow_up(state, action, error): an action applied in the same transaction after the
    #: rules refused `action` (Serengeti's 1-chip fine for a bid against the digit rule), or None
    follow_up: Callable[[dict, Mapping[str, Any], RuleError], dict | None] = _no_follow_up
    #: the words players say, for the rules search
    terms: SearchTerms = field(default_factory=SearchTerms)
    #: how the table's random pick of a start player applies, before the first move: "option"
    #: (it sets the game option "start", the seat that starts), "first-seat" (the picked person
    #: takes seat 1, which always starts: the seats move), or "" (no start player to pick)
    start_pick: str = ""
    #: setup(options, players): the set-up guide for this variant and player count (SetupStep),
    #: shown on the host's device and the table display until the first move; None: no guide
    setup: Callable[[dict, int], list[SetupStep]] | None = None
    #: prompt(state, seat): what that seat (None: the table, e.g. the host's device or the
    #: display) may enter now, in the game's words and with its numbers, as a sentence ("Bid
    #: more than 4, not ending in 3, or pass."; "Enter the card turned up."; "You may sell a
    #: card before the next lot."), or None when it may enter nothing. It follows may_enter: a
    #: phone is never told to enter what the rules would refuse. Shown under "Your turn." or
    #: "Waiting for Anna." on the phone; None everywhere: only those lines
    prompt: Callable[[dict, int | None], Msg | None] = _no_prompt
    #: your first game: a few short steps (msgids) a newcomer reads before playing, from the
    #: set-up to the end, with the game's numbers; the rules page opens with them (one screen
    #: at 360 px). Not cut into search entries: each step repeats a rule indexed on its own
    first_game: tuple[str, ...] = ()

    def apply(self, state: dict, action: Mapping[str, Any]) -> dict:
        """The state after an action (a new object); RuleError if the rules refuse it."""
        return self.moves.apply(state, action)

    def turn(self, state: dict) -> list[int]:
        """The seats the game waits for now (their phones say "Your turn")."""
        return self.moves.turn(state)

    def entry(self, kind: str) -> str:
        """Who may enter this action type: ON_TURN, OWN, HOST or ANYONE."""
        return self.moves.entry(kind)

    def may_enter(self, state: dict, kind: str, *, seat: int | None, host: bool) -> bool:
        """Whether a device (a seat's phone, or the host's device acting for `seat` or for the
        table) may enter this action type now."""
        return self.moves.may_enter(state, kind, seat=seat, host=host)

    def concerns(self, state: dict, action: Mapping[str, Any]) -> int | None:
        """The seat an action concerns (a public event: the seat it is about)."""
        return self.moves.concerns(state, action)

    def seat_may_undo(self, before: dict, action: dict, after: dict) -> bool:
        """The one undo policy, the same in every game: the seat an accepted action was for may
        take it back (from its phone; whether its phone or the host's device entered it) while
        nobody has acted since (the event log checks that), except a HOST action (the table's
        options and the host's corrections: the host's to take back) and what the game's
        may_undo refuses. The host may take back the last action, whatever it is. Decided when
        the action is entered and stored with it (an event keeps its stored answer)."""
        if self.entry(str(action.get("type"))) == HOST:
            return False
        return self.may_undo(before, action, after)

    def standings_at(self, state: dict, result: dict | None, everything: bool) -> Standings | None:
        """The standings at a step of the replay (result: the rules' result of that state, None
        before the end): the score the game's own scoring would give if it ended at this state,
        or, where it cannot say, the public counts (chips, money, points, crossings).
        everything=False: only what the table could see at that moment (private values left
        out: tests/test_replay.py holds every game to its privacy declaration); everything=True:
        the game is over, so what it kept private may be shown too.

        Without a game's own `standings`: nothing before the end; once the result stands, the
        totals of score_table."""
        if self.standings is not None:
            return self.standings(state, result, everything)
        score = self.score_table(state, result) if result is not None else None
        if score is None:
            return None
        totals: list = [None] * (max(score.seats, default=-1) + 1)
        for seat, total in zip(score.seats, score.totals):
            totals[seat] = total
        return Standings([score.total_label], [[t] for t in totals], list(score.winners))


@dataclass(frozen=True)
class GameInfo:
    """One entry of the lobby: a game (or a rule set of one) that a table can be started for.

    A game package (companion/games/<name>/) declares its entries in ENTRIES; the registry
    (companion/games/__init__.py) collects them. The package holds everything else by convention:
    <package>.rules (GAME, its Rules), <package>.privacy, <package>.random_play, <package>.web
    (its web adapter, which companion.web.adapter.adapter_of finds), and its templates/,
    static/, translations/ and data/ folders.
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
    def rules(self) -> Rules:
        """The game's pure rules (<package>.rules: GAME; imported lazily: it imports this
        module)."""
        rules: Rules = self.rules_module.GAME
        return rules

    @property
    def rules_module(self) -> ModuleType:
        """The game's rules module itself: the game's own templates read its constants."""
        return importlib.import_module(f"{self.package}.rules")

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

"""The web side of the game contract: how a game package shows itself in the app.

A game's package has a module `web` with ADAPTER, an instance of a GameAdapter subclass. Every
hook has a default here, so core code never needs to know which game it serves, and a game
without a panel of its own still gets history, notes and undo (the generic panel).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.games.base import N_, Msg

GENERIC_PANEL = "games/_generic_panel.html"


@dataclass(frozen=True)
class Panel:
    """What a game's panel is rendered from: given to the adapter, so it never reads the request."""

    code: str  # the table's code (for url_for)
    state: dict  # the whole game state (the adapter must show only what `view` allows)
    view: dict  # rules.view(state, seat, reveal): what this device may see
    seat: int | None  # the seat shown: the phone's own, the host's "act for", or None (the table)
    host: bool  # whether this device is the host's
    names: list[str]  # seat names, by seat
    own: bool = False  # the seat shown is this device's own (a phone, or a seated host)
    args: dict = field(default_factory=dict)  # query arguments every link must keep ("as")
    query: Mapping[str, str] = field(default_factory=dict)  # this request's query arguments


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
    decided_by: Any = None  # the tie-break in words (a Msg), or None when no tie was broken


@dataclass(frozen=True)
class Standings:
    """How the players stand at one step of a replay: a few columns of numbers, one row per seat
    (in seat order, so that two steps compare cell by cell). The replay marks what changed since
    the step before and the seats in the lead."""

    columns: list[str]  # column label msgids, short: a phone shows them side by side
    values: list[list]  # per seat, one value per column (None: not known at this step)
    leaders: list[int] = field(default_factory=list)  # the seats ahead, by the game's measure
    note: str | None = None  # msgid: what the numbers mean ("if the game ended here, ...")


class GameAdapter:
    """A game's web adapter. Subclass it in <package>/web.py and set ADAPTER = YourAdapter()."""

    #: action type -> form class (a companion.forms.VersionedForm with to_action() -> dict)
    forms: Mapping[str, type] = {}
    #: the template of the game's panel on the table page (inside the live region)
    panel_template: str = GENERIC_PANEL
    #: the template of the game's rules page, or None for the generic one (RULES/CLARIFICATIONS)
    rules_template: str | None = None
    #: msgid written in the history when the host switches "show all" on (None: no "show all")
    show_all_line: str | None = None
    #: msgid (with %(seat)s) written when the host first opens the private view of a seat that
    #: has its own phone (None: the game keeps nothing private from the host's screen)
    look_line: str | None = None
    #: dotted name of the module with the game's calculators: `bp` (a Blueprint) and
    #: CALCULATORS, a list of (label msgid, endpoint) for the calculators index
    calculator_module: str | None = None

    def panel_context(self, panel: Panel) -> dict[str, Any]:
        """Extra template variables for the panel, beyond state, view, seat, names and forms."""
        return {}

    def score_table(self, state: dict, result: dict) -> ScoreTable | None:
        """The final result as a ScoreTable (None: the game shows its result its own way)."""
        return None

    def start_seat(self, state: dict) -> int:
        """The seat that started the game (the BG Stats export marks it)."""
        return 0

    def summary_chart(self, states: list[dict], names: list[str]) -> Any:
        """A picture of how the game went, for the summary once the game is over: inline SVG
        (see companion.web.charts) with a text alternative, drawn from the state after every
        action; None for no picture."""
        return None

    # --- the replay of a finished game (companion/web/replay.py) ---------------------------------

    #: the template of a replay step's game view, rendered read-only for the table (seat None;
    #: forms and buttons hidden, as on the display; `replay` is true in its context, so a panel
    #: can leave out what only a live table says), or None: the game's panel_template
    step_template: str | None = None

    def standings(self, state: dict, result: dict | None, everything: bool) -> Standings | None:
        """The standings at a step of the replay (result: the rules' result of that state, None
        before the end): the score the game's own scoring would give if it ended at this state,
        or, where it cannot say, the public counts (chips, money, points, crossings).
        everything=False: only what the table could see at that moment (private values left
        out: tests/test_replay.py holds every game to its privacy declaration); everything=True:
        the game is over, so what it kept private may be shown too.

        The default: nothing before the end; once the result stands, the totals of score_table.
        """
        score = self.score_table(state, result) if result is not None else None
        if score is None:
            return None
        totals: list = [None] * (max(score.seats, default=-1) + 1)
        for seat, total in zip(score.seats, score.totals):
            totals[seat] = total
        return Standings([score.total_label], [[t] for t in totals], list(score.winners))

    def step_round(self, state: dict) -> Msg | None:
        """The round (or phase) a state belongs to, in words (a Msg), for the replay's "next
        round" and "previous round": a round starts at the step whose state first says so.
        None (the default): the game has no rounds to jump between."""
        return None

    def follow_up(self, state: dict, action: dict, error: Exception) -> dict | None:
        """An action to apply, in the same transaction, after the rules refused `action`
        (e.g. a 1-chip fine for an illegal bid), or None."""
        return None

"""The web side of the game contract: how a game package shows itself in the app.

A game's package has a module `web` with ADAPTER, an instance of a GameAdapter subclass: its
forms and templates, nothing the rules decide (those are companion.games.base.Rules). Every
hook has a default here, so core code never needs to know which game it serves, and a game
without a panel of its own still gets history, notes and undo (the generic panel).
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.games.base import GameInfo

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
    #: CALCULATORS, a list of (label msgid, endpoint) for the calculators index (both required)
    calculator_module: str | None = None

    def panel_context(self, panel: Panel) -> dict[str, Any]:
        """Extra template variables for the panel, beyond state, view, seat, names and forms."""
        return {}

    def summary_chart(self, states: list[dict], names: list[str]) -> Any:
        """A picture of how the game went, for the summary once the game is over: inline SVG
        (see companion.web.charts) with a text alternative, drawn from the state after every
        action; None for no picture."""
        return None


def adapter_of(info: GameInfo) -> GameAdapter:
    """A lobby entry's web adapter (<package>.web: ADAPTER), imported when first asked for, so
    the pure side (records, exports, the command line) never imports it."""
    adapter: GameAdapter = importlib.import_module(f"{info.package}.web").ADAPTER
    return adapter

"""How each game plugs into the table page: its panel template and the forms of its actions.

A game's web adapter is the module companion.web.play_<rules module name> (for example
companion.web.play_serengeti). It may define:

    FORMS: dict[str, type[VersionedForm]]   # action type -> form; form.to_action() -> action dict
    PANEL: str                              # template of the game panel (default below)
    def panel_context(state, view, seat, host, names) -> dict    # extra template variables
    def follow_up(state, action, error) -> dict | None
        # an action to apply after the rules refused `action` (e.g. Serengeti's 1-chip penalty),
        # in the refusal's own transaction
    SHOW_ALL_LINE: str   # msgid written in the history when the host switches "show all" on;
                         # a game without it has no "show all"
    LOOK_LINE: str       # msgid (with %(seat)s) written when the host first opens the private
                         # view of a seat that has its own phone; without it nothing is private

A game without an adapter gets the generic panel: history, notes and undo still work.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from companion.games.base import GameInfo

GENERIC_PANEL = "games/_generic_panel.html"


def adapter(game: GameInfo) -> ModuleType | None:
    """The game's web adapter module, or None if it has none yet."""
    name = "companion.web.play_" + game.module_name.rsplit(".", 1)[1]
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name != name:
            raise
        return None


def forms_of(game: GameInfo) -> dict:
    return getattr(adapter(game), "FORMS", {})


def panel_template(game: GameInfo) -> str:
    return getattr(adapter(game), "PANEL", GENERIC_PANEL)

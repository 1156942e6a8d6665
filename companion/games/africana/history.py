"""The history: plain-words lines for each accepted action (never a private point or kind),
and which entries a seat may take back itself."""

from __future__ import annotations

from collections.abc import Callable

from companion.games.africana.facts import ENTRY_ACTION, TURN_ACTION_LABELS, is_int
from companion.games.africana.phrases import for_silver, listing, silver, silver_left
from companion.games.base import N_, Msg, Plural, Seat

# History lines written by earlier releases: stored rows keep their msgid, so these stay in the
# catalogue (and translated) although describe() no longer writes them.
EARLIER_LINES = (
    N_("%(seat)s bought adventure cards: %(n)s for %(cost)s silver (%(balance)s left)."),
    N_("%(seat)s turned pages: %(n)s for %(cost)s silver (%(balance)s left)."),
    N_("%(seat)s changed card colours: %(n)s for %(cost)s silver (%(balance)s left)."),
    N_("%(seat)s joined the expedition in space %(slot)s: +%(coins)s silver join bonus."),
    N_(
        "%(seat)s completed the expedition in space %(slot)s: +%(coins)s silver; its markers "
        "go home."
    ),
    N_("%(seat)s completed an artifact adventure: +%(coins)s silver."),
    N_("%(seat)s discarded unfinished adventures: %(n)s."),
    N_("The host ended the turn of %(seat)s with %(n)s unfinished adventures (limit 3)."),
    N_("Refill expedition spaces %(slots)s from the deck (%(deck)s left)."),
    N_("The host corrected the coins of %(seat)s by %(amount)s silver (%(balance)s now)."),
    N_("%(head)s and %(last)s"),  # the list joiner before the games shared base.and_list
)


def describe(before: dict, action: dict, after: dict) -> list[Msg]:
    """Plain-words history lines for an accepted action (no private points or kinds)."""
    kind = action.get("type")
    lines: list[Msg] = []
    if (
        kind in ENTRY_ACTION
        and before["turn"]["action"] is None
        and after["turn"]["action"] is not None
    ):
        # The turn's first entry chose its action.
        lines.append(_chose(action, after["turn"]["action"]))
    describer = DESCRIBERS.get(kind) if isinstance(kind, str) else None
    if describer is not None:
        lines.extend(describer(action, after))
    return lines


def _who(action: dict) -> Seat | None:
    seat = action.get("seat")
    return Seat(seat) if is_int(seat) else None


def _ledger(action: dict, after: dict) -> tuple[int, int]:
    """The amount and the balance of the ledger line an entry that moves coins wrote."""
    seat = action.get("seat")
    if not is_int(seat):
        return 0, 0
    entry = after["seats"][seat]["ledger"][-1]
    return entry["amount"], entry["balance"]


def _chose(action: dict, chosen: str) -> Msg:
    return Msg(
        N_("%(seat)s chose to %(action)s."),
        seat=_who(action),
        action=Msg(TURN_ACTION_LABELS[chosen]),
    )


def _choose_action(action: dict, after: dict) -> list[Msg]:
    return [_chose(action, action["action"])]


def _buy_adventure(action: dict, after: dict) -> list[Msg]:
    amount, balance = _ledger(action, after)
    return [
        Plural(
            "%(seat)s bought %(n)s adventure card %(cost)s (%(left)s).",
            "%(seat)s bought %(n)s adventure cards %(cost)s (%(left)s).",
            "n",
            seat=_who(action),
            n=action.get("cards", 1),
            cost=for_silver(-amount),
            left=silver_left(balance),
        )
    ]


def _turn_pages(action: dict, after: dict) -> list[Msg]:
    amount, balance = _ledger(action, after)
    return [
        Plural(
            "%(seat)s turned %(n)s page %(cost)s (%(left)s).",
            "%(seat)s turned %(n)s pages %(cost)s (%(left)s).",
            "n",
            seat=_who(action),
            n=action["pages"],
            cost=for_silver(-amount),
            left=silver_left(balance),
        )
    ]


def _change_colour(action: dict, after: dict) -> list[Msg]:
    amount, balance = _ledger(action, after)
    return [
        Plural(
            "%(seat)s changed the colour of %(n)s card %(cost)s (%(left)s).",
            "%(seat)s changed the colour of %(n)s cards %(cost)s (%(left)s).",
            "n",
            seat=_who(action),
            n=action.get("cards", 1),
            cost=for_silver(-amount),
            left=silver_left(balance),
        )
    ]


def _join_expedition(action: dict, after: dict) -> list[Msg]:
    amount, _ = _ledger(action, after)
    if amount == 0:
        return [
            Msg(
                N_("%(seat)s joined the expedition in space %(slot)s."),
                seat=_who(action),
                slot=action["slot"],
            )
        ]
    return [
        Plural(
            "%(seat)s joined the expedition in space %(slot)s and takes a join bonus of "
            "%(coins)s silver.",
            "%(seat)s joined the expedition in space %(slot)s and takes a join bonus of "
            "%(coins)s silver.",
            "coins",
            seat=_who(action),
            slot=action["slot"],
            coins=amount,
        )
    ]


def _complete_expedition(action: dict, after: dict) -> list[Msg]:
    amount, _ = _ledger(action, after)
    return [
        Plural(
            "%(seat)s completed the expedition in space %(slot)s and takes %(coins)s "
            "silver; the markers on it go back to their owners.",
            "%(seat)s completed the expedition in space %(slot)s and takes %(coins)s "
            "silver; the markers on it go back to their owners.",
            "coins",
            seat=_who(action),
            slot=action["slot"],
            coins=amount,
        )
    ]


def _complete_artifact(action: dict, after: dict) -> list[Msg]:
    amount, _ = _ledger(action, after)
    return [
        Plural(
            "%(seat)s completed an artifact adventure and takes %(coins)s silver.",
            "%(seat)s completed an artifact adventure and takes %(coins)s silver.",
            "coins",
            seat=_who(action),
            coins=amount,
        )
    ]


def _complete_guide(action: dict, after: dict) -> list[Msg]:
    return [
        Msg(
            N_("%(seat)s completed a guide adventure and takes the guide card."),
            seat=_who(action),
        )
    ]


def _end_turn(action: dict, after: dict) -> list[Msg]:
    return _describe_end(after)


def _rename_kinds(action: dict, after: dict) -> list[Msg]:
    return [
        Msg(
            N_("The artifact kinds are now called %(names)s."),
            names=listing(after["kind_names"]),
        )
    ]


def _submit_sheet(action: dict, after: dict) -> list[Msg]:
    return [Msg(N_("%(seat)s handed in a scoring sheet."), seat=_who(action))]


def _correct_coins(action: dict, after: dict) -> list[Msg]:
    amount, balance = _ledger(action, after)
    if amount > 0:
        return [
            Plural(
                "The host added %(n)s silver to the coins of %(seat)s; they now have %(balance)s.",
                "The host added %(n)s silver to the coins of %(seat)s; they now have %(balance)s.",
                "n",
                seat=_who(action),
                n=amount,
                balance=silver(balance),
            )
        ]
    return [
        Plural(
            "The host took %(n)s silver from the coins of %(seat)s; they now have %(balance)s.",
            "The host took %(n)s silver from the coins of %(seat)s; they now have %(balance)s.",
            "n",
            seat=_who(action),
            n=-amount,
            balance=silver(balance),
        )
    ]


def _finish_game(action: dict, after: dict) -> list[Msg]:
    return [Msg(N_("The host ended the game: fill in the scoring sheets."))]


def _describe_end(after: dict) -> list[Msg]:
    end = after["last_end"]
    who = Seat(end["seat"])
    lines = [Msg(N_("%(seat)s ended the turn."), seat=who)]
    if end["discarded"]:
        lines.append(
            Plural(
                "%(seat)s discarded %(n)s unfinished adventure.",
                "%(seat)s discarded %(n)s unfinished adventures.",
                "n",
                seat=who,
                n=end["discarded"],
            )
        )
    if end.get("override"):
        lines.append(
            Plural(
                "The host ended the turn of %(seat)s with %(n)s unfinished adventure (limit 3).",
                "The host ended the turn of %(seat)s with %(n)s unfinished adventures (limit 3).",
                "n",
                seat=who,
                n=end["adventures_open"],
            )
        )
    if len(end["filled"]) == 1:
        lines.append(
            Plural(
                "Expedition space %(slots)s is refilled from the deck (%(deck)s card left).",
                "Expedition space %(slots)s is refilled from the deck (%(deck)s cards left).",
                "deck",
                slots=end["filled"][0],
                deck=after["deck"],
            )
        )
    elif end["filled"]:
        lines.append(
            Plural(
                "Expedition spaces %(slots)s are refilled from the deck (%(deck)s card left).",
                "Expedition spaces %(slots)s are refilled from the deck (%(deck)s cards left).",
                "deck",
                slots=listing(end["filled"]),
                deck=after["deck"],
            )
        )
    if end["announced"] and not end["game_over"]:
        lines.append(
            Msg(
                N_(
                    "The expedition row cannot be refilled: this is the last round, it "
                    "ends after %(last)s's turn."
                ),
                last=Seat(after["players"] - 1),
            )
        )
    if end["game_over"]:
        lines.append(Msg(N_("The game is over: fill in the scoring sheets.")))
    else:
        lines.append(Msg(N_("Now it is %(seat)s's turn."), seat=Seat(after["turn"]["seat"])))
    return lines


# One describer per action type: (the action, the state after it) -> its history lines.
DESCRIBERS: dict[str, Callable[[dict, dict], list[Msg]]] = {
    "choose_action": _choose_action,
    "buy_adventure": _buy_adventure,
    "turn_pages": _turn_pages,
    "change_colour": _change_colour,
    "join_expedition": _join_expedition,
    "complete_expedition": _complete_expedition,
    "complete_artifact": _complete_artifact,
    "complete_guide": _complete_guide,
    "end_turn": _end_turn,
    "rename_kinds": _rename_kinds,
    "submit_sheet": _submit_sheet,
    "correct_coins": _correct_coins,
    "finish_game": _finish_game,
}


def seat_may_undo(before: dict, action: dict, after: dict) -> bool:
    """The exceptions to the one undo policy (companion.games.base.Rules.seat_may_undo): what
    shows the private card points and sheets may not be taken back by the seat: the turn end
    that finished play, and the last scoring sheet, which makes the result (rule "game-end")."""
    if action.get("type") == "end_turn" and after["phase"] == "over":
        return False
    return not (_all_sheets_in(after) and not _all_sheets_in(before))


def _all_sheets_in(state: dict) -> bool:
    return state["phase"] == "over" and all(seat["sheet"] is not None for seat in state["seats"])

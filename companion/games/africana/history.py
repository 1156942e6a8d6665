"""The history: plain-words lines for each accepted action (never a private point or kind),
and which entries a seat may take back itself."""

from __future__ import annotations

from companion.games.africana.facts import ENTRY_ACTION, TURN_ACTION_LABELS, is_int
from companion.games.base import N_, Msg, Seat


def describe(before: dict, action: dict, after: dict) -> list[Msg]:
    """Plain-words history lines for an accepted action (no private points or kinds)."""
    kind = action.get("type")
    seat = action.get("seat")
    who = Seat(seat) if is_int(seat) else None
    lines: list[Msg] = []
    if (
        kind in ENTRY_ACTION
        and before["turn"]["action"] is None
        and after["turn"]["action"] is not None
    ):
        lines.append(
            Msg(
                N_("%(seat)s chose to %(action)s."),
                seat=who,
                action=Msg(TURN_ACTION_LABELS[after["turn"]["action"]]),
            )
        )
    if who is not None and kind in ENTRY_ACTION and kind != "complete_guide":
        entry = after["seats"][seat]["ledger"][-1]
        amount, balance = entry["amount"], entry["balance"]
    else:
        amount = balance = 0
    if kind == "choose_action":
        lines.append(
            Msg(
                N_("%(seat)s chose to %(action)s."),
                seat=who,
                action=Msg(TURN_ACTION_LABELS[action["action"]]),
            )
        )
    elif kind == "buy_adventure":
        lines.append(
            Msg(
                N_(
                    "%(seat)s bought adventure cards: %(n)s for %(cost)s silver (%(balance)s left)."
                ),
                seat=who,
                n=action.get("cards", 1),
                cost=-amount,
                balance=balance,
            )
        )
    elif kind == "turn_pages":
        lines.append(
            Msg(
                N_("%(seat)s turned pages: %(n)s for %(cost)s silver (%(balance)s left)."),
                seat=who,
                n=action["pages"],
                cost=-amount,
                balance=balance,
            )
        )
    elif kind == "change_colour":
        lines.append(
            Msg(
                N_("%(seat)s changed card colours: %(n)s for %(cost)s silver (%(balance)s left)."),
                seat=who,
                n=action.get("cards", 1),
                cost=-amount,
                balance=balance,
            )
        )
    elif kind == "join_expedition":
        lines.append(
            Msg(
                N_(
                    "%(seat)s joined the expedition in space %(slot)s: +%(coins)s silver "
                    "join bonus."
                ),
                seat=who,
                slot=action["slot"],
                coins=amount,
            )
        )
    elif kind == "complete_expedition":
        lines.append(
            Msg(
                N_(
                    "%(seat)s completed the expedition in space %(slot)s: +%(coins)s "
                    "silver; its markers go home."
                ),
                seat=who,
                slot=action["slot"],
                coins=amount,
            )
        )
    elif kind == "complete_artifact":
        lines.append(
            Msg(
                N_("%(seat)s completed an artifact adventure: +%(coins)s silver."),
                seat=who,
                coins=amount,
            )
        )
    elif kind == "complete_guide":
        lines.append(
            Msg(N_("%(seat)s completed a guide adventure and takes the guide card."), seat=who)
        )
    elif kind == "end_turn":
        lines.extend(_describe_end(after))
    elif kind == "rename_kinds":
        lines.append(
            Msg(
                N_("The artifact kinds are now called %(names)s."),
                names=", ".join(after["kind_names"]),
            )
        )
    elif kind == "submit_sheet":
        lines.append(Msg(N_("%(seat)s handed in a scoring sheet."), seat=who))
    elif kind == "correct_coins":
        lines.append(
            Msg(
                N_(
                    "The host corrected the coins of %(seat)s by %(amount)s silver "
                    "(%(balance)s now)."
                ),
                seat=who,
                amount=f"{amount:+d}",
                balance=balance,
            )
        )
    elif kind == "finish_game":
        lines.append(Msg(N_("The host ended the game: fill in the scoring sheets.")))
    return lines


def _describe_end(after: dict) -> list[Msg]:
    end = after["last_end"]
    who = Seat(end["seat"])
    lines = [Msg(N_("%(seat)s ended the turn."), seat=who)]
    if end["discarded"]:
        lines.append(
            Msg(
                N_("%(seat)s discarded unfinished adventures: %(n)s."), seat=who, n=end["discarded"]
            )
        )
    if end.get("override"):
        lines.append(
            Msg(
                N_(
                    "The host ended the turn of %(seat)s with %(n)s unfinished "
                    "adventures (limit 3)."
                ),
                seat=who,
                n=end["adventures_open"],
            )
        )
    if end["filled"]:
        lines.append(
            Msg(
                N_("Refill expedition spaces %(slots)s from the deck (%(deck)s left)."),
                slots=", ".join(str(s) for s in end["filled"]),
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


def seat_may_undo(before: dict, action: dict, after: dict) -> bool:
    """A seat may take back its own entries (nothing secret is revealed by any of them), but
    not the turn end that finished the game, nor host actions."""
    if action.get("host") or action.get("type") in ("correct_coins", "finish_game"):
        return False
    if action.get("type") == "end_turn" and after["phase"] == "over":
        return False
    return is_int(action.get("seat"))

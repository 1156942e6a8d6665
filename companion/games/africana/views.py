"""What players see: a seat's (or the table's) view of the state, the end-of-turn reminders,
the scoring sheet suggested from a seat's entries, and the final result.

The ledgers are public (coins come from and go to the bank in the open); a seat's completed
cards and its scoring sheet are private until the result, except on the host's "show all".
"""

from __future__ import annotations

from companion.games.africana.facts import (
    ARTIFACT_COPIES,
    GUIDE_ADVENTURES,
    KIND_KEYS,
    MARKERS,
    OPEN_ADVENTURE_LIMIT,
    SEAT_LABELS,
    TURN_ACTION_LABELS,
    company_facts,
    company_name,
    page_cost,
    setup_facts,
)
from companion.games.africana.phrases import silver
from companion.games.africana.scoring import SCORE_LINES, TIE_BREAK_TEXT, final_score, rank_scores
from companion.games.africana.state import (
    kind_label,
    known_unfinished_artifacts,
    markers_used,
    starts_in_gold,
)
from companion.games.base import N_, Msg, Plural, copy_state

ENTRY_LABELS = {
    "start": N_("Starting coins"),
    "buy_adventure": N_("Bought adventure cards"),
    "turn_pages": N_("Turned pages"),
    "change_colour": N_("Changed card colours"),
    "join_expedition": N_("Join bonus"),
    "complete_expedition": N_("Expedition reward"),
    "complete_artifact": N_("Artifact adventure reward"),
    "correct_coins": N_("Correction by the host"),
}


def payment_arithmetic(line: dict) -> Msg | None:
    """A ledger payment's sum in words (the price times the count, the turn's free page), for
    the ledger's fold-out; None for an amount that was typed as printed (rewards, corrections)."""
    what, count, cost = line["what"], line.get("count"), -line["amount"]
    if not count:
        return None
    if what == "buy_adventure":
        return Plural(
            "%(num)s adventure card at 5 silver: %(cost)s.",
            "%(num)s adventure cards at 5 silver each: %(cost)s.",
            "num",
            num=count,
            cost=silver(cost),
        )
    if what == "change_colour":
        return Plural(
            "%(num)s card played as another colour at 5 silver: %(cost)s.",
            "%(num)s cards played as another colour at 5 silver each: %(cost)s.",
            "num",
            num=count,
            cost=silver(cost),
        )
    if what == "turn_pages" and count == 1 and cost == 0:
        return Msg(N_("1 page: the first page of a turn is free."))
    if what == "turn_pages" and cost < count:  # the turn's first page was among them, free
        return Plural(
            "%(num)s pages: the first page of a turn is free, the other %(paid)s cost 1 silver "
            "each: %(cost)s.",
            "%(num)s pages: the first page of a turn is free, the other %(paid)s cost 1 silver "
            "each: %(cost)s.",
            "num",
            num=count,
            paid=count - 1,
            cost=silver(cost),
        )
    if what == "turn_pages":
        return Plural(
            "%(num)s page at 1 silver (the free page of this turn was turned already): %(cost)s.",
            "%(num)s pages at 1 silver each (the free page of this turn was turned already): "
            "%(cost)s.",
            "num",
            num=count,
            cost=silver(cost),
        )
    return None


def suggested_sheet(state: dict, seat: int) -> dict:
    """A scoring sheet pre-filled from what the ledger recorded for this seat.

    Unfinished artifact adventures are None (for the player to fill in) unless the entries
    settle the number; unfinished guide adventures score nothing and must not be counted.
    """
    record = state["seats"][seat]
    return {
        "expedition_points": list(record["tally"]["expeditions"]),
        "artifact_cards": [[kind_label(state, k), p] for k, p in record["tally"]["artifacts"]],
        "guide_adventures": record["tally"]["guides"],
        "coins": record["coins"],
        "movement_cards": 0,
        "unfinished_artifacts": known_unfinished_artifacts(state, seat),
    }


def labelled_sheet(state: dict, sheet: dict | None) -> dict | None:
    """A copy of a stored sheet with the artifact kinds by their current names."""
    if sheet is None:
        return None
    labelled = copy_state(sheet)
    labelled["artifact_cards"] = [[kind_label(state, k), p] for k, p in sheet["artifact_cards"]]
    return labelled


def end_of_turn_checks(state: dict, you: bool = False) -> list[Msg]:
    """Reminders for the current player before ending the turn (rules "end-of-turn",
    "refill-row"); you=True when the reader is that player (their phone, or the host entering
    their turn), so the reminder about their cards says "you"."""
    seat = state["turn"]["seat"]
    notes = [
        Msg(
            N_(
                "If you hold more than 5 cards, discard down to 5 (movement cards to the "
                "discard pile; a discarded joker or guide leaves the game)."
            )
        )
    ]
    open_adventures = state["seats"][seat]["adventures_open"]
    if open_adventures > OPEN_ADVENTURE_LIMIT and you:
        notes.append(
            Plural(
                "You have %(n)s unfinished adventure: discard %(extra)s (they leave the game).",
                "You have %(n)s unfinished adventures: discard %(extra)s (they leave the game).",
                "n",
                n=open_adventures,
                extra=open_adventures - OPEN_ADVENTURE_LIMIT,
            )
        )
    elif open_adventures > OPEN_ADVENTURE_LIMIT:
        notes.append(
            Plural(
                "%(company)s has %(n)s unfinished adventure: discard %(extra)s (they leave the "
                "game).",
                "%(company)s has %(n)s unfinished adventures: discard %(extra)s (they leave the "
                "game).",
                "n",
                company=company_name(seat),
                n=open_adventures,
                extra=open_adventures - OPEN_ADVENTURE_LIMIT,
            )
        )
    empty = [i + 1 for i, card in enumerate(state["row"]) if card is None]
    fill = min(len(empty), state["deck"])
    if fill:
        notes.append(
            Msg(
                N_(
                    "Refill the expedition row from the deck, left to right (new: "
                    "%(fill)s; in the deck: %(deck)s)."
                ),
                fill=fill,
                deck=state["deck"],
            )
        )
    # Rule "game-end": only the first refill that leaves a space empty triggers the end; the
    # last round is then announced by its own banner, not again here.
    if fill < len(empty) and not state["last_round"]:
        if seat == state["players"] - 1:
            notes.append(
                Msg(
                    N_(
                        "The deck cannot fill the row: ending this turn ends the game, "
                        "since every player has had the same number of turns."
                    )
                )
            )
        else:
            notes.append(
                Msg(N_("The deck cannot fill the row: ending this turn starts the last round."))
            )
    return notes


def view(state: dict, seat: int | None, reveal: bool = False) -> dict:
    """What a seat's phone (or the table screen, seat None) may see.

    Public: set-up facts, turn, row with markers, deck, every ledger (coins move in the open),
    unfinished adventure counts. Private to the seat: its completed cards' points and kinds, its
    scoring sheet and a sheet suggested from its entries. reveal=True (host's "show all") and
    the finished result show every sheet.
    """
    finished = result(state) is not None
    in_gold = starts_in_gold(state)
    facts = setup_facts(state["players"], in_gold)
    seats = []
    for i, record in enumerate(state["seats"]):
        entry = {
            "seat": i,
            "company": company_facts(i, in_gold),
            "coins": record["coins"],
            "ledger": [
                dict(line, label=Msg(ENTRY_LABELS[line["what"]]), why=payment_arithmetic(line))
                for line in record["ledger"]
            ],
            "markers_free": MARKERS - markers_used(state, i),
            "adventures_open": record["adventures_open"],
            "sheet_submitted": record["sheet"] is not None,
        }
        if i == seat or reveal or finished:
            entry["tally"] = {
                "expeditions": list(record["tally"]["expeditions"]),
                "artifacts": [[kind_label(state, k), p] for k, p in record["tally"]["artifacts"]],
                "guides": record["tally"]["guides"],
            }
            entry["sheet"] = labelled_sheet(state, record["sheet"])
            entry["suggested_sheet"] = suggested_sheet(state, i)
            if record["sheet"] is not None:
                score = final_score(record["sheet"])
                entry["score"] = score["total"]
        seats.append(entry)
    turn = state["turn"]
    out = {
        "players": state["players"],
        "seat": seat,
        "setup": facts,
        "phase": state["phase"],
        "turn": {
            "seat": turn["seat"],
            "number": turn["number"],
            "round": (turn["number"] - 1) // state["players"] + 1,
            "action": turn["action"],
            "action_label": Msg(TURN_ACTION_LABELS[turn["action"]]) if turn["action"] else None,
            "pages": turn["pages"],
            "next_page_cost": page_cost(turn["pages"], 1),
        },
        "row": [
            None if card is None else {"slot": i + 1, "joined": list(card["joined"])}
            for i, card in enumerate(state["row"])
        ],
        "deck": state["deck"],
        "last_round": state["last_round"],
        "ended_by": state["ended_by"],
        "last_end": copy_state(state["last_end"]),
        "kind_names": list(state["kind_names"]),
        "kinds_renamed": state["kinds_renamed"],
        "seats": seats,
        "checks": (
            end_of_turn_checks(state, you=seat == turn["seat"])
            if state["phase"] == "playing"
            else []
        ),
    }
    if seat is not None:
        out["company"] = company_facts(seat, in_gold)
        out["my_turn"] = state["phase"] == "playing" and turn["seat"] == seat
    return out


def result(state: dict) -> dict | None:
    """The final result once play is over and every seat has submitted its sheet.

    {"scores": [per seat: seat, company, lines (key, label, value), every breakdown field,
    "sets" with kind names and bonus, "total", "coins", "place"], "order", "winners",
    "tie_break" ("none" | "coins" | "shared"), "tie_break_text", "warnings"}; None before.
    """
    if state["phase"] != "over":
        return None
    if any(record["sheet"] is None for record in state["seats"]):
        return None
    scores = []
    for i, record in enumerate(state["seats"]):
        score = final_score(record["sheet"])
        score["sets"] = [
            {"kinds": [kind_label(state, k) for k in group["kinds"]], "bonus": group["bonus"]}
            for group in score["sets"]
        ]
        score["sheet"] = labelled_sheet(state, score["sheet"])
        score["lines"] = [(key, Msg(label), score[key]) for key, label in SCORE_LINES]
        score.update(seat=i, company=Msg(SEAT_LABELS[i]))
        scores.append(score)
    ranking = rank_scores(scores)
    for i, score in enumerate(scores):
        score["place"] = ranking["places"][i]
    warnings = []
    for key in KIND_KEYS:
        claimed = sum(
            1 for record in state["seats"] for k, _ in record["sheet"]["artifact_cards"] if k == key
        )
        if claimed > ARTIFACT_COPIES:
            warnings.append(
                Plural(
                    "The sheets together list %(n)s artifact card of kind %(kind)s, but only 4 "
                    "exist: check the sheets.",
                    "The sheets together list %(n)s artifact cards of kind %(kind)s, but only 4 "
                    "exist: check the sheets.",
                    "n",
                    n=claimed,
                    kind=kind_label(state, key),
                )
            )
    guides = sum(record["sheet"]["guide_adventures"] for record in state["seats"])
    if guides > GUIDE_ADVENTURES:
        warnings.append(
            Plural(
                "The sheets together list %(n)s completed guide adventure, but only 10 exist: "
                "check the sheets.",
                "The sheets together list %(n)s completed guide adventures, but only 10 exist: "
                "check the sheets.",
                "n",
                n=guides,
            )
        )
    return {
        "scores": scores,
        "order": ranking["order"],
        "winners": ranking["winners"],
        "tie_break": ranking["tie_break"],
        "tie_break_text": Msg(TIE_BREAK_TEXT[ranking["tie_break"]]),
        "warnings": warnings,
    }

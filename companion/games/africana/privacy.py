"""What Africana keeps private: each seat's completed cards (points, kinds, guides) and its scoring
sheet. Its own phone sees them, the host's device when it acts for that seat or shows all; nobody
else, until the result.
"""

from __future__ import annotations

from companion.games.base import HOST_DEVICE, PHONE, Position, Privacy, copy_state


def _any_tally(state: dict) -> bool:
    return any(r["tally"]["expeditions"] or r["tally"]["artifacts"] for r in state["seats"])


def _sheets_partly_in(state: dict) -> bool:
    sheets = sum(r["sheet"] is not None for r in state["seats"])
    return state["phase"] == "over" and 0 < sheets < state["players"]


def _end_once_cards_are_completed(state: dict, rng) -> dict | None:
    """The host ends play early once some cards are completed (so that the sheets are due)."""
    if state["phase"] == "playing" and _any_tally(state) and rng.random() < 0.1:
        return {"type": "finish_game", "seat": None, "host": True}
    return None


def _mutate(state: dict, seat: int) -> dict:
    changed = copy_state(state)
    record = changed["seats"][seat]
    tally = record["tally"]
    tally["guides"] += 1
    tally["expeditions"] = [p + 1 for p in tally["expeditions"]] or [3]
    tally["artifacts"] = [[k, p + 1] for k, p in tally["artifacts"]]
    if record["sheet"] is not None:
        record["sheet"]["coins"] += 13
    return changed


def _may_see(kind: str, viewer_seat: int | None, seat: int, reveal: bool) -> bool:
    if kind == PHONE:
        return viewer_seat == seat
    return kind == HOST_DEVICE and (viewer_seat == seat or reveal)


def _private_action(state: dict, action: dict) -> dict | None:
    """A completed expedition or artifact adventure (its points; an artifact's kind too), or a
    scoring sheet that is not the last one (the last shows the result), with other values."""
    kind = action.get("type")
    if kind == "complete_expedition":
        return {**action, "points": action["points"] + 1}
    if kind == "complete_artifact":
        kinds = ["A", "B", "C", "D", "E"]
        other = kinds[(kinds.index(action["kind"]) + 1) % 5] if action["kind"] in kinds else "A"
        return {**action, "kind": other, "points": action["points"] + 1}
    if kind == "submit_sheet" and sum(r["sheet"] is None for r in state["seats"]) >= 2:
        return {**action, "coins": action.get("coins", 0) + 10}
    return None


PRIVACY = Privacy(
    what="completed cards and scoring sheets",
    positions=(
        Position("completed cards in play", lambda s: s["phase"] == "playing" and _any_tally(s)),
        Position(
            "scoring sheets, some handed in", _sheets_partly_in, _end_once_cards_are_completed
        ),
    ),
    mutate=_mutate,
    may_see=_may_see,
    private_action=_private_action,
    twin_kinds=("complete_expedition", "complete_artifact", "submit_sheet"),
)

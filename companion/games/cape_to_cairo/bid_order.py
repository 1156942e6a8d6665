"""From Cape to Cairo: the bid order, pure arithmetic shared by the game and the calculator.

Higher bid first; equal bids: less money left after paying first; still equal: each tied player
draws a card and the higher number (1 to 10) goes first, equal draws drawing again. Players are
any hashable keys (seat numbers as strings in a game, row numbers in the calculator).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

from companion.games.base import N_, Msg, Plural, RuleError
from companion.games.cape_to_cairo.facts import INCOME_MAX, INCOME_MIN, int_in, is_int


def _check_bid_inputs(bids: dict, money: dict, draws: dict | None) -> dict[Hashable, list[int]]:
    if not isinstance(bids, dict) or not isinstance(money, dict) or set(bids) != set(money):
        raise RuleError("bid-order", N_("Give a bid and an amount of money for every player."))
    if not bids:
        raise RuleError("bid-order", N_("Give a bid and an amount of money for every player."))
    for key in bids:
        held = money[key]
        if not is_int(held) or held < 0:
            raise RuleError("money", N_("Money is a whole number of pounds, never below 0."))
        int_in(
            bids[key],
            0,
            held,
            "bid-range",
            Plural(
                "A bid is a whole number from %(low)s to the money held (%(high)s pound).",
                "A bid is a whole number from %(low)s to the money held (%(high)s pounds).",
                "high",
                low=0,
                high=held,
            ),
        )
    if draws is None:
        draws = {}
    if not isinstance(draws, dict):
        raise RuleError("tie-draw", N_("Drawn cards are given as a number for each player."))
    seq: dict[Hashable, list[int]] = {}
    for key, value in draws.items():
        values = value if isinstance(value, list) else [value]
        for v in values:
            int_in(
                v,
                INCOME_MIN,
                INCOME_MAX,
                "tie-draw",
                N_("A drawn card shows a number from %(low)s to %(high)s."),
            )
        seq[key] = list(values)
    return seq


def _resolve(bids: dict, money: dict, draws: dict[Hashable, list[int]]):
    """The bid order as a list of groups, best first: a group of one is settled; a larger group
    is still tied and its members must draw card number `depth + 1`. Returns [(group, depth)]."""

    def refine(group: list, depth: int) -> list[tuple[list, int]]:
        if len(group) == 1:
            return [(group, depth)]
        if any(len(draws.get(k, [])) <= depth for k in group):
            return [(group, depth)]
        out: list[tuple[list, int]] = []
        for value in sorted({draws[k][depth] for k in group}, reverse=True):
            out += refine([k for k in group if draws[k][depth] == value], depth + 1)
        return out

    groups: dict[tuple[int, int], list] = {}
    for key in bids:  # keeps the caller's order inside a group, but only groups of one survive
        groups.setdefault((-bids[key], money[key] - bids[key]), []).append(key)
    out: list[tuple[list, int]] = []
    for rank in sorted(groups):
        # rule: higher bid first; equal bids: less money left first; still equal: drawn cards
        out += refine(groups[rank], 0)
    return out


def tie_draws_needed(
    bids: dict[str, int], money: dict[str, int], draws: dict[str, int | list[int]] | None = None
) -> list[str]:
    """Who must draw a card (next) before the bid order is settled; [] when it is settled.

    money is what each player holds before paying the bid. A draw value may be an int or a list
    of successive draws (when equal draws had to be drawn again).
    """
    groups = _resolve(bids, money, _check_bid_inputs(bids, money, draws))
    return [key for group, _ in groups if len(group) > 1 for key in group]


def acquisition_order(
    bids: dict[str, int], money: dict[str, int], draws: dict[str, int] | None = None
) -> list[str]:
    """The players in the order they take a terrain card.

    bids: each player's bid; money: what each holds before paying it (a bid above it is refused).
    Higher bid first; equal bids: less money left after the bid first; still equal: the higher
    drawn card first. draws are only needed for such ties; a value may also be a list of
    successive draws when equal draws were drawn again. An unsettled tie is a RuleError naming
    who must draw.
    """
    groups = _resolve(bids, money, _check_bid_inputs(bids, money, draws))
    tied = [key for group, _ in groups if len(group) > 1 for key in group]
    if tied:
        raise RuleError(
            "tie-draw",
            N_(
                "%(players)s are tied on bid and money left: each must draw a card, the higher "
                "number chooses first."
            ),
            players=", ".join(str(k) for k in tied),
        )
    return [group[0] for group, _ in groups]


def order_reasons(
    bids: dict,
    money: dict,
    draws: dict | None = None,
    ties_only: bool = False,
    label: Callable[[Any], Any] = str,
) -> list[Msg]:
    """Why each player in the settled bid order comes before the next one, in words.

    ties_only: only the pairs with equal bids (where a tie-break was needed). label turns a
    player key into a message parameter (str for the calculator, Seat for a game).
    """
    seq = _check_bid_inputs(bids, money, draws)
    order = acquisition_order(bids, money, draws)
    lines: list[Msg] = []
    for first, second in zip(order, order[1:]):
        a, b = label(first), label(second)
        if bids[first] != bids[second]:
            if not ties_only:
                lines.append(
                    Plural(
                        "%(first)s before %(second)s: higher bid (%(a)s to %(b)s pound)",
                        "%(first)s before %(second)s: higher bid (%(a)s to %(b)s pounds)",
                        "b",
                        first=a,
                        second=b,
                        a=bids[first],
                        b=bids[second],
                    )
                )
            continue
        left_a, left_b = money[first] - bids[first], money[second] - bids[second]
        if left_a != left_b:
            lines.append(
                Plural(
                    "%(first)s before %(second)s: same bid, less money left (%(a)s to %(b)s pound)",
                    "%(first)s before %(second)s: same bid, less money left "
                    "(%(a)s to %(b)s pounds)",
                    "b",
                    first=a,
                    second=b,
                    a=left_a,
                    b=left_b,
                )
            )
            continue
        da, db = seq.get(first, []), seq.get(second, [])
        depth = next(i for i in range(min(len(da), len(db))) if da[i] != db[i])
        lines.append(
            Msg(
                N_(
                    "%(first)s before %(second)s: same bid and money left, higher drawn "
                    "card (%(a)s to %(b)s, draw %(round)s)"
                ),
                first=a,
                second=b,
                a=da[depth],
                b=db[depth],
                round=depth + 1,
            )
        )
    return lines

"""A plain summary of a play to paste into a chat, in the reader's language: the game, the day
and the duration, the ranking with the scores, the tie-break in words, each player's thinking
time. The words come from the web layer (Words): this module only puts them together."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from companion import localtime
from companion.games.base import N_
from companion.plays import Play

THINKING_TIME = N_("Thinking time")
STILL_GOING = N_("The game is still going.")


@dataclass(frozen=True)
class Words:
    """The reader's language, as the web layer gives it."""

    gettext: Callable[[str], str]
    ngettext: Callable[[str, str, int], str]
    game: Callable[[str], str]  # a registry key -> the game's name
    message: Callable[[dict, list[str]], str]  # a Msg's JSON and the names by seat -> text
    day: Callable[[float, str | None], str]  # a moment in a zone -> its date


def summary(play: Play, words: Words) -> str:
    """The text of a finished play."""
    play = play.plain()
    head = [words.game(play.game), play.code, words.day(play.started or play.ended, play.timezone)]
    if play.minutes is not None:
        head.append(
            words.ngettext("%(num)s minute", "%(num)s minutes", play.minutes)
            % {"num": play.minutes}
        )
    lines = [" · ".join(head)]
    ranked = sorted((p for p in play.players if p.rank is not None), key=lambda p: (p.rank, p.seat))
    for p in ranked:
        score = "" if p.score is None else f" — {p.score}"
        lines.append(f"{p.rank}. {p.name}{score}{' ★' if p.winner else ''}")
    names = [p.name for p in sorted(play.players, key=lambda p: p.seat)]
    if play.decided_by:
        lines.append(words.message(play.decided_by, names))
    if play.timed:
        times = ", ".join(
            f"{p.name} {localtime.clock(p.seconds)}"
            for p in sorted(play.players, key=lambda p: p.seat)
        )
        lines.append(f"{words.gettext(THINKING_TIME)}: {times}")
    return "\n".join(lines) + "\n"


def still_going(game: str, code: str, words: Words) -> str:
    """The text of a table whose game goes on: no scores yet."""
    return f"{words.game(game)} · {code}\n{words.gettext(STILL_GOING)}\n"

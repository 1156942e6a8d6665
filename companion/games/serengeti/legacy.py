"""Serengeti / Don: history sentences of earlier releases, kept for the rows that use them.

The history stores each line as its msgid and parameters (base.Msg.to_json), so a row written
before a sentence was reworded (here: into a plural message, so that Russian counts agree) still
names the old msgid. Marking the old msgids here keeps them in the catalogues: such rows still
read in Japanese and Russian, not in English. New lines never use them.
"""

from __future__ import annotations

from companion.games.base import N_

STORED_BEFORE_PLURALS = (
    N_("%(seat)s passed at once; the bank had only %(bonus)s to give."),
    N_("%(seat)s passed at once and took %(bonus)s from the bank."),
    N_("Round %(round)s: a lot of %(size)s; %(seat)s starts."),
)
# The first release (schema 1) said it so, before "a lot of":
STORED_IN_THE_FIRST_RELEASE = (N_("Round %(round)s: %(size)s card(s); %(seat)s starts."),)

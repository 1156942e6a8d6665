"""From Cape to Cairo (Günter Burkhardt, Adlung 2001): sealed bids and a race to 8 crossings."""

from companion.games.base import N_, GameInfo

ENTRIES = (GameInfo("cape_to_cairo", N_("From Cape to Cairo"), __name__, 2, 4),)

"""From Cape to Cairo (Günter Burkhardt, Adlung 2001): sealed bids and a race to 8 crossings."""

from companion.games.base import N_, GameInfo

# Its BoardGameGeek id is left at 0 until its BGG page is cited here.
ENTRIES = (
    GameInfo(
        "cape_to_cairo", N_("From Cape to Cairo"), __name__, 2, 4, bgg_name="From Cape to Cairo"
    ),
)

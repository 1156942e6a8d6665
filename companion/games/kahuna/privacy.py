"""What Kahuna keeps private: nothing. Hands are only counted (the app never knows a card in a
hand), and everything else lies open on the table."""

from __future__ import annotations

from companion.games.base import Privacy

PRIVACY = Privacy(what="nothing: hands are only counted, the rest lies open on the table")

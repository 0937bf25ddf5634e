"""Black Maria (docs/black-maria.md) for the research adapters: rules as arguments, the observation, rewards.

The step space is the 52 cards (a card to pass, then a card to play). The
reward of a hand is minus the seat's penalty points, reneges included (B6,
B7). The observation is a fixed vector of :data:`OBS_SIZE` floats in [0, 1]
built from one seat's :class:`~mustamaija.games.black_maria.view.View`, sized for
:data:`MAX_SEATS` seats, with seats relative to the viewer (0 is the viewer,
1 the seat to its left). First the :data:`PLANES` of 52 entries (card
``suit * 13 + rank``), then the :data:`SCALARS` blocks:

>>> len(PLANES) * 52 + sum(width for _, width in SCALARS) == OBS_SIZE == 1491
True
>>> import numpy as np
>>> from mustamaija.games.black_maria import State
>>> s = State.from_seed(players=4, seed=1)
>>> obs = np.zeros(OBS_SIZE, dtype=np.float32)
>>> encode(s.view(s.to_act), obs)
>>> from mustamaija.core.registry import get_game
>>> int(obs[:52].sum()), get_game("black-maria").utility_range(4, get_game("black-maria").make_rules())
(13, (-43.0, 0.0))
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

from mustamaija.core.observation import bits_of
from mustamaija.games.black_maria.rules import MAX_PLAYERS
from mustamaija.games.black_maria.view import View

__all__ = ["MAX_SEATS", "OBS_SIZE", "PLANES", "SCALARS", "encode", "offset"]

MAX_SEATS: Final = MAX_PLAYERS
"""The most seats (B1: 7)."""

PLANES: Final = (
    "hand",       # the viewer's hand
    "passed",     # the cards the viewer passed
    "received",   # the cards the viewer received (once every seat has passed)
    "choosing",   # the cards chosen so far for the viewer's pass in progress
    "played",     # every card played to a trick so far
    "unseen",     # cards in play whose place the viewer does not know
    *(f"known_{r}" for r in range(MAX_SEATS)),  # cards known to be in relative seat r's hand
    *(f"won_{r}" for r in range(MAX_SEATS)),    # penalty cards relative seat r has taken in tricks
    *(f"trick_{r}" for r in range(MAX_SEATS)),  # the card relative seat r played to the current trick
)
"""The card planes, in order; each is 52 entries."""

SCALARS: Final = (
    ("phase", 3),         # one-hot: pass, play, over
    ("to_act", 7),        # one-hot relative seat (all zero once the hand is over)
    ("leader", 7),        # one-hot relative seat that led the current trick
    ("dealer", 7),        # one-hot relative seat
    ("seated", 7),        # 1 for each relative seat at this table
    ("hand_sizes", 7),    # cards held / 17
    ("tricks", 7),        # tricks won / 17
    ("reneges", 7),       # reneges charged (as far as the viewer knows) / 17
    ("voids", 28),        # relative seat r known void in suit s: entry 4 * r + s
    ("led", 5),           # one-hot suit led to the current trick: S, H, D, C, none
    ("broken", 1),        # hearts are broken
    ("passes_made", 1),   # seats that have passed / players
)
"""The scalar blocks after the planes: (name, width); every entry is in [0, 1]."""

OBS_SIZE: Final = len(PLANES) * 52 + sum(width for _, width in SCALARS)

_OFFSETS: Final[dict[str, int]] = {name: 52 * i for i, name in enumerate(PLANES)}
_at = 52 * len(PLANES)
for _name, _width in SCALARS:
    _OFFSETS[_name] = _at
    _at += _width
_PLANES_END: Final = 52 * len(PLANES)


def offset(name: str) -> int:
    """Return where plane or scalar block ``name`` starts in the observation."""
    return _OFFSETS[name]


def encode(view: View, out: npt.NDArray[np.float32]) -> None:
    """Write the observation of ``view`` (a seat's view) into the zeroed ``out``."""
    n = view.players
    me = view.seat if view.seat is not None else 0
    seat_of = [(me + r) % n for r in range(n)]
    trick = [0] * MAX_SEATS
    for s, card in zip(view.trick_seats, view.trick, strict=True):
        trick[(s - me) % n] = 1 << card
    masks = [view.hand, view.passed, view.received, view.sel, view.played, view.unseen,
             *(view.known[seat_of[r]] if r < n else 0 for r in range(MAX_SEATS)),
             *(view.won[seat_of[r]] if r < n else 0 for r in range(MAX_SEATS)), *trick]
    out[:_PLANES_END] = bits_of(masks).reshape(-1)
    for r, s in enumerate(seat_of):
        out[_OFFSETS["seated"] + r] = 1.0
        out[_OFFSETS["hand_sizes"] + r] = view.hand_sizes[s] / 17
        out[_OFFSETS["tricks"] + r] = view.tricks[s] / 17
        out[_OFFSETS["reneges"] + r] = min(view.reneges[s] / 17, 1.0)
        for suit in range(4):
            if view.voids[s] >> suit & 1:
                out[_OFFSETS["voids"] + 4 * r + suit] = 1.0
    out[_OFFSETS["phase"] + view.phase] = 1.0
    if view.to_act >= 0:
        out[_OFFSETS["to_act"] + (view.to_act - me) % n] = 1.0
    if view.leader >= 0:
        out[_OFFSETS["leader"] + (view.leader - me) % n] = 1.0
    out[_OFFSETS["dealer"] + (view.dealer - me) % n] = 1.0
    out[_OFFSETS["led"] + (view.led if view.led >= 0 else 4)] = 1.0
    out[_OFFSETS["broken"]] = float(view.broken)
    out[_OFFSETS["passes_made"]] = view.npassed / n

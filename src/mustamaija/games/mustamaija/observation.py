"""Mustamaija for the research adapters: rules as arguments, the observation encoding, rewards.

The observation is a fixed vector of :data:`OBS_SIZE` floats in [0, 1], built
from one seat's :class:`~mustamaija.games.mustamaija.view.View` only, and sized for the
largest table (:data:`MAX_SEATS` seats) so that one network serves every
player count. Seats are *relative*: index 0 is the viewer, 1 the seat to its
left, and so on; indices at or beyond the player count stay zero.

First come :data:`PLANES`, 52 entries each (entry ``c`` is card ``c``,
``suit * 13 + rank``, suits S H D C, ranks 2 to A), then the scalars of
:data:`SCALARS`, each a block of the given width:

>>> [(name, width) for name, width in SCALARS][:4]
[('phase', 3), ('trump', 5), ('declarer', 9), ('attacker', 8)]
>>> len(PLANES) * 52 + sum(width for _, width in SCALARS) == OBS_SIZE == 1056
True
>>> import numpy as np
>>> from mustamaija import State
>>> s = State.from_seed(players=3, seed=1)
>>> obs = np.zeros(OBS_SIZE, dtype=np.float32)
>>> encode(s.view(1), obs)
>>> int(obs[:52].sum()), (52 * obs[offset("hand_sizes"):offset("hand_sizes") + 4]).round().tolist()
(5, [5.0, 5.0, 5.0, 0.0])
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

from mustamaija.core.observation import bits_of
from mustamaija.games.mustamaija.view import View

__all__ = ["MAX_SEATS", "OBS_SIZE", "PLANES", "SCALARS", "encode", "offset"]

MAX_SEATS: Final = 8
"""The most seats any rule set allows (V1: 8 with hand size 3 or 6)."""

PLANES: Final = (
    "hand",          # the viewer's hand
    "choosing",      # cards chosen so far for the viewer's lead in progress
    "table",         # the led cards on the table
    "undecided",     # led cards the viewer (defending) has not yet beaten or left; else the whole table
    "beaten",        # led cards the viewer has beaten in its defence in progress
    "beaters",       # cards the viewer has played on them so far
    "discard",       # cards out of play (M14)
    "unseen",        # cards whose place the viewer does not know
    "talon_known",   # cards known to lie in the talon (the turned trump, spades put back)
    "trump_card",    # the turned trump card
    "put_back",      # spades turned and put back
    *(f"known_{r}" for r in range(MAX_SEATS)),  # cards known to be in relative seat r's hand
)
"""The card planes, in order; each is 52 entries."""

SCALARS: Final = (
    ("phase", 3),            # one-hot: lead, defend, over
    ("trump", 5),            # one-hot: S, H, D, C, no trumps yet
    ("declarer", 9),         # one-hot relative seat of the marriage, or the last entry for none
    ("attacker", 8),         # one-hot relative seat
    ("defender", 8),         # one-hot relative seat
    ("to_act", 8),           # one-hot relative seat (all zero once the deal is over)
    ("hand_sizes", 8),       # cards held by each relative seat / 52
    ("seated", 8),           # 1 for each relative seat that exists at this table
    ("out", 8),              # 1 for each relative seat that is out
    ("talon_size", 1),       # cards in the talon / 52
    ("limit", 1),            # the most cards the current lead may hold / 52 (1 without a limit)
    ("turns", 1),            # completed turns / max_turns
)
"""The scalar blocks after the planes: (name, width); every entry is in [0, 1]."""

OBS_SIZE: Final = len(PLANES) * 52 + sum(width for _, width in SCALARS)

_OFFSETS: Final[dict[str, int]] = {}
for _i, _name in enumerate(PLANES):
    _OFFSETS[_name] = 52 * _i
_at = 52 * len(PLANES)
for _name, _width in SCALARS:
    _OFFSETS[_name] = _at
    _at += _width


def offset(name: str) -> int:
    """Return where plane or scalar block ``name`` starts in the observation."""
    return _OFFSETS[name]


_PLANES_END: Final = 52 * len(PLANES)


def encode(view: View, out: npt.NDArray[np.float32]) -> None:
    """Write the observation of ``view`` (a seat's view) into the zeroed ``out``."""
    n = view.players
    me = view.seat if view.seat is not None else 0
    beaten = 0
    for led, _ in view.pairs:
        beaten |= 1 << led
    talon_known = 0
    for _, card in view.talon_known:
        talon_known |= 1 << card
    known = [view.known[(me + r) % n] if r < n else 0 for r in range(MAX_SEATS)]
    trump_card = 1 << view.trump_card if view.trump_card >= 0 else 0
    masks = [view.hand, view.sel, view.led, view.rem, beaten, view.used, view.discard, view.unseen, talon_known,
             trump_card, view.revealed, *known]
    out[:_PLANES_END] = bits_of(masks).reshape(-1)
    for s in range(n):
        r = (s - me) % n
        out[_OFFSETS["hand_sizes"] + r] = view.hand_sizes[s] / 52
        out[_OFFSETS["seated"] + r] = 1.0
    for s in view.out:
        out[_OFFSETS["out"] + (s - me) % n] = 1.0
    out[_OFFSETS["phase"] + view.phase] = 1.0
    out[_OFFSETS["trump"] + (view.trump if view.trump >= 0 else 4)] = 1.0
    out[_OFFSETS["declarer"] + ((view.declarer - me) % n if 0 <= view.declarer < n else MAX_SEATS)] = 1.0
    out[_OFFSETS["attacker"] + (view.attacker - me) % n] = 1.0
    out[_OFFSETS["defender"] + (view.defender - me) % n] = 1.0
    if view.to_act >= 0:
        out[_OFFSETS["to_act"] + (view.to_act - me) % n] = 1.0
    out[_OFFSETS["talon_size"]] = view.talon_size / 52
    out[_OFFSETS["limit"]] = min(view.limit, 52) / 52
    out[_OFFSETS["turns"]] = min(view.turns / view.rules.max_turns, 1.0)

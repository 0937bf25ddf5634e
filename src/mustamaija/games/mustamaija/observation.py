"""Mustamaija for the research adapters: rules as arguments, the observation encoding, rewards.

The observation is a fixed vector of :data:`OBS_SIZE` floats in [0, 1], built
from what one seat knows only, and sized for the largest table
(:data:`MAX_SEATS` seats) so that one network serves every player count.
Seats are *relative*: index 0 is the viewer, 1 the seat to its left, and so
on; indices at or beyond the player count stay zero.

:func:`encode` writes a seat's :class:`~mustamaija.games.mustamaija.view.View`;
:func:`observation_for` gives the same vector from the state without building
the view (what the research adapters ask for at every step). Both read the
seat's knowledge from :func:`~mustamaija.games.mustamaija.knowledge.knowledge`, the
one computation :func:`~mustamaija.games.mustamaija.view.view_of` uses, and
share one encoder, which builds the vector's bytes by table lookups
(:mod:`mustamaija.core.observation`).

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

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

import numpy as np
import numpy.typing as npt

from mustamaija.core.bits import popcount
from mustamaija.core.observation import FLOAT, FLOAT3, PLANE_BYTES, add_by_seat, add_planes_by_seat, flags, one_hot, plane
from mustamaija.core.view import check_seat
from mustamaija.games.mustamaija.knowledge import knowledge
from mustamaija.games.mustamaija.rules import DEFEND, LEAD
from mustamaija.games.mustamaija.view import View

if TYPE_CHECKING:
    from mustamaija.games.mustamaija.state import State

__all__ = ["MAX_SEATS", "OBS_SIZE", "PLANES", "SCALARS", "encode", "observation_for", "offset"]

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


# The scalar blocks as bytes, by the numbers they depend on (their order is that of SCALARS):
_HEAD: Final = tuple(one_hot(phase, 3) + one_hot(trump, 5) + one_hot(declarer, 9)
                     for phase in range(3) for trump in range(5) for declarer in range(9))
"""``phase``, ``trump`` and ``declarer`` at ``(phase * 5 + trump) * 9 + declarer`` (trump 4: none; declarer 8: none)."""
_SEATS: Final = tuple(one_hot(attacker, 8) + one_hot(defender, 8) + one_hot({LEAD: attacker, DEFEND: defender}.get(phase, -1), 8)
                      for phase in range(3) for attacker in range(8) for defender in range(8))
"""``attacker``, ``defender`` and ``to_act`` at ``(phase * 8 + attacker) * 8 + defender``: the seat to act is the
attacker or the defender as the phase says (nobody once the deal is over)."""
_SIZE: Final = tuple(FLOAT.pack(cards / 52) for cards in range(53))
"""A hand size (or any count of cards) / 52."""
_FLAGS: Final = tuple(flags(value, MAX_SEATS) for value in range(1 << MAX_SEATS))
"""Eight flags by relative seat, from a mask of relative seats (``out``, ``seated``)."""
_EMPTY_SEATS: Final = tuple((bytes(PLANE_BYTES * (MAX_SEATS - n)), bytes(4 * (MAX_SEATS - n))) for n in range(MAX_SEATS + 1))
"""For ``n`` players: the zero planes of the relative seats past the table, and their zero hand sizes."""


_FLOAT32: Final = np.dtype(np.float32)
"""The vector's type, as a dtype object (numpy makes one from ``np.float32`` at every call otherwise)."""


def _encoding(n: int, me: int, hand: int, known: Sequence[int], unseen: int, talon_known: int, sel: int,
              rem: int, used: int, pairs: tuple[tuple[int, int], ...], sizes: Sequence[int], talon_size: int,
              led: int, discard: int, revealed: int, trump_card: int, trump: int, declarer: int, phase: int,
              out: tuple[int, ...], attacker: int, defender: int, limit: int, turns: float) -> bytes:
    """Return the observation's bytes from a seat's knowledge and the public fields of a state or a view.

    The knowledge is as :func:`~mustamaija.games.mustamaija.knowledge.knowledge` gives it. The one encoder:
    :func:`encode` gives it a view's fields, :func:`observation_for` a state's (read natively in the compiled
    build, where fields read through an untyped object are generic attribute lookups).
    ``me`` is the viewer (0 for a spectator), ``known`` and ``sizes`` are by absolute seat, ``turns`` is the
    completed turns over the turn cap (M21).
    """
    beaten = 0
    for led_card, _ in pairs:
        beaten |= 1 << led_card
    out_mask = 0
    for seat in out:
        out_mask |= 1 << (seat - me) % n
    no_planes, no_sizes = _EMPTY_SEATS[n]
    # One list, appended to in loops: compiled, a display with starred maps extends a list through the iterator
    # protocol (half the encoding's time), where plane() is a native call.
    parts = [plane(hand), plane(sel), plane(led), plane(rem), plane(beaten), plane(used), plane(discard), plane(unseen),
             plane(talon_known), plane(1 << trump_card if trump_card >= 0 else 0), plane(revealed)]
    add_planes_by_seat(parts, known, me)
    parts.append(no_planes)
    parts.append(_HEAD[(phase * 5 + (trump if trump >= 0 else 4)) * 9 + ((declarer - me) % n if 0 <= declarer < n else 8)])
    parts.append(_SEATS[(phase * 8 + (attacker - me) % n) * 8 + (defender - me) % n])
    add_by_seat(parts, _SIZE, sizes, me)
    parts.append(no_sizes)
    parts.append(_FLAGS[(1 << n) - 1])  # seated
    parts.append(_FLAGS[out_mask])
    parts.append(FLOAT3.pack(talon_size / 52, min(limit, 52) / 52, min(turns, 1.0)))
    return b"".join(parts)


def encode(view: View, out: npt.NDArray[np.float32]) -> None:
    """Write the observation of ``view`` (a seat's view) into ``out``."""
    talon_known = 0
    for _, card in view.talon_known:
        talon_known |= 1 << card
    data = _encoding(view.players, view.seat if view.seat is not None else 0, view.hand, view.known, view.unseen,
                     talon_known, view.sel, view.rem, view.used, view.pairs, view.hand_sizes, view.talon_size,
                     view.led, view.discard, view.revealed, view.trump_card, view.trump, view.declarer, view.phase,
                     view.out, view.attacker, view.defender, view.limit, view.turns / view.rules.max_turns)
    out[:] = np.frombuffer(data, np.float32)


def observation_for(state: State, seat: object) -> npt.NDArray[np.float32]:
    """Return ``seat``'s observation of ``state``, the same as :func:`encode` of ``state.view(seat)``, without the view.

    The seat's knowledge comes from :func:`~mustamaija.games.mustamaija.knowledge.knowledge`, as its view's
    does. The array is new and read-only (it shares the bytes it was built from).

    >>> from mustamaija import State
    >>> s = State.from_seed(players=4, seed=2)
    >>> obs = np.zeros(OBS_SIZE, dtype=np.float32)
    >>> encode(s.view(2), obs)
    >>> bool((observation_for(s, 2) == obs).all()), observation_for(s, 2).flags.writeable
    (True, False)
    """
    n = state.n
    viewer = seat if type(seat) is int and 0 <= seat < n else check_seat(seat, n)  # Raises, but for None (a spectator).
    hand, known, unseen, talon_known, sel, rem, used, pairs = knowledge(state, viewer)
    data = _encoding(n, viewer if viewer is not None else 0, hand, known, unseen, talon_known, sel, rem, used, pairs,
                     [popcount(h) for h in state.hands], len(state.talon) - state.tpos,
                     state.led, state.discard, state.revealed, state.trump_card, state.trump, state.declarer, state.phase,
                     state.out, state.attacker, state.defender, state.limit, state.turns / state.facts.max_turns)
    return np.frombuffer(data, _FLOAT32)  # Read-only: it shares the bytes.

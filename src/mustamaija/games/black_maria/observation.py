"""Black Maria (docs/black-maria.md) for the research adapters: rules as arguments, the observation, rewards.

The step space is the 52 cards (a card to pass, then a card to play). The
reward of a hand is minus the seat's penalty points, reneges included (B6,
B7). The observation is a fixed vector of :data:`OBS_SIZE` floats in [0, 1]
built from what one seat knows, sized for :data:`MAX_SEATS` seats, with
seats relative to the viewer (0 is the viewer, 1 the seat to its left):
:func:`encode` writes a seat's :class:`~mustamaija.games.black_maria.view.View`,
:func:`observation_for` gives the same vector from the state without building
the view, both from the seat's knowledge
(:func:`~mustamaija.games.black_maria.knowledge.knowledge`) and through one encoder.
First the :data:`PLANES` of 52 entries (card ``suit * 13 + rank``), then the
:data:`SCALARS` blocks:

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

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

import numpy as np
import numpy.typing as npt

from mustamaija.core.bits import popcount
from mustamaija.core.observation import FLOAT, PLANE_BYTES, add_by_seat, add_planes_by_seat, flags, one_hot, plane
from mustamaija.core.view import check_seat
from mustamaija.games.black_maria.knowledge import knowledge
from mustamaija.games.black_maria.rules import MAX_PLAYERS
from mustamaija.games.black_maria.view import View

if TYPE_CHECKING:
    from mustamaija.games.black_maria.state import State

__all__ = ["MAX_SEATS", "OBS_SIZE", "PLANES", "SCALARS", "encode", "observation_for", "offset"]

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


# The scalar blocks as bytes, by the numbers they depend on (their order is that of SCALARS):
_HEAD: Final = tuple(one_hot(phase, 3) + one_hot(to_act, MAX_SEATS) + one_hot(leader, MAX_SEATS)
                     for phase in range(3) for to_act in range(MAX_SEATS + 1) for leader in range(MAX_SEATS + 1))
"""``phase``, ``to_act`` and ``leader`` at ``(phase * 8 + to_act) * 8 + leader`` (7: nobody)."""
_DEALER: Final = tuple(one_hot(dealer, MAX_SEATS) for dealer in range(MAX_SEATS))
_SEATED: Final = tuple(flags((1 << n) - 1, MAX_SEATS) for n in range(MAX_SEATS + 1))
_SEVENTEENTHS: Final = tuple(FLOAT.pack(count / 17) for count in range(53))
"""A count (cards held, tricks, reneges) / 17."""
_NO_RENEGES: Final = tuple(FLOAT.pack(0.0) * n for n in range(MAX_SEATS + 1))
"""The reneges of ``n`` seats that have none (nearly always: B7)."""
_VOIDS: Final = tuple(flags(suits, 4) for suits in range(16))
_LED: Final = tuple(one_hot(suit, 5) for suit in range(5))
_BROKEN: Final = (FLOAT.pack(0.0), FLOAT.pack(1.0))
_EMPTY_SEATS: Final = tuple((bytes(PLANE_BYTES * (MAX_SEATS - n)), bytes(4 * (MAX_SEATS - n)), bytes(16 * (MAX_SEATS - n)))
                            for n in range(MAX_SEATS + 1))
"""For ``n`` players: the zero planes, zero counts and zero voids of the relative seats past the table."""


_FLOAT32: Final = np.dtype(np.float32)
"""The vector's type, as a dtype object (numpy makes one from ``np.float32`` at every call otherwise)."""


def _encoding(n: int, me: int, hand: int, passed: int, received: int, known: Sequence[int], unseen: int,
              sel: int, reneges: tuple[int, ...], sizes: Sequence[int], leader: int, to_act: int, won: tuple[int, ...],
              tricks: tuple[int, ...], voids: tuple[int, ...], played_trick: tuple[int, ...], led: int, played: int,
              phase: int, dealer: int, broken: bool, npassed: int) -> bytes:
    """Return the observation's bytes from a seat's knowledge and the public fields of a state or a view.

    The knowledge is as :func:`~mustamaija.games.black_maria.knowledge.knowledge` gives it. The one encoder:
    :func:`encode` gives it a view's fields, :func:`observation_for` a state's (read natively in the compiled
    build, where fields read through an untyped object are generic attribute lookups).
    ``me`` is the viewer (0 for a spectator); ``known``, ``reneges`` and ``sizes`` are by absolute seat;
    ``played_trick`` is the trick on the table, in the order played from ``leader``.
    """
    trick = [0] * n
    for i, card in enumerate(played_trick):
        trick[(leader + i - me) % n] = 1 << card
    no_planes, no_counts, no_voids = _EMPTY_SEATS[n]
    # One list, appended to in loops: compiled, a display with starred maps extends a list through the iterator
    # protocol (half the encoding's time), where plane() is a native call.
    parts = [plane(hand), plane(passed), plane(received), plane(sel), plane(played), plane(unseen)]
    add_planes_by_seat(parts, known, me)
    parts.append(no_planes)
    add_planes_by_seat(parts, won, me)
    parts.append(no_planes)
    for mask in trick:
        parts.append(plane(mask))
    parts.append(no_planes)
    parts.append(_HEAD[(phase * 8 + ((to_act - me) % n if to_act >= 0 else 7)) * 8 + ((leader - me) % n if leader >= 0 else 7)])
    parts.append(_DEALER[(dealer - me) % n])
    parts.append(_SEATED[n])
    add_by_seat(parts, _SEVENTEENTHS, sizes, me)
    parts.append(no_counts)
    add_by_seat(parts, _SEVENTEENTHS, tricks, me)
    parts.append(no_counts)
    if any(reneges):
        add_by_seat(parts, _SEVENTEENTHS, [min(r, 17) for r in reneges], me)  # At most 17: the entry stays in [0, 1].
    else:
        parts.append(_NO_RENEGES[n])
    parts.append(no_counts)
    add_by_seat(parts, _VOIDS, voids, me)
    parts.append(no_voids)
    parts.append(_LED[led if led >= 0 else 4])
    parts.append(_BROKEN[bool(broken)])
    parts.append(FLOAT.pack(npassed / n))
    return b"".join(parts)


def encode(view: View, out: npt.NDArray[np.float32]) -> None:
    """Write the observation of ``view`` (a seat's view) into ``out``."""
    data = _encoding(view.players, view.seat if view.seat is not None else 0, view.hand, view.passed, view.received,
                     view.known, view.unseen, view.sel, view.reneges, view.hand_sizes, view.leader, view.to_act,
                     view.won, view.tricks, view.voids, view.trick, view.led, view.played, view.phase, view.dealer,
                     view.broken, view.npassed)
    out[:] = np.frombuffer(data, np.float32)


def observation_for(state: State, seat: object) -> npt.NDArray[np.float32]:
    """Return ``seat``'s observation of ``state``, the same as :func:`encode` of ``state.view(seat)``, without the view.

    The seat's knowledge comes from :func:`~mustamaija.games.black_maria.knowledge.knowledge`, as its view's
    does. The array is new and read-only (it shares the bytes it was built from).

    >>> from mustamaija.games.black_maria import State
    >>> s = State.from_seed(players=5, seed=2)
    >>> obs = np.zeros(OBS_SIZE, dtype=np.float32)
    >>> encode(s.view(3), obs)
    >>> bool((observation_for(s, 3) == obs).all()), observation_for(s, 3).flags.writeable
    (True, False)
    """
    n = state.n
    viewer = seat if type(seat) is int and 0 <= seat < n else check_seat(seat, n)  # Raises, but for None (a spectator).
    hand, passed, received, known, unseen, sel, reneges = knowledge(state, viewer)
    data = _encoding(n, viewer if viewer is not None else 0, hand, passed, received, known, unseen, sel, reneges,
                     [popcount(h) for h in state.hands], state.leader, state.to_act, state.won, state.tricks, state.voids,
                     state.trick, state.led, state.played, state.phase, state.dealer, state.broken, state.npassed)
    return np.frombuffer(data, _FLOAT32)  # Read-only: it shares the bytes.

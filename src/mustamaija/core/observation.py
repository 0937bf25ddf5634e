"""What the observation encoders of every game share: observations built as bytes, by table lookups.

The research adapters ask for an observation (a vector of ``float32``) at
every step, so the encoders build it as the bytes of its floats, joined
once and turned into an array by one numpy call
(``np.frombuffer(data, np.float32)``: read-only, no copy): a block of flags
is a table lookup, a 52-card plane a lookup in a memo of planes
(:func:`plane`: in the interpreted build a bound dict lookup, with no Python
call but on a miss), a fraction a packed float. At this size a numpy call costs
far more than a lookup.

>>> import numpy as np
>>> def floats(data): return np.frombuffer(data, np.float32).tolist()
>>> floats(plane(0b1011) + flags(0b10, 3) + FLOAT.pack(0.5))[:4], floats(one_hot(4, 5) + one_hot(-1, 2))
([1.0, 1.0, 0.0, 1.0], [0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0])
>>> len(plane((1 << 52) - 1)), np.frombuffer(plane(1 << 51), np.float32).nonzero()[0].tolist()
(208, [51])
"""

from __future__ import annotations

import struct
import types
from collections.abc import Sequence
from typing import Final

__all__ = ["FLOAT", "FLOAT3", "PLANE_BYTES", "add_by_seat", "add_planes_by_seat", "bit_bytes", "flags", "one_hot", "plane"]

FLOAT: Final = struct.Struct("<f")
"""One little-endian ``float32``: ``FLOAT.pack(x)`` rounds ``x`` as numpy does when it stores it in a ``float32`` array."""

FLOAT3: Final = struct.Struct("<3f")
"""Three ``float32`` values."""

_ONE: Final = FLOAT.pack(1.0)
_ZERO: Final = FLOAT.pack(0.0)

PLANE_BYTES: Final = 52 * 4
"""The bytes of a plane: one float per card."""


def flags(value: int, width: int) -> bytes:
    """Return the low ``width`` bits of ``value``, lowest first, as floats 0.0 and 1.0."""
    return b"".join(_ONE if value >> bit & 1 else _ZERO for bit in range(width))


def one_hot(index: int, width: int) -> bytes:
    """Return ``width`` floats, all 0.0 but entry ``index`` (none when it is out of range)."""
    return flags(1 << index if 0 <= index < width else 0, width)


_BYTE: Final = tuple(flags(value, 8) for value in range(256))
_SUIT: Final = tuple(low + high for high in tuple(flags(value, 5) for value in range(32)) for low in _BYTE)
"""Each set of ranks of a suit (13 bits) as 13 floats: a plane is four of them."""

_MEMO_SIZE: Final = 4096
"""The planes kept: about a megabyte. A deal of random play asks for a few hundred different masks, so the memo
holds several deals' worth; it is emptied when full, which changes nothing but the time."""


def _store(memo: dict[int, bytes], mask: int) -> bytes:
    """Build ``mask``'s plane from its four suits and keep it in ``memo`` (emptied first when full)."""
    data = b"".join((_SUIT[mask & 0x1FFF], _SUIT[mask >> 13 & 0x1FFF], _SUIT[mask >> 26 & 0x1FFF], _SUIT[mask >> 39]))
    if len(memo) >= _MEMO_SIZE:
        memo.clear()
    memo[mask] = data
    return data


_MEMO: Final[dict[int, bytes]] = {}
"""The planes kept, by mask (a plain dict: compiled code looks it up by the C fast path)."""


def plane(mask: int) -> bytes:
    """Return a set of cards (a 52-bit mask) as its plane: 52 floats, 1.0 at each card, from a memo of planes."""
    data = _MEMO.get(mask)
    return data if data is not None else _store(_MEMO, mask)


class _Planes(dict[int, bytes]):
    """The interpreted build's memo: a hit is one dict lookup in C (``__getitem__``), with no Python call but on a miss."""

    def __missing__(self, mask: int) -> bytes:
        return _store(self, mask)


if isinstance(plane, types.FunctionType):  # Interpreted: a bound dict lookup is quicker than a call of plane().
    globals()["plane"] = _Planes().__getitem__


def add_planes_by_seat(parts: list[bytes], masks: Sequence[int], me: int) -> None:
    """Append the plane of each seat's mask to ``parts``, from seat ``me`` round the table: by seat relative to the viewer.

    >>> parts = []; add_planes_by_seat(parts, [1, 2, 4], 1); [p == plane(m) for p, m in zip(parts, (2, 4, 1))]
    [True, True, True]
    """
    for seat in range(me, len(masks)):
        parts.append(plane(masks[seat]))
    for seat in range(me):
        parts.append(plane(masks[seat]))


def add_by_seat(parts: list[bytes], table: Sequence[bytes], values: Sequence[int], me: int) -> None:
    """Append ``table[value]`` for each seat's value to ``parts``, from seat ``me`` round the table (as above).

    >>> parts = []; add_by_seat(parts, (b"a", b"b", b"c"), [0, 1, 2], 2); parts
    [b'c', b'a', b'b']
    """
    for seat in range(me, len(values)):
        parts.append(table[values[seat]])
    for seat in range(me):
        parts.append(table[values[seat]])


_BYTE_BITS: Final = tuple(bytes((value >> bit) & 1 for bit in range(8)) for value in range(256))
"""For each byte value, its eight bits (lowest first) as eight bytes of 0 or 1."""


def bit_bytes(mask: int, size: int) -> bytes:
    """Return the first ``size`` bits of ``mask`` (lowest first) as bytes of 0 and 1, padded to a multiple of 8.

    What a step mask becomes as an ``int8`` action mask, by a table lookup per byte of the mask.

    >>> list(bit_bytes(0b1101, 6))
    [1, 0, 1, 1, 0, 0, 0, 0]
    """
    whole = (mask & ((1 << size) - 1)).to_bytes((size + 7) // 8, "little")
    return b"".join([_BYTE_BITS[byte] for byte in whole])

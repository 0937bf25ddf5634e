"""The size of a set of cards (a bit mask), as fast as each build can count it.

Engines, heuristics and solvers count the cards of masks millions of times a
second. Each build counts them its own way, with the same result:

* compiled, :func:`popcount` is machine arithmetic on a 64-bit integer.
  mypyc turns ``mask.bit_count()`` into a generic method call (the int
  boxed, the method looked up, the result unboxed): about three times the
  cost of the arithmetic;
* interpreted, ``popcount`` is ``int.bit_count`` itself, since there the
  arithmetic costs a dozen bytecodes and the method one C call.

>>> popcount(0), popcount(0b1011), popcount((1 << 52) - 1), popcount(1 << 62 | 1), popcount(1 << 70 | 1)
(0, 3, 52, 2, 2)
>>> popcount(-5) == (-5).bit_count()
True
"""

from __future__ import annotations

import types
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # A type of mypyc's (machine integers); nothing to import at run time, in either build.
    from mypy_extensions import i64

__all__ = ["popcount", "popcount64"]


def popcount(x: int) -> int:
    """Return the number of 1 bits of ``x`` (of ``abs(x)`` when negative), as ``x.bit_count()`` does."""
    if x < 0 or x >> 62:
        return x.bit_count()  # Past the 64-bit arithmetic (never a set of cards).
    return int(popcount64(x))


def popcount64(x: i64) -> i64:
    """Return the number of 1 bits of a mask held as a machine integer (``0 <= x < 2 ** 62``) by code that keeps it so.

    Compiled, it takes and returns an unboxed 64-bit integer, so a caller
    whose masks are already machine integers pays no conversion either way.

    >>> popcount64(0), popcount64((1 << 52) - 1)
    (0, 52)
    """
    # The mask stops at bit 60 (x >> 1 has no bit above): compiled, an int constant of 2 ** 62 or more is a boxed
    # object, unboxed by a call at every use, where a smaller one is written into the machine code.
    x = x - ((x >> 1) & 0x1555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    x = x + (x >> 8)
    x = x + (x >> 16)
    x = x + (x >> 32)
    return x & 0x7F


if isinstance(popcount, types.FunctionType):  # Interpreted (compiled, it is a builtin): the C method is quicker.
    globals()["popcount"] = globals()["popcount64"] = int.bit_count

"""What the observation encoders of every game share (numpy: the research extra)."""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

__all__ = ["bits_of"]

_BITS: Final = np.arange(52, dtype=np.uint64)


def bits_of(masks: list[int]) -> npt.NDArray[np.uint64]:
    """Return 52-bit masks unpacked, one row of 52 zeros and ones per mask (one numpy operation for all)."""
    return (np.array(masks, dtype=np.uint64)[:, None] >> _BITS) & np.uint64(1)

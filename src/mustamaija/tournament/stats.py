"""The statistics of tournaments, kept pure: Wilson intervals and paired comparisons.

The Wilson score interval of a proportion (E. B. Wilson, 1927) behaves well
for rates near 0 or 1, where the usual normal interval fails:

>>> lo, hi = wilson_interval(1, 10)
>>> round(lo, 4), round(hi, 4)
(0.0179, 0.4042)
>>> [round(x, 4) for x in wilson_interval(0, 20)]
[0.0, 0.1611]

A paired comparison looks at per-unit differences (here: per deal, the same
cards for both bots), whose mean has a normal-approximation interval:

>>> d = paired_difference([1.0, 0.0, 0.5, 0.25], [0.0, 0.0, 0.25, 0.25])
>>> d.units, round(d.mean, 4), round(d.ci_low, 4), round(d.ci_high, 4)
(4, 0.3125, -0.1513, 0.7763)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

__all__ = ["Z95", "MeanInterval", "PairedDifference", "mean_interval", "normal_two_sided_p", "paired_difference",
           "wilson_interval"]

Z95: Final = 1.959963984540054
"""The two-sided 95% quantile of the standard normal distribution."""


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """Return the Wilson score interval ``(low, high)`` of ``successes`` out of ``trials``.

    With no trials nothing is known and the interval is ``(0, 1)``.

    >>> [round(x, 4) for x in wilson_interval(50, 100)]
    [0.4038, 0.5962]
    """
    if trials < 0 or successes < 0 or successes > trials:
        raise ValueError(f"bad counts: {successes} successes out of {trials} trials")
    if trials == 0:
        return (0.0, 1.0)
    n = float(trials)
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return (low, high)


def normal_two_sided_p(z: float) -> float:
    """Return the two-sided p-value of a standard normal statistic.

    >>> round(normal_two_sided_p(1.959963984540054), 4)
    0.05
    """
    return math.erfc(abs(z) / math.sqrt(2.0))


@dataclass(frozen=True)
class PairedDifference:
    """The mean of per-unit differences ``a - b`` with its normal 95% interval and two-sided p-value."""

    units: int
    mean: float
    stderr: float
    ci_low: float
    ci_high: float
    p_value: float


def paired_difference(a: Sequence[float], b: Sequence[float], z: float = Z95,
                      bounds: tuple[float, float] | None = None) -> PairedDifference:
    """Compare two measurements taken on the same units (such as the same deals) by their mean difference.

    The interval is ``mean ± z · sd / √n`` with the sample standard deviation
    of the differences; with fewer than two units it is unbounded.

    When every difference is the same, the normal interval would have no
    width and the normal test a p-value of 0, though a few more units could
    differ. Then the p-value is the exact sign test's (every difference has
    the mean's sign: ``2 · 0.5 ** n``), and the interval allows a share of
    units with other differences up to the exact one-sided upper bound of a
    share never seen in ``n`` units (``1 - alpha ** (1/n)``, Clopper and
    Pearson), each as far away as ``bounds`` (the least and greatest value
    of one measurement) permit: unbounded without them.

    >>> paired_difference([0.5, 0.5, 0.5], [0.5, 0.5, 0.5]).p_value
    1.0
    >>> d = paired_difference([0.0] * 20, [1.0] * 20, bounds=(0.0, 1.0))
    >>> round(d.mean, 2), round(d.ci_low, 2), round(d.ci_high, 3), f"{d.p_value:.2g}"
    (-1.0, -1.0, -0.722, '1.9e-06')
    >>> d = paired_difference([0.0] * 5000, [1 / 3] * 5000, bounds=(0.0, 1.0))
    >>> f"{100 * d.mean:+.1f} [{100 * d.ci_low:+.1f}, {100 * d.ci_high:+.1f}], p = {d.p_value:.2g}"
    '-33.3 [-33.4, -33.3], p = 0'
    """
    if len(a) != len(b):
        raise ValueError(f"paired samples must have the same length, got {len(a)} and {len(b)}")
    n = len(a)
    if n == 0:
        return PairedDifference(0, 0.0, math.inf, -math.inf, math.inf, 1.0)
    diffs = [x - y for x, y in zip(a, b, strict=True)]
    mean = sum(diffs) / n
    if n < 2:
        return PairedDifference(n, mean, math.inf, -math.inf, math.inf, 1.0)
    if max(diffs) == min(diffs):  # Not ``se == 0``: the mean of equal floats can differ from them in the last bit.
        mean = diffs[0]
        p = 1.0 if mean == 0.0 else min(1.0, 2.0 * 0.5**n)
        if bounds is None:
            return PairedDifference(n, mean, 0.0, -math.inf, math.inf, p)
        share = 1.0 - math.erfc(z / math.sqrt(2.0)) ** (1.0 / n)
        low, high = bounds[0] - bounds[1], bounds[1] - bounds[0]
        return PairedDifference(n, mean, 0.0, mean - share * (mean - low), mean + share * (high - mean), p)
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    se = math.sqrt(var / n)
    return PairedDifference(n, mean, se, mean - z * se, mean + z * se, normal_two_sided_p(mean / se))


@dataclass(frozen=True)
class MeanInterval:
    """The mean of ``units`` measurements with its normal 95% interval (unbounded with fewer than two)."""

    units: int
    mean: float
    ci_low: float
    ci_high: float


def mean_interval(xs: Sequence[float], z: float = Z95) -> MeanInterval:
    """Return the mean of independent measurements (such as per-deal averages) with its normal 95% interval.

    >>> m = mean_interval([10.0, 12.0, 14.0])
    >>> m.mean, round(m.ci_low, 4), round(m.ci_high, 4)
    (12.0, 9.7368, 14.2632)
    >>> mean_interval([]).units, mean_interval([3.0]).ci_high
    (0, inf)
    """
    n = len(xs)
    if n == 0:
        return MeanInterval(0, 0.0, -math.inf, math.inf)
    mean = sum(xs) / n
    if n < 2:
        return MeanInterval(n, mean, -math.inf, math.inf)
    half = z * math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1) / n)
    return MeanInterval(n, mean, mean - half, mean + half)

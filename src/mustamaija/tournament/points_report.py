"""Black Maria tournament reports: the text table and the plot of average penalty points with their intervals."""

from __future__ import annotations

import math
import os
from typing import Any

from mustamaija.tournament.blackmaria import BlackMariaResult, PointsRow

__all__ = ["plot_points", "points_table_lines"]


def _row_line(row: PointsRow, width: int) -> str:
    return (f"  {row.label:<{width}}  {row.hands:>7}  {row.mean_points:6.2f}  "
            f"[{row.ci_low:6.2f}, {row.ci_high:6.2f}]  {row.us_per_decision:9.1f}")


def points_table_lines(result: BlackMariaResult) -> list[str]:
    """Return the human-readable report, one line per string."""
    s = result.settings
    by_spec = result.by_spec()
    by_pos = result.by_position()
    width = max([len("bot")] + [len(r.label) for r in by_spec + by_pos])
    total = sum(sum(g.points) for g in result.games)
    lines = [
        f"Black Maria, {s.players} players, {s.rules.describe()}, "
        f"{s.deals} deals x {s.rotations} seat rotations = {len(result.games)} hands, seed {s.seed}",
        f"penalty points per hand, all seats together: {total / len(result.games):.2f}; "
        f"parity {total / len(result.games) / s.players:.2f} a seat (lower is better)",
        "",
        f"  {'bot':<{width}}  {'hands':>7}  {'points':>6}  {'95% interval':<16}  {'us/step':>9}",
    ]
    lines += [_row_line(r, width) for r in by_spec]
    if len(by_spec) != len(by_pos):
        lines += ["", "  by lineup position:"]
        lines += [_row_line(r, width) for r in by_pos]
    pairs = result.pairwise()
    if pairs:
        lines += ["", "  paired by deal (difference of points per hand a - b, 95% interval):"]
        for p in pairs:
            low = "-inf" if p["ci_low"] is None else f"{p['ci_low']:+.2f}"
            high = "+inf" if p["ci_high"] is None else f"{p['ci_high']:+.2f}"
            lines.append(f"  {p['a']} - {p['b']}: {p['difference']:+.2f} points "
                         f"[{low}, {high}] over {p['deals']} deals, p = {p['p_value']:.2g}")
    lines.append(f"  ({result.elapsed:.1f} s)")
    return lines


def plot_points(result: BlackMariaResult, path: str | os.PathLike[str]) -> None:
    """Draw the average penalty points per hand of every bot spec (and lineup position) with its interval as a PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = result.by_spec()
    by_pos = result.by_position()
    colours = ["tab:blue"] * len(rows)
    if len(by_pos) != len(rows):
        rows = rows + by_pos
        colours += ["tab:gray"] * len(by_pos)  # Lineup positions, below the bots they aggregate into.
    s = result.settings
    # An interval is unbounded with a single deal; draw the point alone then.
    err: Any = [[r.mean_points - r.ci_low if math.isfinite(r.ci_low) else 0.0 for r in rows],
                [r.ci_high - r.mean_points if math.isfinite(r.ci_high) else 0.0 for r in rows]]
    fig, ax = plt.subplots(figsize=(7.5, 1.2 + 0.45 * len(rows)))
    ys = list(range(len(rows)))[::-1]
    for i, colour in enumerate(colours):
        ax.errorbar([rows[i].mean_points], [ys[i]], xerr=[[err[0][i]], [err[1][i]]], fmt="o", color=colour,
                    ecolor=colour, capsize=4)
    parity = sum(sum(g.points) for g in result.games) / len(result.games) / s.players
    ax.axvline(parity, color="tab:gray", linestyle="--", label=f"parity ({parity:.2f})")
    ax.set_yticks(ys)
    ax.set_yticklabels([r.label for r in rows])
    ax.set_xlabel("penalty points per hand with 95% interval (lower is better)")
    ax.set_xlim(left=0)
    ax.set_title(f"Black Maria, {s.players} players, {s.deals} deals x {s.rotations} rotations")
    ax.legend(loc="best", fontsize="small")
    fig.tight_layout()
    fig.savefig(os.fspath(path), format="png", dpi=100)
    plt.close(fig)

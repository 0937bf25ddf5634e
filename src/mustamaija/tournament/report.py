"""Tournament reports: the text table and the plot of loss rates with their intervals."""

from __future__ import annotations

import os
from typing import Any

from mustamaija.tournament.runner import BotRow, TournamentResult

__all__ = ["plot_loss_rates", "table_lines"]


def _pct(x: float) -> str:
    return f"{100 * x:5.1f}%"


def _row_line(row: BotRow, width: int) -> str:
    return (f"  {row.label:<{width}}  {row.games:>7}  {row.losses:>7}  {_pct(row.loss_rate)}  "
            f"[{_pct(row.ci_low)}, {_pct(row.ci_high)}]  {row.loss_ratio:5.2f}  {row.us_per_decision:9.1f}")


def table_lines(result: TournamentResult) -> list[str]:
    """Return the human-readable report, one line per string."""
    s = result.settings
    by_spec = result.by_spec()
    by_pos = result.by_position()
    width = max(len(r.label) for r in by_spec + by_pos)
    width = max(width, len("bot"))
    rules = s.preset or "custom"
    changes = s.rules.to_json(only_changes=True)
    lines = [
        f"{s.players} players, rules {rules}" + (f" {changes}" if changes and s.preset is None else "")
        + f", {s.deals} deals x {s.rotations} seat rotations = {len(result.games)} games, seed {s.seed}",
        f"finished {len(result.finished)}, stopped by M21 (no loser) {result.stopped}; "
        f"parity loss rate {_pct(1 / s.players).strip()}, loss ratio = players x rate (1.00 = parity)",
        "",
        f"  {'bot':<{width}}  {'games':>7}  {'losses':>7}  {'rate':>6}  {'95% Wilson interval':<18}  {'ratio':>5}  {'us/step':>9}",
    ]
    lines += [_row_line(r, width) for r in by_spec]
    if len(by_spec) != len(by_pos):
        lines += ["", "  by lineup position:"]
        lines += [_row_line(r, width) for r in by_pos]
    pairs = result.pairwise()
    if pairs:
        lines += ["", "  paired by deal (difference of loss rates a - b, 95% interval):"]
        for p in pairs:
            lines.append(f"  {p['a']} - {p['b']}: {100 * p['difference']:+.1f} points "
                         f"[{100 * p['ci_low']:+.1f}, {100 * p['ci_high']:+.1f}] over {p['deals']} deals, p = {p['p_value']:.2g}")
    lines.append(f"  ({result.elapsed:.1f} s)")
    return lines


def plot_loss_rates(result: TournamentResult, path: str | os.PathLike[str]) -> None:
    """Draw the loss rate of every bot spec (and lineup position) with its Wilson interval as a PNG file."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = result.by_spec()
    by_pos = result.by_position()
    colours = ["tab:blue"] * len(rows)
    if len(by_pos) != len(rows):
        rows = rows + by_pos
        colours += ["tab:gray"] * len(by_pos)  # Lineup positions, below the bots they aggregate into.
    labels = [r.label for r in rows]
    rates = [100 * r.loss_rate for r in rows]
    err: Any = [[100 * (r.loss_rate - r.ci_low) for r in rows], [100 * (r.ci_high - r.loss_rate) for r in rows]]
    s = result.settings
    fig, ax = plt.subplots(figsize=(7.5, 1.2 + 0.45 * len(rows)))
    ys = list(range(len(rows)))[::-1]
    for i, colour in enumerate(colours):
        ax.errorbar([rates[i]], [ys[i]], xerr=[[err[0][i]], [err[1][i]]], fmt="o", color=colour, ecolor=colour, capsize=4)
    ax.axvline(100 / s.players, color="tab:gray", linestyle="--", label=f"parity ({100 / s.players:.1f}%)")
    ax.set_yticks(ys)
    ax.set_yticklabels(labels)
    ax.set_xlabel("loss rate (%) with 95% Wilson interval")
    ax.set_xlim(left=0)
    ax.set_title(f"{s.players} players, {s.preset or 'custom rules'}, {s.deals} deals x {s.rotations} rotations")
    ax.legend(loc="best", fontsize="small")
    fig.tight_layout()
    fig.savefig(os.fspath(path), format="png", dpi=100)
    plt.close(fig)

"""Tournament reports for every game: the text table and the plot of each bot's figure with its interval.

The figure is the one the game's result kind gives
(:mod:`mustamaija.tournament.results`): the loss rate with its Wilson
interval, or the mean points per deal with its normal interval.

>>> from mustamaija.core.registry import games
>>> from mustamaija.tournament.runner import TournamentSettings, run_tournament
>>> for game in games():
...     t = TournamentSettings(players=3, bots=("heuristic", "random", "random"), game=game.name, deals=2, seed=4)
...     print(game.result_kind, "|", table_lines(run_tournament(t))[1])
points | points per deal, all seats together: 43.00; parity 14.33 a seat (lower is better)
loss | finished 6, stopped unfinished (no loser) 0; parity loss rate 33.3%, loss ratio = players x rate (1.00 = parity)
"""

from __future__ import annotations

import math
import os
from typing import Any

from mustamaija.tournament.results import LossRow, PointsRow, Row, TournamentResult

__all__ = ["plot", "table_lines"]


def _pct(x: float) -> str:
    return f"{100 * x:5.1f}%"


def _bound(x: float | None, sign: str) -> str:
    return f"{sign}inf" if x is None or not math.isfinite(x) else f"{x:+.2f}"


def _rules_text(result: TournamentResult) -> str:
    """Return the rules in words, after the preset's name for a game of several presets."""
    s = result.settings
    describe = getattr(s.rules, "describe", None)
    words = str(describe() if callable(describe) else s.rules.to_json())
    if len(result.game.presets) > 1 and s.preset is not None:
        return f"rules {s.preset}: {words}"
    return words


def _row_line(row: Row, width: int) -> str:
    if isinstance(row, LossRow):
        figures = (f"{row.games:>7}  {row.losses:>7}  {_pct(row.loss_rate)}  [{_pct(row.ci_low)}, {_pct(row.ci_high)}]  "
                   f"{row.loss_ratio:5.2f}")
    else:
        assert isinstance(row, PointsRow)
        figures = f"{row.hands:>7}  {row.mean_points:6.2f}  [{row.ci_low:6.2f}, {row.ci_high:6.2f}]"
    return f"  {row.label:<{width}}  {figures}  {row.us_per_decision:9.1f}"


def _pair_line(result: TournamentResult, p: dict[str, Any]) -> str:
    if result.kind == "points":
        difference = f"{p['difference']:+.2f} points [{_bound(p['ci_low'], '-')}, {_bound(p['ci_high'], '+')}]"
    else:
        difference = f"{100 * p['difference']:+.1f} points [{100 * p['ci_low']:+.1f}, {100 * p['ci_high']:+.1f}]"
    return f"  {p['a']} - {p['b']}: {difference} over {p['deals']} deals, p = {p['p_value']:.2g}"


def table_lines(result: TournamentResult) -> list[str]:
    """Return the human-readable report, one line per string."""
    s = result.settings
    by_spec = result.by_spec()
    by_pos = result.by_position()
    width = max([len("bot")] + [len(r.label) for r in by_spec + by_pos])
    lines = [f"{result.game.title}, {s.players} players, {_rules_text(result)}, {s.deals} deals x {s.rotations} "
             f"seat rotations = {len(result.games)} deals played, seed {s.seed}"]
    if result.kind == "points":
        per_deal = result.total_points() / max(1, len(result.finished))
        lines.append(f"points per deal, all seats together: {per_deal:.2f}; "
                     f"parity {per_deal / s.players:.2f} a seat (lower is better)")
        columns = f"{'deals':>7}  {'points':>6}  {'95% interval':<16}"
        pairs_title = "difference of points per deal a - b"
    else:
        lines.append(f"finished {len(result.finished)}, stopped unfinished (no loser) {result.stopped}; "
                     f"parity loss rate {_pct(1 / s.players).strip()}, loss ratio = players x rate (1.00 = parity)")
        columns = f"{'games':>7}  {'losses':>7}  {'rate':>6}  {'95% Wilson interval':<18}  {'ratio':>5}"
        pairs_title = "difference of loss rates a - b"
    lines += ["", f"  {'bot':<{width}}  {columns}  {'us/step':>9}"]
    lines += [_row_line(r, width) for r in by_spec]
    if len(by_spec) != len(by_pos):
        lines += ["", "  by lineup position:"]
        lines += [_row_line(r, width) for r in by_pos]
    pairs = result.pairwise()
    if pairs:
        lines += ["", f"  paired by deal ({pairs_title}, 95% interval):"]
        lines += [_pair_line(result, p) for p in pairs]
    resumed = f"; {result.resumed} deal{'s' * (result.resumed != 1)} read back from the journal" if result.resumed else ""
    lines.append(f"  ({result.elapsed:.1f} s{resumed})")
    return lines


def plot(result: TournamentResult, path: str | os.PathLike[str]) -> None:
    """Draw every bot spec's figure (and every lineup position's) with its 95% interval as a PNG file."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    s = result.settings
    rows: list[Any] = result.by_spec()
    by_pos = result.by_position()
    colours = ["tab:blue"] * len(rows)
    if len(by_pos) != len(rows):
        rows = rows + by_pos
        colours += ["tab:gray"] * len(by_pos)  # Lineup positions, below the bots they aggregate into.
    if result.kind == "points":
        scale = 1.0
        parity = result.total_points() / max(1, len(result.finished)) / s.players
        parity_label = f"parity ({parity:.2f})"
        xlabel = "points per deal with 95% interval (lower is better)"
    else:
        scale = 100.0
        parity = 100 / s.players
        parity_label = f"parity ({parity:.1f}%)"
        xlabel = "loss rate (%) with 95% Wilson interval"
    # An interval is unbounded with a single deal; draw the point alone then.
    low = [scale * (r.mean - r.ci_low) if math.isfinite(r.ci_low) else 0.0 for r in rows]
    high = [scale * (r.ci_high - r.mean) if math.isfinite(r.ci_high) else 0.0 for r in rows]
    fig, ax = plt.subplots(figsize=(7.5, 1.2 + 0.45 * len(rows)))
    ys = list(range(len(rows)))[::-1]
    for i, colour in enumerate(colours):
        ax.errorbar([scale * rows[i].mean], [ys[i]], xerr=[[low[i]], [high[i]]], fmt="o", color=colour, ecolor=colour,
                    capsize=4)
    ax.axvline(parity, color="tab:gray", linestyle="--", label=parity_label)
    ax.set_yticks(ys)
    ax.set_yticklabels([r.label for r in rows])
    ax.set_xlabel(xlabel)
    ax.set_xlim(left=0)
    ax.set_title(f"{result.game.title}, {s.players} players, {s.deals} deals x {s.rotations} rotations")
    ax.legend(loc="best", fontsize="small")
    fig.tight_layout()
    fig.savefig(os.fspath(path), format="png", dpi=100)
    plt.close(fig)


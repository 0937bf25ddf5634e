"""Tournament results: each bot's figure with its 95% interval, and paired comparisons, as the game's result kind says.

A game scores a deal in one of two ways (``game.result_kind``):

* ``"loss"``: one seat loses (its score is 1, the others' 0). A bot's figure
  is its loss rate over the finished games with a Wilson interval, and its
  loss ratio (players x rate, 1 at parity).
* ``"points"``: every seat takes penalty points. A bot's figure is its mean
  points per deal with a normal interval over per-deal averages.

Either way the per-deal figure of a bot is its mean score over that deal's
games and the seats it held (the deals are independent, unlike the games of
one deal), and two bots are compared by the mean per-deal difference, paired
over the same cards (negative: the first does better).

>>> from mustamaija.tournament.runner import GameResult, TournamentSettings
>>> t = TournamentSettings(players=2, bots=("heuristic", "random"), deals=2)
>>> games = [GameResult(d, r, (float(r == 1), float(r == 0)), 10, (5, 5), (0.0, 0.0)) for d in range(2) for r in range(2)]
>>> result = TournamentResult(t, games)
>>> [(row.spec, row.losses, row.loss_rate) for row in result.by_spec()]
[('heuristic', 2, 0.5), ('random', 2, 0.5)]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from mustamaija.core.protocol import Game
from mustamaija.core.registry import DEFAULT_GAME
from mustamaija.tournament.runner import GameResult, TournamentSettings
from mustamaija.tournament.stats import mean_interval, paired_difference, wilson_interval

__all__ = ["LossRow", "PointsRow", "Row", "TournamentResult"]


def _finite(x: float) -> float | None:
    """Return ``x``, or None for an unbounded end of an interval (JSON has no infinity)."""
    return x if math.isfinite(x) else None


@dataclass(frozen=True)
class Row:
    """The figures of one lineup position, or of one bot spec over all the positions it holds.

    Each result kind adds its counts (:class:`LossRow`, :class:`PointsRow`) and names the figure in its JSON.
    """

    label: str
    """How the report names the row: the spec, or ``"position: spec"``."""
    spec: str
    positions: tuple[int, ...]
    """The lineup positions the row covers."""
    mean: float
    """The bot's figure: its loss rate, or its mean points per deal."""
    ci_low: float
    ci_high: float
    """The figure's 95% interval (its ends may be infinite with a single deal)."""
    decisions: int
    us_per_decision: float
    """The steps the bot chose and its processor time for each, in microseconds."""

    def figures(self) -> dict[str, Any]:
        """Return the figures of the result kind, in the order of the JSON row."""
        raise NotImplementedError

    def to_json(self) -> dict[str, Any]:
        """Return the row as a JSON object."""
        return {"bot": self.spec, "positions": list(self.positions), **self.figures(), "decisions": self.decisions,
                "us_per_decision": self.us_per_decision}


@dataclass(frozen=True)
class LossRow(Row):
    """The loss figures of a bot: ``games`` counts the finished games it played, one per seat it held."""

    games: int = 0
    losses: int = 0
    loss_ratio: float = 0.0
    """Players x loss rate: 1 at parity."""

    @property
    def loss_rate(self) -> float:
        """Return the share of its finished games the bot lost."""
        return self.mean

    def figures(self) -> dict[str, Any]:
        """Return ``deals`` (finished games), losses, the rate with its Wilson interval, and the ratio."""
        return {"deals": self.games, "losses": self.losses, "loss_rate": self.mean, "ci_low": self.ci_low,
                "ci_high": self.ci_high, "loss_ratio": self.loss_ratio}


@dataclass(frozen=True)
class PointsRow(Row):
    """The points figures of a bot: ``hands`` counts the deals it played, one per seat it held."""

    hands: int = 0

    @property
    def mean_points(self) -> float:
        """Return the bot's mean points per deal."""
        return self.mean

    def figures(self) -> dict[str, Any]:
        """Return ``hands``, the mean points per deal and its interval (``None`` for an unbounded end)."""
        return {"hands": self.hands, "mean_points": self.mean, "ci_low": _finite(self.ci_low),
                "ci_high": _finite(self.ci_high)}


@dataclass
class TournamentResult:
    """Every game of a tournament, with the per-bot and pairwise statistics computed from them."""

    settings: TournamentSettings
    games: list[GameResult]
    elapsed: float = 0.0
    """Seconds this run took (a resumed run: only the deals it played)."""
    resumed: int = 0
    """Deals read back from the journal of a stopped run rather than played (``--resume``)."""

    @property
    def game(self) -> Game:
        """Return the game played."""
        return self.settings.the_game

    @property
    def kind(self) -> str:
        """Return how deals are scored: ``"loss"`` or ``"points"``."""
        return self.game.result_kind

    @property
    def finished(self) -> list[GameResult]:
        """Return the games that ended with a result."""
        return [g for g in self.games if g.scores is not None]

    @property
    def stopped(self) -> int:
        """Return the number of games stopped unfinished (no result)."""
        return sum(1 for g in self.games if g.scores is None)

    def positions_of(self, spec: str) -> tuple[int, ...]:
        """Return the lineup positions a bot spec holds."""
        return tuple(p for p, b in enumerate(self.settings.bots) if b == spec)

    def per_deal(self, positions: Sequence[int]) -> dict[int, float]:
        """Return, for each deal with a finished game, the mean score of ``positions`` over its finished games."""
        totals: dict[int, float] = {}
        counts: dict[int, int] = {}
        for g in self.games:
            if g.scores is None:
                continue
            totals[g.deal] = totals.get(g.deal, 0.0) + sum(g.scores[p] for p in positions)
            counts[g.deal] = counts.get(g.deal, 0) + len(positions)
        return {d: totals[d] / counts[d] for d in totals}

    def _row(self, label: str, spec: str, positions: tuple[int, ...]) -> Row:
        decisions = sum(g.decisions[p] for g in self.games for p in positions)
        secs = sum(g.seconds[p] for g in self.games for p in positions)
        timing = (decisions, 1e6 * secs / decisions if decisions else 0.0)
        finished = self.finished
        plays = len(finished) * len(positions)
        if self.kind == "points":
            per_deal = self.per_deal(positions)
            m = mean_interval([per_deal[d] for d in sorted(per_deal)])
            return PointsRow(label, spec, positions, m.mean, m.ci_low, m.ci_high, *timing, hands=plays)
        losses = round(sum(g.scores[p] for g in finished for p in positions if g.scores is not None))
        rate = losses / plays if plays else 0.0
        lo, hi = wilson_interval(losses, plays)
        return LossRow(label, spec, positions, rate, lo, hi, *timing, games=plays, losses=losses,
                       loss_ratio=rate * self.settings.players)

    def by_position(self) -> list[Row]:
        """Return one row per lineup position."""
        return [self._row(f"{p}: {b}", b, (p,)) for p, b in enumerate(self.settings.bots)]

    def by_spec(self) -> list[Row]:
        """Return one row per distinct bot spec, over all the positions it holds."""
        return [self._row(spec, spec, self.positions_of(spec)) for spec in dict.fromkeys(self.settings.bots)]

    def pairwise(self) -> list[dict[str, Any]]:
        """Compare every two distinct bot specs on the same deals: the mean per-deal difference of their scores a - b.

        Loss reports keep unbounded interval ends as they are; points reports give ``None`` for them.
        """
        bound = _finite if self.kind == "points" else (lambda x: x)
        specs = list(dict.fromkeys(self.settings.bots))
        out = []
        for i, a in enumerate(specs):
            for b in specs[i + 1:]:
                ra, rb = self.per_deal(self.positions_of(a)), self.per_deal(self.positions_of(b))
                deals = sorted(ra)
                # A deal's loss rate lies in [0, 1]; points have no bound known here.
                d = paired_difference([ra[k] for k in deals], [rb[k] for k in deals],
                                      bounds=None if self.kind == "points" else (0.0, 1.0))
                out.append({
                    "a": a, "b": b, "deals": d.units, "difference": d.mean, "stderr": bound(d.stderr),
                    "ci_low": bound(d.ci_low), "ci_high": bound(d.ci_high), "p_value": d.p_value,
                })
        return out

    def total_points(self) -> float:
        """Return the points of every seat in every finished game together."""
        return sum(sum(g.scores) for g in self.games if g.scores is not None)

    def to_json(self) -> dict[str, Any]:
        """Return the whole summary as one JSON object (the game is named unless it is the default game)."""
        obj: dict[str, Any] = {} if self.game.name == DEFAULT_GAME else {"game": self.game.name}
        obj["settings"] = self.settings.to_json()
        if self.kind == "points":
            obj["hands"] = len(self.games)
        else:
            obj.update(games=len(self.games), finished=len(self.finished), stopped=self.stopped,
                       parity=1.0 / self.settings.players)
        obj.update(bots={row.spec: row.to_json() for row in self.by_spec()},
                   positions=[row.to_json() for row in self.by_position()], pairwise=self.pairwise())
        if self.kind == "points":
            obj["mean_points_per_hand"] = self.total_points() / len(self.games) if self.games else 0.0
        else:
            turns = [g.turns for g in self.finished]
            obj["mean_turns"] = sum(turns) / len(turns) if turns else 0.0
        obj["seconds"] = self.elapsed
        if self.resumed:
            obj["resumed_deals"] = self.resumed
        return obj

"""Black Maria tournaments: duplicate deals, seat rotation, average penalty points per hand with 95% intervals.

Deal ``i`` of a tournament with seed ``S`` is dealt by the Black Maria
``State.from_seed(players, deal_seed(S, i), rules)`` (deck and dealer) and
played once for every rotation of the lineup, as in a Mustamaija tournament
(:mod:`mustamaija.tournament.runner`): in rotation ``r`` the bot at lineup
position ``p`` sits in seat ``(p + r) % players`` and is built fresh with the
seed ``bot_seed(S, i, r, p)``. Each game is one hand.

A bot's figure is its average penalty points per hand (reneges included).
Its interval is taken over deals: per deal the bot's points are averaged over
the rotations and its lineup positions, and those per-deal averages (which are
independent, unlike the hands of one deal) give a normal 95% interval. The
paired comparison of two bots is the mean per-deal difference (negative: the
first takes fewer points).

>>> t = BlackMariaSettings(players=3, bots=("heuristic", "random", "random"), deals=2, seed=1)
>>> result = run_black_maria_tournament(t)
>>> len(result.games), [sum(g.points) for g in result.games]
(6, [43, 43, 43, 43, 43, 43])
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from mustamaija.core.errors import MustamaijaError
from mustamaija.games.black_maria.record import Record
from mustamaija.games.black_maria.rules import Rules, check_players
from mustamaija.games.black_maria.state import State
from mustamaija.players.registry import make_bot, parse_bot_spec
from mustamaija.tournament.runner import ProgressFn, bot_seed, deal_seed, play_out, record_text, run_games
from mustamaija.tournament.stats import mean_interval, paired_difference

__all__ = [
    "GAME",
    "BlackMariaResult",
    "BlackMariaSettings",
    "HandResult",
    "PointsRow",
    "play_hand_record",
    "run_black_maria_tournament",
]

GAME: Final = "black-maria"


@dataclass(frozen=True)
class BlackMariaSettings:
    """What a Black Maria tournament plays: the lineup (one bot spec per position), the rules and the deals."""

    players: int
    bots: tuple[str, ...]
    rules: Rules = field(default_factory=Rules)
    deals: int = 100
    seed: int = 0
    rotate: bool = True

    def __post_init__(self) -> None:
        check_players(self.players)
        if len(self.bots) != self.players:
            raise MustamaijaError(f"the lineup has {len(self.bots)} bots for {self.players} seats: give one bot spec per seat")
        if isinstance(self.deals, bool) or not isinstance(self.deals, int) or self.deals < 1:
            raise MustamaijaError(f"the number of deals must be a positive integer, not {self.deals!r}")
        object.__setattr__(self, "bots", tuple(str(parse_bot_spec(b)) for b in self.bots))

    @property
    def rotations(self) -> int:
        """Return the number of hands each deal is played: every seat rotation, or one."""
        return self.players if self.rotate else 1

    def play_record(self, index: int, rotation: int, with_record: bool) -> tuple[HandResult, str | None]:
        """Play one hand (:func:`play_hand_record`); this is what the backends call."""
        return play_hand_record(self, index, rotation, with_record)

    def record_name(self, index: int, rotation: int) -> str:
        """Return the file name of a hand's record; names sort in play order."""
        width = max(6, len(str(self.deals - 1)))  # As for Mustamaija games (runner.record_name).
        return f"deal-{index:0{width}d}-rot-{rotation}.json"

    def to_json(self) -> dict[str, Any]:
        """Return the settings as a JSON object."""
        return {
            "game": GAME,
            "players": self.players,
            "bots": list(self.bots),
            "rules": self.rules.to_json(),
            "deals": self.deals,
            "seed": self.seed,
            "rotate": self.rotate,
            "rotations": self.rotations,
        }


@dataclass(frozen=True)
class HandResult:
    """One hand: a deal played with one rotation of the lineup; figures by lineup position."""

    deal: int
    rotation: int
    points: tuple[int, ...]
    decisions: tuple[int, ...]
    seconds: tuple[float, ...]


def play_hand_record(settings: BlackMariaSettings, index: int, rotation: int,
                     with_record: bool = False) -> tuple[HandResult, str | None]:
    """Play deal ``index`` with lineup rotation ``rotation``; return its result and, if asked, its record as JSON text."""
    n = settings.players
    dseed = deal_seed(settings.seed, index)
    state = State.from_seed(n, dseed, settings.rules)
    specs = settings.bots
    position_of = [(s - rotation) % n for s in range(n)]
    players = [make_bot(specs[position_of[s]], bot_seed(settings.seed, index, rotation, position_of[s]), game=GAME)
               for s in range(n)]
    decisions, seconds = play_out(state, lambda seat: players[seat].act(state.view(seat)), specs, position_of,
                                  index, dseed, rotation)
    text = record_text(Record, state, specs, position_of, settings.seed, index, dseed, rotation) if with_record else None
    points = state.points()
    return HandResult(index, rotation, tuple(points[(p + rotation) % n] for p in range(n)), decisions, seconds), text


def _finite(x: float) -> float | None:
    """Return ``x``, or None for an unbounded end of an interval (JSON has no infinity)."""
    return x if math.isfinite(x) else None


@dataclass(frozen=True)
class PointsRow:
    """The penalty figures of one lineup position, or of one bot spec over all its positions."""

    label: str
    spec: str
    positions: tuple[int, ...]
    hands: int
    mean_points: float
    ci_low: float
    ci_high: float
    decisions: int
    us_per_decision: float

    def to_json(self) -> dict[str, Any]:
        """Return the row as a JSON object (``hands`` counts the hands the bot played, one per seat it held)."""
        return {
            "bot": self.spec,
            "positions": list(self.positions),
            "hands": self.hands,
            "mean_points": self.mean_points,
            "ci_low": _finite(self.ci_low),
            "ci_high": _finite(self.ci_high),
            "decisions": self.decisions,
            "us_per_decision": self.us_per_decision,
        }


@dataclass
class BlackMariaResult:
    """Every hand of a Black Maria tournament, with the per-bot and pairwise statistics computed from them."""

    settings: BlackMariaSettings
    games: list[HandResult]
    elapsed: float = 0.0

    def per_deal_points(self, positions: Sequence[int]) -> dict[int, float]:
        """Return, for each deal, the average points per hand of ``positions`` over that deal's hands."""
        totals: dict[int, float] = {}
        counts: dict[int, int] = {}
        for g in self.games:
            totals[g.deal] = totals.get(g.deal, 0.0) + sum(g.points[p] for p in positions)
            counts[g.deal] = counts.get(g.deal, 0) + len(positions)
        return {d: totals[d] / counts[d] for d in totals}

    def _positions(self, spec: str) -> tuple[int, ...]:
        return tuple(p for p, b in enumerate(self.settings.bots) if b == spec)

    def _row(self, label: str, spec: str, positions: tuple[int, ...]) -> PointsRow:
        per_deal = self.per_deal_points(positions)
        m = mean_interval([per_deal[d] for d in sorted(per_deal)])
        decisions = sum(g.decisions[p] for g in self.games for p in positions)
        secs = sum(g.seconds[p] for g in self.games for p in positions)
        return PointsRow(label, spec, positions, len(self.games) * len(positions), m.mean, m.ci_low, m.ci_high,
                         decisions, 1e6 * secs / decisions if decisions else 0.0)

    def by_position(self) -> list[PointsRow]:
        """Return one row per lineup position."""
        return [self._row(f"{p}: {b}", b, (p,)) for p, b in enumerate(self.settings.bots)]

    def by_spec(self) -> list[PointsRow]:
        """Return one row per distinct bot spec, over all the positions it holds."""
        return [self._row(spec, spec, self._positions(spec)) for spec in dict.fromkeys(self.settings.bots)]

    def pairwise(self) -> list[dict[str, Any]]:
        """Compare every two distinct bot specs on the same deals: the mean per-deal difference of points a - b."""
        specs = list(dict.fromkeys(self.settings.bots))
        out = []
        for i, a in enumerate(specs):
            for b in specs[i + 1:]:
                pa, pb = self.per_deal_points(self._positions(a)), self.per_deal_points(self._positions(b))
                deals = sorted(pa)
                d = paired_difference([pa[k] for k in deals], [pb[k] for k in deals])
                out.append({
                    "a": a, "b": b, "deals": d.units, "difference": d.mean, "stderr": _finite(d.stderr),
                    "ci_low": _finite(d.ci_low), "ci_high": _finite(d.ci_high), "p_value": d.p_value,
                })
        return out

    def to_json(self) -> dict[str, Any]:
        """Return the whole summary as one JSON object."""
        total = sum(sum(g.points) for g in self.games)
        return {
            "game": GAME,
            "settings": self.settings.to_json(),
            "hands": len(self.games),
            "bots": {row.spec: row.to_json() for row in self.by_spec()},
            "positions": [row.to_json() for row in self.by_position()],
            "pairwise": self.pairwise(),
            "mean_points_per_hand": total / len(self.games) if self.games else 0.0,
            "seconds": self.elapsed,
        }


def run_black_maria_tournament(settings: BlackMariaSettings, jobs: int = 1,
                               out_dir: str | os.PathLike[str] | None = None, progress: ProgressFn | None = None,
                               backend: str = "local", address: str | None = None) -> BlackMariaResult:
    """Play every hand of the tournament and return the results in deal order.

    As :func:`~mustamaija.tournament.runner.run_tournament`: ``backend`` is
    ``"local"`` or ``"ray"``, ``progress(done, total)`` counts deals, and the
    results do not depend on the backend or ``jobs``.
    """
    games, elapsed = run_games(settings, jobs, out_dir, progress, backend, address)
    return BlackMariaResult(settings, games, elapsed)

"""Run tournaments: duplicate deals, the lineup rotated through every seat, in one or more processes.

Deal ``i`` of a tournament with seed ``S`` is dealt by
``State.from_seed(players, deal_seed(S, i), rules)`` (deck and dealer), and
played once for every rotation of the lineup: in rotation ``r`` the bot at
lineup position ``p`` sits in seat ``(p + r) % players``. Every bot gets a
fresh instance for each game, seeded from ``(S, i, r, p)``, so the results do
not depend on how the deals are split between processes.

>>> from mustamaija.games.mustamaija import Rules
>>> t = TournamentSettings(players=3, bots=("random", "random", "random"), deals=4, seed=1)
>>> result = run_tournament(t)
>>> len(result.games), sum(g.loser is not None for g in result.games) + result.stopped
(12, 12)
"""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from mustamaija.core.errors import IllegalActionError, MustamaijaError
from mustamaija.games.mustamaija.rules import Rules
from mustamaija.games.mustamaija.state import State
from mustamaija.players.registry import BotSpec, make_bot, parse_bot_spec, sees_all

__all__ = [
    "GameResult",
    "TournamentResult",
    "TournamentSettings",
    "bot_seed",
    "deal_seed",
    "play_game",
    "play_game_record",
    "run_games",
    "run_tournament",
]


def _hash_seed(*parts: object) -> int:
    text = ":".join(str(p) for p in parts).encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:6], "big")


def deal_seed(seed: int, index: int) -> int:
    """Return the seed of deal ``index``: ``State.from_seed(players, seed_of_deal, rules)`` deals it."""
    return _hash_seed("deal", seed, index)


def bot_seed(seed: int, index: int, rotation: int, position: int) -> int:
    """Return the seed given to the bot at lineup ``position`` in one game."""
    return _hash_seed("bot", seed, index, rotation, position)


@dataclass(frozen=True)
class TournamentSettings:
    """What a tournament plays: the lineup (one bot spec per position), the rules and the deals."""

    players: int
    bots: tuple[str, ...]
    rules: Rules = field(default_factory=Rules)
    deals: int = 100
    seed: int = 0
    rotate: bool = True
    preset: str | None = None

    def __post_init__(self) -> None:
        self.rules.check_players(self.players)
        if len(self.bots) != self.players:
            raise MustamaijaError(f"the lineup has {len(self.bots)} bots for {self.players} seats: give one bot spec per seat")
        if isinstance(self.deals, bool) or not isinstance(self.deals, int) or self.deals < 1:
            raise MustamaijaError(f"the number of deals must be a positive integer, not {self.deals!r}")
        object.__setattr__(self, "bots", tuple(str(parse_bot_spec(b)) for b in self.bots))

    @property
    def specs(self) -> tuple[BotSpec, ...]:
        """Return the lineup as parsed specs."""
        return tuple(parse_bot_spec(b) for b in self.bots)

    @property
    def rotations(self) -> int:
        """Return the number of games each deal is played: every seat rotation, or one."""
        return self.players if self.rotate else 1

    def play_record(self, index: int, rotation: int, with_record: bool) -> tuple[GameResult, str | None]:
        """Play one game (:func:`play_game_record`); this is what the backends call."""
        return play_game_record(self, index, rotation, with_record)

    def record_name(self, index: int, rotation: int) -> str:
        """Return the file name of a game's record (:func:`record_name`)."""
        return record_name(self, index, rotation)

    def to_json(self) -> dict[str, Any]:
        """Return the settings as a JSON object."""
        return {
            "players": self.players,
            "bots": list(self.bots),
            "preset": self.preset,
            "rules": self.rules.to_json(only_changes=True),
            "deals": self.deals,
            "seed": self.seed,
            "rotate": self.rotate,
            "rotations": self.rotations,
        }


@dataclass(frozen=True)
class GameResult:
    """One game: a deal played with one rotation of the lineup.

    ``loser`` is the lineup position of the loser (``None`` when M21 stopped
    the deal); ``decisions`` and ``seconds`` count every bot's steps and
    thinking time, by lineup position.
    """

    deal: int
    rotation: int
    loser: int | None
    turns: int
    decisions: tuple[int, ...]
    seconds: tuple[float, ...]


def play_game(settings: TournamentSettings, index: int, rotation: int,
              out_dir: str | os.PathLike[str] | None = None) -> GameResult:
    """Play deal ``index`` with lineup rotation ``rotation``; write its record to ``out_dir`` if given."""
    result, text = play_game_record(settings, index, rotation, with_record=out_dir is not None)
    if out_dir is not None and text is not None:
        write_record(out_dir, record_name(settings, index, rotation), text)
    return result


def play_game_record(settings: TournamentSettings, index: int, rotation: int,
                     with_record: bool = False) -> tuple[GameResult, str | None]:
    """Play deal ``index`` with lineup rotation ``rotation``; return its result and, if asked, its record as JSON text."""
    n = settings.players
    dseed = deal_seed(settings.seed, index)
    state = State.from_seed(n, dseed, settings.rules)
    specs = settings.bots
    position_of = [(s - rotation) % n for s in range(n)]
    players = [make_bot(specs[position_of[s]], bot_seed(settings.seed, index, rotation, position_of[s])) for s in range(n)]
    open_hand = [sees_all(p) for p in players]

    def act(seat: int) -> int:
        player = players[seat]
        return int(player.act_open(state.copy()) if open_hand[seat] else player.act(state.view(seat)))

    decisions, seconds = play_out(state, act, specs, position_of, index, dseed, rotation)
    text = None
    if with_record:
        from mustamaija.games.mustamaija.record import Record

        text = record_text(Record, state, specs, position_of, settings.seed, index, dseed, rotation)
    loser = position_of[state.loser] if state.loser >= 0 else None
    return GameResult(index, rotation, loser, state.turns, decisions, seconds), text


def play_out(state: Any, act: Callable[[int], int], specs: Sequence[str], position_of: Sequence[int],
             index: int, dseed: int, rotation: int) -> tuple[tuple[int, ...], tuple[float, ...]]:
    """Play ``state`` (of either game) to its end with ``act(seat)``; return decisions and CPU seconds by lineup position.

    A bot's illegal step stops the tournament with an error naming the bot, the seat, the deal and the rotation.
    """
    n = len(position_of)
    decisions = [0] * n
    seconds = [0.0] * n
    clock = time.process_time  # CPU time of this worker: a busy machine disturbs it little.
    while not state.is_over:
        seat = state.to_act
        t0 = clock()
        step = act(seat)
        seconds[position_of[seat]] += clock() - t0
        decisions[position_of[seat]] += 1
        try:
            state.apply(step)
        except IllegalActionError as e:
            raise MustamaijaError(
                f"bot {specs[position_of[seat]]!r} in seat {seat} chose an illegal step {step!r} "
                f"in deal {index} (seed {dseed}), rotation {rotation}: {e}"
            ) from None
    return tuple(decisions), tuple(seconds)


def record_text(record_cls: Any, state: Any, specs: Sequence[str], position_of: Sequence[int], seed: int,
                index: int, dseed: int, rotation: int) -> str:
    """Return the finished game as record JSON text (``record_cls`` is the game's ``Record``), with the tournament keys."""
    record = record_cls.from_state(state, bots=[specs[position_of[s]] for s in range(len(position_of))], seed=dseed,
                                   tournament={"seed": seed, "deal": index, "rotation": rotation})
    return str(record.dumps())


def write_record(out_dir: str | os.PathLike[str], name: str, text: str) -> None:
    """Write a record's JSON text as ``out_dir/name``."""
    with open(os.path.join(out_dir, name), "w", encoding="utf-8") as f:
        f.write(text)


def record_name(settings: TournamentSettings, index: int, rotation: int) -> str:
    """Return the file name of a game's record; names sort in play order."""
    width = max(6, len(str(settings.deals - 1)))
    return f"deal-{index:0{width}d}-rot-{rotation}.json"


@dataclass
class BotRow:
    """The loss figures of one lineup position or of one bot spec over all its positions."""

    label: str
    spec: str
    positions: tuple[int, ...]
    games: int
    losses: int
    loss_rate: float
    ci_low: float
    ci_high: float
    loss_ratio: float
    decisions: int
    us_per_decision: float

    def to_json(self) -> dict[str, Any]:
        """Return the row as a JSON object (``deals`` counts the finished games the bot played)."""
        return {
            "bot": self.spec,
            "positions": list(self.positions),
            "deals": self.games,
            "losses": self.losses,
            "loss_rate": self.loss_rate,
            "ci_low": self.ci_low,
            "ci_high": self.ci_high,
            "loss_ratio": self.loss_ratio,
            "decisions": self.decisions,
            "us_per_decision": self.us_per_decision,
        }


@dataclass
class TournamentResult:
    """Every game of a tournament, with the per-bot and pairwise statistics computed from them."""

    settings: TournamentSettings
    games: list[GameResult]
    elapsed: float = 0.0

    @property
    def finished(self) -> list[GameResult]:
        """Return the games that ended with a loser."""
        return [g for g in self.games if g.loser is not None]

    @property
    def stopped(self) -> int:
        """Return the number of games stopped by M21 (no loser)."""
        return sum(1 for g in self.games if g.loser is None)

    def _row(self, label: str, spec: str, positions: tuple[int, ...]) -> BotRow:
        from mustamaija.tournament.stats import wilson_interval

        finished = self.finished
        trials = len(finished) * len(positions)
        losses = sum(1 for g in finished if g.loser in positions)
        rate = losses / trials if trials else 0.0
        lo, hi = wilson_interval(losses, trials)
        decisions = sum(g.decisions[p] for g in self.games for p in positions)
        secs = sum(g.seconds[p] for g in self.games for p in positions)
        return BotRow(label, spec, positions, trials, losses, rate, lo, hi, rate * self.settings.players,
                      decisions, 1e6 * secs / decisions if decisions else 0.0)

    def by_position(self) -> list[BotRow]:
        """Return one row per lineup position."""
        return [self._row(f"{p}: {b}", b, (p,)) for p, b in enumerate(self.settings.bots)]

    def by_spec(self) -> list[BotRow]:
        """Return one row per distinct bot spec, over all the positions it holds."""
        out = []
        for spec in dict.fromkeys(self.settings.bots):
            positions = tuple(p for p, b in enumerate(self.settings.bots) if b == spec)
            out.append(self._row(spec, spec, positions))
        return out

    def per_deal_rates(self, positions: tuple[int, ...]) -> dict[int, float]:
        """Return, for each deal with a finished game, the loss rate of ``positions`` over its finished games."""
        losses: dict[int, int] = {}
        games: dict[int, int] = {}
        for g in self.games:
            if g.loser is None:
                continue
            games[g.deal] = games.get(g.deal, 0) + 1
            losses[g.deal] = losses.get(g.deal, 0) + (g.loser in positions)
        return {d: losses[d] / (games[d] * len(positions)) for d in games}

    def pairwise(self) -> list[dict[str, Any]]:
        """Compare every two distinct bot specs on the same deals: the mean per-deal difference of loss rates."""
        from mustamaija.tournament.stats import paired_difference

        specs = list(dict.fromkeys(self.settings.bots))
        out = []
        for i, a in enumerate(specs):
            for b in specs[i + 1:]:
                pa = tuple(p for p, s in enumerate(self.settings.bots) if s == a)
                pb = tuple(p for p, s in enumerate(self.settings.bots) if s == b)
                ra, rb = self.per_deal_rates(pa), self.per_deal_rates(pb)
                deals = sorted(ra)
                d = paired_difference([ra[k] for k in deals], [rb[k] for k in deals])
                out.append({
                    "a": a, "b": b, "deals": d.units, "difference": d.mean, "stderr": d.stderr,
                    "ci_low": d.ci_low, "ci_high": d.ci_high, "p_value": d.p_value,
                })
        return out

    def to_json(self) -> dict[str, Any]:
        """Return the whole summary as one JSON object."""
        by_spec = self.by_spec()
        turns = [g.turns for g in self.finished]
        return {
            "settings": self.settings.to_json(),
            "games": len(self.games),
            "finished": len(self.finished),
            "stopped": self.stopped,
            "parity": 1.0 / self.settings.players,
            "bots": {row.spec: row.to_json() for row in by_spec},
            "positions": [row.to_json() for row in self.by_position()],
            "pairwise": self.pairwise(),
            "mean_turns": sum(turns) / len(turns) if turns else 0.0,
            "seconds": self.elapsed,
        }


ProgressFn = Callable[[int, int], None]


def run_tournament(settings: TournamentSettings, jobs: int = 1, out_dir: str | os.PathLike[str] | None = None,
                   progress: ProgressFn | None = None, backend: str = "local", address: str | None = None) -> TournamentResult:
    """Play every deal of the tournament and return the results in deal order.

    ``backend`` says where: ``"local"`` (``jobs`` processes on this machine)
    or ``"ray"`` (a Ray cluster at ``address``, or a local Ray instance; see
    :mod:`mustamaija.tournament.backends`). ``progress(done, total)`` is
    called as deals complete. The results are the same whatever the backend
    and ``jobs`` are.
    """
    games, elapsed = run_games(settings, jobs, out_dir, progress, backend, address)
    return TournamentResult(settings, games, elapsed)


def run_games(settings: Any, jobs: int = 1, out_dir: str | os.PathLike[str] | None = None,
              progress: ProgressFn | None = None, backend: str = "local",
              address: str | None = None) -> tuple[list[Any], float]:
    """Play every game of ``settings`` (a :class:`~.backends.Games`) on a backend; return them in order and the seconds taken."""
    from mustamaija.tournament.backends import get_backend

    run = get_backend(backend)
    if address is not None and backend != "ray":
        raise MustamaijaError(f"an address is for the ray backend only, not {backend!r}")
    start = time.perf_counter()
    out = None if out_dir is None else os.fspath(out_dir)
    if out is not None:
        os.makedirs(out, exist_ok=True)
    games = run(settings, jobs=jobs, out_dir=out, progress=progress, address=address)
    games.sort(key=lambda g: (g.deal, g.rotation))
    return games, time.perf_counter() - start

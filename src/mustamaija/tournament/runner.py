"""Run tournaments of any game: duplicate deals, the lineup rotated through every seat, in one or more processes.

Deal ``i`` of a tournament with seed ``S`` is dealt by
``game.deal(players, deal_seed(S, i), rules)`` (deck and dealer), and played
once for every rotation of the lineup: in rotation ``r`` the bot at lineup
position ``p`` sits in seat ``(p + r) % players``. Every bot gets a fresh
instance for each game, ``make_bot(spec, bot_seed(S, i, r, p), game)``, so
the results do not depend on how the deals are split between processes. A
game's result is ``game.scores(state)`` by lineup position (``None`` for a
deal stopped unfinished); :mod:`mustamaija.tournament.results` turns the
results into loss rates or mean points, as the game's ``result_kind`` says.

>>> from mustamaija.core.registry import games
>>> for game in games():
...     t = TournamentSettings(players=3, bots=("heuristic", "random", "random"), game=game.name, deals=2, seed=1)
...     result = run_tournament(t)
...     print(game.result_kind, len(result.games), sorted({sum(g.scores) for g in result.finished}))
points 6 [43.0]
loss 6 [1.0]
"""

from __future__ import annotations

import hashlib
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from mustamaija.core.errors import MustamaijaError
from mustamaija.core.protocol import Game
from mustamaija.core.registry import DEFAULT_GAME, get_game
from mustamaija.players.play import play_out
from mustamaija.players.registry import BotSpec, make_bot, parse_bot_spec

if TYPE_CHECKING:
    from mustamaija.tournament.results import TournamentResult

__all__ = [
    "FinishedFn",
    "GameResult",
    "ProgressFn",
    "TournamentSettings",
    "bot_seed",
    "deal_seed",
    "import_paths",
    "play_game",
    "play_game_record",
    "run_games",
    "run_tournament",
    "use_import_paths",
    "write_record",
]

ProgressFn = Callable[[int, int], None]
"""A progress report: ``(deals done, deals in all)``."""

FinishedFn = Callable[[list["GameResult"]], None]
"""Told of each batch of finished games as it comes in."""


def _hash_seed(*parts: object) -> int:
    text = ":".join(str(p) for p in parts).encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:6], "big")


def deal_seed(seed: int, index: int) -> int:
    """Return the seed of deal ``index``: ``game.deal(players, seed_of_deal, rules)`` deals it."""
    return _hash_seed("deal", seed, index)


def bot_seed(seed: int, index: int, rotation: int, position: int) -> int:
    """Return the seed given to the bot at lineup ``position`` in one game."""
    return _hash_seed("bot", seed, index, rotation, position)


@dataclass(frozen=True)
class TournamentSettings:
    """What a tournament plays: the game, the lineup (one bot spec per position), the rules and the deals.

    ``game`` is kept as the game's name, so that settings travel cheaply to
    worker processes; ``rules`` defaults to the rules of ``preset`` (the
    game's first preset when ``None``). ``preset`` names where the rules came
    from, for the report (``None``: custom rules).
    """

    players: int
    bots: tuple[str, ...]
    game: str = DEFAULT_GAME
    rules: Any = None
    deals: int = 100
    seed: int = 0
    rotate: bool = True
    preset: str | None = None

    def __post_init__(self) -> None:
        game = get_game(self.game)
        object.__setattr__(self, "game", game.name)
        if self.rules is None:
            object.__setattr__(self, "rules", game.make_rules(self.preset))
        game.check_players(self.rules, self.players)
        if len(self.bots) != self.players:
            raise MustamaijaError(f"the lineup has {len(self.bots)} bots for {self.players} seats: give one bot spec per seat")
        if isinstance(self.deals, bool) or not isinstance(self.deals, int) or self.deals < 1:
            raise MustamaijaError(f"the number of deals must be a positive integer, not {self.deals!r}")
        object.__setattr__(self, "bots", tuple(str(parse_bot_spec(b)) for b in self.bots))

    @property
    def the_game(self) -> Game:
        """Return the game object."""
        return get_game(self.game)

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
        """Return the file name of a game's record; names sort in play order."""
        width = max(6, len(str(self.deals - 1)))
        return f"deal-{index:0{width}d}-rot-{rotation}.json"

    def to_json(self) -> dict[str, Any]:
        """Return the settings as a JSON object.

        The game is named unless it is the default game (as in records). A
        game with several presets shows the preset and the rules that differ
        from the defaults; a game with one rule set shows its rules whole.
        """
        game = self.the_game
        obj: dict[str, Any] = {} if game.name == DEFAULT_GAME else {"game": game.name}
        obj.update(players=self.players, bots=list(self.bots))
        rules = dict(self.rules.to_json())
        if len(game.presets) > 1:
            obj["preset"] = self.preset
            rules = {k: v for k, v in rules.items() if game.rule_defaults.get(k) != v}
        obj.update(rules=rules, deals=self.deals, seed=self.seed, rotate=self.rotate, rotations=self.rotations)
        return obj


@dataclass(frozen=True)
class GameResult:
    """One game: a deal played with one rotation of the lineup; every figure is by lineup position.

    ``scores`` are the game's tournament figures (``game.scores``: lower is
    better; ``None`` for a deal stopped unfinished); ``decisions`` and
    ``seconds`` count every bot's steps and thinking time.
    """

    deal: int
    rotation: int
    scores: tuple[float, ...] | None
    turns: int
    decisions: tuple[int, ...]
    seconds: tuple[float, ...]

    @property
    def loser(self) -> int | None:
        """Return the lineup position that lost, in a game of one loser (``None`` if none did)."""
        if self.scores is None or 1.0 not in self.scores:
            return None
        return self.scores.index(1.0)


def _turns(state: Any) -> int:
    """Return how long a deal lasted: the state's own count of turns where it keeps one, else its compound actions."""
    turns = getattr(state, "turns", None)
    return turns if isinstance(turns, int) else len(state.actions())


def play_game_record(settings: TournamentSettings, index: int, rotation: int,
                     with_record: bool = False) -> tuple[GameResult, str | None]:
    """Play deal ``index`` with lineup rotation ``rotation``; return its result and, if asked, its record as JSON text.

    A bot's illegal step stops the tournament with an error naming the bot, the seat, the deal and the rotation.
    """
    game = settings.the_game
    n = settings.players
    dseed = deal_seed(settings.seed, index)
    state = game.deal(n, dseed, settings.rules)
    position_of = [(s - rotation) % n for s in range(n)]
    seated = [settings.bots[position_of[s]] for s in range(n)]
    players = [make_bot(seated[s], bot_seed(settings.seed, index, rotation, position_of[s]), game) for s in range(n)]
    decisions, seconds = play_out(state, players, names=seated,
                                  where=f" in deal {index} (seed {dseed}), rotation {rotation}")
    text = None
    if with_record:
        record = game.record_of(state, bots=seated, seed=dseed,
                                tournament={"seed": settings.seed, "deal": index, "rotation": rotation})
        text = str(record.dumps())
    scores = game.scores(state)

    def by_position(by_seat: list[Any]) -> tuple[Any, ...]:
        return tuple(by_seat[(p + rotation) % n] for p in range(n))

    return GameResult(index, rotation, None if scores is None else by_position(scores), _turns(state),
                      by_position(decisions), by_position(seconds)), text


def play_game(settings: TournamentSettings, index: int, rotation: int,
              out_dir: str | os.PathLike[str] | None = None) -> GameResult:
    """Play deal ``index`` with lineup rotation ``rotation``; write its record to ``out_dir`` if given."""
    result, text = play_game_record(settings, index, rotation, with_record=out_dir is not None)
    if out_dir is not None and text is not None:
        write_record(out_dir, settings.record_name(index, rotation), text)
    return result


def write_record(out_dir: str | os.PathLike[str], name: str, text: str) -> None:
    """Write a record's JSON text as ``out_dir/name``."""
    with open(os.path.join(out_dir, name), "w", encoding="utf-8") as f:
        f.write(text)


def import_paths() -> list[str]:
    """Return this process's module search path as absolute folders, for workers to import the same bots."""
    return [os.path.abspath(p or os.curdir) for p in sys.path]


def use_import_paths(paths: list[str]) -> None:
    """Let this (worker) process import what the parent could: add the parent's folders missing from ``sys.path``.

    Outside bots (``module:Class`` specs, entry points) live wherever the
    command found them: its folder, ``PYTHONPATH``, a virtual environment.
    """
    for path in paths:
        if path not in sys.path:
            sys.path.append(path)


def run_games(settings: TournamentSettings, jobs: int = 1, out_dir: str | os.PathLike[str] | None = None,
              progress: ProgressFn | None = None, backend: str = "local",
              address: str | None = None, resume: bool = False) -> tuple[list[GameResult], float, int]:
    """Play every game of ``settings`` on a backend; return them in play order, the seconds taken and the deals resumed.

    With ``out_dir``, the records and a journal of the results go there
    (:mod:`mustamaija.tournament.journal`); ``resume`` takes the deals the
    journal already has from it instead of playing them again.
    """
    from mustamaija.tournament.backends import get_backend
    from mustamaija.tournament.journal import Journal

    run = get_backend(backend)
    if address is not None and backend != "ray":
        raise MustamaijaError(f"an address is for the ray backend only, not {backend!r}")
    if resume and out_dir is None:
        raise MustamaijaError("resuming needs the folder of the run to resume (--out)")
    start = time.perf_counter()
    out = None if out_dir is None else os.fspath(out_dir)
    before = 0
    if out is None:
        games = run(settings, jobs=jobs, out_dir=None, progress=progress, address=address)
    else:
        os.makedirs(out, exist_ok=True)
        with Journal.open(out, settings, resume=resume) as journal:
            games = list(journal.games)
            done = journal.done
            todo = [i for i in range(settings.deals) if i not in done]
            before = settings.deals - len(todo)

            def told(done: int, _total: int) -> None:
                if progress is not None:
                    progress(before + done, settings.deals)

            if progress is not None:
                progress(before, settings.deals)
            if todo:
                games += run(settings, jobs=jobs, out_dir=out, progress=told, address=address, deals=todo,
                             finished=journal.write)
    games.sort(key=lambda g: (g.deal, g.rotation))
    return games, time.perf_counter() - start, before


def run_tournament(settings: TournamentSettings, jobs: int = 1, out_dir: str | os.PathLike[str] | None = None,
                   progress: ProgressFn | None = None, backend: str = "local", address: str | None = None,
                   resume: bool = False) -> TournamentResult:
    """Play every deal of the tournament and return the results in deal order.

    ``backend`` says where: ``"local"`` (``jobs`` processes on this machine)
    or ``"ray"`` (a Ray cluster at ``address``, or a local Ray instance; see
    :mod:`mustamaija.tournament.backends`). ``progress(done, total)`` is
    called as deals complete. The results are the same whatever the backend
    and ``jobs`` are, and whether the run was resumed (``resume``: the deals
    already in the journal of ``out_dir`` are not played again).
    """
    from mustamaija.tournament.results import TournamentResult

    games, elapsed, resumed = run_games(settings, jobs, out_dir, progress, backend, address, resume)
    return TournamentResult(settings, games, elapsed, resumed)

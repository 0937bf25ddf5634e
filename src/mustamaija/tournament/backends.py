"""Where a tournament's games are played: this machine (``local``) or a Ray cluster (``ray``).

A backend is a function ``(settings, *, jobs, out_dir, progress, address)``
returning the result of every game, in any order. The settings say how to
play one game (:class:`Games`), so one backend serves both games: Mustamaija
settings (``runner.TournamentSettings``) give a ``GameResult`` a game, Black
Maria settings (``blackmaria.BlackMariaSettings``) a ``HandResult``. Games are
independent and seeded from ``(seed, deal, rotation, position)`` alone, so
every backend gives the same results for the same settings; only the timings
differ.

>>> sorted(BACKENDS)
['local', 'ray']
>>> get_backend("spark")
Traceback (most recent call last):
...
mustamaija.core.errors.MustamaijaError: unknown backend 'spark' (known backends: local, ray)
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any, Protocol, TypeVar

from mustamaija.core.errors import MustamaijaError
from mustamaija.tournament.runner import GameResult, ProgressFn, TournamentSettings, write_record

__all__ = ["BACKENDS", "Backend", "Games", "get_backend", "run_local", "run_ray"]


class _Result(Protocol):
    @property
    def deal(self) -> int: ...
    @property
    def rotation(self) -> int: ...


R = TypeVar("R", bound=_Result)
R_co = TypeVar("R_co", bound=_Result, covariant=True)


class Games(Protocol[R_co]):
    """The games of a tournament: ``deals`` deals, each played ``rotations`` times, one game at a time."""

    @property
    def deals(self) -> int:
        """Return the number of deals."""

    @property
    def rotations(self) -> int:
        """Return the number of games played with each deal."""

    def play_record(self, index: int, rotation: int, with_record: bool) -> tuple[R_co, str | None]:
        """Play deal ``index`` with lineup rotation ``rotation``; return its result and, if asked, its record."""

    def record_name(self, index: int, rotation: int) -> str:
        """Return the file name of a game's record."""


class Backend(Protocol):
    """Plays every game of a tournament and returns the results (in any order)."""

    def __call__(self, settings: TournamentSettings, *, jobs: int, out_dir: str | None, progress: ProgressFn | None,
                 address: str | None) -> list[GameResult]:
        """Play the games; write records into ``out_dir`` when given; report ``progress(done, total)`` in deals."""


def _play_deals(settings: Games[R], indices: Sequence[int], out_dir: str | None) -> list[R]:
    out = []
    for i in indices:
        for r in range(settings.rotations):
            result, text = settings.play_record(i, r, out_dir is not None)
            if out_dir is not None and text is not None:
                write_record(out_dir, settings.record_name(i, r), text)
            out.append(result)
    return out


def _batches(total: int, workers: int) -> list[list[int]]:
    chunk = max(1, min(50, total // (workers * 8)))
    return [list(range(i, min(total, i + chunk))) for i in range(0, total, chunk)]


def run_local(settings: Games[R], *, jobs: int = 1, out_dir: str | None = None,
              progress: ProgressFn | None = None, address: str | None = None) -> list[R]:
    """Play in this process (``jobs`` 1) or in ``jobs`` worker processes."""
    total = settings.deals
    games: list[R] = []
    if jobs <= 1 or total == 1:
        for i in range(total):
            games.extend(_play_deals(settings, [i], out_dir))
            if progress is not None:
                progress(i + 1, total)
        return games
    done = 0
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        pending: set[Future[list[R]]] = {pool.submit(_play_deals, settings, b, out_dir) for b in _batches(total, jobs)}
        while pending:
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for f in finished:
                part = f.result()
                games.extend(part)
                done += len({g.deal for g in part})
            if progress is not None:
                progress(done, total)
    return games


def _play_batch(settings: Games[R], indices: Sequence[int], with_records: bool) -> list[tuple[R, str | None]]:
    return [settings.play_record(i, r, with_records) for i in indices for r in range(settings.rotations)]


def run_ray(settings: Games[R], *, jobs: int = 1, out_dir: str | None = None,
            progress: ProgressFn | None = None, address: str | None = None) -> list[R]:
    """Play on Ray: the cluster at ``address`` (``"auto"``, ``"host:6379"``, ``"ray://host:10001"``), else a local instance.

    An instance already started in this process (``ray.init``) is used as it
    is; otherwise one is started (a local one with ``jobs`` CPUs) and shut
    down at the end. Records travel back with the results and are written
    here, so ``out_dir`` need not be shared with the cluster's machines.
    Every machine needs the same version of mustamaija installed.
    """
    try:
        import ray
    except ModuleNotFoundError:
        raise MustamaijaError("the ray backend needs Ray: pip install 'mustamaija[rl]'") from None
    started = False
    if not ray.is_initialized():
        options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
        if address is None:
            options["num_cpus"] = max(1, jobs)
        ray.init(address=address, **options)
        started = True
    try:
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))  # type: ignore[no-untyped-call,unused-ignore]
        play: Any = ray.remote(num_cpus=1)(_play_batch)
        total = settings.deals
        with_records = out_dir is not None
        pending = [play.remote(settings, batch, with_records) for batch in _batches(total, cpus)]
        games: list[R] = []
        done = 0
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            part: list[tuple[R, str | None]] = ray.get(ready[0])
            for result, text in part:
                games.append(result)
                if out_dir is not None and text is not None:
                    write_record(out_dir, settings.record_name(result.deal, result.rotation), text)
            done += len({g.deal for g, _ in part})
            if progress is not None:
                progress(done, total)
        return games
    finally:
        if started:
            ray.shutdown()


BACKENDS: dict[str, Callable[..., list[Any]]] = {"local": run_local, "ray": run_ray}
"""The backends by name."""


def get_backend(name: str) -> Callable[..., list[Any]]:
    """Return the backend called ``name``."""
    try:
        return BACKENDS[name]
    except KeyError:
        raise MustamaijaError(f"unknown backend {name!r} (known backends: {', '.join(sorted(BACKENDS))})") from None

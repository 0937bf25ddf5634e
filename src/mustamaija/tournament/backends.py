"""Where a tournament's games are played: this machine (``local``) or a Ray cluster (``ray``).

A backend is a function ``(settings, *, jobs, out_dir, progress, address)``
returning the result of every game, in any order. The settings say how to
play one game of any game (``TournamentSettings.play_record``). Games are
independent and seeded from ``(seed, deal, rotation, position)`` alone, so
every backend gives the same results for the same settings; only the timings
differ.

Worker processes import the same bots as the command: each is given the
command's module search path (``sys.path``, which holds the current folder
and ``PYTHONPATH``), so ``module:Class`` specs and ``mustamaija.players``
entry points found by the command are found by its workers too.

>>> sorted(BACKENDS)
['local', 'ray']
>>> get_backend("spark")
Traceback (most recent call last):
...
mustamaija.core.errors.MustamaijaError: unknown backend 'spark' (known backends: local, ray)
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import threading
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, wait
from pathlib import Path
from types import FrameType
from typing import Any, Final, Protocol

from mustamaija.core.errors import MustamaijaError
from mustamaija.tournament.runner import (
    FinishedFn,
    GameResult,
    ProgressFn,
    TournamentSettings,
    import_paths,
    use_import_paths,
    write_record,
)
from mustamaija.workers import WorkerPool

log = logging.getLogger(__name__)

__all__ = ["BACKENDS", "Backend", "get_backend", "run_local", "run_ray"]


class Backend(Protocol):
    """Plays every game of a tournament and returns the results (in any order)."""

    def __call__(self, settings: TournamentSettings, *, jobs: int, out_dir: str | None, progress: ProgressFn | None,
                 address: str | None, deals: Sequence[int] | None = None,
                 finished: FinishedFn | None = None) -> list[GameResult]:
        """Play the games of ``deals`` (default: every deal of ``settings``) and return their results.

        Records go into ``out_dir`` when given; ``finished(results)`` is
        told of each batch of games as it comes in (after its records are
        written); ``progress(done, total)`` counts deals, ``total`` being the
        number of ``deals``.
        """


def _play_batch(settings: TournamentSettings, indices: Sequence[int], with_records: bool,
                paths: list[str] | None = None) -> tuple[list[tuple[GameResult, str | None]], float]:
    """Play every rotation of the deals ``indices``; return the results and the seconds they took (in the worker)."""
    if paths is not None:
        use_import_paths(paths)
    start = time.perf_counter()
    played = [settings.play_record(i, r, with_records) for i in indices for r in range(settings.rotations)]
    return played, time.perf_counter() - start


BATCH_SECONDS: Final = 4.0
"""About how long a batch of deals should take in a worker, once the first deals have said how long one takes.

Short enough that a stopped run (Ctrl-C, then ``--resume``) loses little and its progress moves, long enough
that handing out batches and sending back their records costs nothing next to playing them.
"""

MAX_BATCH: Final = 50
"""The most deals in one batch, however quick the bots."""


class _Feeder:
    """Hands the deals to the workers in batches sized by how long the deals played so far took.

    The first batches hold one deal each, as nothing is known yet: a search bot's deal can take a minute, a
    random bot's a millisecond. Later batches aim at :data:`BATCH_SECONDS` each, and shrink again near the
    end, so that no worker is left with a long batch while the others wait. Games are seeded by deal and
    rotation alone, so the batches change the order in which results come in, never a result.

    >>> feeder = _Feeder(range(1000), workers=2)
    >>> feeder.next()
    [0]
    >>> feeder.took(1, 0.1)
    >>> len(feeder.next()), len(feeder.next())
    (40, 40)
    """

    def __init__(self, deals: Sequence[int], workers: int) -> None:
        self._todo = list(reversed(deals))
        self._workers = max(1, workers)
        self._deals = 0
        self._seconds = 0.0

    def __bool__(self) -> bool:
        return bool(self._todo)

    def took(self, deals: int, seconds: float) -> None:
        """Note that a batch of ``deals`` deals took ``seconds`` in its worker."""
        self._deals += deals
        self._seconds += seconds

    def next(self) -> list[int]:
        """Return the next batch of deals (empty once every deal is handed out)."""
        size = 1
        if self._deals:
            per_deal = max(self._seconds / self._deals, 1e-6)
            size = max(1, min(MAX_BATCH, round(BATCH_SECONDS / per_deal), len(self._todo) // (2 * self._workers)))
        return [self._todo.pop() for _ in range(min(size, len(self._todo)))]


def _collect(batch: tuple[list[tuple[GameResult, str | None]], float], settings: TournamentSettings,
             out_dir: str | None, games: list[GameResult], finished: FinishedFn | None, feeder: _Feeder | None) -> int:
    """Keep a batch's results, write its records, tell ``finished`` and the feeder; return its number of deals."""
    part, seconds = batch
    deals = len({g.deal for g, _ in part})
    if feeder is not None:
        feeder.took(deals, seconds)
    for result, text in part:
        games.append(result)
        if out_dir is not None and text is not None:
            write_record(out_dir, settings.record_name(result.deal, result.rotation), text)
    if finished is not None:
        finished([g for g, _ in part])
    return deals


def run_local(settings: TournamentSettings, *, jobs: int = 1, out_dir: str | None = None,
              progress: ProgressFn | None = None, address: str | None = None, deals: Sequence[int] | None = None,
              finished: FinishedFn | None = None) -> list[GameResult]:
    """Play in this process (``jobs`` 1) or in ``jobs`` worker processes."""
    todo = list(range(settings.deals)) if deals is None else list(deals)
    total = len(todo)
    games: list[GameResult] = []
    with_records = out_dir is not None
    if jobs <= 1 or total <= 1:
        for k, i in enumerate(todo, start=1):
            _collect(_play_batch(settings, [i], with_records), settings, out_dir, games, finished, None)
            if progress is not None:
                progress(k, total)
        return games
    done = 0
    paths = import_paths()
    workers = WorkerPool(jobs)
    pool = workers.executor
    try:
        feeder = _Feeder(todo, jobs)
        with _signals_as_flags() as caught:
            pending: set[Future[tuple[list[tuple[GameResult, str | None]], float]]] = set()
            while pending or feeder:
                while feeder and len(pending) < _IN_FLIGHT * jobs:  # A batch waits for each worker as it ends one.
                    pending.add(pool.submit(_play_batch, settings, feeder.next(), with_records, paths))
                ready, pending = wait(pending, timeout=_POLL, return_when=FIRST_COMPLETED)
                caught.raise_if_any()
                for f in ready:
                    done += _collect(f.result(), settings, out_dir, games, finished, feeder)
                if ready and progress is not None:
                    progress(done, total)
    except BaseException:
        workers.stop()
        raise
    workers.shutdown()
    return games


_POLL: Final = 0.2
"""Seconds between looks at the signals caught while waiting for the workers' results."""

_IN_FLIGHT: Final = 2
"""Batches handed out per worker at a time: one playing, one waiting, so that no worker idles between two."""


class _Caught:
    """The stopping signal caught while a block runs, if any, to be raised where it is safe."""

    def __init__(self) -> None:
        self.signum: int | None = None

    def catch(self, signum: int, _frame: FrameType | None) -> None:
        if self.signum is None:
            self.signum = signum

    def raise_if_any(self) -> None:
        """Raise what the signal caught stands for: ``KeyboardInterrupt`` for Ctrl-C, ``SystemExit`` for the others."""
        if self.signum == signal.SIGINT:
            raise KeyboardInterrupt
        if self.signum is not None:
            raise SystemExit(128 + self.signum)


@contextlib.contextmanager
def _signals_as_flags() -> Iterator[_Caught]:
    """Catch Ctrl-C and SIGTERM as flags while the block runs (main thread only), for the block to raise at a safe point.

    Python raises ``KeyboardInterrupt`` wherever the main thread is, also
    halfway through taking the locks of the futures being waited for
    (``concurrent.futures.wait``): a lock left held there blocks the pool's
    manager thread when it settles that future, and the interpreter joins
    that thread at exit, for ever. So the signal only sets a flag, and the
    loop raises between two waits, holding no lock.
    """
    caught = _Caught()
    if threading.current_thread() is not threading.main_thread():
        yield caught
        return
    before = {signum: signal.signal(signum, caught.catch) for signum in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield caught
    finally:
        for signum, handler in before.items():
            signal.signal(signum, handler)


def ray_token_path() -> Path | None:
    """Return the file of this machine's Ray authentication token (``RAY_AUTH_TOKEN_PATH``, else ``~/.ray/auth_token``)."""
    path = Path(os.environ.get("RAY_AUTH_TOKEN_PATH") or Path.home() / ".ray" / "auth_token")
    return path if path.is_file() else None


def use_cluster_token() -> None:
    """Send the cluster's authentication token when joining it, if this machine has one.

    Ray clusters started with ``ray start`` use token authentication (docs/research.md, "Tournaments on
    Ray"); a driver sends its token only in the ``token`` mode, which Ray leaves off by default. The mode
    is turned on when a token is at hand (``RAY_AUTH_TOKEN``, or a token file) and the user has not
    chosen a mode.
    """
    if "RAY_AUTH_MODE" not in os.environ and (os.environ.get("RAY_AUTH_TOKEN") or ray_token_path() is not None):
        os.environ["RAY_AUTH_MODE"] = "token"


_CONNECT_TRIES: Final = 3


def _init_ray(ray: Any, address: str, options: dict[str, Any]) -> None:
    """Start or join Ray; a ``ray://`` connection is tried again when the cluster fails to start its side of it.

    A ``ray://`` client gets a server process of its own on the head, started on demand: on a busy head
    that start can fail once and succeed a moment later, which should not cost a whole tournament.
    """
    for attempt in range(1, _CONNECT_TRIES + 1):
        try:
            ray.init(address=address, **options)
            return
        except (ConnectionError, RuntimeError) as e:
            if not address.startswith("ray://") or attempt == _CONNECT_TRIES:
                raise
            log.warning("joining %s failed (%s); trying again (%d of %d)", address, str(e).strip().splitlines()[-1][:120],
                        attempt + 1, _CONNECT_TRIES)
            with contextlib.suppress(Exception):
                ray.shutdown()
            time.sleep(2.0 * attempt)


def run_ray(settings: TournamentSettings, *, jobs: int = 1, out_dir: str | None = None,
            progress: ProgressFn | None = None, address: str | None = None, deals: Sequence[int] | None = None,
            finished: FinishedFn | None = None) -> list[GameResult]:
    """Play on Ray: the cluster at ``address`` (``"auto"``, ``"host:6379"``, ``"ray://host:10001"``), else a local instance.

    An instance already started in this process (``ray.init``) is used as it
    is; otherwise one is started (a local one with ``jobs`` CPUs) and shut
    down at the end. Records travel back with the results and are written
    here, so ``out_dir`` need not be shared with the cluster's machines.
    Every machine needs the same version of mustamaija installed, and the
    outside bots of the lineup importable (a folder of this machine's
    ``sys.path`` serves only the workers on this machine).
    """
    if address is not None:
        use_cluster_token()  # Before Ray is imported: it reads its settings then.
    try:
        import ray
    except ModuleNotFoundError:
        raise MustamaijaError("the ray backend needs Ray: pip install 'mustamaija[ray]'") from None
    started = False
    if not ray.is_initialized():
        options: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
        if address is None:
            # "local": a new instance of this machine even when a `ray start` cluster is recorded on it
            # (RAY_ADDRESS, /tmp/ray/ray_current_cluster), which ray.init() would join instead.
            options["num_cpus"] = max(1, jobs)
            address = "local"
        _init_ray(ray, address, options)
        started = True
    try:
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))  # type: ignore[no-untyped-call,unused-ignore]
        play: Any = ray.remote(num_cpus=1)(_play_batch)
        todo = list(range(settings.deals)) if deals is None else list(deals)
        total = len(todo)
        paths = import_paths()
        feeder = _Feeder(todo, cpus)
        pending: list[Any] = []
        games: list[GameResult] = []
        done = 0
        while pending or feeder:
            while feeder and len(pending) < _IN_FLIGHT * cpus:
                pending.append(play.remote(settings, feeder.next(), out_dir is not None, paths))
            ready, pending = ray.wait(pending, num_returns=1)
            done += _collect(ray.get(ready[0]), settings, out_dir, games, finished, feeder)
            if progress is not None:
                progress(done, total)
        return games
    finally:
        if started:
            ray.shutdown()


BACKENDS: dict[str, Backend] = {"local": run_local, "ray": run_ray}
"""The backends by name."""


def get_backend(name: str) -> Backend:
    """Return the backend called ``name``."""
    try:
        return BACKENDS[name]
    except KeyError:
        raise MustamaijaError(f"unknown backend {name!r} (known backends: {', '.join(sorted(BACKENDS))})") from None

"""A ``--jobs`` tournament leaves no process behind: when it ends, is interrupted, is terminated or fails.

Each command runs in its own process group (as a shell job does), so every
process it started, workers and multiprocessing's helpers included, is found
by that group; the signal is sent to the command alone, the harshest case
for cleanup, since a terminal's Ctrl-C also reaches the workers.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

Starter = Callable[[list[str]], "subprocess.Popen[bytes]"]

_SLOW = ["--bots", "pimc:iters=400,heuristic", "--players", "2", "--deals", "2000", "--jobs", "2"]
_BUSY = ["--bots", "random,random", "--players", "2", "--deals", "400000", "--jobs", "2"]
"""Batches done every few milliseconds: the command is nearly always collecting results or waiting for the next,
so a signal lands inside ``concurrent.futures.wait`` (which once left a future's lock held: a hang at exit)."""


def _group(pgid: int) -> list[int]:
    """Return the live processes of a process group (zombies are not alive: they only wait to be reaped)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid and fields[0] != "Z":
            found.append(int(entry.name))
    return found


@pytest.fixture
def start(tmp_path: Path) -> Iterator[Callable[[list[str]], subprocess.Popen[bytes]]]:
    """Start ``mustamaija tournament ARGS`` in its own process group; whatever a failed test leaves is killed."""
    started: list[int] = []

    def run(args: list[str]) -> subprocess.Popen[bytes]:
        proc = subprocess.Popen([sys.executable, "-m", "mustamaija", "tournament", *args], cwd=tmp_path,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
        started.append(proc.pid)
        return proc

    yield run
    for pgid in started:
        for pid in _group(pgid):
            os.kill(pid, signal.SIGKILL)


def _command_line(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")[:120]
    except OSError:
        return b"(gone)"


def _wait_for_workers(proc: subprocess.Popen[bytes], count: int) -> None:
    deadline = time.monotonic() + 60
    while len(_group(proc.pid)) < count + 1:
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "the workers never started"
        time.sleep(0.2)
    time.sleep(1.0)  # Let the workers take their first batches.


def _assert_group_empty(pgid: int, within: float = 15.0) -> None:
    deadline = time.monotonic() + within
    while _group(pgid) and time.monotonic() < deadline:
        time.sleep(0.1)
    left = _group(pgid)
    assert not left, f"processes left behind: {left}"


@pytest.mark.parametrize(("sig", "lineup"), [(signal.SIGINT, _SLOW), (signal.SIGTERM, _SLOW), (signal.SIGINT, _BUSY),
                                             (signal.SIGTERM, _BUSY)], ids=["SIGINT", "SIGTERM", "SIGINT-busy", "SIGTERM-busy"])
def test_an_interrupted_tournament_stops_its_workers_at_once(sig: signal.Signals, lineup: list[str], start: Starter) -> None:
    proc = start(lineup)
    _wait_for_workers(proc, 2)
    began = time.monotonic()
    proc.send_signal(sig)
    try:
        proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        # Say what was still running and what the command had printed, for a hang seen only under CI's load.
        # The pipes stay open while any process of the group lives, so the whole group is killed before reading.
        exited = proc.poll()
        left = [(pid, _command_line(pid)) for pid in _group(proc.pid)]
        for pid, _ in left:
            os.kill(pid, signal.SIGKILL)
        _, err = proc.communicate(timeout=30)
        pytest.fail(f"30 s after the signal the command's exit status was {exited}; still running: {left}; "
                    f"stderr: {err[-2000:]!r}")
    assert time.monotonic() - began < 10, "the command waited for its workers' batches"
    assert proc.returncode != 0
    _assert_group_empty(proc.pid)


def test_a_stopped_run_says_how_to_go_on_and_goes_on_to_the_games_of_one_run(start: Starter, tmp_path: Path) -> None:
    busy = ["--players", "3", "--bots", "heuristic,random*2", "--deals", "3000", "--seed", "9", "--jobs", "2"]
    proc = start([*busy, "--out", "run"])
    journal = tmp_path / "run" / "games.jsonl"
    deadline = time.monotonic() + 60
    while not journal.exists() or len(journal.read_text(encoding="utf-8").splitlines()) < 100:
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
        time.sleep(0.1)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode != 0 and b"the same command with --resume goes on" in err, err
    _assert_group_empty(proc.pid)
    kept = len(journal.read_text(encoding="utf-8").splitlines()) - 1
    assert 100 <= kept < 9000
    resumed = start([*busy, "--out", "run", "--resume", "--json"])
    out, err = resumed.communicate(timeout=300)
    assert resumed.returncode == 0, err
    whole = start([*busy, "--json"])
    out2, err2 = whole.communicate(timeout=300)
    assert whole.returncode == 0, err2
    a, b = json.loads(out), json.loads(out2)
    assert a["games"] == b["games"] == 9000 and a["pairwise"] == b["pairwise"]
    assert {k: v["losses"] for k, v in a["bots"].items()} == {k: v["losses"] for k, v in b["bots"].items()}


def test_workers_end_with_a_command_killed_outright(start: Starter) -> None:
    # kill -9 (or the OOM killer) gives the command no chance to stop its workers: they must end on their own,
    # not live on blocked on a queue whose both ends they hold.
    proc = start(_SLOW)
    _wait_for_workers(proc, 2)
    workers = [pid for pid in _group(proc.pid) if pid != proc.pid]
    proc.kill()
    proc.communicate(timeout=30)
    _assert_group_empty(proc.pid)
    assert workers


def test_a_finished_tournament_leaves_no_process(start: Starter) -> None:
    proc = start(["--bots", "heuristic,random", "--players", "2", "--deals", "20", "--jobs", "2"])
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err.decode()
    assert b"loss" in out.lower()
    _assert_group_empty(proc.pid, within=5)


def test_a_failing_bot_stops_the_tournament_and_its_workers(start: Starter, tmp_path: Path) -> None:
    (tmp_path / "failing_bot.py").write_text(
        "class Bot:\n"
        "    name = 'failing'\n"
        "    def __init__(self, game=None, seed=0, **kw):\n"
        "        self.seed = seed\n"
        "    def act(self, view):\n"
        "        raise RuntimeError('this bot gives up')\n"
    )
    proc = start(["--bots", "failing_bot:Bot,heuristic", "--players", "2", "--deals", "400", "--jobs", "2"])
    _out, err = proc.communicate(timeout=120)
    assert proc.returncode != 0
    assert b"this bot gives up" in err
    _assert_group_empty(proc.pid)


def test_a_signal_while_collecting_is_raised_between_two_waits() -> None:
    from mustamaija.tournament.backends import _signals_as_flags

    # What was there before: Python's default handler, or SIG_IGN when the suite runs as a background job of a
    # shell without job control (which starts it with SIGINT ignored).
    before = signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)
    with _signals_as_flags() as caught:
        os.kill(os.getpid(), signal.SIGINT)  # Handled at once, in this (the main) thread: nothing is raised here.
        time.sleep(0.01)
        os.kill(os.getpid(), signal.SIGTERM)  # The first signal caught is the one that counts.
        time.sleep(0.01)
        with pytest.raises(KeyboardInterrupt):
            caught.raise_if_any()
    assert (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)) == before


def _sleep(seconds: float) -> float:
    time.sleep(seconds)
    return seconds


def test_stopping_a_pool_ends_a_worker_it_has_not_recorded_yet() -> None:
    # A worker started just as Ctrl-C arrives may run before the pool records it; it must be stopped all the same,
    # or the command waits for it at exit: the likely cause of a hang of the test above, seen once under load.
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    from mustamaija.workers import pool_processes, stop_workers

    spared = set(multiprocessing.active_children())
    pool = ProcessPoolExecutor(max_workers=2, mp_context=multiprocessing.get_context("spawn"))
    for _ in range(2):
        pool.submit(_sleep, 60.0)
    deadline = time.monotonic() + 60
    while len(pool._processes) < 2 and time.monotonic() < deadline:  # type: ignore[attr-defined]
        time.sleep(0.05)
    hidden = pool._processes.pop(next(iter(pool._processes)))  # type: ignore[attr-defined]
    assert hidden not in pool_processes(pool) and hidden in pool_processes(pool, spared)
    began = time.monotonic()
    stop_workers(pool, spared=spared)
    assert not hidden.is_alive() and time.monotonic() - began < 10
    assert not [p for p in multiprocessing.active_children() if p is hidden]


def test_a_stopped_pools_workers_read_as_ended_whoever_reaped_them() -> None:
    # The pool's manager thread joins the same workers after a shutdown; when its waitpid wins, ours returns
    # with no exit code. Before stop_workers waited for the code, about one stop in fifteen here read a worker
    # as alive (seen first as a web-bots failure in CI), so thirty stops find the race nearly every run.
    from mustamaija.workers import WorkerPool, pool_processes

    for _ in range(30):
        pool = WorkerPool(1)
        assert pool.executor.submit(pow, 2, 10).result() == 1024
        workers = pool_processes(pool.executor, pool.spared)
        pool.stop()
        assert len(workers) == 1 and not workers[0].is_alive() and workers[0].exitcode is not None

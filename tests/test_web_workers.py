"""Searches run in worker processes, one at a time per table, and a stopped server leaves no child behind.

Regression tests of the web hardening issue: hints and search bots shared a
two-thread pool with the cheap bots (two hints at one table slowed every
other table's bots tenfold), and after SIGTERM a search worker and the
resource tracker outlived the server.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import signal
import time
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import httpx
import pytest

from mustamaija.web.bots import BotRunner
from mustamaija.web.testing import ServerProcess

PAUSE = 0.4


def napping_worker(seconds: float) -> tuple[int, float, float]:
    """Sleep in the worker process; return its process id and when the nap began and ended."""
    start = time.time()
    time.sleep(seconds)
    return os.getpid(), start, time.time()


def test_each_table_has_one_search_at_a_time_in_the_worker_processes() -> None:
    async def go() -> tuple[list[tuple[int, float, float]], list[tuple[int, float, float]]]:
        runner = BotRunner(workers=2)
        try:
            same = await asyncio.gather(*(runner.search("one table", napping_worker, PAUSE) for _ in range(3)))
            others = await asyncio.gather(*(runner.search(f"table {i}", napping_worker, 0.01) for i in range(4)))
            assert not runner._turns, "finished tables leave no lock behind"
            return list(same), list(others)
        finally:
            runner.close()

    same, others = asyncio.run(go())
    assert os.getpid() not in {pid for pid, _, _ in same + others}, "searches run in worker processes, not in the server"
    spans = sorted((start, end) for _, start, end in same)
    for (_, end), (start, _) in itertools.pairwise(spans):
        assert start >= end - 0.01, "two searches of one table ran side by side"


def _children(pid: int) -> set[int]:
    """Return the processes whose parent is ``pid`` (from /proc)."""
    out = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            out.add(int(entry.name))
    return out


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def test_sigterm_stops_the_server_and_every_child_while_a_search_bot_thinks(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "term.sqlite3").start()
    assert server.proc is not None
    try:
        seats = [{"kind": "bot", "bot": "pimc:time=2"}, {"kind": "bot", "bot": "pimc:time=2"}]
        r = httpx.post(f"{server.url}api/tables", json={"players": 2, "seats": seats, "sit": False}, timeout=10)
        assert r.status_code == 201, r.text
        deadline = time.monotonic() + 30
        children: set[int] = set()
        while time.monotonic() < deadline and len(children) < 2:  # A search worker and the resource tracker.
            children = _children(server.proc.pid)
            time.sleep(0.2)
        assert children, "the search bot never started a worker process"
        time.sleep(0.5)  # Let the worker get into a search.
        server.proc.send_signal(signal.SIGTERM)
        server.proc.wait(20)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and any(_alive(pid) for pid in children):
            time.sleep(0.1)
        assert not [pid for pid in children if _alive(pid)], "a child of the server outlived it"
    finally:
        server.stop()


def dying_worker() -> None:
    """End the worker process at once, as the system's memory killer would."""
    os._exit(9)


def test_a_search_worker_that_dies_is_replaced_and_the_search_runs_again() -> None:
    # A dead worker breaks its whole pool: without a new pool, every later search bot and hint of the server
    # would fail (the bots falling back to random play) until a restart.
    async def go() -> tuple[int, int, int]:
        runner = BotRunner(workers=1)
        try:
            first, _, _ = await runner.search("a table", napping_worker, 0.0)
            pool = runner._processes
            assert pool is not None
            broken = pool.executor
            with pytest.raises(BrokenProcessPool):  # Run again in a new pool, it dies there too: its caller is told.
                await runner.search("another table", dying_worker)
            second, _, _ = await runner.search("a table", napping_worker, 0.0)
            assert runner._processes is not None and runner._processes.executor is not broken
            third, _, _ = await runner.search("a table", napping_worker, 0.0)
            return first, second, third
        finally:
            runner.close()

    first, second, third = asyncio.run(go())
    assert first != second == third, "a new worker took over, and it stays"


@pytest.mark.parametrize("per_call", [False, True], ids=["the runner's timeout", "the call's own timeout"])
def test_a_search_past_its_timeout_has_its_stuck_worker_replaced(per_call: bool) -> None:
    # A stuck worker would hold its table's turn, and with one worker every table's search bots, for good.
    # A bot's move has a timeout of its own, far below a review's: the call's own applies.
    async def go() -> tuple[int, int, float]:
        runner = BotRunner(workers=1, timeout=300 if per_call else 0.5)
        try:
            stuck, _, _ = await runner.search("a table", napping_worker, 0.0)
            started = time.monotonic()
            with pytest.raises(TimeoutError):
                await runner.search("a table", napping_worker, 30.0, timeout=0.5 if per_call else None)
            waited = time.monotonic() - started
            fresh, _, _ = await runner.search("a table", napping_worker, 0.0)
            assert not runner._turns and not runner._began, "the table's turn is free again, and nothing is left"
            return stuck, fresh, waited
        finally:
            runner.close()

    stuck, fresh, waited = asyncio.run(go())
    assert stuck != fresh and waited < 10, "the stuck worker was stopped and a new one took over"
    assert not _alive(stuck), "the stuck worker is gone"


def test_searches_waiting_behind_others_are_not_taken_for_stuck() -> None:
    # Four tables' searches of 0.5 s on one worker with a 0.8 s limit: the last is done 2 s after it was asked for,
    # having waited behind the others, which is a busy server's queue, not a stuck worker. The pool hands its worker
    # one call ahead, so a search is "running" by the executor's account while the one before it runs: only the
    # worker knows when it begins, and the time counts from then.
    async def go() -> list[tuple[int, float, float]]:
        runner = BotRunner(workers=1, timeout=0.8)
        try:
            await runner.search("warm-up", napping_worker, 0.0)
            naps = list(await asyncio.gather(*(runner.search(f"table {i}", napping_worker, 0.5) for i in range(4))))
            assert not runner._began, "every search's start is forgotten once it ends"
            return naps
        finally:
            runner.close()

    naps = asyncio.run(go())
    assert len({pid for pid, _, _ in naps}) == 1, "one worker ran them all: its pool was never replaced"
    assert max(end for _, _, end in naps) - min(start for _, start, _ in naps) > 1.9, "they ran one after another"

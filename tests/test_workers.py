"""Stopping a :class:`~mustamaija.workers.WorkerPool` lets its owner exit, however its workers ended."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

from mustamaija.workers import WorkerPool

# A worker killed while it sends a result leaves half a message in the result pipe: the pool's manager thread
# waits in recv() for the rest, and the interpreter joins that thread at exit. The worker below puts the pipe in
# that state on purpose (a length header and part of the message, then death), which a stopped tournament hit
# about once in ten Ctrl-Cs under load.
_HALF_SENT = textwrap.dedent("""
    import os, signal, struct, sys
    from mustamaija.workers import WorkerPool, pool_processes

    def die_halfway_through_the_result():
        results = sys._getframe(1).f_locals["result_queue"]  # concurrent.futures' worker loop, our caller
        os.write(results._writer.fileno(), struct.pack("!i", 1 << 20) + b"part of a result")
        os.kill(os.getpid(), signal.SIGKILL)

    if __name__ == "__main__":
        pool = WorkerPool(1)
        future = pool.executor.submit(die_halfway_through_the_result)
        for worker in pool_processes(pool.executor):
            worker.join()  # Dead, with the part of its result in the pipe: the manager thread reads it and waits.
        pool.stop()
        print("stopped", flush=True)
""")


def test_the_owner_exits_after_a_worker_died_halfway_through_sending_a_result(tmp_path: Path) -> None:
    script = tmp_path / "half_sent.py"  # A file, not -c: spawned workers import the owner's main module.
    script.write_text(_HALF_SENT, encoding="utf-8")
    child = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        out, err = child.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        child.kill()
        out, err = child.communicate()
        raise AssertionError(f"the owner hung at exit after stopping its pool: {out!r} {err!r}") from None
    assert child.returncode == 0 and out == "stopped\n", (child.returncode, out, err)


def test_a_stopped_pool_has_no_manager_thread_left_for_the_exit_hook() -> None:
    # At interpreter exit concurrent.futures writes to each pool manager's wake-up pipe without a lock, while a
    # manager still ending closes that pipe: the hook then failed with EBADF after a Ctrl-C'd tournament. Once
    # stop() returns, the manager has ended and closed it, so the hook finds it closed and writes nothing.
    pool = WorkerPool(2)
    assert pool.executor.submit(sum, [1, 2]).result(timeout=60) == 3
    manager = pool.executor._executor_manager_thread  # type: ignore[attr-defined]
    wakeup = pool.executor._executor_manager_thread_wakeup  # type: ignore[attr-defined]
    assert manager is not None and manager.is_alive()
    pool.executor.submit(sum, [3, 4])
    pool.stop()
    assert not manager.is_alive() and wakeup._closed
    wakeup.wakeup()  # What the exit hook does: a closed wake-up is left alone.

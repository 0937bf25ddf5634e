"""Progress displays of the long commands, on :mod:`rich.progress` (standard error, only on a terminal).

    with deal_progress("tournament") as progress:   # a ProgressFn, or None when stderr is not a terminal
        run_tournament(settings, progress=progress)

A tournament's progress is reported in deals, on every backend (the local
pool and Ray report each finished game). The benchmark's sections are
reported with :func:`section_progress`, which never refreshes from a thread
of its own: the benchmark measures this process's CPU time, and a refresh
thread would be counted in it.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from typing import Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

__all__ = ["deal_progress", "section_progress"]


def _console() -> Console | None:
    return Console(stderr=True) if sys.stderr.isatty() else None


@contextlib.contextmanager
def deal_progress(what: str) -> Iterator[Any]:
    """Yield a ``progress(done, total)`` function drawing a bar of deals, or ``None`` when stderr is no terminal."""
    console = _console()
    if console is None:
        yield None
        return
    with Progress(TextColumn(f"[bold]{what}"), BarColumn(), MofNCompleteColumn(), TextColumn("deals"),
                  TaskProgressColumn(), TimeElapsedColumn(), TextColumn("eta"), TimeRemainingColumn(),
                  console=console) as bar:
        task = bar.add_task(what, total=None)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield progress


@contextlib.contextmanager
def section_progress(sections: int) -> Iterator[Any]:
    """Yield ``step(name)``, which shows the benchmark section now measured (no refresh thread); or a no-op."""
    console = _console()
    if console is None:
        yield lambda _name: None
        return
    with Progress(TextColumn("[bold]bench"), BarColumn(), MofNCompleteColumn(), TextColumn("{task.description}"),
                  console=console, transient=True, auto_refresh=False) as bar:
        task = bar.add_task("", total=sections)
        started = False

        def step(name: str) -> None:
            nonlocal started
            bar.update(task, advance=1 if started else 0, description=name)
            started = True
            bar.refresh()

        yield step

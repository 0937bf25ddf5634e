"""A point where a long compiled loop lets Python run pending signal handlers.

The interpreter runs a signal's Python handler between two bytecode
instructions. Code compiled by mypyc has no bytecode: a handler waits until the
compiled code next calls into interpreted code, which a tight search may not do
for seconds. The timer of :func:`mustamaija.search.time_limit.time_limit`
would then stop a solve far later than asked. So a compiled search calls
:func:`poll` every :data:`POLL_EVERY` positions, and this module is never
compiled (tests/test_builds.py checks it).

>>> poll() is None
True
"""

from __future__ import annotations

from typing import Final

__all__ = ["POLL_EVERY", "poll"]

POLL_EVERY: Final = 1024
"""Positions a search visits between two calls of :func:`poll` (a power of two, tested with a mask)."""


def poll() -> None:
    """Do nothing: entering this interpreted function is where the interpreter runs any pending signal handler."""

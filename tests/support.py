"""Helpers shared by the test modules: how many seeded deals to play, a cheap check that a step is refused, seeded deals.

``MUSTAMAIJA_TEST_SCALE`` multiplies the deal counts of the randomised tests
(default 1, sized for CI's budget). A soak runs more of them, for example
``MUSTAMAIJA_TEST_SCALE=10 python -m pytest tests/test_invariants.py``; the
pure-build reruns of tests/test_builds.py run fewer, since the differential
test there already holds the two builds to the same play. The seeds do not
depend on the scale, so a larger scale plays the same deals and more.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from mustamaija.core.errors import IllegalActionError

SCALE_ENV = "MUSTAMAIJA_TEST_SCALE"


def _scale() -> float:
    text = os.environ.get(SCALE_ENV, "1")
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"{SCALE_ENV}={text!r} is not a number") from None
    if not 0 < value <= 1000:
        raise ValueError(f"{SCALE_ENV}={text!r} is not in (0, 1000]")
    return value


SCALE = _scale()


def scaled(count: int, least: int = 1) -> int:
    """Return ``count`` times the scale, rounded, and at least ``least`` (what the test needs to mean anything)."""
    return max(least, round(count * SCALE))


def refusal(method: Callable[[Any], object], arg: Any) -> IllegalActionError | None:
    """Return the ``IllegalActionError`` that ``method(arg)`` raises, or ``None`` if it raises none.

    The loops that try every step of every state use this rather than
    ``pytest.raises``, which costs about ten times as much per call.
    """
    try:
        method(arg)
    except IllegalActionError as e:
        return e
    return None


def action_starts(players: int, seed: int, rules: Any, bot: str) -> list[Any]:
    """Play a seeded Mustamaija deal of ``bot`` players; return the state at the start of every action (a copy each)."""
    from mustamaija import State
    from mustamaija.players.registry import make_bot

    s = State.from_seed(players=players, seed=seed, rules=rules)
    bots = [make_bot(bot, seed * 7 + k) for k in range(players)]
    starts = []
    while not s.is_over:
        if not s.in_progress:
            starts.append(s.copy())
        s.apply(bots[s.to_act].act(s.view(s.to_act)))
    return starts


def preset_fits(preset: str, players: int) -> bool:
    """Return whether the Mustamaija rule preset ``preset`` can be played by ``players``."""
    from mustamaija.core.errors import RulesError
    from mustamaija.games.mustamaija.rules import Rules

    try:
        Rules.preset(preset).check_players(players)
    except RulesError:
        return False
    return True

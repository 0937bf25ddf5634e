"""Playing a deal out between players, for every game: each is asked for a step with its seat's view.

This is the one loop that the tournament, ``mustamaija demo`` and the game
packages' own drivers use. An open-hand bot (``sees_all``) is given a copy of
the true state instead of a view; a player of whole actions is expected to
come wrapped already (:func:`~mustamaija.players.whole.as_step_player`, which
:func:`~mustamaija.players.registry.make_bot` applies).

>>> from mustamaija.core.registry import games
>>> from mustamaija.players.random import RandomPlayer
>>> for game in games():
...     s = game.deal(4, seed=7)
...     decisions, seconds = play_out(s, [RandomPlayer(seed=seat) for seat in range(4)])
...     print(s.is_over, len(decisions), sum(decisions) >= len(s.actions()))
True 4 True
True 4 True
"""

from __future__ import annotations

import operator
import time
from collections.abc import Sequence
from typing import Any

from mustamaija.core.errors import IllegalActionError, MustamaijaError
from mustamaija.players.registry import sees_all

__all__ = ["next_action", "play_out"]


def play_out(state: Any, players: Sequence[Any], *, names: Sequence[str] | None = None,
             where: str = "") -> tuple[list[int], list[float]]:
    """Play ``state`` to its end in place, ``players[seat]`` choosing for each seat; return decisions and CPU seconds by seat.

    A step that is not legal stops play with a :class:`MustamaijaError`
    naming the player (``names[seat]``, else its ``name``), its seat and
    ``where`` (such as ``" in deal 3"``); the state is left as it was before that step.
    """
    n = state.players
    if len(players) != n:
        raise ValueError(f"{n} seats need {n} players, got {len(players)}")
    open_hand = [sees_all(p) for p in players]
    decisions = [0] * n
    seconds = [0.0] * n
    clock = time.process_time  # CPU time of this process: a busy machine disturbs it little.
    while not state.is_over:
        seat = state.to_act
        player = players[seat]
        t0 = clock()
        step = player.act_open(state.copy()) if open_hand[seat] else player.act(state.view(seat))
        seconds[seat] += clock() - t0
        decisions[seat] += 1
        try:
            if step.__class__ is not int:
                step = _as_step(step)
            state.apply(step)
        except IllegalActionError as e:
            name = names[seat] if names is not None else getattr(player, "name", type(player).__name__)
            raise MustamaijaError(f"bot {name!r} in seat {seat} chose an illegal step {step!r}{where}: {e}") from None
    return decisions, seconds


def next_action(state: Any, player: Any) -> Any:
    """Return the compound action ``player`` completes for the seat to act, asked step by step with its views.

    The steps are played on a copy: ``state`` is left as it was.

    >>> from mustamaija.core.registry import games
    >>> from mustamaija.players.random import RandomPlayer
    >>> s = next(iter(games())).deal(3, seed=2)
    >>> action = next_action(s, RandomPlayer(seed=1))
    >>> action.seat == s.to_act, len(s.actions())
    (True, 0)
    """
    seat = state.to_act
    work = state.copy()
    work.apply(player.act(work.view(seat)))
    while work.in_progress:  # the compound action is complete when no steps of it are pending
        work.apply(player.act(work.view(seat)))
    return work.last_action()


def _as_step(choice: Any) -> int:
    """Return a step given as another integer type (numpy's); anything else is no step."""
    try:
        return operator.index(choice)
    except TypeError:
        raise IllegalActionError("steps", "it is not a step (a player that returns whole actions sets "
                                 "whole_actions = True)") from None

"""Whole-action players: a player may return whole actions (a lead, a defence, a pass), and the stack turns them into steps.

Every driver (the tournament, the terminal, the web tables, the research
adapters) asks a player for one *step* at a time. A player that thinks in
compound actions, the actions records hold, sets ``whole_actions = True``
and returns such an action from ``act(view)`` (it may still return a plain
step, an ``int``, whenever it likes). :func:`~mustamaija.players.registry.make_bot`
then hands out a :class:`WholeActionPlayer` around it: on the first step of
an action it samples a state consistent with the view
(:meth:`~mustamaija.core.protocol.Game.sample`), turns the action into steps
with :meth:`~mustamaija.core.protocol.Game.action_steps`, checks every step on
that state, and gives the steps one a call. The steps of one's own action
depend only on what the actor knows, so any consistent state gives the same.

A player that takes the first legal path to a whole action, in any game:

>>> import random
>>> from mustamaija.core.registry import games
>>> class FirstWhole:
...     name = "first"
...     whole_actions = True
...     def __init__(self, game):
...         self.game, self.rng, self.chosen = game, random.Random(1), []
...     def act(self, view):
...         s = self.game.sample(view, self.rng)
...         s.apply(s.legal_actions()[0])
...         while s.in_progress:  # until no step of the action is pending
...             s.apply(s.legal_actions()[0])
...         self.chosen.append(s.last_action())
...         return self.chosen[-1]
>>> for game in games():
...     bots = [FirstWhole(game) for seat in range(3)]
...     players = [as_step_player(bot, game, seed=seat) for seat, bot in enumerate(bots)]
...     s = game.deal(3, seed=2)
...     while not s.is_over:
...         s.apply(players[s.to_act].act(s.view(s.to_act)))
...     print(type(players[0]).__name__, all([a for a in s.actions() if a.seat == seat] == bot.chosen
...                                           for seat, bot in enumerate(bots)))
WholeActionPlayer True
WholeActionPlayer True
"""

from __future__ import annotations

import random
from typing import Any

from mustamaija.core.errors import IllegalActionError
from mustamaija.core.protocol import Game
from mustamaija.core.registry import get_game

__all__ = ["WholeActionPlayer", "as_step_player", "takes_whole_actions"]


def takes_whole_actions(player: object) -> bool:
    """Return whether a player says it returns whole actions (its attribute ``whole_actions`` is true)."""
    return bool(getattr(player, "whole_actions", False))


class WholeActionPlayer:
    """A step player around a player that returns whole compound actions (or steps) from ``act``."""

    def __init__(self, player: Any, game: str | Game, seed: int = 0) -> None:
        self.player = player
        self.game = get_game(game)
        self.name: str = getattr(player, "name", type(player).__name__)
        self._rng = random.Random(seed)
        self._queue: list[int] = []

    @property
    def sees_all(self) -> bool:
        """Return whether the player inside is an open-hand bot (then drivers call :meth:`act_open`)."""
        return bool(getattr(self.player, "sees_all", False))

    def __getattr__(self, name: str) -> Any:
        # Parameters and statistics of the player inside stay readable through the wrapper.
        if name == "player":
            raise AttributeError(name)
        return getattr(self.player, name)

    def act(self, view: Any) -> int:
        """Return the next step of the player's action for ``view.seat``, asking it for a new action when none is under way."""
        if self._queue and view.legal_mask() >> self._queue[0] & 1:
            return self._queue.pop(0)
        self._queue = []
        choice = self.player.act(view)
        if isinstance(choice, int):
            return choice
        return self._start(self.game.sample(view, self._rng), choice)

    def act_open(self, state: Any) -> int:
        """Return the next step of an open-hand player's action, computed on the true state."""
        if self._queue and state.can_step(self._queue[0]):
            return self._queue.pop(0)
        self._queue = []
        choice = self.player.act_open(state)
        if isinstance(choice, int):
            return choice
        return self._start(state.copy(), choice)

    def _start(self, state: Any, action: Any) -> int:
        """Turn ``action`` into steps checked on ``state`` (which they change); queue all but the first."""
        try:
            steps = self.game.action_steps(state, action)
            for step in steps:
                state.apply(step)
        except IllegalActionError as e:
            raise IllegalActionError(e.rule, f"{self.name} chose {action}: {e.detail}") from None
        if not steps:
            raise IllegalActionError("steps", f"{self.name} chose {action}, which takes no step")
        self._queue = steps[1:]
        return steps[0]


def as_step_player(player: Any, game: str | Game, seed: int = 0) -> Any:
    """Return ``player`` as a step player: wrapped in a :class:`WholeActionPlayer` if it returns whole actions."""
    if takes_whole_actions(player) and not isinstance(player, WholeActionPlayer):
        return WholeActionPlayer(player, game, seed)
    return player

"""Bots from outside the package, as a user would write them: a plain module on the path, no registration.

``FirstLegal`` plays every game, a step at a time. ``WholeDefender`` and
``WholePasser`` return whole compound actions (``whole_actions = True``),
each for one game (``games``); the stack turns their actions into steps.
"""

from __future__ import annotations

from typing import Any

from mustamaija.core.cards import cards_of
from mustamaija.games.black_maria.actions import Pass, Play
from mustamaija.games.mustamaija.actions import DECLARE, Beat, Lead


class FirstLegal:
    """Plays the lowest legal step, in any game."""

    name = "first-legal"

    def __init__(self, seed: int = 0, offset: int = 0) -> None:
        self.seed = seed
        self.offset = offset

    def act(self, view: Any) -> int:
        legal = view.legal_actions()
        return int(legal[min(self.offset, len(legal) - 1)])


class WholeDefender:
    """Mustamaija in whole actions: leads its lowest card with the next of its suit, beats every card it can."""

    name = "whole-defender"
    whole_actions = True
    games = ("mustamaija",)

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.returned: list[Any] = []

    def act(self, view: Any) -> Any:
        self.returned.append(self._choose(view))
        return self.returned[-1]

    def _choose(self, view: Any) -> Any:
        declares = [s for s in view.legal_actions() if s >= DECLARE]
        if declares:
            return declares[0]  # A plain step now and then is allowed too.
        if view.phase == 0:
            low = cards_of(view.hand)[0]
            same = [c for c in cards_of(view.hand) if c // 13 == low // 13]
            return Lead(view.seat, sum(1 << c for c in same[:min(2, view.limit)]))
        pairs: dict[int, int] = {}
        used = 0
        for led in cards_of(view.led):
            free = view.beaters(led) & ~used
            if free:
                beater = cards_of(free)[0]
                pairs[led] = beater
                used |= 1 << beater
        return Beat.of(view.seat, pairs)


class WholePasser:
    """Black Maria in whole actions: passes its highest cards and plays its lowest legal card."""

    name = "whole-passer"
    whole_actions = True
    games = "black-maria"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.returned: list[Any] = []

    def act(self, view: Any) -> Any:
        if view.phase == 0:
            self.returned.append(Pass(view.seat, sum(1 << c for c in cards_of(view.hand)[-view.pass_count:])))
        else:
            self.returned.append(Play(view.seat, view.legal_actions()[0]))
        return self.returned[-1]

"""Drivers: play one hand or a whole game (B8) between players, each seeing only its own view.

>>> from mustamaija.games.black_maria.players import HeuristicPlayer
>>> from mustamaija.players.random import RandomPlayer
>>> bots = [HeuristicPlayer(), RandomPlayer(seed=1), RandomPlayer(seed=2), RandomPlayer(seed=3)]
>>> out = play_hand(bots, seed=7)
>>> sum(out.points), len(out.record.actions)
(43, 56)
>>> game = run_match(bots, seed=7, rules=Rules(hands=3, target_score=None))
>>> len(game.hands), sum(game.totals)
(3, 129)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from mustamaija.games.black_maria.deals import shuffled_deck
from mustamaija.games.black_maria.match import Match
from mustamaija.games.black_maria.record import Record
from mustamaija.games.black_maria.rules import Rules
from mustamaija.games.black_maria.state import State
from mustamaija.players.play import play_out

if TYPE_CHECKING:
    from mustamaija.core.protocol import Player

__all__ = ["GameOutcome", "HandOutcome", "play_hand", "play_state", "run_match"]


@dataclass(frozen=True)
class HandOutcome:
    """The end of one hand: each seat's penalty points (reneges included) and the hand's record."""

    points: tuple[int, ...]
    record: Record


@dataclass(frozen=True)
class GameOutcome:
    """The end of a game (B8): every hand's outcome, the totals and the winning seats."""

    hands: tuple[HandOutcome, ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...]


def play_state(state: State, bots: Sequence[Player]) -> State:
    """Play ``state`` to the end in place, asking ``bots[seat]`` for each step with that seat's view (:func:`play_out`)."""
    play_out(state, bots)
    return state


def play_hand(bots: Sequence[Player], seed: int | str, rules: Rules | None = None,
              dealer: int | None = None) -> HandOutcome:
    """Deal a hand from ``seed`` (as :meth:`State.from_seed`) and play it out; return the points and record."""
    state = play_state(State.from_seed(len(bots), seed, rules, dealer), bots)
    return HandOutcome(tuple(state.points()), Record.from_state(state, seed=seed))


def run_match(bots: Sequence[Player], seed: int | str, rules: Rules | None = None,
              first_dealer: int | None = None) -> GameOutcome:
    """Play a whole game (B8) with decks and first dealer drawn from ``random.Random(seed)``."""
    rng = random.Random(seed)
    n = len(bots)
    match = Match(n, rules or Rules(), rng.randrange(n) if first_dealer is None else first_dealer)
    hands = []
    while not match.over:
        state = play_state(match.next_hand(shuffled_deck(n, rng)), bots)
        result = match.finish_hand(state)
        hands.append(HandOutcome(result.points, Record.from_state(state)))
    return GameOutcome(tuple(hands), tuple(match.totals), tuple(match.winners()))

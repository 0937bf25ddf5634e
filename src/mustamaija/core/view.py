"""What every game's ``View`` shares: whose turn it is, the legal steps, the hand as text, and the seat check.

A game's view is a frozen dataclass that subclasses :class:`ViewBase` and
holds what the seat may know; its ``legal_mask`` applies the same legality
functions as the state, so a bot acting on a view sees the engine's steps.

>>> from mustamaija.core.registry import DEFAULT_GAME, get_game
>>> s = get_game(DEFAULT_GAME).deal(4, seed=3)
>>> v = s.view(s.to_act)
>>> v.my_turn, v.is_over, v.legal_actions() == s.legal_actions(), len(v.hand_text().split()) == len(v.legal_actions())
(True, False, True, True)
>>> check_seat(4, 4)
Traceback (most recent call last):
...
ValueError: no seat 4 with 4 players
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mustamaija.core.cards import card_symbol, cards_of

__all__ = ["ViewBase", "check_seat"]


def check_seat(seat: object, players: int) -> int | None:
    """Return ``seat`` if it is a seat of the table or ``None`` (a spectator); else raise ``ValueError``."""
    if seat is None or (type(seat) is int and 0 <= seat < players):
        return seat
    raise ValueError(f"no seat {seat!r} with {players} players")


@dataclass(frozen=True, slots=True)
class ViewBase:
    """What every view holds, and what only needs its seat, its hand, whose turn it is and its legal mask.

    A game's view is a frozen dataclass subclassing this one with the facts of its game; its
    visibility function passes these fields first, by position (the fastest call).
    """

    seat: int | None
    """The viewing seat; ``None`` for a spectator."""
    rules: Any
    """The rule set."""
    players: int
    """The number of seats."""
    hand_sizes: tuple[int, ...]
    """Every seat's number of cards (public)."""
    dealer: int
    """The dealer's seat."""
    phase: int
    """The phase (the game's ``Phase``)."""
    to_act: int
    """The seat to act; -1 once the deal is over."""
    known: tuple[int, ...]
    """The cards known to be in each seat's hand (the viewer's: those the others know too, or its whole hand)."""
    hand: int
    """The viewer's hand as a mask (0 for a spectator)."""
    unseen: int
    """The cards whose place the viewer does not know."""

    def legal_mask(self) -> int:
        """Return the viewer's legal steps as a mask (0 unless it is the viewer's turn)."""
        raise NotImplementedError

    @property
    def is_over(self) -> bool:
        """Return whether the deal is over."""
        return self.to_act < 0

    @property
    def my_turn(self) -> bool:
        """Return whether the viewing seat is to act."""
        return self.seat is not None and self.seat == self.to_act

    def legal_actions(self) -> list[int]:
        """Return the legal steps in rising order (empty unless it is the viewer's turn)."""
        return cards_of(self.legal_mask())

    def hand_text(self) -> str:
        """Return the viewer's hand with suit signs."""
        return " ".join(card_symbol(c) for c in cards_of(self.hand))

"""The heuristic Black Maria player: the strategy notes of docs/black-maria.md as a few scored rules.

Passing (B3): pass Q♠, K♠ and A♠ (unless Q♠ is guarded by four or more low
spades), high hearts, then aces and kings and the cards of a short suit that
passing can void. Playing: when unable to follow, throw Q♠, then K♠ and A♠,
then the highest heart, then the highest card of the shortest suit; when
following, play the highest card that still loses the trick, dropping Q♠
under A♠ or K♠; when forced to win, win high with a card that carries no
penalty; when leading, lead the card least likely to win, small hearts
only when nothing else is left, and low spades to flush Q♠ out while
holding neither Q♠, K♠ nor A♠.

The same rules serve two masters: :class:`HeuristicPlayer` reads a view, and
:func:`heuristic_step` reads a state (only its actor's hand and the public
facts) as a fast rollout policy for search.

>>> from mustamaija.games.black_maria import State
>>> s = State.from_seed(players=4, seed=3)
>>> p = HeuristicPlayer()
>>> while not s.is_over:
...     s.apply(p.act(s.view(s.to_act)))
>>> sum(s.points())
43
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from mustamaija.core.bits import popcount
from mustamaija.core.cards import HEARTS, SPADES, SUIT_MASKS, cards_of
from mustamaija.games.black_maria.legality import PENALTY, penalty_of
from mustamaija.games.black_maria.rules import in_play
from mustamaija.games.black_maria.state import PASS, State
from mustamaija.games.black_maria.view import View

__all__ = ["HeuristicPlayer", "heuristic_step", "pass_choice", "pass_order", "play_choice"]

QS: Final = 10
KS: Final = 11
AS: Final = 12
_IN_PLAY: Final = {n: in_play(n) for n in range(3, 8)}
_DUMP_ORDER: Final = {QS: 300, KS: 200, AS: 150}


def pass_choice(hand: int, count: int, tie: Sequence[float] | None = None) -> int:
    """Return the mask of the ``count`` cards to pass from ``hand`` (B3, strategy notes).

    ``tie`` gives every card a key that orders cards of equal score (none:
    the higher card first); the other choices below take it too.
    """
    mask = 0
    for c in pass_order(hand, count, tie)[:count]:
        mask |= 1 << c
    return mask


def pass_order(hand: int, count: int, tie: Sequence[float] | None = None) -> list[int]:
    """Return the cards of ``hand`` from the most to the least worth passing when passing ``count`` (see :func:`pass_choice`).

    >>> from mustamaija.core.cards import card_name, cards_mask
    >>> " ".join(card_name(c) for c in pass_order(cards_mask("QS 2S AH 3H 9D KC 5C"), 3))
    'QS AH KC 9D 5C 3H 2S'
    """
    spades = hand & SUIT_MASKS[SPADES]
    low_spades = popcount(spades & ((1 << QS) - 1))
    guarded = low_spades >= 4
    suit_len = [popcount(hand & SUIT_MASKS[s]) for s in range(4)]
    # The shortest side suit that the pass can empty, to leave a void to throw penalties into.
    short = [s for s in (2, 3) if 0 < suit_len[s] <= count]
    void_suit = min(short, key=lambda s: (suit_len[s], s)) if short else -1
    scores = []
    for c in cards_of(hand):
        suit, rank = divmod(c, 13)
        if c in (QS, KS, AS):
            score = 20.0 if guarded else 100.0 - (c == AS) * 10
        elif suit == HEARTS:
            score = 10.0 + 5 * rank if rank >= 7 else float(rank)
        else:
            score = float(rank) + (25 if rank == 12 else 15 if rank == 11 else 0)
            if suit == void_suit:
                score += 12
        scores.append((score, c if tie is None else tie[c], c))
    scores.sort(reverse=True)
    return [c for _, _, c in scores]


def _pass_step(hand: int, sel: int, count: int, tie: Sequence[float] | None = None) -> int:
    want = pass_choice(hand, count, tie) & ~sel
    return (want & -want).bit_length() - 1  # Steps go in rising card order.


def play_choice(hand: int, legal: int, trick: tuple[int, ...], led: int, players: int, played: int,
                tie: Sequence[float] | None = None) -> int:
    """Return the card to play from the public facts and the actor's hand (``tie``: as for :func:`pass_choice`)."""
    if legal & (legal - 1) == 0:
        return legal.bit_length() - 1
    out = _IN_PLAY[players] & ~played & ~hand  # Cards some other seat holds.
    qs_out = bool(out >> QS & 1)
    if led < 0:
        return _lead(hand, legal, out, qs_out, tie)
    follow = hand & SUIT_MASKS[led]
    if not follow:
        return _discard(hand, legal, tie)
    top = max(c for c in trick if c // 13 == led)
    last = len(trick) == players - 1
    under = follow & ((1 << top) - 1)
    if led == SPADES and under >> QS & 1:
        return QS  # Drop Black Maria under a higher spade.
    if under:
        if led == SPADES and qs_out and not last:
            under &= ~(1 << KS) & ~(1 << AS)
            if not under:
                under = follow & ((1 << top) - 1)
        return under.bit_length() - 1
    # Every card we hold wins so far: win as cheaply as possible.
    pts = penalty_of(sum(1 << c for c in trick))
    safe = [c for c in cards_of(follow) if PENALTY[c] == 0]
    if last or (pts == 0 and not (led == SPADES and qs_out)):
        pool = safe or cards_of(follow)
        return max(pool, key=lambda c: (-PENALTY[c], c)) if last else pool[-1]
    pool = safe or cards_of(follow)
    return min(pool, key=lambda c: (PENALTY[c], c))


def _discard(hand: int, legal: int, tie: Sequence[float] | None) -> int:
    suit_len = [popcount(hand & SUIT_MASKS[s]) for s in range(4)]

    def score(c: int) -> tuple[float, float]:
        # Without tie keys the lower card wins a tie (the first maximum).
        second = -c if tie is None else tie[c]
        if c in _DUMP_ORDER:
            return _DUMP_ORDER[c], second
        if c // 13 == HEARTS:
            return 100 + c % 13, second
        return c % 13 - 2 * suit_len[c // 13], second

    return max(cards_of(legal), key=score)


def _lead(hand: int, legal: int, out: int, qs_out: bool, tie: Sequence[float] | None) -> int:
    best, best_cost = -1, (1e9, 0.0)
    holds_high = bool(hand >> KS & 1 or hand >> AS & 1 or hand >> QS & 1)
    for c in cards_of(legal):
        suit, rank = divmod(c, 13)
        others = out & SUIT_MASKS[suit]
        higher = popcount(others >> c) - (others >> c & 1)
        if not others:
            p_win = 1.0  # Everyone else is void: they will throw their penalties on it.
            risk = 8.0
        else:
            p_win = 1.0 / (1 + higher) if higher else 1.0
            risk = 2.0 + popcount(others & SUIT_MASKS[HEARTS]) * 0.1
        cost = p_win * (risk + PENALTY[c])
        if suit == SPADES and qs_out:
            if c > QS:
                cost += 13 * p_win + 6
            elif not holds_high:
                cost -= 1.5  # Flush Black Maria out with a low spade.
        if c == QS:
            cost += 8
        if suit == HEARTS:
            cost += 1 + rank * 0.05
        cost += rank * 0.01
        # Without tie keys the lower card wins a tie (the first minimum).
        key = (cost, c if tie is None else tie[c])
        if key < best_cost:
            best, best_cost = c, key
    return best


class HeuristicPlayer:
    """Plays the strategy notes of docs/black-maria.md from its view alone.

    The seed breaks ties between cards the rules score alike (a 5♣ or a 5♦ to
    throw away), so that equal bots at a table do not all play alike and a
    mirror match tests something. A decision's tie keys come from the seed,
    the seat, the cards played so far and the hand: the same view and seed
    give the same step, whatever came before. Without a seed, ties go by
    card order, as in the search's rollouts (:func:`heuristic_step`).
    """

    name = "heuristic"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    def _tie(self, view: View) -> list[float] | None:
        if self.seed is None:
            return None
        rng = random.Random(hash((self.seed, view.seat, len(view.plays), view.hand)))
        return [rng.random() for _ in range(52)]

    def act(self, view: View) -> int:
        """Return the step the heuristic chooses for ``view.seat``."""
        legal = view.legal_mask()
        if not legal:
            raise ValueError(f"seat {view.seat} has nothing to do: it is seat {view.to_act}'s turn")
        if legal & (legal - 1) == 0:
            return legal.bit_length() - 1
        if view.phase == PASS:
            return _pass_step(view.hand, view.sel, view.pass_count, self._tie(view))
        return play_choice(view.hand, legal, view.trick, view.led, view.players, view.played, self._tie(view))


def heuristic_step(state: State) -> int:
    """Return the heuristic's step for the seat to act, reading only its hand and the public facts (rollouts)."""
    hand = state.hands[state.actor]
    if state.phase == PASS:
        return _pass_step(hand, state.sel, state.k)
    return play_choice(hand, state.legal_mask(), state.trick, state.led, state.n, state.played)

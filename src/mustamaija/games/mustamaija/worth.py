"""What seeing the cards is worth to the search: ``pimc`` dealt part of the truth, against three heuristics.

The open-hand cheater sees the other hands and the talon's order; a fair
player sees neither. To tell which of them the fair search's losses come
from, :func:`play` gives the search's dealer a part of the truth
(:data:`PARTS`): nothing (``fair``, today's ``pimc``; ``uniform`` deals
without the model of what players keep and the play since the talon
emptied, as ``beliefs=off``; ``read`` also reads the other seats' last
actions while the talon lasts), the attacker's hand
when defending while the talon lasts (``attacker``), the hand of the seat it
leads to while the talon lasts (``target``), or every hand, the talon's
unseen order still dealt at random (``hands``). Every part plays the same
seeded deals with the same seeds, so the parts pair game by game.
docs/strength.md#what-seeing-the-cards-is-worth-part-by-part has the
figures. This is an experiment: the players here read the true state, which
no bot of the registry ever does.

Run ``python -m mustamaija.games.mustamaija.worth --games 1000 --iters 1000``
(``--help`` for the options); it prints each part's losses and, against
``fair``, the games it saved and lost.

>>> from mustamaija import State
>>> s = State.from_seed(players=4, seed=3)
>>> v = s.view(0)
>>> r = revealed(v, s, "hands")
>>> all(r.known[k] == s.hands[k] for k in (1, 2, 3)) and r.unseen == v.unseen & ~(s.hands[1] | s.hands[2] | s.hands[3])
True
>>> revealed(v, s, "attacker") is v  # A lead is under way: no defence, so no attacker to see.
True
>>> kit = TruthKit("target")
>>> kit.truth = s
>>> deal = kit.sampler(v)(random.Random(1))  # Every deal gives the seat led to its true hand.
>>> deal.hands[v.defender] == s.hands[v.defender] and deal.hands[v.attacker] != s.hands[v.attacker]
True
>>> play(7, "hands", iters=40) in (True, False)
True
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from typing import Any, Final

from mustamaija.games.mustamaija.players.heuristic import HeuristicPlayer
from mustamaija.games.mustamaija.players.inference import RECENT, TALON_MISS
from mustamaija.games.mustamaija.players.kit import MustamaijaKit
from mustamaija.games.mustamaija.players.pimc import PIMCPlayer
from mustamaija.games.mustamaija.rules import DEFEND, LEAD
from mustamaija.games.mustamaija.state import State
from mustamaija.games.mustamaija.view import View
from mustamaija.players.play import play_out

__all__ = ["PARTS", "ShownPlayer", "TruthKit", "main", "play", "revealed"]

PARTS: Final = ("fair", "uniform", "read", "attacker", "target", "hands")
"""What the search's dealer is shown: nothing (by the model, or uniformly, or reading the play while the talon lasts
too), the attacker's hand, the target's hand, every hand (module docstring)."""


def revealed(view: View, state: State, part: str) -> View:
    """Return ``view`` with the hands that ``part`` shows known, read from the true ``state`` (``view`` itself if none)."""
    if part == "hands":
        seats = list(range(view.players))
    elif part in ("fair", "uniform", "read") or view.talon_size == 0:
        seats = []
    elif part == "attacker":
        seats = [view.attacker] if view.phase == DEFEND else []
    elif part == "target":
        seats = [view.defender] if view.phase == LEAD else []
    else:
        raise ValueError(f"unknown part {part!r}: one of {', '.join(PARTS)}")
    seats = [s for s in seats if s != view.seat and state.hands[s] & view.unseen]
    if not seats:
        return view
    known = list(view.known)
    unseen = view.unseen
    for s in seats:
        known[s] = state.hands[s]
        unseen &= ~state.hands[s]
    return replace(view, known=tuple(known), unseen=unseen)


class TruthKit(MustamaijaKit):
    """Mustamaija's search kit whose dealer sees the part :attr:`part` of :attr:`truth`, set before every decision."""

    def __init__(self, part: str) -> None:
        super().__init__()
        self.beliefs = part != "uniform"
        self.part = part
        self.truth: State | None = None
        """The true state of the decision under way."""

    def sampler(self, view: View) -> Callable[[random.Random], State]:
        """Return the kit's dealer for ``view`` with the shown hands known."""
        assert self.truth is not None, "set truth before each decision"
        return super().sampler(revealed(view, self.truth, self.part))


class ShownPlayer:
    """``pimc`` with a :class:`TruthKit`: given the true state (``sees_all``), it acts on its seat's view."""

    sees_all = True

    def __init__(self, part: str, iters: int, seed: int, recent: int = RECENT, miss: float = TALON_MISS) -> None:
        self.search = PIMCPlayer(iters=iters, seed=seed)
        self.kit = self.search.kit = TruthKit(part)
        if part == "read":
            self.kit.recent = recent
            self.kit.talon_miss = miss

    def act_open(self, state: State) -> int:
        """Return the search's step from the seat's view, its dealer shown the kit's part of ``state``."""
        self.kit.truth = state
        return self.search.act(state.view(state.to_act))


def play(seed: int, part: str, iters: int = 1000, recent: int = RECENT, miss: float = TALON_MISS) -> bool:
    """Play deal ``seed`` of four players, ``pimc`` in seat ``seed mod 4`` shown ``part``; return whether it lost.

    The deal is ``State.from_seed(4, seed)``, the search is seeded ``seed``
    and the heuristic of seat ``k`` ``8 × seed + k``. The part ``read``
    also weighs the deals by about the last ``recent`` log entries while the
    talon lasts, by ``miss`` (:class:`~.players.inference.TalonEvidence`).
    """
    s = State.from_seed(players=4, seed=seed)
    seat = seed % 4
    players: list[Any] = [HeuristicPlayer(seed=seed * 8 + k) for k in range(4)]
    players[seat] = ShownPlayer(part, iters, seed, recent, miss)
    play_out(s, players)
    return s.loser == seat


def _play(job: tuple[int, str, int, int, float]) -> bool:
    return play(*job)


def main(argv: Sequence[str] | None = None) -> int:
    """Play every part on the same deals and print the losses, paired with ``fair``."""
    parser = argparse.ArgumentParser(prog="python -m mustamaija.games.mustamaija.worth", description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=1000, help="deals 0 .. games-1, one game each (default 1000)")
    parser.add_argument("--iters", type=int, default=1000, help="the search's playouts a decision (default 1000)")
    parser.add_argument("--parts", default=",".join(PARTS), help=f"comma-separated, from {', '.join(PARTS)}")
    parser.add_argument("--jobs", type=int, default=1, help="processes (default 1)")
    parser.add_argument("--recent", type=int, default=RECENT,
                        help=f"the part read: about this many last log entries read while the talon lasts (default {RECENT})")
    parser.add_argument("--talon-miss", type=float, default=TALON_MISS,
                        help=f"the part read: a deal's weight for each action the heuristic would not take (default {TALON_MISS})")
    args = parser.parse_args(argv)
    parts = args.parts.split(",")
    unknown = [p for p in parts if p not in PARTS]
    if unknown or args.games < 1 or args.iters < 1 or args.jobs < 1:
        parser.error(f"unknown parts {unknown}" if unknown else "--games, --iters and --jobs must be at least 1")
    if args.recent < 1 or not 0.0 < args.talon_miss <= 1.0:
        parser.error("--recent must be at least 1, and --talon-miss in (0, 1]")
    results: dict[str, list[bool]] = {}
    with ProcessPoolExecutor(args.jobs) as pool:
        for part in parts:
            jobs = [(g, part, args.iters, args.recent, args.talon_miss) for g in range(args.games)]
            results[part] = list(pool.map(_play, jobs, chunksize=10))
            row = f"{part:9} lost {sum(results[part]):5} of {args.games}"
            if part != "fair" and "fair" in results:
                saved = sum(f and not p for f, p in zip(results["fair"], results[part], strict=True))
                lost = sum(p and not f for f, p in zip(results["fair"], results[part], strict=True))
                row += f"   against fair: saved {saved}, lost {lost}"
            print(row, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

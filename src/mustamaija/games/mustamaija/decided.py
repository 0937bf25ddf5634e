"""Where a tournament's games were decided: the exact solver's verdict at two checkpoints of every game.

A bot that loses a game either lost it in the endgame, from a position it
could have held, or entered the endgame already beaten. Replaying the records
a tournament writes (``mustamaija tournament --out DIR``) tells the two
apart, because once the talon is empty every hand is known to a player who
counts the cards, and the exact solver (:mod:`.solver`) gives the value:

* **The last two.** At the first lead after the talon is empty with only two
  seats holding cards, is the seat safe (it can make sure of not losing)?
  A seat found safe there that lost anyway threw the game away; a seat lost
  there lost it earlier. With two players this is the moment the talon
  empties.
* **Three holders.** At the first lead after the talon is empty with three
  seats holding cards, if they hold at most ``three_cards`` cards: can the
  others together force the seat to lose (the solver's paranoid question)?
  Real opponents are not a team, so a seat "unsafe" here may still escape,
  but a seat found safe that lost made a mistake after this point.

Run ``python -m mustamaija.games.mustamaija.decided DIR`` on a directory of
records; it prints one row per bot spec (``--help`` for the options).

>>> from mustamaija import State
>>> from mustamaija.players.registry import make_bot
>>> s = State.from_seed(players=2, seed=3)
>>> bots = [make_bot("heuristic", 1), make_bot("heuristic", 2)]
>>> while not s.is_over:
...     s.apply(bots[s.to_act].act(s.view(s.to_act)))
>>> v = verdict(Record.from_state(s), 0)
>>> v.last_two in ("safe", "lost"), v.lost == (s.loser == 0)
(True, True)
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from mustamaija.core.records import play_indexed
from mustamaija.games.mustamaija.endgame import EndgameSolver
from mustamaija.games.mustamaija.record import Record
from mustamaija.games.mustamaija.state import LEAD, State

__all__ = ["THREE_CARDS", "Tally", "Verdict", "main", "tally", "verdict", "verdicts"]

THREE_CARDS: Final = 11
"""The largest three-holder position solved by default: 4+4+3 takes the compiled solver well under a second,
while 4+4+4 can take minutes (docs/strength.md, "Bench")."""

_MAX_TABLE: Final = 500_000
"""A solver whose tables grow past this many positions is replaced by a fresh one, to bound the memory."""


@dataclass(frozen=True)
class Verdict:
    """The solver's verdicts on one seat of one game (see the module docstring)."""

    lost: bool
    """Whether the seat lost the game."""
    last_two: str
    """``"out"`` (it had gone out before two holders were left), ``"safe"``, ``"lost"``, or ``"none"``
    (the game never reached a lead with two holders and the talon empty, or a marriage was still to come)."""
    three: bool | None
    """Safe at the first three-holder checkpoint; ``None`` when there was none it took part in, small enough."""


def _safe(solvers: EndgameSolver, state: State, seat: int) -> bool:
    """Return whether ``seat`` can make sure of not losing ``state`` (a talon-empty lead), by the solver for its table."""
    return solvers.solver(state.rules, state.trump, state.n).state_safe(state, seat)


def verdicts(record: Record, three_cards: int = THREE_CARDS, solvers: EndgameSolver | None = None) -> list[Verdict]:
    """Return the solver's verdicts on every seat in the game of ``record`` (the whole game, played to its end).

    The record is replayed once, in place, whatever the number of seats.
    """
    solvers = solvers or EndgameSolver(max_table=_MAX_TABLE)
    state = record.start()
    last_two = ["none"] * state.n
    three: list[bool | None] = [None] * state.n

    def look() -> None:
        if state.phase != LEAD or state.in_progress or state.talon_size or "none" not in last_two:
            return
        if state.rules.trump == "marriage" and state.declarer == -1:
            return  # A marriage could still change the trumps; the checkpoints need fixed trumps.
        sizes = state.hand_sizes()
        holders = sum(1 for n in sizes if n)
        for seat in range(state.n):
            if last_two[seat] != "none":
                continue
            if not sizes[seat]:
                if holders <= 2:
                    last_two[seat] = "out"
            elif holders == 2:
                last_two[seat] = "safe" if _safe(solvers, state, seat) else "lost"
            elif holders == 3 and three[seat] is None and sum(sizes) <= three_cards:
                three[seat] = _safe(solvers, state, seat)

    look()
    for i, action in enumerate(record.actions):
        play_indexed(state, i, action)
        look()
    if not state.is_over:
        raise ValueError("the record's game is not over: only finished games have a verdict")
    return [Verdict(state.loser == seat, last_two[seat], three[seat]) for seat in range(state.n)]


def verdict(record: Record, seat: int, three_cards: int = THREE_CARDS, solvers: EndgameSolver | None = None) -> Verdict:
    """Return the solver's verdicts on ``seat`` in the game of ``record`` (see :func:`verdicts`)."""
    return verdicts(record, three_cards, solvers)[seat]


@dataclass
class Tally:
    """The verdicts of one bot spec over many games: counts, as ``mustamaija.games.mustamaija.decided`` prints them."""

    bot: str
    """The bot spec."""
    games: int = 0
    """Games it played (one seat each)."""
    lost: int = 0
    """Games it lost."""
    counts: dict[str, int] = field(default_factory=dict)
    """``"<last_two>"`` and ``"<last_two>, lost"`` (and the same for ``"three safe"``/``"three unsafe"``) -> games."""

    def add(self, v: Verdict) -> None:
        """Count one game's verdict."""
        self.games += 1
        self.lost += v.lost
        keys = [v.last_two]
        if v.three is not None:
            keys.append("three safe" if v.three else "three unsafe")
        for key in keys:
            self.counts[key] = self.counts.get(key, 0) + 1
            if v.lost:
                self.counts[key + ", lost"] = self.counts.get(key + ", lost", 0) + 1

    def get(self, key: str) -> int:
        """Return a count (0 if never seen)."""
        return self.counts.get(key, 0)

    def row(self) -> str:
        """Return the tally as one line of text."""
        g = self.get
        return (f"{self.bot}: {self.games} games, lost {self.lost}; the last two: out {g('out')}, "
                f"safe {g('safe')} (lost {g('safe, lost')}), lost {g('lost')} (lost {g('lost, lost')}), "
                f"not reached {g('none')} (lost {g('none, lost')}); three holders: safe {g('three safe')} "
                f"(lost {g('three safe, lost')}), unsafe {g('three unsafe')} (lost {g('three unsafe, lost')})")


def tally(records: Iterable[tuple[Record, Sequence[str]]], three_cards: int = THREE_CARDS) -> list[Tally]:
    """Return one :class:`Tally` per bot spec over ``records``, each given with its seats' bot specs."""
    solvers = EndgameSolver(max_table=_MAX_TABLE)
    out: dict[str, Tally] = {}
    for record, bots in records:
        for bot, v in zip(bots, verdicts(record, three_cards, solvers), strict=True):
            out.setdefault(bot, Tally(bot)).add(v)
    return list(out.values())


def _read(directory: str) -> Iterable[tuple[Record, Sequence[str]]]:
    for name in sorted(os.listdir(directory)):
        if name.endswith(".json"):
            with open(os.path.join(directory, name), encoding="utf-8") as f:
                obj: Any = json.load(f)
            bots = obj.get("bots") if isinstance(obj, dict) else None
            if not isinstance(bots, list):
                raise ValueError(f"{name}: a tournament record names its bots ('bots'); this one does not")
            yield Record.from_json(obj), [str(b) for b in bots]


def main(argv: Sequence[str] | None = None) -> int:
    """Print the verdicts of every bot spec over the records in a directory."""
    p = argparse.ArgumentParser(prog="python -m mustamaija.games.mustamaija.decided",
                                description=(__doc__ or "").split("\n")[0])
    p.add_argument("directory", help="a directory of records, as `mustamaija tournament --out DIR` writes them")
    p.add_argument("--three-cards", type=int, default=THREE_CARDS,
                   help=f"solve three-holder positions of at most this many cards (default {THREE_CARDS})")
    p.add_argument("--json", action="store_true", help="print one JSON object per bot spec")
    args = p.parse_args(argv)
    try:
        rows = tally(_read(args.directory), args.three_cards)
    except (OSError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    for t in rows:
        print(json.dumps({"bot": t.bot, "games": t.games, "lost": t.lost, **t.counts}) if args.json else t.row())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Won two-player endgames: a fixed set of positions, and a check of how many a bot converts.

The set holds two-player positions taken at the moment the talon empties
(the attacker about to lead, both hands known to both seats, so the rest of
the deal is a game of perfect information) that the exact solver rates as
won for the side to move. They are mined from seeded games of random and
heuristic players (:func:`mine`) and stored one per line in the one-line
text form of :meth:`Position.to_text` (``endgames.txt`` beside this module).

The check (:func:`check`) plays each position out with the bot under test
for the side to move (the hero) and an opponent, re-solving after every turn.
While the hero is safe no move of the opponent can change that (that is what
safe means), so the opponent plays as the heuristic would; the first turn
after which the solver rates the hero lost is the hero's mistake (its lead or
its defence, whichever it played in that turn), and from there the solver's
best defence keeps the hero lost, so the play-out stops and the position
counts as thrown away. A position is converted when the hero plays every
turn without such a mistake.

Run it with ``python -m mustamaija.games.mustamaija.endgames make|check``
(``--help`` for the options), or call the functions.

>>> report = check(load_positions()[:3], "heuristic")
>>> report.total, report.converted <= report.total
(3, True)
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from mustamaija.core.cards import card_name, cards_of
from mustamaija.games.mustamaija.actions import Beat, Lead
from mustamaija.games.mustamaija.players.heuristic import HeuristicPlayer
from mustamaija.games.mustamaija.position import Position
from mustamaija.games.mustamaija.solver import Solver, solve
from mustamaija.games.mustamaija.state import LEAD, State
from mustamaija.players.random import RandomPlayer
from mustamaija.players.registry import make_bot
from mustamaija.tournament.stats import wilson_interval

__all__ = [
    "DATA_FILE",
    "MINING_WEIGHTS",
    "CheckReport",
    "Failure",
    "check",
    "load_positions",
    "main",
    "mine",
    "talon_empty_positions",
]

DATA_FILE: Final = Path(__file__).with_name("endgames.txt")
"""The stored set: one position per line in the one-line text form; lines starting with ``#`` are comments."""

MAX_SOLVE_S: Final = 1.0
"""A position the solver takes longer than this on (wall-clock) is left out of the set: the check must stay fast."""

LINEUPS: Final = (("random", "random"), ("heuristic", "heuristic"), ("heuristic", "random"), ("random", "heuristic"))
"""The players of the games the set is mined from, by game number modulo 4."""


MINING_WEIGHTS: Final = {"two_card": 1.0, "two_attack": 2.0, "end_push_two": 0.45, "two_gift": 0.0, "two_anchor": 0.0}
"""The heuristic players of the mining games play with these weights, those of the heuristic the set was mined
with (before the two-player endgame terms), so that ``make`` reproduces the stored set whatever the heuristic
becomes."""


def _bot(name: str, seed: int) -> Any:
    return HeuristicPlayer(seed=seed, **MINING_WEIGHTS) if name == "heuristic" else RandomPlayer(seed=seed)


def talon_empty_positions(seed: int) -> Iterator[tuple[State, str]]:
    """Yield the state of game ``seed`` at the moment its talon empties (the next lead to come), with its lineup's name.

    The game is a two-player deal of the default rules, dealt and played from
    ``seed`` by the lineup of :data:`LINEUPS`; nothing is yielded when a
    seat is out before the talon empties.
    """
    lineup = LINEUPS[seed % len(LINEUPS)]
    state = State.from_seed(players=2, seed=seed)
    bots = [_bot(name, seed * 2 + i) for i, name in enumerate(lineup)]
    while not state.is_over:
        if state.talon_size == 0 and state.phase == LEAD and not state.in_progress:
            if all(state.hands):
                yield state, "+".join(lineup)
            return
        state.apply(bots[state.to_act].act(state.view(state.to_act)))


def mine(count: int, seed: int = 0, max_solve_s: float = MAX_SOLVE_S, progress: bool = False) -> tuple[list[str], dict[str, int]]:
    """Return ``count`` distinct won positions (their text form) mined from games ``seed``, ``seed + 1``, ..., and tallies.

    Every position is solved with a stop-watch: one the solver takes longer
    than ``max_solve_s`` on is skipped, as is one it rates as lost for the
    side to move. The tallies count the games, the positions found, the
    slow ones, the lost ones and the duplicates.
    """
    out: list[str] = []
    seen: set[str] = set()
    tally = {"games": 0, "positions": 0, "slow": 0, "lost": 0, "duplicates": 0}
    g = seed
    while len(out) < count:
        tally["games"] += 1
        for state, _ in talon_empty_positions(g):
            tally["positions"] += 1
            text = Position.from_state(state).to_text()
            if text in seen:
                tally["duplicates"] += 1
                continue
            seen.add(text)
            start = time.perf_counter()
            won = solve(state, all_leads=False).attacker_safe
            if time.perf_counter() - start > max_solve_s:
                tally["slow"] += 1
            elif not won:
                tally["lost"] += 1
            else:
                out.append(text)
                if progress and len(out) % 100 == 0:
                    print(f"{len(out)} positions from {tally['games']} games", file=sys.stderr, flush=True)
        g += 1
    return out, tally


def load_positions(path: str | Path = DATA_FILE) -> list[str]:
    """Return the positions of a set file (the stored set by default), in their text form."""
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


@dataclass(frozen=True)
class Failure:
    """A position the bot threw away: the position at the start of the losing turn, and the hero's move in it."""

    index: int
    start: str
    at: str
    move: str


@dataclass(frozen=True)
class CheckReport:
    """How many positions of a set a bot converted, with the Wilson 95% interval and every failure."""

    bot: str
    total: int
    converted: int
    failures: tuple[Failure, ...] = field(default=())
    seconds: float = 0.0

    @property
    def rate(self) -> float:
        """Return the share converted (0 with no positions)."""
        return self.converted / self.total if self.total else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """Return the Wilson 95% interval of the share converted."""
        return wilson_interval(self.converted, self.total)

    def summary(self) -> str:
        """Return the one-line result, as ``check`` prints it."""
        lo, hi = self.interval
        return (f"{self.bot}: converted {self.converted}/{self.total} = {100 * self.rate:.1f}% "
                f"[{100 * lo:.1f}, {100 * hi:.1f}] in {self.seconds:.1f} s")

    def to_json(self) -> dict[str, Any]:
        """Return the report as a JSON object (failures with the position and the move)."""
        lo, hi = self.interval
        return {"bot": self.bot, "total": self.total, "converted": self.converted, "rate": round(self.rate, 4),
                "interval": [round(lo, 4), round(hi, 4)], "seconds": round(self.seconds, 2),
                "failures": [{"index": f.index, "start": f.start, "at": f.at, "move": f.move} for f in self.failures]}


def _move_text(state: State, hero: int) -> str:
    """Return the hero's action of the turn just played, in words with card names."""
    actions = state.actions()
    for a in reversed(actions[-3:]):
        if isinstance(a, Lead) and a.seat == hero:
            return "led " + " ".join(card_name(c) for c in cards_of(a.cards))
        if isinstance(a, Beat) and a.seat == hero:
            lead = next(x for x in reversed(actions) if isinstance(x, Lead))
            beaten = {x for x, _ in a.pairs}
            kept = [card_name(c) for c in cards_of(lead.cards) if c not in beaten]
            beats = ", ".join(f"{card_name(b)} on {card_name(x)}" for x, b in a.pairs)
            return (f"against {' '.join(card_name(c) for c in cards_of(lead.cards))}: "
                    f"beat {beats or 'nothing'}" + (f", picked up {' '.join(kept)}" if kept else ""))
    return "?"


def play_out(text: str, bot: Any, opponent: Any) -> tuple[bool, str, str]:
    """Play one position out (see the module's docstring); return (converted, the losing turn's start, the move)."""
    state = Position.parse(text).to_state()
    hero = state.attacker
    solver = Solver(state.rules, state.trump, state.n)
    if not solver.state_safe(state, hero):
        raise ValueError(f"the position {text!r} is not won for the side to move")
    turn_start = text
    while not state.is_over:
        if not state.in_progress and state.phase == LEAD:
            turn_start = Position.from_state(state).to_text()
        player = bot if state.to_act == hero else opponent
        state.apply(player.act(state.view(state.to_act)))
        if state.is_over or (state.phase == LEAD and not state.in_progress):
            if not solver.state_safe(state, hero):
                return False, turn_start, _move_text(state, hero)
            if not state.hands[hero]:
                return True, "", ""
    return state.loser != hero, "", ""


def check(positions: Sequence[str], bot: str = "heuristic", seed: int = 0) -> CheckReport:
    """Return how many of ``positions`` the bot ``bot`` (a bot spec) converts as the side to move.

    Each position gets a fresh bot seeded ``seed + index`` and a fresh
    heuristic opponent seeded likewise.
    """
    start = time.perf_counter()
    converted = 0
    failures = []
    for i, text in enumerate(positions):
        hero = make_bot(bot, seed + i)
        opponent = HeuristicPlayer(seed=seed + i)
        ok, at, move = play_out(text, hero, opponent)
        if ok:
            converted += 1
        else:
            failures.append(Failure(i, text, at, move))
    return CheckReport(bot, len(positions), converted, tuple(failures), time.perf_counter() - start)


def main(argv: Sequence[str] | None = None) -> int:
    """Mine the set (``make``) or measure a bot on it (``check``)."""
    p = argparse.ArgumentParser(prog="python -m mustamaija.games.mustamaija.endgames", description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="command", required=True)
    m = sub.add_parser("make", help="mine the set of won two-player talon-empty positions")
    m.add_argument("--count", type=int, default=1200, help="positions to mine (default 1200)")
    m.add_argument("--seed", type=int, default=0, help="the first game's seed (default 0)")
    m.add_argument("--max-solve", type=float, default=MAX_SOLVE_S, help="skip positions the solver takes longer on (s)")
    m.add_argument("--out", default=str(DATA_FILE), help="the file to write (default: the stored set)")
    c = sub.add_parser("check", help="measure how many positions of the set a bot converts")
    c.add_argument("--bot", default="heuristic", help="the bot spec to measure (default heuristic)")
    c.add_argument("--limit", type=int, default=None, help="only the first N positions")
    c.add_argument("--seed", type=int, default=0, help="the bots' seed (default 0)")
    c.add_argument("--file", default=str(DATA_FILE), help="the set file (default: the stored set)")
    c.add_argument("--failures", action="store_true", help="list every failure: the turn's start and the move")
    c.add_argument("--json", action="store_true", help="print the report as one JSON object")
    args = p.parse_args(argv)
    if args.command == "make":
        found, tally = mine(args.count, args.seed, args.max_solve, progress=True)
        header = (f"# {len(found)} won two-player positions at the moment the talon empties, side to move to win;"
                  f" python -m mustamaija.games.mustamaija.endgames make --count {args.count} --seed {args.seed}"
                  f" --max-solve {args.max_solve}; {json.dumps(tally)}")
        Path(args.out).write_text("\n".join([header, *found]) + "\n", encoding="utf-8")
        print(header.removeprefix("# "))
        return 0
    positions = load_positions(args.file)[:args.limit]
    report = check(positions, args.bot, args.seed)
    if args.json:
        print(json.dumps(report.to_json()))
        return 0
    print(report.summary())
    if args.failures:
        for f in report.failures:
            print(f"  #{f.index}: {f.at}: {f.move}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Make the endgame puzzles of ``puzzles.json``: random two-player positions, kept when the solver says they are good.

A position is kept when seat 0 (to lead) can make sure of not losing, it
has several legal first leads but only one or two of them are safe, and
seat 0 cannot simply lead its whole hand at once. Its difficulty is graded
by the solver's work (nodes searched), the length of the best line and the
number of tempting wrong leads, and the puzzles are split into three equal
levels. Run ``python -m mustamaija.tui.puzzle_maker > puzzles.json``.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections.abc import Iterator

from ..cards import QS, SUIT_MASKS, SUIT_SYMBOLS, CardSet
from ..game.rules import Rules
from ..game.state import State
from ..search.solver import solve
from .describe import SUIT_WORDS
from .puzzles import LEVELS, PUZZLE_FORMAT, Judge, Puzzle, verify

__all__ = ["candidates", "dumps", "main", "make", "retitle"]

_COUNT_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


def candidates(seed: int, rules: Rules | None = None) -> Iterator[tuple[Puzzle, float]]:
    """Yield good random positions with a difficulty score (unnamed and unlevelled)."""
    rng = random.Random(seed)
    rules = rules or Rules()
    while True:
        mine, theirs = rng.randint(3, 7), rng.randint(3, 7)
        trump = rng.choice((1, 2, 3, 1, 2, 3, None))
        deck = [c for c in range(52) if c != QS]
        rng.shuffle(deck)
        cards = [QS, *deck[: mine + theirs - 1]]
        rng.shuffle(cards)
        hands = (sum(1 << c for c in cards[:mine]), sum(1 << c for c in cards[mine:]))
        if any(not hands[0] & ~m for m in SUIT_MASKS):
            continue  # One suit: seat 0 just leads everything and is out.
        state = State.from_position([CardSet(h) for h in hands], 0, trump, rules)
        leads = list(state.legal_leads())
        if len(leads) < 4:
            continue
        t0 = time.perf_counter()
        result = solve(state)
        if not result.attacker_safe:
            continue
        judge = Judge(rules, trump)
        safe = [lead.cards for lead in judge.safe_leads(state)]
        spent = time.perf_counter() - t0
        if not 1 <= len(safe) <= 2 or spent > 0.5:
            continue
        score = math.log(1 + result.nodes) + 0.15 * len(result.line) + 0.4 * math.log(len(leads)) - 1.0 * (len(safe) - 1)
        yield Puzzle("", "", "", hands, trump, rules, tuple(sorted(safe)), "", result.nodes, len(result.line)), score


_MAIJA_MINE = ("Maija must go", "Pass the queen on", "Maija's last walk", "Rid yourself of her",
               "The queen's farewell", "Hand her over")
_MAIJA_THEIRS = ("Keep her there", "Let Maija sleep", "The queen stays put", "Don't wake the queen",
                 "Leave her be", "Maija at home")


def _title(p: Puzzle, index: int) -> tuple[str, str]:
    """Return a title and a note for a puzzle: a theme by where Q♠ lies, the hand sizes, the trumps."""
    mine, theirs = (h.bit_count() for h in p.hands)
    themes = _MAIJA_MINE if p.hands[0] >> QS & 1 else _MAIJA_THEIRS
    title = f"{themes[index % len(themes)]} ({mine} v {theirs})"
    if p.hands[0] >> QS & 1:
        note = "Maija (Q♠) is in your hand: pass her on and get out."
    else:
        note = "Your opponent holds Maija (Q♠): keep her there."
    if p.trump is None:
        note += " There are no trumps."
    else:
        n = (p.hands[0] & SUIT_MASKS[p.trump]).bit_count()
        note += (f" {SUIT_WORDS[p.trump].capitalize()} ({SUIT_SYMBOLS[p.trump]}) are trumps; "
                 f"you hold {_COUNT_WORDS[n] if n else 'none'}.")
    if len(p.solution) == 1:
        note += " Only one first lead works."
    else:
        note += f" {_COUNT_WORDS[len(p.solution)].capitalize()} first leads work."
    return title, note


def retitle(puzzles: list[Puzzle]) -> list[Puzzle]:
    """Return the puzzles with fresh titles and notes."""
    out = []
    for i, p in enumerate(puzzles):
        title, note = _title(p, i)
        out.append(Puzzle(p.id, title, p.level, p.hands, p.trump, p.rules, p.solution, note, p.nodes, p.line))
    return out


def make(count: int = 24, seed: int = 2024, pool: int = 240) -> list[Puzzle]:
    """Return ``count`` verified puzzles graded into the three levels, easiest first."""
    found: list[tuple[float, Puzzle]] = []
    seen: set[tuple[int, ...]] = set()
    for p, score in candidates(seed):
        if p.hands in seen:
            continue
        seen.add(p.hands)
        found.append((score, p))
        if len(found) >= pool:
            break
    found.sort(key=lambda sp: sp[0])
    # Take evenly spread difficulties, then grade them in three equal levels.
    step = len(found) / count
    chosen = [found[int(i * step + step / 2)][1] for i in range(count)]
    out = []
    for i, p in enumerate(chosen):
        level = LEVELS[min(len(LEVELS) - 1, i * len(LEVELS) // count)]
        title, note = _title(p, i)
        q = Puzzle(f"{i + 1:02d}", title, level, p.hands, p.trump, p.rules, p.solution, note, p.nodes, p.line)
        problems = verify(q)
        if problems:
            raise AssertionError("; ".join(problems))
        out.append(q)
    return out


def dumps(puzzles: list[Puzzle]) -> str:
    """Return the ``puzzles.json`` text: one puzzle a block, its position on one line."""
    blocks = []
    for p in puzzles:
        obj = p.to_json()
        lines = [f'  {{"id": {json.dumps(obj["id"])}, "level": {json.dumps(obj["level"])}, '
                 f'"title": {json.dumps(obj["title"], ensure_ascii=False)},',
                 f'   "note": {json.dumps(obj["note"], ensure_ascii=False)},',
                 f'   "position": {json.dumps(obj["position"], ensure_ascii=False)},',
                 f'   "solution": {json.dumps(obj["solution"])}, "nodes": {obj["nodes"]}, "line": {obj["line"]}}}']
        blocks.append("\n".join(lines))
    return f'{{"format": "{PUZZLE_FORMAT}", "puzzles": [\n' + ",\n".join(blocks) + "\n]}\n"


def main(argv: list[str] | None = None) -> int:
    """Print a ``puzzles.json`` file."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--count", type=int, default=24)
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args(argv)
    puzzles = make(args.count, args.seed)
    sys.stdout.write(dumps(puzzles))
    return 0


if __name__ == "__main__":
    sys.exit(main())

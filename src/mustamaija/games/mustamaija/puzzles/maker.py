"""Make the endgame puzzles of ``puzzles.json``: random positions, kept when the solver says they are good.

A position is kept when seat 0 (to lead) can make sure of not losing, it
has several legal first leads but only one or two of them are safe, and
seat 0 cannot simply lead its whole hand at once. Three-player positions
must also have a solver's line that ends (seat 0 gets out), not one that is
safe only because play could go round until the turn limit (M21). The
difficulty is graded by the solver's work (nodes searched), the length of
the best line and the number of tempting wrong leads; the two-player and the
three-player puzzles are each split into three equal levels, since the
solver's work is not comparable between them. Run
``python -m mustamaija.games.mustamaija.puzzles.maker > puzzles.json`` (a minute or two).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import random
import sys
import time
from collections.abc import Iterator, Sequence

from mustamaija.core.cards import QS, SUIT_MASKS, SUIT_SYMBOLS, CardSet
from mustamaija.games.mustamaija.actions import Action
from mustamaija.games.mustamaija.puzzles import LEVELS, NAMES, PUZZLE_FORMAT, Judge, Puzzle, verify
from mustamaija.games.mustamaija.rules import Rules
from mustamaija.games.mustamaija.solver import solve
from mustamaija.games.mustamaija.state import State
from mustamaija.search.time_limit import OutOfTime, time_limit
from mustamaija.tui.describe import SUIT_WORDS

__all__ = ["candidates", "candidates3", "dumps", "main", "make", "retitle"]

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


def candidates3(seed: int, rules: Rules | None = None, seconds: float = 1.5) -> Iterator[tuple[Puzzle, float]]:
    """Yield good random three-player positions (two or three cards a hand) with a difficulty score.

    The three-player solver can take long on some positions, so each is
    given ``seconds`` (a timer signal, so this runs in the main thread of a
    Unix process) and dropped when it takes longer.
    """
    rng = random.Random(seed)
    rules = rules or Rules()
    while True:
        sizes = [rng.randint(2, 3) for _ in range(3)]
        trump = rng.choice((1, 2, 3, 1, 2, 3, None))
        deck = [c for c in range(52) if c != QS]
        rng.shuffle(deck)
        cards = [QS, *deck[: sum(sizes) - 1]]
        rng.shuffle(cards)
        hands = tuple(sum(1 << c for c in cards[sum(sizes[:i]):sum(sizes[:i + 1])]) for i in range(3))
        if any(not hands[0] & ~m for m in SUIT_MASKS):
            continue
        state = State.from_position([CardSet(h) for h in hands], 0, trump, rules)
        leads = list(state.legal_leads())
        if len(leads) < 4:
            continue
        judge = Judge(rules, trump, 3)
        try:
            with time_limit(seconds):
                if not judge.safe(state):
                    continue
                safe = [lead.cards for lead in judge.safe_leads(state)]
                line = judge.line(state)
        except OutOfTime:
            continue
        if not 1 <= len(safe) <= 2 or not _ends_with_hero_out(state, line):
            continue
        nodes = judge.solver.total_nodes()
        score = math.log(1 + nodes) + 0.15 * len(line) + 0.4 * math.log(len(leads)) - 1.0 * (len(safe) - 1)
        yield Puzzle("", "", "", hands, trump, rules, tuple(sorted(safe)), "", nodes, len(line)), score


def _ends_with_hero_out(state: State, line: Sequence[Action]) -> bool:
    s = state.copy()
    for action in line:
        s.play(action)
    return not s.hands[0] and s.finished


_MAIJA_MINE = ("Maija must go", "Pass the queen on", "Maija's last walk", "Rid yourself of her",
               "The queen's farewell", "Hand her over")
_MAIJA_THEIRS = ("Keep her there", "Let Maija sleep", "The queen stays put", "Don't wake the queen",
                 "Leave her be", "Maija at home")


def _title(p: Puzzle, index: int) -> tuple[str, str]:
    """Return a title and a note for a puzzle: a theme by where Q♠ lies, the hand sizes, the trumps."""
    themes = _MAIJA_MINE if p.hands[0] >> QS & 1 else _MAIJA_THEIRS
    title = f"{themes[index % len(themes)]} ({' v '.join(str(h.bit_count()) for h in p.hands)})"
    holder = next(seat for seat, h in enumerate(p.hands) if h >> QS & 1)
    if holder == 0:
        note = "Maija (Q♠) is in your hand: pass her on and get out."
    elif len(p.hands) == 2:
        note = "Your opponent holds Maija (Q♠): keep her there."
    else:
        note = (f"Three players: {NAMES[1]} on your left defends first, then {NAMES[2]}. {NAMES[holder]} holds "
                "Maija (Q♠): keep her away from you, whatever the two of them do.")
    if holder == 0 and len(p.hands) == 3:
        note = (f"Three players: {NAMES[1]} on your left defends first, then {NAMES[2]}. Maija (Q♠) is in your "
                "hand: pass her on and get out, whatever the two of them do.")
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
        out.append(dataclasses.replace(p, title=title, note=note))
    return out


def _graded(source: Iterator[tuple[Puzzle, float]], count: int, pool: int) -> list[tuple[str, float, Puzzle]]:
    """Return ``count`` positions of evenly spread difficulty from the first ``pool``, graded in three equal levels."""
    if count <= 0:
        return []
    found: list[tuple[float, Puzzle]] = []
    seen: set[tuple[int, ...]] = set()
    for p, score in source:
        if p.hands in seen:
            continue
        seen.add(p.hands)
        found.append((score, p))
        if len(found) >= pool:
            break
    found.sort(key=lambda sp: sp[0])
    step = len(found) / count
    chosen = [found[int(i * step + step / 2)] for i in range(count)]
    return [(LEVELS[min(len(LEVELS) - 1, i * len(LEVELS) // count)], score, p) for i, (score, p) in enumerate(chosen)]


def make(count: int = 24, seed: int = 2024, pool: int = 240, count3: int = 6, pool3: int = 30) -> list[Puzzle]:
    """Return ``count`` two-player and ``count3`` three-player verified puzzles, graded, easiest first."""
    graded = _graded(candidates(seed), count, pool) + _graded(candidates3(seed), count3, pool3)
    graded.sort(key=lambda lsp: (LEVELS.index(lsp[0]), len(lsp[2].hands), lsp[1]))
    out = []
    for i, (level, _, p) in enumerate(graded):
        title, note = _title(p, i)
        q = Puzzle(f"{i + 1:02d}", title, level, p.hands, p.trump, p.rules, p.solution, note, p.nodes, p.line,
                   "made", f"a random position kept by the maker (seed {seed})")
        problems = verify(q)
        if problems:
            raise AssertionError("; ".join(problems))
        out.append(q)
    return out


def dumps(puzzles: list[Puzzle]) -> str:
    """Return the text of a puzzle file: one puzzle a block, its position on one line."""
    blocks = []
    for p in puzzles:
        obj = p.to_json()
        lines = [f'  {{"id": {json.dumps(obj["id"])}, "level": {json.dumps(obj["level"])}, '
                 f'"title": {json.dumps(obj["title"], ensure_ascii=False)},',
                 f'   "source": {json.dumps(obj["source"])}, "origin": {json.dumps(obj["origin"], ensure_ascii=False)},',
                 f'   "note": {json.dumps(obj["note"], ensure_ascii=False)},',
                 f'   "position": {json.dumps(obj["position"], ensure_ascii=False)},',
                 f'   "solution": {json.dumps(obj["solution"])}, "nodes": {obj["nodes"]}, "line": {obj["line"]}}}']
        blocks.append("\n".join(lines))
    return f'{{"format": "{PUZZLE_FORMAT}", "puzzles": [\n' + ",\n".join(blocks) + "\n]}\n"


def main(argv: list[str] | None = None) -> int:
    """Print a ``puzzles.json`` file."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--count", type=int, default=24, help="two-player puzzles (default 24)")
    parser.add_argument("--count3", type=int, default=6, help="three-player puzzles (default 6)")
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args(argv)
    puzzles = make(args.count, args.seed, count3=args.count3)
    sys.stdout.write(dumps(puzzles))
    return 0


if __name__ == "__main__":
    sys.exit(main())

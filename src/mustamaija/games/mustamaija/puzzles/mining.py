"""Puzzles from real play: the endgames of played deals where exactly one lead is safe, found by the exact solver.

A deal's record passes through many talon-empty positions. One makes a
puzzle when, at the start of a turn:

- two or three seats still hold cards (the others are out and play no part),
  at most 7 cards each with two seats, 3 with three (as the made puzzles);
- the seat to lead has at least three legal leads, and more than one suit,
  so that leading the whole hand is not the answer;
- the exact solver says that exactly one of those leads makes sure the seat
  is not the Mustamaija, whatever the others do (the others counting as one
  side with three seats, as in every puzzle).

The position is turned so that the leader is seat 0, "you", and the seats
that still hold cards follow in their order at the table. Positions found
twice are kept once. Difficulty is the maker's score (the solver's work, the
length of its line, the number of tempting leads); ``count`` keeps that many
of evenly spread difficulty, and the puzzles are split into three equal
levels by it (:mod:`.maker`), easiest first. Each says where it was found
(its ``origin``): the bots and the tournament deal of a ``mustamaija
tournament --out`` record, or the table and deal of a record exported from
the web app, and the turn.

>>> from mustamaija.games.mustamaija.record import Record
>>> found = mine([Record.from_seed(players=2, seed=s).with_actions(()) for s in range(2)])
>>> found
[]
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from mustamaija.core.cards import SUIT_MASKS, CardSet
from mustamaija.core.records import play_indexed
from mustamaija.games.mustamaija.puzzles import LEVELS, Judge, Puzzle, verify
from mustamaija.games.mustamaija.puzzles.maker import retitle
from mustamaija.games.mustamaija.rules import LEAD
from mustamaija.games.mustamaija.state import State
from mustamaija.search.time_limit import OutOfTime, time_limit

__all__ = ["mine", "origin_of", "puzzle_at"]

_MAX_CARDS = {2: 7, 3: 3}
"""The most cards in one hand of a mined puzzle, by seats holding cards (as the made puzzles: 3-7, and 2-3)."""


def _positions(record: Any) -> Iterator[State]:
    """Yield each position of a record where a turn begins with the talon empty."""
    state = record.start()
    for i, action in enumerate(record.actions):
        if state.phase == LEAD and not state.in_progress and state.talon_size == 0:
            yield state.copy()
        play_indexed(state, i, action)


def puzzle_at(state: State, seconds: float = 0.5) -> tuple[Puzzle, float] | None:
    """Return the puzzle of a talon-empty position at the start of a turn, with its difficulty score, or None.

    The solver gets ``seconds`` a position (a timer signal: call this from a Unix process's main thread).
    """
    leader = state.to_act
    holders = [(leader + k) % state.n for k in range(state.n) if state.hands[(leader + k) % state.n]]
    if not 2 <= len(holders) <= 3 or (state.trump < 0 and state.rules.trump == "marriage"):
        return None  # A marriage still to declare is a move puzzles do not ask for.
    hands = tuple(state.hands[s] for s in holders)
    if max(h.bit_count() for h in hands) > _MAX_CARDS[len(hands)]:
        return None  # Too big for a puzzle people solve in their heads, and for the solver's time.
    if any(not hands[0] & ~m for m in SUIT_MASKS):
        return None  # One suit: the leader just leads everything.
    trump = state.trump if state.trump >= 0 else None
    position = State.from_position([CardSet(h) for h in hands], 0, trump, state.rules)
    leads = list(position.legal_leads())
    if len(leads) < 3:
        return None
    judge = Judge(state.rules, trump, len(hands))
    started = time.monotonic()
    try:
        with time_limit(seconds):
            safe = [lead.cards for lead in judge.safe_leads(position)]
            line = judge.line(position) if len(safe) == 1 else []
    except OutOfTime:
        return None
    # Should the timer's exception still be lost in code that swallows it, a position that took too long is
    # dropped all the same.
    if len(safe) != 1 or time.monotonic() - started > seconds:
        return None
    nodes = judge.solver.total_nodes() if hasattr(judge.solver, "total_nodes") else 0
    score = math.log(1 + nodes) + 0.15 * len(line) + 0.4 * math.log(len(leads))
    return Puzzle("", "", "", hands, trump, state.rules, tuple(safe), "", nodes, len(line), "play"), score


def origin_of(extra: Mapping[str, Any], players: int, state: State) -> str:
    """Return where a position of a played deal comes from, in words, from its record's extra keys.

    >>> state = State.from_seed(players=3, seed=1)
    >>> origin_of({"bots": ["heuristic", "pimc", "random"], "tournament": {"seed": 16, "deal": 4, "rotation": 2}},
    ...           3, state)
    'heuristic vs pimc vs random, 3 players, deal 4 (rotation 2) of tournament seed 16, turn 1, pimc to lead'
    >>> origin_of({"table": "ab12cd", "deal": 3, "names": ["Ann", "Bo"]}, 2, State.from_seed(players=2, seed=1))
    'web table ab12cd, deal 3, 2 players, turn 1, seat 1 to lead'
    """
    bots = extra.get("bots")
    bots = [str(b) for b in bots] if isinstance(bots, list) and len(bots) == players else None
    tour = extra.get("tournament")
    parts = []
    if bots:
        parts.append(" vs ".join(bots))
    if isinstance(extra.get("table"), str):
        parts.append(f"web table {extra['table']}" + (f", deal {extra['deal']}" if isinstance(extra.get("deal"), int) else ""))
    parts.append(f"{players} players")
    if isinstance(tour, Mapping) and all(isinstance(tour.get(k), int) for k in ("seed", "deal", "rotation")):
        parts.append(f"deal {tour['deal']} (rotation {tour['rotation']}) of tournament seed {tour['seed']}")
    leader = state.to_act
    # People's names stay out of a puzzle file: a web table's seats are named by number.
    parts.append(f"turn {state.turns + 1}, {bots[leader] if bots else f'seat {leader}'} to lead")
    return ", ".join(parts)


def mine(records: Iterable[Any], seconds: float = 0.5, count: int | None = None) -> list[Puzzle]:
    """Return the puzzles found in Mustamaija ``records``, verified, graded in three levels, easiest first.

    With ``count``, only that many are kept, of evenly spread difficulty (all of them if fewer were found).
    """
    found: list[tuple[float, Puzzle]] = []
    seen: set[tuple[Any, ...]] = set()
    for record in records:
        extra = getattr(record, "extra", {}) or {}
        for state in _positions(record):
            got = puzzle_at(state, seconds)
            if got is None:
                continue
            puzzle, score = got
            key = (puzzle.hands, puzzle.trump, puzzle.rules)
            if key in seen:
                continue
            seen.add(key)
            found.append((score, dataclasses.replace(puzzle, source="play", origin=origin_of(extra, record.players, state))))
    found.sort(key=lambda sp: sp[0])
    if count is not None and 0 < count < len(found):
        step = len(found) / count
        found = [found[int(i * step + step / 2)] for i in range(count)]
    out = []
    for i, (_, p) in enumerate(found):
        level = LEVELS[min(len(LEVELS) - 1, i * len(LEVELS) // len(found))]
        q = dataclasses.replace(p, id=f"m{i + 1:02d}", level=level)
        problems = verify(q)
        if problems:
            raise AssertionError(f"a mined puzzle fails its check: {'; '.join(problems)}")
        out.append(q)
    return retitle(out)

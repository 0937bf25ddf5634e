"""Mustamaija's endgame puzzles: talon-empty positions of two or three players with every card known, checked by the exact solver.

You are seat 0 and lead. Find a lead that makes sure you are not the
Mustamaija, whatever the others do, then play the position out. The solver
judges every move you make and plays the other seats; a move that lets them
force your loss is shown its refutation (their answer and the best line
after it). With three players the two others count as one side, so a
puzzle never hangs on an opponent's mistake.

The puzzles live in this package: ``puzzles.json``, made from random
positions by ``python -m mustamaija.games.mustamaija.puzzles.maker``, and
``played.json``, found in the records of bots' games by
``mustamaija puzzle --mine`` (:mod:`.mining`; docs/play.md gives the
commands). Each is a docs/formats.md position with a title, a level, the
full set of safe first leads and its source (``made`` or ``play``, and
where it came from); :func:`verify` checks one against the solver. The
puzzle list and the puzzle screen are :mod:`.screen`, the streak they keep
is :mod:`.progress`, ``mustamaija puzzle`` is :mod:`.cli` and the web
app's puzzle page is served through :mod:`.web`.

>>> puzzles = load_puzzles()
>>> len(puzzles) >= 20, puzzles[0].level
(True, 'easy')
>>> p = puzzles[0]
>>> game = PuzzleGame(p)
>>> wrong = next(lead for lead in game.state.legal_leads() if lead.cards not in p.solution)
>>> verdict = game.play(wrong)
>>> verdict.ok, game.status, verdict.refutation[0] == wrong
(False, 'failed', True)
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, Final

from mustamaija.core.cards import CardSet, card_name, cards_of, parse_card, parse_suit
from mustamaija.core.errors import FormatError, MustamaijaError
from mustamaija.games.mustamaija.actions import Action, Beat, Lead
from mustamaija.games.mustamaija.rules import Rules
from mustamaija.games.mustamaija.state import LEAD, State
from mustamaija.tui.describe import cards_text

__all__ = [
    "LEVELS",
    "PUZZLE_FORMAT",
    "SOURCES",
    "Judge",
    "Puzzle",
    "PuzzleGame",
    "Verdict",
    "load_puzzles",
    "verify",
]

PUZZLE_FORMAT: Final = "mustamaija-puzzles/1"
LEVELS: Final = ("easy", "medium", "hard")
HERO: Final = 0
NAMES: Final = ("You", "Eero", "Helmi")
SOURCES: Final = ("made", "play")
"""Where a puzzle comes from: a random position kept by the maker, or a position of a played deal."""
FILES: Final = ("puzzles.json", "played.json")
"""The puzzle files shipped in this package: the made puzzles, then those found in play."""


@dataclass(frozen=True)
class Puzzle:
    """One puzzle: its position (seat 0, you, to lead), title, level, every safe first lead and where it came from.

    ``source`` is ``"made"`` (a random position) or ``"play"`` (a position of a played deal); ``origin`` says
    which, in words ("heuristic vs pimc:iters=100, 2 players, deal 12…").
    """

    id: str
    title: str
    level: str
    hands: tuple[int, ...]
    trump: int | None
    rules: Rules = field(default_factory=Rules)
    solution: tuple[int, ...] = ()
    note: str = ""
    nodes: int = 0
    line: int = 0
    source: str = "made"
    origin: str = ""

    @property
    def key(self) -> str:
        """Return a short key of the position alone, the same in every file and after renumbering.

        Progress (solved, failed, the streak) is kept by this key, so it stays with the puzzle it was
        made on when a puzzle file is made again and the ids move.

        >>> p = load_puzzles()[0]
        >>> len(p.key), p.key == Puzzle.from_json({**p.to_json(), "id": "x", "title": "y"}).key
        (12, True)
        """
        text = json.dumps(self.position_json(), sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:12]

    def start(self) -> State:
        """Return the position, seat 0 to lead."""
        return State.from_position([CardSet(h) for h in self.hands], HERO, self.trump, self.rules)

    def position_json(self) -> dict[str, Any]:
        """Return the docs/formats.md position object (for ``mustamaija solve``)."""
        return {
            "format": "mustamaija-position/1",
            "rules": self.rules.to_json(only_changes=True),
            "trump_suit": None if self.trump is None else "SHDC"[self.trump],
            "hands": [[card_name(c) for c in cards_of(h)] for h in self.hands],
            "attacker": HERO,
        }

    def to_json(self) -> dict[str, Any]:
        """Return the puzzle's entry in ``puzzles.json``."""
        return {
            "id": self.id, "title": self.title, "level": self.level, "note": self.note,
            "position": self.position_json(),
            "solution": [[card_name(c) for c in cards_of(m)] for m in self.solution],
            "nodes": self.nodes, "line": self.line, "source": self.source, "origin": self.origin,
        }

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Puzzle:
        """Read one entry of a puzzle file (an entry without ``source`` is a made puzzle, as in the first files)."""
        source = obj.get("source", "made")
        if source not in SOURCES:
            raise FormatError(f"bad puzzle {obj.get('id', '?')!r}: source must be one of {', '.join(SOURCES)}, "
                              f"not {source!r}")
        try:
            pos = obj["position"]
            trump = pos.get("trump_suit")
            return cls(
                id=str(obj["id"]), title=str(obj["title"]), level=str(obj["level"]),
                hands=tuple(sum(1 << parse_card(c) for c in h) for h in pos["hands"]),
                trump=None if trump is None else parse_suit(trump),
                rules=Rules.from_json(pos.get("rules")),
                solution=tuple(sum(1 << parse_card(c) for c in lead) for lead in obj["solution"]),
                note=str(obj.get("note", "")), nodes=int(obj.get("nodes", 0)), line=int(obj.get("line", 0)),
                source=source, origin=str(obj.get("origin", "")),
            )
        except (KeyError, TypeError, ValueError) as e:
            raise FormatError(f"bad puzzle {obj.get('id', '?')!r}: {e}") from None


def load_puzzles(text: str | None = None) -> list[Puzzle]:
    """Return the shipped puzzles (or those of one puzzle file's text), easiest first.

    The shipped ones are the made puzzles and those found in play, merged level by level (made first
    within a level).

    >>> puzzles = load_puzzles()
    >>> sorted({p.source for p in puzzles}), [p.level for p in puzzles] == sorted(
    ...     (p.level for p in puzzles), key=LEVELS.index)
    (['made', 'play'], True)
    """
    if text is not None:
        return _read(text)
    out = [p for name in FILES for p in _read(resources.files(__name__).joinpath(name).read_text(encoding="utf-8"))]
    return sorted(out, key=lambda p: LEVELS.index(p.level) if p.level in LEVELS else len(LEVELS))


def _read(text: str) -> list[Puzzle]:
    try:
        obj = json.loads(text)
    except ValueError as e:
        raise FormatError(f"not a puzzle file: {e}") from None
    if not isinstance(obj, dict) or obj.get("format") != PUZZLE_FORMAT:
        raise FormatError(f"not a puzzle file: expected format {PUZZLE_FORMAT!r}")
    entries = obj.get("puzzles")
    if not isinstance(entries, list) or not all(isinstance(p, dict) for p in entries):
        raise FormatError("not a puzzle file: 'puzzles' must be a list of objects")
    return [Puzzle.from_json(p) for p in entries]


# -- the judge: the solver's verdicts -----------------------------------------------------------------


class Judge:
    """Answers "is seat 0 safe here?" for the positions of one puzzle, with the exact solver.

    Safe means that seat 0 can make sure of not being the Mustamaija
    whatever the others do; with three players the other two count as one
    side (the solver's "make sure"), so a puzzle never depends on an
    opponent's mistake.
    """

    def __init__(self, rules: Rules, trump: int | None, players: int = 2) -> None:
        from mustamaija.games.mustamaija.solver import Solver

        self.rules = rules
        self.trump = trump
        self.solver = Solver(rules, -1 if trump is None else trump, players)

    def safe(self, state: State) -> bool:
        """Return whether seat 0 can make sure of not losing from ``state`` (over, or a lead to come)."""
        if state.is_over:
            return state.loser != HERO
        if not state.hands[HERO]:
            return True
        if state.phase != LEAD:
            return self.safe_after_lead(state)
        return self.solver.safe(tuple(state.hands), state.attacker, HERO)

    def safe_after_lead(self, state: State) -> bool:
        """Return whether seat 0 is safe with a lead on the table (seat 0 defends: some defence; else all)."""
        return self.refute(state) is None if state.defender != HERO else self.best_defence(state) is not None

    def refute(self, state: State) -> Beat | None:
        """Return a defence by another seat that leaves seat 0 lost, if there is one."""
        for beat in state.legal_beats():
            after = state.copy()
            after.play(beat)
            if not self.safe(after):
                return beat
        return None

    def best_defence(self, state: State) -> Beat | None:
        """Return a defence that keeps seat 0 safe (seat 0 defends), beating as much as it can; ``None`` if none does."""
        best: Beat | None = None
        for beat in state.legal_beats():
            after = state.copy()
            after.play(beat)
            if self.safe(after) and (best is None or len(beat.pairs) > len(best.pairs)):
                best = beat
        return best

    def safe_leads(self, state: State) -> list[Lead]:
        """Return every legal lead of seat 0 (to lead in ``state``) that keeps it safe."""
        out = []
        for lead in state.legal_leads():
            after = state.copy()
            after.play(lead)
            if self.safe_after_lead(after):
                out.append(lead)
        return out

    def line(self, state: State, limit: int = 200) -> list[Action]:
        """Return the solver's principal line from a lead position (for seat 0: the others play to beat it)."""
        if state.is_over or state.phase != LEAD:
            return []
        return self.solver.line(tuple(state.hands), state.attacker, HERO, limit)


# -- playing a puzzle -----------------------------------------------------------------------------------


@dataclass
class Verdict:
    """The judge's word on a move: ``ok``, a message, and for a mistake the refutation (your move first)."""

    ok: bool
    message: str
    refutation: list[Action] = field(default_factory=list)


class PuzzleGame:
    """A puzzle being played: seat 0 is you, the solver plays the others; every move of yours is judged.

    ``judge`` may be one kept from an earlier game of the same puzzle, so that the solver's tables serve again
    (the web app replays a puzzle from its start at every move).
    """

    def __init__(self, puzzle: Puzzle, judge: Judge | None = None) -> None:
        self.puzzle = puzzle
        self.judge = judge or Judge(puzzle.rules, puzzle.trump, len(puzzle.hands))
        self.reset()

    def reset(self) -> None:
        """Start again from the puzzle's position."""
        self.state = self.puzzle.start()
        self.status = "solving"
        self.moves = 0
        self.log: list[str] = [f"{self.puzzle.title}: you lead. Make sure you are not the Mustamaija."]
        self.refutation: list[Action] = []

    @property
    def your_turn(self) -> bool:
        """Return whether seat 0 is to act."""
        return self.status == "solving" and not self.state.is_over and self.state.to_act == HERO

    def play(self, action: Action) -> Verdict:
        """Play your move, judge it, and let the opponent answer until it is your turn again or the end."""
        if self.status != "solving":
            raise MustamaijaError("this puzzle is over: press r to try again, or n for the next one")
        if self.state.to_act != HERO:
            raise MustamaijaError("it is not your turn")
        self.state.verify(action)
        first = self.moves == 0
        after = self.state.copy()
        after.play(action)
        self.moves += 1
        self.log.append(_words(action))
        if not self.judge.safe(after):
            self.status = "failed"
            self.refutation = [action, *self._refutation(after)]
            self.state = after
            what = "That first lead" if first else "That move"
            them = "your opponent" if self.state.n == 2 else "the others"
            return Verdict(False, f"✗ {what} loses: after {_gerund(action)}, {them} can force you "
                                  "to be the Mustamaija. See the refutation", self.refutation)
        self.state = after
        message = f"✓ Correct: {_gerund(action)} keeps you safe."
        if first:
            message = f"✓ Correct: {_gerund(action)} is a safe first lead. Now play it out."
        self._opponent()
        if self.state.is_over or not self.state.hands[HERO]:
            self.status = "solved"
            message = f"✓ Solved, after {_gerund(action)}: you are not the Mustamaija."
        return Verdict(True, message)

    def _refutation(self, after: State) -> list[Action]:
        s = after.copy()
        out: list[Action] = []
        if s.phase != LEAD and not s.is_over:
            beat = self.judge.refute(s) if s.defender != HERO else None
            if beat is None:
                beat = next(iter(s.legal_beats()))
            s.play(beat)
            out.append(beat)
        out.extend(self.judge.line(s))
        return out

    def _opponent(self) -> None:
        """Let the other seats act (the solver's line, resisting) until seat 0 is to act or the deal is over."""
        s = self.state
        while not s.is_over and s.to_act != HERO and s.hands[HERO]:
            if s.phase == LEAD:
                line = self.judge.line(s, limit=1)
                action: Action = line[0] if line and s.can_play(line[0]) else next(iter(s.legal_leads()))
            else:
                action = max(s.legal_beats(), key=lambda b: len(b.pairs))
            s.play(action)
            self.log.append(_words(action))

    def solution_line(self) -> list[Action]:
        """Return the solver's principal line from the puzzle's start: a safe first lead, and best play after it."""
        return self.judge.line(self.puzzle.start())

    def solution_text(self) -> str:
        """Return the safe first leads and the solver's line, for the "show solution" key."""
        return f"{self.safe_leads_text()}\nSolver's line: " + "; ".join(_words(a) for a in self.solution_line())

    def safe_leads_text(self) -> str:
        """Return the safe first leads in words ("Safe first lead: 6♠ A♠.")."""
        leads = ", ".join(cards_text(m) for m in self.puzzle.solution)
        return f"Safe first lead{'s' if len(self.puzzle.solution) > 1 else ''}: {leads}."


def _words(action: Action) -> str:
    who = NAMES[action.seat] if action.seat < len(NAMES) else f"seat {action.seat}"
    if isinstance(action, Lead):
        return f"{who} lead{'' if who == 'You' else 's'} {cards_text(action.cards)}"
    if isinstance(action, Beat):
        if not action.pairs:
            return f"{who} pick{'' if who == 'You' else 's'} up everything"
        return f"{who} beat{'' if who == 'You' else 's'} " + ", ".join(
            f"{cards_text(1 << a)} with {cards_text(1 << b)}" for a, b in action.pairs)
    return f"{who} declare{'' if who == 'You' else 's'} a marriage"


def _gerund(action: Action) -> str:
    if isinstance(action, Lead):
        return f"leading {cards_text(action.cards)}"
    if isinstance(action, Beat):
        if not action.pairs:
            return "picking up everything"
        return "beating " + ", ".join(f"{cards_text(1 << a)} with {cards_text(1 << b)}" for a, b in action.pairs)
    return "declaring a marriage"


def refutation_text(actions: Sequence[Action]) -> list[str]:
    """Return a refutation (or any line of play) as lines, one action a line."""
    return [_words(a) for a in actions]


# -- verification ----------------------------------------------------------------------------------------


def verify(puzzle: Puzzle) -> list[str]:
    """Check a puzzle against the solver; return the problems found (an empty list when it is sound).

    The position must be legal with two or three players and seat 0 to
    lead; seat 0 must be safe; and the puzzle's solution must be exactly the
    set of safe legal first leads. A puzzle found in play has exactly one
    safe first lead (that is what made it a puzzle) and says where it came from.
    """
    problems = []
    try:
        state = puzzle.start()
    except MustamaijaError as e:
        return [f"{puzzle.id}: bad position: {e}"]
    if state.n not in (2, 3):
        problems.append(f"{puzzle.id}: puzzles are for two or three players")
    if puzzle.level not in LEVELS:
        problems.append(f"{puzzle.id}: unknown level {puzzle.level!r}")
    if puzzle.source not in SOURCES:
        problems.append(f"{puzzle.id}: unknown source {puzzle.source!r}")
    if puzzle.source == "play" and (len(puzzle.solution) != 1 or not puzzle.origin):
        problems.append(f"{puzzle.id}: a puzzle from play has one safe first lead and names the deal it came from")
    judge = Judge(puzzle.rules, puzzle.trump, state.n)
    if not judge.safe(state):
        problems.append(f"{puzzle.id}: seat 0 cannot make sure of not losing")
    safe = sorted(lead.cards for lead in judge.safe_leads(state))
    if safe != sorted(puzzle.solution):
        problems.append(f"{puzzle.id}: the safe leads are {[cards_text(m) for m in safe]}, "
                        f"not {[cards_text(m) for m in puzzle.solution]}")
    return problems

"""The puzzles at the web app's ``/puzzles`` page: the list, a position as the table draws it, and moves judged.

The web app finds this through the Mustamaija web renderer's ``puzzles``
(``module:attribute``) and calls it through the generic puzzle API
(:mod:`mustamaija.web.puzzles_api`, which names no game). Answers are
stateless: every call replays the player's moves from the puzzle's start
with :class:`~mustamaija.games.mustamaija.puzzles.PuzzleGame`, so the
solver judges each one as it does in the terminal, and the other seats
answer as the solver plays them there. A position is the beating-game
layout's state of seat 0 (:meth:`MustamaijaTable.state_json
<mustamaija.games.mustamaija.web.MustamaijaTable.state_json>`) with every
hand open, since a puzzle is an open endgame.

>>> svc = SERVICE
>>> first = svc.catalogue()[0]
>>> first["id"], first["level"], first["source"] in ("made", "play")
('01', 'easy', True)
>>> pos = svc.position(first["id"])
>>> pos["state"]["legal"]["kind"], pos["state"]["to_act"], len(pos["hands"]) == pos["puzzle"]["players"]
('lead', 0, True)
>>> p = svc.find("01")
>>> answer = svc.answer("01", [{"lead": [card_name(c) for c in cards_of(p.solution[0])]}])
>>> answer["status"], answer["verdict"]["ok"], answer["replies"][0]["seat"]
('solving', True, 1)
>>> svc.answer("01", [{"lead": ["2C"]}])
Traceback (most recent call last):
...
mustamaija.games.mustamaija.puzzles.web.PuzzleRefusal: move 1: M10: you do not hold 2C
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping, Sequence
from typing import Any, Final

from mustamaija.core.cards import card_name, cards_of
from mustamaija.core.errors import IllegalActionError, MustamaijaError
from mustamaija.games.mustamaija.actions import Action, action_from_json
from mustamaija.games.mustamaija.puzzles import HERO, NAMES, Judge, Puzzle, PuzzleGame, load_puzzles, refutation_text
from mustamaija.games.mustamaija.state import State
from mustamaija.games.mustamaija.web import RENDERER

__all__ = ["MAX_MOVES", "SERVICE", "PuzzleRefusal", "PuzzleService"]

MAX_MOVES: Final = 40
"""The most moves of yours a puzzle can take: a hand of at most 7 cards, each move playing one or more, or
picking up; far fewer in practice. Longer lists are refused before any work."""
_MAX_CARDS_A_MOVE: Final = 13
_KEEP_JUDGES: Final = 64
"""Judges kept (one a puzzle), so that the solver's tables serve the next request on the same puzzle."""


class PuzzleRefusal(MustamaijaError):
    """A request the puzzles refuse: ``code`` is the web API's error code, ``rule`` a rule id for an illegal move."""

    def __init__(self, code: str, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.rule = rule

    def __reduce__(self) -> tuple[Any, ...]:
        # The web app judges moves in a worker process: the refusal travels back pickled.
        return (type(self), (self.code, str(self), self.rule))


def _names(mask: int) -> list[str]:
    return [card_name(c) for c in cards_of(mask)]


def _move(action: Action) -> dict[str, Any]:
    """Return an action as the page lists it: its seat, its record body and its words."""
    body = action.to_json()
    seat = body.pop("seat")
    return {"seat": seat, "action": body, "text": refutation_text([action])[0]}


def _parse(obj: object, index: int) -> Action:
    """Return the move ``obj`` (a record action without its seat) as seat 0's action; refuse a malformed one."""
    where = f"move {index + 1}"
    if not isinstance(obj, Mapping) or len(obj) != 1 or next(iter(obj)) not in ("lead", "beat", "declare"):
        raise PuzzleRefusal("bad_request", f"{where}: a move is an object with one key, 'lead', 'beat' or 'declare'")
    kind, value = next(iter(obj.items()))
    cards = value if kind == "lead" else list(value.items()) if isinstance(value, Mapping) else None
    if kind != "declare" and (not isinstance(cards, list) or len(cards) > _MAX_CARDS_A_MOVE):
        raise PuzzleRefusal("bad_request", f"{where}: '{kind}' must be a list of cards, or an object of led card to "
                                           f"beating card, of at most {_MAX_CARDS_A_MOVE} cards")
    try:
        return action_from_json({"seat": HERO, kind: value})
    except MustamaijaError as e:
        raise PuzzleRefusal("bad_request", f"{where}: {e}") from None


class PuzzleService:
    """The shipped puzzles for the web app: the list, positions and stateless judging of a line of moves."""

    layout: Final = "beating"
    """The browser layout that draws a position (``static/js/layouts/beating.js``)."""
    goal: Final = ("You lead, every card is known and the talon is empty. Make sure you are not the Mustamaija, "
                   "whatever the others do.")
    help: Final = ("Play your moves as at the table: choose cards and lead, or pair led cards with beaters. The exact "
                   "solver judges every move and plays the others; with three players the two others count as one "
                   "side. A move that lets them force your loss ends the attempt with its refutation.")

    def __init__(self, puzzles: Sequence[Puzzle] | None = None) -> None:
        self._puzzles = list(puzzles) if puzzles is not None else None
        self._judges: OrderedDict[str, Judge] = OrderedDict()

    @property
    def puzzles(self) -> list[Puzzle]:
        """Return the puzzles served, easiest first (read once)."""
        if self._puzzles is None:
            self._puzzles = load_puzzles()
        return self._puzzles

    def find(self, puzzle_id: str) -> Puzzle:
        """Return the puzzle ``puzzle_id``; an unknown one is refused as ``not_found``."""
        for p in self.puzzles:
            if p.id == puzzle_id:
                return p
        raise PuzzleRefusal("not_found", f"there is no puzzle {puzzle_id!r}")

    def catalogue(self) -> list[dict[str, Any]]:
        """Return the list of puzzles: id, key, title, level, source and where it came from, note, players."""
        return [{"id": p.id, "key": p.key, "title": p.title, "level": p.level, "source": p.source, "origin": p.origin,
                 "note": p.note, "players": len(p.hands)} for p in self.puzzles]

    def position(self, puzzle_id: str) -> dict[str, Any]:
        """Return the puzzle and its starting position as the page draws it (``state``) with every hand (``hands``)."""
        p = self.find(puzzle_id)
        entry = next(e for e in self.catalogue() if e["id"] == p.id)
        return {"puzzle": {**entry, "names": list(NAMES[: len(p.hands)]), "goal": self.goal, "help": self.help},
                "layout": self.layout, "rules": _rules_json(p), "state": _state_json(p.start(), True),
                "hands": [_names(h) for h in p.hands]}

    def judge(self, puzzle: Puzzle) -> Judge:
        """Return the judge of ``puzzle``, kept from an earlier call if there was one."""
        judge = self._judges.get(puzzle.key)
        if judge is None:
            judge = self._judges[puzzle.key] = Judge(puzzle.rules, puzzle.trump, len(puzzle.hands))
            while len(self._judges) > _KEEP_JUDGES:
                self._judges.popitem(last=False)
        else:
            self._judges.move_to_end(puzzle.key)
        return judge

    def answer(self, puzzle_id: str, moves: Sequence[object], solution: bool = False) -> dict[str, Any]:
        """Replay your ``moves`` (record actions without the seat) from the start; return where they lead.

        The answer has the ``status`` (``solving``, ``solved``, ``failed``), the ``verdict`` on the last move
        (``ok`` and a ``message``), every action so far (``played``) and the others' answer to your last
        move (``replies``), the ``refutation`` of a losing move (your move first), the ``state`` to draw,
        and the ``solution`` (safe first leads and the solver's line) once the puzzle is over or when asked.
        A malformed move, an illegal one, or a move after the end is refused (:class:`PuzzleRefusal`).
        """
        p = self.find(puzzle_id)
        if len(moves) > MAX_MOVES:
            raise PuzzleRefusal("bad_request", f"at most {MAX_MOVES} moves, not {len(moves)}")
        actions = [_parse(obj, i) for i, obj in enumerate(moves)]  # All checked before any solver work.
        game = PuzzleGame(p, self.judge(p))
        verdict = None
        done = 0
        for i, action in enumerate(actions):
            if game.status != "solving":
                raise PuzzleRefusal("not_playing", f"move {i + 1}: the puzzle is over after your move {i} "
                                                   f"({game.status}): send the moves up to there, or start again")
            done = len(game.state.actions())
            try:
                verdict = game.play(action)
            except IllegalActionError as e:
                raise PuzzleRefusal("illegal", f"move {i + 1}: {e}".replace("seat 0 does not hold", "you do not hold"),
                                    e.rule) from None
            except MustamaijaError as e:
                raise PuzzleRefusal("illegal", f"move {i + 1}: {e}") from None
        played = game.state.actions()
        out: dict[str, Any] = {
            "id": p.id,
            "key": p.key,
            "status": game.status,
            "moves": len(actions),
            "verdict": None if verdict is None else {"ok": verdict.ok, "message": verdict.message},
            "played": [_move(a) for a in played],
            "replies": [_move(a) for a in played[done + 1:]] if actions and game.status != "failed" else [],
            "refutation": [_move(a) for a in game.refutation],
            "state": _state_json(game.state, game.your_turn),
        }
        if solution or game.status != "solving":
            line = game.solution_line()
            out["solution"] = {"leads": [_names(m) for m in p.solution], "text": game.safe_leads_text(),
                               "line": [_move(a) for a in line]}
        return out


def _rules_json(p: Puzzle) -> dict[str, Any]:
    """Return the rules as the page reads them: a position without a trump suit has no trumps."""
    rules = p.rules.to_json()
    if p.trump is None:
        rules["trump"] = "none"
    return rules


def _state_json(state: State, playing: bool) -> dict[str, Any]:
    """Return seat 0's table state with every hand open; no legal moves unless ``playing``."""
    out = RENDERER.state_json(state.view(HERO), deal=0)
    # An open endgame: the others' hands are known to you; what they know of yours is everything, so it is not told.
    out["known"] = [[] if seat == HERO else _names(h) for seat, h in enumerate(state.hands)]
    out["hands"] = [_names(h) for h in state.hands]
    out["dealer"] = None
    if not playing:
        out["legal"] = None
    return out


SERVICE: Final = PuzzleService()
"""The object the web renderer's ``puzzles`` names."""

"""Mustamaija's exact analysis: proven hints once the seat knows every card, and the ``solve`` command.

:class:`EndgameAnalysis` is the game's exact solver as the generic hints
(:func:`mustamaija.search.hints.hint`) and ``mustamaija solve`` use it
(:class:`mustamaija.search.kit.ExactSolver`, from the search kit's ``solver()``).

**Hints.** When the view pins the position down (the talon is empty and
every hand is known to the seat: with two players this is always so, by
counting; with more, when the view's ``known`` cards fill every hand), each
lead is proved safe or not (safe: the seat makes sure of not being the
Mustamaija whatever the others do); as defender, each class of defences
(defences that leave the same position up to renaming cards) is proved safe
or not. Unless forced (``method="solver"``) this is done up to
:data:`MAX_EXACT_TWO` cards in hand and on the table with two holders and
:data:`MAX_EXACT_MORE` with more (bigger positions could take the solver
long, so the hint searches instead; a defence counts the led cards, which
it picks up unless it beats them). Nothing here reads a card the seat
cannot see: the view determines every hand.

**Solving.** ``mustamaija solve`` reads a position (``mustamaija-position/1``
or ``/2``, or a game saved from one) or a record whose last position is a
talon-empty endgame with the attacker to lead, and prints the docs/formats.md result or an account for people: the
verdict, the safe first leads and the principal line turn by turn.

:func:`hint` is the generic hint for callers that hold a Mustamaija state,
record or view.

>>> from mustamaija import State
>>> s = State.from_position([["AC", "3C", "QS", "6H", "5H"], ["KH", "2D"]], attacker=0, trump_suit=3)
>>> h = hint(s)
>>> h.method, h.exact, str(h.action)
('solver', True, 'seat 0 leads 3C AC')
>>> sorted(c.words for c in h.candidates if c.safe)
['seat 0 leads 3C', 'seat 0 leads 3C AC', 'seat 0 leads 5H 6H', 'seat 0 leads QS']
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any, Final

from mustamaija.core.cards import QS, CardSet, card_symbol, cards_of
from mustamaija.core.errors import FormatError, MustamaijaError
from mustamaija.games.mustamaija import legality as L
from mustamaija.games.mustamaija.actions import Action, Beat, Declare, Lead
from mustamaija.games.mustamaija.record import Record
from mustamaija.games.mustamaija.sampling import sample_state
from mustamaija.games.mustamaija.solver import Solver, SolveResult, solve
from mustamaija.games.mustamaija.state import LEAD, State
from mustamaija.games.mustamaija.view import View
from mustamaija.search.hints import Candidate, HintResult
from mustamaija.search.hints import hint as generic_hint

__all__ = [
    "DEFAULT_ITERS",
    "MAX_EXACT_MORE",
    "MAX_EXACT_TWO",
    "Candidate",
    "EndgameAnalysis",
    "HintResult",
    "describe_solution",
    "hint",
    "load_position_state",
]

GAME_NAME: Final = "mustamaija"
DEFAULT_ITERS: Final = 200
"""Playouts of a hint asked for with a time limit, as the web app and the terminal do (at most that many)."""
MAX_EXACT_TWO: Final = 20
"""The solver is used for two holders up to this many cards in hand and on the table (beyond, a search: the solver
could take long)."""
MAX_EXACT_MORE: Final = 9
"""The solver is used for three or more holders up to this many cards in hand and on the table."""
_MAX_DEFENCES: Final = 100_000
SUIT_WORDS: Final = ("spades", "hearts", "diamonds", "clubs")


def _candidate(actions: tuple[Action, ...], safe: bool, also: tuple[tuple[Action, ...], ...] = (),
               you: bool = False) -> Candidate:
    words = "; then ".join(a.words() if you else str(a) for a in actions)
    return Candidate(actions, words, safe=safe, also=also)


class EndgameAnalysis:
    """The talon-empty solver for hints and ``mustamaija solve`` (:class:`mustamaija.search.kit.ExactSolver`)."""

    formats = ("mustamaija-position/1", "mustamaija-position/2", "mustamaija-record/1")

    def hint(self, game: Any, view: View, force: bool, you: bool = False) -> HintResult | None:
        """Return proven verdicts when the view determines every hand (and, unless ``force``, the position is small).

        With ``you`` the words are for the seat's player (see :func:`mustamaija.search.hints.hint`).
        """
        hands = _known_hands(view)
        if hands is None:
            if force:
                raise MustamaijaError("the solver needs a talon-empty position where the seat knows every hand")
            return None
        if not force and not _small_enough(hands, view.led):
            return None
        return _exact(view, hands, you)

    def reads(self, obj: object) -> bool:
        """Return whether ``obj`` is a position or a record of this game (a position may leave out its format)."""
        return isinstance(obj, dict) and obj.get("format", self.formats[0]) in self.formats

    def load(self, obj: object) -> State:
        """Return the position to solve (:func:`load_position_state`)."""
        return load_position_state(obj)

    def solve(self, state: State) -> SolveResult:
        """Return the solver's result (:func:`~mustamaija.games.mustamaija.solver.solve`)."""
        return solve(state)

    def describe(self, state: State, result: SolveResult) -> list[str]:
        """Return the solution told for people (:func:`describe_solution`)."""
        return list(describe_solution(state, result))


def hint(target: Record | State | View, seat: int | None = None, budget: int | None = None, *, iters: int | None = None,
         time: float | None = None, seed: int = 0, method: str = "auto") -> HintResult:
    """Return :func:`mustamaija.search.hints.hint` for ``seat`` (default: the seat to act) of a record, state or view.

    ``budget`` is the same as ``iters``; ``time`` the same as ``seconds``.
    """
    if isinstance(target, View):
        if seat is not None and seat != target.seat:
            raise MustamaijaError(f"this is seat {target.seat}'s view, not seat {seat}'s")
        view = target
    else:
        from mustamaija.search.hints import view_for

        view = view_for(GAME_NAME, target, seat)
    return generic_hint(GAME_NAME, view, method=method, iters=iters if iters is not None else budget, seconds=time,
                        seed=seed)


def _known_hands(view: View) -> tuple[int, ...] | None:
    """Return every hand when the view determines them (talon empty, every card placed), else ``None``."""
    if view.talon_size or view.unseen or view.seat is None:
        return None
    hands = list(view.known)
    hands[view.seat] = view.hand
    if any(hands[s].bit_count() != view.hand_sizes[s] for s in range(view.players)):
        return None
    return tuple(hands)


def _small_enough(hands: tuple[int, ...], table: int) -> bool:
    """Return whether the solver takes the position at once: the cards in hand and on the ``table`` count.

    The led cards a defence leaves unbeaten are picked up, so the solver plays on with them: a defence with 9
    cards in three hands and 3 on the table is a 12-card problem, which may take the solver minutes.
    """
    holders = sum(1 for h in hands if h)
    total = sum(h.bit_count() for h in hands) + table.bit_count()
    return total <= (MAX_EXACT_TWO if holders <= 2 else MAX_EXACT_MORE)


def _state_of(view: View) -> State:
    """Return a state consistent with the view (the only one, when the view determines every hand)."""
    return sample_state(view, random.Random(0))


# -- exact hints ---------------------------------------------------------------------------------


def _exact(view: View, hands: tuple[int, ...], you: bool) -> HintResult:
    st = _state_of(view)
    seat = st.to_act
    solver = Solver(st.rules, st.trump, st.n)
    if st.phase == LEAD:
        return _exact_lead(st, solver, seat, you)
    return _exact_defence(st, solver, seat, you)


def _exact_lead(st: State, solver: Solver, seat: int, you: bool) -> HintResult:
    who = "you" if you else f"seat {seat}"
    hands = tuple(st.hands)
    safe = set(solver.safe_leads(hands, seat))
    order = {m: i for i, m in enumerate(solver.leads(hands[seat], hands[st.defender], _others(hands, seat)))}
    cands = [_candidate((Lead(seat, m),), m in safe, you=you) for m in L.iter_leads(hands[seat], st.limit)]
    cands.sort(key=lambda c: (not c.safe, order.get(_lead_mask(c), len(order)), _lead_mask(c).bit_count()))
    decls = []
    for s in solver._declarable(hands[seat]):
        after = solver.sub(s).safe_leads(hands, seat, all_leads=False)
        decls.append(_candidate((Declare(seat, s),), bool(after), you=you))
    if decls and not safe:
        cands = sorted(decls, key=lambda c: not c.safe) + cands
    else:
        cands += decls
    n_safe = sum(1 for c in cands if c.safe)
    best = cands[0]
    if best.safe:
        text = (f"Exact: the talon is empty and {who} {_know(you)} every hand, so the solver decides. "
                f"{n_safe} of {len(cands)} candidate{'s' if len(cands) != 1 else ''} make sure {who} {_be(you)} not "
                f"the Mustamaija, whatever the others do; {best.words} is one of them.")
    else:
        text = (f"Exact: the talon is empty and {who} {_know(you)} every hand, so the solver decides. "
                f"No lead makes sure {who} {_be(you)} not the Mustamaija: against best play the others can force "
                "it, so the hint can only hope they go wrong.")
    return HintResult(GAME_NAME, seat, "lead", "solver", True, cands, text)


def _lead_mask(c: Candidate) -> int:
    a = c.actions[-1]
    return a.cards if isinstance(a, Lead) else 0


def _others(hands: tuple[int, ...], seat: int) -> int:
    m = 0
    for s, h in enumerate(hands):
        if s != seat:
            m |= h
    return m


def _know(you: bool) -> str:
    return "know" if you else "knows"


def _be(you: bool) -> str:
    return "are" if you else "is"


def _exact_defence(st: State, solver: Solver, seat: int, you: bool) -> HintResult:
    who = "you" if you else f"seat {seat}"
    classes: dict[object, list[tuple[Action, ...]]] = {}
    verdict: dict[object, bool] = {}
    options: list[tuple[Solver, tuple[Action, ...]]] = [(solver, ())]
    for s in solver._declarable(st.hands[seat]):
        options.append((solver.sub(s), (Declare(seat, s),)))
    for sv, prefix in options:
        base = st.copy()
        for a in prefix:
            base.play(a)
        seen: set[tuple[int, int]] = set()
        for i, pairs in enumerate(L.iter_beats(base.hands[seat], base.led, base.trump)):
            if i >= _MAX_DEFENCES:
                raise MustamaijaError(f"too many defences to judge one by one (more than {_MAX_DEFENCES})")
            beat = Beat(seat, pairs)
            sig = (beat.beaten, beat.beaters)
            if sig in seen:
                continue
            seen.add(sig)
            t = base.copy()
            t.play(beat)
            if t.is_over or not t.hands[seat]:
                key: object = (prefix, "end", t.loser == seat)
            else:
                key = (prefix, sv.trump, sv.key(tuple(t.hands), t.attacker, seat))
            if key not in verdict:
                verdict[key] = sv.state_safe(t, seat)
                classes[key] = []
            classes[key].append((*prefix, beat))
    cands = []
    for key, group in classes.items():
        group.sort(key=lambda acts: len(acts[-1].pairs) if isinstance(acts[-1], Beat) else 0, reverse=True)
        cands.append(_candidate(group[0], verdict[key], tuple(group[1:]), you=you))
    cands.sort(key=lambda c: (not c.safe, len(c.actions), -_beaten(c)))
    n_safe = sum(1 for c in cands if c.safe)
    best = cands[0]
    head = f"Exact: the talon is empty and {who} {_know(you)} every hand, so the solver decides. "
    if best.safe:
        text = (head + f"{n_safe} of {len(cands)} classes of defence (defences leaving the same position up to "
                f"renaming cards) keep {who} safe whatever the others do; {best.words} is one of them.")
    else:
        text = head + f"No defence keeps {who} safe against best play: the others can force {who} to lose."
    return HintResult(GAME_NAME, seat, "defend", "solver", True, cands, text)


def _beaten(c: Candidate) -> int:
    a = c.actions[-1]
    return len(a.pairs) if isinstance(a, Beat) else 0


# -- solving a position ---------------------------------------------------------------------------


def load_position_state(obj: object) -> State:
    """Return the state to solve from a parsed position (/1 or /2) or record; errors are :class:`FormatError`.

    A /2 position, or a saved game played on from one (its ``actions``), is
    solved at its last position, as a record is; the solver needs that
    position to be a talon-empty lead, and says so, pointing to
    ``mustamaija hint`` (which searches), when it is not.
    """
    from mustamaija.games.mustamaija.position import POSITION_FORMATS, PositionRecord
    from mustamaija.games.mustamaija.record import RECORD_FORMAT

    if isinstance(obj, (str, bytes)):
        try:
            obj = json.loads(obj)
        except (json.JSONDecodeError, UnicodeDecodeError) as e:
            raise FormatError(f"not valid JSON: {e}") from None
    is_record = isinstance(obj, dict) and (obj.get("format") == RECORD_FORMAT or ("deck" in obj and "format" not in obj))
    if not is_record:
        if isinstance(obj, dict) and obj.get("format", POSITION_FORMATS[0]) not in POSITION_FORMATS:
            expected = " or ".join(repr(f) for f in (*POSITION_FORMATS, RECORD_FORMAT))
            raise FormatError(f"unknown format {obj.get('format')!r}: expected {expected}")
        deal = PositionRecord.from_json(obj)
        # The seed only orders a talon of unknown order, which the solver refuses anyway.
        state = deal.position.to_state(0) if not deal.actions else deal.replay()
        what = "the saved game's last position" if deal.actions else "the position"
    else:
        state, what = Record.from_json(obj).replay(), "the record's final position"
    _check_solvable(state, what)
    return state


def _check_solvable(state: State, what: str) -> None:
    """Raise :class:`FormatError` unless the exact solver takes ``state``: a talon-empty lead, between actions."""
    hint = "; `mustamaija hint FILE` suggests a move there by search"
    if state.is_over:
        why = "stopped unfinished (M21)" if state.stopped else f"over: seat {state.loser} lost"
        raise FormatError(f"{what} cannot be solved: the deal is {why}, so there is no position to solve")
    if state.talon_size:
        raise FormatError(f"{what} cannot be solved: the talon still holds {state.talon_size} cards, and the exact "
                          f"solver needs an empty talon{hint}")
    if state.phase != LEAD:
        raise FormatError(f"{what} cannot be solved: seat {state.defender} is to defend, and the exact solver starts "
                          f"from the attacker about to lead{hint}")
    if state.in_progress:
        raise FormatError(f"{what} cannot be solved: seat {state.attacker} is part way through a lead chosen card by "
                          f"card; the exact solver starts between actions{hint}")


def _cards(mask: int) -> str:
    return " ".join(card_symbol(c) for c in sorted(cards_of(mask), key=lambda c: (c % 13, c // 13))) or "-"


def describe_solution(state: State, result: SolveResult) -> Iterator[str]:
    """Yield a human-readable account of a solved position: verdict, safe leads and the principal line."""
    trumps = "no trumps" if state.trump < 0 else f"{SUIT_WORDS[state.trump]} are trumps"
    if state.rules.trump == "marriage" and state.trump < 0:
        trumps = "no trumps yet (a marriage may still be declared)"
    holders = sum(1 for h in state.hands if h)
    yield f"Endgame: {state.n} seats ({holders} with cards), {trumps}, talon empty."
    for seat in range(state.n):
        role = " (attacker, to lead)" if seat == state.attacker else ""
        yield f"  seat {seat}{role}: {CardSet(state.hands[seat]).unicode() if state.hands[seat] else 'out'}"
    a = result.attacker
    if result.attacker_safe:
        yield f"Verdict: seat {a} can make sure of not being the Mustamaija, whatever the others do."
    else:
        other = next(seat for seat in range(state.n) if seat != a and state.hands[seat])
        who = f"seat {other}" if holders == 2 else "the others together"
        yield f"Verdict: seat {a} cannot make sure of it: {who} can force seat {a} to be left holding Q♠."
    yield f"  ({result.nodes} positions searched in {result.time_s:.3f} s)"
    if result.safe_leads:
        leads = sorted(result.safe_leads, key=lambda m: (len(cards_of(m)), sorted(cards_of(m))))
        yield f"Safe first leads ({len(leads)}): " + "; ".join(_cards(m) for m in leads)
    for suit, leads in sorted(result.declarations.items()):
        yield (f"Safe after declaring the marriage in {SUIT_WORDS[suit]} ({len(leads)} leads): "
               + "; ".join(_cards(m) for m in leads))
    yield "Principal line:"
    yield from narrate_line(state, result.line)


def narrate_line(state: State, line: list[Any]) -> Iterator[str]:
    """Yield the principal line turn by turn, ending with who is left holding Q♠, or why the line stops.

    The line is the solver's for the position's attacker: it stops when the
    deal is over, when that seat is out, or when play goes round for ever.
    """
    s = state.copy()
    turn = 0
    text = ""
    for action in line:
        before = s.copy()
        s.play(action)
        if isinstance(action, Declare):
            text += f"seat {action.seat} declares the marriage in {SUIT_WORDS[action.suit]} ({SUIT_WORDS[action.suit]} are trumps); "
        elif isinstance(action, Lead):
            turn += 1
            text = f"{turn:3d}. {text}seat {action.seat} leads {_cards(action.cards)}"
            if not s.hands[action.seat]:
                text += " and is out"
            text += "; "
        elif isinstance(action, Beat):
            parts = []
            if action.pairs:
                parts.append("beats " + ", ".join(f"{card_symbol(t)} with {card_symbol(b)}" for t, b in action.pairs))
            taken = before.led & ~action.beaten
            if taken:
                parts.append(f"picks up {_cards(taken)}")
            text += f"seat {action.seat} " + " and ".join(parts)
            if not s.hands[action.seat] and not s.is_over:
                text += " and is out"
            if not taken and not s.is_over:
                text += f", so seat {action.seat} leads next"
            yield text + "."
            text = ""
    if text:
        yield text.rstrip("; ") + "."
    if s.is_over:
        loser = s.loser
        yield f"Seat {loser} is left holding Q♠ ({CardSet(s.hands[loser]).unicode()}): the Mustamaija."
    elif not s.hands[state.attacker]:
        # The solver's line ends once the seat it solves for is out: whoever is left, it is not the loser.
        yield f"The line stops here: seat {state.attacker} is out, so it cannot be the Mustamaija."
    else:
        holder = next(seat for seat in range(s.n) if s.hands[seat] >> QS & 1)
        yield (f"The line stops here with Q♠ in seat {holder}'s hand: from now on play can go round for ever, "
               "which M21 stops without a loser.")

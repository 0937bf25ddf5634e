"""``mustamaija solve FILE [--json]``: solve a talon-empty endgame exactly (FORMATS.md).

FILE is a position (``mustamaija-position/1``) or, as a convenience, a game
record (``mustamaija-record/1``) whose final position has an empty talon and
the attacker about to lead. With ``--json`` the FORMATS.md object is printed
(with the added keys ``nodes``, the positions searched, and ``time_s``);
without it, an account for people: the verdict, the safe first leads and the
principal line turn by turn.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from typing import Any

from mustamaija.core.cards import QS, CardSet, card_symbol, cards_of
from mustamaija.core.errors import FormatError, MustamaijaError
from mustamaija.games.mustamaija.actions import Beat, Declare, Lead
from mustamaija.games.mustamaija.state import State

SUIT_WORDS = ("spades", "hearts", "diamonds", "clubs")


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register the subcommand."""
    p = sub.add_parser("solve", help="solve a talon-empty endgame exactly: can the attacker make sure of not losing?")
    p.add_argument("file", metavar="FILE",
                   help="a position (mustamaija-position/1), or a record whose final position is a talon-empty "
                        "endgame with the attacker to lead")
    p.add_argument("--json", action="store_true", help="print the FORMATS.md result object")
    p.set_defaults(run=run)


def load_position_state(path: str) -> State:
    """Return the state to solve from a position file or a record file; errors are :class:`FormatError`."""
    from mustamaija.games.mustamaija.position import POSITION_FORMAT, Position
    from mustamaija.games.mustamaija.record import RECORD_FORMAT, Record

    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise FormatError(f"cannot read the file: {e.strerror or e}") from None
    try:
        obj: Any = json.loads(data)
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise FormatError(f"not valid JSON: {e}") from None
    is_record = isinstance(obj, dict) and (obj.get("format") == RECORD_FORMAT or ("deck" in obj and "format" not in obj))
    if not is_record:
        if isinstance(obj, dict) and obj.get("format", POSITION_FORMAT) != POSITION_FORMAT:
            raise FormatError(f"unknown format {obj.get('format')!r}: expected {POSITION_FORMAT!r} or {RECORD_FORMAT!r}")
        return Position.from_json(obj).to_state()
    state = Record.from_json(obj).replay()
    try:
        return Position.from_state(state).to_state()
    except FormatError as e:
        raise FormatError(f"the record's final position cannot be solved: {e}") from None


def run(args: argparse.Namespace) -> int:
    """Solve the file; print the result, or the error on standard error."""
    from mustamaija.games.mustamaija.solver import solve

    try:
        state = load_position_state(args.file)
        result = solve(state)
    except MustamaijaError as e:
        print(f"{args.file}: {e}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(result.to_json()), flush=True)
    else:
        for line in describe(state, result):
            print(line)
    return 0


def _cards(mask: int) -> str:
    return " ".join(card_symbol(c) for c in sorted(cards_of(mask), key=lambda c: (c % 13, c // 13))) or "-"


def describe(state: State, result: Any) -> Iterator[str]:
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
    """Yield the principal line turn by turn, ending with who is left holding Q♠."""
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
    else:
        holder = next(seat for seat in range(s.n) if s.hands[seat] >> QS & 1)
        yield (f"The line stops here with Q♠ in seat {holder}'s hand: from now on play can go round for ever, "
               "which M21 stops without a loser.")

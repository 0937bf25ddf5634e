"""Black Maria in a plain terminal: a passing screen, the trick as it grows, and running scores.

A line-based front end over :class:`~mustamaija.games.black_maria.session.Table`
(no full-screen UI): type cards such as ``QS AH 2C`` to pass, one card such
as ``10h`` or ``q♠`` to play, ``?`` for the legal cards, ``hint`` for the
heuristic's choice and ``quit`` to stop. Input and output are functions, so
the game can be scripted::

    python -m mustamaija.games.black_maria.console --players 4 --bots heuristic --seed 7
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence

from mustamaija.core.cards import SUIT_SYMBOLS, card_symbol, cards_of, parse_cards
from mustamaija.core.errors import CardError, IllegalActionError, MustamaijaError
from mustamaija.core.protocol import Player
from mustamaija.games.black_maria.players import HeuristicPlayer
from mustamaija.games.black_maria.rules import Rules
from mustamaija.games.black_maria.session import Event, Table
from mustamaija.games.black_maria.view import View
from mustamaija.players.registry import make_bot as _make_bot


def _bm_bot(spec: str, seed: int | None = None) -> Player:
    return _make_bot(spec, seed or 0, game="black-maria")  # type: ignore[no-any-return]

__all__ = ["hand_text", "main", "run_console"]

_RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


def hand_text(mask: int) -> str:
    """Return a hand suit by suit, such as ``"♠ 3 K | ♥ 2 J | ♦ - | ♣ 10"``."""
    parts = []
    for suit in range(4):
        ranks = [_RANKS[c % 13] for c in cards_of(mask) if c // 13 == suit]
        parts.append(f"{SUIT_SYMBOLS[suit]} {' '.join(ranks) or '-'}")
    return " | ".join(parts)


def _cards(cards: Sequence[int]) -> str:
    return " ".join(card_symbol(c) for c in cards) or "-"


class _Console:
    def __init__(self, table: Table, seat: int, ask: Callable[[str], str], say: Callable[[str], None]) -> None:
        self.table = table
        self.seat = seat
        self.ask = ask
        self.say = say
        self.hand_points = [0] * table.n
        self.trick_no = 0
        self.in_trick = 0

    def who(self, s: int) -> str:
        return "you" if s == self.seat else f"seat {s}"

    def show(self, events: list[Event]) -> None:
        for e in events:
            if e.kind == "pass" and e.seat != self.seat:
                self.say(f"{self.who(e.seat)} passes {self.table.view(self.seat).pass_count} cards face down")
            elif e.kind == "exchange":
                v = self.table.view(self.seat)
                self.say(f"All have passed. You gave {_cards(cards_of(v.passed))} to seat {(self.seat + 1) % v.players} "
                         f"and received {_cards(cards_of(v.received))} from seat {(self.seat - 1) % v.players}.")
            elif e.kind == "play":
                if self.in_trick == 0:
                    self.trick_no += 1
                    self.say(f"Trick {self.trick_no}:")
                self.in_trick += 1
                self.say(f"  {self.who(e.seat)} plays {card_symbol(e.card)}")
            elif e.kind == "trick":
                self.in_trick = 0
                self.hand_points[e.seat] += e.points
                gain = f", +{e.points} points" if e.points else ""
                self.say(f"  {self.who(e.seat)} won the trick{gain}. This hand: " + self.points_line(self.hand_points))

    def points_line(self, points: Sequence[int]) -> str:
        return ", ".join(f"{self.who(s)} {p}" for s, p in enumerate(points))

    def prompt(self, v: View, text: str) -> str | None:
        while True:
            try:
                line = self.ask(text).strip()
            except EOFError:
                return None
            low = line.lower()
            if low in ("quit", "q", "exit"):
                return None
            if low == "?":
                if v.phase == 0:
                    self.say(f"Legal: any {v.pass_count} of {_cards(cards_of(v.hand))}")
                else:
                    self.say("Legal: " + _cards(cards_of(v.legal_mask())))
                continue
            if low == "hint":
                self.say("The heuristic would " + self.hint(v))
                continue
            if line:
                return line

    def hint(self, v: View) -> str:
        if v.phase == 0:
            from mustamaija.games.black_maria.players.heuristic import pass_choice

            return "pass " + _cards(cards_of(pass_choice(v.hand, v.pass_count)))
        return "play " + card_symbol(HeuristicPlayer().act(v))

    def turn(self) -> bool:
        v = self.table.view(self.seat)
        if v.phase == 0:
            self.say("")
            self.say(f"Passing (B3): choose {v.pass_count} cards for seat {(self.seat + 1) % v.players}, on your left. "
                     "You see what you receive only when everybody has chosen.")
            self.say("Your hand: " + hand_text(v.hand))
            line = self.prompt(v, f"Pass {v.pass_count} cards> ")
        else:
            if not v.trick:
                self.say(f"You lead trick {self.trick_no + 1}. Hearts {'are' if v.broken else 'are not yet'} broken.")
            else:
                shown = ", ".join(f"{self.who(s)} {card_symbol(c)}" for s, c in zip(v.trick_seats, v.trick, strict=True))
                self.say(f"Trick {self.trick_no} so far: {shown}")
            self.say("Your hand: " + hand_text(v.hand))
            line = self.prompt(v, "Play> ")
        if line is None:
            return False
        try:
            cards = parse_cards(line)
            choice: list[int] | int = cards if v.phase == 0 else (cards[0] if len(cards) == 1 else -1)
            if choice == -1:
                raise CardError(f"play one card, not {len(cards)}")
            self.show(self.table.act(self.seat, choice))
        except (IllegalActionError, CardError) as e:
            self.say(f"Not allowed: {e}")
        return True

    def play_hand(self) -> bool:
        state = self.table.deal()
        self.hand_points = [0] * self.table.n
        self.trick_no = self.in_trick = 0
        number = len(self.table.results) + 1
        self.say("")
        self.say(f"=== Hand {number}: seat {state.dealer} deals. Totals: {self.points_line(self.table.totals)}")
        events = self.table.run_bots()
        while True:
            self.show(events)
            if self.table.waiting_for() is None:
                break
            if not self.turn():
                return False
            events = []
        result = self.table.finish()
        self.say(f"Hand {number} over. Points: {self.points_line(result.points)}")
        self.say(f"Totals: {self.points_line(self.table.totals)}")
        return True


def run_console(players: int = 4, bots: str = "heuristic", seat: int = 0, rules: Rules | None = None,
                seed: int | None = None, ask: Callable[[str], str] = input,
                say: Callable[[str], None] = print) -> int:
    """Play a game against bots in the terminal; return 0 when it ends, 1 when the person quits."""
    specs = [b.strip() for b in bots.split(",") if b.strip()] or ["heuristic"]
    seats: list[Player | None] = []
    for s in range(players):
        seats.append(None if s == seat else _bm_bot(specs[(s - seat - 1) % players % len(specs)],
                                                      seed=None if seed is None else seed * 16 + s))
    rules = rules or Rules(hands=None, target_score=50)
    table = Table(seats, rules, seed)
    console = _Console(table, seat, ask, say)
    say(f"Black Maria, {players} players: you are seat {seat}; {rules.describe()}.")
    say("Avoid hearts (1 point each), A♠ (7), K♠ (10) and Black Maria, Q♠ (13). Lowest total wins.")
    while not table.over:
        if not console.play_hand():
            say("Game abandoned.")
            return 1
    winners = table.match.winners()
    say("Game over. " + ("You win!" if seat in winners else f"Winner: {', '.join(console.who(w) for w in winners)}."))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the command line and play."""
    p = argparse.ArgumentParser(prog="python -m mustamaija.games.black_maria.console", description="Play Black Maria against bots.")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--bots", default="heuristic", help="bot specs for the other seats, comma-separated")
    p.add_argument("--seat", type=int, default=0)
    p.add_argument("--hands", type=int, default=None, help="number of hands (default: play to the target)")
    p.add_argument("--target", type=int, default=50, help="target score (default 50)")
    p.add_argument("--renege", action="store_true", help="allow reneging, 10 points each (B7)")
    p.add_argument("--seed", type=int, default=None)
    args = p.parse_args(argv)
    try:
        rules = Rules(target_score=args.target, hands=args.hands, allow_renege=args.renege)
        return run_console(args.players, args.bots, args.seat, rules, args.seed)
    except MustamaijaError as e:
        print(f"error: {e}")
        return 2


if __name__ == "__main__":
    raise SystemExit(main())

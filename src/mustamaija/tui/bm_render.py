"""Rich renderables for the Black Maria table: the trick, the passing, the scores and the game panel.

Everything here draws from the person's :class:`~mustamaija.games.black_maria.view.View`
(plus names and totals), so nothing the seat cannot know is ever shown.

>>> from mustamaija.games.black_maria import State
>>> v = State.from_seed(players=4, seed=7).view(0)
>>> print(pass_text(v, ["You", "Aino", "Eero", "Helmi"]).plain.splitlines()[0])
Passing (B3): every seat passes 3 cards to its left; 0 of 4 have passed.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from mustamaija.core.cards import SUIT_SYMBOLS, cards_of
from mustamaija.games.black_maria.legality import trick_winner
from mustamaija.games.black_maria.view import View
from mustamaija.tui.bm_session import PENALTY_MASK, LastTrick
from mustamaija.tui.render import card_label, cards_label

__all__ = ["game_text", "pass_text", "scores_table", "trick_text"]

_SUIT_WORDS = ("spades", "hearts", "diamonds", "clubs")


def pass_text(view: View, names: Sequence[str]) -> Text:
    """Return the passing panel: who has passed, and that nothing received shows before all have (B3)."""
    n = view.players
    me = view.seat if view.seat is not None else 0
    out = Text(f"Passing (B3): every seat passes {view.pass_count} cards to its left; "
               f"{view.npassed} of {n} have passed.", style="bold")
    out.append(f"\nYou pass to {names[(me + 1) % n]} and receive from {names[(me - 1) % n]}.")
    for i in range(n):
        seat = (view.dealer + 1 + i) % n  # The order the seats pass in.
        done = i < view.npassed
        mark = "✓ passed face down" if done else ("… choosing" if seat == view.to_act else "waiting")
        if seat == me and done:
            mark = "✓ you passed " + " ".join(card_label(c).plain for c in cards_of(view.passed))
        out.append(f"\n  {names[seat]:<8} ", style="bold" if seat == me else "")
        out.append(mark, style="green" if done else ("yellow" if seat == view.to_act else "dim"))
    out.append("\nThe cards you receive show only once everyone has passed.", style="italic dim")
    return out


def trick_text(view: View, names: Sequence[str], last: LastTrick | None, *, show_last: bool = False) -> Text:
    """Return the trick panel: each seat's card in the order of play, who led, who is winning, and the last trick.

    ``show_last`` shows the last trick in full in place of the current one.
    """
    n = view.players
    out = Text()
    hearts = Text("hearts broken", style="bold red") if view.broken else Text("hearts not broken", style="dim")
    if show_last or (not view.trick and last is not None and view.is_over):
        if last is None:
            return Text("No trick has been played yet.", style="dim")
        out.append(f"Last trick ({last.number}), led by {names[last.leader]}:", style="bold")
        _rows(out, names, last.seats(n), last.cards, last.winner, dim=not show_last)
        out.append(f"\n{names[last.winner]} won it" + (f", +{last.points}" if last.points else ", no points"))
        out.append("  ·  ")
        out.append_text(hearts)
        return out
    number = sum(view.tricks) + 1
    if view.trick:
        led = view.trick[0] // 13
        out.append(f"Trick {number}: {names[view.leader]} led {SUIT_SYMBOLS[led]} ({_SUIT_WORDS[led]})", style="bold")
        seats = list(view.trick_seats)
        winner = trick_winner(view.trick, view.leader, n)
        _rows(out, names, seats, view.trick, winner, dim=False, to_act=view.to_act)
    elif not view.is_over:
        out.append(f"Trick {number}: {names[view.to_act]} to lead", style="bold")
    out.append("\n")
    out.append_text(hearts)
    if last is not None:
        out.append(f"\nLast trick: {names[last.winner]} won ", style="dim")
        out.append_text(cards_label(list(last.cards)))
        out.append((f" (+{last.points})" if last.points else " (no points)") + " · F6 shows it", style="dim")
    return out


def _rows(out: Text, names: Sequence[str], seats: Sequence[int], cards: Sequence[int], winner: int, *, dim: bool,
          to_act: int = -1) -> None:
    for i, (seat, card) in enumerate(zip(seats, cards, strict=False)):
        out.append(f"\n  {names[seat]:<8} ")
        out.append_text(card_label(card, "dim" if dim else ""))
        notes = []
        if i == 0:
            notes.append("led")
        if seat == winner:
            notes.append("winning" if to_act >= 0 else "won")
        if notes:
            out.append("  ← " + ", ".join(notes), style="bold yellow" if seat == winner and not dim else "dim")
    if to_act >= 0 and to_act not in seats:
        out.append(f"\n  {names[to_act]:<8} ")
        out.append("…", style="yellow")


def scores_table(view: View, names: Sequence[str], labels: Sequence[str], totals: Sequence[int]) -> Text:
    """Return the seats: cards held, tricks, points this hand and the running totals (B8).

    Under each seat: its bot and the penalty cards it has taken this hand (everyone sees the tricks).
    """
    out = Text(f"{'seat':<17}{'cards':>5}{'tricks':>7}{'hand':>5}{'total':>6}", style="bold")
    points = view.points()
    for s in range(view.players):
        mark = "▶ " if s == view.to_act and not view.is_over else "  "
        dealer = " (D)" if s == view.dealer else ""
        name = (mark + names[s] + dealer)[:17]
        out.append("\n")
        out.append(f"{name:<17}", style="bold" if s == view.seat else "")
        out.append(f"{view.hand_sizes[s]:>5}{view.tricks[s]:>7}{points[s]:>5}{totals[s]:>6}")
        out.append("\n    " + (labels[s] if s != view.seat else "you"), style="dim")
        taken = view.won[s] & PENALTY_MASK
        if taken:
            out.append("  ")
            out.append_text(cards_label(taken))
    out.append("\n(D) dealer · ▶ to act", style="dim")
    return out


def game_text(view: View, hand_no: int, rules_line: str, seed: int, pace: float) -> Text:
    """Return the game panel: the hand number, the rules, the seed and the bots' pace."""
    out = Text()
    out.append("Hand ", style="bold")
    out.append(str(hand_no))
    out.append("\nRules ", style="bold")
    out.append(rules_line)
    out.append("\nPenalties ", style="bold")
    out.append("♥ 1 each, A♠ 7, K♠ 10, Q♠ 13")
    out.append("\nSeed ", style="bold")
    out.append(f"{seed} · pace {pace:g} s (+/-)")
    return out

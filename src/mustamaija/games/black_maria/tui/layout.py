"""The Black Maria table's renderer: a trick-taking layout, with the scores, the game, the trick (or the passing).

Everything here draws from the person's :class:`~mustamaija.games.black_maria.view.View`
(plus names and totals), so nothing the seat cannot know is ever shown;
only a replay (``reveal``) shows every hand.

>>> from mustamaija.games.black_maria import State
>>> v = State.from_seed(players=4, seed=7).view(0)
>>> print(pass_text(v, ["You", "Aino", "Eero", "Helmi"]).plain.splitlines()[0])
Passing (B3): every seat passes 3 cards to its left; 0 of 4 have passed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from mustamaija.core.cards import QS, SUIT_SYMBOLS, cards_of
from mustamaija.games.black_maria.legality import penalty_of, trick_winner
from mustamaija.games.black_maria.state import PASS
from mustamaija.games.black_maria.tui.controller import PENALTY_MASK
from mustamaija.games.black_maria.view import View
from mustamaija.tui.describe import SUIT_WORDS, sort_hand
from mustamaija.tui.plugin import Renderer, Scene
from mustamaija.tui.render import card_label, cards_label, key_lines

if TYPE_CHECKING:
    from mustamaija.tui.session import GameSession

__all__ = ["BlackMariaRenderer", "LastTrick", "last_trick", "pass_text", "scores_table", "trick_text"]

HELP: Final = """
Black Maria (docs/black-maria.md, B1–B8): avoid the penalty cards. Every heart costs 1, A♠ 7, K♠ 10 and Q♠, Black Maria, 13.
Follow suit when you can; hearts may not be led until a heart has been played to another suit's trick (unless you
hold only hearts). The lowest total wins.

While the line is empty: **space** (or a click) chooses a card to pass, or puts it back; **Enter** passes the chosen
cards, or plays the card under the cursor. **F6** (or `last`) shows the last trick in full, again to go back.

## Moves

- `2S QH KD` — pass these cards (as many as the pass needs)
- `QS`, `10h`, `q♠` — play this card
- `legal` — the cards you may play

In your hand, cards you cannot play now are dimmed, chosen cards are raised and the cards you received are marked
`new`. The trick panel shows each seat's card in the order played, who led and who is winning.
"""


@dataclass(frozen=True)
class LastTrick:
    """A finished trick: its number, who led, the cards in the order played, the winner and its points."""

    number: int
    leader: int
    cards: tuple[int, ...]
    winner: int
    points: int

    def seats(self, players: int) -> list[int]:
        """Return the seat that played each card."""
        return [(self.leader + i) % players for i in range(len(self.cards))]


def last_trick(view: View) -> LastTrick | None:
    """Return the last finished trick, from the plays everyone has seen (``None`` before the first is done)."""
    n = view.players
    done = len(view.plays) // n
    if not done:
        return None
    plays = view.plays[(done - 1) * n: done * n]
    cards = tuple(p.card for p in plays)
    leader = plays[0].seat
    return LastTrick(done, leader, cards, trick_winner(cards, leader, n), penalty_of(sum(1 << c for c in cards)))


def pass_text(view: View, names: Sequence[str]) -> Text:
    """Return the passing panel: who has passed, and that nothing received shows before all have (B3)."""
    n = view.players
    me = view.seat if view.seat is not None else -1
    out = Text(f"Passing (B3): every seat passes {view.pass_count} cards to its left; "
               f"{view.npassed} of {n} have passed.", style="bold")
    if me >= 0:
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
        out.append(f"Trick {number}: {names[view.leader]} led {SUIT_SYMBOLS[led]} ({SUIT_WORDS[led]})", style="bold")
        winner = trick_winner(view.trick, view.leader, n)
        _rows(out, names, list(view.trick_seats), view.trick, winner, dim=False, to_act=view.to_act)
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


def scores_table(view: View, names: Sequence[str], labels: Sequence[str], totals: Sequence[int],
                 hands: Sequence[int] = ()) -> RenderableType:
    """Return the seats: cards held, tricks, points this hand and the running totals (B8).

    Under each seat: its bot and the penalty cards it has taken this hand
    (everyone sees the tricks); with ``hands`` (a replay), its cards too. In a
    narrow terminal the names give way (an ellipsis), never the figures.
    """
    t = Table(box=None, show_header=True, header_style="bold", pad_edge=False, expand=True, padding=(0, 1, 0, 0),
              caption="(D) dealer · ▶ to act", caption_style="dim", caption_justify="left")
    t.add_column("seat", no_wrap=not hands, overflow="ellipsis" if not hands else "fold", ratio=1)  # A replay's hands wrap.
    for header in ("cards", "tricks", "hand", "total"):
        t.add_column(header, justify="right", no_wrap=True, min_width=len(header))
    points = view.points()
    for s in range(view.players):
        mark = "▶ " if s == view.to_act and not view.is_over else "  "
        who = Text(mark + names[s] + (" (D)" if s == view.dealer else ""), style="bold" if s == view.seat else "")
        who.append("\n  " + (labels[s] if s != view.seat else "you"), style="dim")
        taken = view.won[s] & PENALTY_MASK
        if taken:
            who.append("  ")
            who.append_text(cards_label(taken))
        if hands:
            who.append("\n  ")
            who.append_text(cards_label(sort_hand(hands[s])))
        t.add_row(who, str(view.hand_sizes[s]), str(view.tricks[s]), str(points[s]), str(totals[s]))
    return t


class BlackMariaRenderer(Renderer):
    """The panels of the Black Maria table (a trick-taking game): the passing, the trick, the scores."""

    titles: Mapping[str, str] = {"seats": "Scores", "info": "Game", "table": "Trick"}
    placeholder = ("type cards (2S QH KD to pass, QS to play) or a command (hint, last, save, help); "
                   "← → space Enter choose from the hand")
    toggles: Mapping[str, str] = {"last": "alternate"}
    help_markdown = HELP
    screenshots: Mapping[str, Callable[[GameSession], bool]] = {
        "bm-pass.svg": lambda s: s.state.phase == PASS,
        "bm-table.svg": lambda s: sum(s.state.tricks) >= 5 and len(s.state.trick) >= 2 and any(s.state.points()),
    }

    def seats(self, scene: Scene) -> RenderableType:
        """Return the scores: every seat's cards, tricks, points this hand and total, its bot and penalty cards."""
        totals = scene.totals if scene.totals is not None else [0] * scene.state.n
        hands = scene.state.hands if scene.reveal else ()
        return scores_table(scene.state.view(scene.seat), scene.names, scene.labels, totals, hands)

    def info(self, scene: Scene) -> RenderableType:
        """Return the hand, the rules and the penalties."""
        st = scene.state
        return key_lines([*scene.info, ("Rules", st.rules.describe()), ("Penalties", "♥ 1 each, A♠ 7, K♠ 10, Q♠ 13")],
                         width=10)

    def table(self, scene: Scene) -> tuple[str, RenderableType]:
        """Return the passing while it goes on, else the trick (F6: the last trick in full)."""
        v = scene.state.view(scene.seat)
        if v.phase == PASS:
            return "Passing", pass_text(v, scene.names)
        title = "Last trick" if scene.alternate else "Trick"
        return title, trick_text(v, scene.names, last_trick(v), show_last=scene.alternate)

    def hand_title(self, scene: Scene) -> str:
        """Return the hand's title: whom you pass to, or whom the cards marked ``new`` came from."""
        v = scene.state.view(scene.seat)
        me = v.seat if v.seat is not None else 0
        if v.phase == PASS:
            return f"Your hand · choose {v.pass_count} cards to pass to {scene.names[(me + 1) % v.players]}"
        if v.received:
            return f"Your hand · new: received from {scene.names[(me - 1) % v.players]}"
        return "Your hand"

    def deal_over(self, session: GameSession) -> RenderableType:
        """Return who took Black Maria (Q♠) this hand."""
        st = session.state
        holder = next((s for s in range(st.n) if st.view(None).won[s] >> QS & 1), None)
        head = Text(f"Hand {session.deal_no + 1} is over.", style="bold")
        if holder is not None:
            who = "You" if holder == session.human else session.names[holder]
            head.append(f" {who} took Black Maria (Q♠).", style="bold magenta")
        return head

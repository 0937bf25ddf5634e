"""Choosing cards by keyboard: a cursor over the sorted hand, the cards chosen for a lead, the pairs of a defence.

Every change is checked with the engine's own checks, so a card that may
not join a lead or beat a led card is refused with the message of the rule
it breaks.

>>> from mustamaija.core.cards import parse_card
>>> from mustamaija.games.mustamaija import State, deck_for_hands
>>> deck = deck_for_hands([["9H", "4H", "2S", "3S", "5C"], ["JH", "QS", "7D", "8D", "TC"]], dealer=1)
>>> s = State.deal(2, deck, dealer=1)
>>> sel = Selection()
>>> sel.reset(s, 0)
>>> [card_name(c) for c in sel.order]
['2S', '3S', '4H', '9H', '5C']
>>> sel.toggle(s, 0, parse_card("4H")), sel.toggle(s, 0, parse_card("9H")), sel.preview(s, 0)
('4♥ chosen', '9♥ chosen', 'Enter: lead 4♥ 9♥')
>>> sel.toggle(s, 0, parse_card("2S"))
Traceback (most recent call last):
...
mustamaija.core.errors.IllegalActionError: M10: a lead must be all one suit: 2S and 4H differ
>>> sel.action(s, 0)
Lead(seat=0, cards=1081344)
"""

from __future__ import annotations

from collections.abc import Sequence

from mustamaija.core.cards import SUIT_MASKS, SUIT_SYMBOLS, card_name, card_symbol, cards_of
from mustamaija.core.errors import IllegalActionError, MustamaijaError
from mustamaija.games.mustamaija import legality as L
from mustamaija.games.mustamaija.actions import Action, Beat, Lead
from mustamaija.games.mustamaija.state import DEFEND, LEAD, State
from mustamaija.tui.describe import cards_text, sort_hand

__all__ = ["Selection", "playable"]


def playable(state: State, seat: int, chosen: int = 0, pairs: dict[int, int] | None = None) -> int:
    """Return the mask of the seat's cards that can be played next, given what is chosen already.

    Leading: any card alone; once cards are chosen, higher or lower cards of
    their suit while the lead limit allows (M10, M11). Defending: cards that
    beat a led card not yet paired (M13), and the cards already paired.
    """
    if state.is_over or state.to_act != seat:
        return 0
    hand = state.hands[seat]
    if state.phase == LEAD:
        if not chosen:
            return hand
        suit = (chosen & -chosen).bit_length() - 1
        same = hand & SUIT_MASKS[suit // 13]
        room = chosen.bit_count() < min(state.limit, state.rules.max_lead or 52)
        return chosen | (same if room else 0)
    pairs = pairs or {}
    used = 0
    for b in pairs.values():
        used |= 1 << b
    avail = hand & ~used
    out = used
    for led in cards_of(state.led):
        if led not in pairs:
            out |= avail & L.BEATERS[state.trump][led]
    return out


class Selection:
    """What the person has chosen so far for the action in hand; reset at every new decision.

    It is the Mustamaija table's :class:`~mustamaija.tui.plugin.HandChoice`.
    """

    def __init__(self) -> None:
        self.order: list[int] = []
        self.cursor = 0
        self.chosen = 0
        self.pairs: dict[int, int] = {}
        self.target = -1
        self.key: tuple[int, int] = (-1, -1)

    def reset(self, state: State, seat: int) -> None:
        """Start a new decision: keep the cursor on the same card if it is still held."""
        old = self.order[self.cursor] if self.order and 0 <= self.cursor < len(self.order) else -1
        self.order = sort_hand(state.hands[seat], state.trump)
        self.cursor = self.order.index(old) if old in self.order else 0
        self.chosen = 0
        self.pairs = {}
        self.target = self._next_target(state, seat)
        self.key = (state.nlog, state.phase)

    def sync(self, state: State, seat: int) -> None:
        """Reset when the state has moved on since the last reset (a new decision, an undo, a new deal)."""
        if self.key != (state.nlog, state.phase) or sort_hand(state.hands[seat], state.trump) != self.order:
            self.reset(state, seat)

    @property
    def card(self) -> int:
        """Return the card under the cursor, or -1 for an empty hand."""
        return self.order[self.cursor] if self.order else -1

    def move(self, delta: int) -> None:
        """Move the cursor, wrapping round the hand."""
        if self.order:
            self.cursor = (self.cursor + delta) % len(self.order)

    def goto(self, index: int) -> bool:
        """Put the cursor on the card at ``index`` (0-based); return whether it exists."""
        if 0 <= index < len(self.order):
            self.cursor = index
            return True
        return False

    def _next_target(self, state: State, seat: int) -> int:
        """Return the lowest led card without a beater that some unused card can beat, else any unpaired one."""
        if state.phase != DEFEND:
            return -1
        used = sum(1 << b for b in self.pairs.values())
        avail = state.hands[seat] & ~used
        open_led = [c for c in cards_of(state.led) if c not in self.pairs]
        for c in open_led:
            if avail & L.BEATERS[state.trump][c]:
                return c
        return open_led[0] if open_led else -1

    def cycle_target(self, state: State, delta: int) -> None:
        """Point at the next (or previous) led card."""
        led = cards_of(state.led)
        if not led:
            return
        i = led.index(self.target) if self.target in led else -1
        self.target = led[(i + delta) % len(led)]

    def toggle(self, state: State, seat: int, card: int | None = None) -> str:
        """Choose or unchoose a card (the cursor's by default); return what happened, or raise naming the rule."""
        if not _my_turn(state, seat):
            raise MustamaijaError("wait for your turn")
        c = self.card if card is None else card
        if c < 0:
            return ""
        if state.phase == LEAD:
            bit = 1 << c
            if self.chosen & bit:
                self.chosen &= ~bit
                return f"{card_symbol(c)} put back"
            state.verify_lead(self.chosen | bit, seat)
            self.chosen |= bit
            return f"{card_symbol(c)} chosen"
        for led, b in list(self.pairs.items()):
            if b == c:
                del self.pairs[led]
                self.target = led
                return f"{card_symbol(c)} no longer beats {card_symbol(led)}"
        candidates = [self.target] if self.target >= 0 else []
        candidates += [t for t in cards_of(state.led) if t not in self.pairs and t != self.target]
        for t in candidates:
            trial = {**self.pairs, t: c}
            if state.can_beat(trial, seat):
                self.pairs = trial
                self.target = self._next_target(state, seat)
                return f"{card_symbol(c)} beats {card_symbol(t)}"
        if self.target < 0:
            raise IllegalActionError("M13", "every led card has a beater already: one beating card beats exactly one "
                                            "led card")
        state.verify_beat({**self.pairs, self.target: c}, seat)
        raise IllegalActionError("M13", f"{card_symbol(c)} beats none of the led cards still open")  # pragma: no cover

    def action(self, state: State, seat: int) -> Action:
        """Return the action Enter plays: the chosen lead (or the cursor's card alone), or the defence."""
        if not _my_turn(state, seat):
            raise MustamaijaError("wait for your turn")
        if state.phase == LEAD:
            return Lead(seat, self.chosen or (1 << self.card if self.card >= 0 else 0))
        return Beat.of(seat, self.pairs)

    def preview(self, state: State, seat: int, names: Sequence[str] = ()) -> str:
        """Return what Enter would do now, for the prompt line (and that ``m`` declares a marriage, when one can be)."""
        if not _my_turn(state, seat):
            return ""
        if state.phase == LEAD:
            if self.chosen:
                text = f"Enter: lead {cards_text(self.chosen)}"
            else:
                text = f"Enter: lead {card_symbol(self.card)} alone" if self.card >= 0 else ""
            decl = [d.suit for d in state.legal_declares()] if not state.in_progress else []
            if decl:
                text += "  ·  m: declare the marriage in " + " or ".join(SUIT_SYMBOLS[s] for s in decl)
            return text
        beaten = sum(1 << t for t in self.pairs)
        parts = [f"beat {card_symbol(t)} with {card_symbol(b)}" for t, b in sorted(self.pairs.items())]
        taken = state.led & ~beaten
        if taken:
            parts.append(f"pick up {cards_text(taken)}")
        return "Enter: " + ", ".join(parts)

    def describe_target(self) -> str:
        """Return the led card the next beater goes to."""
        return card_name(self.target) if self.target >= 0 else "-"

    # -- the rest of a hand choice (mustamaija.tui.plugin.HandChoice) ------------------------------

    def aim(self, state: State, seat: int, delta: int) -> bool:
        """Defending: point at another led card (↑ ↓); return whether there was one to point at."""
        if state.phase != DEFEND or not _my_turn(state, seat):
            return False
        self.cycle_target(state, delta)
        return True

    def click(self, state: State, seat: int, index: int) -> str:
        """Choose the clicked card, as space would."""
        return self.toggle(state, seat) if self.goto(index) else ""

    def bright(self, state: State, seat: int) -> int:
        """Return the cards that can be played next (all, while it is not the seat's turn)."""
        return playable(state, seat, self.chosen, self.pairs) if _my_turn(state, seat) else -1

    def marks(self, state: State, seat: int) -> dict[int, str]:
        """Return the led card each chosen beater goes to."""
        return {b: "→" + cards_text(1 << t) for t, b in self.pairs.items()} if _my_turn(state, seat) else {}

    def focused(self, state: State, seat: int) -> bool:
        """Return whether the cursor shows: on the seat's turn."""
        return _my_turn(state, seat)

    def clear(self) -> None:
        """Put back the chosen cards and the defence's pairs."""
        self.chosen = 0
        self.pairs = {}

    def preselect(self, state: State, seat: int, action: Action) -> bool:
        """Choose a suggested lead or defence in the hand; a marriage cannot be shown so (False)."""
        self.sync(state, seat)
        if isinstance(action, Lead):
            self.chosen = action.cards
        elif isinstance(action, Beat):
            self.pairs = dict(action.pairs)
            self.target = -1
        else:
            return False
        return True


def _my_turn(state: State, seat: int) -> bool:
    return not state.is_over and state.to_act == seat

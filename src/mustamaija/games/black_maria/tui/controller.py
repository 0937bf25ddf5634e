"""The Black Maria table's controller: a game of hands (B8), the passing and the tricks in the log, typed cards, hints.

Everything the person is told comes from their view: the cards received
show in the log only once every seat has passed (B3).

>>> from mustamaija.tui.session import GameSession, MatchConfig, bot_actions
>>> s = GameSession(MatchConfig("black-maria", players=4, bots=("heuristic",), seed=7))
>>> s.log[0], s.names
('Hand 1: Eero deals. Totals: You 0, Aino 0, Eero 0, Helmi 0.', ['You', 'Aino', 'Eero', 'Helmi'])
>>> while s.bot_to_act:
...     _ = s.apply_bots(s.bot_job(), bot_actions(s.bot_job(), chain=False))
>>> s.human_to_act, s.state.phase_name, s.view().received
(True, 'pass', 0)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Final

from mustamaija.core.cards import card_symbol, cards_of, parse_cards
from mustamaija.core.errors import CardError, IllegalActionError, MustamaijaError
from mustamaija.games.black_maria.actions import Action, Pass, Play
from mustamaija.games.black_maria.legality import penalty_of
from mustamaija.games.black_maria.rules import Rules
from mustamaija.games.black_maria.session import events_of, series_deck
from mustamaija.games.black_maria.state import PASS, PLAY, State
from mustamaija.tui.describe import sort_hand
from mustamaija.tui.plugin import Controller, Words

if TYPE_CHECKING:
    from mustamaija.tui.session import GameSession

__all__ = ["PENALTY_MASK", "BlackMariaChoice", "BlackMariaController", "cards_words"]

PENALTY_MASK: Final = sum(1 << c for c in range(52) if penalty_of(1 << c))
"""Every penalty card (B6): the hearts, A♠, K♠ and Q♠."""


def cards_words(cards: int | Sequence[int]) -> str:
    """Return cards with suit signs (a mask in the people's order: ♠ ♥ ♣ ♦, low to high), ``-`` for none.

    >>> from mustamaija.core.cards import mask_of
    >>> cards_words(mask_of(parse_cards("2D QS 3C AH 4S")))
    '4♠ Q♠ A♥ 3♣ 2♦'
    """
    order = sort_hand(cards) if isinstance(cards, int) else list(cards)
    return " ".join(card_symbol(c) for c in order) or "-"


class BlackMariaController(Controller):
    """Black Maria at the terminal table: hands in series until the agreed hands or score (B8)."""

    words = Words("hand", "game", "points", win_rule="The lowest total wins (B8).", turn_rule="B4")
    match_options: Mapping[str, int | None] = {}

    # -- the game of hands ------------------------------------------------------------------------------

    def length(self, rules: Rules, options: Mapping[str, int | None]) -> tuple[int | None, int | None]:
        """Return the rules' end of the game (B8): the hands, and the total that ends it."""
        return rules.hands, rules.target_score

    def one_deal(self, rules: Rules) -> tuple[Rules, dict[str, int | None]]:
        """Return a game of one hand."""
        return rules.replace(hands=1), {}

    def deal_deck(self, seed: int, deal: int, players: int) -> tuple[tuple[int, ...], int]:
        """Return the hand's cards and the first dealer as a seeded table deals them (:func:`series_deck`)."""
        return series_deck(seed, deal, players)

    # -- words ----------------------------------------------------------------------------------------

    def deal_header(self, session: GameSession) -> list[str]:
        """Return the hand's number, its dealer, the totals and the pass to come."""
        st = session.state
        totals = ", ".join(f"{session.names[s]} {t}" for s, t in enumerate(session.totals))
        return [f"Hand {session.deal_no + 1}: {session.names[st.dealer]} deals. Totals: {totals}.",
                f"Everyone passes {st.pass_count} cards to the left (B3)."]

    def narrate(self, before: State, after: State, action: Action, names: Sequence[str], seat: int | None) -> list[str]:
        """Return the passes (face down, but for the person's own), the cards played and the tricks won."""
        lines: list[str] = []
        n = after.n
        for e in events_of(after):
            who = names[e.seat] if e.seat >= 0 else ""
            you = e.seat == seat
            if e.kind == "pass":
                to = names[(e.seat + 1) % n]
                if you:
                    lines.append(f"You pass {cards_words(after.view(seat).passed)} to {to}.")
                elif seat is None and isinstance(action, Pass):
                    lines.append(f"{who} passes {cards_words(action.cards)} to {to}.")
                else:
                    lines.append(f"{who} passes {after.pass_count} cards face down.")
            elif e.kind == "exchange":
                if seat is None:
                    lines.append("All have passed.")
                else:
                    lines.append(f"All have passed: you receive {cards_words(after.view(seat).received)} from "
                                 f"{names[(seat - 1) % n]}.")
            elif e.kind == "play":
                first = len(after.trick) == 1
                verb = ("lead" if first else "play") + ("" if you else "s")
                number = f" to trick {sum(after.tricks) + 1}" if first else ""
                lines.append(f"  {who} {verb} {card_symbol(e.card)}{number}")
            elif e.kind == "trick":
                gain = f", +{e.points} ({cards_words(sum(1 << c for c in e.cards) & PENALTY_MASK)})" if e.points \
                    else ", no points"
                lines.append(f"{who} {'win' if you else 'wins'} trick {sum(after.tricks)}{gain}.")
        return lines

    def deal_end(self, state: State, names: Sequence[str], seat: int | None) -> list[str]:
        """Return the hand's points (B6, B7)."""
        points = ", ".join(f"{names[s]} {p}" for s, p in enumerate(state.points()))
        return [f"Points this hand: {points}."]

    def status(self, session: GameSession) -> str:
        """Return whose turn it is, and what the person is to choose."""
        s = session.state
        if s.to_act == session.human:
            if s.phase == PASS:
                return f"Your pass: choose {s.pass_count} cards for {session.names[(session.human + 1) % s.n]}."
            return "Your lead." if not s.trick else "Your turn to play."
        return f"{session.names[s.to_act]} is {'passing' if s.phase == PASS else 'to play'}…"

    def doing(self, state: State) -> str:
        """Return ``"pass"`` or ``"play"``."""
        return "pass" if state.phase == PASS else "play"

    def paced(self, state: State) -> bool:
        """Return whether a bot's move waits for the pace: a pass is made face down, so only plays do."""
        return state.phase == PLAY

    def action_words(self, action: Action) -> str:
        """Return an action in a few words: ``"pass 2♠ Q♥ K♦"``, ``"play Q♠"``."""
        return action.words()

    def taken_back(self, action: Action) -> str:
        """Return the person's action in the words of an undo."""
        if isinstance(action, Pass):
            return f"your pass of {cards_words(action.cards)}"
        return f"your {card_symbol(action.card)}"

    def rules_markdown(self, rules: Rules) -> str:
        """Return the rule set in force and a summary of the play (docs/black-maria.md, B1–B8)."""
        options = " · ".join(f"`{k}` {'null' if v is None else str(v).lower()}" for k, v in rules.to_json().items())
        return "\n".join([
            "# Rules in force", "", rules.describe() + ".", "",
            "- **Pass (B3).** Before each hand every seat passes cards face down to its left; what you receive "
            "shows once everyone has passed.",
            "- **Play (B4, B5).** Follow suit when you can; hearts may not be led until a heart has been played to "
            "another suit's trick (unless you hold only hearts). The highest card of the suit led wins the trick.",
            "- **Penalties (B6).** Every heart costs 1, A♠ 7, K♠ 10 and Q♠, Black Maria, 13."
            + (" A renege costs 10 (B7)." if rules.allow_renege else ""),
            "- **The end (B8).** The lowest total wins.", "", f"*Options:* {options}.",
        ])

    # -- input --------------------------------------------------------------------------------------------

    def choice(self) -> BlackMariaChoice:
        """Return a fresh choice: the cards of a pass, or the card to play."""
        return BlackMariaChoice()

    def parse_move(self, text: str, session: GameSession) -> Action:
        """Return the action of typed cards: ``2S QH KD`` to pass, ``QS`` (or ``q♠``, ``10h``) to play."""
        cards = parse_cards(text)
        seat = session.human
        if session.state.phase == PASS:
            if len(set(cards)) != len(cards):
                raise CardError("B3: a card is given twice")
            return Pass(seat, sum(1 << c for c in cards))
        if len(cards) != 1:
            raise CardError(f"B4: a play is one card, not {len(cards)} (type one card, such as QS)")
        return Play(seat, cards[0])

    def command(self, session: GameSession, word: str, arg: str) -> str | None:
        """Answer ``legal``: the cards the person may pass or play now."""
        if word != "legal":
            return None
        v = session.view()
        legal = v.hand if v.phase == PASS else v.legal_mask()
        return f"legal: {cards_words(legal)}" if legal else "nothing to play now"


class BlackMariaChoice:
    """The person's choice in the hand: the cards of a pass (raised), or the card under the cursor to play.

    It is the Black Maria table's :class:`~mustamaija.tui.plugin.HandChoice`;
    it reads the seat's view only.
    """

    def __init__(self) -> None:
        self.order: list[int] = []
        self.cursor = 0
        self.chosen = 0
        self._turn: tuple[int, int, int] | None = None

    def sync(self, state: State, seat: int) -> None:
        """Follow the hand: keep the cursor on its card; on a new turn to play, put it on a legal card."""
        v = state.view(seat)
        order = sort_hand(v.hand)
        if order != self.order:
            old = self.order[self.cursor] if self.order and 0 <= self.cursor < len(self.order) else -1
            self.order = order
            self.cursor = order.index(old) if old in order else min(self.cursor, max(len(order) - 1, 0))
        self.chosen &= v.hand if v.phase == PASS and not v.passed else 0
        if v.phase == PLAY and v.my_turn and order:
            key = (v.dealer, len(v.plays), v.hand)
            if key != self._turn:  # A new turn: put the cursor on a card that can be played.
                self._turn = key
                legal = v.legal_mask()
                if not legal >> order[self.cursor] & 1:
                    self.cursor = next(i for i, c in enumerate(order) if legal >> c & 1)

    def move(self, delta: int) -> None:
        """Move the cursor, wrapping round the hand."""
        if self.order:
            self.cursor = (self.cursor + delta) % len(self.order)

    def aim(self, state: State, seat: int, delta: int) -> bool:
        """Return False: there is nothing to point at on a trick."""
        return False

    def toggle(self, state: State, seat: int) -> str:
        """Choose the cursor's card for the pass, or put it back (B3)."""
        v = state.view(seat)
        if v.phase != PASS or v.passed or not self.order:
            raise MustamaijaError("space chooses cards to pass; to play, Enter plays the card under the cursor")
        card = self.order[self.cursor]
        if self.chosen >> card & 1:
            self.chosen &= ~(1 << card)
            return ""
        if self.chosen.bit_count() >= v.pass_count:
            raise IllegalActionError("B3", f"you pass exactly {v.pass_count} cards; put one back first (space on a "
                                           "raised card)")
        self.chosen |= 1 << card
        return ""

    def click(self, state: State, seat: int, index: int) -> str:
        """Move to the clicked card; while passing, choose it too."""
        if not 0 <= index < len(self.order):
            return ""
        self.cursor = index
        return self.toggle(state, seat) if state.phase == PASS else ""

    def action(self, state: State, seat: int) -> Action:
        """Return the pass of the chosen cards, or the play of the cursor's card."""
        v = state.view(seat)
        if v.phase == PASS:
            if v.passed:
                raise MustamaijaError("you have passed; the others are still choosing")
            if self.chosen.bit_count() != v.pass_count:
                raise IllegalActionError("B3", f"choose {v.pass_count} cards to pass (space), or type them; "
                                               f"{self.chosen.bit_count()} chosen")
            return Pass(seat, self.chosen)
        if not self.order:
            raise MustamaijaError("you have no cards left")
        return Play(seat, self.order[self.cursor])

    def preview(self, state: State, seat: int, names: Sequence[str] = ()) -> str:
        """Return what Enter does: pass the chosen cards, or play the cursor's card (and which cards are legal)."""
        v = state.view(seat)
        if v.phase == PASS:
            if v.passed:
                return f"You passed {cards_words(v.passed)}; waiting for the others."
            k = v.pass_count
            n = self.chosen.bit_count()
            to = f" to {names[(seat + 1) % v.players]}" if names else ""
            if n == k:
                return f"Enter: pass {cards_words(self.chosen)}{to}"
            return f"Chosen {n} of {k}: {cards_words(self.chosen)}  ·  space chooses, or type them (2S QH KD)"
        if not v.my_turn or not self.order:
            return ""
        card = self.order[self.cursor]
        legal = v.legal_mask()
        if legal >> card & 1:
            return f"Enter: play {card_symbol(card)}  ·  legal: {cards_words(legal & v.hand)}"
        return f"{card_symbol(card)} cannot be played now  ·  legal: {cards_words(legal & v.hand)}"

    def bright(self, state: State, seat: int) -> int:
        """Return the legal cards on the seat's turn to play; the whole hand while passing."""
        v = state.view(seat)
        if v.phase == PASS:
            return v.hand
        return v.legal_mask() if v.my_turn else -1

    def marks(self, state: State, seat: int) -> dict[int, str]:
        """Mark the cards received (B3) for the rest of the hand."""
        v = state.view(seat)
        return {c: "new" for c in cards_of(v.received & v.hand)}

    def focused(self, state: State, seat: int) -> bool:
        """Return whether the cursor shows: while passing, and on the seat's turn to play."""
        v = state.view(seat)
        return v.phase == PASS or v.my_turn

    def clear(self) -> None:
        """Put the chosen cards back."""
        self.chosen = 0

    def preselect(self, state: State, seat: int, action: Action) -> bool:
        """Choose a suggested pass, or put the cursor on a suggested card."""
        self.sync(state, seat)
        if isinstance(action, Pass):
            self.chosen = action.cards
        elif action.card in self.order:
            self.cursor = self.order.index(action.card)
        return True

"""The Mustamaija table's controller: matches (M20), the deal log, typed moves and hints, free of any UI.

>>> from mustamaija.tui.session import GameSession, MatchConfig
>>> s = GameSession(MatchConfig("mustamaija", players=3, bots=("easy",), seed=7, options={"deals": 1}))
>>> s.names, s.state.dealer, s.deal_no, s.log[0].startswith("Deal 1 of 1: Eero dealt.")
(['You', 'Aino', 'Eero'], 2, 0, True)
>>> s.human_to_act, s.state.phase_name
(True, 'lead')
>>> s.submit("9H")
Traceback (most recent call last):
...
mustamaija.core.errors.IllegalActionError: M10: you do not hold 9H
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from itertools import permutations
from typing import TYPE_CHECKING

from mustamaija.core.cards import card_name, card_symbol, cards_of
from mustamaija.core.errors import IllegalActionError, MustamaijaError
from mustamaija.games.mustamaija.actions import Action, Beat, Declare, Lead
from mustamaija.games.mustamaija.deals import shuffled_deck
from mustamaija.games.mustamaija.rules import Rules
from mustamaija.games.mustamaija.state import DEFEND, LEAD, State
from mustamaija.games.mustamaija.tui.commands import Command, parse_command
from mustamaija.games.mustamaija.tui.describe import describe_action, explain_error, rules_markdown, rules_name, trump_text
from mustamaija.games.mustamaija.tui.hints import action_words, rule_of_thumb
from mustamaija.games.mustamaija.tui.selection import Selection
from mustamaija.tui.describe import cards_text
from mustamaija.tui.plugin import Controller, Hint, Words

if TYPE_CHECKING:
    from mustamaija.tui.session import GameSession

__all__ = ["MustamaijaController", "deal_deck", "move_of"]


def deal_deck(seed: int, deal: int, players: int) -> tuple[tuple[int, ...], int]:
    """Return the deck of a match's deal and the dealer the seed draws for the first deal.

    The first deal is the one ``State.from_seed(players, seed)`` deals;
    later deals shuffle with a generator seeded by the match seed and the
    deal number, so a saved match resumes with the same cards.

    >>> deal_deck(7, 0, 4)[0] == State.from_seed(4, 7).deck, deal_deck(7, 1, 4)[0] != deal_deck(7, 0, 4)[0]
    (True, True)
    """
    if deal == 0:
        rng = random.Random(seed)
        deck = shuffled_deck(rng)
        return deck, rng.randrange(players)
    return shuffled_deck(random.Random(f"mustamaija/{seed}/{deal}")), 0


class MustamaijaController(Controller):
    """Mustamaija at the terminal table: a match of deals (M20), each deal's loser scoring a loss."""

    words = Words("deal", "match", "losses", win_rule="The fewest losses win the match (M20).", turn_rule="M9")
    match_options: Mapping[str, int | None] = {"deals": 5, "max_losses": None}
    option_labels: Mapping[str, str] = {"deals": "Deals", "max_losses": "Stop at losses"}

    # -- the match ----------------------------------------------------------------------------------

    def length(self, rules: Rules, options: Mapping[str, int | None]) -> tuple[int | None, int | None]:
        """Return the deals of the match and the losses that end it (M20)."""
        return options.get("deals"), options.get("max_losses")

    def one_deal(self, rules: Rules) -> tuple[Rules, dict[str, int | None]]:
        """Return a match of one deal."""
        return rules, {"deals": 1, "max_losses": None}

    def deal_deck(self, seed: int, deal: int, players: int) -> tuple[tuple[int, ...], int]:
        """Return the deck of a deal of the match (:func:`deal_deck`)."""
        return deal_deck(seed, deal, players)

    def next_dealer(self, state: State, dealer: int) -> int:
        """Return the next dealer (M5): the seat to the left, or the loser when the rules say so."""
        if state.rules.next_dealer == "loser" and state.loser >= 0:
            return state.loser
        return (dealer + 1) % state.n

    # -- words ----------------------------------------------------------------------------------------

    def deal_header(self, session: GameSession) -> list[str]:
        """Return the deal's number and dealer, the rules, the person's hand and the trumps."""
        st = session.state
        rules = st.rules
        of = f" of {session.deals}" if session.deals is not None else ""
        return [f"Deal {session.deal_no + 1}{of}: {session.names[st.dealer]} dealt. "
                f"Rules: {rules_name(rules)} ({rules.describe()}).",
                f"Your hand: {cards_text(st.hands[session.human])}",
                f"Trumps: {trump_text(st)}."]

    def narrate(self, before: State, after: State, action: Action, names: Sequence[str], seat: int | None) -> list[str]:
        """Return the action, the draws (the person's own cards named), the trump turned and the seats out."""
        return describe_action(before, after, action, names, reveal=seat is None)

    def deal_end(self, state: State, names: Sequence[str], seat: int | None) -> list[str]:
        """Return who is the Mustamaija (M19), or that the deal was stopped (M21)."""
        if not state.finished:
            return [f"The deal was stopped unfinished after {state.turns} turns (M21)."]
        who = names[state.loser]
        return [f"{who} {'are' if state.loser == seat else 'is'} the Mustamaija, "
                f"left holding {cards_text(state.hands[state.loser])}."]

    def status(self, session: GameSession) -> str:
        """Return what the person, or the bot to act, is to do."""
        s = session.state
        if s.to_act != session.human:
            return f"{session.names[s.to_act]} is to {self.doing(s)}…"
        if s.phase == LEAD:
            return (f"Your lead against {session.names[s.defender]}: choose cards (←/→, space) and press Enter, "
                    "or type them, such as 9H 4H.")
        return ("Your defence: pair led cards with beaters (↑/↓ picks the led card, space the beater), "
                "Enter to confirm (with none chosen: pick up all); or type 9H:JH 4H:- or take.")

    def doing(self, state: State) -> str:
        """Return ``"lead"`` or ``"defend"``."""
        return "lead" if state.phase == LEAD else "defend"

    def action_words(self, action: Action) -> str:
        """Return an action in a few words, such as ``"lead 4♥ 9♥"``."""
        return action_words(action)

    def taken_back(self, action: Action) -> str:
        """Return the person's action in the words of an undo."""
        if isinstance(action, Lead):
            return f"your lead of {cards_text(action.cards)}"
        if isinstance(action, Beat):
            return "your defence" if action.pairs else "your pick-up"
        return "your marriage"

    def explain(self, message: str) -> str:
        """Add the rule's title to a message that starts with a rule id (``"M13 (beating): …"``)."""
        return explain_error(message)

    def rules_markdown(self, rules: Rules) -> str:
        """Return the rule set in force and the rules of play that depend on it."""
        return rules_markdown(rules)

    # -- input --------------------------------------------------------------------------------------------

    def choice(self) -> Selection:
        """Return a fresh choice: a lead's cards or a defence's pairs."""
        return Selection()

    def parse_move(self, text: str, session: GameSession) -> Action:
        """Return the action of a typed move (``9H 4H``, ``9H:JH 4H:-``, ``JH``, ``take``, ``declare H``, ``m``)."""
        return move_of(parse_command(text), session.state, session.human)

    def hint(self, state: State, seat: int, seconds: float) -> Hint:
        """Return the shared hint (the exact solver, else the search) with a rule of thumb for the suggested move."""
        hint = super().hint(state, seat, seconds)
        if hint.action is not None:
            hint.note = rule_of_thumb(state.view(seat), hint.action)
        return hint


def move_of(cmd: Command, s: State, seat: int) -> Action:
    """Return the action of a parsed move for ``seat`` in ``s``, or raise naming the rule."""
    if cmd.kind == "declare":
        return Declare(seat, "SHDC".index(cmd.arg))
    if cmd.kind == "marriage":
        decl = s.legal_declares() if s.to_act == seat else []
        if len(decl) == 1:
            return Declare(seat, decl[0].suit)
        if not decl:
            raise IllegalActionError("V3", "no marriage to declare now (you need the K and Q of a suit other "
                                           "than spades, before trumps are fixed)")
        suits = " or ".join("SHDC"[d.suit] for d in decl)
        raise MustamaijaError(f"two marriages are possible: type declare {suits}")
    if cmd.kind == "cards":
        if len(set(cmd.cards)) != len(cmd.cards):
            dup = next(c for c in cmd.cards if cmd.cards.count(c) > 1)
            raise MustamaijaError(f"card {card_name(dup)} is given twice")
        if s.phase == LEAD:
            return Lead(seat, sum(1 << c for c in cmd.cards))
        return Beat.of(seat, _match_beaters(s, seat, list(cmd.cards)))
    if cmd.kind == "pairs":
        if s.phase == LEAD:
            raise IllegalActionError("M10", "you lead now: name the cards to lead, such as 9H 4H "
                                            "(pairs such as 9H:JH are for defending)")
        pairs: dict[int, int] = {}
        for led, beater in cmd.pairs:
            if led in pairs:
                raise IllegalActionError("M13", f"{card_name(led)} is beaten twice: one beating card beats "
                                                "exactly one led card")
            if not s.led >> led & 1:
                raise IllegalActionError("M13", f"{card_name(led)} was not led")
            if beater is not None:
                pairs[led] = beater
        return Beat.of(seat, pairs)
    if cmd.kind == "take":
        if s.phase != DEFEND:
            raise IllegalActionError("M10", "you lead now: there is nothing to pick up")
        return Beat(seat, ())
    raise MustamaijaError(f"{cmd.kind!r} is not a move: type cards such as 9H 4H, pairs such as 9H:JH, or take")


def _match_beaters(s: State, seat: int, cards: list[int]) -> dict[int, int]:
    """Pair typed beaters with led cards when the matching is clear; else say what to type."""
    hand = s.hands[seat]
    for c in cards:
        if not hand >> c & 1:
            raise IllegalActionError("M13", f"you do not hold {card_name(c)}")
    led = cards_of(s.led)
    if len(cards) > len(led):
        raise IllegalActionError("M13", f"{len(cards)} beaters for {len(led)} led card"
                                        f"{'s' if len(led) > 1 else ''}: one beating card beats exactly one led card")
    if len(led) == 1:
        return {led[0]: cards[0]}
    found: list[dict[int, int]] = []
    for targets in permutations(led, len(cards)):
        pairs = dict(zip(targets, cards, strict=True))
        if s.can_beat(pairs, seat):
            found.append(pairs)
    if len(found) == 1:
        return found[0]
    if not found:
        for c in cards:
            if not any(s.can_beat({t: c}, seat) for t in led):
                raise IllegalActionError("M13", f"{card_symbol(c)} beats none of the led cards "
                                                f"{cards_text(s.led)} ({trump_text(s)})")
        raise IllegalActionError("M13", "these cards cannot beat the led cards one each: one beating card "
                                        "beats exactly one led card")
    example = " ".join(f"{card_name(t)}:{card_name(b)}" for t, b in found[0].items())
    raise MustamaijaError(f"say which led card each card beats, such as {example}")

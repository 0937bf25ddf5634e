"""Black Maria (docs/black-maria.md, docs/black-maria.md) as a game of the stack: the object the registry serves.

One hand is one deal: a tournament, an environment episode and a record each
hold one hand; a :class:`~mustamaija.games.black_maria.match.Match` strings
hands together to a target score.

>>> from mustamaija.core.registry import get_game
>>> game = get_game("black-maria")
>>> game.env_name, game.min_players, game.max_players, game.result_kind
('black_maria', 3, 7, 'points')
>>> s = game.deal(4, seed=5)
>>> s.phase_name, game.scores(s)
('pass', None)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from mustamaija.core.bench import BenchSection
from mustamaija.core.errors import RulesError
from mustamaija.core.game import GameBase
from mustamaija.core.protocol import SearchKit
from mustamaija.core.registry import register_game
from mustamaija.games.black_maria.actions import Action, step_name
from mustamaija.games.black_maria.record import Record, state_to_json
from mustamaija.games.black_maria.rules import MAX_PLAYERS, MIN_PLAYERS, Rules, check_players, deal_size, in_play, pass_count
from mustamaija.games.black_maria.sampling import sample_state
from mustamaija.games.black_maria.state import PASS, State
from mustamaija.games.black_maria.view import View

__all__ = ["GAME", "BlackMariaGame"]

OBS_SIZE: Final = 1491
"""The observation length of :mod:`~mustamaija.games.black_maria.observation` (checked there)."""


LEVELS: Final = {"easy": "random", "medium": "heuristic", "hard": "pimc:samples=20", "expert": "pimc:samples=60"}
"""The bot of each strength level: the search's samples grow with the level."""


class BlackMariaGame(
    GameBase, name="black-maria", title="Black Maria", players=(MIN_PLAYERS, MAX_PLAYERS), presets=("standard",),
    result_kind="points", levels=LEVELS, obs_size=OBS_SIZE,
    record=Record, sampler=sample_state, summary=state_to_json, step_name=step_name,
):
    """Black Maria, the British game of the Hearts family, as a :class:`~mustamaija.core.protocol.Game`."""

    def make_rules(self, preset: str | None = None, overrides: Mapping[str, Any] | None = None) -> Rules:
        """Return the rules (``preset`` must be ``"standard"``: Black Maria has one rule set) with ``overrides``."""
        if preset not in (None, "standard"):
            raise RulesError(f"unknown preset {preset!r} (Black Maria has one: 'standard'; change rules by name)")
        return Rules().replace(**overrides) if overrides else Rules()

    def check_players(self, rules: Rules, players: int) -> None:
        """Raise :class:`~mustamaija.core.errors.RulesError` unless 3 to 7 players (B1)."""
        check_players(players)

    def deck(self, players: int) -> int:
        """Return the cards in play (B1)."""
        return in_play(players)

    def returns(self, state: State) -> list[float]:
        """Return minus each seat's penalty points, reneges included, once the hand is over (0 before)."""
        if not state.is_over:
            return [0.0] * state.players
        return [-float(p) for p in state.points()]

    def scores(self, state: State) -> list[float] | None:
        """Return each seat's penalty points of the hand (B6, B7); ``None`` while it is not over."""
        return [float(p) for p in state.points()] if state.is_over else None

    def truncated(self, state: State) -> bool:
        """Return False: a hand always ends."""
        return False

    def utility_range(self, players: int, rules: Rules) -> tuple[float, float]:
        """Return (-43 - 10 a possible renege, 0): all the penalty cards, and a renege on every card in table mode."""
        reneges = deal_size(players) if rules.allow_renege else 0
        return -43.0 - 10.0 * reneges, 0.0

    def outcome_text(self, state: State) -> str:
        """Return every seat's penalty points once the hand is over."""
        if not state.is_over:
            return "in progress"
        return "points: " + ", ".join(f"seat {s} {p}" for s, p in enumerate(state.points()))

    def card_places(self, state: State) -> dict[str, int]:
        """Return where every card is: each hand, the passes not yet received (B3) and the cards played (B4)."""
        places = {f"hand {seat}": hand for seat, hand in enumerate(state.hands)}
        in_transit = 0
        if state.phase == PASS:
            for cards in state.passed:
                in_transit |= cards
        places.update(passing=in_transit, played=state.played)
        return places

    def max_steps(self, players: int, rules: Rules) -> int:
        """Return the steps of a hand: every pass card and every card played."""
        return players * pass_count(players) + in_play(players).bit_count()

    def step_text(self, view: View) -> str:
        """Return "": the view's text (hand, pass being chosen, trick, hearts) fixes the legal steps."""
        return ""

    def history_text(self, view: View) -> str:
        """Return every card played so far (the passes are private; the view shows the seat's own)."""
        return "; ".join(str(a) for a in view.plays)

    def narrate(self, record: Record) -> list[str]:
        """Return the hand told trick by trick (:mod:`~mustamaija.games.black_maria.narrate`)."""
        from mustamaija.games.black_maria.narrate import narrate

        return narrate(record).splitlines()

    def search_kit(self) -> SearchKit:
        """Return this game's knowledge for the generic searches (:mod:`~mustamaija.games.black_maria.players.kit`)."""
        from mustamaija.games.black_maria.players.kit import BlackMariaKit

        return BlackMariaKit(self)

    def bench_sections(self) -> Sequence[BenchSection]:
        """Return no measures of its own: ``mustamaija bench`` times its random play and adapters like every game's."""
        return ()

    def action_steps(self, state: State, action: Action) -> list[int]:
        """Return the steps of a compound action: a pass is its cards in rising order, a play its one card.

        >>> from mustamaija.core.cards import mask_of, parse_cards
        >>> from mustamaija.games.black_maria.actions import Pass
        >>> s = GAME.deal(3, seed=1)
        >>> [step_name(x) for x in GAME.action_steps(s, Pass(1, mask_of(parse_cards("AH QS KC 2H"))))]
        ['QS', '2H', 'AH', 'KC']
        """
        from mustamaija.core.cards import cards_of
        from mustamaija.games.black_maria.actions import Pass

        state.verify(action)
        return cards_of(action.cards) if isinstance(action, Pass) else [action.card]


GAME: Final = register_game(BlackMariaGame())

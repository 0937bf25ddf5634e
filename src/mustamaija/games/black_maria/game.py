"""Black Maria (RULES.md Part 2, docs/black-maria.md) as a game of the stack: the object the registry serves.

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

import random
from collections.abc import Mapping, Sequence
from dataclasses import fields
from typing import TYPE_CHECKING, Any, Final

from mustamaija.core.errors import RulesError
from mustamaija.core.protocol import BotFactory, ResultKind
from mustamaija.core.registry import register_game
from mustamaija.games.black_maria.actions import NUM_STEPS, Action, action_from_json, step_name
from mustamaija.games.black_maria.record import RECORD_FORMAT, Record, state_to_json
from mustamaija.games.black_maria.rules import MAX_PLAYERS, MIN_PLAYERS, Rules, check_players, deal_size, in_play, pass_count
from mustamaija.games.black_maria.sampling import sample_state
from mustamaija.games.black_maria.state import State
from mustamaija.games.black_maria.view import View

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["GAME", "BlackMariaGame"]

OBS_SIZE: Final = 1491
"""The observation length of :mod:`~mustamaija.games.black_maria.observation` (checked there)."""


class BlackMariaGame:
    """Black Maria, the British game of the Hearts family, as a :class:`~mustamaija.core.protocol.Game`."""

    name = "black-maria"
    title = "Black Maria"
    long_name = "Black Maria"
    env_name = "black_maria"
    record_format = RECORD_FORMAT
    num_steps = NUM_STEPS
    obs_size = OBS_SIZE
    max_players = MAX_PLAYERS
    min_players = MIN_PLAYERS
    rule_defaults: Mapping[str, Any] = {f.name: getattr(Rules(), f.name) for f in fields(Rules)}
    presets: Sequence[str] = ("standard",)
    result_kind: ResultKind = "points"
    levels: Mapping[str, str] = {"easy": "random", "medium": "heuristic", "hard": "pimc:samples=20", "expert": "pimc:samples=60"}

    def make_rules(self, preset: str | None = None, overrides: Mapping[str, Any] | None = None) -> Rules:
        """Return the rules (``preset`` must be ``"standard"``: Black Maria has one rule set) with ``overrides``."""
        if preset not in (None, "standard"):
            raise RulesError(f"unknown preset {preset!r} (Black Maria has one: 'standard'; change rules by name)")
        return Rules().replace(**overrides) if overrides else Rules()

    def rules_from_json(self, obj: object) -> Rules:
        """Return the rule set of a JSON object (``target_score``, ``hands``, ``allow_renege``)."""
        return Rules.from_json(obj)  # type: ignore[arg-type]  # from_json checks the type itself.

    def check_players(self, rules: Rules, players: int) -> None:
        """Raise :class:`~mustamaija.core.errors.RulesError` unless 3 to 7 players (B1)."""
        check_players(players)

    def deal(self, players: int, seed: int | str, rules: Rules | None = None) -> State:
        """Deal a hand from a seed with ``State.from_seed``."""
        return State.from_seed(players, seed, rules)

    def deal_from_deck(self, players: int, deck: Sequence[int], dealer: int, rules: Rules | None = None) -> State:
        """Deal a hand from the cards in play, top first, with ``State.deal``."""
        return State.deal(players, deck, rules, dealer)

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

    def sample(self, view: View, rng: random.Random) -> State:
        """Deal the unseen cards with :func:`~mustamaija.games.black_maria.sampling.sample_state`."""
        return sample_state(view, rng)

    def resample(self, view: View, seed: int) -> State:
        """Return :meth:`sample` with ``random.Random(seed)``."""
        return sample_state(view, random.Random(seed))

    def is_record(self, obj: object) -> bool:
        """Return whether a parsed JSON object names this game's record format (or this game)."""
        return isinstance(obj, Mapping) and (obj.get("format") == RECORD_FORMAT or obj.get("game") == self.name)

    def load_record(self, obj: object) -> Record:
        """Return the record of a JSON object or text."""
        return Record.loads(obj) if isinstance(obj, (str, bytes)) else Record.from_json(obj)

    def record_of(self, state: State, **extra: Any) -> Record:
        """Return the record of a dealt hand."""
        return Record.from_state(state, **extra)

    def action_from_json(self, obj: object, players: int | None = None) -> Action:
        """Return the compound action (pass or play) of a record's JSON action."""
        return action_from_json(obj, players)

    def state_to_json(self, state: State) -> dict[str, Any]:
        """Return the ``replay --json`` object."""
        return state_to_json(state)

    def step_name(self, step: int) -> str:
        """Return the card's name."""
        return step_name(step)

    def max_steps(self, players: int, rules: Rules) -> int:
        """Return the steps of a hand: every pass card and every card played."""
        return players * pass_count(players) + in_play(players).bit_count()

    def encode(self, view: View, out: npt.NDArray[np.float32]) -> None:
        """Write the observation of ``view`` (:mod:`~mustamaija.games.black_maria.observation`) into ``out``."""
        from mustamaija.games.black_maria.observation import encode

        encode(view, out)

    def step_text(self, view: View) -> str:
        """Return "": the view's text (hand, pass being chosen, trick, hearts) fixes the legal steps."""
        return ""

    def history_text(self, view: View) -> str:
        """Return every card played so far (the passes are private; the view shows the seat's own)."""
        return "; ".join(str(a) for a in view.plays)

    def bots(self) -> Mapping[str, tuple[BotFactory, str]]:
        """Return the heuristic and the PIMC bots of :mod:`mustamaija.games.black_maria.players`."""
        from mustamaija.games.black_maria.players import BOTS

        return BOTS

    def describe_action(self, action: Action) -> str:
        """Return the action in words (``"seat 2 plays QS"``)."""
        return str(action)

    def narrate(self, record: Record) -> list[str]:
        """Return the hand told trick by trick (:mod:`~mustamaija.games.black_maria.narrate`)."""
        from mustamaija.games.black_maria.narrate import narrate

        return narrate(record).splitlines()

    def renderer(self, front_end: str) -> str | None:
        """Return the module of this game's renderer for ``front_end``, if it has one."""
        return RENDERERS.get(front_end)


RENDERERS: Final[dict[str, str]] = {}
"""Front end -> ``module:attribute`` of the renderer that draws a Black Maria table there."""

GAME: Final = register_game(BlackMariaGame())

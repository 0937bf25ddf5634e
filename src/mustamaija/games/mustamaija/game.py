"""Mustamaija (RULES.md Part 1, docs/rules.md) as a game of the stack: the object the registry serves.

>>> from mustamaija.core.registry import get_game
>>> game = get_game("mustamaija")
>>> game.title, game.num_steps, game.obs_size, game.max_players, game.result_kind
('Mustamaija', 57, 1056, 8, 'loss')
>>> s = game.deal(3, seed=5)
>>> game.record_of(s).to_json()["format"]
'mustamaija-record/1'
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import fields
from typing import TYPE_CHECKING, Any, Final

from mustamaija.core.protocol import BotFactory, ResultKind
from mustamaija.core.registry import register_game
from mustamaija.games.mustamaija.actions import NUM_STEPS, Action, action_from_json, step_name
from mustamaija.games.mustamaija.record import RECORD_FORMAT, Record, state_to_json
from mustamaija.games.mustamaija.rules import PRESETS, Rules
from mustamaija.games.mustamaija.sampling import sample_state
from mustamaija.games.mustamaija.state import State
from mustamaija.games.mustamaija.view import View

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["GAME", "MAX_SEATS", "MustamaijaGame"]

MAX_SEATS: Final = 8
"""The most seats any rule set allows (V1: 8 with hand size 3 or 6)."""

OBS_SIZE: Final = 1056
"""The observation length of :mod:`~mustamaija.games.mustamaija.observation` (checked there)."""


class MustamaijaGame:
    """Mustamaija, the Finnish beating game, as a :class:`~mustamaija.core.protocol.Game`."""

    name = "mustamaija"
    title = "Mustamaija"
    long_name = "Mustamaija"
    env_name = "mustamaija"
    record_format = RECORD_FORMAT
    num_steps = NUM_STEPS
    obs_size = OBS_SIZE
    max_players = MAX_SEATS
    min_players = 2
    rule_defaults: Mapping[str, Any] = {f.name: getattr(Rules(), f.name) for f in fields(Rules)}
    presets: Sequence[str] = tuple(PRESETS)
    result_kind: ResultKind = "loss"
    levels: Mapping[str, str] = {"easy": "random", "medium": "heuristic", "hard": "pimc:time=0.5", "expert": "pimc:time=2"}

    def make_rules(self, preset: str | None = None, overrides: Mapping[str, Any] | None = None) -> Rules:
        """Return the preset's rules (``standard`` by default) with ``overrides`` (rule keys of FORMATS.md) applied."""
        base = Rules.preset(preset or "standard")
        return base.replace(**overrides) if overrides else base

    def rules_from_json(self, obj: object) -> Rules:
        """Return the rule set of a JSON object (every key of docs/formats.md; missing keys take defaults)."""
        return Rules.from_json(obj)  # type: ignore[arg-type]  # from_json checks the type itself.

    def check_players(self, rules: Rules, players: int) -> None:
        """Raise :class:`~mustamaija.core.errors.RulesError` unless the player count fits (V1)."""
        rules.check_players(players)

    def deal(self, players: int, seed: int | str, rules: Rules | None = None) -> State:
        """Deal from a seed with ``State.from_seed``."""
        return State.from_seed(players, seed, rules)

    def deal_from_deck(self, players: int, deck: Sequence[int], dealer: int, rules: Rules | None = None) -> State:
        """Deal from an explicit deck with ``State.deal``."""
        return State.deal(players, deck, rules, dealer)

    def deck(self, players: int) -> int:
        """Return every card: Mustamaija deals the whole pack."""
        return (1 << 52) - 1

    def returns(self, state: State) -> list[float]:
        """Return -1 for the loser and 0 for everybody else; all 0 until the end and for a stopped deal (M21)."""
        out = [0.0] * state.n
        if state.loser >= 0:
            out[state.loser] = -1.0
        return out

    def scores(self, state: State) -> list[float] | None:
        """Return 1 for the loser and 0 for the others; ``None`` for a deal stopped by M21."""
        if state.loser < 0:
            return None
        return [float(seat == state.loser) for seat in range(state.n)]

    def truncated(self, state: State) -> bool:
        """Return whether M21 stopped the deal."""
        return state.stopped

    def utility_range(self, players: int, rules: Rules) -> tuple[float, float]:
        """Return (-1, 0): only the loser scores."""
        return -1.0, 0.0

    def outcome_text(self, state: State) -> str:
        """Return who lost (M19), or that the deal was stopped (M21), or that it goes on."""
        if state.stopped:
            return f"stopped unfinished after {state.turns} turns (M21)"
        if state.loser >= 0:
            return f"seat {state.loser} lost"
        return "in progress"

    def sample(self, view: View, rng: random.Random) -> State:
        """Deal the unseen cards uniformly with :func:`~mustamaija.games.mustamaija.sampling.sample_state`."""
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
        """Return the record of a dealt state."""
        return Record.from_state(state, **extra)

    def action_from_json(self, obj: object, players: int | None = None) -> Action:
        """Return the compound action (lead, beat or declare) of a record's JSON action."""
        return action_from_json(obj, players)

    def state_to_json(self, state: State) -> dict[str, Any]:
        """Return the ``replay --json`` object."""
        return state_to_json(state)

    def step_name(self, step: int) -> str:
        """Return the step's name: a card, ``stop`` or ``declare X``."""
        return step_name(step)

    def max_steps(self, players: int, rules: Rules) -> int:
        """Return a bound on the steps of a deal: a turn takes at most 14 lead and 14 defence steps, plus declarations."""
        return rules.max_turns * 28 + 8

    def encode(self, view: View, out: npt.NDArray[np.float32]) -> None:
        """Write the observation of ``view`` (:mod:`~mustamaija.games.mustamaija.observation`) into ``out``."""
        from mustamaija.games.mustamaija.observation import encode

        encode(view, out)

    def step_text(self, view: View) -> str:
        """Return the led cards still undecided, the pairs so far and the lead limit, for the seat to act.

        ``View.render`` shows beaten led cards but not which ones the defender
        has already left: two defences that differ only in that have different
        legal steps, so a search keyed on the text must tell them apart.
        """
        if not view.my_turn:
            return ""
        pairs = " ".join(f"{step_name(a)}/{step_name(b)}" for a, b in view.pairs) or "-"
        undecided = " ".join(step_name(c) for c in range(52) if view.rem >> c & 1) or "-"
        return f"\nundecided: {undecided} | pairs: {pairs} | limit {view.limit}"

    def history_text(self, view: View) -> str:
        """Return every compound action taken so far (all are public)."""
        return "; ".join(str(a) for a in view.history)

    def bots(self) -> Mapping[str, tuple[BotFactory, str]]:
        """Return the heuristic and the search bots of :mod:`mustamaija.games.mustamaija.players`."""
        from mustamaija.games.mustamaija.players import BOTS

        return BOTS

    def describe_action(self, action: Action) -> str:
        """Return the action in words (``"seat 1 beats 9H with JH"``)."""
        return str(action)

    def narrate(self, record: Record) -> list[str]:
        """Return the deal told turn by turn (:mod:`~mustamaija.games.mustamaija.narrate`)."""
        from mustamaija.games.mustamaija.narrate import narrate

        return list(narrate(record))

    def renderer(self, front_end: str) -> str | None:
        """Return the module of this game's renderer for ``front_end``, if it has one."""
        return RENDERERS.get(front_end)


RENDERERS: Final[dict[str, str]] = {}
"""Front end -> ``module:attribute`` of the renderer that draws a Mustamaija table there."""

GAME: Final = register_game(MustamaijaGame())

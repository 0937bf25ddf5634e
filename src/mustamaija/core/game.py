"""What every game object shares: the parts of :class:`~mustamaija.core.protocol.Game` that only name classes.

A game's object subclasses :class:`GameBase` and sets the class attributes
(its state, rules and record classes, its sampler, its ``replay --json``
summary, its step names, and the modules of its observation and bots); the
methods here turn them into the protocol. What is the game's own (results,
rules from presets, text) it writes itself.

>>> from mustamaija.core.registry import games
>>> for game in games():
...     s = game.deal(game.min_players + 1, seed=1)
...     assert game.load_record(game.record_of(s).dumps()) == game.record_of(s) and game.step_name(51) == "AC"
"""

from __future__ import annotations

import functools
import importlib
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import fields
from typing import TYPE_CHECKING, Any, ClassVar

from mustamaija.core.protocol import BotFactory, ResultKind

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["GameBase"]

_DESCRIPTION = ("name", "title", "players", "presets", "result_kind", "levels", "obs_size")
"""The class keywords that describe a game (see :class:`GameBase`)."""


class GameBase:
    """The shared half of a game object.

    A subclass declares itself in its class keywords: its description (``name``, ``title``,
    ``players`` as (fewest, most), ``presets``, ``result_kind``, ``levels``, ``obs_size``) and its
    engine (``record``, its :class:`~mustamaija.core.records.DealRecord`, which names the state and
    rules classes; the functions ``sampler``, ``summary`` and ``step_name``).
    """

    name: str
    """The registry key (see :class:`~mustamaija.core.protocol.Game`)."""
    title: str
    """The name people read."""
    min_players: int
    """The fewest seats any rule set allows."""
    max_players: int
    """The most seats any rule set allows."""
    presets: Sequence[str]
    """The named rule sets, the default first."""
    result_kind: ResultKind
    """How tournaments score a deal."""
    levels: Mapping[str, str]
    """The bot spec of each strength level."""
    obs_size: int
    """The length of the observation vector."""

    def __init_subclass__(cls, **declared: Any) -> None:
        # A subclass of a declared game (a variant, an outside game built on one) keeps what it does not redeclare.
        engine = {key: declared.pop(key) for key in ("record", "sampler", "summary", "step_name") if key in declared}
        description = {key: declared.pop(key) for key in _DESCRIPTION if key in declared}
        super().__init_subclass__(**declared)
        if "players" in description:
            cls.min_players, cls.max_players = description.pop("players")
        for key, value in description.items():
            setattr(cls, key, value)
        if "record" in engine:
            record = engine.pop("record")
            cls.RECORD, cls.STATE, cls.RULES = record, record.STATE, record.RULES
            cls.PACKAGE = cls.__module__.rpartition(".")[0]  # Subclasses elsewhere keep the engine's package.
        for key, function in engine.items():
            setattr(cls, "name_step" if key == "step_name" else key, staticmethod(function))

    STATE: ClassVar[Any]
    """The state class: ``from_seed(players, seed, rules)`` and ``deal(players, deck, rules, dealer)``."""
    RULES: ClassVar[Any]
    """The rule set class (a :class:`~mustamaija.core.rules.RuleSet`)."""
    RECORD: ClassVar[Any]
    """The record class (a :class:`~mustamaija.core.records.DealRecord`)."""
    RENDERERS: ClassVar[Mapping[str, str]] = {"web": "web:RENDERER", "tui": "tui:table"}
    """Front end -> ``module:attribute`` of the renderer that draws this game there, the module named
    within the game's package; a game without a renderer for a front end leaves it out."""
    sampler: ClassVar[Any]
    """``sample_state(view, rng)``: a state drawn uniformly among those the view cannot tell apart."""
    summary: ClassVar[Any]
    """``state_to_json(state)``: the ``replay --json`` object."""
    name_step: ClassVar[Any]
    """``step_name(step)``."""

    PACKAGE: ClassVar[str]
    """The package of the class that declared the engine: its ``observation``, ``players`` and renderer
    modules live there."""

    @property
    def package(self) -> str:
        """Return the game's package (:attr:`PACKAGE`)."""
        return self.PACKAGE

    @property
    def long_name(self) -> str:
        """Return the title (OpenSpiel's word)."""
        return str(getattr(self, "title", ""))

    @property
    def env_name(self) -> str:
        """Return the name as an identifier (``-`` becomes ``_``), for environment and OpenSpiel ids."""
        return str(getattr(self, "name", "")).replace("-", "_")

    @property
    def num_steps(self) -> int:
        """Return the size of the step space."""
        return int(self.STATE.NUM_STEPS)

    @property
    def rule_defaults(self) -> Mapping[str, Any]:
        """Return every rule option with its default."""
        default = self.RULES()
        return {f.name: getattr(default, f.name) for f in fields(self.RULES)}

    @property
    def record_format(self) -> str:
        """Return the ``format`` of this game's records."""
        return str(self.RECORD.FORMAT)

    def rules_from_json(self, obj: object) -> Any:
        """Return the rule set of a JSON object (missing keys take their defaults)."""
        return self.RULES.from_json(obj)

    def deal(self, players: int, seed: int | str, rules: Any = None) -> Any:
        """Deal from a seed: the same seed deals the same deck and dealer on every machine."""
        return self.STATE.from_seed(players, seed, rules)

    def deal_from_deck(self, players: int, deck: Sequence[int], dealer: int, rules: Any = None) -> Any:
        """Deal from an explicit deck, top card first."""
        return self.STATE.deal(players, deck, rules, dealer)

    def sample(self, view: Any, rng: random.Random) -> Any:
        """Return a full state drawn uniformly among those ``view`` cannot tell apart."""
        return type(self).sampler(view, rng)

    def resample(self, view: Any, seed: int) -> Any:
        """Return :meth:`sample` with ``random.Random(seed)``."""
        return self.sample(view, random.Random(seed))

    def is_record(self, obj: object) -> bool:
        """Return whether a parsed JSON object names this game's record format (or this game)."""
        return isinstance(obj, Mapping) and (obj.get("format") == self.RECORD.FORMAT or obj.get("game") == self.RECORD.GAME)

    def load_record(self, obj: object) -> Any:
        """Return the record of a JSON object or text."""
        return self.RECORD.loads(obj) if isinstance(obj, (str, bytes)) else self.RECORD.from_json(obj)

    def record_of(self, state: Any, **extra: Any) -> Any:
        """Return the record of a dealt state, with every action taken so far."""
        return self.RECORD.from_state(state, **extra)

    def action_from_json(self, obj: object, players: int | None = None) -> Any:
        """Return the compound action of a record's JSON action."""
        return self.RECORD.action_from_json(obj, players)

    def state_to_json(self, state: Any) -> dict[str, Any]:
        """Return the ``replay --json`` object."""
        out: dict[str, Any] = type(self).summary(state)
        return out

    def step_name(self, step: int) -> str:
        """Return a step's short name."""
        return str(type(self).name_step(step))

    def encode(self, view: Any, out: npt.NDArray[np.float32]) -> None:
        """Write the observation of ``view`` into ``out`` (the game's observation module)."""
        self._encoder(view, out)

    @functools.cached_property
    def _encoder(self) -> Any:
        # Found once: the environments encode at every step, and a module lookup cost a tenth of an encoding.
        return importlib.import_module(f"{self.package}.observation").encode

    def observation_for(self, state: Any, seat: int | None) -> npt.NDArray[np.float32]:
        """Return ``seat``'s observation of ``state``: :meth:`encode` of ``state.view(seat)``, as a new read-only array.

        The game's observation module may give an ``observation_for(state, seat)`` that computes it
        without building the view, from the same knowledge of the seat; else (or when the game's
        object encodes otherwise, overriding :meth:`encode`) the view is built and encoded.
        """
        return self._observer(state, seat)

    @functools.cached_property
    def _observer(self) -> Callable[[Any, int | None], npt.NDArray[np.float32]]:
        module = importlib.import_module(f"{self.package}.observation")
        direct: Callable[[Any, int | None], npt.NDArray[np.float32]] | None = getattr(module, "observation_for", None)
        if direct is not None and type(self).encode is GameBase.encode:
            return direct
        import numpy as np  # The research extra: only the adapters ask for observations.

        encode, size = self.encode, self.obs_size

        def observe(state: Any, seat: int | None) -> npt.NDArray[np.float32]:
            out = np.zeros(size, dtype=np.float32)
            encode(state.view(seat), out)
            out.flags.writeable = False
            return out

        return observe

    def bots(self) -> Mapping[str, tuple[BotFactory, str]]:
        """Return this game's own bots: name -> (factory, description)."""
        bots: Mapping[str, tuple[BotFactory, str]] = importlib.import_module(f"{self.package}.players").BOTS
        return bots

    def describe_action(self, action: Any) -> str:
        """Return a compound action in words."""
        return str(action)

    def decided_action(self, state: Any) -> Any:
        """Return an action the seat to act may have played for it because no choice could change the result, or None."""
        return None

    def action_words(self, action: Any) -> str:
        """Return a compound action as its seat's player would say it (the action's ``words()``, if it has one)."""
        words = getattr(action, "words", None)
        return str(words()) if callable(words) else self.describe_action(action)

    def positions(self) -> Any:
        """Return the game's positions (:class:`~mustamaija.core.protocol.GamePositions`); ``None``: it has none."""
        return None

    def renderer(self, front_end: str) -> str | None:
        """Return the ``module:attribute`` of this game's renderer for ``front_end``, if it has one."""
        target = self.RENDERERS.get(front_end)
        return f"{self.package}.{target}" if target else None

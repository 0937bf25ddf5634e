"""Every game of the registry as an OpenSpiel Python game, registered with ``pyspiel.register_game``.

Importing this module registers every game of :mod:`mustamaija.core.registry`
under its :attr:`~mustamaija.core.protocol.Game.env_name`, so that
``pyspiel.load_game("<env_name>(players=4,preset=...)")`` works; a game
registered later is added with :func:`register`. Each game is played by a
subclass of :class:`OpenSpielGame` bound in this module under its name
(:func:`class_name`), so OpenSpiel games pickle.

A game starts with chance: the dealer (one of ``players`` outcomes), then
the cards the game deals (``game.deck``), top card first, one at a time
(every remaining card equally likely); then the players take steps of the
game's fixed step space. Parameters are ``players``, ``preset`` and one per
rule option; a rule parameter left at its "unset" value (``-1`` for
numbers, ``""`` for text, ``false`` for flags) keeps the preset's rule, and
``0`` sets an optional limit to none.

Observation strings are a seat's view as text (``view.render()``, plus
``game.step_text``: the state of the action it is choosing step by step,
which fixes its legal steps); information-state strings add the history of
compound actions. Both tensors are the view encoded as in the PettingZoo
environment.

>>> import pickle
>>> from mustamaija.core.registry import DEFAULT_GAME, get_game
>>> spec = get_game(DEFAULT_GAME)
>>> game = pyspiel.load_game(spec.env_name, {"players": 3})
>>> game.num_players(), game.num_distinct_actions() == spec.num_steps, game.max_chance_outcomes()
(3, True, 52)
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 3)
>>> copy = pickle.loads(pickle.dumps(game))
>>> type(copy) is type(game), str(copy) == str(game), copy.rules == game.rules
(True, True, True)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found,unused-ignore]

from mustamaija.core.protocol import Game as GameSpec
from mustamaija.core.protocol import GameState
from mustamaija.core.registry import game_names, get_game

__all__ = ["OpenSpielGame", "OpenSpielState", "class_name", "game_type", "register", "resampler"]


def _param_default(value: Any) -> Any:
    if isinstance(value, bool):
        return False
    if value is None or isinstance(value, int):
        return -1
    return ""


def game_type(spec: GameSpec) -> pyspiel.GameType:
    """Return the OpenSpiel ``GameType`` of a game: sequential, explicit chance, imperfect information."""
    params: dict[str, Any] = {"players": spec.min_players + 1, "preset": spec.presets[0]}
    params.update({key: _param_default(value) for key, value in spec.rule_defaults.items()})
    return pyspiel.GameType(
        short_name=spec.env_name,
        long_name=spec.long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=spec.max_players,
        min_num_players=spec.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


def _rule_overrides(spec: GameSpec, params: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, default in spec.rule_defaults.items():
        if key not in params:
            continue
        value = params[key]
        if value == _param_default(default) and type(value) is type(_param_default(default)):
            continue
        out[key] = None if default is None and value == 0 else value
    return out


class _Shared:
    """Facts shared by every state of a game; a deep copy (an OpenSpiel clone) keeps the same object."""

    __slots__ = ("deck", "n", "rules", "spec")

    def __init__(self, spec: GameSpec, rules: Any, n: int) -> None:
        self.spec = spec
        self.rules = rules
        self.n = n
        self.deck = spec.deck(n)

    def __deepcopy__(self, memo: dict[int, Any]) -> _Shared:
        return self


class _Engine:
    """Holds the engine state; OpenSpiel clones a Python state by deep-copying its attributes, and this keeps that cheap."""

    __slots__ = ("state",)

    def __init__(self, state: GameState | None) -> None:
        self.state = state

    def __deepcopy__(self, memo: dict[int, Any]) -> _Engine:
        return _Engine(None if self.state is None else self.state.copy())


class OpenSpielGame(pyspiel.Game):  # type: ignore[misc,unused-ignore]
    """One of our games for a given player count and rule set; ``GameInfo`` is built from the player count."""

    SPEC: GameSpec
    """The game this class plays; :func:`register` makes one subclass per game."""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        params = dict(params or {})
        self._params = params
        spec = self.spec = self.SPEC
        players = int(params.get("players", spec.min_players + 1))
        self.rules = spec.make_rules(str(params.get("preset", spec.presets[0])), _rule_overrides(spec, params))
        spec.check_players(self.rules, players)
        self.players = players
        self.shared = _Shared(spec, self.rules, players)
        low, high = spec.utility_range(players, self.rules)
        deck = spec.deck(players)
        info = pyspiel.GameInfo(
            num_distinct_actions=spec.num_steps,
            max_chance_outcomes=52,
            num_players=players,
            min_utility=low,
            max_utility=high,
            max_game_length=1 + deck.bit_count() + spec.max_steps(players, self.rules),
        )
        super().__init__(_TYPES[spec.name], info, params)

    def __reduce__(self) -> tuple[type[OpenSpielGame], tuple[dict[str, Any]]]:
        """Pickle the game as its class (bound in this module) and its parameters, not as OpenSpiel's C++ object."""
        return type(self), (dict(self._params),)

    def new_initial_state(self) -> OpenSpielState:
        """Return the start of a game: the chance node that picks the dealer."""
        return OpenSpielState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        """Return an observer: a seat's view (or the public one) as a string and a tensor."""
        if params:
            raise ValueError(f"observer parameters are not supported, got {params}")
        return Observer(self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False))


class OpenSpielState(pyspiel.State):  # type: ignore[misc,unused-ignore]
    """A game in progress: the dealing chance nodes, then the engine state."""

    def __init__(self, game: OpenSpielGame) -> None:
        super().__init__(game)
        self.shared = game.shared
        self.dealer = -1
        self.deck: list[int] = []
        self.left = self.shared.deck
        self.engine = _Engine(None)

    # -- the pyspiel API --------------------------------------------------------

    def current_player(self) -> int:
        """Return the seat to act, ``CHANCE`` while dealing, ``TERMINAL`` at the end."""
        state = self.engine.state
        if state is None:
            return int(pyspiel.PlayerId.CHANCE)
        if state.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        return state.to_act

    def is_terminal(self) -> bool:
        """Return whether the game is over."""
        return self.engine.state is not None and self.engine.state.is_over

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Return the dealer choices, then the cards still in the deck, each equally likely."""
        if self.dealer < 0:
            return [(d, 1.0 / self.shared.n) for d in range(self.shared.n)]
        cards = [c for c in range(52) if self.left >> c & 1]
        return [(c, 1.0 / len(cards)) for c in cards]

    def _legal_actions(self, player: int) -> list[int]:
        state = self.engine.state
        if state is None or state.to_act != player:
            return []
        return state.legal_actions()

    def _apply_action(self, action: int) -> None:
        state = self.engine.state
        if state is not None:
            state.apply(int(action))
            return
        if self.dealer < 0:
            self.dealer = int(action)
            return
        self.deck.append(int(action))
        self.left &= ~(1 << int(action))
        if not self.left:
            sh = self.shared
            self.engine.state = sh.spec.deal_from_deck(sh.n, self.deck, self.dealer, sh.rules)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"dealer {action}" if self.dealer < 0 else f"deal {self.shared.spec.step_name(action)}"
        return self.shared.spec.step_name(action)

    def returns(self) -> list[float]:
        """Return every seat's reward so far (all at the end of the deal)."""
        state = self.engine.state
        return [0.0] * self.shared.n if state is None else self.shared.spec.returns(state)

    def __str__(self) -> str:
        """Return the spectator's view of the table, or the dealing progress."""
        state = self.engine.state
        if state is None:
            return f"dealing: dealer {self.dealer}, {len(self.deck)} cards"
        text: str = state.view(None).render()
        return text

    # -- search --------------------------------------------------------------------

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> OpenSpielState:
        """Return a state ``player_id`` cannot tell from this one, its hidden cards dealt uniformly.

        ``probability_sampler`` is OpenSpiel's: a callable returning a float
        in [0, 1), from which the seed of the deal is drawn.
        """
        if not callable(probability_sampler):
            raise TypeError(f"expected a sampler returning floats in [0, 1), got {probability_sampler!r}")
        return _resampled(self, player_id, int(probability_sampler() * 2**52))

    def view(self, player: int | None) -> Any:
        """Return what ``player`` (``None``: nobody in particular) knows of the deal, once dealt."""
        state = self.engine.state
        return None if state is None else state.view(player)


def _resampled(state: OpenSpielState, player: int, seed: int) -> OpenSpielState:
    view = state.view(player)
    if view is None:
        return state.clone()  # type: ignore[no-any-return]  # Nothing is dealt yet: nothing to hide.
    out = OpenSpielState(state.get_game())
    out.dealer = state.dealer
    out.left = 0
    out.engine = _Engine(state.shared.spec.resample(view, seed))
    return out


def resampler(rng: np.random.RandomState) -> Any:
    """Return a resampler for OpenSpiel's ``ISMCTSBot.set_resampler``: ``(state, player) -> state``, seeded by ``rng``."""

    def resample(state: OpenSpielState, player: int) -> OpenSpielState:
        return _resampled(state, player, int(rng.randint(0, 2**31 - 1)))

    return resample


class Observer:
    """OpenSpiel's Python observer: ``tensor`` and ``string_from`` of a seat's view (or the public view)."""

    def __init__(self, game: OpenSpielGame, iig_obs_type: Any) -> None:
        self.spec = game.spec
        self.recall = bool(iig_obs_type.perfect_recall)
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.tensor = np.zeros(self.spec.obs_size, np.float32)
        self.dict = {"observation": self.tensor}

    def _view(self, state: OpenSpielState, player: int) -> Any:
        return state.view(player if self.private else None)

    def set_from(self, state: OpenSpielState, player: int) -> None:
        """Encode ``player``'s view of ``state`` into :attr:`tensor` (zeros while dealing)."""
        self.tensor.fill(0.0)
        view = self._view(state, player)
        if view is not None:
            self.spec.encode(view, self.tensor)

    def string_from(self, state: OpenSpielState, player: int) -> str:
        """Return ``player``'s view as text; with perfect recall, followed by the history of compound actions."""
        view = self._view(state, player)
        if view is None:
            return f"p{player} dealing {len(state.deck)}"
        text: str = view.render() + self.spec.step_text(view)
        if self.recall:
            text += "\nhistory: " + self.spec.history_text(view)
        return text


_TYPES: dict[str, pyspiel.GameType] = {}


def class_name(spec: GameSpec) -> str:
    """Return the name of the :class:`OpenSpielGame` subclass of a game in this module: its ``env_name`` in CamelCase."""
    return "".join(part[:1].upper() + part[1:] for part in spec.env_name.split("_") if part) + "Game"


def register(name: str | GameSpec) -> type[OpenSpielGame]:
    """Register game ``name`` of the registry with OpenSpiel (once); return the class that plays it."""
    spec = get_game(name)
    cls_name = class_name(spec)
    if spec.name in _TYPES:
        cls: type[OpenSpielGame] = globals()[cls_name]
        return cls
    bound = globals().get(cls_name)
    if bound is not None:
        raise ValueError(f"cannot register {spec.title!r} with OpenSpiel: its class name {cls_name!r} is taken")
    # A class, not a closure: OpenSpiel keeps the factory until exit, and only a class is released cleanly then.
    # It is bound in this module under its own name, where pickle looks for it.
    cls = type(cls_name, (OpenSpielGame,), {"SPEC": spec, "__doc__": f"{spec.title} in OpenSpiel.", "__module__": __name__})
    globals()[cls_name] = cls
    _TYPES[spec.name] = game_type(spec)
    pyspiel.register_game(_TYPES[spec.name], cls)
    return cls


for _name in game_names():
    register(_name)

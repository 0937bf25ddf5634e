"""The game protocol: what every game plugged into the stack provides, and what the layers above may use.

A game is one package under ``mustamaija.games`` (or in another
distribution, registered through the ``mustamaija.games`` entry point) whose
``game`` module builds one object satisfying :class:`Game` and registers it
with :func:`mustamaija.core.registry.register_game`. Players, search,
tournaments, replay, the command line, the terminal, the web app and the
research adapters work through this protocol only; none of them names a game.

The protocol has four parts, after OpenSpiel's game/state/observer split:

* :class:`Game`: the description of a game and the operations that need no
  state: rules and presets, dealing, records, results, the step space, the
  observation, sampling for search, the bots and the text front ends show.
* :class:`GameState`: the true state of one deal, mutable with cheap copies,
  driven a step at a time (``legal_mask``, ``apply``) or a compound action at
  a time (``verify``, ``can_play``, ``play``).
* :class:`GameView`: what one seat (or a spectator) may know, built by the
  game's single visibility function ``state.view(seat)``. It is the only
  thing players, clients and logs are given.
* :class:`GameAction`: a frozen compound action with ``seat`` and ``to_json``.

Steps are small integers ``0 <= step < game.num_steps``: the
card-at-a-time decomposition that search and learning code use, with one
fixed action space per game. Compound actions are what records hold.

>>> from mustamaija.core.registry import games
>>> for game in games():
...     s = game.deal(game.min_players, seed=3)
...     assert isinstance(game, Game) and isinstance(s, GameState) and isinstance(s.view(0), GameView)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal, Protocol, runtime_checkable

from mustamaija.core.bench import BenchSection

if TYPE_CHECKING:  # numpy comes with the research extra; the core does not need it to run.
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "BotFactory",
    "Game",
    "GameAction",
    "GamePositions",
    "GameRecord",
    "GameState",
    "GameView",
    "Player",
    "ResultKind",
    "SearchKit",
    "protocol_members",
]

ResultKind = Literal["loss", "points"]
"""How a deal is scored between bots: one seat loses (a loss rate), or every seat takes penalty points (a mean)."""

BotFactory = Callable[[Mapping[str, Any], int], Any]
"""A function of (spec parameters, seed) returning a fresh player of one game."""


@runtime_checkable
class GameAction(Protocol):
    """A compound action of a record: frozen, with the acting seat and its JSON form (docs/formats.md)."""

    @property
    def seat(self) -> int:
        """Return the seat that acts."""

    def to_json(self) -> dict[str, Any]:
        """Return the action as a record's JSON object."""


class _Deal(Protocol):
    """What a state and a view of it both tell: the seats, whose turn it is, whether the deal is over, the legal steps."""

    @property
    def players(self) -> int:
        """Return the number of seats."""

    @property
    def to_act(self) -> int:
        """Return the seat to act, -1 once the deal is over."""

    @property
    def is_over(self) -> bool:
        """Return whether the deal is over."""

    def legal_mask(self) -> int:
        """Return the legal steps as a mask (a view: the viewer's, 0 unless it is the viewer's turn)."""

    def legal_actions(self) -> list[int]:
        """Return the legal steps in rising order."""


@runtime_checkable
class GameView(_Deal, Protocol):
    """What one seat, or a spectator (seat ``None``), may know of a deal."""

    @property
    def seat(self) -> int | None:
        """Return the viewer's seat, ``None`` for a spectator."""

    @property
    def hand(self) -> int:
        """Return the viewer's hand as a card mask (0 for a spectator)."""

    @property
    def hand_sizes(self) -> Sequence[int]:
        """Return every seat's number of cards."""

    def render(self) -> str:
        """Return the view as plain text, one fact a line."""


@runtime_checkable
class Player(Protocol):
    """Something that chooses a legal step for the seat whose view it is given (views only, never the state)."""

    name: str

    def act(self, view: Any) -> int:
        """Return a legal step for ``view.seat``."""
        ...


@runtime_checkable
class GameState(_Deal, Protocol):
    """The whole truth of one deal: mutable, cheap to copy, driven by steps or compound actions."""

    @property
    def in_progress(self) -> bool:
        """Return whether the actor has taken steps of a compound action that is not yet complete."""

    @property
    def phase_name(self) -> str:
        """Return the name of the phase (``"lead"``, ``"pass"``, ``"over"``…)."""

    @property
    def hands(self) -> list[int]:
        """Return every seat's hand as a card mask."""

    def copy(self) -> Any:
        """Return an independent copy."""

    def view(self, seat: int | None) -> Any:
        """Return what ``seat`` may know (``None``: a spectator): the game's one visibility function."""

    def verify_step(self, step: int) -> None:
        """Raise :class:`~mustamaija.core.errors.IllegalActionError` naming the rule unless ``step`` is legal."""

    def can_step(self, step: int) -> bool:
        """Return whether ``step`` is legal now."""

    def apply(self, step: int) -> None:
        """Take one step in place; an illegal step raises and changes nothing."""

    def play_out_randomly(self, rng: random.Random) -> int:
        """Play uniformly random legal steps to the end in place (as ``rng.choice(legal_actions())`` would); return the steps."""

    def actions(self) -> list[Any]:
        """Return the compound actions taken so far, oldest first."""

    def last_action(self) -> Any:
        """Return the last compound action taken (``None`` before the first), without building the others."""

    def verify(self, action: Any) -> None:
        """Raise :class:`~mustamaija.core.errors.IllegalActionError` unless the compound action is legal now."""

    def can_play(self, action: Any) -> bool:
        """Return whether the compound action is legal now."""

    def play(self, action: Any) -> None:
        """Take a compound action in place, after checking it."""


@runtime_checkable
class GameRecord(Protocol):
    """A deal as the interchange format stores it: the deck, the dealer, the rules and the compound actions."""

    players: int
    dealer: int
    actions: tuple[Any, ...]
    extra: Mapping[str, Any]

    @property
    def rules(self) -> Any:
        """Return the rule set."""

    def to_json(self) -> dict[str, Any]:
        """Return the record as a JSON object."""

    def dumps(self, indent: int | None = None) -> str:
        """Return the record as JSON text."""

    def start(self) -> Any:
        """Return the state before the first action."""

    def replay(self) -> Any:
        """Return the state after every action, checking each (a :class:`RecordError` names the first bad one)."""


@runtime_checkable
class SearchKit(Protocol):
    """A game's knowledge for the generic searches of :mod:`mustamaija.search` (PIMC, ISMCTS, hints).

    The searches know only the protocol; everything they need to know about
    one game comes from this object (``game.search_kit()``).
    :class:`mustamaija.search.kit.BasicKit` gives every member a generic
    default (every legal step a candidate, random playouts); a game
    overrides what it knows. A *plan* is a whole action as the kit builds it
    (any picklable value); the search plays plans out and then emits the
    chosen one a step at a time.
    """

    default_budget: Mapping[str, int]
    """PIMC's budget when a bot spec names none: ``{"iters": n}`` (sequential halving) or ``{"samples": n}`` (flat)."""
    playout_seeds: bool
    """Whether playouts use random numbers (then every sampled world draws a seed for its playouts)."""
    rollouts: Sequence[str]
    """The names of the ISMCTS rollout policies; the first is the default."""
    default_depth: int
    """The ISMCTS rollout truncation by default (0: play every rollout to the end)."""
    beliefs: bool
    """Whether :meth:`sampler` deals by the game's model of how players play (false: uniformly; ``beliefs=off`` clears it)."""

    def decision_seed(self, seed: int | None, rng: random.Random, view: Any) -> int | str:
        """Return the seed of one decision's search from the player's seed, its generator and the view."""

    def sampler(self, view: Any) -> Callable[[random.Random], Any]:
        """Return a function dealing states ``view`` cannot tell from the truth (by :attr:`beliefs`' model, if on)."""

    def fixed_step(self, view: Any, seed: int | None) -> int | None:
        """Return the step taken without a search (a rule of the game's bots), or ``None`` to search."""

    def candidates(self, view: Any) -> tuple[list[Any], int]:
        """Return the plans worth searching at the start of the seat's action, and the index of the preferred one."""

    def plan_key(self, view: Any) -> Any:
        """Return what identifies the action a plan is being played for (``None``: plans are single steps)."""

    def plan_step(self, plan: Any, view: Any) -> int:
        """Return the next step of ``plan`` for the seat of ``view``."""

    def apply(self, state: Any, plan: Any) -> None:
        """Take the whole planned action in ``state``, in place."""

    def playout(self, state: Any, rng: random.Random | None) -> None:
        """Play ``state`` to the end in place with the game's playout policy, every seat alike."""

    def playout_return(self, state: Any, rng: random.Random | None, seat: int) -> float:
        """Play ``state`` on in place as :meth:`playout` does until ``seat``'s return is known, and return it."""

    def endgame(self, max_cards: int | None) -> Callable[[Any], int | None] | None:
        """Return an exact endgame hand-over for one player (a view in, a step or ``None`` out), if the game has one."""

    def policy(self, name: str) -> Callable[[Any, random.Random], int]:
        """Return the ISMCTS rollout policy ``name``: a legal step of a state; raise ValueError for an unknown name."""

    def rollout(self, name: str, depth: int) -> Callable[[Any, random.Random], list[float]]:
        """Return an ISMCTS rollout: play a state on (``depth`` turns, 0: to the end) and return every seat's value in [0, 1]."""

    def values(self, state: Any) -> list[float]:
        """Return every seat's value of a finished deal in [0, 1] (its returns, scaled)."""

    def context(self, state: Any) -> Any:
        """Return what tells apart decisions that the same steps reach in different sampled deals (ISMCTS nodes)."""

    def solver(self) -> Any:
        """Return the game's exact solver (:class:`mustamaija.search.kit.ExactSolver`), or ``None``."""


@runtime_checkable
class GamePositions(Protocol):
    """A game's positions: any deal set up from a document or a one-line text, and deals played on from one.

    A position says where every card is and what each seat knows; the
    layers above read them for ``play --position``, ``hint`` and ``solve``
    without knowing the game (``game.positions()``).
    """

    formats: Sequence[str]
    """The ``format`` values of the game's position documents."""

    def reads(self, obj: object) -> bool:
        """Return whether a parsed JSON object is a position of this game."""

    def load(self, source: object, seed: int | str | None = None) -> GameRecord:
        """Return the deal a position sets up (a parsed JSON object, JSON text or the game's one-line text).

        The result replays as a record does (``start()``, ``replay()``,
        ``actions``: the actions a saved game played on from the position);
        ``seed`` deals what the position leaves to chance. Raise
        ``FormatError`` naming the problem.
        """

    def record(self, start: Any, state: Any, **extra: Any) -> GameRecord:
        """Return the document of a deal set up at ``start`` and played on to ``state`` (it has no deck to record)."""

    def text(self, state: Any) -> str:
        """Return the one-line text form of a state's position, fit for a link."""


@runtime_checkable
class Game(Protocol):
    """One game: its description and every operation of it that the layers above need."""

    name: str
    """The registry key, the ``game`` of its records and the ``--game`` of the command line (lower case, words joined by ``-``)."""
    title: str
    """The name people read, capitalised and with spaces."""
    env_name: str
    """The name as an identifier, for PettingZoo, Gymnasium and OpenSpiel ids (:attr:`name` with ``_`` for ``-``)."""
    record_format: str
    """The ``format`` of its records (``"<name>-record/1"``)."""
    min_players: int
    max_players: int
    num_steps: int
    """The size of the fixed step space."""
    obs_size: int
    """The length of the observation vector (sized for :attr:`max_players`)."""
    presets: Sequence[str]
    """The named rule sets; the first is the default."""
    rule_defaults: Mapping[str, Any]
    """Every rule option with its default value."""
    result_kind: ResultKind
    """How tournaments score a deal: ``"loss"`` (:meth:`scores` is 1 for the loser) or ``"points"``."""
    levels: Mapping[str, str]
    """Strength levels (``easy``, ``medium``, ``hard``, ``expert``) and the bot spec each stands for."""
    long_name: str
    """The same as :attr:`title` (OpenSpiel's word)."""

    # -- rules ---------------------------------------------------------------------

    def make_rules(self, preset: str | None = None, overrides: Mapping[str, Any] | None = None) -> Any:
        """Return the rules of ``preset`` (the default preset for ``None``) with ``overrides``, validated."""

    def rules_from_json(self, obj: object) -> Any:
        """Return the rule set of a JSON object (missing keys take their defaults); raise ``RulesError``."""

    def check_players(self, rules: Any, players: int) -> None:
        """Raise :class:`~mustamaija.core.errors.RulesError` unless ``players`` can play these rules."""

    # -- dealing -------------------------------------------------------------------

    def deal(self, players: int, seed: int | str, rules: Any = None) -> Any:
        """Deal from a seed (deck and dealer); the same seed deals the same on every machine."""

    def deal_from_deck(self, players: int, deck: Sequence[int], dealer: int, rules: Any = None) -> Any:
        """Deal from an explicit deck, top card first."""

    def deck(self, players: int) -> int:
        """Return the mask of the cards dealt."""

    # -- results -------------------------------------------------------------------

    def returns(self, state: Any) -> list[float]:
        """Return every seat's reward for the deal (all 0 while it is not over); higher is better."""

    def scores(self, state: Any) -> list[float] | None:
        """Return the tournament figure of every seat (lower is better), ``None`` for a deal stopped unfinished."""

    def truncated(self, state: Any) -> bool:
        """Return whether a deal that is over was stopped unfinished (no result)."""

    def utility_range(self, players: int, rules: Any) -> tuple[float, float]:
        """Return the worst and the best reward of a deal."""

    def outcome_text(self, state: Any) -> str:
        """Return one line saying how the deal ended (or that it goes on)."""

    # -- search --------------------------------------------------------------------

    def card_places(self, state: Any) -> dict[str, int]:
        """Return where every card dealt is now, by place name: disjoint masks whose union is :meth:`deck`."""

    # -- search --------------------------------------------------------------------

    def sample(self, view: Any, rng: random.Random) -> Any:
        """Return a full state drawn uniformly among those ``view`` cannot tell apart; its view equals ``view``."""

    def resample(self, view: Any, seed: int) -> Any:
        """Return :meth:`sample` with ``random.Random(seed)``."""

    # -- records -------------------------------------------------------------------

    def is_record(self, obj: object) -> bool:
        """Return whether a parsed JSON object is a record of this game (by its format)."""

    def load_record(self, obj: object) -> Any:
        """Return the record of a JSON object or text; raise ``FormatError`` naming the problem."""

    def record_of(self, state: Any, **extra: Any) -> Any:
        """Return the record of a dealt state with every action taken so far."""

    def action_from_json(self, obj: object, players: int | None = None) -> Any:
        """Return the compound action of a record's JSON action; raise ``FormatError``."""

    def state_to_json(self, state: Any) -> dict[str, Any]:
        """Return the state as the ``replay --json`` object of docs/formats.md."""

    # -- steps and observations ----------------------------------------------------

    def step_name(self, step: int) -> str:
        """Return a short readable name of a step."""

    def max_steps(self, players: int, rules: Any) -> int:
        """Return an upper bound on the steps of a deal."""

    def encode(self, view: Any, out: npt.NDArray[np.float32]) -> None:
        """Write the observation of ``view`` into ``out`` (zeroed, length :attr:`obs_size`)."""

    def observation_for(self, state: Any, seat: int | None) -> npt.NDArray[np.float32]:
        """Return ``seat``'s observation of ``state``: a new read-only array equal to :meth:`encode` of its view.

        What the research adapters ask for at every step; a game may compute it without building the view
        (``GameBase`` finds an ``observation_for`` in the game's observation module).
        """

    def step_text(self, view: Any) -> str:
        """Return what the view's text leaves out of an action being chosen step by step ("" if nothing)."""

    def history_text(self, view: Any) -> str:
        """Return the actions the view's seat has seen, oldest first, as one line."""

    # -- players and front ends ----------------------------------------------------

    def bots(self) -> Mapping[str, tuple[BotFactory, str]]:
        """Return this game's own bots: name -> (factory, one-line description)."""

    def describe_action(self, action: Any) -> str:
        """Return a compound action in words (``"seat 1 beats 9H with JH"``)."""

    def decided_action(self, state: Any) -> Any:
        """Return an action that tables may play for the seat to act, since no choice of its could change the result.

        ``None`` when the choice matters (nearly always). A table plays it so that nobody waits for a formality.
        """

    def action_words(self, action: Any) -> str:
        """Return a compound action as its seat's player would say it, with suit signs (``"beat 9♥ with J♥"``)."""

    def narrate(self, record: Any) -> list[str]:
        """Return a record told turn by turn, one line each, every hand visible."""

    def bench_sections(self) -> Sequence[BenchSection]:
        """Return the measures only this game can take, for ``mustamaija bench`` (its solver, its search...); may be empty."""

    def action_steps(self, state: Any, action: Any) -> list[int]:
        """Return the steps that take the compound ``action`` in ``state``, whose actor has taken no step of it yet.

        A player may return whole actions and the stack turns them into
        steps (:mod:`mustamaija.players.whole`). Raise
        :class:`~mustamaija.core.errors.IllegalActionError` unless the action is legal now.
        """

    def positions(self) -> GamePositions | None:
        """Return this game's positions (:class:`GamePositions`), or ``None`` for a game that has none."""

    def search_kit(self) -> SearchKit:
        """Return this game's knowledge for the generic searches (:class:`SearchKit`)."""

    def renderer(self, front_end: str) -> str | None:
        """Return the ``module:attribute`` of this game's renderer for a front end (``"tui"``, ``"web"``), if any."""


def protocol_members(protocol: type) -> set[str]:
    """Return the names a class must have to satisfy ``protocol`` (attributes and methods)."""
    names: set[str] = set()
    for base in protocol.__mro__:
        if base.__name__ in ("Protocol", "Generic", "object"):
            continue
        names |= {n for n in (*vars(base), *getattr(base, "__annotations__", {})) if not n.startswith("_")}
    return names

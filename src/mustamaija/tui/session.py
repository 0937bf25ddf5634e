"""The match controller of the terminal game, free of any user interface: one for every game of the registry.

A :class:`GameSession` holds a match between one person and bots, of any
game: the deal in play and its log, each seat's total, undo, hints, and
saving and loading. What is the game's own (how a match is dealt and how
long it lasts, the words of the log, typed moves) comes from the game's
:class:`~mustamaija.tui.plugin.Controller`. The screens only call the
session and draw what it holds; tests drive it directly.

Bots act on views only. A bot's move is computed on a private copy of the
state by :func:`bot_actions` (the screens run it in a worker thread), then
applied with :meth:`GameSession.apply_bots`.

>>> from mustamaija.core.registry import games
>>> for game in games():
...     s = GameSession(MatchConfig(game.name, players=3, bots=("easy", "medium"), seed=7))
...     while s.bot_to_act:
...         job = s.bot_job()
...         _ = s.apply_bots(job, bot_actions(job, chain=True))
...     print(s.names, s.labels, s.human_to_act)
['You', 'Aino', 'Eero'] ['you', 'bot 1 · easy', 'bot 2 · medium'] True
['You', 'Aino', 'Eero'] ['you', 'bot 1 · easy', 'bot 2 · medium'] True
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from mustamaija.core.errors import FormatError, IllegalActionError, MustamaijaError
from mustamaija.core.protocol import Game, Player
from mustamaija.core.registry import DEFAULT_GAME, game_for_position, game_for_record, get_game
from mustamaija.players.levels import make_player, seat_label
from mustamaija.players.play import next_action
from mustamaija.players.random import RandomPlayer
from mustamaija.tui.plugin import Controller, Hint, table_of

__all__ = [
    "BOT_NAMES",
    "MATCH_KEY",
    "BotJob",
    "DealResult",
    "GameSession",
    "MatchConfig",
    "autosave_name",
    "bot_action",
    "bot_actions",
]

BOT_NAMES: Final = ("Aino", "Eero", "Helmi", "Ilmari", "Kerttu", "Lauri", "Saara")
"""The bots' names, given clockwise from the person's left."""

MATCH_KEY: Final = "match"
"""The extra top-level record key that holds the match (settings, totals, names)."""


def autosave_name(game: str | Game = DEFAULT_GAME) -> str:
    """Return where Ctrl-C saves a game in progress, in the current directory, unless told otherwise.

    >>> autosave_name() == f"{DEFAULT_GAME}-autosave.json"
    True
    """
    return f"{get_game(game).name}-autosave.json"


def _controller(game: str | Game) -> Controller:
    return table_of(get_game(game)).controller


@dataclass
class MatchConfig:
    """A match against bots: the game, players, rules, one bot spec per other seat, seed, mode and match settings.

    ``rules`` ``None`` stands for the game's default rules; one bot spec
    serves every other seat; ``options`` are the settings of the game's
    table that are not rules (:attr:`~mustamaija.tui.plugin.Controller.match_options`),
    the defaults filled in.
    """

    game: str = DEFAULT_GAME
    players: int = 4
    rules: Any = None
    bots: tuple[str, ...] = ("medium",)
    human: int = 0
    seed: int = 0
    rated: bool = False
    options: dict[str, int | None] = field(default_factory=dict)

    def __post_init__(self) -> None:
        game = get_game(self.game)
        self.game = game.name
        if self.rules is None:
            self.rules = game.make_rules()
        if len(self.bots) == 1 and self.players > 2:
            self.bots = self.bots * (self.players - 1)
        self.options = {**_controller(game).match_options, **self.options}

    def validate(self) -> None:
        """Raise :class:`MustamaijaError` naming the first problem."""
        game = get_game(self.game)
        controller = _controller(game)
        game.check_players(self.rules, self.players)
        if len(self.bots) != self.players - 1:
            raise MustamaijaError(f"{self.players} players need {self.players - 1} bots, got {len(self.bots)}")
        if not 0 <= self.human < self.players:
            raise MustamaijaError(f"your seat must be 0 to {self.players - 1}, not {self.human}")
        for key, value in self.options.items():
            if key not in controller.match_options:
                known = ", ".join(controller.match_options) or "none; its rules set how long it lasts"
                raise MustamaijaError(f"{game.title} has no match setting {key!r} (its settings: {known})")
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
                raise MustamaijaError(f"{key.replace('_', ' ')} must be a positive whole number, not {value!r}")
        if controller.length(self.rules, self.options) == (None, None):
            c = controller
            raise MustamaijaError(f"a {c.words.match} needs a number of {c.words.deal}s or of {c.words.score}")

    def seat_spec(self, seat: int) -> str | None:
        """Return the bot spec of a seat, ``None`` for the person's."""
        if seat == self.human:
            return None
        return self.bots[(seat - self.human - 1) % self.players]

    def to_json(self) -> dict[str, Any]:
        """Return the match settings as JSON (the ``match`` key of a saved record holds them)."""
        return {"players": self.players, "bots": list(self.bots), "human": self.human, "seed": self.seed,
                "mode": "rated" if self.rated else "practice", **self.options}


@dataclass(frozen=True)
class DealResult:
    """How one deal of a match ended: its dealer and every seat's score (``None``: stopped, nobody scores)."""

    dealer: int
    scores: tuple[int, ...] | None

    def to_json(self) -> dict[str, Any]:
        """Return the result as saved in a record's ``match`` key."""
        return {"dealer": self.dealer, "scores": None if self.scores is None else list(self.scores)}


@dataclass
class BotJob:
    """Bots' decisions to compute: the players and a private copy of the state (only views reach the bots)."""

    seat: int
    player: Player
    state: Any
    generation: int
    seed: int
    players: Sequence[Player | None] = ()


def bot_action(job: BotJob) -> tuple[Any, str]:
    """Return the bot's next compound action, and a note when the bot failed and a random move stood in.

    The bot chooses steps from its views of the job's private copy until one
    compound action is complete. Runs in any thread: it touches only the job.
    """
    return _bot_action(job.state, job.player, job.seed)


def bot_actions(job: BotJob, *, chain: bool) -> list[tuple[Any, str]]:
    """Return the bot's action and, with ``chain``, the actions of the bots that follow until the person acts."""
    state = job.state.copy()
    out: list[tuple[Any, str]] = []
    while True:
        seat = state.to_act
        player = job.players[seat] if job.players else (job.player if seat == job.seat else None)
        if player is None:
            break
        action, note = _bot_action(state, player, job.seed + len(out))
        out.append((action, note))
        state.play(action)
        if not chain or state.is_over:
            break
    return out


def _bot_action(base: Any, player: Player, seed: int) -> tuple[Any, str]:
    try:
        return next_action(base, player), ""
    except Exception as e:  # A broken bot must never end the person's game.
        note = f"{player.name} failed ({type(e).__name__}: {e}); a random legal move was played"
        return next_action(base, RandomPlayer(seed=seed)), note


class GameSession:
    """A match between one person (``config.human``) and bots, deal by deal, of any game."""

    def __init__(self, config: MatchConfig, *, save_dir: str | None = None, _start: bool = True) -> None:
        config.validate()
        self.config = config
        self.game: Game = get_game(config.game)
        self.plugin = table_of(self.game)
        self.controller = self.plugin.controller
        self.rules = config.rules
        self.n = config.players
        self.human = config.human
        self.save_dir = save_dir
        self.names: list[str] = []
        self.labels: list[str] = []
        self.bots: list[Player | None] = []
        for seat in range(self.n):
            spec = config.seat_spec(seat)
            if spec is None:
                self.names.append("You")
                self.labels.append("you")
                self.bots.append(None)
            else:
                self.names.append("")
                self.labels.append(seat_label(seat, spec, self.game))
                self.bots.append(make_player(spec, config.seed * 1009 + seat, self.game))
        for i in range(1, self.n):
            self.names[(self.human + i) % self.n] = BOT_NAMES[(i - 1) % len(BOT_NAMES)]
        self.deals, self.limit = self.controller.length(self.rules, config.options)
        self.dealer = self.controller.deal_deck(config.seed, 0, self.n)[1]
        self.totals = [0] * self.n
        self.results: list[DealResult] = []
        self.deal_no = 0
        self.generation = 0
        self.result: DealResult | None = None
        self.saved: list[str] = []
        self.start: Any = None
        self.state: Any = None
        self.origin: Any = None
        """The game's positions when the deal was set up from a position (its record is then the position's)."""
        self._header: list[str] = []
        self._lines: list[list[str]] = []
        if _start:
            self._begin(self._deal())

    # -- the match -------------------------------------------------------------------------------

    def _deal(self) -> Any:
        deck = self.controller.deal_deck(self.config.seed, self.deal_no, self.n)[0]
        return self.game.deal_from_deck(self.n, deck, self.dealer, self.rules)

    def _begin(self, state: Any, actions: Sequence[Any] = ()) -> None:
        self.start = state.copy()
        self.state = state
        self.result = None
        self.generation += 1
        self._header = self.controller.deal_header(self)
        self._lines = []
        for a in actions:  # A saved deal holds every move, those the table played for a seat too.
            self._apply(a, replaying=True)

    @property
    def over(self) -> bool:
        """Return whether the agreed number of deals, or a total that ends the match, has been reached."""
        reached = self.limit is not None and max(self.totals) >= self.limit
        return reached or (self.deals is not None and len(self.results) >= self.deals)

    @property
    def played(self) -> int:
        """Return the number of deals scored (or stopped) so far."""
        return len(self.results)

    @property
    def match_over(self) -> bool:
        """Return whether the match is over (the last deal is over and scored)."""
        return self.result is not None and self.over

    def next_deal(self) -> None:
        """Deal the next deal of the match; the current one must be over."""
        c = self.controller
        if self.result is None:
            raise MustamaijaError(f"the {c.words.deal} is not over yet")
        if self.over:
            raise MustamaijaError(f"the {c.words.match} is over")
        self.deal_no += 1
        self.origin = None  # A match that began at a position goes on with dealt deals.
        self._begin(self._deal())

    def _finish(self) -> None:
        s = self.state
        scores = self.game.scores(s)
        self.result = DealResult(self.dealer, None if scores is None else tuple(round(x) for x in scores))
        self.results.append(self.result)
        for seat, points in enumerate(self.result.scores or ()):
            self.totals[seat] += points
        self.dealer = self.controller.next_dealer(s, self.dealer)
        c = self.controller
        totals = ", ".join(f"{self.names[seat]} {total}" for seat, total in enumerate(self.totals))
        end = [*c.deal_end(s, self.names, self.human), f"{c.words.deal.capitalize()} {self.deal_no + 1} over. "
               f"{c.words.score.capitalize()} so far: {totals}."]
        if self.over:
            end.append(f"The {c.words.match} is over: {self.winners_text()}.")
        self._lines[-1].extend(end)
        if self.save_dir is not None:
            os.makedirs(self.save_dir, exist_ok=True)
            self.save(os.path.join(self.save_dir, self.file_name()))

    def file_name(self) -> str:
        """Return the name a saved deal gets: the game, the seed and the deal's number."""
        return f"{self.game.name}-{self.config.seed}-{self.controller.words.deal}{self.deal_no + 1}.json"

    def standings(self) -> list[tuple[int, int]]:
        """Return (seat, total) pairs, lowest total first."""
        return sorted(enumerate(self.totals), key=lambda p: (p[1], p[0]))

    def winners_text(self) -> str:
        """Return who leads the match now (the lowest total wins), such as ``"you win with 3"``."""
        low = min(self.totals)
        winners = [s for s, t in enumerate(self.totals) if t == low]
        if self.human in winners:
            return "you win" + (" (shared)" if len(winners) > 1 else "") + f" with {low}"
        verb = "wins" if len(winners) == 1 else "win"
        return " and ".join(self.names[w] for w in winners) + f" {verb} with {low}"

    def summary(self) -> str:
        """Return the line printed when the person leaves a finished match."""
        c = self.controller
        totals = ", ".join(f"{self.names[seat]} {total}" for seat, total in self.standings())
        return (f"{c.words.match.capitalize()} over after {self.played} {c.words.deal}(s): {self.winners_text()}. "
                f"{c.words.score.capitalize()}: {totals}.")

    # -- reading --------------------------------------------------------------------------------

    @property
    def log(self) -> list[str]:
        """Return the log of the deal so far, one line per entry."""
        return [*self._header, *(line for lines in self._lines for line in lines)]

    @property
    def human_to_act(self) -> bool:
        """Return whether the person is to act now."""
        return not self.state.is_over and self.state.to_act == self.human

    @property
    def bot_to_act(self) -> bool:
        """Return whether a bot is to act now."""
        return not self.state.is_over and self.state.to_act != self.human

    def view(self) -> Any:
        """Return what the person may know of the deal."""
        return self.state.view(self.human)

    def status(self) -> str:
        """Return one line saying what happens now."""
        c = self.controller
        if self.state.is_over:
            if self.match_over:
                return f"The {c.words.match} is over. Press Enter to leave, or type save to save the {c.words.deal}."
            return f"The {c.words.deal} is over. Press Enter (or type next) for the next {c.words.deal}."
        return c.status(self)

    # -- acting ------------------------------------------------------------------------------------

    def _apply(self, action: Any, decided: bool = False, replaying: bool = False) -> list[str]:
        before = self.state.copy()
        self.state.play(action)
        lines = self.controller.narrate(before, self.state, action, self.names, self.human)
        if decided:
            who = "you" if action.seat == self.human else self.names[action.seat]
            lines.append(f"   (played for {who}: no choice could change the result)")
        self._lines.append(lines)
        if self.state.is_over:
            self._finish()
            return lines
        if replaying:
            return lines
        # A move no choice could change (the last holder's pick-up) is played at once: nobody waits for it.
        auto = self.game.decided_action(self.state)
        return lines + self._apply(auto, decided=True) if auto is not None else lines

    def _human_check(self) -> None:
        s = self.state
        c = self.controller
        if s.is_over:
            raise MustamaijaError(f"the {c.words.deal} is over: press Enter or type next for the next {c.words.deal}")
        if s.to_act != self.human:
            raise IllegalActionError(c.words.turn_rule, f"it is {self.names[s.to_act]}'s turn to {c.doing(s)}, not yours")

    def verify(self, action: Any) -> None:
        """Raise :class:`IllegalActionError` naming the rule unless the person may take ``action`` now.

        The engine's messages say "seat 0"; here they speak to the person.
        """
        self._human_check()
        try:
            self.state.verify(action)
        except IllegalActionError as e:
            detail = e.detail.replace(f"seat {self.human} does not hold", "you do not hold")
            detail = detail.replace(f"seat {self.human} cannot", "you cannot")
            raise IllegalActionError(e.rule, detail) from None

    def act(self, action: Any) -> list[str]:
        """Take the person's compound action, checked; return its log lines."""
        self.verify(action)
        return self._apply(action)

    def submit(self, text: str) -> list[str]:
        """Carry out a move typed by the person, read by the game's controller."""
        self._human_check()
        return self.act(self.controller.parse_move(text, self))

    # -- bots ---------------------------------------------------------------------------------------

    def bot_job(self) -> BotJob:
        """Return the decision the bot to act has to make."""
        if not self.bot_to_act:
            raise MustamaijaError("no bot is to act now")
        seat = self.state.to_act
        player = self.bots[seat]
        assert player is not None
        seed = self.config.seed * 7919 + len(self.state.actions()) * 13 + seat
        return BotJob(seat, player, self.state.copy(), self.generation, seed, tuple(self.bots))

    def apply_bot(self, job: BotJob, result: tuple[Any, str]) -> list[str] | None:
        """Apply a bot's computed action; return ``None`` if the game moved on meanwhile (undo, load)."""
        action, note = result
        stale = len(job.state.actions()) != len(self.state.actions())
        if job.generation != self.generation or stale or self.state.is_over:
            return None
        lines = self._apply(action)
        if note:
            lines.append(f"   ({note})")
        return lines

    def apply_bots(self, job: BotJob, results: Sequence[tuple[Any, str]]) -> int:
        """Apply a chain of bot actions computed from ``job``; return how many were applied."""
        done = 0
        for result in results:
            if self.apply_bot(job, result) is None:
                break
            job.state.play(result[0])  # Keep the job in step, so the next action checks against it.
            done += 1
        return done

    # -- undo and hints ---------------------------------------------------------------------------------

    def undo(self) -> str:
        """Take back the person's last action of this deal and everything after it (practice games only)."""
        if self.config.rated:
            raise MustamaijaError("undo is not available in rated matches")
        acts = self.state.actions()
        last = max((i for i, a in enumerate(acts) if a.seat == self.human), default=-1)
        if last < 0:
            raise MustamaijaError(f"nothing to undo: you have not acted in this {self.controller.words.deal} yet")
        if self.result is not None:
            self._unscore()
        taken = acts[last]
        self._begin(self.start.copy(), acts[:last])
        return f"took back: {self.controller.taken_back(taken)}"

    def _unscore(self) -> None:
        result = self.results.pop()
        for seat, points in enumerate(result.scores or ()):
            self.totals[seat] -= points
        self.dealer = result.dealer
        self.result = None

    def check_hint(self) -> None:
        """Raise :class:`MustamaijaError` unless the person may ask for a hint now."""
        if self.config.rated:
            raise MustamaijaError("hints are not available in rated matches")
        if not self.human_to_act:
            raise MustamaijaError("a hint is for your turn")

    def hint(self, seconds: float = 1.0) -> Hint:
        """Return what the person should do now, judged from their view only (the screens run it in a thread)."""
        self.check_hint()
        return self.controller.hint(self.state.copy(), self.human, seconds)

    # -- saving and loading ----------------------------------------------------------------------------

    def record(self) -> Any:
        """Return the deal so far as a record of its game, with the match in the extra ``match`` key.

        A deal set up from a position has no deck: its record is the position with the actions played since
        (``game.positions().record``), which ``play --position`` and ``--load`` resume.
        """
        meta = {**self.config.to_json(), "deal": self.deal_no, "totals": list(self.totals),
                "results": [r.to_json() for r in self.results], "names": list(self.names)}
        if self.origin is not None:
            return self.origin.record(self.start, self.state, **{MATCH_KEY: meta})
        return self.game.record_of(self.state, **{MATCH_KEY: meta})

    def save(self, path: str) -> str:
        """Write the deal's record to ``path``; return the path."""
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.record().dumps())
        self.saved.append(path)
        return path

    @classmethod
    def load(cls, path: str, *, bots: Sequence[str] | None = None, human: int | None = None,
             save_dir: str | None = None) -> GameSession:
        """Resume a saved game at its last position, of whatever game the record is (a plain record: one deal)."""
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError as e:
            raise FormatError(f"cannot read {path}: {e.strerror or e}") from None
        try:
            obj = json.loads(data)
        except (json.JSONDecodeError, UnicodeDecodeError):
            obj = data  # The default game's reader names the problem.
        owner = game_for_position(obj)
        if owner is not None:  # A deal played from a position, saved.
            positions = owner.positions()
            assert positions is not None
            return cls.from_position(positions.load(obj), owner, bots=bots, human=human, save_dir=save_dir)
        game = game_for_record(obj) if isinstance(obj, dict) else get_game(DEFAULT_GAME)
        return cls.from_record(game.load_record(obj), game, bots=bots, human=human, save_dir=save_dir)

    @classmethod
    def from_position(cls, deal: Any, game: str | Game, *, bots: Sequence[str] | None = None, human: int | None = None,
                      seed: int = 0, rated: bool = False, save_dir: str | None = None) -> GameSession:
        """Play out the deal a position sets up (``game.positions().load``), as a match of one deal.

        The person takes seat ``human``, by default the seat to act (in a
        position before a lead, the attacker). A saved game played from a
        position (its actions and ``match`` key) resumes at its last position.
        """
        game = get_game(game)
        positions = game.positions()
        if positions is None:
            raise MustamaijaError(f"{game.title} has no positions")
        state = deal.replay()  # An illegal action is reported before anything else happens.
        meta = deal.extra.get(MATCH_KEY)
        if isinstance(meta, Mapping):
            config = _config_from_meta(game, meta, deal)
        else:
            if state.is_over:
                raise MustamaijaError(f"the deal of this position is over ({game.outcome_text(state)}): nothing to play")
            rules, options = _controller(game).one_deal(deal.rules)
            config = MatchConfig(game.name, players=deal.players, rules=rules, human=state.to_act, seed=seed,
                                 rated=rated, options=options)
        if bots is not None:
            config.bots = tuple(bots) if len(bots) != 1 else tuple(bots) * (deal.players - 1)
        if human is not None:
            config.human = human
        session = cls(config, save_dir=save_dir, _start=False)
        session.origin = positions
        if isinstance(meta, Mapping):
            session._restore(meta, deal)
        session.dealer = deal.dealer
        session._begin(deal.start(), deal.actions)
        return session

    @classmethod
    def from_record(cls, record: Any, game: str | Game, *, bots: Sequence[str] | None = None, human: int | None = None,
                    save_dir: str | None = None) -> GameSession:
        """Resume the deal of a record at its last position (see :meth:`load`)."""
        game = get_game(game)
        record.replay()  # An illegal action is reported before anything else happens.
        meta = record.extra.get(MATCH_KEY)
        if isinstance(meta, Mapping):
            config = _config_from_meta(game, meta, record)
        else:
            rules, options = _controller(game).one_deal(record.rules)
            config = MatchConfig(game.name, players=record.players, rules=rules, options=options)
        if bots is not None:
            config.bots = tuple(bots) if len(bots) != 1 else tuple(bots) * (record.players - 1)
        if human is not None:
            config.human = human
        session = cls(config, save_dir=save_dir, _start=False)
        if isinstance(meta, Mapping):
            session._restore(meta, record)
        session.dealer = record.dealer
        session._begin(record.start(), record.actions)
        return session

    def _restore(self, meta: Mapping[str, Any], record: Any) -> None:
        try:
            self.deal_no = int(meta["deal"]) if "deal" in meta else int(meta.get("hand", 1)) - 1
            results = [_result_of(item, self.n) for item in meta.get("results", [])]
            totals = meta.get("totals", meta.get("losses"))
            if totals is None:
                totals = [sum(r.scores[s] for r in results if r.scores) for s in range(self.n)]
            totals = [int(x) for x in totals]
        except (KeyError, TypeError, ValueError, IndexError) as e:
            raise FormatError(f"the saved match is damaged: {e}") from None
        if len(totals) != self.n:
            raise FormatError(f"the saved match lists {len(totals)} totals for {self.n} players")
        if len(results) > self.deal_no:  # Saved after the deal ended: it is scored already, and is scored again.
            last = results.pop()
            for seat, points in enumerate(last.scores or ()):
                totals[seat] -= points
        self.results[:] = results
        self.totals[:] = totals


def _result_of(item: Any, players: int) -> DealResult:
    """Read one saved result (also the forms that saves made before the shared table wrote)."""
    if isinstance(item, Mapping):
        scores = item.get("scores", item.get("points"))
        return DealResult(int(item["dealer"]), None if scores is None else tuple(int(x) for x in scores))
    dealer, loser = int(item[0]), item[1]  # [dealer, loser, turns]: one loss for the loser.
    return DealResult(dealer, None if loser is None else tuple(int(s == int(loser)) for s in range(players)))


def _config_from_meta(game: Game, meta: Mapping[str, Any], record: Any) -> MatchConfig:
    try:
        bots = tuple(str(b) for b in meta.get("bots", ["medium"]))
        options = {k: None if meta.get(k) is None else int(meta[k])
                   for k in _controller(game).match_options if k in meta}
        return MatchConfig(game.name, players=record.players, rules=record.rules, bots=bots,
                           human=int(meta.get("human", 0)), seed=int(meta.get("seed", 0)),
                           rated=meta.get("mode") == "rated", options=options)
    except (TypeError, ValueError) as e:
        raise FormatError(f"the saved match is damaged: {e}") from None

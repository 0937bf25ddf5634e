"""The match controller of the terminal game, free of any user interface.

A :class:`GameSession` holds a match (M20) between one person and bots: the
deal in play, the deal log, the score, undo, and saving and loading. The
screens only call it and draw what it holds; tests drive it directly.

Bots act on views only (M22). A bot's move is computed on a copy of the
state by :func:`bot_action` (the screens run it in a worker thread), then
applied with :meth:`GameSession.apply_bot`.

>>> s = GameSession(MatchConfig(players=3, bots=("easy", "easy"), seed=7, deals=1))
>>> s.names, s.state.dealer, s.deal_no
(['You', 'Aino', 'Eero'], 2, 0)
>>> while not s.human_to_act and not s.state.is_over:
...     s.apply_bot(s.bot_job(), bot_action(s.bot_job()))
>>> s.state.to_act == s.human, s.state.phase_name
(True, 'lead')
>>> s.submit(parse_command("9H"))
Traceback (most recent call last):
...
mustamaija.core.errors.IllegalActionError: M10: you do not hold 9H
"""

from __future__ import annotations

import os
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import permutations
from typing import Any, Final

from mustamaija.core.cards import card_name, card_symbol, cards_of
from mustamaija.core.errors import FormatError, IllegalActionError, MustamaijaError
from mustamaija.games.mustamaija.actions import Action, Beat, Declare, Lead
from mustamaija.games.mustamaija.deals import shuffled_deck
from mustamaija.games.mustamaija.match import DealResult, Match
from mustamaija.games.mustamaija.record import Record
from mustamaija.games.mustamaija.rules import Rules
from mustamaija.games.mustamaija.state import DEFEND, LEAD, State
from mustamaija.players.base import Player
from mustamaija.players.levels import describe_bot, make_player
from mustamaija.players.random import RandomPlayer
from mustamaija.tui.commands import Command, parse_command
from mustamaija.tui.describe import cards_text, describe_action, rules_name, trump_text

__all__ = [
    "AUTOSAVE",
    "BOT_NAMES",
    "BotJob",
    "GameSession",
    "MatchConfig",
    "bot_action",
    "bot_actions",
    "deal_deck",
    "parse_command",
]

BOT_NAMES: Final = ("Aino", "Eero", "Helmi", "Ilmari", "Kerttu", "Lauri", "Saara")
"""The bots' names, given clockwise from the person's left."""

AUTOSAVE: Final = "mustamaija-autosave.json"
"""Where Ctrl-C saves the game in progress, in the current directory, unless ``--autosave`` says otherwise."""

MATCH_KEY: Final = "match"
"""The extra top-level record key that holds the match (scores, bots, the person's seat)."""


@dataclass
class MatchConfig:
    """A match against bots: players, rules, one bot spec per other seat, length, seed and mode."""

    players: int = 4
    rules: Rules = field(default_factory=Rules)
    bots: tuple[str, ...] = ("medium",)
    human: int = 0
    deals: int | None = 5
    max_losses: int | None = None
    seed: int = 0
    rated: bool = False

    def __post_init__(self) -> None:
        if len(self.bots) == 1 and self.players > 2:
            self.bots = self.bots * (self.players - 1)

    def validate(self) -> None:
        """Raise :class:`MustamaijaError` naming the first problem."""
        self.rules.check_players(self.players)
        if len(self.bots) != self.players - 1:
            raise MustamaijaError(f"{self.players} players need {self.players - 1} bots, got {len(self.bots)}")
        if not 0 <= self.human < self.players:
            raise MustamaijaError(f"your seat must be 0 to {self.players - 1}, not {self.human}")
        if self.deals is None and self.max_losses is None:
            raise MustamaijaError("a match needs a number of deals or of losses")

    def seat_spec(self, seat: int) -> str | None:
        """Return the bot spec of a seat, ``None`` for the person's."""
        if seat == self.human:
            return None
        return self.bots[(seat - self.human - 1) % self.players]

    def to_json(self) -> dict[str, Any]:
        """Return the match settings as JSON (the ``match`` key of a saved record holds them)."""
        return {
            "players": self.players, "bots": list(self.bots), "human": self.human, "deals": self.deals,
            "max_losses": self.max_losses, "seed": self.seed, "mode": "rated" if self.rated else "practice",
        }


def deal_deck(seed: int, deal: int, players: int) -> tuple[tuple[int, ...], int]:
    """Return the deck of a match's deal and the dealer the seed draws for the first deal.

    The first deal is the one ``State.from_seed(players, seed)`` deals;
    later deals shuffle with a generator seeded by the match seed and the
    deal number, so a saved match resumes with the same cards.
    """
    if deal == 0:
        rng = random.Random(seed)
        deck = shuffled_deck(rng)
        return deck, rng.randrange(players)
    return shuffled_deck(random.Random(f"mustamaija/{seed}/{deal}")), 0


@dataclass
class BotJob:
    """Bots' decisions to compute: the players and a private copy of the state (only views reach the bots)."""

    seat: int
    player: Player
    state: State
    generation: int
    seed: int
    players: Sequence[Player | None] = ()


def bot_action(job: BotJob) -> tuple[Action, str]:
    """Return the bot's next compound action, and a note when the bot failed and a random move stood in.

    The bot chooses steps from its views of the job's private copy until one
    compound action is complete. Runs in any thread: it touches only the job.
    """
    return _bot_action(job.state, job.seat, job.player, job.seed)


def bot_actions(job: BotJob, *, chain: bool) -> list[tuple[Action, str]]:
    """Return the bot's action and, with ``chain``, the actions of the bots that follow until the person acts."""
    state = job.state.copy()
    out: list[tuple[Action, str]] = []
    while True:
        seat = state.to_act
        player = job.players[seat] if job.players else (job.player if seat == job.seat else None)
        if player is None:
            break
        action, note = _bot_action(state, seat, player, job.seed + len(out))
        out.append((action, note))
        state.play(action)
        if not chain or state.is_over:
            break
    return out


def _bot_action(base: State, seat: int, player: Player, seed: int) -> tuple[Action, str]:
    state = base.copy()
    n0 = state.nlog
    note = ""
    try:
        while state.nlog == n0:
            step = player.act(state.view(seat))
            state.apply(step)
    except Exception as e:  # A broken bot must never end the person's game.
        note = f"{player.name} failed ({type(e).__name__}: {e}); a random legal move was played"
        state = base.copy()
        stand_in = RandomPlayer(seed=seed)
        while state.nlog == n0:
            state.apply(stand_in.act(state.view(seat)))
    return state.actions()[-1], note


class GameSession:
    """A match between one person (``config.human``) and bots, deal by deal."""

    def __init__(self, config: MatchConfig, *, save_dir: str | None = None, _start: bool = True) -> None:
        config.validate()
        self.config = config
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
                self.labels.append(describe_bot(spec).split(" · ")[-1])
                self.bots.append(make_player(spec, seed=config.seed * 1009 + seat))
        for i in range(1, self.n):
            self.names[(self.human + i) % self.n] = BOT_NAMES[(i - 1) % len(BOT_NAMES)]
        first_dealer = deal_deck(config.seed, 0, self.n)[1]
        self.match = Match(self.n, self.rules, config.deals, config.max_losses, first_dealer)
        self.deal_no = 0
        self.generation = 0
        self.result: DealResult | None = None
        self.saved: list[str] = []
        self.start: State
        self.state: State
        self._header: list[str] = []
        self._lines: list[list[str]] = []
        if _start:
            self._begin(self.match.next_deal(deal_deck(config.seed, 0, self.n)[0]))

    # -- deals -------------------------------------------------------------------------------

    def _begin(self, state: State, actions: Sequence[Action] = ()) -> None:
        self.start = state.copy()
        self.state = state
        self.result = None
        self.generation += 1
        self._header = [
            f"Deal {self.deal_no + 1}{self._of_deals()}: {self.names[state.dealer]} dealt. "
            f"Rules: {rules_name(self.rules)} ({self.rules.describe()}).",
            f"Your hand: {cards_text(state.hands[self.human])}",
            f"Trumps: {trump_text(state)}.",
        ]
        self._lines = []
        for a in actions:
            self._apply(a)

    def _of_deals(self) -> str:
        return f" of {self.config.deals}" if self.config.deals is not None else ""

    @property
    def match_over(self) -> bool:
        """Return whether the match is over (the last deal is over and scored)."""
        return self.result is not None and self.match.over

    def next_deal(self) -> None:
        """Deal the next deal of the match; the current one must be over."""
        if self.result is None:
            raise MustamaijaError("the deal is not over yet")
        if self.match.over:
            raise MustamaijaError("the match is over")
        self.deal_no += 1
        self._begin(self.match.next_deal(deal_deck(self.config.seed, self.deal_no, self.n)[0]))

    def _finish(self) -> None:
        s = self.state
        self.result = self.match.finish_deal(s)
        if s.finished:
            self._lines[-1].append(f"{self.names[s.loser]} {'are' if s.loser == self.human else 'is'} the Mustamaija, "
                                   f"left holding {cards_text(s.hands[s.loser])}.")
        else:
            self._lines[-1].append(f"The deal was stopped unfinished after {s.turns} turns (M21).")
        if self.save_dir is not None:
            os.makedirs(self.save_dir, exist_ok=True)
            path = os.path.join(self.save_dir, f"deal-{self.config.seed}-{self.deal_no + 1}.json")
            self.save(path)

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

    def last_turn(self) -> tuple[Lead, Beat | None] | None:
        """Return the last lead and the defence that answered it (``None`` while it is being defended)."""
        acts = self.state.actions()
        for i in range(len(acts) - 1, -1, -1):
            a = acts[i]
            if isinstance(a, Lead):
                nxt = acts[i + 1] if i + 1 < len(acts) else None
                return a, nxt if isinstance(nxt, Beat) else None
        return None

    def status(self) -> str:
        """Return one line saying what happens now."""
        s = self.state
        if s.is_over:
            if self.match_over:
                return "The match is over. Press q to leave, or s to save the deal."
            return "The deal is over. Press Enter (or type next) for the next deal."
        who = self.names[s.to_act]
        if s.to_act == self.human:
            if s.phase == LEAD:
                return (f"Your lead against {self.names[s.defender]}: choose cards (←/→, space) and press Enter, "
                        "or type them, such as 9H 4H.")
            return ("Your defence: pair led cards with beaters (↑/↓ picks the led card, space the beater), "
                    "Enter to confirm (with none chosen: pick up all); or type 9H:JH 4H:- or take.")
        return f"{who} is to {'lead' if s.phase == LEAD else 'defend'}…"

    # -- acting ------------------------------------------------------------------------------------

    def _apply(self, action: Action) -> list[str]:
        before = self.state.copy()
        self.state.play(action)
        lines = describe_action(before, self.state, action, self.names)
        self._lines.append(lines)
        if self.state.is_over:
            self._finish()
        return lines

    def _human_check(self) -> None:
        s = self.state
        if s.is_over:
            raise MustamaijaError("the deal is over: press Enter or type next for the next deal")
        if s.to_act != self.human:
            role = "lead" if s.phase == LEAD else "defend"
            raise IllegalActionError("M9", f"it is {self.names[s.to_act]}'s turn to {role}, not yours")

    def verify(self, action: Action) -> None:
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

    def lead(self, cards: int) -> list[str]:
        """Lead the cards of a mask for the person."""
        action = Lead(self.human, cards)
        self.verify(action)
        return self._apply(action)

    def beat(self, pairs: Mapping[int, int]) -> list[str]:
        """Defend for the person: beat each mapped led card with its card, pick up the rest."""
        action = Beat.of(self.human, pairs)
        self.verify(action)
        return self._apply(action)

    def declare(self, suit: int) -> list[str]:
        """Declare a marriage for the person."""
        action = Declare(self.human, suit)
        self.verify(action)
        return self._apply(action)

    def submit(self, cmd: Command) -> list[str]:
        """Carry out a move typed by the person (``cards``, ``pairs``, ``take`` or ``declare``)."""
        self._human_check()
        s = self.state
        if cmd.kind == "declare":
            return self.declare("SHDC".index(cmd.arg))
        if cmd.kind == "cards":
            if len(set(cmd.cards)) != len(cmd.cards):
                dup = next(c for c in cmd.cards if cmd.cards.count(c) > 1)
                raise MustamaijaError(f"card {card_name(dup)} is given twice")
            mask = sum(1 << c for c in cmd.cards)
            if s.phase == LEAD:
                return self.lead(mask)
            return self.beat(self._match_beaters(list(cmd.cards)))
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
            return self.beat(pairs)
        if cmd.kind == "take":
            if s.phase != DEFEND:
                raise IllegalActionError("M10", "you lead now: there is nothing to pick up")
            return self.beat({})
        raise MustamaijaError(f"{cmd.kind!r} is not a move")

    def _match_beaters(self, cards: list[int]) -> dict[int, int]:
        """Pair typed beaters with led cards when the matching is clear; else say what to type."""
        s = self.state
        hand = s.hands[self.human]
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
            if s.can_beat(pairs, self.human):
                found.append(pairs)
        if len(found) == 1:
            return found[0]
        if not found:
            for c in cards:
                if not any(s.can_beat({t: c}, self.human) for t in led):
                    raise IllegalActionError("M13", f"{card_symbol(c)} beats none of the led cards "
                                                    f"{cards_text(s.led)} ({trump_text(s)})")
            raise IllegalActionError("M13", "these cards cannot beat the led cards one each: one beating card "
                                            "beats exactly one led card")
        example = " ".join(f"{card_name(t)}:{card_name(b)}" for t, b in found[0].items())
        raise MustamaijaError(f"say which led card each card beats, such as {example}")

    # -- bots ---------------------------------------------------------------------------------------

    def bot_job(self) -> BotJob:
        """Return the decision the bot to act has to make."""
        if not self.bot_to_act:
            raise MustamaijaError("no bot is to act now")
        seat = self.state.to_act
        player = self.bots[seat]
        assert player is not None
        return BotJob(seat, player, self.state.copy(), self.generation,
                      self.config.seed * 7919 + self.state.nlog * 13 + seat, tuple(self.bots))

    def apply_bot(self, job: BotJob, result: tuple[Action, str]) -> list[str] | None:
        """Apply a bot's computed action; return ``None`` if the game moved on meanwhile (undo, load)."""
        action, note = result
        if job.generation != self.generation or job.state.nlog != self.state.nlog or self.state.is_over:
            return None
        lines = self._apply(action)
        if note:
            lines.append(f"   ({note})")
        return lines

    def apply_bots(self, job: BotJob, results: Sequence[tuple[Action, str]]) -> int:
        """Apply a chain of bot actions computed from ``job``; return how many were applied."""
        done = 0
        for result in results:
            if self.apply_bot(job, result) is None:
                break
            job.state.play(result[0])  # Keep the job in step, so the next action checks against it.
            done += 1
        return done

    # -- undo -----------------------------------------------------------------------------------------

    def undo(self) -> str:
        """Take back the person's last action of this deal and everything after it (practice games only)."""
        if self.config.rated:
            raise MustamaijaError("undo is not available in rated matches")
        acts = self.state.actions()
        last = max((i for i, a in enumerate(acts) if a.seat == self.human), default=-1)
        if last < 0:
            raise MustamaijaError("nothing to undo: you have not acted in this deal yet")
        if self.result is not None:
            self._unscore()
        taken = acts[last]
        self._begin(self.start.copy(), acts[:last])
        return f"took back: {_action_words(taken)}"

    def _unscore(self) -> None:
        result = self.match.results.pop()
        if result.loser is not None:
            self.match.losses[result.loser] -= 1
        self.match.dealer = result.dealer
        self.result = None

    # -- saving and loading ----------------------------------------------------------------------------

    def record(self) -> Record:
        """Return the deal so far as a record, with the match in the extra ``match`` key."""
        meta = {
            **self.config.to_json(),
            "rules": self.rules.to_json(only_changes=True),
            "deal": self.deal_no,
            "losses": list(self.match.losses),
            "results": [[r.dealer, r.loser, r.turns] for r in self.match.results],
            "names": list(self.names),
        }
        return Record.from_state(self.state, **{MATCH_KEY: meta})

    def save(self, path: str) -> str:
        """Write the deal's record to ``path``; return the path."""
        self.record().dump(path)
        self.saved.append(path)
        return path

    @classmethod
    def load(cls, path: str, *, bots: Sequence[str] | None = None, human: int | None = None,
             save_dir: str | None = None) -> GameSession:
        """Resume a saved game at its last position (any FORMATS.md record also works: a one-deal match)."""
        try:
            record = Record.load(path)
        except OSError as e:
            raise FormatError(f"cannot read {path}: {e.strerror or e}") from None
        record.replay()  # An illegal action is reported before anything else happens.
        meta = record.extra.get(MATCH_KEY)
        if isinstance(meta, Mapping):
            config = _config_from_meta(meta, record)
        else:
            config = MatchConfig(players=record.players, rules=record.rules, deals=1)
            config.bots = ("medium",) * (record.players - 1)
        if bots is not None:
            config.bots = tuple(bots) if len(bots) != 1 else tuple(bots) * (record.players - 1)
        if human is not None:
            config.human = human
        session = cls(config, save_dir=save_dir, _start=False)
        if isinstance(meta, Mapping):
            session._restore_match(meta, record)
        else:
            session.match.dealer = record.dealer
            session.match.first_dealer = record.dealer
        session._begin(record.start(), record.actions)
        return session

    def _restore_match(self, meta: Mapping[str, Any], record: Record) -> None:
        try:
            self.deal_no = int(meta.get("deal", 0))
            results = [DealResult(int(d), None if lo is None else int(lo), int(t)) for d, lo, t in meta.get("results", [])]
            losses = [int(x) for x in meta.get("losses", [0] * self.n)]
        except (TypeError, ValueError) as e:
            raise FormatError(f"the saved match is damaged: {e}") from None
        if len(losses) != self.n:
            raise FormatError(f"the saved match lists {len(losses)} scores for {self.n} players")
        scored_here = len(results) > self.deal_no  # Saved after the deal ended: it is scored already.
        if scored_here:
            last = results.pop()
            if last.loser is not None:
                losses[last.loser] -= 1
        self.match.results[:] = results
        self.match.losses[:] = losses
        self.match.dealer = record.dealer


def _config_from_meta(meta: Mapping[str, Any], record: Record) -> MatchConfig:
    try:
        bots = tuple(str(b) for b in meta.get("bots", ["medium"] * (record.players - 1)))
        deals = meta.get("deals")
        max_losses = meta.get("max_losses")
        return MatchConfig(
            players=record.players,
            rules=record.rules,
            bots=bots,
            human=int(meta.get("human", 0)),
            deals=None if deals is None else int(deals),
            max_losses=None if max_losses is None else int(max_losses),
            seed=int(meta.get("seed", 0)),
            rated=meta.get("mode") == "rated",
        )
    except (TypeError, ValueError) as e:
        raise FormatError(f"the saved match is damaged: {e}") from None


def _action_words(action: Action) -> str:
    if isinstance(action, Lead):
        return f"your lead of {cards_text(action.cards)}"
    if isinstance(action, Beat):
        return "your defence" if action.pairs else "your pick-up"
    return "your marriage"

"""The Black Maria game behind the terminal screens: a UI-free controller over :class:`~mustamaija.games.black_maria.session.Table`.

Every seat is a person to the :class:`Table`, so that :meth:`Table.act`
never runs the bots itself: the screens let each bot think in a worker
thread, on a copy of the hand, and hand its choice back here, one action
at a time, at the pace the player chose. What the person sees comes from
its view only (B3: nothing received shows before every seat has passed).

>>> g = BmGame(BmConfig(players=4, bots=("heuristic",), seed=7, hands=1))
>>> g.names
['You', 'Aino', 'Eero', 'Helmi']
>>> while g.bot_to_act:
...     _ = g.apply_bot(g.bot_job().run())
>>> g.human_to_act, g.phase, g.view().received
(True, 'pass', 0)
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from mustamaija.core.cards import card_symbol, cards_of, parse_cards
from mustamaija.core.errors import CardError, FormatError, MustamaijaError, RulesError
from mustamaija.core.protocol import Player
from mustamaija.games.black_maria.legality import penalty_of
from mustamaija.games.black_maria.record import Record
from mustamaija.games.black_maria.rules import Rules, check_players
from mustamaija.games.black_maria.session import Event, Table
from mustamaija.games.black_maria.state import State
from mustamaija.games.black_maria.view import View
from mustamaija.players.registry import make_bot as _make_bot
from mustamaija.tui.session import BOT_NAMES


def _bm_bot(spec: str, seed: int | None = None) -> Player:
    return _make_bot(spec, seed or 0, game="black-maria")  # type: ignore[no-any-return]

__all__ = ["BM_AUTOSAVE", "BM_LEVELS", "BmConfig", "BmGame", "BotTurn", "LastTrick", "bm_sort", "cards_words"]

BM_AUTOSAVE: Final = "black-maria-autosave.json"
"""Where Ctrl-C saves the hand in progress, unless told otherwise."""

BM_LEVELS: Final = {"easy": "random", "medium": "heuristic", "hard": "pimc:samples=20", "expert": "pimc:samples=60"}
"""The strength levels offered for Black Maria bots, as bot specs."""

PHASES: Final = ("pass", "play", "over")


def bm_sort(mask: int) -> list[int]:
    """Return a hand sorted for people: by suit (♠ ♥ ♣ ♦, black and red alternating), low to high.

    >>> from mustamaija.core.cards import mask_of, parse_cards
    >>> [card_symbol(c) for c in bm_sort(mask_of(parse_cards("2D QS 3C AH 4S")))]
    ['4♠', 'Q♠', 'A♥', '3♣', '2♦']
    """
    rank = {0: 0, 1: 1, 3: 2, 2: 3}
    return sorted(cards_of(mask), key=lambda c: (rank[c // 13], c % 13))


def cards_words(cards: int | Sequence[int]) -> str:
    """Return cards with suit signs (a mask in the people's order), ``-`` for none."""
    order = bm_sort(cards) if isinstance(cards, int) else list(cards)
    return " ".join(card_symbol(c) for c in order) or "-"


def bot_spec(name: str) -> str:
    """Return the bot spec of a level (``easy``…``expert``) or a spec, checked.

    >>> bot_spec("hard"), bot_spec("pimc:samples=8")
    ('pimc:samples=20', 'pimc:samples=8')
    """
    spec = BM_LEVELS.get(name.strip().lower(), name.strip())
    try:
        _bm_bot(spec)
    except MustamaijaError as e:
        raise MustamaijaError(f"{e}; or a level: {', '.join(BM_LEVELS)}") from e
    return spec


@dataclass(frozen=True)
class BmConfig:
    """The settings of a Black Maria game: seats, bots (clockwise from the person's left), rules, seed."""

    players: int = 4
    bots: tuple[str, ...] = ("medium",)
    seed: int = 0
    hands: int | None = None
    target_score: int | None = 50
    renege: bool = False
    human: int = 0

    @property
    def rules(self) -> Rules:
        """Return the rule set (B7, B8)."""
        return Rules(target_score=self.target_score, hands=self.hands, allow_renege=self.renege)

    def validate(self) -> None:
        """Raise :class:`~mustamaija.core.errors.MustamaijaError` naming the first bad setting."""
        check_players(self.players)
        if not 0 <= self.human < self.players:
            raise RulesError(f"bad seat {self.human}: expected a seat from 0 to {self.players - 1}")
        if self.hands is None and self.target_score is None:
            raise RulesError("B8: a game needs an agreed number of hands or a target score")
        self.rules  # noqa: B018 -- builds and so validates the rule set.
        if not 1 <= len(self.bots) <= self.players - 1:
            raise MustamaijaError(f"give 1 to {self.players - 1} bots for the other seats (they are used in turn), "
                                  f"not {len(self.bots)}")
        for b in self.bots:
            bot_spec(b)

    def bot_of(self, seat: int) -> str:
        """Return the bot spec of a seat other than the person's."""
        i = (seat - self.human - 1) % self.players
        return bot_spec(self.bots[i % len(self.bots)])

    def to_json(self) -> dict[str, Any]:
        """Return the settings as a JSON object (kept in saved records)."""
        return {"players": self.players, "bots": list(self.bots), "seed": self.seed, "hands": self.hands,
                "target_score": self.target_score, "renege": self.renege, "human": self.human}


@dataclass(frozen=True)
class LastTrick:
    """A finished trick: who led, the cards in the order played, the winner and its points."""

    number: int
    leader: int
    cards: tuple[int, ...]
    winner: int
    points: int

    def seats(self, players: int) -> list[int]:
        """Return the seat that played each card."""
        return [(self.leader + i) % players for i in range(len(self.cards))]


@dataclass
class BotTurn:
    """A bot's turn to think about, away from the screen: its seat, player and a private copy of the hand."""

    seat: int
    bot: Player
    state: State
    generation: int
    choice: list[int] = field(default_factory=list)

    def run(self) -> BotTurn:
        """Let the bot choose its whole action (a pass is chosen card by card) on the copy; return self."""
        s = self.state
        before = s.nlog
        steps: list[int] = []
        while s.nlog == before and not s.is_over:
            step = self.bot.act(s.view(self.seat))
            steps.append(step)
            s.apply(step)
        self.choice = steps
        return self


class BmGame:
    """A game of Black Maria between one person and bots, hand after hand (B8), with its log."""

    def __init__(self, config: BmConfig, *, save_dir: str | None = None) -> None:
        config.validate()
        self.config = config
        self.n = config.players
        self.human = config.human
        self.save_dir = save_dir
        self.table = Table([None] * self.n, config.rules, config.seed)
        self.bots: list[Player | None] = [
            None if s == self.human else _bm_bot(config.bot_of(s), seed=config.seed * 16 + s) for s in range(self.n)
        ]
        self.names = ["" for _ in range(self.n)]
        self.labels = ["you" if s == self.human else config.bot_of(s).split(":")[0] for s in range(self.n)]
        for i in range(self.n):
            seat = (self.human + i) % self.n
            self.names[seat] = "You" if i == 0 else BOT_NAMES[(i - 1) % len(BOT_NAMES)]
        self.log: list[str] = []
        self.generation = 0
        self.hand_no = 0
        self.trick_no = 0
        self.last: LastTrick | None = None
        self.hand_over = False
        self.saved_to: str | None = None
        self._deal()

    # -- the flow ------------------------------------------------------------------------------------

    @property
    def state(self) -> State:
        """Return the hand in play (the whole truth: for the controller, never for drawing)."""
        s = self.table.state
        assert s is not None
        return s

    def view(self) -> View:
        """Return what the person may see of the hand."""
        return self.state.view(self.human)

    @property
    def phase(self) -> str:
        """Return ``"pass"``, ``"play"`` or ``"over"``."""
        return PHASES[self.state.phase]

    @property
    def human_to_act(self) -> bool:
        """Return whether the person is to act."""
        s = self.state
        return not s.is_over and s.to_act == self.human

    @property
    def bot_to_act(self) -> bool:
        """Return whether a bot is to act."""
        s = self.state
        return not s.is_over and s.to_act != self.human

    @property
    def game_over(self) -> bool:
        """Return whether the game has ended (B8)."""
        return self.table.over

    def _deal(self) -> None:
        state = self.table.deal()
        self.hand_no = self.table.match.played + 1
        self.trick_no = 0
        self.last = None
        self.hand_over = False
        self.generation += 1
        totals = ", ".join(f"{self.names[s]} {t}" for s, t in enumerate(self.table.totals))
        self.log.append(f"Hand {self.hand_no}: {self.names[state.dealer]} deals. Totals: {totals}.")
        self.log.append(f"Everyone passes {state.pass_count} cards to the left (B3).")

    def next_hand(self) -> None:
        """Score nothing more; deal the next hand (the finished one was scored when it ended)."""
        if self.game_over:
            raise RulesError("B8: the game is over")
        if not self.hand_over:
            raise RulesError("the hand is not over yet")
        self._deal()

    def bot_job(self) -> BotTurn:
        """Return the bot's turn to think about (on a private copy)."""
        s = self.state
        bot = self.bots[s.to_act]
        assert bot is not None, "the person is to act"
        return BotTurn(s.to_act, bot, s.copy(), self.generation)

    def apply_bot(self, turn: BotTurn) -> list[Event]:
        """Make the action a bot chose, unless the game moved on meanwhile."""
        if turn.generation != self.generation or self.state.to_act != turn.seat or self.state.is_over:
            return []
        if self.state.phase == 0:
            return self._act(turn.seat, turn.choice)
        return self._act(turn.seat, turn.choice[-1])

    def submit(self, text: str) -> list[Event]:
        """Make the person's typed action (``"2S QH KD"`` to pass, ``"QS"`` to play).

        Raises :class:`~mustamaija.core.errors.CardError` for a card that cannot be
        read and :class:`~mustamaija.core.errors.IllegalActionError` naming the rule
        for one that cannot be played; nothing changes then.
        """
        cards = parse_cards(text)
        return self.act(cards if self.state.phase == 0 else self._one(cards))

    @staticmethod
    def _one(cards: list[int]) -> int:
        if len(cards) != 1:
            raise CardError(f"B4: a play is one card, not {len(cards)} (type one card, such as QS)")
        return cards[0]

    def act(self, choice: int | list[int]) -> list[Event]:
        """Make the person's action: the cards to pass, or the card to play."""
        s = self.state
        if s.is_over:
            raise RulesError("B4: the hand is over: every trick has been played")
        if s.to_act != self.human:
            doing = "pass" if s.phase == 0 else "play"
            raise RulesError(f"wait for your turn: {self.names[s.to_act]} is to {doing}")
        return self._act(self.human, choice)

    def _act(self, seat: int, choice: int | list[int]) -> list[Event]:
        events = self.table.act(seat, choice)
        self._narrate(events)
        if self.state.is_over and not self.hand_over:
            self._end_hand()
        return events

    def _end_hand(self) -> None:
        self.hand_over = True
        finished = self.state
        result = self.table.finish()
        # Table.finish forgets the hand; keep it on the table until the next deal, for the screens.
        self.table.state = finished
        points = ", ".join(f"{self.names[s]} {p}" for s, p in enumerate(result.points))
        totals = ", ".join(f"{self.names[s]} {t}" for s, t in enumerate(self.table.totals))
        self.log.append(f"Hand {self.hand_no} over. Points: {points}. Totals: {totals}.")
        if self.game_over:
            self.log.append("The game is over: " + self.winners_text() + ".")
        if self.save_dir:
            import os

            os.makedirs(self.save_dir, exist_ok=True)
            self.save(os.path.join(self.save_dir, f"black-maria-{self.config.seed}-hand{self.hand_no}.json"))

    def _narrate(self, events: list[Event]) -> None:
        for e in events:
            who = self.names[e.seat] if e.seat >= 0 else ""
            if e.kind == "pass":
                if e.seat == self.human:
                    v = self.view()
                    self.log.append(f"You pass {cards_words(v.passed)} to {self.names[(self.human + 1) % self.n]}.")
                else:
                    self.log.append(f"{who} passes {self.state.pass_count} cards face down.")
            elif e.kind == "exchange":
                v = self.view()
                self.log.append(f"All have passed: you receive {cards_words(v.received)} from "
                                f"{self.names[(self.human - 1) % self.n]}.")
            elif e.kind == "play":
                s = self.state
                first = len(s.trick) == 1 if s.trick else False
                if first:
                    self.trick_no += 1
                verb = "lead" if first else "play"
                verb = verb if e.seat == self.human else verb + "s"
                self.log.append(f"  {who} {verb} {card_symbol(e.card)}" + (f" to trick {self.trick_no}" if first else ""))
            elif e.kind == "trick":
                leader = self.state.actions()[-len(e.cards)].seat
                self.last = LastTrick(self.trick_no, leader, e.cards, e.seat, e.points)
                gain = f", +{e.points} ({cards_words(penalty_cards(e.cards))})" if e.points else ", no points"
                self.log.append(f"{who} {'win' if e.seat == self.human else 'wins'} trick {self.trick_no}{gain}.")

    # -- what the screens show ----------------------------------------------------------------------------

    def penalty_cards(self, seat: int) -> int:
        """Return the penalty cards ``seat`` has taken this hand (public: every trick is seen)."""
        return self.view().won[seat] & PENALTY_MASK

    def status(self) -> str:
        """Return one line saying whose turn it is."""
        s = self.state
        if self.hand_over:
            return "The game is over." if self.game_over else "The hand is over: Enter deals the next one."
        if s.to_act == self.human:
            if s.phase == 0:
                return f"Your pass: choose {s.pass_count} cards for {self.names[(self.human + 1) % self.n]}."
            return "Your lead." if not s.trick else "Your turn to play."
        doing = "passing" if s.phase == 0 else "to play"
        return f"{self.names[s.to_act]} is {doing}…"

    def winners_text(self) -> str:
        """Return who won (the lowest total, B8)."""
        winners = self.table.match.winners()
        if self.human in winners:
            return "you win" + (" (shared)" if len(winners) > 1 else "") + f" with {self.table.totals[self.human]}"
        return " and ".join(self.names[w] for w in winners) + f" win{'s' if len(winners) == 1 else ''} with " \
            f"{self.table.totals[winners[0]]}"

    # -- saving and loading ------------------------------------------------------------------------------------

    def record(self) -> Record:
        """Return the hand in play as a FORMATS.md Black Maria record, with the game's settings and scores."""
        match = {**self.config.to_json(), "hand": self.hand_no,
                 "results": [{"dealer": r.dealer, "points": list(r.points)} for r in self.table.match.results
                             if not (self.hand_over and r is self.table.match.results[-1])]}
        return Record.from_state(self.state, seed=self.config.seed, match=match)

    def save(self, path: str) -> str:
        """Save the hand in play as a record; return the path."""
        self.record().dump(path)
        self.saved_to = path
        return path

    @classmethod
    def load(cls, path: str, *, bots: Sequence[str] | None = None, save_dir: str | None = None) -> BmGame:
        """Resume a saved hand at its last position; a record made here also brings back the game's scores.

        A record from elsewhere is played out as a game of that one hand.
        """
        return cls.from_record(Record.load(path), bots=bots, save_dir=save_dir, source=path)

    @classmethod
    def from_record(cls, record: Record, *, bots: Sequence[str] | None = None, save_dir: str | None = None,
                    source: str = "the record") -> BmGame:
        """Resume the hand of a record at its last position (see :meth:`load`)."""
        path = source
        state = record.replay()
        match = record.extra.get("match")
        if isinstance(match, dict):
            try:
                config = BmConfig(players=int(match["players"]), bots=tuple(bots or match["bots"]),
                                  seed=int(match["seed"]), hands=match.get("hands"),
                                  target_score=match.get("target_score"), renege=bool(match.get("renege")),
                                  human=int(match.get("human", 0)))
                results = [(int(r["dealer"]), [int(p) for p in r["points"]]) for r in match.get("results", [])]
            except (KeyError, TypeError, ValueError) as e:
                raise FormatError(f"{path}: the saved game settings are damaged ({e})") from e
        else:
            hands = record.rules.hands if record.rules.target_score is not None else 1
            config = BmConfig(players=record.players, bots=tuple(bots or ("medium",)), seed=0, hands=hands,
                              target_score=record.rules.target_score, renege=record.rules.allow_renege)
            results = []
        if config.rules != record.rules and isinstance(match, dict):
            raise FormatError(f"{path}: the record's rules do not match the saved game's settings")
        game = cls(config, save_dir=save_dir)
        game._resume(results, state, record.rules if not isinstance(match, dict) else None)
        return game

    def _resume(self, results: list[tuple[int, list[int]]], state: State, rules: Rules | None) -> None:
        """Put the scores of the hands before back, then the hand in play."""
        from mustamaija.games.black_maria.deals import shuffled_deck
        from mustamaija.games.black_maria.match import HandResult

        m = self.table.match
        for dealer, points in results:
            shuffled_deck(self.n, self.table.rng)  # Keep the shuffles of the hands to come as they were.
            m.results.append(HandResult(dealer, tuple(points)))
            for s, p in enumerate(points):
                m.totals[s] += p
        m.dealer = state.dealer
        self.table.state = state
        self.hand_no = m.played + 1
        self.log = [f"Hand {self.hand_no} resumed: {self.names[state.dealer]} dealt."]
        self.trick_no = sum(state.tricks)
        self.generation += 1
        self.hand_over = False
        if state.is_over:
            self._end_hand()

    def to_json(self) -> str:
        """Return the record of the hand in play as JSON text."""
        return json.dumps(self.record().to_json())


def penalty_cards(cards: Sequence[int]) -> int:
    """Return the mask of the penalty cards (B6) among ``cards``."""
    return sum(1 << c for c in cards if penalty_of(1 << c))


PENALTY_MASK: Final = penalty_cards(range(52))


def new_seed() -> int:
    """Return a fresh seed for a game."""
    return random.SystemRandom().randrange(10**6)

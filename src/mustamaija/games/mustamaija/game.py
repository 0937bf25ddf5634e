"""Mustamaija (docs/rules.md, docs/rules.md) as a game of the stack: the object the registry serves.

>>> from mustamaija.core.registry import get_game
>>> game = get_game("mustamaija")
>>> game.title, game.num_steps, game.obs_size, game.max_players, game.result_kind
('Mustamaija', 57, 1056, 8, 'loss')
>>> s = game.deal(3, seed=5)
>>> game.record_of(s).to_json()["format"]
'mustamaija-record/1'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from mustamaija.core.bench import BenchSection
from mustamaija.core.cards import mask_of
from mustamaija.core.game import GameBase
from mustamaija.core.protocol import SearchKit
from mustamaija.core.registry import register_game
from mustamaija.games.mustamaija.actions import Action, Beat, step_name
from mustamaija.games.mustamaija.position import PositionFormats
from mustamaija.games.mustamaija.record import Record, state_to_json
from mustamaija.games.mustamaija.rules import PRESETS, Rules
from mustamaija.games.mustamaija.sampling import sample_state
from mustamaija.games.mustamaija.state import DEFEND, State
from mustamaija.games.mustamaija.view import View

__all__ = ["GAME", "MAX_SEATS", "MustamaijaGame"]

MAX_SEATS: Final = 8
"""The most seats any rule set allows (V1: 8 with hand size 3 or 6)."""

OBS_SIZE: Final = 1056
"""The observation length of :mod:`~mustamaija.games.mustamaija.observation` (checked there)."""


LEVELS: Final = {"easy": "random", "medium": "heuristic", "hard": "pimc:iters=250:time=2", "expert": "pimc:iters=1500:time=4"}
"""The bot of each strength level: the search's playouts grow with the level.

A level is a number of playouts, not of seconds, so that it means the same
strength on any machine and under any load (on the development machine, at
most about 0.25 s and 1 s of CPU time a decision, and a median of 0.15 s and
0.5 s). The ``time`` is a wall-clock safety cap only: on a machine so
busy that the playouts would take longer, a web table still moves.
"""


class MustamaijaGame(
    GameBase, name="mustamaija", title="Mustamaija", players=(2, MAX_SEATS), presets=tuple(PRESETS), result_kind="loss",
    levels=LEVELS, obs_size=OBS_SIZE, record=Record, sampler=sample_state, summary=state_to_json, step_name=step_name,
):
    """Mustamaija, the Finnish beating game, as a :class:`~mustamaija.core.protocol.Game`."""

    def make_rules(self, preset: str | None = None, overrides: Mapping[str, Any] | None = None) -> Rules:
        """Return the preset's rules (``standard`` by default) with ``overrides`` (rule keys of docs/formats.md) applied."""
        base = Rules.preset(preset or "standard")
        return base.replace(**overrides) if overrides else base

    def check_players(self, rules: Rules, players: int) -> None:
        """Raise :class:`~mustamaija.core.errors.RulesError` unless the player count fits (V1)."""
        rules.check_players(players)

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

    def card_places(self, state: State) -> dict[str, int]:
        """Return where every card is: each hand, the talon, the led cards on the table and the discard (M14)."""
        places = {f"hand {seat}": hand for seat, hand in enumerate(state.hands)}
        places.update(talon=mask_of(state.talon_cards), table=state.led if state.phase == DEFEND else 0, discard=state.discard)
        return places

    def max_steps(self, players: int, rules: Rules) -> int:
        """Return a bound on the steps of a deal: a turn takes at most 14 lead and 14 defence steps, plus declarations."""
        return rules.max_turns * 28 + 8

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

    def decided_action(self, state: State) -> Action | None:
        """Return the pick-up of a defender who is the last to hold cards: the deal is lost whatever it does (M18, M19).

        The attacker who led its last cards is out at once, but the defence still happens (M18); with nobody
        else holding cards, the defender is left holding Maija however it defends (M19), so taking
        everything costs it nothing.

        >>> from mustamaija.core.cards import mask_of, parse_cards
        >>> from mustamaija.games.mustamaija.actions import Lead
        >>> s = State.from_position([["9H"], ["JH", "QS"]], attacker=0, trump_suit=3)
        >>> game = MustamaijaGame()
        >>> game.decided_action(s) is None
        True
        >>> s.play(Lead(0, mask_of(parse_cards("9H"))))
        >>> game.decided_action(s)
        Beat(seat=1, pairs=())
        """
        if state.phase != DEFEND or state.in_progress:
            return None
        if any(h for seat, h in enumerate(state.hands) if seat != state.defender):
            return None
        return Beat(state.defender, ())

    def narrate(self, record: Record) -> list[str]:
        """Return the deal told turn by turn (:mod:`~mustamaija.games.mustamaija.narrate`)."""
        from mustamaija.games.mustamaija.narrate import narrate

        return list(narrate(record))

    def positions(self) -> PositionFormats:
        """Return Mustamaija's positions (/1 and /2, the one-line text form; docs/formats.md)."""
        return PositionFormats()

    def search_kit(self) -> SearchKit:
        """Return this game's knowledge for the generic searches (:mod:`~mustamaija.games.mustamaija.players.kit`)."""
        from mustamaija.games.mustamaija.players.kit import MustamaijaKit

        return MustamaijaKit(self)

    def bench_sections(self) -> Sequence[BenchSection]:
        """Return the bots, search and solver measures of :mod:`~mustamaija.games.mustamaija.bench`."""
        from mustamaija.games.mustamaija.bench import SECTIONS

        return SECTIONS

    def action_steps(self, state: State, action: Action) -> list[int]:
        """Return the steps of a compound action, walked on a copy of ``state`` so that each is checked.

        A lead is its cards in rising order, then ``stop`` unless the lead
        completes itself (the lead limit, or no higher card of the suit left
        in hand). A defence answers the led cards in the order the engine asks
        about them (:func:`~mustamaija.games.mustamaija.legality.current_led`):
        the card that beats the one asked about, or ``stop`` to leave it. A
        declaration is its one step.

        >>> from mustamaija.core.cards import mask_of, parse_card, parse_cards
        >>> from mustamaija.games.mustamaija.actions import Beat, Lead
        >>> s = State.from_position(["4H 9H 2S", "5H JH QS", "2C"], attacker=0, trump_suit=3)
        >>> [step_name(x) for x in GAME.action_steps(s, Lead(0, mask_of(parse_cards("4H 9H"))))]
        ['4H', '9H']
        >>> [step_name(x) for x in GAME.action_steps(s, Lead(0, mask_of(parse_cards("4H"))))]
        ['4H', 'stop']
        >>> s.play(Lead(0, mask_of(parse_cards("4H 9H"))))
        >>> [step_name(x) for x in GAME.action_steps(s, Beat.of(1, {parse_card("9H"): parse_card("JH")}))]
        ['stop', 'JH']
        """
        from mustamaija.core.cards import cards_of
        from mustamaija.core.errors import IllegalActionError
        from mustamaija.games.mustamaija.actions import DECLARE, STOP, Beat, Declare, Lead
        from mustamaija.games.mustamaija.legality import current_led

        state.verify(action)
        if isinstance(action, Declare):
            return [DECLARE + action.suit]
        s = state.copy()
        done = len(s.actions())
        steps: list[int] = []
        if isinstance(action, Lead):
            steps = cards_of(action.cards)
            for card in steps:
                s.apply(card)
            if len(s.actions()) == done:  # The lead waits for its end.
                steps.append(STOP)
                s.apply(STOP)
        elif isinstance(action, Beat):
            beaters = dict(action.pairs)
            while len(s.actions()) == done:
                led = current_led(s.rem, s.hands[s.defender] & ~s.used, s.trump)
                steps.append(beaters.get(led, STOP))
                s.apply(steps[-1])
        if s.actions()[done:] != [action]:
            raise IllegalActionError("steps", f"the steps {[step_name(x) for x in steps]} do not make {action}")
        return steps


GAME: Final = register_game(MustamaijaGame())

"""The UI-free Black Maria table, and the Black Maria controller of the terminal table, driven by scripted input."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from mustamaija.core.cards import card_name, card_symbol, cards_of
from mustamaija.core.errors import CardError, IllegalActionError
from mustamaija.games.black_maria import Rules
from mustamaija.games.black_maria.actions import Pass, Play
from mustamaija.games.black_maria.players import HeuristicPlayer
from mustamaija.games.black_maria.session import events_of, series_deck
from mustamaija.games.black_maria.state import State
from mustamaija.games.black_maria.tui.controller import cards_words
from mustamaija.players.random import RandomPlayer
from mustamaija.tui.session import GameSession, MatchConfig, bot_actions


def test_events_tell_a_whole_hand() -> None:
    deck, dealer = series_deck(3, 0, 4)
    s = State.deal(4, deck, dealer=dealer)
    bots = [HeuristicPlayer(), RandomPlayer(seed=1), HeuristicPlayer(), RandomPlayer(seed=2)]
    events = []
    while not s.is_over:
        done = s.nlog
        s.apply(bots[s.to_act].act(s.view(s.to_act)))
        if s.nlog > done:
            events += events_of(s)
    kinds = [e.kind for e in events]
    assert kinds[:5] == ["pass", "pass", "pass", "pass", "exchange"]
    assert kinds.count("play") == 52 and kinds.count("trick") == 13 and kinds[-1] == "hand"
    tricks = [e for e in events if e.kind == "trick"]
    assert sum(e.points for e in tricks) == events[-1].points == 43
    assert all(len(e.cards) == 4 and e.seat in range(4) for e in tricks)


def test_series_deck_deals_a_seeded_series() -> None:
    first, dealer = series_deck(12, 0, 5)
    assert len(first) == 50 and 0 <= dealer < 5
    assert [series_deck(12, h, 5)[1] for h in range(3)] == [dealer] * 3
    assert len({series_deck(12, h, 5)[0] for h in range(3)}) == 3


def run_bots(s: GameSession) -> None:
    while s.bot_to_act:
        job = s.bot_job()
        s.apply_bots(job, bot_actions(job, chain=False))


def test_the_pass_hides_what_you_receive_until_everyone_has_passed() -> None:
    s = GameSession(MatchConfig("black-maria", players=5, bots=("heuristic",), seed=11, rules=Rules(hands=1)))
    order = [(s.state.dealer + 1 + i) % 5 for i in range(5)]
    assert order.index(s.human) < 4, "the person should not pass last in this deal"
    run_bots(s)
    with pytest.raises(IllegalActionError, match="B3"):
        s.submit("2S")
    hint = s.hint(0)
    assert isinstance(hint.action, Pass) and hint.source == "search"  # The passes are searched, as the pimc bot does.
    s.act(hint.action)
    assert s.log[-1].startswith("You pass ") and not s.view().received
    assert all("receive" not in line for line in s.log)
    run_bots(s)
    assert s.state.phase_name == "play"
    received = s.view().received
    assert any(f"you receive {cards_words(received)} from " in line for line in s.log)
    choice = s.controller.choice()
    choice.sync(s.state, s.human)
    assert set(choice.marks(s.state, s.human)) == set(cards_of(received))


def test_play_hints_and_typed_cards() -> None:
    s = GameSession(MatchConfig("black-maria", players=4, bots=("heuristic",), seed=5, rules=Rules(hands=1)))
    while s.state.phase_name == "pass" or not s.human_to_act:
        run_bots(s)
        if s.human_to_act and s.state.phase_name == "pass":
            s.act(s.hint(0).action)
    with pytest.raises(CardError, match="B4: a play is one card, not 2"):
        s.submit("2C 3C")
    hint = s.hint(0)
    assert isinstance(hint.action, Play) and hint.source == "search" and s.state.can_play(hint.action)
    assert hint.header == ("move", "points", "playouts") and hint.rows[0][0] == f"play {card_symbol(hint.action.card)}"
    s.submit(card_name(hint.action.card).lower())
    assert s.state.last_action() == hint.action


def test_a_resumed_game_plays_the_same_hands() -> None:
    # Saving mid-game and loading brings back the totals and the shuffles of the hands to come.
    def play(s: GameSession, stop: Callable[[GameSession], bool] | None = None) -> None:
        me = HeuristicPlayer()
        while not s.match_over:
            if stop is not None and stop(s):
                return
            if s.result is not None:
                s.next_deal()
            elif s.bot_to_act:
                run_bots(s)
            else:
                steps = s.state.copy()
                done = len(steps.actions())
                while len(steps.actions()) == done:
                    steps.apply(me.act(steps.view(s.human)))
                s.act(steps.last_action())

    rules = Rules(hands=3, target_score=None)
    whole = GameSession(MatchConfig("black-maria", players=4, bots=("heuristic",), seed=21, rules=rules))
    play(whole)
    part = GameSession(MatchConfig("black-maria", players=4, bots=("heuristic",), seed=21, rules=rules))
    play(part, lambda s: s.deal_no == 1 and len(s.state.actions()) > 10 and s.human_to_act)
    resumed = GameSession.from_record(part.record(), "black-maria")
    assert resumed.state == part.state and resumed.totals == part.totals
    play(resumed)
    assert resumed.totals == whole.totals
    assert [r.scores for r in resumed.results] == [r.scores for r in whole.results]
    assert resumed.summary().startswith("Game over after 3 hand(s): ") and "Points: " in resumed.summary()

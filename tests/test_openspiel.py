"""The OpenSpiel games: OpenSpiel's random simulation test for every preset and player count, parameters, views, ISMCTS, pickling."""

from __future__ import annotations

import pickle
import subprocess
import sys

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

from mustamaija import PRESETS, Rules, State
from mustamaija.core.errors import RulesError
from mustamaija.core.registry import games, get_game
from mustamaija.games.mustamaija.observation import OBS_SIZE
from mustamaija.openspiel import resampler
from mustamaija.openspiel.game import OpenSpielState, class_name
from mustamaija.openspiel.versus import TimedISMCTSBot, play_versus

TABLES = [(preset, n) for preset, rules in PRESETS.items() for n in range(2, rules.max_players + 1)]


def _dealt(game: pyspiel.Game, seed: int) -> OpenSpielState:
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    while state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(int(rng.choice(outcomes, p=probs)))
    return state


@pytest.mark.parametrize(("preset", "players"), TABLES, ids=[f"{p}-{n}p" for p, n in TABLES])
def test_random_sim_test_passes(preset: str, players: int) -> None:
    game = pyspiel.load_game("mustamaija", {"players": players, "preset": preset})
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_game_info_comes_from_the_player_count_and_rules() -> None:
    game = pyspiel.load_game("mustamaija(players=5,preset=wikipedia,max_lead=3,max_turns=200)")
    assert (game.num_players(), game.num_distinct_actions(), game.max_chance_outcomes()) == (5, 57, 52)
    assert (game.min_utility(), game.max_utility()) == (-1.0, 0.0)
    assert game.max_game_length() == 1 + 52 + 200 * 28 + 8
    assert game.rules == Rules.preset("wikipedia").replace(max_lead=3, max_turns=200)
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert game.information_state_tensor_shape() == game.observation_tensor_shape() == [OBS_SIZE]
    # An unset rule keeps the preset's; 0 sets an optional limit to none.
    assert pyspiel.load_game("mustamaija(preset=french,max_lead=0)").rules.max_lead is None
    assert pyspiel.load_game("mustamaija(preset=salmi)").rules.hand_size == 6
    with pytest.raises(RulesError, match="V1: 7 players"):
        pyspiel.load_game("mustamaija(players=7)")


def test_the_deal_is_chance_then_the_engine_deals_that_deck() -> None:
    game = pyspiel.load_game("mustamaija(players=3)")
    state = game.new_initial_state()
    assert [p for _, p in state.chance_outcomes()] == pytest.approx([1 / 3] * 3)
    state.apply_action(2)
    assert len(state.chance_outcomes()) == 52
    deck = list(range(51, -1, -1))
    for card in deck:
        state.apply_action(card)
    assert not state.is_chance_node()
    assert state.engine.state == State.deal(3, deck, Rules(), 2)
    assert state.current_player() == 0  # the seat after the dealer leads (M9)
    assert state.legal_actions() == state.engine.state.legal_actions()


def test_strings_and_tensors_come_from_the_views() -> None:
    game = pyspiel.load_game("mustamaija(players=4)")
    state = _dealt(game, 3)
    rng = np.random.RandomState(0)
    for _ in range(40):
        state.apply_action(int(rng.choice(state.legal_actions())))
    engine = state.engine.state
    for p in range(4):
        view = engine.view(p)
        text = view.render() + get_game("mustamaija").step_text(view)
        assert state.observation_string(p) == text
        assert state.information_state_string(p).startswith(text + "\nhistory: seat ")
        expected = np.zeros(OBS_SIZE, np.float32)
        get_game("mustamaija").encode(view, expected)
        assert np.array_equal(np.array(state.observation_tensor(p), np.float32), expected)
        assert np.array_equal(np.array(state.information_state_tensor(p), np.float32), expected)
    assert state.information_state_string(0) != state.information_state_string(1)


def test_an_information_state_string_fixes_the_legal_steps() -> None:
    # Search trees are keyed on these strings: one string must never stand for two sets of legal steps,
    # e.g. a defence before and after leaving a led card unbeaten.
    for players, preset in ((2, "standard"), (4, "wikipedia"), (3, "salmi")):
        game = pyspiel.load_game("mustamaija", {"players": players, "preset": preset})
        legal: dict[str, list[int]] = {}
        for seed in range(3):
            state = _dealt(game, seed)
            rng = np.random.RandomState(seed)
            while not state.is_terminal():
                key = state.information_state_string()
                assert legal.setdefault(key, state.legal_actions()) == state.legal_actions()
                state.apply_action(int(rng.choice(state.legal_actions())))


def test_the_resampler_keeps_the_information_state_and_changes_hidden_cards() -> None:
    game = pyspiel.load_game("mustamaija(players=3)")
    state = _dealt(game, 8)
    player = state.current_player()
    sample = resampler(np.random.RandomState(1))
    hands = set()
    for _ in range(5):
        other = sample(state, player)
        assert other.information_state_string(player) == state.information_state_string(player)
        assert other.legal_actions() == state.legal_actions()
        hands.add(tuple(other.engine.state.hands))
    assert len(hands) > 1
    via_sampler = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert via_sampler.observation_string(player) == state.observation_string(player)
    # Clones are independent: playing on one leaves the other alone.
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert clone.history() != state.history() and state.engine.state != clone.engine.state


def test_openspiel_ismcts_plays_a_whole_deal_with_our_resampler() -> None:
    game = pyspiel.load_game("mustamaija(players=2,preset=kurki-suonio)")
    rs = np.random.RandomState(4)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), 2.0, max_simulations=3, random_state=rs)
    bot.set_resampler(resampler(rs))
    state = _dealt(game, 4)
    while not state.is_terminal():
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
    assert sorted(state.returns()) == [-1.0, 0.0]


def test_versus_plays_duplicate_deals_at_equal_time() -> None:
    result = play_versus(deals=1, seconds=0.003, players=2, seed=1)
    assert result["games"] == 2
    assert sum(result["losses"].values()) + result["stopped"] == 2
    assert result["openspiel_simulations_per_search"] >= 2
    game = pyspiel.load_game("mustamaija(players=2)")
    timed = TimedISMCTSBot(game, 0.002, seed=0)
    state = _dealt(game, 0)
    assert timed.step(state) in state.legal_actions()
    assert timed.simulations >= 2 or len(state.legal_actions()) == 1


@pytest.mark.parametrize("name", [game.env_name for game in games()])
def test_every_game_pickles_in_this_process_and_a_fresh_one(name: str) -> None:
    game = pyspiel.load_game(name, {"players": 4})
    copy = pickle.loads(pickle.dumps(game))
    assert type(copy) is type(game) and type(game).__name__ == class_name(game.spec)
    assert str(copy) == str(game) and copy.rules == game.rules and copy.num_players() == 4
    pyspiel.random_sim_test(copy, num_sims=1, serialize=True, verbose=False)
    state = _dealt(copy, 2)
    state.apply_action(state.legal_actions()[0])
    again = pickle.loads(pickle.dumps(state))
    assert again.history() == state.history() and again.engine.state == state.engine.state
    assert again.information_state_string(1) == state.information_state_string(1)
    # A fresh interpreter finds the class by importing its module, which registers the games again.
    code = "import pickle, sys; g = pickle.loads(sys.stdin.buffer.read()); print(g.num_players(), g.new_initial_state().is_chance_node())"
    r = subprocess.run([sys.executable, "-c", code], input=pickle.dumps(game), capture_output=True, timeout=120)
    assert r.returncode == 0, r.stderr.decode()
    assert r.stdout.decode().split() == ["4", "True"]

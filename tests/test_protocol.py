"""The protocol suite: the same tests for every registered game, as pgx's ``api_test`` does.

Each test takes a game from the registry and uses only the game protocol
(``core/protocol.py``), so a new game passes or fails it without a line of
test code of its own. What it checks:

* random play to the end over thousands of seeded deals, with invariants:
  every card dealt is in exactly one place at every step, the deal ends
  within the game's step bound, and an ended deal has a result;
* the legal-step masks are exact: every legal step applies, every other step
  is refused with an ``IllegalActionError`` and changes nothing, and the
  acting seat's view lists the same legal steps as the state;
* no view reveals another seat's hidden cards: a view is the same in every
  world the seat cannot tell apart from the true one;
* sampled worlds agree with the view they were sampled from;
* step play and compound play agree, and whole actions turn back into the
  same steps;
* records round-trip through their text and replay to the same state.
"""

from __future__ import annotations

import json
import random
import re
import zlib
from collections.abc import Iterator
from typing import Any

import pytest

from mustamaija.core.protocol import Game, GameState, GameView
from mustamaija.core.registry import game_for_record, game_names, get_game
from support import refusal, scaled

GAMES = game_names()

DEALS = scaled(2000, least=100)
"""Random deals per game for the invariants (each at every player count in turn)."""
DETAILED = scaled(60, least=10)
"""Deals per game for the costlier checks (every step tried, worlds sampled at every decision)."""


def _player_counts(game: Game) -> list[int]:
    counts = []
    for n in range(game.min_players, game.max_players + 1):
        try:
            game.check_players(game.make_rules(), n)
        except ValueError:
            continue
        counts.append(n)
    return counts


def _deals(game: Game, count: int, salt: str) -> Iterator[tuple[int, Any]]:
    """Yield (seed, fresh state) pairs over every player count and every preset in turn."""
    counts = _player_counts(game)
    presets = list(game.presets)
    for i in range(count):
        rules = game.make_rules(presets[i % len(presets)])
        n = counts[i % len(counts)]
        try:
            game.check_players(rules, n)
        except ValueError:
            rules = game.make_rules()
        seed = zlib.crc32(f"{salt}:{i}".encode())
        yield seed, game.deal(n, seed, rules)


def _play_randomly(state: Any, rng: random.Random) -> Iterator[Any]:
    """Play ``state`` out in place with uniformly random legal steps, yielding it before every step."""
    while not state.is_over:
        yield state
        legal = state.legal_actions()
        assert legal, "a deal that is not over must offer a legal step"
        state.apply(rng.choice(legal))


def _check_cards(game: Game, state: Any) -> None:
    places = game.card_places(state)
    seen = 0
    for place, cards in places.items():
        assert not seen & cards, f"a card is in {place} and somewhere else too"
        seen |= cards
    assert seen == game.deck(state.players), "every card dealt is somewhere, once"


@pytest.mark.parametrize("name", GAMES)
def test_the_game_object_satisfies_the_protocol(name: str) -> None:
    game = get_game(name)
    assert isinstance(game, Game)
    assert get_game(game.name) is game and get_game(game.env_name) is game
    assert game.min_players <= game.max_players and game.num_steps > 0 and game.presets
    assert set(game.levels) == {"easy", "medium", "hard", "expert"}
    state = game.deal(game.min_players + 1 if game.min_players < game.max_players else game.min_players, 1)
    assert isinstance(state, GameState) and isinstance(state.view(0), GameView)
    assert game.rules_from_json(game.make_rules().to_json()) == game.make_rules()
    assert game.scores(state) is None and game.returns(state) == [0.0] * state.players


@pytest.mark.parametrize("name", GAMES)
def test_random_play_keeps_every_invariant(name: str) -> None:
    game = get_game(name)
    finished = 0
    for seed, state in _deals(game, DEALS, "invariants"):
        bound = game.max_steps(state.players, state.rules)
        for steps, s in enumerate(_play_randomly(state, random.Random(seed)), start=1):
            _check_cards(game, s)
            assert 0 <= s.to_act < s.players
            assert steps <= bound, f"deal {seed} took more than the game's bound of {bound} steps"
        _check_cards(game, state)
        assert state.to_act == -1 and state.legal_mask() == 0
        scores = game.scores(state)
        if game.truncated(state):
            assert scores is None
            continue
        finished += 1
        assert scores is not None and len(scores) == state.players
        low, high = game.utility_range(state.players, state.rules)
        assert all(low <= r <= high for r in game.returns(state))
        if game.result_kind == "loss":
            assert sorted(scores) == [0.0] * (state.players - 1) + [1.0], "one seat loses"
        else:
            assert all(p >= 0 for p in scores)
        assert game.outcome_text(state)
    assert finished > DEALS * 0.95


@pytest.mark.parametrize("name", GAMES)
def test_legal_masks_are_exact(name: str) -> None:
    game = get_game(name)
    for seed, state in _deals(game, DETAILED, "masks"):
        for s in _play_randomly(state, random.Random(seed)):
            mask = s.legal_mask()
            assert mask == s.view(s.to_act).legal_mask(), "the actor's view offers the state's legal steps"
            assert s.view((s.to_act + 1) % s.players).legal_mask() == 0, "only the actor has legal steps"
            before = s.copy()
            for step in range(game.num_steps):
                assert s.can_step(step) == bool(mask >> step & 1)
                if mask >> step & 1:
                    t = s.copy()
                    t.apply(step)
                    assert t != s
                else:
                    assert refusal(s.verify_step, step), f"verify_step({step}) accepts an illegal step"
                    t = s.copy()
                    assert refusal(t.apply, step), f"apply({step}) takes an illegal step"
                    assert t == before, "a refused step changes nothing"
            assert s == before
            for bad in (-1, game.num_steps, True, "1"):
                assert not s.can_step(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", GAMES)
def test_views_are_the_same_in_every_world_the_seat_cannot_tell_apart(name: str) -> None:
    game = get_game(name)
    worlds_differ = 0
    for seed, state in _deals(game, DETAILED, "views"):
        rng = random.Random(seed)
        for step_no, s in enumerate(_play_randomly(state, random.Random(seed))):
            if step_no % 7:
                continue
            for seat in range(s.players):
                view = s.view(seat)
                world = game.sample(view, rng)
                # The sampled world agrees with everything the seat knows, so the seat sees exactly the same
                # there; when the world deals the hidden cards differently and the view is still equal, the
                # view held nothing of those hidden cards.
                assert world.view(seat) == view
                assert world.to_act == s.to_act and (seat != s.to_act or world.legal_mask() == s.legal_mask())
                assert world.hands[seat] == s.hands[seat] == view.hand
                _check_cards(game, world)
                worlds_differ += world.hands != s.hands
            spectator = s.view(None)
            assert spectator.hand == 0 and spectator.legal_mask() == 0
    assert worlds_differ > DETAILED, "the sampler must move hidden cards, or this test proves nothing"


@pytest.mark.parametrize("name", GAMES)
def test_steps_and_compound_actions_agree(name: str) -> None:
    game = get_game(name)
    for seed, state in _deals(game, DETAILED, "compound"):
        start = state.copy()
        for _ in _play_randomly(state, random.Random(seed)):
            pass
        actions = state.actions()
        by_actions = start.copy()
        by_steps = start.copy()
        for action in actions:
            assert by_actions.can_play(action)
            by_actions.play(action)
            steps = game.action_steps(by_steps, action)
            for step in steps:
                by_steps.apply(step)
            assert by_steps.last_action() == action
            assert not by_actions.can_play(action), "an action cannot be taken twice"
        assert by_actions == state == by_steps


@pytest.mark.parametrize("name", GAMES)
def test_records_round_trip(name: str) -> None:
    game = get_game(name)
    for seed, state in _deals(game, DETAILED, "records"):
        positions = [s.copy() for step_no, s in enumerate(_play_randomly(state, random.Random(seed))) if step_no == 5]
        for s in [state, *positions]:
            record = game.record_of(s, comment="kept")
            text = record.dumps()
            obj = json.loads(text)
            assert obj["format"] == game.record_format and game.is_record(obj)
            assert game_for_record(obj) is game
            again = game.load_record(text)
            assert again == record and again.extra == {"comment": "kept"}
            assert json.loads(again.dumps()) == obj
            replayed = again.replay()
            assert replayed.actions() == s.actions() and replayed.hands == s.hands
            assert game.state_to_json(replayed) == game.state_to_json(s)
            assert game.narrate(again)
            # Issue 16, bug 7: an account names the seats as the record's players were named.
            names = [f"Player {chr(65 + i)}" for i in range(s.players)]
            told = "\n".join(game.narrate(game.record_of(s, names=names)))
            assert not re.search(r"\bseat \d+(?!\))", told.replace("dealer seat", "")), told
            assert all(f"{n} (seat {i})" in told for i, n in enumerate(names))
            for action in s.actions():
                assert game.action_from_json(action.to_json(), s.players) == action

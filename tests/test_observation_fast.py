"""The observation without a view: ``game.observation_for(state, seat)`` is ``game.encode(view_of(state, seat))``.

The research adapters ask for an observation at every step, so each game
computes it from the state and the seat's knowledge (its view module's
``knowledge``, the helper ``view_of`` is built from) without building the
view. These tests hold that shortcut to the view, bit for bit, over random
play of every game, preset and player count; hold both to an independent
numpy encoder of the documented layout (docs/research.md); check that it
leaks nothing of the hidden cards (worlds resampled from the seat's view give
the same observation); and check the generic default of ``GameBase``.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from mustamaija.core.game import GameBase
from mustamaija.core.registry import games, get_game
from mustamaija.envs.aec import env as make_env
from mustamaija.games.black_maria import observation as bm_observation
from mustamaija.games.black_maria.view import knowledge as bm_knowledge
from mustamaija.games.mustamaija import observation as mm_observation
from mustamaija.games.mustamaija.game import MustamaijaGame
from mustamaija.games.mustamaija.view import knowledge as mm_knowledge

# -- an independent encoder of each documented layout (numpy, from the view's fields) ----------------------------


def _bits(masks: list[int]) -> npt.NDArray[np.uint64]:
    return (np.array(masks, dtype=np.uint64)[:, None] >> np.arange(52, dtype=np.uint64)) & np.uint64(1)


def _mustamaija_reference(view: Any) -> npt.NDArray[np.float32]:
    out = np.zeros(mm_observation.OBS_SIZE, np.float32)
    at = mm_observation.offset
    n = view.players
    me = view.seat if view.seat is not None else 0
    beaten = 0
    for led, _ in view.pairs:
        beaten |= 1 << led
    talon_known = 0
    for _, card in view.talon_known:
        talon_known |= 1 << card
    known = [view.known[(me + r) % n] if r < n else 0 for r in range(mm_observation.MAX_SEATS)]
    trump_card = 1 << view.trump_card if view.trump_card >= 0 else 0
    masks = [view.hand, view.sel, view.led, view.rem, beaten, view.used, view.discard, view.unseen, talon_known,
             trump_card, view.revealed, *known]
    out[:52 * len(mm_observation.PLANES)] = _bits(masks).reshape(-1)
    for s in range(n):
        r = (s - me) % n
        out[at("hand_sizes") + r] = view.hand_sizes[s] / 52
        out[at("seated") + r] = 1.0
    for s in view.out:
        out[at("out") + (s - me) % n] = 1.0
    out[at("phase") + view.phase] = 1.0
    out[at("trump") + (view.trump if view.trump >= 0 else 4)] = 1.0
    out[at("declarer") + ((view.declarer - me) % n if 0 <= view.declarer < n else mm_observation.MAX_SEATS)] = 1.0
    out[at("attacker") + (view.attacker - me) % n] = 1.0
    out[at("defender") + (view.defender - me) % n] = 1.0
    if view.to_act >= 0:
        out[at("to_act") + (view.to_act - me) % n] = 1.0
    out[at("talon_size")] = view.talon_size / 52
    out[at("limit")] = min(view.limit, 52) / 52
    out[at("turns")] = min(view.turns / view.rules.max_turns, 1.0)
    return out


def _black_maria_reference(view: Any) -> npt.NDArray[np.float32]:
    out = np.zeros(bm_observation.OBS_SIZE, np.float32)
    at = bm_observation.offset
    seats = bm_observation.MAX_SEATS
    n = view.players
    me = view.seat if view.seat is not None else 0
    seat_of = [(me + r) % n for r in range(n)]
    trick = [0] * seats
    for s, card in zip(view.trick_seats, view.trick, strict=True):
        trick[(s - me) % n] = 1 << card
    masks = [view.hand, view.passed, view.received, view.sel, view.played, view.unseen,
             *(view.known[seat_of[r]] if r < n else 0 for r in range(seats)),
             *(view.won[seat_of[r]] if r < n else 0 for r in range(seats)), *trick]
    out[:52 * len(bm_observation.PLANES)] = _bits(masks).reshape(-1)
    for r, s in enumerate(seat_of):
        out[at("seated") + r] = 1.0
        out[at("hand_sizes") + r] = view.hand_sizes[s] / 17
        out[at("tricks") + r] = view.tricks[s] / 17
        out[at("reneges") + r] = min(view.reneges[s] / 17, 1.0)
        for suit in range(4):
            if view.voids[s] >> suit & 1:
                out[at("voids") + 4 * r + suit] = 1.0
    out[at("phase") + view.phase] = 1.0
    if view.to_act >= 0:
        out[at("to_act") + (view.to_act - me) % n] = 1.0
    if view.leader >= 0:
        out[at("leader") + (view.leader - me) % n] = 1.0
    out[at("dealer") + (view.dealer - me) % n] = 1.0
    out[at("led") + (view.led if view.led >= 0 else 4)] = 1.0
    out[at("broken")] = float(view.broken)
    out[at("passes_made")] = view.npassed / n
    return out


REFERENCES = {"mustamaija": _mustamaija_reference, "black-maria": _black_maria_reference}


# -- random play ----------------------------------------------------------------------------------------------------


def _tables(name: str) -> list[tuple[str, int, dict[str, Any]]]:
    """Every preset at 2 to 5 seats (3 to 5 for Black Maria, in both B7 modes), as (preset, players, overrides)."""
    game = get_game(name)
    tables = []
    for preset in game.presets:
        rules = game.make_rules(preset)
        for players in range(max(game.min_players, 2), min(game.max_players, 5) + 1):
            try:
                game.check_players(rules, players)
            except ValueError:
                continue
            tables.append((preset, players, {}))
            if name == "black-maria":
                tables.append((preset, players, {"allow_renege": not rules.allow_renege}))
    return tables


def _positions(name: str, deals_per_table: int, seed: int) -> Iterator[Any]:
    """Yield every position of seeded random play (the last one over), over every table of ``_tables``."""
    game = get_game(name)
    rng = random.Random(seed)
    for preset, players, overrides in _tables(name):
        rules = game.make_rules(preset, overrides)
        for _ in range(deals_per_table):
            state = game.deal(players, rng.randrange(1 << 30), rules)
            while True:
                yield state
                if state.is_over:
                    break
                state = state.copy()
                state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("name", ["mustamaija", "black-maria"])
def test_the_fast_observation_is_the_encoded_view_bit_for_bit(name: str) -> None:
    game = get_game(name)
    reference = REFERENCES[name]
    checked = 0
    for state in _positions(name, deals_per_table=2 if name == "mustamaija" else 6, seed=11):
        for seat in (*range(state.n), None):
            view = state.view(seat)
            want = np.zeros(game.obs_size, np.float32)
            game.encode(view, want)
            got = game.observation_for(state, seat)
            # Bytes, not values: -0.0 and 0.0 are equal values, and a network could tell them apart.
            assert got.tobytes() == want.tobytes(), (state, seat)
            assert want.tobytes() == reference(view).tobytes(), (state, seat)
            checked += 1
    assert checked > 10_000


@pytest.mark.parametrize("name", ["mustamaija", "black-maria"])
def test_the_fast_observation_leaks_nothing_hidden(name: str) -> None:
    # Worlds drawn from a seat's view differ in the hidden cards only: the seat's observation stays the same.
    game = get_game(name)
    rng = random.Random(5)
    changed = 0
    for i, state in enumerate(_positions(name, deals_per_table=1, seed=12)):
        if i % 9:
            continue
        for seat in range(state.n):
            obs = game.observation_for(state, seat)
            for _ in range(2):
                world = game.sample(state.view(seat), rng)
                assert game.observation_for(world, seat).tobytes() == obs.tobytes()
                changed += world.hands != state.hands
    assert changed > 100  # The worlds did hide other cards.


def test_the_knowledge_of_the_talon_is_where_the_talon_is() -> None:
    # knowledge() finds the talon's known cards as what is in no hand, on no table and not discarded: it agrees
    # with a scan of the talon itself, and view_of keeps their depths.
    for state in _positions("mustamaija", deals_per_table=1, seed=13):
        talon = state.talon[state.tpos:]
        scanned = 0
        for card in talon:
            if state.tknown >> card & 1:
                scanned |= 1 << card
        for seat in (0, None):
            assert mm_knowledge(state, seat)[3] == scanned
        assert state.view(0).talon_known == tuple((d, c) for d, c in enumerate(talon) if scanned >> c & 1)


@pytest.mark.parametrize("name", ["mustamaija", "black-maria"])
def test_knowledge_is_what_the_view_holds(name: str) -> None:
    helper = mm_knowledge if name == "mustamaija" else bm_knowledge
    for i, state in enumerate(_positions(name, deals_per_table=1, seed=14)):
        if i % 5:
            continue
        for seat in (*range(state.n), None):
            view = state.view(seat)
            facts = helper(state, seat)
            if name == "mustamaija":
                hand, known, unseen, _, sel, rem, used, pairs = facts
                assert (sel, rem, used, pairs) == (view.sel, view.rem, view.used, view.pairs)
            else:
                hand, passed, received, known, unseen, sel, reneges = facts
                assert (passed, received, sel, reneges) == (view.passed, view.received, view.sel, view.reneges)
            assert (hand, tuple(known), unseen) == (view.hand, view.known, view.unseen)


@pytest.mark.parametrize("game", list(games()), ids=lambda g: g.name)
def test_observations_are_new_read_only_and_checked(game: Any) -> None:
    state = game.deal(game.min_players + 1, seed=3)
    first = game.observation_for(state, 1)
    second = game.observation_for(state, 1)
    assert first is not second and first.dtype == np.float32 and first.shape == (game.obs_size,)
    assert not first.flags.writeable
    with pytest.raises(ValueError, match="read-only"):
        first[0] = 1.0
    assert first.min() >= 0.0 and first.max() <= 1.0
    spectator = np.zeros(game.obs_size, np.float32)
    game.encode(state.view(None), spectator)
    assert game.observation_for(state, None).tobytes() == spectator.tobytes()
    for bad in (state.n, -1, True, "0", 1.0):
        with pytest.raises(ValueError, match="no seat"):
            game.observation_for(state, bad)


def test_a_game_that_encodes_otherwise_observes_through_its_views() -> None:
    class Flagged(MustamaijaGame):
        """A variant whose encoding adds a flag: the observation must follow its ``encode``, not the module's."""

        def encode(self, view: Any, out: npt.NDArray[np.float32]) -> None:
            super().encode(view, out)
            out[-1] = 1.0

    game = Flagged()
    assert type(game).encode is not GameBase.encode
    state = game.deal(3, seed=4)
    obs = game.observation_for(state, 2)
    want = np.zeros(game.obs_size, np.float32)
    game.encode(state.view(2), want)
    assert obs.tobytes() == want.tobytes() and obs[-1] == 1.0 and not obs.flags.writeable


@pytest.mark.parametrize("name", ["mustamaija", "black-maria"])
def test_the_environment_observes_through_the_fast_path(name: str) -> None:
    game = get_game(name)
    env = make_env(players=4, game=name)
    env.reset(seed=8)
    rng = random.Random(8)
    steps = 0
    for agent in env.agent_iter():
        obs, _, terminated, truncated, info = env.last()
        seat = env.unwrapped._seat[agent]
        want = np.zeros(game.obs_size, np.float32)
        game.encode(env.unwrapped.game_state.view(seat), want)
        assert obs.tobytes() == want.tobytes()
        if terminated or truncated:
            env.step(None)
        else:
            env.step(rng.choice(np.flatnonzero(info["action_mask"]).tolist()))
            steps += 1
    assert steps > 20


def test_the_agent_iterator_keeps_pettingzoos_order_checks() -> None:
    from pettingzoo.utils.wrappers.order_enforcing import AECOrderEnforcingIterator

    env = make_env(players=3)
    with pytest.raises(AssertionError, match="reset"):
        env.agent_iter()
    env.reset(seed=1)
    agents = iter(env.agent_iter())
    assert isinstance(agents, AECOrderEnforcingIterator)
    assert next(agents) == env.agent_selection
    with pytest.raises(AssertionError, match="need to call step\\(\\) or reset\\(\\)"):
        next(agents)  # No step since the last agent was handed out.
    assert list(env.agent_iter(max_iter=0)) == []

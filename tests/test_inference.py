"""The search's deals once the talon is empty, weighed by the other seats' play: fair, exact for the heuristic, seeded."""

from __future__ import annotations

import pickle
import random

from mustamaija import State, View
from mustamaija.games.mustamaija.players.beliefs import InformedDeterminiser, shipped_model
from mustamaija.games.mustamaija.players.inference import PlayEvidence
from mustamaija.games.mustamaija.players.kit import MustamaijaKit
from mustamaija.players.registry import make_bot


def _endgames(players: int, seeds: range, turns: int = 3, holders: int = 3) -> list[State]:
    """Return heuristic deals at the start of an action ``turns`` turns after the talon emptied (those that got there)."""
    out = []
    for seed in seeds:
        s = State.from_seed(players=players, seed=seed)
        bots = [make_bot("heuristic", seed * 10 + k) for k in range(players)]
        while not s.is_over and s.talon_size:
            s.apply(bots[s.to_act].act(s.view(s.to_act)))
        empty = s.turns
        while not s.is_over and (s.turns < empty + turns or s.in_progress):
            s.apply(bots[s.to_act].act(s.view(s.to_act)))
        if not s.is_over and sum(1 for h in s.hands if h) >= holders:
            out.append(s)
    return out


def test_the_true_deal_of_heuristic_players_weighs_one() -> None:
    checked = 0
    for s in _endgames(4, range(40)):
        evidence = PlayEvidence.of(s.view(s.to_act))
        if evidence is None:
            continue
        assert evidence.weight(s) == 1.0
        checked += 1
    assert checked >= 10


def _with_evidence(seeds: range) -> list[tuple[View, PlayEvidence]]:
    """Return the seat's view and its evidence at the four-player endgames of ``seeds`` that have evidence."""
    out = []
    for s in _endgames(4, seeds, turns=4):
        view = s.view(s.to_act)
        evidence = PlayEvidence.of(view)
        if evidence is not None:
            out.append((view, evidence))
    return out


def test_deals_the_play_contradicts_weigh_less() -> None:
    lighter = 0
    for view, evidence in _with_evidence(range(30)):
        draw = InformedDeterminiser(view, shipped_model()).draw
        rng = random.Random(5)
        weights = [evidence.weight(draw(rng)) for _ in range(30)]
        assert all(0.0 < w <= 1.0 for w in weights)
        lighter += any(w < 1.0 for w in weights)
    assert lighter >= 5


def test_the_dealer_deals_only_what_the_view_allows_and_is_seeded() -> None:
    for s in _endgames(4, range(12))[:6]:
        seat = s.to_act
        view = s.view(seat)
        evidence = PlayEvidence.of(view)
        if evidence is None:
            continue
        deal = evidence.dealer(InformedDeterminiser(view, shipped_model()).draw)
        a = [deal(random.Random(9)) for _ in range(3)]
        b = [deal(random.Random(9)) for _ in range(3)]
        assert [x.hands for x in a] == [x.hands for x in b]
        for guess in a:
            assert guess.view(seat) == view  # Nothing the seat knows is changed: only the unseen cards move.


def test_the_kit_weighs_deals_only_where_there_is_evidence() -> None:
    kit = MustamaijaKit()
    start = State.from_seed(players=4, seed=3)
    assert PlayEvidence.of(start.view(start.to_act)) is None  # The talon is full.
    s = _endgames(4, range(10))[0]
    view = s.view(s.to_act)
    assert PlayEvidence.of(view) is not None
    guess = kit.sampler(view)(random.Random(1))
    assert guess.view(s.to_act) == view
    kit.beliefs = False
    assert PlayEvidence.of(view) is not None and kit.sampler(view)(random.Random(1)).view(s.to_act) == view


def test_nothing_to_weigh_when_every_card_is_placed() -> None:
    ends = _endgames(2, range(10), turns=1, holders=2)
    assert len(ends) >= 5
    for s in ends:
        assert PlayEvidence.of(s.view(s.to_act)) is None  # Two players, talon empty: both hands are known.


def test_the_evidence_pickles_and_weighs_alike_in_both_builds() -> None:
    # Compiled classes have no __dict__: the evidence and its takeback pickle by their constructors' arguments.
    checked = 0
    for view, evidence in _with_evidence(range(30)):
        again = pickle.loads(pickle.dumps(evidence))
        assert (again.seat, again.miss, again.weights, again.back.span) == (evidence.seat, evidence.miss,
                                                                          evidence.weights, evidence.back.span)
        draw = InformedDeterminiser(view, shipped_model()).draw
        rng = random.Random(3)
        for _ in range(5):
            deal = draw(rng)
            assert again.weight(deal) == evidence.weight(deal)
        checked += 1
    assert checked >= 5

"""Taking back turns while the talon lasts: the public facts of that moment, and the deal of now when played again."""

from __future__ import annotations

import pickle
import random

import pytest

from mustamaija import State
from mustamaija.core.bits import popcount
from mustamaija.games.mustamaija.actions import Declare
from mustamaija.games.mustamaija.players.beliefs import InformedDeterminiser, shipped_model
from mustamaija.games.mustamaija.players.heuristic import apply_plan
from mustamaija.games.mustamaija.players.inference import TalonEvidence
from mustamaija.games.mustamaija.players.kit import MustamaijaKit
from mustamaija.games.mustamaija.redraw import Redraw
from mustamaija.games.mustamaija.rules import PRESETS, Rules
from support import action_starts, preset_fits

PUBLIC_FIELDS = ("n", "dealer", "deck", "trump", "trump_card", "turn_pending", "revealed", "tknown", "discard", "phase",
                 "attacker", "defender", "led", "sel", "rem", "used", "pairs", "limit", "out", "outmask", "turns",
                 "declarer", "declared", "loser", "stopped", "nlog", "talon_size")


CASES = [(players, preset, bot) for preset in PRESETS for players in (3, 4, 6) for bot in ("heuristic", "random")
         if preset_fits(preset, players)]


def _public_part(s: State) -> tuple[object, ...]:
    """Return what the public log fixes of a state: its public fields, hand sizes, the known places, the log."""
    held = 0
    for h in s.hands:
        held |= h
    talon_known = {c for c in s.talon_cards if s.tknown >> c & 1}
    return (*(getattr(s, f) for f in PUBLIC_FIELDS), tuple(popcount(h) for h in s.hands),
            tuple(h & s.public for h in s.hands), s.public & ~s.discard & ~held, talon_known, s.history())


@pytest.mark.parametrize(("players", "preset", "bot"), CASES)
def test_the_redraw_gives_that_moment_and_playing_on_gives_now(players: int, preset: str, bot: str) -> None:
    rules = Rules.preset(preset)
    rng = random.Random(players * 31 + len(preset))
    checked = 0
    for seed in range(6):
        starts = action_starts(players, seed, rules, bot)
        by_nlog = {s.nlog: s for s in starts}
        for s in starts:
            if not s.talon_size or rng.random() > 0.5:
                continue
            view = s.view(s.to_act)
            count = rng.choice((1, 2, 5, 12, 40))
            back = Redraw.of(view, count)
            if back is None:
                declared = any(isinstance(a, Declare) for a in view.history)
                assert len(view.history) < 3 or declared or view.revealed  # Only these stop a takeback.
                continue
            first = next(i for i, a in enumerate(view.history) if not isinstance(a, Declare))
            assert back.span[0][0] == 0 and back.base_nlog > first  # A turn's lead, never the first turn's.
            then = back.rewind(s, rng)
            assert _public_part(then) == _public_part(by_nlog[then.nlog])
            assert then.hands[s.to_act] & view.unseen == 0  # Only its own cards went back to its hand.
            for plan in back.plans():
                apply_plan(then, plan)
            assert then.hands == s.hands and then.talon_cards == s.talon_cards
            assert _public_part(then) == _public_part(s)
            checked += 1
    assert checked >= 5


def test_the_draws_dealt_back_are_drawn_seeded_among_the_cards_of_hidden_place() -> None:
    starts = action_starts(4, 11, Rules(), "heuristic")
    s = next(x for x in starts if x.talon_size and x.nlog >= 12 and x.phase_name == "lead")
    back = Redraw.of(s.view(s.to_act), 2)
    assert back is not None and sum(back.drawn) > 0
    true_then = {x.nlog: x for x in starts}[back.base_nlog]
    assert back.rewind(s, random.Random(4)).talon == back.rewind(s, random.Random(4)).talon  # Seeded.
    talons = {back.rewind(s, random.Random(k)).talon_cards for k in range(400)}
    assert len(talons) > 1  # The draws are drawn, not fixed...
    placed = s.discard
    for k in range(4):
        placed |= true_then.hands[k] & true_then.public
    for talon in talons:
        assert all(not placed >> c & 1 for c in talon[:sum(back.drawn)])  # ...among cards the log does not place...
    assert true_then.talon_cards in talons  # ...and as they were drawn, among others.


def test_no_redraw_over_a_declaration_or_the_first_turn() -> None:
    s = State.from_seed(players=4, seed=1)
    assert Redraw.of(s.view(s.to_act), 8) is None  # Nothing played yet.
    rules = Rules.preset("kurki-suonio-marriage")
    for seed in range(40):
        starts = action_starts(4, seed, rules, "heuristic")
        for x in starts:
            view = x.view(x.to_act)
            entries = list(view.history)
            if x.talon_size and entries and isinstance(entries[-1], Declare):
                assert Redraw.of(view, 4) is None
                return
    pytest.fail("no declaration while the talon lasts in 40 deals")


def _talon_positions(seeds: range) -> list[tuple[State, dict[int, State]]]:
    """Return four-heuristic positions while the talon lasts, each with the deal's states by log length."""
    out = []
    for seed in seeds:
        starts = action_starts(4, seed, Rules(), "heuristic")
        by_nlog = {x.nlog: x for x in starts}
        out.extend((x, by_nlog) for x in starts if x.talon_size and x.nlog >= 10 and x.nlog % 3 == 0)
    return out


def test_the_true_deal_weighs_one_whenever_its_draws_are_dealt_back_as_drawn() -> None:
    hits = 0
    for s, by_nlog in _talon_positions(range(6)):
        evidence = TalonEvidence.of(s.view(s.to_act), 2)
        if evidence is None:
            continue
        true_then = by_nlog[evidence.back.base_nlog]
        for k in range(30):
            then = evidence.back.rewind(s, random.Random(k))
            weight = evidence.weight(s, 0.0, random.Random(k))  # The same draws, so the same hands.
            assert 0.0 < weight <= 1.0
            if then.hands == true_then.hands:
                assert weight == 1.0  # The heuristic players chose every action from exactly these hands.
                hits += 1
    assert hits >= 10


def test_the_kit_reads_the_talon_phase_only_when_asked_and_deals_what_the_view_allows() -> None:
    s = _talon_positions(range(2))[3][0]
    view = s.view(s.to_act)
    kit = MustamaijaKit()
    assert kit.recent == 0  # Off: it measured no gain (docs/strength.md).
    plain = InformedDeterminiser(view, shipped_model()).draw
    assert kit.sampler(view)(random.Random(2)).hands == plain(random.Random(2)).hands
    kit.recent = 8
    deal = kit.sampler(view)
    guesses = [deal(random.Random(k)) for k in range(5)]
    assert all(g.view(s.to_act) == view for g in guesses)
    again = kit.sampler(view)
    assert [again(random.Random(k)).hands for k in range(5)] == [g.hands for g in guesses]  # Seeded.


def test_the_talon_evidence_pickles_and_weighs_alike() -> None:
    s = _talon_positions(range(2))[2][0]
    view = s.view(s.to_act)
    evidence = TalonEvidence.of(view, 8)
    assert evidence is not None
    again = pickle.loads(pickle.dumps(evidence))
    assert (again.seat, again.miss, again.back.span, again.back.drawn) == (evidence.seat, evidence.miss,
                                                                          evidence.back.span, evidence.back.drawn)
    draw = InformedDeterminiser(view, shipped_model()).draw
    rng = random.Random(3)
    for k in range(5):
        deal = draw(rng)
        assert again.weight(deal, 0.0, random.Random(k)) == evidence.weight(deal, 0.0, random.Random(k))


def test_the_worth_experiment_reads_the_talon_phase_in_its_read_part_only() -> None:
    from mustamaija.games.mustamaija.worth import ShownPlayer, main

    assert (ShownPlayer("read", 40, 1, recent=6, miss=0.2).kit.recent, ShownPlayer("read", 40, 1, 6, 0.2).kit.talon_miss) == (6, 0.2)
    assert ShownPlayer("fair", 40, 1, recent=6).kit.recent == 0
    for bad in (["--recent", "0"], ["--talon-miss", "0"], ["--talon-miss", "1.5"]):
        with pytest.raises(SystemExit):
            main(["--games", "1", "--parts", "read", *bad])

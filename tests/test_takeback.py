"""Taking back an endgame's last actions gives the very state of that moment, from the public log alone."""

from __future__ import annotations

import random

import pytest

from mustamaija import State
from mustamaija.games.mustamaija.actions import Declare
from mustamaija.games.mustamaija.rules import PRESETS, Rules
from mustamaija.games.mustamaija.takeback import Takeback, draw_free_turns
from support import action_starts, preset_fits

HELD_FIELDS = ("n", "dealer", "deck", "trump", "trump_card", "turn_pending", "revealed", "discard", "phase", "attacker",
               "defender", "led", "sel", "rem", "used", "pairs", "limit", "out", "outmask", "turns", "declarer",
               "declared", "loser", "stopped", "nlog", "tpos")


def _same(a: State, b: State) -> None:
    for field in HELD_FIELDS:
        assert getattr(a, field) == getattr(b, field), field
    assert a.hands == b.hands
    assert a.history() == b.history()
    held = 0
    for h in a.hands:
        held |= h
    assert a.public & held == b.public & held  # A seat's knowledge reads only this much of it.
    assert a.legal_mask() == b.legal_mask()


CASES = [(players, preset, bot) for preset in PRESETS for players in (3, 4, 5) for bot in ("heuristic", "random")
         if preset_fits(preset, players)]


@pytest.mark.parametrize(("players", "preset", "bot"), CASES)
def test_takeback_gives_the_state_of_that_moment(players: int, preset: str, bot: str) -> None:
    rules = Rules.preset(preset)
    checked = 0
    for seed in range(12):
        starts = action_starts(players, seed, rules, bot)
        empty_turns = [s for s in starts if not s.talon_size and s.phase_name == "lead"]
        if not empty_turns:
            continue
        base = empty_turns[0]  # The first turn begun with the talon empty: nothing was drawn after it.
        by_nlog = {s.nlog: s for s in empty_turns}
        for s in starts:
            if s.talon_size:
                continue
            view = s.view(s.to_act)
            count = draw_free_turns(view.history.node, len(view.history), rules.hand_size, view.hand_sizes, view.talon_size)
            if any(isinstance(a, Declare) for a in list(view.history)[base.nlog:]):
                assert count == 0  # A declaration after the last draw stops the count.
                continue
            if s.nlog < base.nlog:  # The defence of the lead whose attacker drew the last cards.
                assert count == 0
                continue
            assert s.nlog - count == base.nlog
            back = Takeback.of(view.history.node, len(view.history), rules.hand_size, view.hand_sizes, view.talon_size)
            if s.nlog == base.nlog:
                assert back is None
                continue
            assert back is not None and back.count == count
            _same(back.rewind(s), base)
            # Any turn start in between is a takeback of fewer entries: the same rewind on a shorter log.
            for n, mid in by_nlog.items():
                if base.nlog < n < s.nlog:
                    part = Takeback.of(mid.history().node, n, rules.hand_size, mid.hand_sizes(), 0)
                    assert part is not None
                    _same(part.rewind(mid), base)
            checked += 1
    assert checked or bot == "random"


def test_no_takeback_while_cards_are_drawn() -> None:
    s = State.from_seed(players=4, seed=1)
    assert draw_free_turns(s.history().node, s.nlog, s.facts.hand_size, s.hand_sizes(), s.talon_size) == 0
    assert Takeback.of(s.history().node, s.nlog, s.facts.hand_size, s.hand_sizes(), s.talon_size) is None


def test_a_log_that_does_not_add_up_is_not_taken_back() -> None:
    rng = random.Random(3)
    s = State.from_seed(players=3, seed=3)
    while s.talon_size or s.turns < 45 or s.in_progress:  # Play on past the talon, to the start of an action.
        s.apply(rng.choice(s.legal_actions()))
    assert not s.is_over
    sizes = s.hand_sizes()
    assert draw_free_turns(s.history().node, s.nlog, s.facts.hand_size, sizes, 0) > 0
    # Counted with a hand size the deal was not dealt with, the hands do not come out as they are.
    assert draw_free_turns(s.history().node, s.nlog, s.facts.hand_size + 2, sizes, 0) == 0

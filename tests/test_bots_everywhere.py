"""Every bot plays thousands of complete legal deals at every preset and player count, on views only."""

from __future__ import annotations

import pytest

from mustamaija import State
from mustamaija.games.mustamaija import PRESETS, Rules
from mustamaija.players.registry import make_bot, sees_all
from support import scaled

# Searches are kept tiny so that thousands of deals stay cheap; their legality does not depend on the budget.
BOTS = ("random", "heuristic", "ismcts:iters=2", "open-hand:iters=2")
DEALS_PER_PRESET = scaled(200, least=20)  # 1,200 deals over the six presets; every bot sits in at least half of them.


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_bot_plays_legal_complete_deals(preset: str) -> None:
    rules = Rules.preset(preset)
    counts = list(range(rules.min_players, rules.max_players + 1))
    played = {bot: 0 for bot in BOTS}
    for i in range(DEALS_PER_PRESET):
        n = counts[i % len(counts)]
        lineup = [BOTS[(i + seat) % len(BOTS)] for seat in range(n)]
        bots = [make_bot(spec, seed=1000 * i + seat) for seat, spec in enumerate(lineup)]
        s = State.from_seed(n, 7919 * i + 13, rules)
        while not s.is_over:
            seat = s.to_act
            bot = bots[seat]
            step = bot.act_open(s.copy()) if sees_all(bot) else bot.act(s.view(seat))  # type: ignore[attr-defined]
            assert s.legal_mask() >> step & 1, (preset, n, i, lineup[seat], step)
            s.apply(step)
        assert s.finished or s.stopped
        for spec in set(lineup):
            played[spec] += 1
    assert all(k >= DEALS_PER_PRESET // 2 for k in played.values()), played

"""Black Maria players: never an illegal step, the strategy notes of docs/black-maria.md, and a search that sees views only."""

from __future__ import annotations

import random

import pytest

from mustamaija.core.cards import mask_of, parse_card, parse_cards
from mustamaija.core.errors import MustamaijaError
from mustamaija.core.protocol import Player
from mustamaija.games.black_maria import Rules, State
from mustamaija.games.black_maria.play import play_hand, play_state, run_match
from mustamaija.games.black_maria.players import HeuristicPlayer, PimcPlayer
from mustamaija.games.black_maria.players.heuristic import pass_choice, play_choice
from mustamaija.games.black_maria.rules import in_play
from mustamaija.games.black_maria.sampling import sample_state
from mustamaija.players.random import RandomPlayer
from mustamaija.players.registry import make_bot as _make_bot


def _bm_bot(spec: str, seed: int | None = None) -> Player:
    return _make_bot(spec, seed or 0, game="black-maria")  # type: ignore[no-any-return]


def m(text: str) -> int:
    return mask_of(parse_cards(text))


def c(text: str) -> int:
    return parse_card(text)


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7])
@pytest.mark.parametrize("renege", [False, True])
def test_random_and_heuristic_never_play_illegally(players: int, renege: bool) -> None:
    rules = Rules(allow_renege=renege)
    for seed in range(200):  # 2,000 hands over the counts and modes; State.apply raises on an illegal step.
        rng = random.Random(seed)
        bots: list[Player] = [HeuristicPlayer() if rng.random() < 0.5 else RandomPlayer(seed=seed * 8 + p)
                              for p in range(players)]
        out = play_hand(bots, seed, rules)
        assert out.record.replay().is_over


@pytest.mark.parametrize("players", [3, 4, 7])
def test_search_never_plays_illegally(players: int) -> None:
    for seed in range(4):
        bots: list[Player] = [PimcPlayer(seed=seed, samples=2), HeuristicPlayer(), RandomPlayer(seed=seed)]
        lineup = [bots[p % 3] for p in range(players)]
        assert play_hand(lineup, seed, Rules(allow_renege=seed % 2 == 1)).record.replay().is_over


def test_search_decides_the_same_whatever_the_hidden_cards() -> None:
    rng = random.Random(1)
    checked = differ = 0
    for seed in range(40):
        s = State.from_seed(4, seed)
        for _ in range(rng.randrange(12, 40)):
            s.apply(rng.choice(s.legal_actions()))
        if s.is_over or len(s.legal_actions()) < 2:
            continue
        seat = s.to_act
        v = s.view(seat)
        other = sample_state(v, random.Random(seed))  # Another deal the seat cannot tell from the true one.
        differ += other.hands != s.hands
        assert other.view(seat) == v
        first = PimcPlayer(seed=7, samples=6).act(v)
        assert PimcPlayer(seed=7, samples=6).act(other.view(seat)) == first
        checked += 1
    assert checked >= 15 and differ >= 10


def test_the_search_chooses_its_pass_among_the_heuristics_candidates_and_gives_it_whole() -> None:
    differ = 0
    for seed in range(12):
        s = State.from_seed(4, seed)
        for _ in range(seed % 4 * 3):  # The pass of the first, second, third or fourth seat to pass.
            s.apply(HeuristicPlayer().act(s.view(s.to_act)))
        seat = s.to_act
        v = s.view(seat)
        bot = PimcPlayer(seed=5, samples=8)
        plans, _ = bot.kit.candidates(v)
        other = sample_state(v, random.Random(seed))  # The same view, other hidden cards: the same pass.
        assert PimcPlayer(seed=5, samples=8).act(other.view(seat)) == bot.act(v)
        assert bot.stats["candidates"] == len(plans) == 20
        given = 0
        for _ in range(3):
            step = bot.act(s.view(seat)) if given else bot.act(v)
            assert s.can_step(step)
            s.apply(step)
            given |= 1 << step
        assert given in plans and s.to_act != seat
        differ += given != pass_choice(v.hand, 3)
    assert differ >= 2  # The search is not the heuristic: it passes otherwise on some hands.


def test_a_search_taking_over_in_the_middle_of_a_pass_finishes_it_as_the_heuristic_would() -> None:
    s = State.from_seed(4, 3)
    s.apply(HeuristicPlayer().act(s.view(s.to_act)))
    v = s.view(s.to_act)
    assert v.sel and PimcPlayer(seed=1, samples=4).act(v) == HeuristicPlayer(seed=1).act(v)


def test_pass_choice_follows_the_strategy_notes() -> None:
    hand = m("AS KS QS 3S AH KH 2H 5D 6D 7D 3C 4C 9C")
    assert pass_choice(hand, 3) == m("AS KS QS")
    # Q♠ guarded by four low spades is kept; high hearts and the spade honours go instead.
    guarded = m("QS 2S 3S 4S 5S AH KH QH 5D 6D 7D 3C 4C")
    assert pass_choice(guarded, 3) == m("AH KH QH")
    # Aces and a short suit, to make a void, before low cards.
    plain = m("9S 8S 7S 6S 5H 4H 3H 2H 9D 8D 7D AC 2C")
    assert pass_choice(plain, 3) >> c("AC") & 1 and pass_choice(plain, 3) >> c("2C") & 1


def test_discards_follow_the_strategy_notes() -> None:
    played = 0
    trick = (c("5D"),)
    # Void in the led suit: Black Maria first, then the highest heart.
    assert play_choice(m("QS AH 3H 4C"), m("QS AH 3H 4C"), trick, 2, 4, played) == c("QS")
    assert play_choice(m("JH 3H 4C"), m("JH 3H 4C"), trick, 2, 4, played) == c("JH")


def test_forced_heart_leads_are_small_and_maria_is_dropped_under_a_higher_spade() -> None:
    hearts = m("2H 9H KH")
    assert play_choice(hearts, hearts, (), -1, 4, 0) == c("2H")
    spades = m("QS 3S 9D")
    assert play_choice(spades, m("QS 3S"), (c("KS"),), 0, 4, 0) == c("QS")
    # Following below the winner: the highest card that still loses.
    clubs = m("2C 8C JC AC")
    assert play_choice(clubs, clubs, (c("TC"),), 3, 4, 0) == c("8C")
    # Leading with Black Maria out: a low spade flushes her, a high one would catch her.
    hand = m("3S 5D 9D")
    seen = in_play(4) & ~hand & ~m("QS KS AS")
    assert play_choice(hand, hand, (), -1, 4, seen & ~m("2S 4S 6S 7S 8S 9S TS JS 2D 3D 4D")) in (c("3S"), c("5D"))


def test_run_match_and_bot_specs() -> None:
    bots = [_bm_bot("heuristic"), _bm_bot("random", seed=1), _bm_bot("pimc:samples=2", seed=2)]
    game = run_match(bots, seed=3, rules=Rules(target_score=40))
    assert max(game.totals) >= 40 and sum(game.totals) == 43 * len(game.hands)
    assert set(game.winners) == {s for s, t in enumerate(game.totals) if t == min(game.totals)}
    with pytest.raises(MustamaijaError, match="unknown Black Maria bot 'nobody'"):
        _bm_bot("nobody")
    with pytest.raises(MustamaijaError, match="bot 'pimc:depth=3'"):
        _bm_bot("pimc:depth=3")
    with pytest.raises(ValueError, match="samples must be a positive integer"):
        PimcPlayer(samples=0)
    s = State.from_seed(3, 1)
    with pytest.raises(ValueError, match="nothing to do"):
        RandomPlayer(seed=1).act(s.view((s.to_act + 1) % 3))
    assert play_state(s, [HeuristicPlayer()] * 3).is_over


def test_the_heuristic_breaks_ties_by_its_seed_and_only_ties() -> None:
    from mustamaija.games.black_maria.players.heuristic import heuristic_step

    # Equal 5s of two side suits: the rules score them alike, so the seed picks one; a lone choice is no tie.
    hand = mask_of(parse_cards("5C 5D 9H"))
    rng = random.Random(1)
    picks = {play_choice(hand, hand & ~mask_of(parse_cards("9H")), (parse_card("KS"),), 0, 4, 0,
                         tie=[rng.random() for _ in range(52)]) for _ in range(20)}
    assert picks == {parse_card("5C"), parse_card("5D")}
    # The same seed and view give the same step; unseeded, the heuristic plays as the rollouts do.
    s = State.from_seed(players=4, seed=8)
    while not s.is_over:
        v = s.view(s.to_act)
        step = HeuristicPlayer(seed=3).act(v)
        assert step == HeuristicPlayer(seed=3).act(v)
        assert HeuristicPlayer().act(v) == heuristic_step(s)
        s.apply(step)


def test_a_mirror_match_of_seeded_heuristics_is_not_one_game_played_four_times() -> None:
    from mustamaija.tournament import TournamentSettings, run_tournament

    t = TournamentSettings(game="black-maria", players=4, bots=("heuristic",) * 4, deals=30, seed=5)
    result = run_tournament(t)
    by_deal: dict[int, set[tuple[float, ...]]] = {}
    for g in result.games:
        assert g.scores is not None
        # Points by seat (lineup position p sits in seat p + rotation): one game played at every rotation, as
        # deterministic equal bots would play it, gives the same tuple each time.
        by_deal.setdefault(g.deal, set()).add(tuple(g.scores[(s - g.rotation) % 4] for s in range(4)))
    assert sum(len(v) > 1 for v in by_deal.values()) >= 3  # Unseeded: none.
    means = [p.mean for p in result.by_position()]
    assert max(means) - min(means) < 4.0, means


def test_the_pimc_spec_parameters_are_checked_and_typed() -> None:
    from mustamaija.players.registry import make_bot

    bot = make_bot("pimc:samples=5:solver=off:beliefs=off", 1, "black-maria")
    assert isinstance(bot, PimcPlayer)
    assert bot.samples == 5 and bot.endgame is None and bot.kit.beliefs is False
    with pytest.raises(ValueError, match="unknown parameter"):
        make_bot("pimc:sample=5", 1, "black-maria")

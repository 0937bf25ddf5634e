"""Ratings, pure: Glickman's Glicko-2 example, the pairwise rule on real deals of both games, standings and names."""

from __future__ import annotations

import ast
import math
import random
from pathlib import Path
from typing import Any

import pytest

from mustamaija.core.registry import get_game
from mustamaija.ratings import (
    INITIAL,
    Ledger,
    Outcome,
    PlayerNameError,
    Rating,
    Standing,
    bot_identity,
    check_name,
    deal_outcomes,
    name_key,
    outcomes_from_scores,
    player_identity,
    ranked,
    rate,
    rate_deal,
    record_seats,
)
from mustamaija.ratings.glicko2 import expected_score
from mustamaija.ratings.standings import MAX_RD, MIN_RD, PERIODS_PER_DAY

PAPER = [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)]


def _played(game_name: str, players: int, seed: int, rules: Any = None) -> tuple[Any, Any]:
    game = get_game(game_name)
    state = game.deal(players, seed=seed, rules=rules)
    rng = random.Random(seed)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    return game, state


# -- Glicko-2 ---------------------------------------------------------------------------------------


def test_the_papers_example_gives_the_papers_figures() -> None:
    after = rate(Rating(1500, 200, 0.06), PAPER)
    # The paper rounds as it goes and prints r' = 1464.06, RD' = 151.52, sigma' = 0.05999.
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.rd == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=1e-5)
    # The paper's intermediate figures: v = 1.7785 and Delta = -0.4834 (on the Glicko-2 scale).
    assert expected_score(Rating(1500, 200), Rating(1400, 30)) == pytest.approx(0.639, abs=5e-4)


def test_the_volatility_is_the_root_of_the_papers_function() -> None:
    """The library the module looked at puts mu where phi belongs; here f(ln sigma'^2) = 0 for any rating."""
    for rating in (1500.0, 1900.0, 1100.0):
        player = Rating(rating, 200, 0.06)
        after = rate(player, PAPER)
        mu, phi = (rating - 1500) / 173.7178, 200 / 173.7178
        games = []
        for opp, s in PAPER:
            g = 1 / math.sqrt(1 + 3 * (opp.rd / 173.7178) ** 2 / math.pi**2)
            games.append((g, 1 / (1 + math.exp(-g * (mu - (opp.rating - 1500) / 173.7178))), s))
        v = 1 / sum(g * g * e * (1 - e) for g, e, _ in games)
        delta = v * sum(g * (s - e) for g, e, s in games)
        a, x = math.log(0.06**2), math.log(after.volatility**2)
        f = math.exp(x) * (delta**2 - phi**2 - v - math.exp(x)) / (2 * (phi**2 + v + math.exp(x)) ** 2) - (x - a) / 0.25
        assert abs(f) < 1e-5


def test_wins_raise_losses_lower_and_equal_draws_hold() -> None:
    assert rate(INITIAL, [(INITIAL, 1.0)]).rating > 1500 > rate(INITIAL, [(INITIAL, 0.0)]).rating
    assert rate(INITIAL, [(INITIAL, 0.5)]).rating == pytest.approx(1500.0)
    assert rate(INITIAL, [(INITIAL, 0.5)]).rd < INITIAL.rd
    # Beating a much stronger player gains more than beating a weaker one.
    assert rate(INITIAL, [(Rating(1900, 60), 1.0)]).rating > rate(INITIAL, [(Rating(1100, 60), 1.0)]).rating


def test_time_widens_the_deviation_up_to_a_cap() -> None:
    base = Rating(1600, 60, 0.06)
    assert rate(base, [], periods=0).rd == pytest.approx(60.0)
    assert rate(base, [], periods=10).rd > rate(base, [], periods=1).rd > 60
    assert rate(base, [], periods=1e9, max_rd=350).rd == pytest.approx(350.0)


@pytest.mark.parametrize("bad", [{"score": 2.0}, {"score": -1.0}, {"periods": -1.0}, {"tau": 0.0}])
def test_bad_input_is_refused(bad: dict[str, float]) -> None:
    with pytest.raises(ValueError):
        rate(INITIAL, [(INITIAL, bad.get("score", 1.0))], **{k: v for k, v in bad.items() if k != "score"})
    with pytest.raises(ValueError):
        Rating(1500, 0.0)
    with pytest.raises(ValueError):
        Rating(float("nan"), 50)


# -- the pairwise rule --------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_a_single_loser_lost_to_everyone_and_the_others_are_not_ranked(players: int) -> None:
    for seed in range(20):
        game, state = _played("mustamaija", players, seed)
        if game.truncated(state):
            continue
        loser = state.loser
        results = deal_outcomes(game, state)
        assert len(results) == players - 1, "one result between the loser and each other seat, none else"
        for o in results:
            assert loser in (o.a, o.b)
            other = o.b if o.a == loser else o.a
            assert o.for_seat(loser) == 0.0 and o.for_seat(other) == 1.0


def test_a_stopped_deal_and_a_deal_in_play_give_nothing() -> None:
    game = get_game("mustamaija")
    game, state = _played("mustamaija", 3, 1, game.make_rules(None, {"max_turns": 3}))
    assert game.truncated(state) and deal_outcomes(game, state) == ()
    assert deal_outcomes(game, game.deal(3, seed=2)) == ()


@pytest.mark.parametrize("players", [3, 4, 5, 7])
def test_points_decide_each_pair_and_equal_points_draw(players: int) -> None:
    draws = 0
    for seed in range(20):
        game, state = _played("black-maria", players, seed)
        points = game.scores(state)
        assert points is not None
        results = deal_outcomes(game, state)
        assert len(results) == players * (players - 1) // 2, "every pair is ranked by a hand"
        for o in results:
            expected = 0.5 if points[o.a] == points[o.b] else float(points[o.a] < points[o.b])
            assert o.score == expected
            draws += o.score == 0.5
    assert draws > 0, "hands where two seats took the same points were met"


def test_the_rule_is_the_result_kinds_not_the_games() -> None:
    assert outcomes_from_scores("loss", [1.0, 0.0]) == (Outcome(0, 1, 0.0),)
    assert outcomes_from_scores("points", [5.0, 5.0]) == (Outcome(0, 1, 0.5),)
    assert outcomes_from_scores("loss", [0.0, 0.0, 0.0]) == ()
    with pytest.raises(ValueError):
        outcomes_from_scores("score", [1.0, 0.0])  # type: ignore[arg-type]


def test_the_ratings_package_names_no_game_and_imports_none() -> None:
    root = Path(__file__).resolve().parent.parent / "src" / "mustamaija" / "ratings"
    for path in root.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                assert not node.module.startswith(("mustamaija.games", "mustamaija.web", "mustamaija.cli")), path


# -- standings over deals -------------------------------------------------------------------------------


def test_a_deal_is_one_period_against_the_ratings_before_it() -> None:
    strong = Standing(Rating(1800, 60, 0.06), games=40)
    seats = ["bot:hard", "player:ann", "bot:easy", None]
    results = outcomes_from_scores("loss", [0.0, 0.0, 1.0, 0.0])  # Seat 2 lost; seat 3 is not rated.
    new = rate_deal({"bot:hard": strong}, seats, results)
    assert set(new) == {"bot:hard", "player:ann", "bot:easy"}
    assert new["bot:easy"].losses == 2 and new["bot:easy"].wins == 0 and new["bot:easy"].games == 1
    assert new["player:ann"].wins == 1 and new["player:ann"].losses == 0
    # Both winners beat the same newcomer: the known strong bot gains little, the unknown newcomer a lot.
    assert 0 < new["bot:hard"].rating.rating - 1800 < new["player:ann"].rating.rating - 1500
    assert new["bot:hard"].games == 41


def test_one_identity_in_two_seats_gets_no_result_against_itself() -> None:
    results = outcomes_from_scores("points", [3.0, 13.0, 10.0])
    new = rate_deal({}, ["bot:medium", "bot:medium", "player:bo"], results)
    assert new["bot:medium"].wins + new["bot:medium"].losses + new["bot:medium"].draws == 2
    assert new["player:bo"].wins == 1 and new["player:bo"].losses == 1
    assert rate_deal({}, ["bot:medium", "bot:medium", None], results) == {}


def test_time_since_the_last_deal_widens_the_deviation() -> None:
    old = Standing(Rating(1600, 50, 0.06), games=100, updated=0.0)
    results = outcomes_from_scores("loss", [0.0, 1.0])
    soon = rate_deal({"player:ann": old}, ["player:ann", "bot:easy"], results, now=60.0)["player:ann"]
    later = rate_deal({"player:ann": old}, ["player:ann", "bot:easy"], results, now=365 * 86400.0)["player:ann"]
    assert later.rating.rd > soon.rating.rd and later.rating.rating > soon.rating.rating
    assert later.updated == 365 * 86400.0
    grown = math.sqrt((50 / 173.7178) ** 2 + 365 * PERIODS_PER_DAY * 0.06**2) * 173.7178
    assert soon.rating.rd < 50 < grown
    # Deals one after another shrink a deviation, but never below the floor.
    s = Standing()
    for _ in range(500):
        s = rate_deal({"bot:a": s}, ["bot:a", "bot:b"], [Outcome(0, 1, 0.5)])["bot:a"]
    assert s.rating.rd == MIN_RD and MAX_RD == 350.0


def test_the_leaderboard_puts_provisional_ratings_after_the_established() -> None:
    board = ranked([("new", Standing(Rating(1900, 300))), ("a", Standing(Rating(1550, 80))),
                    ("b", Standing(Rating(1650, 100))), ("c", Standing(Rating(1400, 111)))])
    assert [(rank, who) for rank, who, _ in board] == [(1, "b"), (2, "a"), (3, "new"), (4, "c")]
    assert [s.provisional for _, _, s in board] == [False, False, True, True]


def test_a_ledger_rates_a_series_and_orders_the_levels() -> None:
    ledger = Ledger()
    rng = random.Random(3)
    for _ in range(300):  # A strong bot loses a tenth of the deals, a weak one most.
        loser = 1 if rng.random() < 0.9 else 0
        ledger.add("g", ["bot:strong", "bot:weak"], outcomes_from_scores("loss", [float(loser == 0), float(loser == 1)]))
    board = ledger.board("g")
    assert [who for _, who, _ in board] == ["bot:strong", "bot:weak"]
    assert board[0][2].rating.rating - board[1][2].rating.rating > 250
    assert not board[0][2].provisional and ledger.deals["g"] == 300


# -- names and identities -------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["Ann", "Äiti", "jean-luc", "O'x", "a", "x" * 25, "Ann  Lee", "_ann", "ann.",
                                  "Аnn", "张伟", "ann\u200b", "bot", "Player 1", "spectator", "Seat 0", "an\nn", 7])
def test_names_are_checked(name: Any) -> None:
    good = {"Ann", "Äiti", "jean-luc"}
    if name in good:
        assert check_name(name) == name
    else:
        with pytest.raises(PlayerNameError):
            check_name(name)


def test_a_name_is_unique_in_any_case_and_form() -> None:
    assert name_key("ANN") == name_key("ann") == name_key("Ann")
    assert name_key("A\u0308iti") == name_key("Äiti")  # A decomposed Ä is the same name.
    assert player_identity(" Ann ") == "player:ann"


def test_bot_identities_follow_the_lobby() -> None:
    for game_name in ("mustamaija", "black-maria"):
        game = get_game(game_name)
        for level, spec in game.levels.items():
            assert bot_identity(level.upper(), game) == bot_identity(spec, game) == f"bot:{level}"
        assert bot_identity("ismcts", game) == "bot:ismcts"


def test_record_seats_read_bots_and_signed_in_names() -> None:
    game = get_game("black-maria")
    rec = game.record_of(game.deal(4, seed=1), bots=["random", None, None, "pimc:samples=20"],
                         signed_in=[None, "Ann", None, None], names=["bot 0 · easy", "Ann", "Bo", "bot 3 · hard"])
    assert record_seats(game, rec) == ["bot:easy", "player:ann", None, "bot:hard"]
    assert record_seats(game, rec, names=True)[2] == "player:bo"
    bare = game.record_of(game.deal(4, seed=1), bots=["random"])  # A list of the wrong length is ignored.
    assert record_seats(game, bare) == [None] * 4

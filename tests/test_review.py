"""Game review: every decision judged from its seat's view, proven verdicts where the solver decides, and no peeking."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from mustamaija.cli import main
from mustamaija.core.errors import MustamaijaError, RecordError
from mustamaija.core.protocol import Game
from mustamaija.core.registry import get_game
from mustamaija.games.black_maria.actions import Play
from mustamaija.games.mustamaija import Beat, Declare, Lead, State
from mustamaija.players.registry import make_bot
from mustamaija.search.hints import hint
from mustamaija.search.review import MARKS, THRESHOLDS, DecisionReview, Review, accuracy, review, review_decision
from test_solver import _brute_safe_leads, _key, _retrograde

SMALL: dict[str, Any] = {"iters": 16, "worlds": 8}
"""A budget small enough for tests: the verdicts checked here do not depend on it."""
GAMES = [("mustamaija", 3, 11), ("black-maria", 4, 3)]


def _heuristic_deal(game: Game, players: int, seed: int, actions: int | None = None) -> Any:
    """Return the state after heuristic bots play ``actions`` compound actions (all: to the end)."""
    s = game.deal(players, seed)
    bots = [make_bot("heuristic", i, game) for i in range(players)]
    while not s.is_over and (actions is None or len(s.actions()) < actions):
        s.apply(bots[s.to_act].act(s.view(s.to_act)))
    return s


def _state_before(record: Any, index: int) -> Any:
    s = record.start()
    for a in record.actions[:index]:
        s.play(a)
    return s


# -- every game -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "players", "seed"), GAMES)
def test_every_decision_of_every_seat_is_judged(name: str, players: int, seed: int) -> None:
    game = get_game(name)
    record = game.record_of(_heuristic_deal(game, players, seed, actions=14))
    calls: list[tuple[int, int]] = []
    r = review(game, record, **SMALL, progress=lambda done, total: calls.append((done, total)))
    assert [d.index for d in r.decisions] == list(range(len(record.actions)))
    assert [d.seat for d in r.decisions] == [a.seat for a in record.actions]
    assert [d.played for d in r.decisions] == [a.to_json() for a in record.actions]
    assert calls == [(i + 1, len(record.actions)) for i in range(len(record.actions))]
    assert r.result_kind == game.result_kind and r.thresholds == THRESHOLDS[game.result_kind]
    assert r.measure == ("loss chance" if game.result_kind == "loss" else "expected points")
    for d in r.decisions:
        assert d.mark in MARKS and d.drop >= 0 and d.stderr >= 0
        assert d.played_value >= 0 and (d.played_value <= 1 or game.result_kind == "points")
        if d.mark == "forced":
            assert d.drop == 0 and d.best == (d.played,)
        elif not d.exact:
            assert d.worlds == SMALL["worlds"] and d.playouts > 0
            assert d.drop == pytest.approx(max(0.0, d.played_value - d.best_value), abs=2e-4)
    for s in r.seats:
        mine = [d for d in r.decisions if d.seat == s.seat]
        judged = [d for d in mine if d.mark != "forced"]
        assert s.decisions == len(mine) and s.forced == len(mine) - len(judged)
        assert s.series == tuple((d.index, d.played_value) for d in mine)
        assert sum(s.marks.values()) == len(judged)
        if judged:
            assert s.accuracy == pytest.approx(sum(accuracy(d.counted_drop, game.result_kind) for d in judged) / len(judged),
                                               abs=0.01)
            assert s.accuracy is not None and 0 <= s.accuracy <= 100
        else:
            assert s.accuracy is None
    # Budgets are playouts: the same record and seed give the same review.
    assert review(game, record, **SMALL).to_json() == r.to_json()


@pytest.mark.parametrize(("name", "players", "seed"), GAMES)
def test_forced_decisions_are_marked_forced_and_not_counted(name: str, players: int, seed: int) -> None:
    game = get_game(name)
    record = game.record_of(_heuristic_deal(game, players, seed, actions=24))
    r = review(game, record, **SMALL)
    forced = 0
    for d in r.decisions:
        s = _state_before(record, d.index)
        if name == "mustamaija":
            choices = {*s.legal_leads(), *s.legal_declares()} if s.phase == 0 else \
                      {(b.beaten, b.beaters) for b in s.legal_beats()} | set(s.legal_declares())
            only = len(choices) == 1
        else:
            only = s.phase_name == "play" and len(s.legal_actions()) == 1
        assert (d.mark == "forced") is only, (d.index, d.played_words)
        forced += only
    assert forced > 0
    assert sum(s.forced for s in r.seats) == forced
    # A seat's accuracy leaves forced decisions out: the same with their marks removed.
    for s in r.seats:
        judged = [d for d in r.decisions if d.seat == s.seat and d.mark != "forced"]
        if judged:
            assert s.accuracy == pytest.approx(sum(accuracy(d.counted_drop, r.result_kind) for d in judged) / len(judged),
                                               abs=0.01)


# -- proven verdicts --------------------------------------------------------------------------------


def _endgame_record(seed: int) -> Any:
    """Return a two-player record played at random into a small talon-empty endgame and on to the end."""
    game = get_game("mustamaija")
    rng = random.Random(seed)
    s = State.from_seed(2, seed)
    while not s.is_over and not (s.talon_size == 0 and sum(s.hand_sizes()) <= 8):
        s.apply(rng.choice(s.legal_actions()))
        while s.in_progress:
            s.apply(rng.choice(s.legal_actions()))
    while not s.is_over:
        s.apply(rng.choice(s.legal_actions()))
    return game.record_of(s)


def _reference(s: State, action: Any) -> tuple[bool, bool]:
    """Return (a safe action exists, the played action is safe) by the reference analysis of tests/test_solver.py."""
    seat = s.to_act
    if s.phase == 0:
        value, leads, declared = _brute_safe_leads(s)
        if isinstance(action, Declare):
            return value, action.suit in declared
        assert isinstance(action, Lead)
        return value, action.cards in leads
    loss = _retrograde(s, seat)  # Every position reachable from here, ends included, is listed: lost or not.
    t = s.copy()
    t.play(action)
    if isinstance(action, Declare):
        after = []
        for beat in t.legal_beats():
            u = t.copy()
            u.play(beat)
            after.append(_key(u) not in loss)
        return _key(s) not in loss, any(after)
    assert isinstance(action, Beat)
    return _key(s) not in loss, _key(t) not in loss


def test_solver_judged_decisions_agree_with_the_solver() -> None:
    marks: set[str] = set()
    checked = 0
    for seed in range(4):
        record = _endgame_record(seed)
        r = review("mustamaija", record, iters=4, worlds=2)  # Only the solver's verdicts are checked here.
        for d in r.decisions:
            s = _state_before(record, d.index)
            if s.talon_size or sum(s.hand_sizes()) > 8:
                continue  # The reference analysis is slow beyond a few cards.
            assert d.exact, d  # Two players, talon empty: every hand is known, so the solver decides.
            exists, safe = _reference(s, record.actions[d.index])
            assert d.safe is safe and d.played_value == (0.0 if safe else 1.0), (seed, d)
            if d.mark != "forced":
                assert d.mark == ("blunder" if exists and not safe else "best"), (seed, d)
                assert d.drop == (1.0 if d.mark == "blunder" else 0.0) and d.stderr == 0
                assert d.best_value == (0.0 if exists else 1.0)
                marks.add(d.mark)
            checked += 1
    assert checked > 20 and marks == {"best", "blunder"}


def test_a_deliberate_blunder_is_proven_a_blunder() -> None:
    game = get_game("mustamaija")
    for seed in range(20):
        record = _endgame_record(seed)
        s = record.start()
        for a in record.actions:
            if s.talon_size == 0 and s.phase == 0:
                value, leads, _ = _brute_safe_leads(s)
                unsafe = [m for m in s.legal_leads() if m.cards not in leads]
                if value and unsafe:
                    s.play(unsafe[0])
                    blunder = game.record_of(s)
                    r = review(game, blunder, seats=[unsafe[0].seat], iters=4, worlds=2)
                    last = r.decisions[-1]
                    assert last.index == len(blunder.actions) - 1 and last.exact and last.method == "solver"
                    assert (last.mark, last.drop, last.played_value, last.best_value) == ("blunder", 1.0, 1.0, 0.0)
                    assert last.best_words != last.played_words
                    assert r.seat(unsafe[0].seat).marks["blunder"] >= 1
                    return
            s.play(a)
    pytest.fail("no endgame with a safe and an unsafe lead was found")


def test_a_deliberate_blunder_in_a_points_game_is_marked_blunder() -> None:
    # Last to play to a spade trick that a lower spade ducks, the seat plays the queen of spades and takes it (13 points).
    game = get_game("black-maria")
    queen = 10
    for seed in range(32, 60):
        s = game.deal(4, seed)
        bots = [make_bot("heuristic", i, game) for i in range(4)]
        while not s.is_over:
            seat = s.to_act
            trick = s.trick
            if (s.phase_name == "play" and len(trick) == 3 and s.hands[seat] >> queen & 1 and trick[0] // 13 == 0
                    and max(c for c in trick if c // 13 == 0) < queen
                    and any(s.hands[seat] >> c & 1 for c in range(max(c for c in trick if c // 13 == 0)))):
                s.play(Play(seat, queen))
                r = review(game, game.record_of(s), seats=[seat], **SMALL)
                last = r.decisions[-1]
                assert last.played_words == "play Q♠" and last.method == "pimc"
                assert last.mark == "blunder" and last.counted_drop >= 6, last
                assert last.played_value - last.best_value == pytest.approx(last.drop, abs=1e-3)
                return
            s.apply(bots[seat].act(s.view(seat)))
    pytest.fail("no deal with the queen of spades to throw away was found")


# -- only the seat's view ---------------------------------------------------------------------------


def _swapped(game: Game, record: Any, index: int, rng: random.Random) -> Any:
    """Return a record of another deck whose first ``index`` actions give the acting seat the very same view."""
    seat = record.actions[index].seat
    before = _state_before(record, index)
    view = before.view(seat)
    obj = record.to_json()
    deck = obj["deck"]
    pairs = [(i, j) for i in range(len(deck)) for j in range(i + 1, len(deck))]
    rng.shuffle(pairs)
    for i, j in pairs:
        other = dict(obj, deck=[*deck], actions=obj["actions"][: index + 1])
        other["deck"][i], other["deck"][j] = deck[j], deck[i]
        try:
            changed = game.load_record(other)
            t = _state_before(changed, index)
        except MustamaijaError:
            continue
        if t.view(seat) == view and t.hands != before.hands:
            return changed
    pytest.fail("no deck gives the seat the same view")


@pytest.mark.parametrize(("name", "players", "seed", "index"),
                         [("mustamaija", 3, 11, 9), ("mustamaija", 2, 4, 6), ("black-maria", 4, 3, 12),
                          ("black-maria", 4, 3, 2)])
def test_the_review_never_depends_on_hidden_cards(name: str, players: int, seed: int, index: int) -> None:
    game = get_game(name)
    record = game.record_of(_heuristic_deal(game, players, seed, actions=index + 1))
    seat = record.actions[index].seat
    first = review(game, record, seats=[seat], **SMALL)
    mine = next(d for d in first.decisions if d.index == index)
    rng = random.Random(seed)
    for _ in range(2):
        other = _swapped(game, record, index, rng)
        assert other.actions == record.actions[: index + 1] and other.deck != record.deck
        again = review(game, other, seats=[seat], **SMALL)
        assert next(d for d in again.decisions if d.index == index) == mine
    # The same holds of one decision judged from the view alone.
    view = _state_before(record, index).view(seat)
    assert review_decision(game, view, record.actions[index], index=index, **SMALL) == mine


def test_the_played_action_is_judged_even_when_the_search_does_not_list_it() -> None:
    game = get_game("mustamaija")
    s = _heuristic_deal(game, 3, 11, actions=0)
    view = s.view(s.to_act)
    listed = {c.actions[0] for c in hint(game, view, method="sampled", iters=2, seed=0).candidates}
    odd = next(a for a in (Lead(s.to_act, 1 << c) for c in range(52) if s.hands[s.to_act] >> c & 1) if a not in listed)
    d = review_decision(game, view, odd, **SMALL)
    assert d.played == odd.to_json() and d.worlds == SMALL["worlds"] and d.mark != "forced"
    assert d.best != (odd.to_json(),) and d.playouts >= 2 * SMALL["worlds"]


# -- results as JSON and errors ------------------------------------------------------------------------


def test_the_review_round_trips_through_json() -> None:
    game = get_game("black-maria")
    r = review(game, game.record_of(_heuristic_deal(game, 4, 3, actions=8)), seats=[0, 2], **SMALL)
    obj = json.loads(json.dumps(r.to_json()))
    assert Review.from_json(obj) == r
    assert set(obj) == {"review", "game", "players", "result_kind", "measure", "thresholds", "iters", "worlds", "seed",
                        "actions", "outcome", "decisions", "seats"}
    assert obj["game"] == "black-maria" and obj["review"] == 1 and [s["seat"] for s in obj["seats"]] == [0, 2]
    for d in obj["decisions"]:
        assert d["seat"] in (0, 2) and DecisionReview.from_json(d).to_json() == d
        assert {"index", "seat", "played", "best", "played_value", "best_value", "drop", "stderr", "counted_drop",
                "mark", "method"} <= set(d)
    for s in obj["seats"]:
        assert set(s) == {"seat", "accuracy", "decisions", "forced", "marks", "series"}
        assert all(isinstance(i, int) and isinstance(v, float) for i, v in s["series"])


def test_bad_requests() -> None:
    game = get_game("mustamaija")
    record = game.record_of(_heuristic_deal(game, 3, 11, actions=4))
    with pytest.raises(MustamaijaError, match="no seat 5"):
        review(game, record, seats=[5])
    with pytest.raises(MustamaijaError, match="at least 1"):
        review(game, record, iters=0)
    obj = record.to_json()
    obj["actions"] = [obj["actions"][1], *obj["actions"]]
    with pytest.raises(RecordError, match="action 0"):
        review(game, obj, **SMALL)
    s = _state_before(record, 1)
    with pytest.raises(MustamaijaError, match="seat"):
        review_decision(game, s.view((s.to_act + 1) % 3), record.actions[1], **SMALL)


# -- the command line ----------------------------------------------------------------------------


def test_cli_review_text_and_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = get_game("mustamaija")
    path = tmp_path / "deal.json"
    path.write_text(game.record_of(_heuristic_deal(game, 3, 11, actions=10)).dumps(), encoding="utf-8")
    assert main(["review", str(path), "--iters", "16", "--worlds", "8"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{path} (") and "Accuracy" in out and "Loss chance after each" in out
    assert all(f"seat {k} " in out for k in range(3))
    assert sum(1 for line in out.splitlines() if any(f"  {m}" in line for m in MARKS)) >= 10
    assert main(["review", str(path), "--json", "--iters", "16", "--worlds", "8", "--seat", "1"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert obj["iters"] == 16 and obj["worlds"] == 8 and {d["seat"] for d in obj["decisions"]} == {1}
    assert [s["seat"] for s in obj["seats"]] == [1]
    assert Review.from_json(obj).to_json() == obj
    assert main(["review", str(tmp_path / "nope.json")]) == 1
    assert "nope.json: cannot read the file" in capsys.readouterr().err
    assert main(["review", str(path), "--seat", "7"]) == 1
    assert "no seat 7" in capsys.readouterr().err


def test_cli_review_of_a_points_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = get_game("black-maria")
    path = tmp_path / "hand.json"
    path.write_text(game.record_of(_heuristic_deal(game, 4, 3, actions=9)).dumps(), encoding="utf-8")
    assert main(["review", str(path), "--iters", "16", "--worlds", "8"]) == 0
    out = capsys.readouterr().out
    assert "expected points" in out and "Expected points after each" in out and "points" in out.splitlines()[4]

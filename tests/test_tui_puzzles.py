"""The endgame puzzles: each one checked against the solver, and the judge's verdicts on right and wrong play."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mustamaija.core.cards import QS, card_name, cards_of
from mustamaija.games.mustamaija import Beat, Lead, State
from mustamaija.games.mustamaija.puzzles import Puzzle, PuzzleGame, load_puzzles, verify
from mustamaija.games.mustamaija.solver import solve

PUZZLES = load_puzzles()


def test_enough_puzzles_of_every_level() -> None:
    assert len(PUZZLES) >= 20
    levels = [p.level for p in PUZZLES]
    assert levels == sorted(levels, key=("easy", "medium", "hard").index)  # Easiest first.
    assert all(levels.count(level) >= 6 for level in ("easy", "medium", "hard"))
    assert len({p.id for p in PUZZLES}) == len(PUZZLES)
    assert len({p.hands for p in PUZZLES}) == len(PUZZLES)


@pytest.mark.parametrize("puzzle", PUZZLES, ids=[p.id for p in PUZZLES])
def test_puzzle_is_sound(puzzle: Puzzle) -> None:
    t = time.perf_counter()
    assert verify(puzzle) == []
    assert time.perf_counter() - t < 5  # Well under a second on an ordinary machine.
    start = puzzle.start()
    result = solve(start)
    assert result.attacker_safe
    # Not trivial: there is a wrong first lead, and at most two right ones.
    leads = list(start.legal_leads())
    assert 1 <= len(puzzle.solution) <= 2 < len(leads)
    # A second check of the solution set: every safe lead the solver lists (one per class of
    # equivalent leads) is among the stored ones.
    assert set(result.safe_leads) <= set(puzzle.solution)


def test_some_puzzles_have_three_players() -> None:
    three = [p for p in PUZZLES if len(p.hands) == 3]
    assert len(three) >= 6 and {p.level for p in three} == {"easy", "medium", "hard"}
    for p in three:  # Every seat holds cards, and the solver's line ends with you out, not at the turn limit.
        assert all(p.hands) and PuzzleGame(p).judge.solver.n == 3


@pytest.mark.parametrize("players", [2, 3])
def test_grading_follows_the_solver_work(players: int) -> None:
    # The solver's work is only comparable between positions of the same number of players.
    work = {level: [p.nodes for p in PUZZLES if p.level == level and len(p.hands) == players]
            for level in ("easy", "medium", "hard")}
    assert max(work["easy"]) < max(work["hard"])
    assert sum(work["easy"]) / len(work["easy"]) < sum(work["medium"]) / len(work["medium"]) < \
        sum(work["hard"]) / len(work["hard"])


def play_safely(game: PuzzleGame) -> None:
    """Play the puzzle out with moves the judge says are safe."""
    judge = game.judge
    while game.status == "solving":
        st = game.state
        if st.phase == 0:
            move = judge.safe_leads(st)[0]
            verdict = game.play(move)
        else:
            beat = judge.best_defence(st)
            assert beat is not None
            verdict = game.play(beat)
        assert verdict.ok, verdict.message


@pytest.mark.parametrize("puzzle", PUZZLES[::4], ids=[p.id for p in PUZZLES[::4]])
def test_solving_is_accepted(puzzle: Puzzle) -> None:
    game = PuzzleGame(puzzle)
    first = Lead(0, puzzle.solution[0])
    verdict = game.play(first)
    assert verdict.ok and verdict.message.startswith("✓")
    play_safely(game)
    assert game.status == "solved"
    assert game.state.is_over or not game.state.hands[0]
    assert game.state.loser != 0


@pytest.mark.parametrize("puzzle", PUZZLES[1::4], ids=[p.id for p in PUZZLES[1::4]])
def test_a_wrong_first_lead_is_refuted(puzzle: Puzzle) -> None:
    game = PuzzleGame(puzzle)
    start = puzzle.start()
    wrong = next(lead for lead in start.legal_leads() if lead.cards not in puzzle.solution)
    verdict = game.play(wrong)
    assert not verdict.ok and game.status == "failed"
    assert verdict.message.startswith("✗ That first lead loses")
    assert verdict.refutation[0] == wrong and isinstance(verdict.refutation[1], Beat)
    # The refutation is a legal line that ends with you holding Q♠.
    st = start.copy()
    for action in verdict.refutation:
        st.play(action)
    assert st.finished and st.loser == 0 and st.hands[0] >> QS & 1
    with pytest.raises(Exception, match="puzzle is over"):
        game.play(wrong)
    game.reset()
    assert game.status == "solving" and game.state == start


def test_solution_text_names_the_safe_leads() -> None:
    game = PuzzleGame(PUZZLES[0])
    text = game.solution_text()
    names = [" ".join(card_name(c) for c in cards_of(m)) for m in PUZZLES[0].solution]
    assert text.startswith("Safe first lead") and "Solver's line: You lead" in text and names


def test_position_json_is_a_formats_position() -> None:
    p = PUZZLES[3]
    obj = p.position_json()
    assert obj["format"] == "mustamaija-position/1" and obj["attacker"] == 0
    hands = [[c for c in h] for h in obj["hands"]]
    st = State.from_position(hands, obj["attacker"], None if obj["trump_suit"] is None else "SHDC".index(obj["trump_suit"]))
    assert st.hands == list(p.hands)


def run_cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    return subprocess.run([sys.executable, "-m", "mustamaija", "puzzle", *args], cwd=cwd, capture_output=True,
                          text=True, encoding="utf-8", env=env, timeout=120)


def test_cli_checks_an_answer(tmp_path: Path) -> None:
    p = PUZZLES[0]
    right = " ".join(card_name(c) for c in cards_of(p.solution[0]))
    ok = run_cli(p.id, "--answer", right, cwd=tmp_path)
    assert ok.returncode == 0 and ok.stdout.startswith("✓ Correct"), ok.stdout + ok.stderr
    wrong_lead = next(lead for lead in p.start().legal_leads() if lead.cards not in p.solution)
    wrong = " ".join(card_name(c) for c in cards_of(wrong_lead.cards))
    bad = run_cli(p.id, "--answer", wrong, cwd=tmp_path)
    assert bad.returncode == 1 and "✗ That first lead loses" in bad.stdout and "Eero" in bad.stdout
    listed = run_cli("--list", cwd=tmp_path)
    assert listed.returncode == 0 and len(listed.stdout.splitlines()) == len(PUZZLES)
    missing = run_cli("99", "--answer", "2C", cwd=tmp_path)
    assert missing.returncode == 2 and "no puzzle '99'" in missing.stderr


def test_cli_play_refuses_without_a_terminal(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}

    def play(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "mustamaija", "play", *args], cwd=tmp_path, capture_output=True,
                              text=True, encoding="utf-8", env=env, timeout=120, stdin=subprocess.DEVNULL)

    r = play("--players", "3", "--bots", "easy")
    assert r.returncode == 2 and "play needs a terminal" in r.stderr
    r = play("--players", "9")
    assert r.returncode == 2 and "V1: 9 players cannot play with hand size 5" in r.stderr
    r = play("--players", "3", "--bots", "nobody")
    assert r.returncode == 2 and "unknown Mustamaija bot 'nobody'" in r.stderr
    r = play("--rule", "hand_size=4")
    assert r.returncode == 2 and "bad value 4 for rule 'hand_size'" in r.stderr
    bad = run_cli("01", "--answer", "2C 2D", cwd=tmp_path)
    assert bad.returncode == 2 and "M10: you do not hold 2D" in bad.stderr

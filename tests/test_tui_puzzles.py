"""The endgame puzzles, made and found in play: each one checked against the solver, the judge's verdicts on right
and wrong play, and the streak the terminal keeps."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import OptionList

from mustamaija.core.cards import QS, card_name, cards_of
from mustamaija.core.errors import FormatError
from mustamaija.games.mustamaija import Beat, Lead, State
from mustamaija.games.mustamaija.puzzles import Puzzle, PuzzleGame, load_puzzles, verify
from mustamaija.games.mustamaija.puzzles.progress import Progress, default_path
from mustamaija.games.mustamaija.puzzles.screen import PuzzleScreen
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
    # No timing here (tests check behaviour): the solver's speed is measured by `mustamaija bench`.
    assert verify(puzzle) == []
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


# -- puzzles from real play, and the shipped files -----------------------------------------------------------------


def test_puzzles_from_play_are_shipped_beside_the_made_ones() -> None:
    made = [p for p in PUZZLES if p.source == "made"]
    played = [p for p in PUZZLES if p.source == "play"]
    assert len(made) == 30 and len(played) >= 30
    assert {p.level for p in played} == {"easy", "medium", "hard"}
    assert all(p.id.startswith("m") and len(p.solution) == 1 for p in played)  # Exactly one move wins.
    # Where each came from: the bots, the players, the tournament's deal, the turn and who led.
    for p in played:
        assert " vs " in p.origin and " players, deal " in p.origin and " to lead" in p.origin, p.origin
    bots = " ".join(p.origin for p in played)
    assert all(name in bots for name in ("heuristic", "pimc", "random"))
    assert {int(p.origin.split(" players")[0].rsplit(" ", 1)[1]) for p in played} == {2, 3}
    assert len({p.key for p in PUZZLES}) == len(PUZZLES)


def test_the_first_files_without_a_source_still_load() -> None:
    from mustamaija.games.mustamaija.puzzles import _read
    from mustamaija.games.mustamaija.puzzles.maker import dumps

    text = dumps(PUZZLES[:3])
    old = json.loads(text)
    for entry in old["puzzles"]:
        del entry["source"], entry["origin"]
    loaded = load_puzzles(json.dumps(old))
    assert [p.source for p in loaded] == ["made"] * 3 and [p.origin for p in loaded] == [""] * 3
    assert [p.key for p in loaded] == [p.key for p in PUZZLES[:3]]
    assert _read(text) == PUZZLES[:3]  # And a file round-trips.
    old["puzzles"][0]["source"] = "dreamt"
    with pytest.raises(FormatError, match="source must be one of made, play"):
        load_puzzles(json.dumps(old))
    with pytest.raises(FormatError, match="not a puzzle file"):
        load_puzzles("[1, 2]")


def test_verify_asks_a_puzzle_from_play_for_one_winning_move_and_its_origin() -> None:
    made_two = next(p for p in PUZZLES if len(p.solution) == 2)
    assert verify(dataclasses.replace(made_two, source="play", origin="somewhere")) == [
        f"{made_two.id}: a puzzle from play has one safe first lead and names the deal it came from"]
    played = next(p for p in PUZZLES if p.source == "play")
    assert verify(dataclasses.replace(played, origin=""))
    assert verify(dataclasses.replace(played, source="found"))[0].endswith("unknown source 'found'")


# -- the streak in the terminal ---------------------------------------------------------------------------------------


def test_progress_is_kept_in_the_data_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MUSTAMAIJA_DATA_DIR", str(tmp_path / "data"))
    assert default_path() == tmp_path / "data" / "puzzles-progress.json"
    progress = Progress.load()
    assert (progress.streak, progress.best, progress.marks, progress.error) == (0, 0, {}, "")
    progress.finish("k1", solved=True)
    again = Progress.load()
    assert again == progress and again.marks == {"k1": "solved"} and again.streak == 1
    # A broken file is a fresh start, said once; nothing in it can make the streak negative or odd.
    default_path().write_text("{not json", encoding="utf-8")
    broken = Progress.load()
    assert broken.streak == 0 and "not understood" in broken.error
    default_path().write_text(json.dumps({"format": "mustamaija-puzzle-progress/1", "streak": -3, "best": True,
                                          "marks": {"a": "solved", "b": "cheated", "c": 7}}), encoding="utf-8")
    odd = Progress.load()
    assert (odd.streak, odd.best, odd.marks) == (0, 0, {"a": "solved"})
    # A place that cannot be written: the puzzles go on, and the screen says why the streak is not kept.
    (tmp_path / "file").write_text("", encoding="utf-8")
    stuck = Progress(path=tmp_path / "file" / "progress.json")
    stuck.finish("k", solved=True)
    assert stuck.streak == 1 and "cannot save the streak" in stuck.error


async def _solve_by_typing(pilot: Any, screen: PuzzleScreen) -> None:
    judge = screen.game.judge
    while screen.game.status == "solving":
        st = screen.game.state
        if st.phase == 0:
            text = " ".join(card_name(c) for c in cards_of(judge.safe_leads(st)[0].cards))
        else:
            beat = judge.best_defence(st)
            assert beat is not None
            text = " ".join(f"{card_name(a)}:{card_name(b)}" for a, b in beat.pairs) or "take"
        await _type(pilot, text)


async def _type(pilot: Any, text: str) -> None:
    await pilot.press(*[{" ": "space", ":": "colon"}.get(ch, ch) for ch in text], "enter")


def test_the_terminal_keeps_a_streak_and_shows_the_solution(tmp_path: Path) -> None:
    from mustamaija.games.mustamaija.puzzles.screen import PuzzleMenu
    from mustamaija.tui.app import TableApp

    path = tmp_path / "progress.json"
    puzzles = PUZZLES[:4]

    async def go() -> None:
        menu = PuzzleMenu(puzzles, Progress.load(path))
        app = TableApp(screens=[menu])
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause(0.1)
            assert menu.sub_title.startswith("streak 0 · best 0 · solved 0 of 4")
            await pilot.press("n")  # The first puzzle not tried yet.
            await pilot.pause(0.1)
            screen = app.screen
            assert isinstance(screen, PuzzleScreen) and screen.game.puzzle.id == puzzles[0].id
            await _solve_by_typing(pilot, screen)
            assert screen.game.status == "solved" and screen.last_message.endswith("Streak 1 (best 1).")
            log = screen.query_one("#log").lines_written  # type: ignore[attr-defined]
            assert log[-len(screen.game.solution_line()) - 2].startswith("Safe first lead")
            assert "Solver's line:" in log and "streak 1" in screen.sub_title
            assert json.loads(path.read_text(encoding="utf-8"))["streak"] == 1

            await pilot.press("f4")  # The next one not tried: a wrong first lead ends the streak.
            await pilot.pause(0.1)
            screen = app.screen
            assert isinstance(screen, PuzzleScreen) and screen.game.puzzle.id == puzzles[1].id
            wrong = next(lead for lead in puzzles[1].start().legal_leads() if lead.cards not in puzzles[1].solution)
            await _type(pilot, " ".join(card_name(c) for c in cards_of(wrong.cards)))
            assert screen.game.status == "failed" and "The streak is back to 0 (best 1)." in screen.last_message
            log = screen.query_one("#log").lines_written  # type: ignore[attr-defined]
            assert log.index("Refutation:") < log.index("Solver's line:")
            assert (menu.progress.streak, menu.progress.best) == (0, 1)
            # Solved at a later try: marked, but the streak stays.
            await _type(pilot, "r")
            await _solve_by_typing(pilot, screen)
            assert "Not your first try at this puzzle: the streak stays at 0." in screen.last_message

            await pilot.press("f4")  # The solution asked for at the first try counts as a miss.
            await pilot.pause(0.1)
            screen = app.screen
            assert isinstance(screen, PuzzleScreen) and screen.game.puzzle.id == puzzles[2].id
            await pilot.press("f3")
            await pilot.pause(0.1)
            assert menu.progress.mark(puzzles[2].key) == "failed"
            await pilot.press("escape")
            await pilot.pause(0.1)
            await pilot.press("escape")  # Back to the list: its marks and the streak.
            await pilot.pause(0.1)
            assert app.screen is menu and menu.sub_title.startswith("streak 0 · best 1 · solved 2 of 4")
            options = menu.query_one("#puzzles", OptionList)
            marks = [str(options.get_option_at_index(i).prompt)[0] for i in range(4)]
            assert marks == ["✓", "↻", "✗", " "]

    asyncio.run(go())
    kept = Progress.load(path)
    assert (kept.streak, kept.best) == (0, 1)
    assert kept.marks == {puzzles[0].key: "solved", puzzles[1].key: "later", puzzles[2].key: "failed"}

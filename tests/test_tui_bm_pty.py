"""The real ``mustamaija play --game black-maria`` in a pseudo-terminal: a whole hand by keyboard, and Ctrl-C."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from mustamaija.core.cards import card_symbol, cards_of
from mustamaija.games.black_maria.record import Record
from mustamaija.tui.bm_session import BmConfig, BmGame
from test_tui_pty import Terminal  # The pseudo-terminal of the Mustamaija game's test.

pytestmark = pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs pseudo-terminals")

ARGS = ["play", "--game", "black-maria", "--players", "3", "--bots", "heuristic,random", "--seed", "5", "--hands", "1",
        "--pace", "0"]


def wait_exit(term: Terminal, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while term.proc.poll() is None and time.monotonic() < deadline:
        term.read(0.2)
    term.read(0.5)


def test_play_a_complete_hand_in_a_terminal(tmp_path: Path) -> None:
    term = Terminal([*ARGS, "--save-dir", "hands"], cwd=tmp_path)
    try:
        assert term.wait_for("Your pass", 30), term.output[-2000:]
        # The screen shows the seeded deal's hand before anything was passed.
        game = BmGame(BmConfig(players=3, bots=("heuristic", "random"), seed=5, hands=1, target_score=None))
        screen = term.output.decode("utf-8", "replace")
        assert all(card_symbol(c) in screen for c in cards_of(game.state.hands[0]))
        # A pass typed in one burst arrives whole (no key is taken for a shortcut), then Enter plays the
        # card under the cursor, which is always a legal one, until the hand is over; Enter then leaves.
        term.press(b"hint\r")
        assert term.wait_for("Enter: pass", 20), term.output[-2000:]
        term.press(b"\r")
        assert term.wait_for("All have passed", 30), term.output[-2000:]
        deadline = time.monotonic() + 90
        while term.proc.poll() is None and time.monotonic() < deadline:
            term.press(b"\r")
            term.read(0.15)
        term.read(1)
        assert term.proc.poll() == 0, term.output[-2000:]
    finally:
        term.close()
    assert "Game over after 1 hand(s)" in term.output.decode("utf-8", "replace")
    saved = list((tmp_path / "hands").glob("*.json"))
    assert len(saved) == 1
    state = Record.load(saved[0]).replay()
    assert state.is_over and sum(state.points()) == 43  # Three players: only 2♠ is taken out.


def test_a_typed_pass_and_ctrl_c_saves(tmp_path: Path) -> None:
    game = BmGame(BmConfig(players=3, bots=("heuristic", "random"), seed=5, hands=1, target_score=None))
    while game.bot_to_act:
        game.apply_bot(game.bot_job().run())
    hand = cards_of(game.view().hand)
    typed = " ".join(card_symbol(c) for c in hand[-4:])
    term = Terminal(ARGS, cwd=tmp_path)
    try:
        assert term.wait_for("Your pass", 30), term.output[-2000:]
        term.press(typed.encode() + b"\r")  # One write: the whole pass and Enter.
        assert term.wait_for("All have passed", 30), term.output[-2000:]
        term.press(b"\x03")
        wait_exit(term, 20)
        assert term.proc.poll() == 0
    finally:
        term.close()
    assert b"Game saved to black-maria-autosave.json" in term.output
    record = Record.load(tmp_path / "black-maria-autosave.json")
    assert record.extra["match"]["seed"] == 5
    passed = record.replay().view(0).passed
    assert passed == sum(1 << c for c in hand[-4:]), (typed, cards_of(passed))

"""The real ``mustamaija play`` in a pseudo-terminal, for every game: a whole deal by keyboard, a burst of keys, Ctrl-C."""

from __future__ import annotations

import fcntl
import os
import select
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from mustamaija.core.cards import card_name, card_symbol, cards_of
from mustamaija.core.registry import get_game
from mustamaija.tui.session import GameSession, MatchConfig, bot_actions

pytestmark = pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs pseudo-terminals")


class Terminal:
    """A child process on a pseudo-terminal of 120 x 40, with its output collected."""

    def __init__(self, args: list[str], cwd: Path) -> None:
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
        env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "120", "LINES": "40", "PYTHONIOENCODING": "utf-8"}
        env.pop("NO_COLOR", None)
        self.proc = subprocess.Popen([sys.executable, "-m", "mustamaija", *args], stdin=slave, stdout=slave,
                                     stderr=slave, env=env, cwd=cwd, start_new_session=True)
        os.close(slave)
        self.master = master
        self.output = b""

    def read(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        while True:
            left = end - time.monotonic()
            if left <= 0:
                return
            ready, _, _ = select.select([self.master], [], [], left)
            if not ready:
                return
            try:
                data = os.read(self.master, 65536)
            except OSError:
                return
            if not data:
                return
            self.output += data

    def wait_for(self, text: str, seconds: float) -> bool:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            if text.encode() in self.output:
                return True
            self.read(0.1)
        return text.encode() in self.output

    def press(self, keys: bytes) -> None:
        os.write(self.master, keys)

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(timeout=10)
        os.close(self.master)


def _lead_two(s: GameSession) -> str:
    """Two cards of one suit, to lead."""
    hand = s.state.hands[s.human]
    pair = next(cards for cards in (cards_of(hand & (0x1FFF << 13 * suit)) for suit in range(4)) if len(cards) >= 2)
    return " ".join(card_name(c) for c in pair[:2])


def _pass_last(s: GameSession) -> str:
    """The last cards of the hand, as many as the pass needs."""
    return " ".join(card_symbol(c) for c in cards_of(s.state.hands[s.human])[-s.state.pass_count:])


@dataclass(frozen=True)
class Case:
    """A game's command line, its settings as a session, and how the person types a move of several cards."""

    game: str
    args: list[str]
    config: dict[str, Any]
    typed: Callable[[GameSession], str]
    opening: list[tuple[bytes, str]] = field(default_factory=list)
    """Keys and what to wait for after each, before Enter alone can play on."""

    def session(self) -> GameSession:
        s = GameSession(MatchConfig(self.game, **self.config))
        while s.bot_to_act:
            job = s.bot_job()
            s.apply_bots(job, bot_actions(job, chain=True))
        return s

    def record(self, path: Path) -> Any:
        return get_game(self.game).load_record(path.read_text(encoding="utf-8"))


CASES = [
    Case("mustamaija", ["play", "--players", "3", "--bots", "easy", "--seed", "24", "--deals", "1"],
         {"players": 3, "bots": ("easy",), "seed": 24}, _lead_two),
    Case("black-maria", ["play", "--game", "black-maria", "--players", "3", "--bots", "heuristic,random", "--seed",
                         "5", "--hands", "1"],
         {"players": 3, "bots": ("heuristic", "random"), "seed": 5}, _pass_last,
         [(b"hint\r", "Hint · from"), (b"\r", "Enter: pass"), (b"\r", "All have passed")]),
]


@pytest.mark.parametrize("case", CASES, ids=[c.game for c in CASES])
def test_play_a_complete_deal_in_a_terminal(case: Case, tmp_path: Path) -> None:
    s = case.session()
    term = Terminal([*case.args, "--pace", "0", "--save-dir", "deals"], cwd=tmp_path)
    try:
        assert term.wait_for(s.status()[:12], 30), term.output[-2000:]  # Your turn: the bots have moved.
        # The screen shows your hand: the seeded deal's, before you have acted.
        screen = term.output.decode("utf-8", "replace")
        assert all(card_symbol(c) in screen for c in cards_of(s.state.hands[0]))
        assert s.game.title in screen and "bot 1 · " in screen
        for keys, then in case.opening:
            term.press(keys)
            assert term.wait_for(then, 30), term.output[-2000:]
        # Enter makes the move the hand shows (the cursor's card, or picking up everything); at the end
        # of the deal it closes the result, and since the match is one deal long, leaves.
        deadline = time.monotonic() + 90
        while term.proc.poll() is None and time.monotonic() < deadline:
            term.press(b"\r")
            term.read(0.1)
        term.read(1)
        assert term.proc.poll() == 0, term.output[-2000:]
    finally:
        term.close()
    c = s.controller
    assert f"{c.words.match.capitalize()} over after 1 {c.words.deal}(s): " in term.output.decode("utf-8", "replace")
    saved = list((tmp_path / "deals").glob("*.json"))
    assert len(saved) == 1
    state = case.record(saved[0]).replay()
    assert state.is_over and any(a.seat == 0 for a in state.actions())


@pytest.mark.parametrize("case", CASES, ids=[c.game for c in CASES])
def test_a_move_typed_in_one_burst_is_made_whole_and_ctrl_c_saves(case: Case, tmp_path: Path) -> None:
    # Every key of a quickly typed move reaches the command line: none is taken for a shortcut.
    s = case.session()
    status = s.status()
    typed = case.typed(s)
    told = s.submit(typed)[0].strip()  # What the log says of the move, as the screen should tell it.
    autosave = f"{s.game.name}-autosave.json"
    term = Terminal([*case.args, "--pace", "0"], cwd=tmp_path)
    try:
        assert term.wait_for(status[:12], 30), term.output[-2000:]
        term.press(typed.encode() + b"\r")  # One write: the whole move and Enter.
        assert term.wait_for(told[:24], 20), (told, term.output[-3000:])
        term.press(b"\x03")  # Ctrl-C saves and leaves.
        deadline = time.monotonic() + 20
        while term.proc.poll() is None and time.monotonic() < deadline:
            term.read(0.2)
        assert term.proc.poll() == 0
    finally:
        term.close()
    assert f"Game saved to {autosave}. Resume with: mustamaija play --load {autosave}".encode() in term.output
    record = case.record(tmp_path / autosave)
    assert record.extra["match"]["seed"] == s.config.seed
    mine = next(a for a in record.actions if a.seat == s.human)
    assert mine == next(a for a in s.state.actions() if a.seat == s.human), (typed, mine)


def test_ctrl_c_saves_and_load_resumes(tmp_path: Path) -> None:
    term = Terminal(["play", "--players", "2", "--bots", "medium", "--seed", "3", "--pace", "0"], cwd=tmp_path)
    try:
        assert term.wait_for("Enter: ", 30), term.output[-2000:]  # Your turn: the bots have moved.
        term.press(b"\x03")  # Ctrl-C
        deadline = time.monotonic() + 20
        while term.proc.poll() is None and time.monotonic() < deadline:
            term.read(0.2)
        term.read(0.5)
        assert term.proc.poll() == 0
    finally:
        term.close()
    assert b"Game saved to mustamaija-autosave.json" in term.output
    saved = tmp_path / "mustamaija-autosave.json"
    record = get_game("mustamaija").load_record(saved.read_text(encoding="utf-8"))
    assert record.extra["match"]["seed"] == 3
    term = Terminal(["play", "--load", "mustamaija-autosave.json", "--pace", "0"], cwd=tmp_path)
    try:
        assert term.wait_for("Enter: ", 30), term.output[-2000:]
        term.press(b"\x11")  # Ctrl-Q leaves too, saving again.
        deadline = time.monotonic() + 20
        while term.proc.poll() is None and time.monotonic() < deadline:
            term.read(0.2)
        assert term.proc.poll() == 0
    finally:
        term.close()
    again = get_game("mustamaija").load_record(saved.read_text(encoding="utf-8"))
    assert again.replay() == record.replay()

"""The real ``mustamaija play`` in a pseudo-terminal: a complete deal against bots, played by keyboard."""

from __future__ import annotations

import fcntl
import os
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

from mustamaija.core.cards import card_name, card_symbol, cards_of
from mustamaija.games.mustamaija import Lead
from mustamaija.games.mustamaija.record import Record
from mustamaija.tui.session import GameSession, MatchConfig

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


def test_play_a_complete_deal_in_a_terminal(tmp_path: Path) -> None:
    term = Terminal(["play", "--players", "3", "--bots", "easy", "--seed", "24", "--deals", "1", "--pace", "0",
                     "--save-dir", "deals"], cwd=tmp_path)
    try:
        assert term.wait_for("Your hand", 30), term.output[-2000:]
        assert term.wait_for("Enter: lead", 30)  # It is your lead, and the prompt says what Enter does.
        # The screen shows your hand: the seeded deal's, before you have acted.
        hand = GameSession(MatchConfig(players=3, bots=("easy",), seed=24, deals=1)).state.hands[0]
        screen = term.output.decode("utf-8", "replace")
        assert all(card_symbol(c) in screen for c in cards_of(hand)), [card_symbol(c) for c in cards_of(hand)]
        # Enter leads the card under the cursor, or picks up everything when defending; at the end of the
        # deal it closes the result, and since the match is one deal long, leaves.
        deadline = time.monotonic() + 90
        while term.proc.poll() is None and time.monotonic() < deadline:
            term.press(b"\r")
            term.read(0.1)
        term.read(1)
        assert term.proc.poll() == 0, term.output[-2000:]
    finally:
        term.close()
    text = term.output.decode("utf-8", "replace")
    assert "Match over after 1 deal(s). Losses:" in text
    saved = list((tmp_path / "deals").glob("*.json"))
    assert len(saved) == 1
    state = Record.load(saved[0]).replay()
    assert state.finished and any(a.seat == 0 for a in state.actions())


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
    record = Record.load(tmp_path / "mustamaija-autosave.json")
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
    assert Record.load(tmp_path / "mustamaija-autosave.json").replay() == record.replay()


def test_a_move_typed_in_one_burst_is_made_whole(tmp_path: Path) -> None:
    # Every key of a quickly typed move reaches the command line: none is taken for a shortcut.
    session = GameSession(MatchConfig(players=2, bots=("easy",), seed=3, deals=1))
    assert session.human_to_act and session.state.phase == 0  # You lead first in this deal.
    hand = session.state.hands[0]
    pair = next(cards for cards in (cards_of(hand & (0x1FFF << 13 * suit)) for suit in range(4)) if len(cards) >= 2)
    typed = " ".join(card_name(c) for c in pair[:2])
    term = Terminal(["play", "--players", "2", "--bots", "easy", "--seed", "3", "--deals", "1", "--pace", "0"],
                    cwd=tmp_path)
    try:
        assert term.wait_for("Enter: lead", 30), term.output[-2000:]
        term.press(typed.encode() + b"\r")  # One write: the whole move and Enter.
        assert term.wait_for(f"You lead {card_symbol(pair[0])} {card_symbol(pair[1])}", 20), term.output[-3000:]
        term.press(b"\x03")
        deadline = time.monotonic() + 20
        while term.proc.poll() is None and time.monotonic() < deadline:
            term.read(0.2)
        assert term.proc.poll() == 0
    finally:
        term.close()
    first = Record.load(tmp_path / "mustamaija-autosave.json").actions[0]
    assert first == Lead(0, (1 << pair[0]) | (1 << pair[1])), (typed, first)

"""Helpers for tests and tools that need a real server: a ``mustamaija serve`` process on a free port.

    with ServerProcess(db_path) as server:
        urllib.request.urlopen(server.url + "api/health")

The process is started with the test settings (bots play at once) unless
told otherwise; :meth:`ServerProcess.kill` sends SIGKILL, as in the restart
test.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from types import TracebackType

__all__ = ["ServerProcess"]

_URL = re.compile(r"served at (http://\S+/)")


class ServerProcess:
    """A ``python -m mustamaija serve`` subprocess on a free port of 127.0.0.1, with a SQLite file or a database URL."""

    def __init__(self, db_path: str | os.PathLike[str], *, bot_pace: float = 0.0, deal_pause: float = 0.0,
                 takeover_after: float = 60.0, extra: tuple[str, ...] = (), timeout: float = 30.0) -> None:
        text = str(db_path)
        self.db_url = text if "://" in text else f"sqlite:///{Path(db_path).resolve()}"
        self.args = [sys.executable, "-m", "mustamaija", "serve", "--port", "0", "--db", self.db_url,
                     "--bot-pace", str(bot_pace), "--deal-pause", str(deal_pause),
                     "--takeover-after", str(takeover_after), "--no-browser", *extra]
        self.timeout = timeout
        self.proc: subprocess.Popen[str] | None = None
        self.url = ""
        self.output: list[str] = []

    def start(self) -> ServerProcess:
        """Start the server and wait until it prints its URL; a failure raises ``RuntimeError`` with its output."""
        self.proc = subprocess.Popen(self.args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                     env={**os.environ, "PYTHONUNBUFFERED": "1"})
        assert self.proc.stdout is not None
        deadline = time.monotonic() + self.timeout
        found = threading.Event()

        def read() -> None:
            assert self.proc is not None and self.proc.stdout is not None
            for line in self.proc.stdout:
                self.output.append(line)
                match = _URL.search(line)
                if match and not found.is_set():
                    self.url = match.group(1)
                    found.set()

        threading.Thread(target=read, daemon=True).start()
        while not found.wait(0.05):
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError("mustamaija serve did not start:\n" + "".join(self.output))
        return self

    def kill(self) -> None:
        """Kill the server at once with SIGKILL (no clean-up of any kind)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        """Stop the server politely (SIGTERM), then by force if it lingers."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

    def __enter__(self) -> ServerProcess:
        return self.start()

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None, tb: TracebackType | None) -> None:
        self.stop()

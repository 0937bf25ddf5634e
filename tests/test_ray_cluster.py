"""A tournament joins a real ``ray start --head`` cluster on loopback, by address and by ``ray://``, with token auth.

The head runs in a temporary directory of its own, with a token of its own
(``RAY_AUTH_TOKEN_PATH``), and is stopped by its processes, never by ``ray
stop`` (which would stop every Ray instance of the machine, other tests'
too). The results must be the local backend's.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

RAY = Path(sys.executable).with_name("ray")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _processes_of(folder: str) -> list[int]:
    """Return the processes whose command line names ``folder`` (the head's daemons)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if folder in (entry / "cmdline").read_bytes().decode("utf-8", "replace"):
                    found.append(int(entry.name))
            except OSError:
                continue
    return [pid for pid in found if pid != os.getpid()]


@pytest.fixture(scope="module")
def head() -> Iterator[dict[str, Any]]:
    # A short folder: Ray's sockets live under it, and socket paths are limited to about 100 bytes.
    folder = tempfile.mkdtemp(prefix="mmray", dir="/tmp")
    token = Path(folder) / "token"
    token.write_text(secrets.token_hex(32))
    env = {**os.environ, "RAY_AUTH_TOKEN_PATH": str(token), "RAY_USAGE_STATS_ENABLED": "0"}
    env.pop("RAY_AUTH_MODE", None)
    env.pop("RAY_ADDRESS", None)
    port, client_port = _free_port(), _free_port()
    started = subprocess.run([str(RAY), "start", "--head", f"--port={port}", "--node-ip-address=127.0.0.1",
                              f"--ray-client-server-port={client_port}", "--num-cpus=2", "--include-dashboard=false",
                              "--disable-usage-stats", f"--temp-dir={folder}"],
                             capture_output=True, text=True, env=env, timeout=120)
    try:
        assert started.returncode == 0, started.stdout + started.stderr
        yield {"address": f"127.0.0.1:{port}", "client": f"ray://127.0.0.1:{client_port}", "env": env}
    finally:
        for sig in (signal.SIGTERM, signal.SIGKILL):
            for pid in _processes_of(folder):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, sig)
            time.sleep(1.0)
        shutil.rmtree(folder, ignore_errors=True)


def _tournament(extra: list[str], env: dict[str, str], cwd: Path) -> dict[str, Any]:
    common = ["--players", "3", "--bots", "heuristic,random,random", "--deals", "4", "--seed", "7", "--json"]
    out = subprocess.run([sys.executable, "-m", "mustamaija", "tournament", *common, *extra], capture_output=True,
                         text=True, env=env, cwd=cwd, timeout=240)
    assert out.returncode == 0, out.stderr[-3000:]
    obj: dict[str, Any] = json.loads(out.stdout)
    obj.pop("seconds")
    for row in [*obj["bots"].values(), *obj["positions"]]:
        row.pop("us_per_decision")
    return obj


def test_a_tournament_on_a_real_cluster_gives_the_local_results(head: dict[str, Any], tmp_path: Path) -> None:
    local = _tournament([], head["env"], tmp_path)
    assert local["games"] == 12
    # By the head's address: the driver sends the cluster's token without being told to (RAY_AUTH_MODE unset).
    assert _tournament(["--backend", "ray", "--address", head["address"]], head["env"], tmp_path) == local
    # Through the Ray client (the ray extra installs it).
    assert _tournament(["--backend", "ray", "--address", head["client"]], head["env"], tmp_path) == local


def test_without_an_address_a_local_instance_is_started_even_beside_a_recorded_cluster(
        head: dict[str, Any], tmp_path: Path) -> None:
    # RAY_ADDRESS names the running head, which a bare ray.init() would join (and then refuse num_cpus).
    env = {**head["env"], "RAY_ADDRESS": head["address"]}
    assert _tournament(["--backend", "ray", "--jobs", "2"], env, tmp_path) == _tournament([], env, tmp_path)


def test_a_ray_client_connection_is_tried_again_when_the_head_fails_to_start_its_server(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # A busy head once failed to start the client's server ("Starting Ray client server failed"); a moment later
    # it works. The tournament tries again instead of losing the run; a plain address is not retried.
    from mustamaija.tournament import backends

    calls: list[str] = []

    class FakeRay:
        def init(self, address: str, **options: object) -> None:
            calls.append(address)
            if len(calls) == 1:
                raise ConnectionAbortedError("Initialization failure from server:\nRuntimeError: Starting Ray client "
                                             "server failed.")

        def shutdown(self) -> None:
            calls.append("shutdown")

    monkeypatch.setattr(backends.time, "sleep", lambda s: None)
    backends._init_ray(FakeRay(), "ray://127.0.0.1:10001", {})
    assert calls == ["ray://127.0.0.1:10001", "shutdown", "ray://127.0.0.1:10001"]
    calls.clear()
    with pytest.raises(ConnectionAbortedError):
        backends._init_ray(FakeRay(), "127.0.0.1:6379", {})
    assert calls == ["127.0.0.1:6379"]

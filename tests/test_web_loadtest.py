"""``mustamaija loadtest`` for real but small: its own server, three clients for two seconds; a remote URL refused."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

pytest.importorskip("websockets")
pytest.importorskip("uvicorn")


def loadtest(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mustamaija", "loadtest", *args], capture_output=True, text=True,
                          timeout=timeout, check=False)


def test_small_run_reports_accepted_actions_and_latencies() -> None:
    done = loadtest("--clients", "3", "--seconds", "2", "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["own_server"] is True
    assert report["url"].startswith("http://127.0.0.1:")
    assert isinstance(report["server_pid"], int)
    assert len(report["loadavg"]) == 3
    [level] = report["levels"]
    assert set(level) >= {"clients", "tables", "seconds", "accepted", "actions_per_s", "latency_ms", "errors",
                          "error_codes", "server_rss_mb", "loadavg"}
    assert level["clients"] == 3 and level["tables"] == 3
    assert level["seconds"] >= 2
    assert level["accepted"] > 0 and level["actions_per_s"] > 0
    latency = level["latency_ms"]
    assert 0 < latency["p50"] <= latency["p95"] <= latency["p99"] <= latency["max"]
    assert level["errors"] == sum(level["error_codes"].values())
    assert level["server_rss_mb"] is None or level["server_rss_mb"] > 0
    if sys.platform.startswith("linux"):
        assert level["server_rss_mb"] > 0


@pytest.mark.parametrize("url", ["http://example.com:8000/", "http://10.0.0.1:8000/", "http://192.168.1.2/",
                                 "http://[2001:db8::1]:8000/", "ftp://127.0.0.1/"])
def test_a_url_off_this_machine_is_refused(url: str) -> None:
    done = loadtest("--url", url, "--clients", "1", "--seconds", "1", timeout=30)
    assert done.returncode == 2
    assert "--url" in done.stderr and done.stdout == ""


@pytest.mark.parametrize("args", [["--clients", "1001"], ["--clients", "0"], ["--clients", "ten"], ["--seconds", "3601"],
                                  ["--seconds", "0"]])
def test_bounds_are_enforced(args: list[str]) -> None:
    done = loadtest(*args, "--url", "http://127.0.0.1:9/", timeout=30)
    assert done.returncode == 2, done.stderr


def test_several_servers_on_postgresql_share_the_clients(pg_url: str) -> None:
    done = loadtest("--servers", "2", "--db", pg_url, "--clients", "4", "--seconds", "2", "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["servers"] == 2 and len(report["url"].split(",")) == 2
    assert all(isinstance(pid, int) for pid in report["server_pids"])
    [level] = report["levels"]
    assert level["tables"] == 4 and level["accepted"] > 0 and level["errors"] == 0
    assert level["server_cpu_percent"] is not None and level["server_rss_mb"] > 0


def test_several_servers_need_postgresql() -> None:
    done = loadtest("--servers", "2", "--clients", "1", "--seconds", "1", timeout=30)
    assert done.returncode == 2 and "PostgreSQL" in done.stderr

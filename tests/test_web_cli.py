"""``mustamaija serve``: its options and its clear refusals."""

from __future__ import annotations

import socket

import pytest

from mustamaija.cli import build_parser, main


def test_serve_options_have_test_friendly_defaults() -> None:
    args = build_parser().parse_args(["serve"])
    assert (args.host, args.port, args.db, args.open_browser, args.bot_pace) == ("127.0.0.1", 8000, None, False, 1.0)
    assert build_parser().parse_args(["serve", "--open-browser"]).open_browser is True
    assert build_parser().parse_args(["serve", "--open-browser", "--no-browser"]).open_browser is False


def test_serve_tells_the_servers_own_search_timeout(capsys: pytest.CaptureFixture[str]) -> None:
    # The flag's default is the server's own, and its help says it.
    from mustamaija.web.config import SEARCH_TIMEOUT, ServerConfig

    assert build_parser().parse_args(["serve"]).search_timeout == SEARCH_TIMEOUT == ServerConfig().search_timeout
    with pytest.raises(SystemExit):
        build_parser().parse_args(["serve", "--help"])
    assert f"(default {SEARCH_TIMEOUT:g};" in " ".join(capsys.readouterr().out.split())


def test_serve_refuses_bad_settings_clearly(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--bot-pace", "-1"]) == 2
    assert "--bot-pace must not be negative" in capsys.readouterr().err
    assert main(["serve", "--bot-workers", "0"]) == 2
    assert "--bot-workers" in capsys.readouterr().err
    for cap in ("0", "nan", "1000"):
        assert main(["serve", "--hint-seconds", cap]) == 2
        assert "--hint-seconds must be from 0.1 to 60" in capsys.readouterr().err
    for cap in ("1", "nan", "1e9"):
        assert main(["serve", "--search-timeout", cap]) == 2
        assert "--search-timeout must be from 10 to 86400" in capsys.readouterr().err
    assert main(["serve", "--db", "nosuchdb://x"]) == 2
    assert "cannot open the database 'nosuchdb://x'" in capsys.readouterr().err


def test_serve_says_when_the_port_is_taken(tmp_path: object, capsys: pytest.CaptureFixture[str]) -> None:
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        assert main(["serve", "--port", str(port), "--db", "sqlite://"]) == 2
    assert f"cannot listen on 127.0.0.1:{port}" in capsys.readouterr().err

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


def test_serve_tells_the_servers_own_search_timeouts(capsys: pytest.CaptureFixture[str]) -> None:
    # The flags' defaults are the server's own, and its help says them.
    from mustamaija.web.config import MOVE_TIMEOUT, SEARCH_TIMEOUT, ServerConfig

    args = build_parser().parse_args(["serve"])
    assert args.search_timeout == SEARCH_TIMEOUT == ServerConfig().search_timeout
    assert args.move_timeout == MOVE_TIMEOUT == ServerConfig().move_timeout < SEARCH_TIMEOUT
    with pytest.raises(SystemExit):
        build_parser().parse_args(["serve", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert f"(default {SEARCH_TIMEOUT:g};" in text and f"(default {MOVE_TIMEOUT:g};" in text


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
    for cap in ("1", "nan", "301"):
        assert main(["serve", "--move-timeout", cap]) == 2
        assert "--move-timeout must be from 10 to --search-timeout" in capsys.readouterr().err
    assert main(["serve", "--db", "nosuchdb://x"]) == 2
    assert "cannot open the database 'nosuchdb://x'" in capsys.readouterr().err


def test_serve_says_when_the_port_is_taken(tmp_path: object, capsys: pytest.CaptureFixture[str]) -> None:
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        assert main(["serve", "--port", str(port), "--db", "sqlite://"]) == 2
    assert f"cannot listen on 127.0.0.1:{port}" in capsys.readouterr().err

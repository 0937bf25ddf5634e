"""``mustamaija ratings``: the bot levels' and names' ratings from tournament and web records, offline."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from mustamaija.cli import main
from mustamaija.core.registry import get_game
from mustamaija.ratings import deal_outcomes


def _tournament(out: Path, game: str, players: int, bots: str, deals: int) -> None:
    assert main(["tournament", "--game", game, "--players", str(players), "--bots", bots, "--deals", str(deals),
                 "--out", str(out), "--json"]) == 0


def test_a_tournaments_records_rate_every_bot_level(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    games = tmp_path / "games"
    _tournament(games / "beating", "mustamaija", 3, "random,heuristic,pimc:iters=10", 4)
    _tournament(games / "tricks", "black-maria", 3, "random,heuristic,heuristic", 2)
    capsys.readouterr()
    assert main(["ratings", str(games), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["files"] == 4 * 3 + 2 * 3 and out["failed"] == 0
    by_game = {g["game"]: g for g in out["games"]}
    beating = by_game["mustamaija"]
    # A level's own spec is that level: random is easy and heuristic medium; other specs stand for themselves.
    assert {r["identity"] for r in beating["ratings"]} == {"bot:easy", "bot:medium", "bot:pimc:iters=10"}
    assert beating["deals"] + beating["unrated"] == 12
    for r in beating["ratings"]:
        assert r["games"] == beating["deals"] and r["kind"] == "bot" and r["draws"] == 0
    assert sum(r["losses"] for r in beating["ratings"]) == 2 * beating["deals"], "the loser lost to both others"
    tricks = by_game["black-maria"]
    # Two heuristic seats are one identity: no result between them; each hand rates easy against medium.
    assert {r["identity"] for r in tricks["ratings"]} == {"bot:easy", "bot:medium"} and tricks["deals"] == 6
    easy = next(r for r in tricks["ratings"] if r["identity"] == "bot:easy")
    assert easy["wins"] + easy["losses"] + easy["draws"] == 2 * 6
    assert [r["rank"] for r in beating["ratings"]] == [1, 2, 3]
    assert beating["ratings"] == sorted(beating["ratings"], key=lambda r: (r["provisional"], -r["rating"]))

    assert main(["ratings", str(games / "tricks"), "--game", "black-maria"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("Black Maria: 6 deals rated, 0 not rated")
    assert "rank  name" in text and "easy" in text and "medium" in text


def test_web_records_rate_signed_in_names_and_free_names_on_request(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    game = get_game("mustamaija")
    state = game.deal(3, seed=5)
    rng = random.Random(5)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    assert deal_outcomes(game, state), "a deal with a loser"
    rec = game.record_of(state, names=["Ann", "Bo", "bot 2 · hard"], bots=[None, None, "hard"],
                         signed_in=["Ann", None, None], table="t1", deal=1)
    path = tmp_path / "deal.json"
    path.write_text(rec.dumps())
    assert main(["ratings", str(path), "--json"]) == 0
    names = {r["identity"] for r in json.loads(capsys.readouterr().out)["games"][0]["ratings"]}
    assert names == {"player:ann", "bot:hard"}, "a name not signed in is not rated"
    assert main(["ratings", str(path), "--json", "--names"]) == 0
    names = {r["identity"] for r in json.loads(capsys.readouterr().out)["games"][0]["ratings"]}
    assert names == {"player:ann", "player:bo", "bot:hard"}


def test_bad_files_are_named_and_the_rest_are_rated(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _tournament(tmp_path / "games", "mustamaija", 2, "random,heuristic", 2)
    (tmp_path / "games" / "notes.json").write_text("{not json")
    (tmp_path / "games" / "other.json").write_text(json.dumps({"format": "chess-record/1"}))
    capsys.readouterr()
    assert main(["ratings", str(tmp_path / "games"), str(tmp_path / "missing.json")]) == 1
    captured = capsys.readouterr()
    assert "Mustamaija: 4 deals rated" in captured.out
    assert "notes.json" in captured.err and "other.json" in captured.err and "missing.json" in captured.err
    assert "3 of 7 files could not be rated" in captured.err
    assert main(["ratings", str(tmp_path / "games" / "notes.json")]) == 1
    assert "no deal of any game was found" in capsys.readouterr().out

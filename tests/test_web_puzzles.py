"""The puzzle API of the web app (docs/web.md, "Puzzles"): the list, a position, lines of moves judged by the solver.

The server keeps nothing between calls: every request holds the player's moves from the puzzle's start, and
the answer is the same as the terminal's puzzle game (:class:`PuzzleGame`) gives for them. Hostile input is
refused with the API's error shape and never reaches the solver.
"""

from __future__ import annotations

import pickle
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from mustamaija.core.cards import card_name, cards_of
from mustamaija.core.errors import IllegalActionError
from mustamaija.games.mustamaija.actions import Action, Lead
from mustamaija.games.mustamaija.puzzles import Puzzle, PuzzleGame, load_puzzles
from mustamaija.games.mustamaija.puzzles.web import PuzzleRefusal
from mustamaija.web import ServerConfig, create_app
from mustamaija.web.puzzles_api import judge_moves
from test_web_api import error

PUZZLES = load_puzzles()
QUICK: dict[str, Any] = {"bot_pace": 0.0, "deal_pause": 0.0, "http_burst": 100000}


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(ServerConfig(**QUICK))) as c:
        yield c


def body_of(action: Action) -> dict[str, Any]:
    obj = action.to_json()
    del obj["seat"]
    return obj


def names(mask: int) -> list[str]:
    return [card_name(c) for c in cards_of(mask)]


def wrong_lead(p: Puzzle) -> Lead:
    return next(lead for lead in p.start().legal_leads() if lead.cards not in p.solution)


def test_the_list_names_every_shipped_puzzle_with_its_source(client: TestClient) -> None:
    r = client.get("/api/puzzles")
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["game"] == "mustamaija" and body["layout"] == "beating"
    listed = body["puzzles"]
    assert [p["id"] for p in listed] == [p.id for p in PUZZLES]
    assert {p["source"] for p in listed} == {"made", "play"}
    assert sum(p["source"] == "play" for p in listed) >= 30
    first = listed[0]
    assert set(first) == {"id", "key", "title", "level", "source", "origin", "note", "players"}
    assert all(p["origin"] for p in listed)
    played = next(p for p in listed if p["source"] == "play")
    assert " players, deal " in played["origin"] and "tournament seed" in played["origin"]
    assert client.get("/api/puzzles", params={"game": "mustamaija"}).json() == body


def test_a_position_is_the_table_state_with_every_hand_open(client: TestClient) -> None:
    p = next(q for q in PUZZLES if len(q.hands) == 3)
    r = client.get(f"/api/puzzles/{p.id}")
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["puzzle"]["id"] == p.id and body["puzzle"]["names"] == ["You", "Eero", "Helmi"]
    assert "Mustamaija" in body["puzzle"]["goal"]
    state = body["state"]
    assert state["seat"] == 0 and state["to_act"] == 0 and state["phase"] == "lead" and state["talon"] == 0
    assert state["hand"] == names(p.hands[0]) == body["hands"][0]
    assert state["known"][0] == [] and state["known"][1:] == [names(h) for h in p.hands[1:]]
    assert state["legal"]["kind"] == "lead" and sorted(state["legal"]["cards"]) == sorted(names(p.hands[0]))
    assert state["trump_suit"] == (None if p.trump is None else "SHDC"[p.trump])


def test_solving_a_puzzle_move_by_move_as_the_terminal_does(client: TestClient) -> None:
    p = next(q for q in PUZZLES if len(q.hands) == 3)
    local = PuzzleGame(p)
    moves: list[dict[str, Any]] = []
    answer: dict[str, Any] = {}
    while local.status == "solving":
        st = local.state
        beat = local.judge.best_defence(st) if st.phase else None
        move: Action = local.judge.safe_leads(st)[0] if st.phase == 0 else beat  # type: ignore[assignment]
        verdict = local.play(move)
        moves.append(body_of(move))
        r = client.post(f"/api/puzzles/{p.id}/moves", json={"moves": moves})
        assert r.status_code == 200, r.text
        answer = r.json()
        assert answer["verdict"] == {"ok": True, "message": verdict.message}
        assert answer["moves"] == len(moves) and answer["status"] == local.status
        assert [m["action"] for m in answer["played"]] == [body_of(a) for a in local.state.actions()]
        assert all(m["seat"] != 0 for m in answer["replies"])
        if local.status == "solving":
            assert answer["state"]["legal"] is not None and "solution" not in answer
    assert answer["status"] == "solved" and answer["verdict"]["message"].startswith("✓ Solved")
    assert answer["state"]["legal"] is None
    # At the end the solution comes with the answer: the safe first leads and the solver's line, in words.
    solution = answer["solution"]
    assert solution["leads"] == [names(m) for m in p.solution]
    assert solution["line"][0]["seat"] == 0 and solution["line"][0]["action"]["lead"] in solution["leads"]
    assert solution["line"][0]["text"].startswith("You lead ")
    assert solution["text"].startswith("Safe first lead")


def test_a_wrong_move_is_refuted_and_ends_the_puzzle(client: TestClient) -> None:
    p = PUZZLES[1]
    wrong = wrong_lead(p)
    r = client.post(f"/api/puzzles/{p.id}/moves", json={"moves": [body_of(wrong)]})
    assert r.status_code == 200, r.text
    answer = r.json()
    assert answer["status"] == "failed" and answer["verdict"]["ok"] is False
    assert answer["verdict"]["message"].startswith("✗ That first lead loses")
    refutation = answer["refutation"]
    assert refutation[0]["action"] == body_of(wrong) and refutation[1]["seat"] == 1 and "beat" in refutation[1]["action"]
    assert refutation[0]["text"].startswith("You lead") and refutation[1]["text"].startswith("Eero ")
    assert answer["replies"] == [] and answer["state"]["legal"] is None and answer["solution"]["line"]
    # Nothing more can be played after the end.
    right = {"lead": names(p.solution[0])}
    message = error(client.post(f"/api/puzzles/{p.id}/moves", json={"moves": [body_of(wrong), right]}), 409, "not_playing")
    assert message.startswith("move 2: the puzzle is over after your move 1 (failed)")


def test_the_solution_on_request_and_no_moves_at_all(client: TestClient) -> None:
    p = PUZZLES[0]
    r = client.post(f"/api/puzzles/{p.id}/moves", json={"moves": []})
    assert r.status_code == 200 and r.json()["status"] == "solving" and r.json()["verdict"] is None
    assert "solution" not in r.json() and r.json()["state"]["legal"]["kind"] == "lead"
    r = client.post(f"/api/puzzles/{p.id}/moves", json={"moves": [], "solution": True})
    assert r.status_code == 200 and r.json()["solution"]["leads"] == [names(m) for m in p.solution]


def test_answers_are_kept_so_a_line_is_judged_once(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    p = PUZZLES[2]
    moves = {"moves": [{"lead": names(p.solution[0])}]}
    first = client.post(f"/api/puzzles/{p.id}/moves", json=moves)
    assert first.status_code == 200, first.text
    manager = client.app.state.manager  # type: ignore[attr-defined]

    async def no_pool(*args: Any) -> Any:
        raise AssertionError("a kept answer went to the search pool again")

    monkeypatch.setattr(manager.runner, "search", no_pool)
    again = client.post(f"/api/puzzles/{p.id}/moves", json=moves)
    assert again.status_code == 200 and again.json() == first.json()


@pytest.mark.parametrize(("path", "status", "code", "words"), [
    ("/api/puzzles/nope", 404, "not_found", "there is no puzzle 'nope'"),
    ("/api/puzzles/a%20b", 400, "bad_request", "puzzle_id"),
    ("/api/puzzles/" + "x" * 17, 400, "bad_request", "puzzle_id"),
    ("/api/puzzles?game=black-maria", 404, "not_found", "Black Maria has no puzzles"),
    ("/api/puzzles?game=chess", 400, "bad_request", "'game'"),
])
def test_bad_reads_are_refused(client: TestClient, path: str, status: int, code: str, words: str) -> None:
    assert words in error(client.get(path), status, code)


@pytest.mark.parametrize(("body", "status", "code", "words"), [
    ({"moves": [{"lead": ["ZZ"]}]}, 400, "bad_request", "move 1: "),
    ({"moves": [{"lead": "9H"}]}, 400, "bad_request", "'lead' must be a list of cards"),
    ({"moves": [{"lead": ["9H"] * 14}]}, 400, "bad_request", "at most 13 cards"),
    ({"moves": [{"beat": ["9H", "JH"]}]}, 400, "bad_request", "'beat' must be a list of cards, or an object"),
    ({"moves": [{"lead": ["QS"], "beat": {}}]}, 400, "bad_request", "one key"),
    ({"moves": [{"pass": ["QS"]}]}, 400, "bad_request", "one key, 'lead', 'beat' or 'declare'"),
    ({"moves": [{"lead": [7]}]}, 400, "bad_request", "move 1: "),
    ({"moves": ["QS"]}, 400, "bad_request", "moves.0"),
    ({"moves": "QS"}, 400, "bad_request", "moves"),
    ({"moves": [{"lead": ["QS"]}] * 41}, 400, "bad_request", "at most 40 items"),
    ({"moves": [], "extra": 1}, 400, "bad_request", "extra"),
    ({"moves": [], "solution": "yes"}, 400, "bad_request", "solution"),
    ({"moves": [{"lead": ["2C"]}]}, 422, "illegal", "move 1: M10: you do not hold 2C"),
    ({"moves": [{"beat": {}}]}, 422, "illegal", "move 1: "),
])
def test_bad_moves_are_refused(client: TestClient, body: Any, status: int, code: str, words: str) -> None:
    p = PUZZLES[0]  # Seat 0 holds Q♠, 5♥ and 8♥.
    message = error(client.post(f"/api/puzzles/{p.id}/moves", json=body), status, code)
    assert words in message
    if code == "illegal" and "M10" in words:
        assert client.post(f"/api/puzzles/{p.id}/moves", json=body).json()["error"]["rule"] == "M10"


def test_unknown_puzzles_and_bodies_that_are_not_objects(client: TestClient) -> None:
    error(client.post("/api/puzzles/nope/moves", json={"moves": []}), 404, "not_found")
    error(client.post("/api/puzzles/01/moves", content=b"[1, 2", headers={"Content-Type": "application/json"}),
          400, "bad_json")
    error(client.post("/api/puzzles/01/moves", json=[1]), 400, "bad_json")
    error(client.post("/api/puzzles/01/moves?game=black-maria", json={"moves": []}), 404, "not_found")
    error(client.get("/api/puzzles/01/moves"), 405, "method_not_allowed")


def test_the_page_and_the_lobby_link(client: TestClient) -> None:
    page = client.get("/puzzles")
    assert page.status_code == 200 and 'src="/static/js/puzzles.js"' in page.text
    assert client.get("/static/js/puzzles.js").status_code == 200
    assert 'href="/puzzles"' in client.get("/").text
    assert "/api/puzzles/{puzzle_id}/moves" in client.get("/openapi.json").json()["paths"]


class _Refusing:
    """A puzzle service whose answers are refusals: one with a code, one of its own making."""

    layout = "beating"

    def catalogue(self) -> list[dict[str, Any]]:
        return []

    def position(self, puzzle_id: str) -> dict[str, Any]:
        return {}

    def answer(self, puzzle_id: str, moves: Any, solution: bool = False) -> dict[str, Any]:
        if puzzle_id == "rule":
            raise IllegalActionError("M1", "no such thing")
        raise PuzzleRefusal("not_playing", "the puzzle is over", None)


REFUSING = _Refusing()


def test_refusals_come_back_from_the_worker_as_error_objects() -> None:
    target = f"{__name__}:REFUSING"
    assert judge_moves(target, "x", [], False) == {"error": {"code": "not_playing", "message": "the puzzle is over"}}
    # An error without a code of the API would not pickle back whole (and would break the pool): it comes as text.
    with pytest.raises(RuntimeError, match="IllegalActionError: M1: no such thing"):
        judge_moves(target, "rule", [], False)
    again = pickle.loads(pickle.dumps(PuzzleRefusal("illegal", "move 1: M10: no", "M10")))
    assert (again.code, str(again), again.rule) == ("illegal", "move 1: M10: no", "M10")

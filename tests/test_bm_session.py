"""The UI-free Black Maria table and the plain terminal game, driven by scripted input."""

from __future__ import annotations

import pytest

from mustamaija.core.cards import mask_of, parse_cards
from mustamaija.core.errors import IllegalActionError, RulesError
from mustamaija.games.black_maria import Rules
from mustamaija.games.black_maria.console import hand_text, main, run_console
from mustamaija.games.black_maria.players import HeuristicPlayer
from mustamaija.games.black_maria.session import Table
from mustamaija.players.random import RandomPlayer


class Script:
    """Answer the console like a person who asks for the legal cards and takes the first ones."""

    def __init__(self, bad_first: bool = False) -> None:
        self.said: list[str] = []
        self.prompts: list[str] = []
        self.pending = ["KZ", "2S 3S 4S 5S 6S"] if bad_first else []

    def say(self, line: str) -> None:
        self.said.append(line)

    def ask(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if self.pending:
            return self.pending.pop(0)
        last = self.said[-1]
        if not last.startswith("Legal: "):
            return "?"
        if last.startswith("Legal: any "):
            count = int(last.split()[2])
            return " ".join(last.split(" of ", 1)[1].split()[:count])
        return last.split()[1]


def test_console_plays_a_whole_game_with_passing_tricks_and_scores() -> None:
    script = Script(bad_first=True)
    assert run_console(4, "heuristic,random", 0, Rules(hands=2, target_score=None), seed=5,
                       ask=script.ask, say=script.say) == 0
    text = "\n".join(script.said)
    assert text.count("Passing (B3): choose 3 cards for seat 1") == 2 + 2  # Two bad answers re-prompt once each.
    assert "Not allowed: bad card 'KZ'" in text
    assert "Not allowed: B3: with 4 players each seat passes 3 cards, but seat 0 passes 5" in text
    assert text.count("All have passed. You gave") == 2
    assert text.count("Trick 13:") == 2 and "won the trick" in text and "This hand: you " in text
    assert text.count("Hand 1 over. Points:") == 1 and text.count("Totals: you ") >= 3
    assert "Game over." in script.said[-1]


def test_console_refuses_illegal_plays_and_can_be_left() -> None:
    answers = iter(["?", "hint", "quit"])
    said: list[str] = []
    assert run_console(3, "heuristic", 1, Rules(hands=1), seed=2, ask=lambda p: next(answers), say=said.append) == 1
    assert any(line.startswith("The heuristic would pass ") for line in said)
    assert said[-1] == "Game abandoned."
    assert main(["--players", "9"]) == 2


def test_table_runs_bots_until_a_person_acts() -> None:
    t = Table([HeuristicPlayer(), None, RandomPlayer(seed=1), HeuristicPlayer()], Rules(hands=1), seed=3, first_dealer=3)
    with pytest.raises(RulesError, match="call deal"):
        t.view(0)
    t.deal()
    events = t.run_bots()
    assert [e.kind for e in events] == ["pass"] and t.waiting_for() == 1
    hand = t.view(1).hand
    with pytest.raises(IllegalActionError, match="B3"):
        t.act(1, parse_cards("2S"))
    events = t.act(1, [c for c in range(52) if hand >> c & 1][:3])
    kinds = [e.kind for e in events]
    assert kinds[:3] == ["pass", "pass", "pass"] and kinds[3] == "exchange"
    while t.waiting_for() is not None:
        events = t.act(1, t.view(1).legal_actions()[0])
    assert events[-1].kind == "hand" and events[-1].points == 43
    assert sum(e.points for e in events if e.kind == "trick") <= 43
    result = t.finish()
    assert sum(result.points) == 43 and t.over and t.totals == list(result.points)


def test_hand_text_groups_by_suit() -> None:
    assert hand_text(mask_of(parse_cards("KS 3S TD"))) == "♠ 3 K | ♥ - | ♦ 10 | ♣ -"

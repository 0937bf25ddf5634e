"""Golden per-seat playthroughs of Black Maria: every seat's view and the spectator's at every step of three hands.

Each file under ``tests/golden/black-maria`` holds one hand played step by
step (passes chosen a card at a time) with choices drawn from
``random.Random(seed)``. After the deal and after every step it shows
``view.render()`` for every seat and for the spectator, so a change in rules,
views or rendering shows up as a readable diff, and a reviewer can check line
by line that no seat sees a card it could not know: nothing received before
every seat has passed (B3), no other seat's reneges before the end (B7).

To rewrite the files after an intended change, run the tests with the
environment variable ``MUSTAMAIJA_REGEN_GOLDEN=1`` and review the diff.
"""

from __future__ import annotations

import os
import random
import re
from pathlib import Path

import pytest

from mustamaija.core.cards import card_name, cards_of, parse_card
from mustamaija.games.black_maria import Play, Rules, State, step_name, view_of

GOLDEN_DIR = Path(__file__).resolve().parent / "golden" / "black-maria"
REGEN = os.environ.get("MUSTAMAIJA_REGEN_GOLDEN") == "1"
CARD_TOKEN = re.compile(r"(?<![0-9A-Z])([2-9TJQKA][SHDC])(?![0-9A-Z])")

# (file stem, players, seed, reneging allowed). The seeds were picked for hands that show:
#   3p: a heart thrown on another suit breaking hearts (B5);
#   4p: Black Maria thrown by a seat void in the led suit (B6);
#   5p-renege: reneges charged at the end of the hand only (B7).
GOLDEN = [("3p", 3, 2, False), ("4p", 4, 14, False), ("5p-renege", 5, 3, True)]


def views_text(s: State) -> list[str]:
    out = []
    for viewer in (*range(s.n), None):
        v = view_of(s, viewer)
        text = v.render()
        unseen = {card_name(c) for c in cards_of(v.unseen)}
        assert not unseen & set(CARD_TOKEN.findall(text)), f"the view of {viewer} names a card it cannot know"
        out.append(f"--- {'spectator' if viewer is None else f'seat {viewer}'}")
        out.append(text)
    return out


def playthrough(players: int, seed: int, renege: bool) -> tuple[str, State]:
    """Play the hand and return the golden text and the final state."""
    rules = Rules(allow_renege=renege)
    s = State.from_seed(players, seed, rules)
    rng = random.Random(seed)
    lines = [
        f"# Golden playthrough: Black Maria, {players} players, seed {seed}, dealer {s.dealer}.",
        f"# Rules: {rules.describe()}.",
        "# After the deal and after every step: each seat's view, then the spectator's (View.render()).",
        "",
        "=== deal",
        *views_text(s),
    ]
    n = 0
    while not s.is_over:
        step = rng.choice(s.legal_actions())
        n += 1
        actor = s.to_act
        what = "passes" if s.phase == 0 else "plays"
        lines += ["", f"=== step {n}: seat {actor} {what} {step_name(step)}"]
        s.apply(step)
        lines += views_text(s)
    lines += ["", f"=== end after {n} steps: points {s.points()}, reneges {list(s.reneges)}", ""]
    return "\n".join(lines), s


@pytest.mark.parametrize(("stem", "players", "seed", "renege"), GOLDEN, ids=[g[0] for g in GOLDEN])
def test_golden_playthrough(stem: str, players: int, seed: int, renege: bool) -> None:
    text, s = playthrough(players, seed, renege)
    path = GOLDEN_DIR / f"{stem}.txt"
    if REGEN:
        GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8", newline="\n")
    assert path.exists(), f"{path.name} is missing: run with MUSTAMAIJA_REGEN_GOLDEN=1 to write it"
    expected = path.read_text(encoding="utf-8")
    if text != expected:
        old, new = expected.splitlines(), text.splitlines()
        first = next((i for i, (a, b) in enumerate(zip(old, new, strict=False)) if a != b), min(len(old), len(new)))
        pytest.fail(
            f"{path.name} differs from the playthrough at line {first + 1}:\n"
            f"  golden: {old[first] if first < len(old) else '<end of file>'}\n"
            f"  now:    {new[first] if first < len(new) else '<end of text>'}\n"
            "If the change is intended, rerun with MUSTAMAIJA_REGEN_GOLDEN=1 and review the diff."
        )
    assert s.is_over
    replay = State.from_seed(players, seed, Rules(allow_renege=renege))
    maria_led = None
    for a in s.actions():
        if isinstance(a, Play) and a.card == parse_card("QS"):
            maria_led = replay.led
        replay.play(a)
    if stem == "3p":
        assert "hearts broken" in text
    if stem == "4p":
        assert maria_led is not None and maria_led not in (-1, 0), "Q♠ is thrown on another suit"
    if stem == "5p-renege":
        assert sum(s.reneges) > 0
        *during, last = text.split("=== step")
        assert not foreign_reneges("".join(during)), "another seat's renege shows before the end of the hand (B7)"
        assert foreign_reneges(last)


def foreign_reneges(text: str) -> list[str]:
    """Return the lines of seat views that show the reneges of a seat other than the viewer."""
    found = []
    viewer = None
    for line in text.splitlines():
        if line.startswith("--- "):
            viewer = line[4:]
        elif re.match(r"  \d+: .*reneges", line) and viewer != f"seat {line.split(':')[0].strip()}":
            found.append(line)
    return found

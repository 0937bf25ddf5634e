"""The endgame solver agrees with a plain, slow search through the engine itself."""

import random

import pytest

from mustamaija.cards import SUIT_MASKS
from mustamaija.game import State
from mustamaija.search.solver import solve


def _brute(state: State, hero: int) -> bool:
    """Return whether ``hero`` can make sure of not losing, by retrograde analysis over the engine's own moves.

    Every reachable position is listed with its successors; the positions from
    which the others can force ``hero`` to lose are found by fixpoint iteration
    (an attractor). Everything else is safe: a win, or play that never ends,
    which M21 would stop without a loser.
    """

    def key(s: State) -> tuple[object, ...]:
        return (tuple(s.hands), s.phase, s.attacker, s.defender, s.led)

    nodes: dict[tuple[object, ...], tuple[int, list[tuple[object, ...]]]] = {}
    loss: set[tuple[object, ...]] = set()
    stack = [state]
    while stack:
        s = stack.pop()
        k = key(s)
        if k in nodes:
            continue
        if s.is_over or not s.hands[hero]:
            nodes[k] = (-1, [])
            if s.hands[hero] and s.loser == hero:
                loss.add(k)
            continue
        moves = list(s.legal_leads()) if s.phase == 0 else list(s.legal_beats())
        succ = []
        for m in moves:
            t = s.copy()
            t.play(m)
            succ.append(key(t))
            stack.append(t)
        nodes[k] = (s.to_act, succ)
    changed = True
    while changed:
        changed = False
        for k, (actor, succ) in nodes.items():
            if k in loss or actor < 0:
                continue
            hit = all(x in loss for x in succ) if actor == hero else any(x in loss for x in succ)
            if hit:
                loss.add(k)
                changed = True
    return key(state) not in loss


def _position(rng: random.Random, sizes: list[int], trump: int | None) -> State:
    cards = [c for c in range(52) if c != 10]
    rng.shuffle(cards)
    pool = [10, *cards[: sum(sizes) - 1]]
    rng.shuffle(pool)
    hands, k = [], 0
    for n in sizes:
        hands.append(pool[k:k + n])
        k += n
    return State.from_position(hands, attacker=0, trump_suit=trump)


@pytest.mark.parametrize(
    ("sizes", "count"), [([3, 3], 60), ([4, 4], 40), ([5, 4], 25), ([2, 2, 2], 25), ([3, 2, 2], 12), ([2, 2, 1, 2], 15)]
)
def test_solver_matches_brute_force(sizes: list[int], count: int) -> None:
    rng = random.Random(f"{sizes}")
    wins = 0
    for _ in range(count):
        trump = rng.choice([None, 1, 2, 3])
        s = _position(rng, sizes, trump)
        r = solve(s)
        assert r.attacker_safe == _brute(s, 0), s.hands
        wins += r.attacker_safe
    assert 0 < wins < count  # Both outcomes occur, so the comparison means something.


def test_safe_leads_are_exactly_the_safe_first_moves() -> None:
    rng = random.Random(5)
    for _ in range(15):
        s = _position(rng, [4, 4], rng.choice([None, 3]))
        r = solve(s)
        reported = set(r.safe_leads)
        for lead in s.legal_leads():
            t = s.copy()
            t.play(lead)
            # The attacker is safe after this lead iff every defence leaves it safe.
            safe = all(_defence_safe(t, beat) for beat in t.legal_beats())
            if lead.cards in reported:
                assert safe
            elif safe:
                # An equivalent lead (same cards up to equivalence) must be reported instead.
                suit = SUIT_MASKS[(lead.cards.bit_length() - 1) // 13]
                assert any(m.bit_count() == lead.cards.bit_count() and m & suit for m in reported)


def _defence_safe(s: State, beat: object) -> bool:
    t = s.copy()
    t.play(beat)  # type: ignore[arg-type]
    if t.is_over:
        return t.loser != 0
    if not t.hands[0]:
        return True
    return _brute(t, 0)


def test_principal_line_replays_through_the_engine() -> None:
    rng = random.Random(9)
    for _ in range(20):
        s = _position(rng, [5, 5], rng.choice([None, 1]))
        r = solve(s)
        t = s.copy()
        for action in r.line:
            t.play(action)
        assert t.is_over or not t.hands[0]
        if r.attacker_safe:
            assert t.loser != 0
        else:
            assert t.loser == 0

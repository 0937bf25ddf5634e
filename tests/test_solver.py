"""The endgame solver agrees with a plain, slow search through the engine itself.

The reference is a retrograde analysis over the engine's own moves (every
legal lead, defence and marriage declaration), so it shares nothing with the
solver's pruning: no canonical keys, no equivalent cards, no dominance.
Every safe first lead the solver reports must be safe by the reference, and
every lead the reference finds safe must be reported.
"""

from __future__ import annotations

import pickle
import random
from collections.abc import Callable, Hashable

import pytest

from mustamaija.core.cards import QS, card_name, cards_of, parse_cards
from mustamaija.core.errors import MustamaijaError
from mustamaija.games.mustamaija import Beat, Declare, Lead, Rules, State
from mustamaija.games.mustamaija import legality as L
from mustamaija.games.mustamaija.solver import Solver, solve
from mustamaija.games.mustamaija.solver_bench import bench_solver, random_position

Key = Hashable


def _key(s: State) -> Key:
    return (tuple(s.hands), s.phase, s.attacker, s.defender, s.led, s.trump)


def _retrograde(state: State, hero: int) -> set[Key]:
    """Return the keys of every reachable position from which the others can force ``hero`` to lose.

    Every reachable position is listed with its successors; the positions from
    which the others can force ``hero`` to lose are found backwards from the
    lost ends (an attractor, by the usual work list: a position where
    ``hero`` acts is lost once all its successors are, one where another seat
    acts as soon as one is). Everything else is safe: a win, or play that
    never ends, which M21 would stop without a loser.
    """
    nodes: dict[Key, tuple[int, set[Key]]] = {}
    loss: set[Key] = set()
    stack = [state]
    while stack:
        s = stack.pop()
        k = _key(s)
        if k in nodes:
            continue
        if s.is_over or not s.hands[hero]:
            nodes[k] = (-1, set())
            if s.hands[hero] and s.loser == hero:
                loss.add(k)
            continue
        succ = set()
        for m in s.legal_declares():
            t = s.copy()
            t.play(m)
            succ.add(_key(t))
            stack.append(t)
        # The engine's own listings give only legal moves, so they are played without checking them again.
        if s.phase == 0:
            for lead in s.legal_leads():
                t = s.copy()
                t._do_lead(lead.cards)
                succ.add(_key(t))
                stack.append(t)
        else:
            for beat in s.legal_beats():
                t = s.copy()
                t._do_beat(beat.seat, beat.pairs)
                succ.add(_key(t))
                stack.append(t)
        nodes[k] = (s.to_act, succ)
    preds: dict[Key, list[Key]] = {k: [] for k in nodes}
    left = {}
    for k, (_, succ) in nodes.items():
        left[k] = len(succ)
        for x in succ:
            preds[x].append(k)
    work = list(loss)
    while work:
        x = work.pop()
        for k in preds[x]:
            if k in loss:
                continue
            left[k] -= 1
            if nodes[k][0] != hero or left[k] == 0:
                loss.add(k)
                work.append(k)
    return loss


def _brute(state: State, hero: int) -> bool:
    return _key(state) not in _retrograde(state, hero)


def _brute_safe_leads(state: State) -> tuple[bool, set[int], dict[int, set[int]]]:
    """Return (attacker safe, safe leads without declaring, safe leads after each declaration) by the reference."""
    hero = state.attacker
    loss = _retrograde(state, hero)
    leads = set()
    for lead in state.legal_leads():
        t = state.copy()
        t.play(lead)
        if _key(t) not in loss:
            leads.add(lead.cards)
    declared: dict[int, set[int]] = {}
    for decl in state.legal_declares():
        t = state.copy()
        t.play(decl)
        found = set()
        for lead in t.legal_leads():
            u = t.copy()
            u.play(lead)
            if _key(u) not in loss:
                found.add(lead.cards)
        if found:
            declared[decl.suit] = found
    return _key(state) not in loss, leads, declared


def _position(rng: random.Random, sizes: list[int], trump: int | None, rules: Rules | None = None) -> State:
    cards = [c for c in range(52) if c != QS]
    rng.shuffle(cards)
    pool = [QS, *cards[: sum(sizes) - 1]]
    rng.shuffle(pool)
    hands, k = [], 0
    for n in sizes:
        hands.append(pool[k:k + n])
        k += n
    return State.from_position(hands, attacker=0, trump_suit=trump, rules=rules)


def _check(s: State) -> bool:
    value, leads, declared = _brute_safe_leads(s)
    r = solve(s)
    shown = [[card_name(c) for c in cards_of(h)] for h in s.hands]
    assert r.attacker_safe == value, (shown, s.trump)
    assert set(r.safe_leads) == leads, (shown, s.trump)
    assert len(r.safe_leads) == len(set(r.safe_leads))
    assert {k: set(v) for k, v in r.declarations.items()} == declared, (shown, s.trump)
    _replay_line(s, r.line, r.attacker_safe)
    return value


def _replay_line(s: State, line: list[object], safe: bool) -> None:
    t = s.copy()
    for action in line:
        t.play(action)  # type: ignore[arg-type]
    if t.is_over or not t.hands[s.attacker]:
        assert (t.loser != s.attacker) == safe
    else:
        assert safe  # A line that does not end goes round for ever: safe for the attacker (M21).


# -- two players: hundreds of small positions --------------------------------------------------


@pytest.mark.parametrize("seed", range(6))
def test_two_players_match_the_reference_lead_by_lead(seed: int) -> None:
    rng = random.Random(f"two:{seed}")
    outcomes = set()
    for i in range(50):
        # At most five cards a hand; one 5+5 position per run (the reference is slow on those).
        sizes = [5, 5] if i == 0 else [rng.randint(1, 5), rng.randint(1, 4)]
        if sum(sizes) < 3:
            sizes[0] += 1
        outcomes.add(_check(_position(rng, sizes, rng.choice([None, 1, 2, 3]))))
    assert outcomes == {True, False}  # Both outcomes occur, so the comparison means something.


def test_two_players_spades_trumps_and_capped_leads() -> None:
    rng = random.Random("spades")
    rules_sets = [Rules(spades_can_be_trump=True), Rules(max_lead=2), Rules(trump="fixed", trump_suit="H")]
    for i in range(45):
        rules = rules_sets[i % 3]
        trump = 0 if i % 3 == 0 else 1 if i % 3 == 2 else rng.choice([None, 2])
        _check(_position(rng, [rng.randint(2, 5), rng.randint(2, 5)], trump, rules))


# -- more players ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("sizes", "count"), [([2, 2, 2], 30), ([3, 2, 2], 10), ([3, 3, 1], 12), ([2, 2, 1, 2], 15), ([2, 1, 2, 2], 15)])
def test_more_players_match_the_reference(sizes: list[int], count: int) -> None:
    rng = random.Random(f"{sizes}")
    outcomes = set()
    for _ in range(count):
        outcomes.add(_check(_position(rng, sizes, rng.choice([None, 1, 2, 3]))))
    assert outcomes == {True, False}


def test_three_players_with_one_seat_out() -> None:
    rng = random.Random(3)
    for _ in range(20):
        s = _position(rng, [3, 3], rng.choice([None, 2]))
        hands = [s.hands[0], 0, s.hands[1]]
        t = State.from_position([cards_of(h) for h in hands], attacker=0, trump_suit=s.trump_suit)
        assert solve(t).attacker_safe == _brute(t, 0) == solve(s).attacker_safe


def _attractor_safe(solver: Solver, hands: tuple[int, ...], attacker: int, hero: int) -> bool:
    """Decide a position over the solver's own moves by listing every reachable position first, then the attractor.

    It shares the move lists with the solver but none of its search: no
    cut-off, no stored value, no circle handling beyond the plain fixpoint.
    """
    graph: dict[tuple[tuple[int, ...], int], list[tuple[bool, list[object]]]] = {}
    todo = [(hands, attacker)]
    while todo:
        hs, a = todo.pop()
        if (hs, a) in graph:
            continue
        options: list[tuple[bool, list[object]]] = []
        d = solver.defender_of(hs, a)
        for _, replies in solver.options(hs, a):
            kids: list[object] = []
            for _, after, nxt in replies:
                if not after[hero]:
                    kids.append(True)
                elif nxt < 0:
                    kids.append(False)
                elif sum(1 for h in after if h) <= 2:
                    kids.append(solver.safe(after, nxt, hero))
                else:
                    kids.append((after, nxt))
                    todo.append((after, nxt))
            options.append((d == hero, kids))
        graph[(hs, a)] = options
    lost: set[object] = set()
    changed = True
    while changed:  # The others' attractor, by plain fixpoint iteration.
        changed = False
        for (hs, a), options in graph.items():
            if (hs, a) in lost:
                continue
            verdicts = []
            for hero_defends, kids in options:
                kid_lost = [k is False or (not isinstance(k, bool) and k in lost) for k in kids]
                verdicts.append(all(kid_lost) if hero_defends else any(kid_lost))
            if (all(verdicts) if a == hero else any(verdicts)):
                lost.add((hs, a))
                changed = True
    return (hands, attacker) not in lost


def test_three_players_search_matches_the_plain_attractor() -> None:
    """Positions where play goes round in circles: the search's kept-back "safe" values must come out exact."""
    rng = random.Random("circles")
    outcomes, kept, dropped = set(), 0, 0
    for _ in range(20):
        s = _position(rng, [3, 2, 2], rng.choice([None, None, 1]))
        r = solve(s)
        hands = tuple(s.hands)
        for hero in range(3):
            solver = Solver(s.rules, s.trump, s.n)
            assert solver.safe(hands, 0, hero) == _attractor_safe(Solver(s.rules, s.trump, s.n), hands, 0, hero)
            kept += solver.kept_back
            dropped += solver.dropped
        outcomes.add(r.attacker_safe)
    assert outcomes == {True, False}
    assert kept and dropped  # The circle handling was really exercised, both ways.


# -- marriages still to be declared ------------------------------------------------------------------

_KQ = [c for s in (1, 2, 3) for c in (s * 13 + 10, s * 13 + 11)]


def _marriage_position(rng: random.Random, sizes: list[int]) -> State:
    cards = [c for c in range(52) if c != QS and c not in _KQ]
    rng.shuffle(cards)
    kq = _KQ[:]
    rng.shuffle(kq)
    n_kq = rng.randint(2, 4)
    pool = [QS, *kq[:n_kq], *cards[: sum(sizes) - 1 - n_kq]]
    rng.shuffle(pool)
    hands, k = [], 0
    for n in sizes:
        hands.append(pool[k:k + n])
        k += n
    return State.from_position(hands, attacker=0, trump_suit=None, rules=Rules.preset("salmi"))


@pytest.mark.parametrize(("sizes", "count"), [([3, 3], 40), ([4, 3], 20), ([2, 2, 2], 15)])
def test_marriages_match_the_reference(sizes: list[int], count: int) -> None:
    rng = random.Random(f"marriage{sizes}")
    declared = 0
    for _ in range(count):
        s = _marriage_position(rng, sizes)
        _check(s)
        r = solve(s)
        declared += bool(r.declarations) or any(isinstance(a, Declare) for a in r.line)
    if len(sizes) == 2:
        assert declared  # Some positions really do turn on a marriage.


def test_a_marriage_declared_before_the_position_is_fixed() -> None:
    s = State.from_position([["KH", "QH", "2C"], ["QS", "3C"]], attacker=0, trump_suit=2, rules=Rules.preset("salmi"))
    assert not s.legal_declares()
    assert solve(s).declarations == {}


# -- the pieces other modules call ------------------------------------------------------------------


def test_public_pieces_agree_with_the_reference() -> None:
    """``leads``, ``lead_safe``, ``defences``, ``resolve`` and ``after``, as the search bot calls them."""
    rng = random.Random(12)
    for _ in range(25):
        s = _position(rng, [rng.randint(2, 4), rng.randint(2, 4)], rng.choice([None, 3]))
        hands = tuple(s.hands)
        solver = Solver(s.rules, s.trump, 2)
        loss = _retrograde(s, 0)
        for lead in s.legal_leads():
            t = s.copy()
            t.play(lead)
            assert solver.lead_safe(hands, 0, lead.cards, 0) == (_key(t) not in loss)
            # Some defence the solver offers is as good for the defender as any legal defence.
            best = any(solver.after(*solver.resolve(hands, 0, 1, lead.cards, p), 1)
                       for p in solver.defences(hands[1], lead.cards, hands[0] & ~lead.cards | lead.cards))
            after_loss = _retrograde(t, 1)
            reference = any(_key(u) not in after_loss for u in _after_each(t))
            assert best == reference
            for pairs in solver.defences(hands[1], lead.cards, hands[0]):
                L.check_beat(1, hands[1], lead.cards, pairs, s.trump)
        reps = solver.leads(hands[0], hands[1], hands[1])
        assert bool(reps) and any(solver.lead_safe(hands, 0, m, 0) for m in reps) == _brute(s, 0)


def _after_each(t: State) -> list[State]:
    out = []
    for beat in t.legal_beats():
        u = t.copy()
        u.play(beat)
        out.append(u)
    return out


def test_representatives_take_the_lowest_cards_of_each_run() -> None:
    solver = Solver(Rules(), 3, 2)
    hand = sum(1 << c for c in parse_cards("4H 5H 7H 9H QS"))
    other = sum(1 << c for c in parse_cards("6H 2C"))
    rep: Callable[[str], list[str]] = lambda text: [  # noqa: E731
        card_name(c) for c in cards_of(solver.representative(hand, other, sum(1 << c for c in parse_cards(text))))
    ]
    assert rep("5H") == ["4H"]
    assert rep("9H") == ["7H"]
    assert rep("5H 9H") == ["4H", "7H"]
    assert rep("QS") == ["QS"]


def test_queen_of_spades_does_not_split_or_join_runs() -> None:
    """Q♠ is a run of her own, and J♠ K♠ around her form one run (she never beats nor is beaten)."""
    solver = Solver(Rules(), 1, 2)
    hand = sum(1 << c for c in parse_cards("JS QS KS"))
    other = sum(1 << c for c in parse_cards("2H 3H 4H"))
    names = sorted(" ".join(card_name(c) for c in cards_of(m)) for m in solver.leads(hand, other, other))
    assert names == ["JS", "JS KS", "JS QS", "JS QS KS", "QS"]
    rng = random.Random("queen")
    for _ in range(40):
        rest = [c for c in range(52) if c not in parse_cards("JS QS KS")]
        rng.shuffle(rest)
        attacker = [*parse_cards("JS QS KS"), *rest[: rng.randint(0, 2)]]
        defender = rest[2:2 + rng.randint(1, 4)]
        _check(State.from_position([attacker, defender], attacker=0, trump_suit=rng.choice([None, 1, 2])))


def test_big_two_player_positions_are_quick_and_consistent() -> None:
    rng = random.Random(2024)
    for _ in range(4):
        s = random_position(rng, [8, 8])
        r = solve(s)
        assert r.time_s < 5
        assert r.attacker_safe == bool(r.safe_leads)
        for m in r.safe_leads:
            assert s.can_lead(m)
        _replay_line(s, r.line, r.attacker_safe)
        # Value alone, with a fresh table, agrees.
        assert Solver(s.rules, s.trump, 2).safe(tuple(s.hands), 0, 0) == r.attacker_safe


def test_solve_needs_an_empty_talon_and_a_lead() -> None:
    s = State.from_seed(players=2, seed=1)
    with pytest.raises(MustamaijaError, match="empty talon"):
        solve(s)


def test_principal_line_replays_through_the_engine() -> None:
    rng = random.Random(9)
    for _ in range(20):
        s = _position(rng, [5, 5], rng.choice([None, 1]))
        r = solve(s)
        _replay_line(s, r.line, r.attacker_safe)
        assert all(isinstance(a, Lead | Beat) for a in r.line)


def test_bench_reports_every_size() -> None:
    rows = bench_solver(sizes=[(3, 3), (2, 2, 2)], count=2, seed=3)
    assert [r["size"] for r in rows] == ["3+3", "2+2+2"]
    assert all(r["median_s"] >= 0 and r["count"] == 2 for r in rows)


def test_a_lost_line_with_three_holders_searches_nothing_new() -> None:
    # The line from a lost position follows the ranks the search stored while judging the leads: apart from the
    # root itself, read once, it opens no position of three holders (two-holder endings go to the quick
    # two-player search), and it still ends in the hero's loss.
    rng = random.Random(21)
    lost = 0
    while lost < 10:
        s = random_position(rng, rng.choice([[3, 3, 3], [4, 3, 2], [3, 2, 2, 2]]))
        judge = Solver(s.rules, s.trump, s.n)
        if judge.safe_leads(tuple(s.hands), s.attacker):
            continue
        lost += 1
        opened = judge._counter[0]  # Positions of three or more holders searched (the two-player search aside).
        line = judge.line(tuple(s.hands), s.attacker, s.attacker)
        assert judge._counter[0] <= opened + 1
        _replay_line(s, line, safe=False)


def test_replies_and_results_pickle_in_both_builds() -> None:
    # A compiled frozen dataclass cannot be unpickled field by field: Reply pickles by value, as in the pure build.
    state = random_position(random.Random(4), [3, 3, 2])
    solver = Solver(state.rules, state.trump, state.n)
    hands = tuple(state.hands)
    replies = [r for lead in solver.leads(hands[0], hands[1], hands[2])[:3] for r in solver.replies(hands, 0, lead)]
    assert replies and pickle.loads(pickle.dumps(replies)) == replies
    result = solve(state)
    assert pickle.loads(pickle.dumps(result)) == result

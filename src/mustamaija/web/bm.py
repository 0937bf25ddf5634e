"""Black Maria at web tables: a seat's state (from its view only), events, bots, hints and replays.

Nothing here hands a :class:`~mustamaija.games.black_maria.state.State` to a client:
:func:`state_json` is a function of ``view_of(state, seat)``, so a seat never
sees another seat's hand, nor what it receives before every seat has passed
(B3), nor another seat's reneges before the hand is over (B7).

>>> from mustamaija.games.black_maria import State
>>> s = State.from_seed(players=4, seed=2)
>>> mine = state_json(s.view(s.to_act), deal=1)
>>> mine["phase"], mine["legal"]["kind"], mine["legal"]["count"], len(mine["hand"])
('pass', 'pass', 3, 13)
>>> state_json(s.view(None), deal=1)["hand"], state_json(s.view(None), deal=1)["legal"]
([], None)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any, Final

from mustamaija.core.cards import SUITS, card_name, cards_of
from mustamaija.core.errors import MustamaijaError
from mustamaija.core.protocol import Player
from mustamaija.games.black_maria import legality as L
from mustamaija.games.black_maria.actions import Action, Pass, Play
from mustamaija.games.black_maria.record import Record, state_to_json
from mustamaija.games.black_maria.state import State
from mustamaija.games.black_maria.view import View
from mustamaija.players.registry import make_bot as _make_bot
from mustamaija.web.errors import ApiError


def _bm_bot(spec: str, seed: int | None = None) -> Player:
    return _make_bot(spec, seed or 0, game="black-maria")  # type: ignore[no-any-return]

__all__ = ["GAME", "LEVELS", "action_body", "bot_action", "check_bot", "describe", "hint_json", "levels_json",
           "play_facts", "replay_json", "resolve_bot", "state_json"]

GAME: Final = "black-maria"
"""The value of a table's ``game`` key for Black Maria."""

LEVELS: Final = {"easy": "random", "medium": "heuristic", "hard": "pimc:samples=20", "expert": "pimc:samples=60"}
"""The bot levels of the lobby as Black Maria bot specs (the same level names as Mustamaija's)."""

_LABELS: Final = {"random": "random legal cards", "heuristic": "the strategy notes of RULES.md",
                  "pimc": "Monte Carlo search over sampled deals"}
_PHASES: Final = ("pass", "play", "over")


def _names(mask: int) -> list[str]:
    return [card_name(c) for c in cards_of(mask)]


def resolve_bot(spec: str) -> str:
    """Return the Black Maria bot spec of a level or spec (``"medium"`` is ``"heuristic"``).

    >>> resolve_bot("hard"), resolve_bot("pimc:samples=8"), resolve_bot("bm-random")
    ('pimc:samples=20', 'pimc:samples=8', 'random')
    """
    spec = spec.strip()
    return LEVELS.get(spec, spec.removeprefix("bm-"))


def check_bot(spec: object) -> str:
    """Return a level or Black Maria bot spec if a bot can be made from it; otherwise raise ``bad_bot``."""
    if not isinstance(spec, str) or not spec.strip() or len(spec) > 200:
        raise ApiError("bad_bot", f"a Black Maria bot must be a level ({', '.join(LEVELS)}) or a spec "
                                  f"(random, heuristic, pimc:samples=N), not {spec!r}")
    try:
        _bm_bot(resolve_bot(spec), 0)
    except (MustamaijaError, TypeError, ValueError) as e:
        raise ApiError("bad_bot", f"bad Black Maria bot {spec!r}: {e}") from None
    return spec.strip()


def levels_json() -> dict[str, Any]:
    """Return the Black Maria bot levels and bot names for ``GET /api/bots``."""
    return {
        "levels": [{"level": k, "spec": v, "label": _LABELS[v.partition(":")[0]]} for k, v in LEVELS.items()],
        "bots": ["random", "heuristic", "pimc"],
    }


# -- a seat's state ------------------------------------------------------------------------------


def _tricks(view: View) -> list[dict[str, Any]]:
    """Return the completed tricks (public): who led, the cards by seat, the winner and its points."""
    n = view.players
    out = []
    plays = view.plays
    for t in range(len(plays) // n):
        trick = plays[t * n:(t + 1) * n]
        cards = tuple(p.card for p in trick)
        winner = L.trick_winner(cards, trick[0].seat, n)
        out.append({"leader": trick[0].seat, "cards": [{"seat": p.seat, "card": card_name(p.card)} for p in trick],
                    "winner": winner, "points": L.penalty_of(sum(1 << c for c in cards))})
    return out


def legal_json(view: View) -> dict[str, Any] | None:
    """Return what the viewer may do now, or ``None`` if it is not to act.

    Passing: ``{"kind": "pass", "cards": hand, "count": k}`` (any ``k`` cards
    of the hand). Playing: ``{"kind": "play", "cards": [the legal cards]}``.
    """
    if not view.my_turn or view.is_over:
        return None
    if view.phase == 0:
        return {"kind": "pass", "cards": _names(view.hand), "count": view.pass_count}
    return {"kind": "play", "cards": _names(L.play_mask(view.hand, view.led, view.broken, view.rules.allow_renege))}


def state_json(view: View, *, deal: int) -> dict[str, Any]:
    """Return the hand as ``view`` sees it (docs/web.md, "Black Maria tables"), for the deal numbered ``deal``."""
    n = view.players
    over = view.is_over
    first = (view.dealer + 1) % n
    tricks = _tricks(view)
    return {
        "game": GAME,
        "deal": deal,
        "actions": view.npassed + len(view.plays),
        "seat": view.seat,
        "phase": _PHASES[view.phase],
        "to_act": None if over else view.to_act,
        "dealer": view.dealer,
        "leader": view.leader if view.phase == 1 else None,
        "pass_count": view.pass_count,
        "passed_seats": [(s - first) % n < view.npassed for s in range(n)],
        "hand": _names(view.hand),
        "hand_sizes": list(view.hand_sizes),
        "passed": _names(view.passed),
        "received": _names(view.received),
        "known": [[] if s == view.seat else _names(k) for s, k in enumerate(view.known)],
        "voids": ["".join(SUITS[i] for i in range(4) if v >> i & 1) for v in view.voids],
        "trick": [{"seat": s, "card": card_name(c)} for s, c in zip(view.trick_seats, view.trick, strict=True)],
        "led": SUITS[view.led] if view.led >= 0 else None,
        "hearts_broken": view.broken,
        "last_trick": tricks[-1] if tricks else None,
        "tricks": list(view.tricks),
        "won": [_names(w & _PENALTY_CARDS) for w in view.won],
        "points": view.points(),
        "reneges": list(view.reneges),
        "allow_renege": view.rules.allow_renege,
        "legal": legal_json(view),
    }


_PENALTY_CARDS: Final = sum(1 << c for c in range(52) if L.PENALTY[c])


# -- actions and events --------------------------------------------------------------------------


def action_body(action: Action) -> dict[str, Any]:
    """Return the client form of an action (the record form without the seat)."""
    body = action.to_json()
    del body["seat"]
    return body


def describe(action: Action) -> str:
    """Return an action as everybody may read it: a pass names no card.

    >>> describe(Pass(1, 7)), describe(Play(2, 10))
    ('seat 1 passes 3 cards', 'seat 2 plays QS')
    """
    if isinstance(action, Pass):
        return f"seat {action.seat} passes {action.cards.bit_count()} cards"
    return str(action)


def play_facts(state: State, broken_before: bool) -> dict[str, Any]:
    """Return the public facts a play just taken in ``state`` adds to its event: the trick won, hearts broken."""
    facts: dict[str, Any] = {}
    if state.broken and not broken_before:
        facts["hearts_broken"] = True
    if not state.trick:  # The play completed a trick; its winner leads the next.
        n = state.n
        plays = [a for a in state.actions()[-n:] if isinstance(a, Play)]
        cards = sum(1 << p.card for p in plays)
        facts["trick"] = {"winner": state.leader, "cards": [{"seat": p.seat, "card": card_name(p.card)} for p in plays],
                          "points": L.penalty_of(cards)}
    return facts


# -- bots and hints ------------------------------------------------------------------------------


def _complete(view: View, spec: str, seed: int) -> Action:
    """Return the compound action a bot chooses from ``view`` alone (a pass is chosen card by card)."""
    player = _bm_bot(resolve_bot(spec), seed)
    seat = view.seat
    assert seat is not None
    if view.phase == 1:
        return Play(seat, player.act(view))
    while view.sel.bit_count() < view.pass_count:
        step = player.act(view)
        view = dataclasses.replace(view, sel=view.sel | 1 << step)
    return Pass(seat, view.sel)


def bot_action(record: Mapping[str, Any], seat: int, spec: str, seed: int) -> dict[str, Any]:
    """Return the next action (record JSON) the bot ``spec`` plays for ``seat`` in the hand ``record``.

    >>> rec = Record.from_seed(players=4, seed=1)
    >>> sorted(bot_action(rec.to_json(), rec.start().to_act, "heuristic", seed=0))
    ['pass', 'seat']
    """
    state = Record.from_json(record).replay()
    if state.is_over or state.to_act != seat:
        raise MustamaijaError(f"seat {seat} is not to act in this hand")
    player = _bm_bot(resolve_bot(spec), seed)
    start = state.nlog
    while state.nlog == start:
        state.apply(player.act(state.view(seat)))
    return state.actions()[-1].to_json()


def hint_json(view: View) -> dict[str, Any]:
    """Return the heuristic's choice for the viewer, from its view only."""
    action = _complete(view, "heuristic", 0)
    what = "pass " + " ".join(_names(action.cards)) if isinstance(action, Pass) else f"play {card_name(action.card)}"
    return {"game": GAME, "bot": "heuristic", "action": action_body(action), "text": f"The heuristic would {what}."}


# -- replays ---------------------------------------------------------------------------------------


def replay_json(record: Record, names: Sequence[str | None] | None = None) -> dict[str, Any]:
    """Return every position of a hand with all hands shown; an illegal action raises ``RecordError``.

    >>> r = replay_json(Record.from_seed(players=3, seed=3))
    >>> r["game"], len(r["frames"]), r["frames"][0]["text"], len(r["frames"][0]["hands"][0])
    ('black-maria', 1, 'the deal', 17)
    """
    frames = []
    last: State | None = None
    for i, state in enumerate(record.states()):
        if i == 0:
            frames.append({"index": 0, "action": None, "text": "the deal", **state_to_json(state)})
        else:
            action = record.actions[i - 1]
            frames.append({"index": i, "action": action.to_json(), "text": str(action), **state_to_json(state)})
        last = state
    assert last is not None
    return {
        "game": GAME,
        "record": record.to_json(),
        "players": record.players,
        "names": list(names) if names is not None else [f"seat {s}" for s in range(record.players)],
        "finished": last.is_over,
        "points": last.points() if last.is_over else None,
        "frames": frames,
    }

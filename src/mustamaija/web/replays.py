"""Replays: every position of a deal with all hands shown, for finished deals and imported records.

>>> from mustamaija.games.mustamaija import Record
>>> rec = Record.from_seed(players=2, seed=3)
>>> r = replay_json(rec)
>>> len(r["frames"]), r["frames"][0]["text"], len(r["frames"][0]["hands"][0])
(1, 'the deal', 5)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mustamaija.core.cards import SUITS, card_name, cards_of
from mustamaija.games.mustamaija.record import Record
from mustamaija.games.mustamaija.state import State
from mustamaija.web.payloads import describe

__all__ = ["frame_json", "replay_json"]


def _names(mask: int) -> list[str]:
    return [card_name(c) for c in cards_of(mask)]


def frame_json(state: State, index: int, text: str, action: dict[str, Any] | None) -> dict[str, Any]:
    """Return one replay frame: the whole truth of ``state`` (every hand and the talon)."""
    over = state.phase == 2
    return {
        "index": index,
        "action": action,
        "text": text,
        "hands": [_names(state.hands[s]) for s in range(state.n)],
        "talon": [card_name(c) for c in state.talon_cards],
        "trump_suit": SUITS[state.trump] if state.trump >= 0 else None,
        "trump_card": card_name(state.trump_card) if state.trump_card >= 0 else None,
        "declarer": state.declarer if 0 <= state.declarer < state.n else None,
        "table": [{"led": card_name(c), "beater": None} for c in cards_of(state.led)],
        "discard": _names(state.discard),
        "phase": state.phase_name,
        "attacker": None if over else state.attacker,
        "defender": None if over else state.defender,
        "to_act": None if over else state.to_act,
        "out": list(state.out),
        "loser": state.loser if state.loser >= 0 else None,
        "stopped": state.stopped,
        "turns": state.turns,
    }


def replay_json(record: Record, names: Sequence[str | None] | None = None) -> dict[str, Any]:
    """Return the replay object of docs/web.md; an illegal action raises :class:`~mustamaija.core.errors.RecordError`."""
    frames = []
    last: State | None = None
    for i, state in enumerate(record.states()):
        if i == 0:
            frames.append(frame_json(state, 0, "the deal", None))
        else:
            action = record.actions[i - 1]
            frames.append(frame_json(state, i, describe(action), action.to_json()))
        last = state
    assert last is not None
    return {
        "record": record.to_json(),
        "players": record.players,
        "names": list(names) if names is not None else [f"seat {s}" for s in range(record.players)],
        "finished": last.is_over,
        "loser": last.loser if last.loser >= 0 else None,
        "frames": frames,
    }

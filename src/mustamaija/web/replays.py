"""Replays: every position of a deal with all hands shown, for finished deals and imported records, of any game.

>>> from mustamaija.core.registry import games
>>> for game in games():
...     r = replay_json(game, game.record_of(game.deal(3, seed=3)))
...     assert (len(r["frames"]), r["frames"][0]["text"], r["game"]) == (1, "the deal", game.name)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mustamaija.core.protocol import Game
from mustamaija.web.renderer import renderer_of

__all__ = ["replay_json"]


def replay_json(game: Game, record: Any, names: Sequence[str | None] | None = None) -> dict[str, Any]:
    """Return the replay object of docs/web.md; an illegal action raises :class:`~mustamaija.core.errors.RecordError`.

    Frame ``i`` is the position after the record's action ``i - 1``: the
    game's whole truth (:meth:`TableRenderer.frame_json
    <mustamaija.web.renderer.TableRenderer.frame_json>`) with the action and
    its words.
    """
    renderer = renderer_of(game)
    frames = []
    last: Any = None
    for i, state in enumerate(record.states()):
        action = record.actions[i - 1] if i else None
        frames.append({"index": i, "action": action.to_json() if action is not None else None,
                       "text": game.describe_action(action) if action is not None else "the deal",
                       **renderer.frame_json(state)})
        last = state
    return {
        "game": game.name,
        "title": game.title,
        "layout": renderer.layout,
        "record": record.to_json(),
        "players": record.players,
        "names": list(names) if names is not None else [f"seat {s}" for s in range(record.players)],
        "finished": last.is_over,
        "outcome": game.outcome_text(last),
        "scores": game.scores(last),
        "frames": frames,
    }

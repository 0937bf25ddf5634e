"""The one game-specific piece of the web app: a game's table renderer, found through ``game.renderer("web")``.

Everything else in :mod:`mustamaija.web` works through the game protocol
(:mod:`mustamaija.core.protocol`): records, dealing, actions, results and
bots. What a protocol cannot say generically is what a card table shows: the
facts of a seat's view that a layout draws, the public facts an action adds
to the event log, how a match is scored, and the lobby's rule form. A game
provides them with an object satisfying :class:`TableRenderer`, named by the
``"web"`` entry of its ``RENDERERS`` as ``module:attribute``.

Its :attr:`~TableRenderer.layout` names the browser module that draws the
table (``static/js/layouts/<layout>.js``), so layouts are shared by games
alike (a trick-taking layout, a beating-game layout), never named by game.

>>> from mustamaija.core.registry import games
>>> sorted({renderer_of(g).layout for g in games()})
['beating', 'trick']
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol, runtime_checkable

from mustamaija.core.protocol import Game
from mustamaija.core.registry import load_target

__all__ = ["TableRenderer", "renderer_of"]


@runtime_checkable
class TableRenderer(Protocol):
    """What a game tells the web app about its tables (docs/web.md)."""

    layout: str
    """The browser layout that draws the table: ``static/js/layouts/<layout>.js``."""
    default_players: int
    """The players of a table created without ``players``."""
    lobby: Mapping[str, Any]
    """The lobby's form for this game: ``blurb``, ``preset_labels``, ``rules`` fields and match ``ends``."""

    def match_settings(self, body: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
        """Return (rule overrides, ``{"deals", "max_losses"}``) of a create-table body; raise ``RulesError``."""

    def new_match(self, players: int, rules: Any, settings: Mapping[str, Any], first_dealer: int) -> Any:
        """Return a new match of ``settings`` (validated: a bad one raises ``RulesError``).

        A match has ``played`` (the deals scored so far) and ``over`` (whether it has reached its end).
        """

    def next_deal(self, match: Any, deck: tuple[int, ...]) -> Any:
        """Deal the match's next deal from ``deck`` (the cards dealt, top first) and return its state."""

    def finish_deal(self, match: Any, state: Any) -> dict[str, Any]:
        """Score a deal that is over in the match; return the public facts of its ``deal_over`` event."""

    def match_over(self, match: Any) -> dict[str, Any]:
        """Return the public facts of the ``match_over`` event (at least ``standings``)."""

    def match_json(self, match: Any, settings: Mapping[str, Any], deals: list[int]) -> dict[str, Any]:
        """Return the ``match`` of the table's metadata; ``deals`` numbers the match's finished deals."""

    def deal_columns(self, state: Any) -> dict[str, Any]:
        """Return the stored summary of a deal: ``loser`` (or ``None``), ``stopped`` and ``turns``."""

    def state_json(self, view: Any, deal: int) -> dict[str, Any]:
        """Return the deal as ``view`` sees it, the state of every ``sync`` and ``update``: a function of the view."""

    def events(self, before: Any, after: Any, action: Any) -> list[dict[str, Any]]:
        """Return the events of ``action`` from the spectator's views before and after it: public facts only.

        The first is the action's own event (``kind`` and ``text``, with its
        ``action`` body when that is public); the table adds its numbers.
        """

    def deal_facts(self, view: Any) -> dict[str, Any]:
        """Return the public facts of a new deal for its ``deal_start`` event, from the spectator's view."""

    def frame_json(self, state: Any) -> dict[str, Any]:
        """Return one replay frame: the whole truth of ``state`` (replays are of finished deals)."""


_CACHE: dict[str, TableRenderer] = {}


def renderer_of(game: Game) -> TableRenderer:
    """Return the web renderer of ``game`` (``game.renderer("web")``, a ``module:attribute``)."""
    target = game.renderer("web")
    if target is None:
        raise LookupError(f"the game {game.name!r} has no web renderer (its RENDERERS has no 'web' entry)")
    found = _CACHE.get(target)
    if found is None:
        obj = load_target(target, "RENDERER")
        if not isinstance(obj, TableRenderer):
            raise TypeError(f"{target} is not a web table renderer (see mustamaija.web.renderer.TableRenderer)")
        found = _CACHE[target] = obj
    return found

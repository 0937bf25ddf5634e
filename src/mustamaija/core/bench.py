"""Benchmark sections: the measures a game adds to ``mustamaija bench`` through its game object.

``mustamaija bench`` itself measures what every game has (random play
through the engine, the research adapters), for every game of the registry.
A measure only one game can take (its solver, its search, its bots' rollout
policy) is a :class:`BenchSection` that the game returns from
:meth:`~mustamaija.core.protocol.Game.bench_sections`; the command runs it
when its name is asked for (``--section``) or with ``--all``.

A section may declare options; the command line offers each as
``--<section>-<option>`` and hands the parsed values to the section in
:attr:`BenchSettings.options` (``None`` when not given, so the section's own
default applies).

>>> def rate(settings: BenchSettings) -> BenchReport:
...     n = settings.option("count", 3)
...     return BenchReport({"count": n}, (f"{n} things",))
>>> section = BenchSection("things", "count things", rate, (BenchOption("count", int, 3, "how many"),))
>>> section.flag(section.options[0]), section.run(BenchSettings(1.0, 0, "standard", None, {"count": 5})).figures
('--things-count', {'count': 5})
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["BenchOption", "BenchReport", "BenchSection", "BenchSettings", "play_random_deal"]


@dataclass(frozen=True)
class BenchOption:
    """A command-line option of a section, offered as ``--<section>-<name>``."""

    name: str
    type: Callable[[str], Any]
    """Parses the option's text (``int``, ``float``, ``str``...)."""
    default: Any
    """The value the section uses when the option is not given (shown in the help)."""
    help: str


@dataclass(frozen=True)
class BenchSettings:
    """What the command line hands a section: the time budget, the seed, the rules and the section's options."""

    seconds: float
    seed: int
    preset: str
    rules: Any
    """The rules of :attr:`preset` for the game being measured."""
    options: Mapping[str, Any] = field(default_factory=dict)
    """The section's options by name; ``None`` (or absent) when not given on the command line."""

    def option(self, name: str, default: Any) -> Any:
        """Return option ``name``, or ``default`` when it was not given."""
        value = self.options.get(name)
        return default if value is None else value


@dataclass(frozen=True)
class BenchReport:
    """What a section measured: JSON figures, and the lines to print without ``--json``."""

    figures: Any
    lines: tuple[str, ...] = ()


@dataclass(frozen=True)
class BenchSection:
    """A measure of one game: a name for ``--section``, a one-line help, the function and its options."""

    name: str
    help: str
    run: Callable[[BenchSettings], BenchReport]
    options: tuple[BenchOption, ...] = ()

    def flag(self, option: BenchOption) -> str:
        """Return the command-line flag of one of this section's options."""
        return f"--{self.name}-{option.name}"


def play_random_deal(game: Any, players: int, rules: Any, rng: random.Random) -> int:
    """Deal a seeded deal of ``game`` and play it out by uniformly random legal steps; return the steps.

    What every engine measure does with a deal: the legal steps are listed
    afresh at every step, as a player would need them.

    >>> from mustamaija.core.registry import DEFAULT_GAME, get_game
    >>> play_random_deal(get_game(DEFAULT_GAME), 3, None, random.Random(1)) > 0
    True
    """
    s = game.deal(players, rng.randrange(1 << 30), rules)
    steps = 0
    while not s.is_over:
        s.apply(rng.choice(s.legal_actions()))
        steps += 1
    return steps

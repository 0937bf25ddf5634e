"""What every game's rule set shares: a frozen dataclass of rule keys, read from and written to JSON.

A game's ``Rules`` is a frozen dataclass that subclasses :class:`RuleSet`
and validates its keys in ``__post_init__``; the JSON reading (unknown keys
refused), writing and ``replace`` are written once here.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Rules(RuleSet):
...     hands: int = 1
...     strict: bool = True
>>> Rules.from_json({"hands": 2}).replace(strict=False).to_json(only_changes=True)
{'hands': 2, 'strict': False}
>>> Rules.from_json({"colour": "red"})
Traceback (most recent call last):
...
mustamaija.core.errors.RulesError: unknown rule key 'colour' (known keys: hands, strict)
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping
from typing import Any, Self

from mustamaija.core.errors import RulesError

__all__ = ["RuleSet"]


class RuleSet:
    """The JSON side of a game's rule set (mixed into a frozen dataclass)."""

    __slots__ = ()

    @classmethod
    def from_json(cls, obj: Mapping[str, Any] | None) -> Self:
        """Build a rule set from its JSON object; missing keys take their defaults."""
        if obj is None:
            return cls()
        if not isinstance(obj, Mapping):
            raise RulesError(f"rules must be a JSON object, not {type(obj).__name__}")
        known = {f.name for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
        for key in obj:
            if key not in known:
                raise RulesError(f"unknown rule key {key!r} (known keys: {', '.join(sorted(known))})")
        return cls(**dict(obj))

    def to_json(self, *, only_changes: bool = False) -> dict[str, Any]:
        """Return the JSON object; with ``only_changes`` only the keys that differ from the defaults."""
        return dict(_json_of(self, only_changes))  # A copy: the cached object is shared.

    def replace(self, **changes: Any) -> Self:
        """Return a copy with some keys changed, validated."""
        return type(self).from_json({**self.to_json(), **changes})


@functools.lru_cache(maxsize=1024)
def _json_of(rules: RuleSet, only_changes: bool) -> dict[str, Any]:
    """Return a rule set's JSON object, once for each rule set: records and tables write it at every action."""
    out = {f.name: getattr(rules, f.name) for f in dataclasses.fields(rules)}  # type: ignore[arg-type]
    if only_changes:
        default = type(rules)()
        out = {k: v for k, v in out.items() if getattr(default, k) != v}
    return out

"""The exceptions the library raises: all are ``ValueError`` subclasses.

Every message names what was wrong; errors about game actions also carry the
id of the rule they break (``M11``, ``V3``…) so that people, records and tools
can point at the rule in the game's rules page under docs/.
"""

from __future__ import annotations

__all__ = [
    "CardError",
    "FormatError",
    "IllegalActionError",
    "MustamaijaError",
    "RecordError",
    "RulesError",
    "UnknownGameError",
]


class MustamaijaError(ValueError):
    """Base class of every error the library raises on bad input."""


class CardError(MustamaijaError):
    """A card, suit or card set could not be parsed."""


class RulesError(MustamaijaError):
    """A rule set has an unknown key, a bad value or an impossible combination."""


class UnknownGameError(MustamaijaError, KeyError):
    """No registered game has the name asked for."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class IllegalActionError(MustamaijaError):
    """An action breaks a rule; :attr:`rule` holds the rule id, such as ``"M13"``."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{rule}: {message}")
        self.rule = rule
        self.detail = message


class FormatError(MustamaijaError):
    """A record, position or other document is malformed."""


class RecordError(FormatError):
    """An action of a record could not be replayed.

    :attr:`index` is the action's 0-based index, :attr:`seat` its seat and
    :attr:`rule` the rule it breaks: a rule id of the game's rules page under docs/, a rule key such as
    ``max_lead``, or ``format`` when the action is malformed.
    """

    def __init__(self, index: int, seat: object, rule: str, message: str) -> None:
        where = f"action {index} (seat {seat})"
        super().__init__(f"{where}: {rule}: {message}")
        self.index = index
        self.seat = seat
        self.rule = rule
        self.detail = message

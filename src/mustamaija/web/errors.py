"""The API's one error shape: ``{"error": {"code": ..., "message": ...}}`` with an HTTP status."""

from __future__ import annotations

from typing import Any, Final

__all__ = ["STATUS", "ApiError", "Elsewhere"]

STATUS: Final[dict[str, int]] = {
    "bad_json": 400,
    "bad_request": 400,
    "bad_rules": 400,
    "bad_bot": 400,
    "bad_record": 400,
    "bad_position": 400,
    "unknown_type": 400,
    "hello_first": 400,
    "unauthorized": 401,
    "not_seated": 403,
    "hints_disabled": 403,
    "not_found": 404,
    "method_not_allowed": 405,
    "seat_taken": 409,
    "no_free_seat": 409,
    "not_playing": 409,
    "not_your_turn": 409,
    "stale": 409,
    "deal_not_finished": 409,
    "match_not_over": 409,
    "not_between_deals": 409,
    "name_taken": 409,
    "too_large": 413,
    "illegal": 422,
    "not_solvable": 422,
    "rate_limited": 429,
    "internal": 500,
    "moving": 503,
}
"""Every error code and its HTTP status (docs/web.md lists what each means)."""


class ApiError(Exception):
    """A refused request or message: a code of :data:`STATUS`, a message naming the fault, and maybe a rule id."""

    def __init__(self, code: str, message: str, *, rule: str | None = None) -> None:
        if code not in STATUS:
            raise ValueError(f"unknown error code {code!r}")
        super().__init__(message)
        self.code = code
        self.message = message
        self.rule = rule

    @property
    def status(self) -> int:
        """Return the HTTP status of this error."""
        return STATUS[self.code]

    def to_json(self) -> dict[str, Any]:
        """Return the ``{"error": {...}}`` object.

        >>> ApiError("stale", "the table is at version 4").to_json()
        {'error': {'code': 'stale', 'message': 'the table is at version 4'}}
        """
        body: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.rule is not None:
            body["rule"] = self.rule
        return {"error": body}


class Elsewhere(Exception):
    """The table is owned by another server of the cluster (``address``; None: no server is reachable yet)."""

    def __init__(self, table_id: str, address: str | None) -> None:
        super().__init__(f"table {table_id} is served by {address or 'no server yet'}")
        self.table_id = table_id
        self.address = address

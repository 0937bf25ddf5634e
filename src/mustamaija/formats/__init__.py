"""Interchange formats of FORMATS.md: records and the replay summary."""

from .record import RECORD_FORMAT, Record, state_to_json

__all__ = ["RECORD_FORMAT", "Record", "state_to_json"]

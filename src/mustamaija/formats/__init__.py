"""Interchange formats of FORMATS.md: records, endgame positions and the replay summary."""

from .position import POSITION_FORMAT, Position
from .record import RECORD_FORMAT, Record, state_to_json

__all__ = ["POSITION_FORMAT", "RECORD_FORMAT", "Position", "Record", "state_to_json"]

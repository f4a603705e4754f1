"""Razzle Dazzle: the rules for two players."""

from rules.razzle.board import Chain, Knight, RazzleMove
from rules.razzle.game import RazzleDazzle
from rules.razzle.state import RazzleState

__all__ = ["Chain", "Knight", "RazzleDazzle", "RazzleMove", "RazzleState"]

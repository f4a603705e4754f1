"""Boost (seed 000): the rules for two to four players, every variant."""

from rules.boost.board import BoostMove, Build, Promote, Step
from rules.boost.game import Boost
from rules.boost.state import BoostState

__all__ = ["Boost", "BoostMove", "BoostState", "Build", "Promote", "Step"]

"""Quorum: the rules for two players."""

from rules.quorum.board import Jump, Place, QuorumMove
from rules.quorum.game import Quorum
from rules.quorum.state import QuorumState

__all__ = ["Jump", "Place", "Quorum", "QuorumMove", "QuorumState"]

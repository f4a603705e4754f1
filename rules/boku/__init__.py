"""Boku: the rules for two players."""

from rules.boku.board import BokuMove, Place
from rules.boku.game import Boku
from rules.boku.state import BokuState, winning_line

__all__ = ["Boku", "BokuMove", "BokuState", "Place", "winning_line"]

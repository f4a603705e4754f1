"""Kyo: the rules for two players.

The package splits the game the way it is hard: `board` (items, geometry, setup), `turns`
(the actions of a turn and the search for every position a turn can reach), `replay` (typed
turns run through the same actions), `explain` (the reasons a player reads when the rules
refuse an action), `notation` (tokens in and out), `picker` (the step-by-step tree and its
words), `words`, `diagram` and `help`, like every game.

A position can have hundreds of thousands of turns, so only `legal_moves` (tests, search)
lists them: a typed turn is checked by playing its tokens, the pass check stops at the first
turn found, and the picker expands one node at a time.
"""

from rules.kyo.game import Kyo
from rules.kyo.state import KyoMove, KyoState, Turn, winner

__all__ = ["Kyo", "KyoMove", "KyoState", "Turn", "winner"]

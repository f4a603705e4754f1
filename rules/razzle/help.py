"""Razzle Dazzle's rules explained to players, one entry per help topic, in our own words."""

from __future__ import annotations

from collections.abc import Mapping

HELP_TOPICS: Mapping[str, str] = {
    "overview": (
        "Razzle Dazzle is a two-player game on a board 7 squares wide and 8 deep. Each side "
        "has five pieces that jump like chess knights and one ball that one of them carries. "
        "On your turn you either jump one piece or throw your ball along a line of your "
        "pieces. Get your ball into the hands of a piece standing on your opponent's back "
        "row and you win."
    ),
    "setup": (
        "Player 1 (x) starts with pieces on b1, c1, d1, e1 and f1; the d1 piece holds the "
        "ball (X). Player 2 (o) mirrors this on b8 to f8 with the ball on d8 (O). The a and "
        "g files start empty. Player 1 moves first, and no piece starts ineligible."
    ),
    "moving": (
        "Moving means one knight jump: two squares along a rank or file and then one square "
        "sideways, leaping over anything in between. The landing square must be empty; "
        "nothing is ever captured. The piece holding the ball cannot jump. A jump is the "
        "whole turn: you cannot also throw in it."
    ),
    "throwing": (
        "Instead of moving you may throw. The ball flies in a straight line (along a rank, a "
        "file or a diagonal) and stops at the first piece on that line. It must be one of "
        "your own, eligible pieces; any piece in the way, yours or your opponent's, blocks "
        "the throw. The catcher may throw on at once, so one turn can be a chain of throws; "
        "the chain ends whenever you want. Throwing is the whole turn: no jump after it."
    ),
    "ineligible": (
        "Every piece that throws or catches the ball becomes ineligible: it cannot catch "
        "the ball again, in this turn or any later one, until it makes a knight jump. So no "
        "piece handles the ball twice in one chain. Example: c1 throws to e1; now both c1 "
        "and e1 are ineligible and stay so, turn after turn, until each of them jumps. "
        "In the picture an ineligible piece wears a no-entry badge (a disc with a bar)."
    ),
    "forced-throw": (
        "If your opponent's last turn was a knight jump that landed right next to your ball "
        "(any of the 8 surrounding squares), you must throw the ball this turn whenever a "
        "throw is possible: a forced throw. Only a fresh jump triggers this, not a piece "
        "that was already standing there. If no throw is possible you may jump instead."
    ),
    "winning": (
        "Player 1 wins the moment a throw puts the ball on a piece on rank 8, player 2 the "
        "moment a throw puts it on a piece on rank 1. The chain stops there. A piece merely "
        "standing on that row without the ball wins nothing."
    ),
    "draws": (
        "The game is drawn when the same position comes up for the third time at the start "
        "of a turn (same pieces, balls, ineligible pieces, forced-throw situation and player "
        "to move), or when 200 turns have been played without a winner."
    ),
    "notation": (
        "A knight jump is its start and landing square: b1-c3. A throw lists every square "
        "the ball visits, starting with the holder: d1-e1 is one throw, d1-e1-e5 two. "
        "The step-by-step form d1-e1, e1-e5, end is understood too. Case, spaces and dashes "
        "do not matter. 'pass' is only for a player who has no legal turn at all: it skips "
        "the turn and has nothing to do with the ball."
    ),
}

"""Each game's scale from an evaluation to a win chance (`ai.base.logistic`: a score of one
scale reads 73%), fitted to level 3's own games: `python -m benchmarks.analysis_calibration
--fit` finds the scale under which the values level 3's searches gave at each move of its games
against itself best predict who won them (the most likely one): a position its 2-second search
reads at 70% is one it went on to win about 70% of the time (the analysis's shorter searches
read values alike, less surely). Only chances read from values use it (the analysis, a
search's reported chances): no search decides by it, so a new fit changes no move.
docs/analysis.md has the fits and the games behind them."""

SCALES: dict[str, float] = {
    "boku": 8.8,
    "boost": 2.7,
    "kyo": 0.85,
    "quorum": 3.3,
    "razzle": 3.0,
}

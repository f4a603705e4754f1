"""Posts kept as due work: a post that carries a turn (a board, a result, a replay, an
analysis) and that Discord did not take is a job in the store, run again after a backoff that
doubles from FIRST_RETRY up to LONGEST_WAIT, so an outage of hours costs no more than
LONGEST_WAIT once it ends, and a stop loses nothing (the next start finds the jobs).

After GIVE_UP_AFTER refusals in a row (about two days), or at once when the place is gone
for good (Discord answers 404: the thread or channel was deleted), the job stops and the
players are told by DM. Nobody loses on time meanwhile: a clock starts only when its board is
posted (see `Deadlines.clock_starts`).
"""

from __future__ import annotations

from bot.clock import MINUTE

FIRST_RETRY = MINUTE
LONGEST_WAIT = 30 * MINUTE
GIVE_UP_AFTER = 100  # retries: 31 minutes for the first five, then 30 minutes each


def last_try(attempts: int) -> bool:
    """Whether a job refused `attempts` times before, refused once more, is given up."""
    return attempts + 1 >= GIVE_UP_AFTER


def retry_delay(attempts: int) -> int:
    """Seconds to wait after `attempts` retries were refused (0: the first post was): 1
    minute, 2, 4, 8, 16, then 30 minutes each."""
    return min(FIRST_RETRY << min(attempts, 16), LONGEST_WAIT)

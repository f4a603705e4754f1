"""The computer as a player: whenever a posted position leaves one of its seats to move, it
thinks in the worker pool (never on the event loop), plays through the same ply-checked save
as anyone, and posts its board.

One task per match plays the computer's turns in a row (several seats of one Boost game may
follow each other). At start-up every match where the computer is to move is woken, so a
restart loses no turn of its.

A person's move that the computer answers gets one board for both (`reply`): the typing
indicator shows while it thinks, and the board shows the position after its reply. Only a
reply slower than REPLY_WAIT has the person's board posted first, the reply following.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence

import discord

from bot.posts.conversations import OutOfReach
from bot.posts.notifications import Announcer
from bot.posts.undelivered import Undelivered
from bot.service import Match, MatchService, ServiceError, Turn
from bot.store import Shards
from bot.workers.pool import WorkerPool

log = logging.getLogger(__name__)

TASK_PREFIX = "computer-turn"  # the offline harness waits for tasks named so
REPLY_WAIT = 5.0  # seconds a person's board waits for the computer's reply


class Computer:
    """Plays the computer's seats of every match."""

    def __init__(
        self,
        service: MatchService,
        announcer: Announcer,
        pool: WorkerPool,
        *,
        nodes: int | None = None,
        reply_wait: float | None = REPLY_WAIT,
    ) -> None:
        self.service = service
        self.announcer = announcer
        self.pool = pool
        self.nodes = nodes
        self.reply_wait = reply_wait
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._again: set[int] = set()  # woken while its task was already running

    def wake(self, match: Match) -> None:
        """Called for every posted position: play if the computer is to move."""
        mover = match.to_move
        if mover is None or mover.engine is None:
            return
        running = self._tasks.get(match.id)
        if running is not None and not running.done():
            self._again.add(match.id)
            return
        self._tasks[match.id] = asyncio.create_task(
            self._play_turns(match.id), name=f"{TASK_PREFIX}-{match.id}"
        )

    async def reply(self, match: Match, turns: Sequence[Turn]) -> None:
        """A person's `turns` (saved, not yet shown) left the computer to move: think with the
        typing indicator on, then post one board for both; if thinking takes longer than
        `reply_wait` (None: wait for it), post the person's board first and the reply when
        it comes. Returns
        once the person's move is on the board; the computer plays on in its task."""
        shown: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        task = asyncio.create_task(
            self._reply(match, turns, shown), name=f"{TASK_PREFIX}-{match.id}"
        )
        self._tasks[match.id] = task
        await asyncio.wait([shown, task], return_when=asyncio.FIRST_COMPLETED)
        if shown.done():
            shown.result()  # raises Undelivered when Discord did not take the board
        else:  # the task failed before showing the move: show it here
            await self.announcer.after_turns(match, turns)

    async def _reply(
        self, match: Match, turns: Sequence[Turn], shown: asyncio.Future[None]
    ) -> None:
        mover = match.to_move
        assert mover is not None and mover.engine is not None
        try:
            async with self.announcer.typing(match):
                thinking = asyncio.ensure_future(self._think(match, mover.engine))
                done, _ = await asyncio.wait([thinking], timeout=self.reply_wait)
                if not done:
                    await self.announcer.after_turns(match, turns)
                    shown.set_result(None)
                text = await thinking
            async with self.service.cache.lock(match.id):
                result = await self.service.turns.engine_move(match.id, match.row.ply, text)
                if shown.done():
                    await self.announcer.after_turns(result.match, result.turns)
                else:
                    await self.announcer.after_reply(result.match, turns, result.turns)
                    shown.set_result(None)
        except ServiceError as error:
            log.info("the computer stops in match #%s: %s", match.id, error.message)
            return
        except OutOfReach as error:  # told by DM (else its BOARD job tries again); it waits
            log.info("%s", error)
        except (Undelivered, discord.HTTPException) as error:
            # Its BOARD job posts it later, and the post wakes the computer if it is to move.
            log.info("match #%s: the board is posted later: %s", match.id, error)
            if not shown.done():  # the person who moved is told, in their move's answer
                shown.set_exception(error)
            return
        except Exception:
            log.exception("the computer failed to reply in match #%s", match.id)
            return
        finally:
            self._tasks.pop(match.id, None)
        self.wake(result.match)  # its next seat, in a 3-4 player Boost game

    async def resume(self, shards: Shards | None = None) -> None:
        """Wake every match in progress, on these shards' servers, where the computer holds
        a seat, once its latest board is posted (its BOARD job wakes the others: the
        computer's turn, like anyone's, starts with the post)."""
        for match_id in await self.service.store.matches_with_engines(shards):
            try:
                match = await self.service.cache.get(match_id)
            except ServiceError as error:
                log.warning("match #%s cannot be resumed: %s", match_id, error.message)
                continue
            posted = match.row.board_ply
            if posted is not None and posted >= match.row.ply:
                self.wake(match)

    async def _play_turns(self, match_id: int) -> None:
        """While the computer is to move here: think, then play and post."""
        try:
            while True:
                self._again.discard(match_id)
                match = await self.service.cache.get(match_id)
                mover = match.to_move
                if mover is None or mover.engine is None:
                    if match_id in self._again:
                        continue
                    return
                await self._play_one(match, mover.engine)
        except ServiceError as error:
            log.info("the computer stops in match #%s: %s", match_id, error.message)
        except OutOfReach as error:  # told by DM (else its BOARD job tries again); it waits
            log.info("%s", error)
        except (Undelivered, discord.HTTPException) as error:  # its BOARD job posts it later
            log.info("match #%s: the board is posted later: %s", match_id, error)
        except Exception:
            log.exception("the computer failed to play in match #%s", match_id)
        finally:
            self._tasks.pop(match_id, None)

    async def _think(self, match: Match, level: int) -> str:
        """The computer's move in `match`, as notation."""
        game, state = match.game, match.state
        answer = await self.pool.choose(
            game.name,
            game.dump(state),
            level,
            seed=match.row.seed,
            nodes=self.nodes,
            owner=min(match.people, default=None),
        )
        return game.format_move(state, answer.move)

    async def _play_one(self, match: Match, level: int) -> None:
        text = await self._think(match, level)
        async with self.service.cache.lock(match.id):
            result = await self.service.turns.engine_move(match.id, match.row.ply, text)
            await self.announcer.after_turns(result.match, result.turns)

    async def close(self) -> None:
        """Stop thinking: a turn not yet saved is played again after the next start-up."""
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

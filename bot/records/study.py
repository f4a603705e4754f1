"""An uploaded record analysed for study: its positions judged by the same worker and search
as a match's analysis, one at a time, and summarised; nothing of it is stored (a match's
analysis is bot.service.analysis's)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from ai.analysis import Judgement, Summary, judgements, summarise
from bot.records.imports import RecordError, Study, replay
from bot.service.analysis import Reader
from bot.texts import t

MAX_POSITIONS = 400
"""The most positions judged for one upload: at the default 0.5 s each, under 4 minutes,
well inside the 15 minutes an interaction's answer may take."""


@dataclass(frozen=True)
class Studied:
    """A record with each position judged and each seat's summary."""

    study: Study
    states: tuple[Any, ...]
    judged: tuple[Judgement, ...]
    summaries: tuple[Summary, ...]


async def analyse(
    study: Study, read: Reader, seconds: float, nodes: int | None, asker: int
) -> Studied:
    """Replay the record (refused, naming the line, if a turn cannot be played), then judge
    every position in the analysis worker, in `asker`'s turn among the members waiting."""
    states = await asyncio.to_thread(replay, study)
    if len(states) > MAX_POSITIONS:
        raise RecordError(t("records.study.too_long", count=len(states), limit=MAX_POSITIONS))
    game, seed = study.game, study.record.seed
    readings = [
        await read(game.name, game.dump(state), seconds, seed, nodes, asker) for state in states
    ]
    judged = await asyncio.to_thread(judgements, game.name, states, study.record.turns, readings)
    return Studied(study, states, tuple(judged), summarise(judged, study.record.players))

"""What runs inside a worker process of the bot's pool (bot/workers/pool.py), and the
computer's search job. It lives in `ai`, not `bot`, so a fresh worker imports the rules and
the AI only, not discord.py; a job's function is imported by name when the job arrives.

The pool starts `python -c SERVE NICENESS *sys.path` (the bot's import path, so a worker
imports what the bot would) and talks to it over the worker's stdin and stdout: each message
is its length (HEADER) and then its pickle.
"""

from __future__ import annotations

import ctypes
import os
import pickle
import queue
import signal
import struct
import sys
import threading
import time
import traceback
from collections.abc import Callable, Mapping
from typing import IO, Any

import ai
from ai.base import Choice
from rules import get_game

# (game name, dump, level, seconds, seed, nodes) -> the search's Choice
Search = Callable[[str, Mapping[str, Any], int, float | None, int | None, int | None], Choice]
SERVE = "import sys; sys.path[:] = sys.argv[2:]; from ai.worker import serve; serve()"
HEADER = struct.Struct("!Q")
READY = "ready"
DONE, RAISED = "done", "raised"
# The fallback's CPU time: it runs in the bot's own process, beside the event loop.
FALLBACK_SECONDS = 0.5


def search_dump(
    game_name: str,
    dump: Mapping[str, Any],
    level: int,
    seconds: float | None,
    seed: int | None,
    nodes: int | None = None,
) -> Choice:
    """The worker's job: load the position and search it; `info` gains the CPU seconds the
    whole job took ("cpu")."""
    start = time.process_time()
    state = get_game(game_name).load(dump)
    choice = ai.choose(game_name, state, level=level, seconds=seconds, seed=seed, nodes=nodes)
    choice.info["cpu"] = time.process_time() - start
    return choice


def fallback_dump(game_name: str, dump: Mapping[str, Any], seed: int | None) -> Choice:
    """The move when a worker dies or hangs: the one-ply reference player's, within
    FALLBACK_SECONDS (never a random move unless not one move could be listed in time)."""
    state = get_game(game_name).load(dump)
    return ai.reference(game_name, state, seconds=FALLBACK_SECONDS, seed=seed)


def serve() -> None:
    """A worker's life: lower its CPU priority by argv[1] (os.nice), say READY, then run one
    job at a time: (function, args, kwargs) in, (DONE, result) or (RAISED, exception) out.
    A job that raises leaves the worker serving.

    A thread reads the pipe, so the bot's end is noticed at once, even mid-job: when the
    bot closes the pipe or dies, the process ends (no worker outlives the bot). On Linux the
    kernel ends it too when the bot's process dies (`_die_with_parent`)."""
    _die_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C stops the bot, which stops us
    requests, answers = os.fdopen(os.dup(0), "rb"), os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # a stray print goes to the log, not into an answer
    os.nice(int(sys.argv[1]))
    inbox: queue.SimpleQueue[bytes] = queue.SimpleQueue()
    threading.Thread(target=_listen, args=(requests, inbox), daemon=True).start()
    _send(answers, READY)
    while True:
        _send(answers, _run(inbox.get()))


PR_SET_PDEATHSIG = 1  # prctl(2): the signal this process gets when its parent dies


def _die_with_parent() -> None:
    """On Linux, ask the kernel to kill this worker when the bot's process dies, whatever
    the worker is doing. A bot that died just before the ask left us adopted by another
    parent: we end at once (one that died earlier closed the pipe, which ends us too)."""
    if not sys.platform.startswith("linux"):
        return
    parent = os.getppid()
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:
        os._exit(0)


def _listen(requests: IO[bytes], inbox: queue.SimpleQueue[bytes]) -> None:
    while (request := _receive(requests)) is not None:
        inbox.put(request)
    os._exit(0)


def _run(request: bytes) -> tuple[str, Any]:
    try:
        function, args, kwargs = pickle.loads(request)
        return DONE, function(*args, **kwargs)
    except Exception as error:
        traceback.print_exc()  # the worker's stderr is the bot's
        return RAISED, error


def _receive(requests: IO[bytes]) -> bytes | None:
    """The next message's pickle, or None once the pipe is closed."""
    header = requests.read(HEADER.size)
    if len(header) < HEADER.size:
        return None
    (size,) = HEADER.unpack(header)
    message = requests.read(size)
    return message if len(message) == size else None


def _send(answers: IO[bytes], message: object) -> None:
    try:
        data = pickle.dumps(message)
    except Exception as error:  # an answer or exception that does not pickle
        data = pickle.dumps((RAISED, RuntimeError(f"the job's answer does not pickle: {error!r}")))
    answers.write(HEADER.pack(len(data)))
    answers.write(data)
    answers.flush()

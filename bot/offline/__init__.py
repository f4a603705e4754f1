"""Offline Discord: the real discord.py with its two network seams answered in memory.

`HTTPClient.request` (bot-token REST: login, command sync, channel messages, threads; see
`rest`) and `AsyncWebhookAdapter.request` (interaction callbacks and follow-ups; see
`interactions`) are replaced on this bot only; interactions enter through
`parse_interaction_create`, as from the gateway (`harness`). Everything the bot sends is kept
as `Sent` records (images included, see `state`), so tests and `python -m bot --offline`
(`session`) see exactly what Discord would have shown.

It refuses what Discord refuses, with Discord's error codes: bodies failing an optional
`check_request` (the tests pass Discord's OpenAPI document, tests/bot/spec.py), message
limits (`checks`), a second or late answer to an interaction, a token used before the answer
or after 15 minutes (on the offline Discord's clock, see `delay` and `advance`). Each such
refusal is a bug in the bot: `run` raises `Refused` for it. Permissions withheld per channel
(`withhold`) and 429s (`rate_limit`) are answered like Discord too, but are conditions the
bot must handle.

A new endpoint is one function in `rest` (bot-token REST) or `interactions` (through an
interaction's token), named under its discord.py route template in that module's `ENDPOINTS`.

These are private discord.py names: the package pins discord.py's minor version, and all
knowledge of them stays in this package.
"""

from bot.offline.harness import INTERACTION_TASKS, OfflineDiscord
from bot.offline.records import OfflineError, Refused, Sent, Upload, User
from bot.offline.session import run_offline

__all__ = [
    "INTERACTION_TASKS",
    "OfflineDiscord",
    "OfflineError",
    "Refused",
    "Sent",
    "Upload",
    "User",
    "run_offline",
]

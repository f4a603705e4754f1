"""The offline Discord as tests and the terminal session drive it: it installs the two
network seams on a bot, hands it interactions as the gateway would, waits for it to finish,
and moves time forward."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import AsyncIterator
from typing import Any

import discord
from discord import app_commands
from discord.webhook.async_ import async_context

from bot.app import BoardBot
from bot.clock import ManualClock
from bot.jobs.computer import TASK_PREFIX
from bot.jobs.startup import TASK_NAME as CATCH_UP_TASK
from bot.offline import interactions, rest
from bot.offline.checks import RequestCheck
from bot.offline.interactions import AUTOCOMPLETE, COMMAND, COMPONENT
from bot.offline.records import OfflineError, Pending, Refused, Sent, User
from bot.offline.state import DiscordState
from bot.posts.notifications import FOLLOWERS_TASK
from bot.service.analysis import TASK_PREFIX as ANALYSIS_TASKS

# The bot's work for an interaction: its command or component, and the listeners of the events
# it raises (`on_interaction`, `on_app_command_completion`).
INTERACTION_TASKS = (
    "CommandTree-invoker",
    "discord-ui-view-dispatch",
    "discord-ui-dynamic-item",
    "discord.py: on_",
)
# ... and the computer's turns, analyses and followers' DMs that follow it.
DISPATCH_TASKS = (*INTERACTION_TASKS, TASK_PREFIX, ANALYSIS_TASKS, FOLLOWERS_TASK)


class OfflineDiscord(DiscordState):
    """A bot connected to the offline Discord: `async with OfflineDiscord(bot) as h:`, then
    `h.command`, `h.click`, `h.choose`, `h.autocomplete` and `h.advance`."""

    def __init__(
        self,
        bot: BoardBot,
        *,
        server: str = "Offline",
        channel: str = "games",
        check_request: RequestCheck | None = None,
    ) -> None:
        super().__init__(server=server, channel=channel, check_request=check_request)
        self.bot = bot
        self._adapter = interactions.WebhookAdapter(self)
        self._context_token: Any = None

    # -- lifecycle -------------------------------------------------------------------------

    async def start(self) -> None:
        """Install the seams and log in: the bot's real `setup_hook` runs."""
        self._context_token = async_context.set(self._adapter)
        await self._log_in()

    async def restart(self, bot: BoardBot) -> None:
        """Swap in a new bot process (say, on the same database) while Discord's side,
        messages and their buttons included, stays as it was."""
        await self.settle()
        await self.bot.close()
        self.bot = bot
        await self._log_in()

    async def close(self) -> None:
        await self.settle()
        await self.bot.close()
        if self._context_token is not None:
            async_context.reset(self._context_token)
            self._context_token = None

    async def __aenter__(self) -> OfflineDiscord:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def _log_in(self) -> None:
        self.bot.http.request = functools.partial(rest.request, self)  # type: ignore[method-assign]
        self.bot.http.get_from_cdn = self.from_cdn  # type: ignore[method-assign]
        await self.bot.login("offline-token")
        self.bot._connection.call_handlers("ready")  # as the gateway's READY: bot.is_ready()
        await self.settle((CATCH_UP_TASK,))  # tests see the start-up's catch-up done
        await self.settle()  # and the posts it made due (boards left unposted) posted

    def guild_create(self, *, joined: bool = False, withheld: tuple[str, ...] = ()) -> None:
        """The gateway's GUILD_CREATE for the offline server, as at a start (`joined`: as
        when the bot is added to it), the bot's role granting all but `withheld` there."""
        granted = discord.Permissions.all()
        for name in ("administrator", *withheld):  # an administrator has every permission
            setattr(granted, name, False)
        everyone = {"id": str(self.guild_id), "name": "@everyone", "position": 0, "color": 0}
        everyone |= {"hoist": False, "managed": False, "mentionable": False, "flags": 0}
        payload: dict[str, Any] = {
            "id": str(self.guild_id),
            "name": self.server,
            "owner_id": str(self.user("owner").id),
            "roles": [{**everyone, "permissions": str(granted.value)}],
            "members": [{**self.bot_user.member(), "roles": []}],
            "channels": [self.channels[self.channel_id]],
            "threads": [],
            "member_count": 2,
        }
        if not joined:
            payload["unavailable"] = False
        self.bot._connection.parse_guild_create(payload)

    # -- interactions ----------------------------------------------------------------------

    def dispatch(self, payload: dict[str, Any], user: User, message_id: int | None = None) -> None:
        """Hand an interaction to the bot as the gateway would (it runs in the background)."""
        self.interactions[payload["token"]] = Pending(
            int(payload["id"]),
            payload["token"],
            user,
            int(payload["channel_id"]),
            message_id,
            self.now(),
        )
        self.bot._connection.parse_interaction_create(payload)  # type: ignore[arg-type]

    async def run(
        self, payload: dict[str, Any], user: User, message_id: int | None = None
    ) -> list[Sent]:
        """Dispatch an interaction, wait for the bot to finish with it, and return what it
        did. Raises Refused if Discord would have refused any request it made meanwhile."""
        start = len(self.sent)
        self.dispatch(payload, user, message_id)
        await self.settle()
        refused, self.violations = self.violations, []
        if refused:
            raise Refused(refused)
        return self.sent[start:]

    async def settle(self, names: tuple[str, ...] = DISPATCH_TASKS) -> None:
        """Wait until every handler the bot started for an interaction has finished, and the
        computer's turns and the jobs due now (a finished match's replay) that followed
        (`names=INTERACTION_TASKS` leaves those running)."""
        me = asyncio.current_task()
        while True:
            running = [
                t
                for t in asyncio.all_tasks()
                if t is not me and not t.done() and t.get_name().startswith(names)
            ]
            if running:
                await asyncio.gather(*running, return_exceptions=True)
            elif names != DISPATCH_TASKS or not await self._jobs_due():
                return

    async def _jobs_due(self) -> bool:
        """Run the scheduler's jobs due by now (after any run it began itself); whether
        there were any."""
        scheduler = getattr(self.bot, "scheduler", None)
        return scheduler is not None and await scheduler.run_due() > 0

    def command_payload(
        self, user: User, name: str, channel_id: int | None = None, /, **options: Any
    ) -> dict[str, Any]:
        payload, command = self._command_interaction(COMMAND, user, name, channel_id, options)
        missing = [p.name for p in command.parameters if p.required and p.name not in options]
        if missing:  # Discord's client never sends a command without its required options
            raise OfflineError(f"/{name} needs {' '.join(f'{m}:...' for m in missing)}")
        return payload

    async def command(
        self, user: User, name: str, channel_id: int | None = None, /, **options: Any
    ) -> list[Sent]:
        """Run a slash command and return what the bot did in answer."""
        return await self.run(self.command_payload(user, name, channel_id, **options), user)

    async def autocomplete(
        self,
        user: User,
        name: str,
        focused: str,
        channel_id: int | None = None,
        /,
        **options: Any,
    ) -> list[str]:
        """The choice values the bot offers while `focused` is being typed."""
        payload, _ = self._command_interaction(AUTOCOMPLETE, user, name, channel_id, options)
        for option in interactions.leaf_options(payload["data"]):
            if option["name"] == focused:
                option["focused"] = True
        await self.run(payload, user)
        return [c["value"] for c in self.autocompleted.get(int(payload["id"]), [])]

    def _command_interaction(
        self, kind: int, user: User, name: str, channel_id: int | None, options: dict[str, Any]
    ) -> tuple[dict[str, Any], app_commands.Command[Any, ..., Any]]:
        if channel_id is not None and self.private(channel_id) and user.id not in self.installed:
            raise OfflineError(
                f"{user.name} has not added the app to their account, so Discord offers them "
                f"no /{name} here: install {user.name} first (buttons work without)"
            )
        payload = interactions.interaction(self, kind, user, channel_id)
        command = interactions.slash_command(self.bot.tree, name)
        payload["data"] = interactions.command_data(self, command, options)
        return payload, command

    def component_payload(
        self, user: User, message_id: int, custom_id: str, values: list[str] | None = None
    ) -> dict[str, Any]:
        message = self.messages[message_id]
        channel_id = int(message["channel_id"])
        if self.private(channel_id) and user not in self.members[channel_id]:
            raise OfflineError(f"{user.name} is not in that conversation, so sees none of it")
        payload = interactions.interaction(self, COMPONENT, user, channel_id)
        kind = 2 if values is None else 3
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": kind}
        if values is not None:
            data["values"] = values
        payload["data"] = data
        payload["message"] = message
        return payload

    async def click(self, user: User, message_id: int, label: str) -> list[Sent]:
        """Press the button with this label on a message."""
        button = interactions.component(
            self, message_id, lambda c: c.get("label") == label, f"button {label}"
        )
        payload = self.component_payload(user, message_id, button["custom_id"])
        return await self.run(payload, user, message_id)

    async def choose(self, user: User, message_id: int, value: str) -> list[Sent]:
        """Pick an option in whichever select menu of the message offers it."""
        menu = interactions.component(
            self,
            message_id,
            lambda c: c.get("type") == 3 and any(o["value"] == value for o in c["options"]),
            f"a menu offering {value}",
        )
        payload = self.component_payload(user, message_id, menu["custom_id"], [value])
        return await self.run(payload, user, message_id)

    # -- time ------------------------------------------------------------------------------

    async def advance(self, seconds: float) -> list[Sent]:
        """Move the bot's (manual) clock forward, running what falls due on the way, in
        order; returns what the bot did."""
        return [sent async for step in self.advancing(seconds) for sent in step]

    async def advancing(self, seconds: float) -> AsyncIterator[list[Sent]]:
        """`advance`, step by step: the clock stops at each due time on the way, and what
        the bot did then is yielded while the clock still shows that time."""
        clock = self.bot.clock
        if not isinstance(clock, ManualClock):
            raise OfflineError("only a bot built with a ManualClock can be moved in time")
        until = clock.now() + seconds
        while True:
            start = len(self.sent)
            await self.bot.scheduler.run_due()  # also waits for a run the bot began itself
            await self.settle()
            if len(self.sent) > start:
                yield self.sent[start:]
            due = await self.bot.scheduler.next_due()
            if due is None or due > until:
                break
            self._pass(clock, max(0.0, due - clock.now()))
        self._pass(clock, until - clock.now())

    def _pass(self, clock: ManualClock, seconds: float) -> None:
        """Time passes for the bot and for Discord alike."""
        clock.advance(seconds)
        self.delay(seconds)

"""`python -m bot --offline`: play through the real bot in a terminal, no Discord needed.

Each input line is `NAME: ACTION` or `NAME in PLACE: ACTION`, where ACTION is a slash
command (`/move move:a1e3 match:2`, users as `@name`), `click LABEL` (a button on the
latest message that has it), `pick VALUE` (an option of the latest menu offering it) or
`complete /command option:typed` (the suggestions offered while the last option is typed).
`@bot` is the bot itself.
PLACE is `#games` (the default), `thread` (the newest thread) or `thread N` (match N's), in
the first server; `#games@other`, `thread@other` or `thread N@other` are places in another
server (`other`), to see what one server may not of another's; `dm NAME` is the speaker's DM
with NAME and `group NAME NAME ...` their group DM with those people (the same people name the
same conversation), where the app is no member and only answers. A line `install NAME` adds the
app to NAME's account: only then does Discord offer NAME its commands in DMs and group DMs
(buttons there work for everyone). Users, servers and channels exist from their first line.
Replies print as text; images are saved to files, the previous session's cleared first, and
a second image of the same name gets a `-v2` suffix.
A line `advance DURATION` (`20h`, `3d`, `1d12h`, `30m`) moves the bot's clock forward and runs
everything that falls due meanwhile (reminders, DMs, timeouts, expiries), in order.
A line `locale NAME CODE` (`locale alice de`) sets NAME's client language (a Discord locale:
`de`, `es-ES`, `fr`, `pt-BR`, `en-US`) for the rest of the session; the server's own stays
English unless `/server settings language:` chooses another.
A line `fail posts DURATION` makes every message the bot posts to a channel (or, in a private
conversation, as a follow-up) fail with 503 for that span of the clock (a partial outage, to
see how the bot recovers); `fail posts off` ends it early.
Each line's answer, the computer's reply move included, is printed before the next line is
read, so a script always plays out the same way (set AI_NODES for the same computer moves).
SIGTERM or Ctrl+C ends the session after the line under way, and the bot stops as a served
one does (bot.app.BoardBot.stop).
"""

from __future__ import annotations

import asyncio
import itertools
import re
import sys
import threading
import time
from dataclasses import replace
from pathlib import Path
from typing import Any, TextIO

import discord

from bot.app import create_bot
from bot.clock import ManualClock, describe_duration, parse_duration
from bot.offline.harness import OfflineDiscord
from bot.offline.records import OfflineError, Sent, Upload, User
from bot.operations.signals import stop_on_signals
from bot.settings import Settings

LINE = re.compile(r"^\s*(?P<name>[\w.-]+)(?:\s+in\s+(?P<place>[^:]+?))?\s*:\s*(?P<action>.+)$")
OPTION = re.compile(r"(\w+):(.*?)(?=\s+\w+:|$)")
PLACE = re.compile(
    r"^(?:#(?P<channel>[\w-]+)|thread(?:\s+#?(?P<match>\d+))?)(?:\s*@(?P<server>[\w.-]+))?$"
)
EXAMPLE = """\
Type lines like these (Ctrl-D to quit):
  alice: /challenge game:quorum opponent:@bob
  bob: click Accept
  alice: /move move:a1e3
  bob: click Move      then   bob: pick h8   and   bob: click Play
  alice: /rules game:quorum topic:moving
  carol: /challenge game:boku opponent:@bot level:1     (play the computer)
  advance 1d12h        (time passes: reminders, timeouts and expiries happen)"""


class Session:
    """Reads lines, drives the harness, and prints what the bot answered."""

    def __init__(self, harness: OfflineDiscord, images: Path, out: TextIO) -> None:
        self.harness = harness
        self.images = images
        self.out = out
        self.saved = 0
        self.shown: dict[int, str] = {}  # message id -> text last printed

    def say(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    async def line(self, text: str) -> None:
        if not text.strip() or text.lstrip().startswith("#"):
            return
        verb, _, duration = text.strip().partition(" ")
        if verb.lower() == "advance":
            await self.advance(duration)
            return
        if verb.lower() == "install" and duration.strip():
            user = self.harness.user(duration.strip())
            self.harness.install(user)
            self.say(f"install {user.name}\n   ~ {user.name} added the app to their account")
            return
        words = text.split()
        if verb.lower() == "locale" and len(words) == 3:
            self.locale(words[1], words[2])
            return
        if [w.lower() for w in words[:2]] == ["fail", "posts"]:
            self.fail_posts(" ".join(words[2:]))
            return
        found = LINE.match(text)
        if not found:
            self.say(f"?? not understood: {text.strip()!r} (write NAME: /command or NAME: click X)")
            return
        user = self.harness.user(found["name"])
        self.say(f"{user.name}: {found['action'].strip()}")
        try:
            sent = await self.act(user, found["place"], found["action"].strip())
        except OfflineError as error:
            self.say(f"?? {error}")
            return
        self.print(sent)

    async def advance(self, duration: str) -> None:
        self.say(f"advance {duration.strip()}")
        try:
            seconds = parse_duration(duration)
        except ValueError as error:
            self.say(f"?? {error}")
            return
        async for step in self.harness.advancing(seconds):
            self.print(step)
        self.say(f"   ~ {describe_duration(seconds)} later")

    def locale(self, name: str, code: str) -> None:
        """`locale NAME CODE`: NAME's interactions carry the Discord locale CODE from now on."""
        self.say(f"locale {name} {code}")
        try:
            locale = discord.Locale(code)
        except ValueError:
            self.say(f"?? {code!r} is no Discord locale (such as de, es-ES, fr, pt-BR, en-US)")
            return
        user = self.harness.user(name)
        self.harness.speak(user, locale.value)
        self.say(f"   ~ {user.name}'s Discord speaks {locale.value}")

    def fail_posts(self, duration: str) -> None:
        """`fail posts DURATION` starts an outage of message posts; `fail posts off` ends it."""
        self.say(f"fail posts {duration.strip()}")
        if duration.strip().lower() == "off":
            self.harness.fail_posts(None)
            self.say("   ~ posts work again")
            return
        try:
            seconds = parse_duration(duration)
        except ValueError as error:
            self.say(f"?? {error} (or fail posts off)")
            return
        self.harness.fail_posts(seconds)
        self.say(f"   ~ every message post fails with 503 for {describe_duration(seconds)}")

    def print(self, sent: list[Sent]) -> None:
        for item in sent:
            self.show(item)
            if item.message_id:
                self.shown[item.message_id] = item.content

    async def act(self, user: Any, place: str | None, action: str) -> list[Sent]:
        channel = self.place(place, user)
        if action.startswith("/"):
            name, options = self.command(action)
            return await self.harness.command(user, name, channel, **options)
        verb, _, what = action.partition(" ")
        if verb == "complete" and what.startswith("/"):
            name, options = self.command(what)
            if not options:
                raise OfflineError("say what is typed so far, as in: complete /move move:e2")
            focused = list(options)[-1]
            offered = await self.harness.autocomplete(user, name, focused, channel, **options)
            self.say(f"   suggestions: {', '.join(offered)}" if offered else "   no suggestions")
            return []
        if verb == "click":
            message = self.find(user.id, lambda s: any(_same(b, what) for b in s.buttons))
            label = next(b for b in message.buttons if _same(b, what))
            return await self.harness.click(user, message.message_id or 0, label)
        if verb == "pick":
            message = self.find(user.id, lambda s: what in _options(s))
            return await self.harness.choose(user, message.message_id or 0, what)
        raise OfflineError(
            f"unknown action {verb!r}: use /command, click LABEL, pick VALUE or complete /command"
        )

    def command(self, text: str) -> tuple[str, dict[str, Any]]:
        """`/move move:e2 match:3` -> ("move", {"move": "e2", "match": "3"}); the words
        before the first option name the command: `/tournament start` -> "tournament start"."""
        first = OPTION.search(text)
        head, rest = (text, "") if first is None else (text[: first.start()], text[first.start() :])
        return " ".join(head[1:].split()), {
            k: self.value(v.strip()) for k, v in OPTION.findall(rest)
        }

    def place(self, place: str | None, speaker: User) -> int | None:
        """The channel a line runs in (None: the first server's first channel)."""
        if place is None:
            return None
        kind, *names = place.split()
        if kind in ("dm", "group") and names and (kind == "group" or len(names) == 1):
            return self.harness.conversation(speaker, [self.harness.user(n) for n in names])
        found = PLACE.match(place.strip())
        if not found:
            raise OfflineError(
                f"no place called {place!r}: use #games, thread or thread N (add @SERVER for "
                "another server: #games@other), dm NAME or group NAME NAME ..."
            )
        server = found["server"] or self.harness.server
        if found["channel"]:
            return self.harness.server_channel(server, found["channel"])
        threads = self.harness.threads(self.harness.servers.get(server, 0))
        for thread in reversed(threads):
            if found["match"] is None or f"#{found['match']}:" in thread["name"]:
                return int(thread["id"])
        raise OfflineError(f"no match thread {place.strip()!r} yet")

    def value(self, text: str) -> Any:
        """An option's value: `@name` is that user (`@bot` the bot itself), `#name` that
        text channel, `file:PATH` that file attached, else the text."""
        if text.startswith("file:"):
            path = Path(text.removeprefix("file:"))
            if not path.is_file():
                raise OfflineError(f"no file {str(path)!r} to attach")
            return Upload(path.name, path.read_bytes())
        if text.startswith("#") and len(text) > 1:
            return self.harness.server_channel(self.harness.server, text[1:])
        if not text.startswith("@"):
            return text
        if text[1:].lower() == "bot":
            return self.harness.bot_user
        return self.harness.user(text[1:])

    def find(self, user_id: int, test: Any) -> Sent:
        """The latest message this user can see that passes the test, as it is now."""
        for sent in reversed(self.harness.sent):
            current = self.harness.messages.get(sent.message_id or 0)
            if current is None or sent.kind not in ("message", "edit"):
                continue
            if sent.ephemeral and sent.for_user not in (None, user_id):
                continue
            members = self.harness.members.get(sent.channel_id, ())
            if members and user_id not in {u.id for u in members}:
                continue  # a DM or group DM of other people
            live = Sent(
                sent.kind, sent.channel_id, sent.message_id, components=current["components"]
            )
            if test(live):
                return live
        raise OfflineError("no message you can see has that")

    def show(self, sent: Sent) -> None:
        where = self.channel_name(sent.channel_id)
        if sent.kind == "thread":
            self.say(f"   ~ thread opened: {sent.content}")
        elif sent.kind == "archive":
            self.say(f"   ~ thread archived: {sent.content}")
        elif sent.kind == "edit" and self.shown.get(sent.message_id or 0) == sent.content:
            buttons = " ".join(f"[{b}]" for b in sent.buttons)
            change = f"now has {buttons}" if buttons else "lost its buttons"
            self.say(f"   [{where}] an earlier message {change}")
        elif sent.kind in ("message", "edit"):
            viewer = self.harness.name_of(sent.for_user or 0)
            who = f" (only {viewer} sees this)" if sent.ephemeral else ""
            verb = "edited" if sent.kind == "edit" else "bot"
            body = self.plain(sent.content) or ("" if sent.embeds else "(no text)")
            lines = body.splitlines() or [""]
            self.say(f"   [{where}] {verb}{who}: {lines[0]}".rstrip())
            for extra in lines[1:]:
                self.say(f"      {extra}")
            for embed in sent.embeds:
                self.show_embed(embed)
            controls = [f"[{b}]" for b in sent.buttons] + [f"<{o}>" for o in _menus(sent)]
            if controls:
                self.say(f"      {' '.join(controls)}")
            for name, data in sent.files:
                self.say(f"      file: {self.save(name, data)}")

    def show_embed(self, embed: dict[str, Any]) -> None:
        """An embed as a reader sees it: the title, the description, then each field."""
        self.say(f"      | {self.plain(embed.get('title') or '')}")
        for line in self.plain(embed.get("description") or "").splitlines():
            self.say(f"      | {line}")
        for item in embed.get("fields") or []:
            self.say(f"      | {self.plain(item.get('name', ''))}:")
            for line in self.plain(item.get("value", "")).splitlines():
                self.say(f"      |   {line}")

    def save(self, name: str, data: bytes) -> Path:
        """Write an image; one this session already wrote under the name is kept (the board
        is posted again at the same ply after a draw, say) and the new one gets `-v2`..."""
        self.saved += 1
        path = self.images / name
        version = 1
        while path.exists():
            version += 1
            path = self.images / f"{Path(name).stem}-v{version}{Path(name).suffix}"
        path.write_bytes(data)
        return path

    def channel_name(self, channel_id: int) -> str:
        channel = self.harness.channels.get(channel_id)
        if channel is None:
            return str(channel_id)
        members = self.harness.members.get(channel_id)
        if members is not None:
            kind = "DM" if len(members) == 2 else "group"
            return f"{kind} {', '.join(u.name for u in members)}"
        if channel["type"] == 1:
            return f"DM to {channel['recipients'][0]['username']}"
        name = ("#" if channel["type"] == 0 else "thread ") + str(channel["name"])
        guild_id = self.harness.guild_of(channel_id)
        if guild_id == self.harness.guild_id:
            return name
        return name + "@" + next(n for n, g in self.harness.servers.items() if g == guild_id)

    def plain(self, text: str) -> str:
        text = re.sub(r"<@!?(\d+)>", lambda m: "@" + self.harness.name_of(int(m[1])), text)
        text = re.sub(r"<#(\d+)>", lambda m: self.channel_name(int(m[1])), text)
        text = re.sub(r"<t:(\d+):R>", lambda m: self.relative(int(m[1])), text)
        return text.replace("**", "").replace("-# ", "")

    def relative(self, moment: int) -> str:
        """Discord's `<t:UNIX:R>` as a reader sees it, by the bot's clock: `in 1 day`."""
        gap = moment - self.harness.bot.clock.now()
        return f"in {describe_duration(gap)}" if gap >= 0 else f"{describe_duration(-gap)} ago"


def _same(label: str, wanted: str) -> bool:
    return label.lower().startswith(wanted.strip().lower()) and bool(wanted.strip())


def _options(sent: Sent) -> list[str]:
    return [o["value"] for c in _components(sent) if c.get("type") == 3 for o in c["options"]]


def _menus(sent: Sent) -> list[str]:
    return [
        ", ".join(o["value"] for o in c["options"]) for c in _components(sent) if c.get("type") == 3
    ]


def _components(sent: Sent) -> list[dict[str, Any]]:
    return [c for row in sent.components for c in row.get("components", [])]


async def run_offline(
    settings: Settings, source: TextIO, out: TextIO | None = None, database_url: str | None = None
) -> int:
    """Play the lines of `source` (a prompt when it is a terminal); 0 at the end of input.
    `database_url` plays on that empty database in place of the session's own SQLite file
    (benchmarks.big_db records the statements the bot runs, on either backend)."""
    out = out or sys.stdout
    folder = settings.database_path.parent / "offline"
    folder.mkdir(parents=True, exist_ok=True)
    database = folder / "offline.sqlite3"
    # Each session starts from an empty server, and its images are the only ones in the folder.
    stale_files = (database, *(database.with_name(database.name + e) for e in ("-wal", "-shm")))
    for stale in (*stale_files, *folder.glob("*.png"), *folder.glob("*.gif")):
        stale.unlink(missing_ok=True)
    # Matches are seeded 1, 2, 3, ...: a script replays the same games, random setups included.
    bot = create_bot(
        replace(settings, database_path=database, database_url=database_url, dev_guild_id=None),
        clock=ManualClock(int(time.time())),  # `advance` moves it; nothing waits for real
        seeds=itertools.count(1).__next__,
    )
    harness = OfflineDiscord(bot)
    session = Session(harness, folder, out)
    interactive = source.isatty()
    signalled = asyncio.Event()
    async with harness:
        stop_on_signals(signalled.set)
        if interactive:
            session.say(EXAMPLE)
        while not signalled.is_set():
            text = await _next_line(source, interactive, signalled)
            if not text:
                break
            await session.line(text)
    ended = "Stopped by a signal" if signalled.is_set() else "End of input"
    session.say(f"{ended}; {session.saved} file(s) saved under {folder}.")
    return 0


async def _next_line(source: TextIO, interactive: bool, signalled: asyncio.Event) -> str:
    """The next line, or "" at the end of input or once `signalled` is set. Read on a daemon
    thread (the loop serves meanwhile): asyncio's own threads would hold the process's exit
    until a read that may never return."""
    loop = asyncio.get_running_loop()
    line: asyncio.Future[str] = loop.create_future()

    def give(text: str) -> None:
        if not line.done():
            line.set_result(text)

    def read() -> None:
        try:
            text = input("> ") if interactive else source.readline()
        except EOFError:
            text = ""
        try:
            loop.call_soon_threadsafe(give, text)
        except RuntimeError:  # the session ended while this read waited
            pass

    threading.Thread(target=read, name="offline input", daemon=True).start()
    stop = asyncio.ensure_future(signalled.wait())
    await asyncio.wait((line, stop), return_when=asyncio.FIRST_COMPLETED)
    stop.cancel()
    return line.result() if line.done() and not signalled.is_set() else ""

"""/tournament create|start|cancel|remove|standings|leave|list, the entry message's Join and Leave
buttons, and the posts a tournament makes as its rounds begin and end."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.challenges import CLOCK_CHOICES, DAYS_CHOICES, GAME_CHOICES, WEEKEND_CHOICES
from bot.posts import limits
from bot.posts import tournament_texts as texts
from bot.posts.match_texts import worded
from bot.posts.names import safe_name
from bot.posts.notifications import pinging
from bot.posts.undelivered import Undelivered
from bot.service.clocks import MAX_DAYS
from bot.service.deadlines import DEFAULT_DAYS
from bot.service.pairing import System
from bot.service.timing import clock_terms
from bot.service.tournaments import (
    DEFAULT_MAX_PLAYERS,
    MAX_PLAYERS,
    MAX_ROUNDS,
    MIN_PLAYERS,
    Event,
    Finished,
    RoundBegun,
    Tournament,
)
from bot.store import Stage
from bot.texts import say, speaking, t
from bot.ui.commands_sync import SERVER_INSTALL, SERVERS
from bot.ui.described import described
from bot.ui.interface import Interaction, answering, player
from bot.ui.persistent import LARGEST_COUNT, Named
from bot.ui.views import JoinButton, LeaveButton, entry_view

if TYPE_CHECKING:
    from bot.app import BoardBot

log = logging.getLogger(__name__)

SYSTEM_NAMES = {
    System.ROUND_ROBIN: t("commands.choices.round_robin"),
    System.SWISS: t("commands.choices.swiss"),
}
FORMAT_CHOICES = [
    app_commands.Choice(name=described(SYSTEM_NAMES[system]), value=system.value)
    for system in System
]
LISTED = 10  # tournaments shown by /tournament list
TournamentId = app_commands.Range[int, 1, LARGEST_COUNT]
WHICH = described(t("commands.options.tournament"))


class Tournaments(commands.Cog):
    group = app_commands.Group(
        name="tournament",
        description=described(t("commands.tournament.description")),
        guild_only=True,
        allowed_contexts=SERVERS,
        allowed_installs=SERVER_INSTALL,
    )

    def __init__(self, bot: BoardBot) -> None:
        self.bot = bot
        bot.clicks.on(
            JoinButton, lambda interaction, button: self.join(interaction, button.tournament_id)
        )
        bot.clicks.on(
            LeaveButton,
            lambda interaction, button: self.leave_button(interaction, button.tournament_id),
        )
        bot.clicks.guard(Named.TOURNAMENT, self.admit)

    async def cog_load(self) -> None:
        self.bot.service.tournaments.listeners.append(self.on_event)

    async def cog_unload(self) -> None:
        self.bot.service.tournaments.listeners.remove(self.on_event)

    @group.command(
        name="create", description=described(t("commands.tournament.create.description"))
    )
    @app_commands.describe(
        game=described(t("commands.tournament.create.options.game")),
        format=described(t("commands.tournament.create.options.format")),
        rounds=described(t("commands.tournament.create.options.rounds")),
        days=described(t("commands.tournament.create.options.days", days=DEFAULT_DAYS)),
        max_players=described(
            t(
                "commands.tournament.create.options.max_players",
                least=MIN_PLAYERS,
                most=MAX_PLAYERS,
                default=DEFAULT_MAX_PLAYERS,
            )
        ),
        rated=described(t("commands.tournament.create.options.rated")),
        variant=described(t("commands.tournament.create.options.variant")),
        double=described(t("commands.tournament.create.options.double")),
        clock=described(t("clocks.commands.clock")),
        increment=described(t("clocks.commands.increment")),
        cap=described(t("clocks.commands.cap")),
        weekends=described(t("clocks.commands.weekends")),
    )
    @app_commands.choices(game=GAME_CHOICES, format=FORMAT_CHOICES)
    @app_commands.choices(days=DAYS_CHOICES)
    @app_commands.choices(clock=CLOCK_CHOICES, weekends=WEEKEND_CHOICES)
    async def create(
        self,
        interaction: Interaction,
        game: str,
        format: str,
        rounds: app_commands.Range[int, 1, MAX_ROUNDS] | None = None,
        days: int = DEFAULT_DAYS,
        max_players: app_commands.Range[int, MIN_PLAYERS, MAX_PLAYERS] = DEFAULT_MAX_PLAYERS,
        rated: bool = True,
        variant: str | None = None,
        double: bool = False,
        clock: str = "days",
        increment: app_commands.Range[int, 0, MAX_DAYS] | None = None,
        cap: app_commands.Range[int, 1, MAX_DAYS] | None = None,
        weekends: str = "on",
    ) -> None:
        async with answering(interaction):
            service = self.bot.service.tournaments
            terms = clock_terms(days, clock, increment, cap, weekends)
            request = service.prepare(
                guild_id=interaction.guild_id or 0,
                channel_id=interaction.channel_id or 0,
                creator=player(interaction.user),
                game=game,
                system=format,
                rounds=rounds,
                days=days,
                max_players=max_players,
                rated=rated,
                variant=variant,
                double=double,
                clock=terms,
            )
            await self.bot.service.limits.tournament(request.guild_id, request.creator.user_id)
            await interaction.response.defer(thinking=True)
            tournament = await service.open(request)
            with speaking(await self._language(tournament)):
                content, view = texts.entry_text(tournament), entry_view(tournament.id)
            message = await interaction.followup.send(
                content, view=view, allowed_mentions=pinging(), wait=True
            )
            await service.set_entry_message(tournament.id, message.id)

    @group.command(name="start", description=described(t("commands.tournament.start.description")))
    @app_commands.describe(tournament=WHICH)
    async def start(self, interaction: Interaction, tournament: TournamentId | None = None) -> None:
        async with answering(interaction):
            service = self.bot.service.tournaments
            chosen = await service.resolve(interaction.guild_id or 0, tournament)
            manager = interaction.permissions.manage_guild
            service.check_start(chosen, interaction.user.id, manager)
            await interaction.response.defer(thinking=True)
            started = await service.start(chosen.id, interaction.user.id, manager)
            announced = say(texts.started(started), await self._language(started))
            await interaction.followup.send(announced, allowed_mentions=pinging())

    @group.command(
        name="cancel", description=described(t("lifecycle.commands.tournament.cancel.description"))
    )
    @app_commands.describe(tournament=WHICH)
    async def cancel(
        self, interaction: Interaction, tournament: TournamentId | None = None
    ) -> None:
        """Announced where the command is used, and on the entry message."""
        async with answering(interaction):
            service = self.bot.service.tournaments
            chosen = await service.resolve(interaction.guild_id or 0, tournament)
            manager = interaction.permissions.manage_guild
            service.check_admin(chosen, interaction.user.id, manager)
            await interaction.response.defer(thinking=True)
            cancelled = await service.cancel(chosen.id, interaction.user.id, manager)
            me = safe_name(interaction.user.display_name)
            said = t("lifecycle.tournament.cancelled", title=cancelled.title, player=me)
            language = await self._language(cancelled)
            await interaction.followup.send(say(said, language), allowed_mentions=pinging())
            await self.refresh(cancelled)

    @group.command(
        name="remove", description=described(t("lifecycle.commands.tournament.remove.description"))
    )
    @app_commands.describe(
        player=described(t("lifecycle.commands.tournament.remove.options.player")),
        tournament=WHICH,
    )
    async def remove(
        self, interaction: Interaction, player: discord.User, tournament: TournamentId | None = None
    ) -> None:
        async with answering(interaction):
            service = self.bot.service.tournaments
            chosen = await service.resolve(interaction.guild_id or 0, tournament)
            manager = interaction.permissions.manage_guild
            await interaction.response.defer(ephemeral=True, thinking=True)
            after = await service.remove(chosen.id, interaction.user.id, manager, player.id)
            name = safe_name(player.display_name)
            if after.row.stage is Stage.OPEN:
                done = t("lifecycle.tournament.removed", player=name, tournament=chosen.id)
            else:
                done = t("lifecycle.tournament.removed_running", player=name, tournament=chosen.id)
            await self.refresh(after)
            await interaction.followup.send(say(done), ephemeral=True)

    @group.command(
        name="standings", description=described(t("commands.tournament.standings.description"))
    )
    @app_commands.describe(tournament=WHICH)
    async def standings(
        self, interaction: Interaction, tournament: TournamentId | None = None
    ) -> None:
        async with answering(interaction):
            service = self.bot.service.tournaments
            chosen = await service.resolve(interaction.guild_id or 0, tournament, finished=True)
            first, *rest = texts.standings_messages(chosen)
            await interaction.response.send_message(
                first, ephemeral=True, allowed_mentions=pinging()
            )
            for more in rest:
                await interaction.followup.send(more, ephemeral=True, allowed_mentions=pinging())

    @group.command(name="leave", description=described(t("commands.tournament.leave.description")))
    @app_commands.describe(tournament=WHICH)
    async def leave(self, interaction: Interaction, tournament: TournamentId | None = None) -> None:
        async with answering(interaction):
            service = self.bot.service.tournaments
            chosen = await service.resolve(interaction.guild_id or 0, tournament)
            await interaction.response.defer(ephemeral=True, thinking=True)
            await self._leave(interaction, chosen.id)

    @group.command(name="list", description=described(t("commands.tournament.list.description")))
    async def listing(self, interaction: Interaction) -> None:
        async with answering(interaction):
            found = await self.bot.service.tournaments.listing(interaction.guild_id or 0)
            lines = [texts.listing_line(entry) for entry in found[:LISTED]] or [texts.NONE_LISTED]
            await interaction.response.send_message(limits.content(worded(lines)), ephemeral=True)

    async def admit(self, interaction: Interaction, tournament_id: int) -> bool:
        """Whether a button naming this tournament may act where it was pressed: in its
        own server only (another's reads as one that does not exist)."""
        async with answering(interaction):
            await self.bot.service.tournaments.resolve(interaction.guild_id or 0, tournament_id)
            return True
        return False

    async def join(self, interaction: Interaction, tournament_id: int) -> None:
        """The entry message's Join button."""
        async with answering(interaction):
            await interaction.response.defer()
            tournament = await self.bot.service.tournaments.join(
                tournament_id, player(interaction.user)
            )
            with speaking(await self._language(tournament)):
                content = texts.entry_text(tournament)
            await interaction.edit_original_response(content=content, allowed_mentions=pinging())

    async def leave_button(self, interaction: Interaction, tournament_id: int) -> None:
        """The entry message's Leave button."""
        async with answering(interaction):
            await interaction.response.defer(ephemeral=True, thinking=True)
            await self._leave(interaction, tournament_id)

    async def _leave(self, interaction: Interaction, tournament_id: int) -> None:
        left = await self.bot.service.tournaments.leave(tournament_id, interaction.user.id)
        for result in left.resigned:
            try:
                await self.bot.announcer.after_turns(result.match, result.turns)
            except (Undelivered, discord.HTTPException) as error:
                log.warning("match #%s: resignation not posted: %s", result.match.id, error)
        await self.refresh(left.tournament)
        await interaction.followup.send(
            say(texts.left(tournament_id, left.started, len(left.resigned))), ephemeral=True
        )

    async def _language(self, tournament: Tournament) -> str:
        """A tournament's posts speak its server's language."""
        return await self.bot.service.settings.server_language(tournament.row.guild_id)

    def _channel(self, tournament: Tournament) -> discord.PartialMessageable:
        row = tournament.row
        return self.bot.get_partial_messageable(row.channel_id, guild_id=row.guild_id)

    async def refresh(self, tournament: Tournament) -> None:
        """Bring the entry message up to date; its buttons go once entries close."""
        message_id = tournament.row.entry_message_id
        if message_id is None:
            return
        with speaking(await self._language(tournament)):
            view = entry_view(tournament.id) if tournament.row.stage is Stage.OPEN else None
            content = texts.entry_text(tournament)
        try:
            await (
                self._channel(tournament)
                .get_partial_message(message_id)
                .edit(content=content, view=view, allowed_mentions=pinging())
            )
        except discord.HTTPException as error:
            log.info("tournament #%s: entry message not updated: %s", tournament.id, error)

    async def on_event(self, event: Event) -> None:
        """Post what the service did: a round's matches (each thread opens from a message
        naming the tournament and round), or the final standings pinging the winner; and
        after a result, too, bring the entry message's table up to date."""
        tournament = event.tournament
        language = await self._language(tournament)
        if isinstance(event, RoundBegun):
            byes = [b.first_id for b in tournament.round_boards(event.round) if b.second_id is None]
            await self._send(
                tournament,
                say(texts.round_begins(tournament, event.round, byes), language),
                pinging(*byes),
            )
            for match, turns in event.matches:
                players = [seat.user_id for seat in match.seats]
                label = await self._send(
                    tournament, texts.round_match(tournament, event.round, players, language)
                )
                if label is not None:
                    match = await self.bot.service.cache.set_messages(
                        match, challenge_message_id=label.id
                    )
                try:  # without its label, in the channel; a board Discord fails comes later
                    await self.bot.announcer.open_match(match, label, turns)
                except (Undelivered, discord.HTTPException) as error:
                    log.warning("match #%s: not opened in Discord: %s", match.id, error)
        elif isinstance(event, Finished):
            winners = [s.player for s in tournament.standings() if s.rank == 1]
            for part in texts.finished(tournament, winners, event.early, language):
                await self._send(tournament, part, pinging(*winners))
        await self.refresh(tournament)

    async def _send(
        self,
        tournament: Tournament,
        text: str,
        mentions: discord.AllowedMentions | None = None,
    ) -> discord.Message | None:
        """A post in the tournament's channel; None if Discord refused it (logged: its games
        still start, their boards kept as jobs until Discord takes them, and `/tournament
        table` shows the standings)."""
        try:
            return await self._channel(tournament).send(
                text, allowed_mentions=mentions or pinging()
            )
        except discord.HTTPException as error:
            log.warning("tournament #%s: a post was not taken: %s", tournament.id, error)
            return None


async def setup(bot: BoardBot) -> None:
    await bot.add_cog(Tournaments(bot))

"""/challenge (direct or open), the Accept, Decline and Withdraw buttons under a challenge, and
the Rematch button under a result."""

from __future__ import annotations

from typing import TYPE_CHECKING, NoReturn

import discord
from discord import app_commands
from discord.ext import commands

import ai
import rules
from bot.posts import limits
from bot.posts.match_texts import (
    challenge_begins,
    challenge_declined,
    challenge_text,
    challenge_withdrawn,
    jump_url,
    mention,
    pace,
    worded,
)
from bot.posts.names import safe_name
from bot.posts.notifications import pinging
from bot.posts.undelivered import Undelivered
from bot.service import AcceptResult, ChallengeRequest, Match, Player, ServiceError
from bot.service.clocks import MAX_DAYS
from bot.service.deadlines import DAY_CHOICES, DEFAULT_DAYS
from bot.service.settings import Settings
from bot.service.timing import clock_terms
from bot.texts import say, speaking, t
from bot.ui.commands_sync import install_url
from bot.ui.described import described
from bot.ui.interface import Interaction, answering, in_place, player, tell
from bot.ui.uploads import read_attached
from bot.ui.views import (
    AcceptButton,
    DeclineButton,
    RematchButton,
    WithdrawButton,
    challenge_view,
)
from rules import GAMES, RulesError, get_game

if TYPE_CHECKING:
    from bot.app import BoardBot

GAME_CHOICES = [
    app_commands.Choice(name=game.title, value=name) for name, game in list(GAMES.items())[:25]
]
LEVEL_NAMES = {  # ai.LEVELS's names, in words
    "easy": t("commands.choices.easy"),
    "medium": t("commands.choices.medium"),
    "hard": t("commands.choices.hard"),
}
LEVEL_CHOICES = [
    app_commands.Choice(
        name=described(t("commands.choices.level", number=number, level=LEVEL_NAMES[level.name])),
        value=number,
    )
    for number, level in ai.LEVELS.items()
]
DEFAULT_LEVEL = 2


DAYS_CHOICES: list[app_commands.Choice[int]] = [
    app_commands.Choice(name=described(pace(days)), value=days) for days in DAY_CHOICES
]
CLOCK_CHOICES = [
    app_commands.Choice(name=described(t("clocks.commands.days_per_move")), value="days"),
    app_commands.Choice(name=described(t("clocks.commands.bank")), value="bank"),
]
WEEKEND_CHOICES = [
    app_commands.Choice(name=described(t("clocks.commands.weekends_on")), value="on"),
    app_commands.Choice(name=described(t("clocks.commands.weekends_off")), value="off"),
]


class Challenges(commands.Cog):
    def __init__(self, bot: BoardBot) -> None:
        self.bot = bot
        bot.clicks.on(
            AcceptButton, lambda interaction, button: self.accept(interaction, button.match_id)
        )
        bot.clicks.on(
            DeclineButton, lambda interaction, button: self.decline(interaction, button.match_id)
        )
        bot.clicks.on(
            WithdrawButton, lambda interaction, button: self.withdraw(interaction, button.match_id)
        )
        bot.clicks.on(
            RematchButton, lambda interaction, button: self.rematch(interaction, button.match_id)
        )

    @app_commands.command(
        name="challenge", description=described(t("commands.challenge.description"))
    )
    @app_commands.describe(
        game=described(t("commands.challenge.options.game")),
        opponent=described(t("commands.challenge.options.opponent")),
        opponent2=described(t("commands.challenge.options.opponent2")),
        opponent3=described(t("commands.challenge.options.opponent3")),
        variant=described(t("commands.challenge.options.variant")),
        days=described(t("commands.challenge.options.days", days=DEFAULT_DAYS)),
        rated=described(t("commands.challenge.options.rated")),
        level=described(t("commands.challenge.options.level")),
        players=described(t("commands.challenge.options.players")),
        position=described(t("records.command.position")),
        clock=described(t("clocks.commands.clock")),
        increment=described(t("clocks.commands.increment")),
        cap=described(t("clocks.commands.cap")),
        weekends=described(t("clocks.commands.weekends")),
    )
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.choices(days=DAYS_CHOICES)
    @app_commands.choices(level=LEVEL_CHOICES)
    @app_commands.choices(clock=CLOCK_CHOICES, weekends=WEEKEND_CHOICES)
    async def challenge(
        self,
        interaction: Interaction,
        game: str,
        opponent: discord.User | None = None,
        opponent2: discord.User | None = None,
        opponent3: discord.User | None = None,
        variant: str | None = None,
        days: int | None = None,
        rated: bool = True,
        level: int = DEFAULT_LEVEL,
        players: app_commands.Range[int, 2, 4] | None = None,
        position: discord.Attachment | None = None,
        clock: str = "days",
        increment: app_commands.Range[int, 0, MAX_DAYS] | None = None,
        cap: app_commands.Range[int, 1, MAX_DAYS] | None = None,
        weekends: str = "on",
    ) -> None:
        async with answering(interaction):
            if interaction.guild_id is not None and not interaction.is_guild_integration():
                raise ServiceError(t("places.not_in_server"), t("places.not_in_server_hint"))
            named = [u for u in (opponent, opponent2, opponent3) if u is not None]
            self._here(interaction, named)
            opponents = [self._opponent(u, level) for u in named]
            days = await self.bot.service.settings.check_challenge(
                interaction.guild_id, interaction.channel_id or 0, game, days
            )
            terms = clock_terms(days, clock, increment, cap, weekends)
            request = self.bot.service.challenges.prepare(
                guild_id=interaction.guild_id,
                channel_id=interaction.channel_id or 0,
                challenger=player(interaction.user),
                game=game,
                opponents=opponents,
                variant=variant,
                days=days,
                rated=rated,
                players=players,
                clock=terms,
            )
            if position is not None:  # read before the answer, so a bad file is told privately
                state = await read_attached(rules.get_game(request.game), position)
                request = self.bot.service.challenges.from_position(request, state)
            await self._refuse_duplicate(request)
            await self.bot.service.limits.challenge(request)
            await interaction.response.defer(thinking=True)
            match = await self.bot.service.challenges.open(request)
            async with self.bot.service.cache.lock(match.id):
                opening = await self.bot.service.challenges.accept_engines(match.id)
                match = opening.match
                with speaking(await in_place(interaction, match)):
                    await self._post(interaction, match, opening)

    async def _post(self, interaction: Interaction, match: Match, opening: AcceptResult) -> None:
        """The new challenge in its place, or the match it began."""
        if opening.started:
            await interaction.followup.send(
                challenge_begins(match), allowed_mentions=pinging(*match.people)
            )
            # unlike the follow-up, the original response knows its server, so a
            # thread can open on it
            message: discord.Message = await interaction.original_response()
        else:
            try:
                message = await interaction.followup.send(
                    await _with_install_link(match, interaction, self.bot.service.settings),
                    view=_answers(match),
                    allowed_mentions=pinging(*match.people),
                    wait=True,
                )
            except discord.HTTPException as error:
                await self._unmade(match, interaction.user.id, error)
        await self._posted(match, message, opening)

    async def _unmade(self, match: Match, challenger: int, error: Exception) -> NoReturn:
        """A challenge Discord did not take is withdrawn at once, so that none waits unseen
        and without an expiry; its challenger is told to make it again."""
        await self.bot.service.challenges.withdraw(match.id, challenger)
        raise ServiceError(
            t("lifecycle.challenge.not_posted", match=safe_name(match.describe())),
            t("lifecycle.challenge.not_posted_hint"),
        ) from error

    async def _refuse_duplicate(self, request: ChallengeRequest) -> None:
        """A second identical pending challenge is refused, with a link to the first."""
        first = await self.bot.service.challenges.duplicate_of(request)
        if first is not None:
            where = (first.row.guild_id, first.row.channel_id, first.row.challenge_message_id)
            raise ServiceError(
                t("lifecycle.challenge.duplicate", match=first.id, link=jump_url(*where)),
                t("lifecycle.challenge.duplicate_hint"),
            )

    async def _posted(self, match: Match, message: discord.Message, opening: AcceptResult) -> None:
        """A new challenge is on show: the match starts from it, or it waits to expire."""
        match = await self.bot.service.cache.set_messages(match, challenge_message_id=message.id)
        if opening.started:
            await self.bot.announcer.open_match(match, message, opening.turns)
        else:
            await self.bot.service.deadlines.expire_later(match)

    async def rematch(self, interaction: Interaction, match_id: int) -> None:
        """The Rematch button: a new challenge posted where the match was challenged, or,
        when another player asked first, this player's acceptance of theirs."""
        async with answering(interaction):
            await interaction.response.defer(ephemeral=True, thinking=True)
            async with self.bot.service.cache.lock(match_id):
                result = await self.bot.service.challenges.rematch(match_id, interaction.user.id)
                answer, match = result.answer, result.answer.match
                async with self.bot.service.cache.lock(match.id):
                    with speaking(await in_place(interaction, match)):
                        text = challenge_begins(match) if answer.started else challenge_text(match)
                        view = None if answer.started else _answers(match)
                    try:
                        message = await self.bot.announcer.challenge_post(match, text, view)
                    except (Undelivered, discord.HTTPException) as error:
                        if not result.created:
                            raise
                        await self._unmade(match, interaction.user.id, error)
                    if result.created:
                        await self._posted(match, message, answer)
                    elif answer.started:
                        await self.bot.announcer.open_match(match, message, answer.turns)
            done = t(
                "answers.rematch.asked" if result.created else "answers.rematch.accepted",
                match=safe_name(match.describe()),
            )
            await tell(interaction, say(done))

    def _here(self, interaction: Interaction, named: list[discord.User]) -> None:
        """In a DM or group DM, whose members Discord lists, only they (and the computer)
        can see and answer a challenge: naming anyone else is refused."""
        channel = interaction.channel
        if interaction.guild_id is not None or not isinstance(
            channel, discord.DMChannel | discord.GroupChannel
        ):
            return
        if not channel.recipients:  # its members not listed: nothing to check against
            return
        inside = {user.id for user in channel.recipients} | {interaction.user.id}
        bot_id = self.bot.user.id if self.bot.user is not None else None
        for user in named:
            if user.id not in inside and user.id != bot_id:
                raise ServiceError(
                    t("places.not_here", name=safe_name(user.display_name)),
                    t("places.not_here_hint"),
                )

    def _opponent(self, user: discord.User, level: int) -> Player:
        """The member named, or the computer at `level` when this bot itself is named."""
        if self.bot.user is not None and user.id == self.bot.user.id:
            return Player(user.id, user.display_name, bot=True, engine=level)
        return player(user)

    @challenge.autocomplete("variant")
    async def variant_choices(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        try:
            game = get_game(str(interaction.namespace.game or ""))
        except RulesError:
            return []
        typed = current.strip().lower()
        return limits.choices(
            app_commands.Choice(
                name=say(t("answers.variant_choice", variant=name, description=v.description)),
                value=name,
            )
            for name, v in game.variants.items()
            if typed in name
        )

    async def accept(self, interaction: Interaction, match_id: int) -> None:
        async with answering(interaction):
            await interaction.response.defer()
            async with self.bot.service.cache.lock(match_id):
                result = await self.bot.service.challenges.accept(
                    match_id, interaction.user.id, interaction.user.display_name
                )
                match = result.match
                with speaking(await in_place(interaction, match)):
                    if not result.started:  # its words and buttons in one language
                        settings = self.bot.service.settings
                        shown = await _with_install_link(match, interaction, settings)
                        view = _answers(match)
                    else:
                        shown = challenge_begins(match)
                if not result.started:
                    await interaction.edit_original_response(content=shown, view=view)
                    return
                await interaction.edit_original_response(content=shown, view=None)
                await self.bot.announcer.open_match(match, interaction.message, result.turns)

    async def decline(self, interaction: Interaction, match_id: int) -> None:
        async with answering(interaction):
            await interaction.response.defer()
            async with self.bot.service.cache.lock(match_id):
                match = await self.bot.service.challenges.decline(match_id, interaction.user.id)
            me = safe_name(interaction.user.display_name)
            with speaking(await in_place(interaction, match)):
                declined = challenge_declined(match, me)
            await interaction.edit_original_response(content=declined, view=None)

    async def withdraw(self, interaction: Interaction, match_id: int) -> None:
        async with answering(interaction):
            await interaction.response.defer()
            async with self.bot.service.cache.lock(match_id):
                match = await self.bot.service.challenges.withdraw(match_id, interaction.user.id)
            me = safe_name(interaction.user.display_name)
            with speaking(await in_place(interaction, match)):
                withdrawn = challenge_withdrawn(match, me)
            await interaction.edit_original_response(content=withdrawn, view=None)


async def _with_install_link(match: Match, interaction: Interaction, settings: Settings) -> str:
    """The challenge; in a private conversation, where only those who added the app to their
    account can type its commands, it says so to the others not seen using it that way, with
    the link that adds it."""
    text = challenge_text(match)
    if interaction.guild_id is not None:
        return text
    others = []
    for seat in match.seats:
        if seat.accepted or seat.engine is not None or seat.free:
            continue
        if not (await settings.person(seat.user_id)).installed:
            others.append(seat.user_id)
    if not others:
        return text
    names = ", ".join(mention(user_id) for user_id in others)
    line = t("places.install", names=names, link=install_url(interaction.application_id))
    return limits.content(worded([text, line]))


def _answers(match: Match) -> discord.ui.View:
    return challenge_view(match.id, open_seats=any(s.free for s in match.seats))


async def setup(bot: BoardBot) -> None:
    await bot.add_cog(Challenges(bot))

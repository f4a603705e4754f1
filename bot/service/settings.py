"""Settings: how each member sees boards, a server's defaults, and who may change them.

Boards are drawn for a viewer: a member's own matches from their seat (unless they turned
that off), in their theme; thread posts in the server's theme, seat 1 at the bottom or the
player to move, as the server chose.

Languages: a member reads their answers and DMs in the locale of their Discord client, a
server its public posts in the language it chose, else its own (Discord's preferred locale).
Both locales are remembered from interactions, since a post at 3 am has none to read them
from.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import rules
from bot.posts import limits
from bot.service import clocks
from bot.service.deadlines import DAY_CHOICES, DEFAULT_DAYS
from bot.service.matches import Match, ServiceError, opening
from bot.store import HabitRow, PreferenceRow, ServerRow, Store
from bot.texts import ENGLISH, LANGUAGES, Text, catalogue, language_of, say, t
from renderers import THEMES

ORIENTATIONS = {
    "first": t("service.settings.first"),
    "mover": t("service.settings.mover"),
}
SERVER_OWN = "server"
"""The language setting that means the server's own (Discord's preferred locale)."""
LANGUAGE_NAMES = {code: catalogue(code)["language.name"] for code in LANGUAGES}
"""Each language by its own name, as language pickers show them to readers of any language."""
REMEMBERED = 100_000  # members' and servers' facts Settings.heard keeps to skip writes

ALL_GAMES = "all"
LARGE = "large"
BOARD_SIZES = ("normal", LARGE)


@dataclass(frozen=True)
class View:
    """How one picture is drawn: the seat at the bottom (None: seat 1), the theme, and
    whether the board is in halves for a phone (a member's own pictures only)."""

    perspective: int | None = None
    theme: str | None = None
    large: bool = False


@dataclass(frozen=True)
class ServerChange:
    """The server settings after a change, and each change in words (none: nothing asked)."""

    settings: ServerRow
    changes: tuple[Text, ...]


class Settings:
    def __init__(self, store: Store) -> None:
        self.store = store
        # What was last stored, so an interaction writes only when it changed: the locale
        # per member ("user", id) and server ("server", id), and the members seen using
        # their own install; emptied past REMEMBERED (a busy host sees many members), at
        # the cost of a write each for the next interactions.
        self._stored: dict[tuple[str, int], str] = {}
        self._installed: set[int] = set()

    async def heard(
        self,
        user_id: int,
        locale: str,
        guild_id: int | None,
        guild_locale: str | None,
        installed: bool = False,
    ) -> None:
        """Remember what an interaction carried, for the DMs and posts made later: the
        locales, and whether the member used the app through their own install."""
        if len(self._stored) + len(self._installed) > REMEMBERED:
            self._stored.clear()
            self._installed.clear()
        if self._stored.get(("user", user_id)) != locale:
            await self.store.remember_locale(user_id, locale)
            self._stored["user", user_id] = locale
        if guild_id is not None and guild_locale:
            if self._stored.get(("server", guild_id)) != guild_locale:
                await self.store.remember_server_locale(guild_id, guild_locale)
                self._stored["server", guild_id] = guild_locale
        if installed and user_id not in self._installed:
            await self.store.remember_install(user_id)
            self._installed.add(user_id)

    async def member_language(self, user_id: int) -> str:
        """The language a member reads DMs in: their client's, English if never seen."""
        return language_of((await self.store.preferences(user_id)).locale)

    async def server_language(self, guild_id: int | None) -> str:
        """The language of a server's public posts: the one it chose, else its own."""
        return spoken(await self.server(guild_id))

    async def person(self, user_id: int) -> PreferenceRow:
        return await self.store.preferences(user_id)

    async def set_person(
        self,
        user_id: int,
        *,
        theme: str | None = None,
        flip: bool | None = None,
        board: str | None = None,
    ) -> PreferenceRow:
        """Change how this member sees boards (`board`: one of BOARD_SIZES); what is not
        named stays as it was."""
        if theme is not None:
            _check_theme(theme)
        if board is not None and board not in BOARD_SIZES:
            raise ServiceError(
                t("boardsize.unknown", size=limits.clip(board, limits.QUOTED)),
                t("boardsize.unknown_hint", choices=", ".join(BOARD_SIZES)),
            )
        mine = await self.store.preferences(user_id)
        theme = mine.theme if theme is None else theme
        flip = mine.flip if flip is None else flip
        large = mine.large if board is None else board == LARGE
        await self.store.set_board_preferences(user_id, theme, flip, large)
        return await self.store.preferences(user_id)

    async def habits(self, user_id: int) -> HabitRow:
        return await self.store.habits(user_id)

    async def set_habits(
        self, user_id: int, *, time_zone: str | None = None, confirm: bool | None = None
    ) -> HabitRow:
        """Change a member's time zone (an IANA name) or confirm-move; what is not named
        stays as it was. A new zone counts from the next turn: a clock running keeps its
        deadline."""
        mine = await self.store.habits(user_id)
        if time_zone is None and confirm is None:
            return mine
        if time_zone is not None:
            try:
                mine = replace(mine, time_zone=str(clocks.zone(time_zone.strip())))
            except ValueError:
                raise ServiceError(
                    t("clocks.zone.unknown", zone=limits.clip(time_zone.strip(), limits.QUOTED)),
                    t("clocks.zone.unknown_hint"),
                ) from None
        if confirm is not None:
            mine = replace(mine, confirm=confirm)
        await self.store.set_habits(user_id, mine)
        return mine

    async def server(self, guild_id: int | None) -> ServerRow:
        if guild_id is None:
            return ServerRow(0)
        return await self.store.server_settings(guild_id)

    async def private_view(self, match: Match, viewer: int) -> View:
        """A member's own picture (/board, /replay, DMs): from their seat if they play and
        want it so, in their theme and board size."""
        mine = await self.store.preferences(viewer)
        seat = match.seat_of(viewer) if mine.flip else None
        return View(seat, mine.theme, mine.large)

    async def thread_view(self, match: Match) -> View:
        """A picture posted where the match is played: the server's theme and orientation."""
        server = await self.server(match.row.guild_id)
        mover = match.to_move
        seat = mover.seat if server.orientation == "mover" and mover is not None else None
        return View(seat, server.theme)

    async def change_server(
        self,
        guild_id: int | None,
        *,
        manager: bool,
        theme: str | None = None,
        orientation: str | None = None,
        days: int | None = None,
        games: str | None = None,
        channel_id: int | None = None,
        anywhere: bool = False,
        language: str | None = None,
    ) -> ServerChange:
        """Check and save a server's defaults; only a member who may manage the server may,
        which Discord enforces too (though its owners can grant the command to others)."""
        if guild_id is None:
            raise ServiceError(t("service.settings.server_only"))
        if not manager:
            raise ServiceError(t("service.settings.managers_only"))
        before = await self.store.server_settings(guild_id)
        after = before
        if theme is not None:
            after = replace(after, theme=_check_theme(theme))
        if orientation is not None:
            if orientation not in ORIENTATIONS:
                raise ServiceError(
                    t("service.settings.no_orientation", orientation=repr(orientation)),
                    t("service.settings.no_orientation_hint", choices=", ".join(ORIENTATIONS)),
                )
            after = replace(after, orientation=orientation)
        if days is not None:
            if days not in DAY_CHOICES:
                choices = ", ".join(map(str, DAY_CHOICES))
                raise ServiceError(t("service.settings.no_days", count=days, choices=choices))
            after = replace(after, days=days)
        if games is not None:
            after = replace(after, games=_games(games))
        if language is not None:
            after = replace(after, language=_check_language(language))
        if anywhere:
            after = replace(after, channel_id=None)
        elif channel_id is not None:
            after = replace(after, channel_id=channel_id)
        changes = tuple(_changes(before, after))
        if changes:
            await self.store.set_server_settings(after)
        return ServerChange(after, changes)

    async def check_challenge(
        self, guild_id: int | None, channel_id: int, game: str, days: int | None
    ) -> int:
        """Refuse a challenge the server does not allow (a game not offered, or outside the
        matches channel); the days per move it gets (the server's default when not given)."""
        server = await self.server(guild_id)
        if server.games is not None and game not in server.games:
            title = rules.GAMES[game].title if game in rules.GAMES else game
            offered = ", ".join(rules.GAMES[g].title for g in server.games)
            raise ServiceError(t("service.settings.not_offered", game=title, offered=offered))
        if server.channel_id is not None and channel_id != server.channel_id:
            raise ServiceError(t("service.settings.elsewhere", channel=server.channel_id))
        if days is not None:
            return days
        return DEFAULT_DAYS if server.days is None else server.days


def _check_theme(theme: str) -> str:
    if theme not in THEMES:
        raise ServiceError(
            t("service.settings.no_theme", theme=repr(theme), themes=", ".join(THEMES))
        )
    return theme


def _check_language(language: str) -> str | None:
    """A language setting as stored: one we speak, or None for the server's own."""
    if language == SERVER_OWN:
        return None
    if language not in LANGUAGES:
        raise ServiceError(
            t("languages.unknown", language=limits.clip(language, limits.QUOTED)),
            t("languages.unknown_hint", choices=", ".join([*LANGUAGES, SERVER_OWN])),
        )
    return language


def spoken(settings: ServerRow) -> str:
    """The language a server's public posts speak: its choice, else its own, else English."""
    if settings.language is not None:
        return settings.language
    return language_of(settings.locale) if settings.locale else ENGLISH


def _games(text: str) -> tuple[str, ...] | None:
    """`all`, or game names separated by commas or spaces: the games that may be challenged."""
    words = [w for w in text.replace(",", " ").lower().split() if w]
    if words == [ALL_GAMES]:
        return None
    unknown = [w for w in words if w not in rules.GAMES]
    known = ", ".join(rules.GAMES)
    if unknown:
        games = opening(", ".join(unknown))
        raise ServiceError(t("service.settings.no_games", games=games, known=known, all=ALL_GAMES))
    if not words:
        raise ServiceError(t("service.settings.nothing", known=known, all=ALL_GAMES))
    return tuple(name for name in rules.GAMES if name in words)


def describe_server(settings: ServerRow) -> list[Text]:
    """Each server setting, as /server settings shows them."""
    games = settings.games
    days = DEFAULT_DAYS if settings.days is None else settings.days
    titles = ", ".join(rules.GAMES[g].title for g in games) if games else None
    where = f"<#{settings.channel_id}>" if settings.channel_id else None
    return [
        t("service.settings.theme", theme=settings.theme or "classic"),
        t("service.settings.orientation", orientation=ORIENTATIONS[settings.orientation]),
        t("service.settings.days", days=days or t("service.settings.no_limit")),
        t("service.settings.games", games=titles or t("service.settings.all_games")),
        t("service.settings.channel", channel=where or t("service.settings.any_channel")),
        _language_line(settings),
    ]


def _language_line(settings: ServerRow) -> Text:
    language = LANGUAGE_NAMES[spoken(settings)]
    if settings.language is None:
        return t("languages.setting_own", language=language)
    return t("languages.setting", language=language)


def _changes(before: ServerRow, after: ServerRow) -> list[Text]:
    """The lines of describe_server that a change altered, as they read after it."""
    pairs = zip(describe_server(before), describe_server(after), strict=True)
    return [new for old, new in pairs if say(old, ENGLISH) != say(new, ENGLISH)]

"""The commands in the languages Discord's clients speak: what `tree.sync` sends as
`name_localizations` and `description_localizations`.

Names come from the catalogue's `commands.names` (by the command's qualified name) and
`commands.option_names` (by the option's name); descriptions and choice names are the
catalogue's sentences that `described()` carried as keys. Discord locales that read one of our
languages (es-419 reads es-ES) get it; English and the others get nothing, so their clients
show the English that is sent anyway.
"""

from __future__ import annotations

from discord import Locale, app_commands
from discord.app_commands import TranslationContextLocation as Where

from bot.texts import ENGLISH, Text, language_of, say
from bot.texts.mentions import names

COMMAND_NAMES = (Where.command_name, Where.group_name)


class CommandTranslator(app_commands.Translator):
    """Called by discord.py for every name, description and choice, once per Discord locale."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        language = language_of(locale.value)
        if language == ENGLISH:
            return None
        where, data = context.location, context.data
        if where in COMMAND_NAMES and isinstance(data, app_commands.Command | app_commands.Group):
            return names(language).commands.get(data.qualified_name)
        if where is Where.parameter_name and isinstance(data, app_commands.Parameter):
            return names(language).options.get(data.name)
        key = string.extras.get("key")
        if key is not None:
            return say(Text(key, string.extras.get("values", {})), language)
        # A choice named without a key is a game's name, the same in every language.
        return string.message if where is Where.choice_name else None

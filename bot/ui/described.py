"""What Discord lists for the slash commands, from the catalogue (bot/texts/en.toml [commands])."""

from __future__ import annotations

from discord import app_commands

from bot.texts import ENGLISH, Text, say

WORDED: dict[str, Text] = {}
"""Each text `described` gave, by its English: what a choice's name says in other languages."""


def described(text: Text) -> app_commands.locale_str:
    """A command's, option's or choice's words: the English that Discord is sent (and the
    command tree's hash is taken of), carrying the catalogue key and values, so that a
    discord.py Translator can word them in the languages Discord offers."""
    english = say(text, ENGLISH)
    WORDED.setdefault(english, text)
    return app_commands.locale_str(english, key=text.key, values=dict(text.values))

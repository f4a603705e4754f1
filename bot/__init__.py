"""The Discord bot: settings, storage, the match service, cogs, views and the offline harness."""

from bot.app import BoardBot, create_bot
from bot.settings import Settings, load_settings

__all__ = ["BoardBot", "Settings", "create_bot", "load_settings"]

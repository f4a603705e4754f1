"""One cog per feature; each module has the `setup` discord.py's extension loader calls."""

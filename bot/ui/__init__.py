"""Discord-facing helpers shared by the cogs: views, answering, permissions, command sync."""

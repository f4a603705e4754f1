"""Running the bot like infrastructure: health and readiness over HTTP, Prometheus metrics,
JSON logs without secrets, backups, and the clean stop's pieces.

These observe the bot from outside; nothing in the service depends on them.
"""

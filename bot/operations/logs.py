"""Log lines as text (the default) or one JSON object a line (`LOG_FORMAT=json`), never
carrying a secret.

Every line, whatever logger wrote it (discord.py's and asyncpg's included), passes through
one formatter that blanks the secrets it was given (the token, the database password) and
anything shaped like a Discord token or a password in a URL. The match, server and shard a
line is about come from `about(...)`, set around an interaction or a job, or from a call's
`extra={"match": ...}`.
"""

from __future__ import annotations

import contextvars
import json
import logging
import re
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any, TextIO
from urllib.parse import urlsplit

TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
FORMATS = ("text", "json")
HIDDEN = "[hidden]"

# A bot token: the application id in base64, a dot, a timestamp, a dot, an HMAC.
TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{20,}")
# The password of a URL such as postgresql://user:password@host/db.
URL_PASSWORD = re.compile(r"(?P<head>[a-z][a-z0-9+.-]*://[^:/@\s]*:)[^@/\s]+(?=@)", re.IGNORECASE)

CONTEXT = ("match", "server", "shard")
_about: dict[str, contextvars.ContextVar[int | None]] = {
    name: contextvars.ContextVar(f"log_{name}", default=None) for name in CONTEXT
}


@contextmanager
def about(**known: int | None) -> Iterator[None]:
    """Lines logged meanwhile (in this task, and tasks it starts) name this match, server or
    shard: `with about(match=7):`."""
    tokens = [(_about[name], _about[name].set(value)) for name, value in known.items()]
    try:
        yield
    finally:
        for variable, token in reversed(tokens):
            variable.reset(token)


def secrets_of(token: str, database_url: str | None) -> tuple[str, ...]:
    """The settings' values no line may show."""
    found = [token] if token else []
    if database_url:
        password = urlsplit(database_url).password
        if password:
            found.append(password)
    return tuple(found)


def redact(text: str, secrets: Iterable[str] = ()) -> str:
    """The text with these secrets, anything shaped like a bot token and the passwords of
    URLs blanked (for log lines, and for errors printed before the settings are read)."""
    for secret in secrets:
        text = text.replace(secret, HIDDEN)
    text = TOKEN_SHAPE.sub(HIDDEN, text)
    return URL_PASSWORD.sub(rf"\g<head>{HIDDEN}", text)


class Redacting(logging.Formatter):
    """Formats a record as text or JSON, then blanks every secret in the result, exception
    text and all."""

    def __init__(self, kind: str, secrets: Iterable[str] = ()) -> None:
        super().__init__(TEXT_FORMAT)
        self.kind = kind
        self.secrets = tuple(s for s in secrets if s)

    def format(self, record: logging.LogRecord) -> str:
        text = self._json(record) if self.kind == "json" else super().format(record)
        return redact(text, self.secrets)

    def _json(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for name in CONTEXT:
            value = getattr(record, name, None)
            if value is None:
                value = _about[name].get()
            if value is not None:
                line[name] = value
        if record.exc_info:
            line["error"] = self.formatException(record.exc_info)
        elif record.exc_text:
            line["error"] = record.exc_text
        return json.dumps(line, ensure_ascii=False, default=str)


def configure(
    level: str | int, kind: str = "text", secrets: Iterable[str] = (), stream: TextIO | None = None
) -> None:
    """Send every log line to `stream` (stderr) in `kind`'s format, secrets blanked; replaces
    the handlers a previous call installed."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(Redacting(kind, secrets))
    logging.basicConfig(level=level, handlers=[handler], force=True)

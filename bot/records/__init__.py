"""Game records that leave the bot and come back (issue 42): a match written as a plain-text
record and as an Abstract Play game record (APGameRecord 1-0-0, JSON), and either read back
for study (an analysis, or a position to start a match from). Formats and parsing only: no
Discord here; what is read is never stored.
"""

from bot.records.export import Export, Player, ap_record, json_record, text_record
from bot.records.imports import RecordError, Study, read_position, read_record, replay

__all__ = [
    "Export",
    "Player",
    "RecordError",
    "Study",
    "ap_record",
    "json_record",
    "read_position",
    "read_record",
    "replay",
    "text_record",
]

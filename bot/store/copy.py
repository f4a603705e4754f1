"""Copying a whole database from one store to another (SQLite to PostgreSQL, typically)."""

from __future__ import annotations

from typing import Any

from bot.store.errors import StoreError
from bot.store.migrations import TABLES
from bot.store.store import Store
from bot.texts import say, t


async def copy_database(source: Store, target: Store) -> dict[str, int]:
    """Copy every table, ids included, into an empty target; the rows copied per table."""
    for table in TABLES:
        if (await target.export_rows(table))[1]:
            raise StoreError(t("settings.copy.target_not_empty", table=table))
    copied: dict[str, int] = {}
    for table in TABLES:
        columns, rows = await source.export_rows(table)
        await target.import_rows(table, columns, rows)
        copied[table] = len(rows)
    return copied


async def differences(source: Store, target: Store) -> list[str]:
    """One line per table whose rows are not the same on both sides (every value compared,
    so a count that matches with a value that does not is still reported)."""
    found: list[str] = []
    for table in TABLES:
        there = await _rows_by_columns(source, table)
        here = await _rows_by_columns(target, table)
        if len(there) != len(here):
            found.append(
                say(t("settings.copy.row_counts", table=table, source=len(there), copy=len(here)))
            )
        elif there != here:
            found.append(say(t("settings.copy.values_differ", table=table)))
    return found


async def _rows_by_columns(store: Store, table: str) -> list[tuple[Any, ...]]:
    """A table's rows with columns in name order, sorted, so two backends compare equal."""
    columns, rows = await store.export_rows(table)
    order = sorted(range(len(columns)), key=columns.__getitem__)
    return sorted((tuple(row[i] for i in order) for row in rows), key=repr)

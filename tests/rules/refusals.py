"""Checking what the rules refuse by its catalogue key and values, not by its English words
(the bot's catalogue words them; tests/rules/test_catalogue.py checks every key is there)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from rules import RulesError


@contextmanager
def refused(kind: type[RulesError], key: str, **values: Any) -> Iterator[None]:
    """The block must raise `kind` with `key`, and with these values among its own."""
    with pytest.raises(kind) as caught:
        yield
    assert caught.value.key == key, caught.value
    found = {name: caught.value.values.get(name) for name in values}
    assert found == values, caught.value

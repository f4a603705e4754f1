"""Constructors written out as code, for the states and highlights made once per turn."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from types import MemberDescriptorType
from typing import Any, TypeVar

from rules.state import Highlight

D = TypeVar("D")


def direct_constructor(cls: type[D], names: Sequence[str]) -> Callable[..., D]:
    """A constructor for the frozen dataclass `cls` taking the values of all its fields, in
    the order of `names`, and storing them as they are: no `__init__`, no `__post_init__`, no
    defaults, no checks. For a game's `_play`, which makes one state per turn, and for moves
    made while listing them: a frozen dataclass's `__init__` stores each field through
    `object.__setattr__`, and that alone cost about a third of a Boku turn. Written out as
    code once, like dataclasses' own `__init__`, because a loop over the fields would spend
    much of the saving."""
    fields = [item.name for item in dataclasses.fields(cls)]  # type: ignore[arg-type]
    if sorted(names) != sorted(fields):
        raise ValueError(f"{cls.__name__} needs exactly its fields: {', '.join(fields)}")
    namespace: dict[str, Any] = {"new": object.__new__, "cls": cls}
    body = ["    state = new(cls)"]
    for name in names:
        slot = next((k.__dict__[name] for k in cls.__mro__ if name in k.__dict__), None)
        if isinstance(slot, MemberDescriptorType):  # a slot: its descriptor stores the value
            namespace[f"set_{name}"] = slot.__set__
            body.append(f"    set_{name}(state, {name})")
        else:
            body.append(f"    state.__dict__[{name!r}] = {name}")
    source = f"def make({', '.join(names)}):\n" + "\n".join(body) + "\n    return state\n"
    exec(source, namespace)  # noqa: S102 - source made above from the class's own field names
    return namespace["make"]  # type: ignore[no-any-return]


# A Highlight from all five of its fields, for the games' `_play` (one per turn).
make_highlight = direct_constructor(Highlight, ("seat", "notation", "path", "captured", "changed"))

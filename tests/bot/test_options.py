"""Every option value is checked against what its command declares (type, choices, range)
before the command runs, as Discord's API, unlike its client, lets anything through: each
off value gets the same private one-sentence refusal, changes nothing and logs nothing.
The commands and their options are walked, so a new command is covered as it lands."""

from __future__ import annotations

import re
from typing import Any

from discord import AppCommandOptionType, app_commands

from bot.offline import OfflineDiscord, Sent, Upload
from tests.bot.support import private

Kind = AppCommandOptionType
REFUSAL = re.compile(
    r"^\S.* is (?:not a choice|out of range|not .+) for (?P<name>\w+)\.\n-# "
    r"(?:choose one of: |give (?P=name) ).+$"
)
# Free text a member may type into an option with no declared choices.
ODD_TEXT = ("", " ", "x" * 150, "#99999999999999999999", "999999999999", "🙂", "-1", "'; --")
FILLABLE = (Kind.string, Kind.integer, Kind.number, Kind.boolean, Kind.user, Kind.attachment)


def slash_commands(h: OfflineDiscord) -> list[app_commands.Command[Any, ..., Any]]:
    commands = [c for c in h.bot.tree.get_commands() if isinstance(c, app_commands.Command)]
    assert len(commands) >= 15
    return [c for c in commands if all(p.type in FILLABLE for p in c.parameters)]


def fitting(h: OfflineDiscord, parameter: app_commands.Parameter) -> Any:
    """A value the parameter accepts."""
    if parameter.choices:
        return parameter.choices[0].value
    if parameter.type is Kind.user:
        return h.user("bob")
    if parameter.type is Kind.attachment:
        return Upload("file.txt", b"x")
    if parameter.type is Kind.boolean:
        return True
    if parameter.type in (Kind.integer, Kind.number):
        return parameter.min_value if parameter.min_value is not None else 1
    return "x" * int(parameter.min_value or 1)


def off_values(parameter: app_commands.Parameter) -> list[Any]:
    """Values off the parameter's declared choices, range or type."""
    numeric = parameter.type in (Kind.integer, Kind.number)
    wrong_type: Any = "seven" if numeric or parameter.type is Kind.boolean else 7
    values = [wrong_type] if parameter.type not in (Kind.user, Kind.attachment) else []
    if parameter.choices:
        offered = [c.value for c in parameter.choices]
        if numeric:
            values += [max(offered) + 1, min(offered) - 1]  # type: ignore[operator]
        else:
            values += ["chess", str(offered[0]).upper()]
    low, high = parameter.min_value, parameter.max_value
    if low is not None:
        values.append(low - 1 if numeric else "x" * (int(low) - 1))
    if high is not None:
        values.append(high + 1 if numeric else "x" * (int(high) + 1))
    return values


async def send(
    h: OfflineDiscord,
    command: app_commands.Command[Any, ..., Any],
    name: str,
    value: Any,
) -> list[Sent]:
    """The command from alice with every required option fitting but `name`, which holds
    `value` as sent over the API (whatever its type)."""
    alice = h.user("alice")
    options = {p.name: fitting(h, p) for p in command.parameters if p.required or p.name == name}
    payload = h.command_payload(alice, command.name, None, **options)
    parameter = next(p for p in command.parameters if p.name == name)
    for option in payload["data"]["options"]:
        if option["name"] == parameter.display_name:
            option["value"] = value
    return await h.run(payload, alice)


def test_every_off_value_of_every_option_is_refused_in_one_sentence(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        tried = 0
        for command in slash_commands(h):
            for parameter in command.parameters:
                for value in off_values(parameter):
                    sent = await send(h, command, parameter.name, value)
                    where = f"/{command.name} {parameter.name}:{value!r}"
                    assert [s.kind for s in sent] == ["message"], where
                    (refusal,) = private(sent)
                    found = REFUSAL.match(refusal.content)
                    assert found and found["name"] == parameter.display_name, refusal.content
                    tried += 1
        assert tried >= 20
        assert await h.bot.store.match_ids() == [], "nothing was stored"

    offline(scenario)


def test_the_refusal_is_the_one_challenge_gives(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        said = {}
        for command in slash_commands(h):
            if any(p.name == "game" and p.choices for p in command.parameters):
                (refusal,) = private(await send(h, command, "game", "chess"))
                said[command.name] = refusal.content
        assert {"challenge", "leaderboard", "history", "rules"} <= set(said)
        assert set(said.values()) == {
            "'chess' is not a choice for game.\n"
            "-# choose one of: Boost, Quorum, Boku, Razzle Dazzle (razzle), Kyo"
        }
        (paged,) = private(
            await send(h, next(c for c in slash_commands(h) if c.name == "matches"), "page", 0)
        )
        assert paged.content == "0 is out of range for page.\n-# give page 1 or more"

    offline(scenario)


def test_any_typed_text_is_answered_without_a_logged_error(offline: Any) -> None:
    """Options without declared choices take anything; the bot answers each value (the
    fixture fails the test on any logged error), in the command and its autocomplete."""

    async def scenario(h: OfflineDiscord) -> None:
        alice = h.user("alice")
        for command in slash_commands(h):
            for parameter in command.parameters:
                if parameter.type is not Kind.string or parameter.choices:
                    continue
                for value in ODD_TEXT:
                    sent = await send(h, command, parameter.name, value)
                    assert any(s.kind == "message" for s in sent), (command.name, value)
                    if parameter.autocomplete:
                        options = {p.name: fitting(h, p) for p in command.parameters if p.required}
                        options[parameter.name] = value
                        await h.autocomplete(alice, command.name, parameter.name, None, **options)

    offline(scenario)

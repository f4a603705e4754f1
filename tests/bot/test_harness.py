"""The offline Discord holds the bot to Discord's rules: its API specification, interaction
deadlines and message limits, with payloads shaped like Discord's own."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.http import Route

from bot.offline import OfflineDiscord, OfflineError, Refused
from tests.bot.spec import check_request
from tests.bot.support import private, start_match

Handler = Callable[[discord.Interaction[Any]], Awaitable[None]]
CALLBACK = "/interactions/{webhook_id}/{webhook_token}/callback"


def add_probe(h: OfflineDiscord, handler: Handler) -> list[discord.HTTPException]:
    """A `/probe` command running `handler`; returns the list of errors Discord answered."""
    answered: list[discord.HTTPException] = []

    async def probe(interaction: discord.Interaction[Any]) -> None:
        try:
            await handler(interaction)
        except discord.HTTPException as error:
            answered.append(error)

    h.bot.tree.add_command(app_commands.Command(name="probe", description="test", callback=probe))
    return answered


async def refused_code(h: OfflineDiscord, handler: Handler) -> int:
    answered = add_probe(h, handler)
    with pytest.raises(Refused):
        await h.command(h.user("alice"), "probe")
    (error,) = answered
    return error.code


def test_a_second_response_is_refused(offline: Any) -> None:
    async def twice(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message("first")
        await discord.InteractionResponse(interaction).send_message("second")

    async def scenario(h: OfflineDiscord) -> None:
        assert await refused_code(h, twice) == 40060

    offline(scenario)


def test_a_followup_before_the_response_is_refused(offline: Any) -> None:
    async def early(interaction: discord.Interaction[Any]) -> None:
        await interaction.followup.send("too soon")

    async def scenario(h: OfflineDiscord) -> None:
        assert await refused_code(h, early) == 10015

    offline(scenario)


def test_a_first_response_after_three_seconds_is_refused(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        async def slow(interaction: discord.Interaction[Any]) -> None:
            h.delay(3.5)
            await interaction.response.send_message("late")

        assert await refused_code(h, slow) == 10062

    offline(scenario)


def test_the_token_expires_after_fifteen_minutes(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        async def lingering(interaction: discord.Interaction[Any]) -> None:
            await interaction.response.defer()
            h.delay(14 * 60)
            await interaction.followup.send("still in time")
            h.delay(2 * 60)
            await interaction.followup.send("too late")

        assert await refused_code(h, lingering) == 50027
        assert h.latest().content == "still in time"

    offline(scenario)


def row(*components: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(components)}


def button(custom_id: str, label: str = "Go") -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": label, "custom_id": custom_id}


def select(custom_id: str, options: list[dict[str, str]], **extra: Any) -> dict[str, Any]:
    return {"type": 3, "custom_id": custom_id, "options": options, **extra}


OPTION = {"label": "a1", "value": "a1"}


@pytest.mark.parametrize(
    ("body", "code", "problem"),
    [
        ({"content": "x" * 2001}, 50035, "2000"),
        ({"components": [row(button("a"))] * 6}, 50035, "5 component rows"),
        ({"components": [row(button("x" * 101))]}, 50035, "custom_id"),
        ({"components": [row(select("s", [OPTION] * 26))]}, 50035, "25"),
        ({"components": [row(button("b", "x" * 81))]}, 50035, "label"),
        ({"components": [row(select("s", [OPTION]), button("b"))]}, 50035, "shares its row"),
        ({"components": [row(button("b")), row(button("b"))]}, 50035, "same custom_id"),
        ({"components": [row(select("s", [{"label": "x" * 101, "value": "v"}]))]}, 50035, "100"),
        ({"components": [row(select("s", [{"label": "v", "value": "x" * 101}]))]}, 50035, "100"),
        ({"components": [row(select("s", [OPTION], placeholder="x" * 151))]}, 50035, "150"),
        ({"content": ""}, 50006, "empty"),
        ({"content": "hi", "tts": "loud"}, 50035, "tts"),
    ],
)
def test_a_message_discord_refuses_is_refused(
    offline: Any, body: dict[str, Any], code: int, problem: str
) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        route = Route("POST", "/channels/{channel_id}/messages", channel_id=h.channel_id)
        with pytest.raises(discord.HTTPException, match=problem) as caught:
            await h.bot.http.request(route, json=body)
        assert caught.value.code == code
        assert h.violations, "the refusal is kept, so the test that caused it fails"
        h.violations.clear()

    offline(scenario)


@pytest.mark.parametrize("long", ["name", "value"])
def test_autocomplete_choices_over_100_characters_are_refused(offline: Any, long: str) -> None:
    async def probe(interaction: discord.Interaction[Any], text: str) -> None:
        await interaction.response.send_message(text)

    async def suggest(interaction: discord.Interaction[Any], current: str) -> list[Any]:
        choice = {"name": "x", "value": "x", long: "x" * 101}
        return [app_commands.Choice(name=choice["name"], value=choice["value"])]

    async def scenario(h: OfflineDiscord) -> None:
        command: app_commands.Command[Any, ..., None]
        command = app_commands.Command(name="probe", description="test", callback=probe)
        command.autocomplete("text")(suggest)
        h.bot.tree.add_command(command)
        with pytest.raises(Refused, match="100"):
            await h.autocomplete(h.user("alice"), "probe", "text", text="")

    offline(scenario)


def test_the_documented_exceptions_integer_ids_discord_py_sends() -> None:
    upload = {"content": "board", "attachments": [{"id": 0, "filename": "b.png"}]}
    assert check_request("POST", "/channels/{channel_id}/messages", upload) == []
    wrong = {"content": "board", "attachments": [{"id": "first", "filename": "b.png"}]}
    assert check_request("POST", "/channels/{channel_id}/messages", wrong)
    answer = {"type": 4, "data": upload}
    assert check_request("POST", CALLBACK, answer) == []
    assert check_request("POST", "/users/@me/channels", {"recipient_id": 1234}) == []
    assert check_request("POST", "/users/@me/channels", {"recipient_id": -1}) != []


def test_a_route_discord_does_not_have_is_a_violation() -> None:
    assert check_request("POST", "/channels/{channel_id}/moves", {}) != []


def test_interactions_carry_the_fields_discord_always_sends(offline: Any) -> None:
    seen: list[discord.Interaction[Any]] = []

    async def scenario(h: OfflineDiscord) -> None:
        alice = h.user("alice")
        payload = h.command_payload(alice, "help")
        for key in ("entitlements", "authorizing_integration_owners", "context", "guild_locale"):
            assert key in payload
        member = payload["member"]
        for key in ("avatar", "banner", "communication_disabled_until", "pending"):
            assert key in member
        assert {"public_flags", "flags"} <= set(member["user"]) and "flags" in payload["channel"]

        async def record(interaction: discord.Interaction[Any]) -> None:
            seen.append(interaction)
            await interaction.response.send_message("seen", ephemeral=True)

        add_probe(h, record)
        await h.command(alice, "probe", h.dm(alice))
        (interaction,) = seen
        assert interaction.guild_id is None and isinstance(interaction.channel, discord.DMChannel)
        assert interaction.context.dm_channel

    offline(scenario)


def test_help_answers_in_a_direct_message(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        alice = h.user("alice")
        (reply,) = private(await h.command(alice, "help", h.dm(alice)))
        assert "/challenge" in reply.content and reply.channel_id == h.dm(alice)

    offline(scenario)


def test_the_bot_can_open_a_direct_message_channel(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        alice = h.user("alice")
        channel = await h.bot.create_dm(discord.Object(alice.id))
        await channel.send("Your move in Quorum #1.")
        assert channel.id == h.dm(alice) and h.latest().content == "Your move in Quorum #1."

    offline(scenario)


def test_returned_components_are_numbered_like_discords(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        route = Route("POST", "/channels/{channel_id}/messages", channel_id=h.channel_id)
        body = {"components": [row(button("a"), button("b"))]}
        message = await h.bot.http.request(route, json=body)
        (bar,) = message["components"]
        assert [bar["id"], *(c["id"] for c in bar["components"])] == [1, 2, 3]

    offline(scenario)


@pytest.mark.parametrize(
    ("permission", "body"),
    [
        ("send_messages", {"content": "hi"}),
        ("embed_links", {"embeds": [{"title": "board"}]}),
        ("read_message_history", {"content": "hi", "message_reference": {"message_id": "1"}}),
    ],
)
def test_a_withheld_permission_is_answered_403_missing_permissions(
    offline: Any, permission: str, body: dict[str, Any]
) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        route = Route("POST", "/channels/{channel_id}/messages", channel_id=h.channel_id)
        h.withhold(h.channel_id, permission)
        assert not getattr(h.permissions(h.channel_id), permission)
        payload = h.command_payload(h.user("alice"), "help")
        assert not getattr(discord.Permissions(int(payload["app_permissions"])), permission)
        with pytest.raises(discord.Forbidden) as refused:
            await h.bot.http.request(route, json=body)
        assert refused.value.code == 50013 and not h.violations
        h.grant(h.channel_id)
        await h.bot.http.request(route, json=body)

    offline(scenario)


def test_threads_inherit_what_their_channel_withholds(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        h.withhold(h.channel_id, "attach_files")
        match_id, _ = await start_match(h)
        thread = (await h.bot.service.cache.get(match_id)).row.thread_id
        assert thread is not None and "attach_files" in h.lacking(thread)
        assert "send_messages" not in h.lacking(thread)

    offline(scenario)


def test_withholding_an_unknown_permission_is_a_mistake_in_the_test(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        with pytest.raises(OfflineError, match="administrator"):
            h.withhold(h.channel_id, "administrator")

    offline(scenario)


def test_a_rate_limited_route_answers_429_once_with_its_retry_after(offline: Any) -> None:
    async def scenario(h: OfflineDiscord) -> None:
        route = Route("POST", "/channels/{channel_id}/messages", channel_id=h.channel_id)
        h.rate_limit("POST", "/channels/{channel_id}/messages", retry_after=7.5)
        with pytest.raises(discord.HTTPException) as limited:
            await h.bot.http.request(route, json={"content": "hi"})
        assert limited.value.status == 429
        assert limited.value.response.headers["Retry-After"] == "7.5"
        assert (await h.bot.http.request(route, json={"content": "hi"}))["content"] == "hi"

    offline(scenario)

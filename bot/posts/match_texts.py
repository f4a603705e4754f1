"""What the bot posts for players to read, in one place: challenges, boards, turns, draw and
takeback offers, reminders and expiries.

Only words are made here (no Discord calls): the announcer, the cogs and the job handlers
post them. Answers meant for one member alone stay with the cog that answers, and a refusal's
sentence with the `ServiceError` that carries it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from bot.clock import DAY
from bot.posts import limits
from bot.service import Away, Match, Reminder, Takeback, Turn, VacationState
from bot.service.deadlines import CHALLENGE_LIFETIME
from bot.service.vacations import MAX_DAYS
from bot.store import SeatRow
from bot.texts import say


def mention(user_id: int) -> str:
    return f"<@{user_id}>"


def who(seat: SeatRow) -> str:
    """A seat in a post: a person is mentioned, the computer named by its side
    ("Computer (Red)"), so its seats are told apart and the bot never pings itself."""
    return mention(seat.user_id) if seat.engine is None else shown(seat.name)


def shown(name: str) -> str:
    """A member's display name as it may appear in a message: mentions and markdown in it
    are shown as typed, not acted on."""
    return discord.utils.escape_markdown(discord.utils.escape_mentions(name))


def jump_url(guild_id: int | None, channel_id: int, message_id: int | None = None) -> str:
    where = f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}"
    return f"{where}/{message_id}" if message_id else where


def pace(days: int) -> str:
    """`3 days per move`, or `no time limit`."""
    return f"{days} day{'' if days == 1 else 's'} per move" if days else "no time limit"


def challenge_text(match: Match) -> str:
    """The challenge post: who challenges whom to what, and who still has to answer; an open
    challenge's free seats are for anyone here."""
    challenger = match.challenger
    invited = [s for s in match.seats if s.seat != challenger.seat]
    free = sum(s.free for s in invited)
    names = ", ".join(who(s) for s in invited if not s.free)
    whom = "anyone here" if free else names
    lines = [
        f"{mention(challenger.user_id)} challenges {whom} to **{match.game.title}** "
        f"({match.row.variant}, {len(match.seats)} players, {pace(match.row.days_per_move)}, "
        f"{'rated' if match.row.rated else 'unrated'}) · match #{match.id}"
    ]
    if match.row.rematch_of is not None:
        lines.append(f"A rematch of match #{match.row.rematch_of}, seats rotated.")
    if match.status == "pending":
        accepted = [shown(s.name) for s in invited if s.accepted]
        if accepted:
            lines.append(f"Accepted so far: {', '.join(accepted)}.")
        waiting = ", ".join(mention(s.user_id) for s in match.waiting_for if not s.free)
        if waiting:
            lines.append(f"{waiting}: press **Accept** to play or **Decline**.")
        if free:
            seats = "1 seat is" if free == 1 else f"{free} seats are"
            lines.append(f"{seats} open: anyone here may press **Accept** to take one.")
    return limits.content("\n".join(lines))


def challenge_begins(match: Match) -> str:
    return f"{challenge_text(match)}\nEveryone accepted: the game is on!"


def challenge_declined(match: Match, name: str) -> str:
    return f"{challenge_text(match)}\n{name} declined."


def challenge_withdrawn(match: Match, name: str) -> str:
    return f"{challenge_text(match)}\n{name} withdrew the challenge."


def challenge_expired(match: Match) -> str:
    days = CHALLENGE_LIFETIME // DAY
    note = f"This challenge expired: it was not answered within {days} days."
    return limits.content(f"{challenge_text(match)}\n{note}")


def challenge_unanswered(match: Match, to: int | None = None) -> str:
    """Told to the challenger whose challenge expired: by DM, or addressed `to` them in the
    channel (`@dave, your challenge ...`)."""
    told = f"challenge {shown(match.describe())} expired unanswered."
    return f"{mention(to)}, your {told}" if to is not None else f"Your {told}"


def match_begins(match: Match) -> str:
    players = " vs ".join(
        who(s) if s.engine is not None else f"{who(s)} ({match.game.seat_name(s.seat)})"
        for s in match.seats
    )
    return f"**{match.title}** ({match.row.variant}) begins: {players}."


def describe_turns(match: Match, turns: Sequence[Turn], verb: str = "played") -> list[str]:
    """'alice played **f8b4**, taking bob's stone on a3.', 'bob had no legal move and
    passed.', 'carol resigned.': each move in the words its rules give (`verb` "replied" for
    the computer's answer posted with the move it answers)."""
    lines = []
    for turn in turns:
        name = shown(match.at(turn.seat).name)
        if turn.notation.startswith("resign"):
            lines.append(f"{name} resigned.")
        elif turn.notation.startswith("timeout") and match.outcome is None:
            lines.append(f"{name} ran out of time and is out of the game; the others play on.")
        elif turn.notation.startswith("timeout"):
            lines.append(f"{name} ran out of time.")
        elif turn.automatic:
            lines.append(f"{name} had no legal move and passed.")
        elif turn.premove:
            lines.append(f"{name} played {_bold_notation(turn)} (played by premove).")
        else:
            lines.append(f"{name} {verb} {_bold_notation(turn)}.")
    return lines


def _bold_notation(turn: Turn) -> str:
    """The move's words with its notation in bold, so the move itself stands out."""
    words = turn.description or turn.notation
    if words.startswith(turn.notation):
        return f"**{turn.notation}**{words[len(turn.notation) :]}"
    return words


def alt_text(match: Match, state: Any) -> str:
    """What a screen reader says for a board: the game, the turn, whose move, the last move
    and what each side has, in the rules' words (Discord's attachment description)."""
    game, names = match.game, match.names
    ply = int(game.ply(state))
    lines = [f"{match.title} board ({match.row.variant}), after {ply} turn{'s' * (ply != 1)}."]
    last = game.last(state)
    if last is not None and last.notation:
        who = game.player_name(last.seat, names)
        lines.append(f"Last move: {who} ({game.seat_name(last.seat)}) played {last.notation}.")
    outcome = game.outcome(state)
    if outcome is not None:
        over = match.describe_outcome() if outcome == match.outcome else outcome.describe()
        lines.append(f"Game over: {over}.")
    else:
        seat = game.to_move(state)
        lines.append(f"{game.player_name(seat, names)} ({game.seat_name(seat)}) to move.")
    lines.append(say(game.describe_position(state, names)))
    return limits.description(" ".join(lines))


def status_line(match: Match) -> str:
    """Who is to move (with a mention, unless the computer is), or the result."""
    if match.outcome is not None:
        return f"**Game over: {shown(match.describe_outcome())}.**"
    mover = match.to_move
    if mover is None:
        return ""
    side = match.game.seat_name(mover.seat)
    if mover.engine is not None:
        return f"{shown(mover.name)} is thinking (level {mover.engine})."
    return f"{mention(mover.user_id)}, your move ({side})."


POSTED_LATE = "-# Posted after a restart: this board was not shown when it was played."


def deadline_line(deadline: int | None) -> str:
    """The deadline in each reader's time zone, or nothing when there is none."""
    return f"Deadline: <t:{deadline}:R>." if deadline is not None else ""


def on_vacation(away: Sequence[Away]) -> list[str]:
    """`alice is on vacation until <t:...:f>.` for each player away (their clock stopped)."""
    return [f"{shown(a.seat.name)} is on vacation until <t:{a.until}:f>." for a in away]


def days_left(state: VacationState) -> str:
    """`12 vacation days left (of 30 in any 365 days)`."""
    plural = "" if state.days_left == 1 else "s"
    return f"{state.days_left} vacation day{plural} left (of {MAX_DAYS} in any 365 days)"


def vacation_began(name: str, until: int, due: int | None) -> str:
    """Said in each match whose clock the vacation stopped."""
    moved = f", so their move is now due <t:{due}:R>" if due is not None else ""
    return f"{shown(name)} is on vacation until <t:{until}:f>{moved}."


def vacation_ended(name: str, due: int | None) -> str:
    """Said in each match whose clock an early return restarted."""
    moved = f": their move is due <t:{due}:R>" if due is not None else ""
    return f"{shown(name)} is back from vacation{moved}."


def followed(match: Match, lines: Sequence[str], notes: Sequence[str], link: str) -> str:
    """The direct message a follower gets with each board: what happened, who is to move
    (no mention: nobody is pinged in a DM) or the result, and where to look."""
    mover = match.to_move
    if match.outcome is not None:
        state = f"**Game over: {shown(match.describe_outcome())}.**"
    elif mover is not None:
        state = f"{shown(mover.name)} to move ({match.game.seat_name(mover.seat)})."
    else:
        state = ""
    heading = f"**{shown(match.describe())}** (you follow it)"
    stop = f"-# `/unfollow match:{match.id}` stops these messages."
    return "\n".join(line for line in [heading, *lines, state, *notes, link, stop] if line)


def your_move(match: Match, due: str, link: str) -> str:
    """The direct message to the player to move."""
    return f"Your move in {shown(match.describe())}. {due}\n{link}"


def dms_closed(user_id: int) -> str:
    return (
        f"{mention(user_id)}, Discord would not let me send you a direct message "
        "(your DMs are closed to me), so I will mention you here instead. "
        "Use `/settings dm:on` once they are open again."
    )


def reminder_direct(reminder: Reminder) -> str:
    match = reminder.match
    link = jump_url(match.row.guild_id, match.channel_id, match.row.board_message_id)
    return f"Reminder: your move in {shown(match.describe())} is due {_due(reminder)}.\n{link}"


def reminder_in_place(reminder: Reminder) -> str:
    return f"{mention(reminder.seat.user_id)}, reminder: your move is due {_due(reminder)}."


def _due(reminder: Reminder) -> str:
    return f"<t:{reminder.deadline}:R>"


def draw_accepted(name: str) -> str:
    return f"{name} accepted the draw."


def draw_offer(match: Match, offering: str, other: SeatRow) -> str:
    """The offer, addressed to the one player who may answer it, saying when they can: at
    once if it is their move (moving declines it), else any time before their next move."""
    mover = match.to_move
    buttons = "press **Accept draw** (or use /draw) or **Decline**"
    if mover is not None and mover.seat == other.seat:
        answer = f"{buttons}, or decline by making your move"
    else:
        answer = f"{buttons} at any time; your next move declines it"
    return f"{offering} offers a draw. {mention(other.user_id)}: {answer}."


def draw_declined(name: str) -> str:
    return f"{name} declined the draw: play goes on."


def takeback_waiting(request: Takeback) -> str:
    waiting = ", ".join(mention(s.user_id) for s in request.waiting)
    return f"{waiting}: press **Accept takeback** or **Decline**."


def takeback_asks(name: str, request: Takeback) -> str:
    return f"{name} asks to take back **{request.notation}**.\n{takeback_waiting(request)}"


def takeback_asked(request: Takeback) -> str:
    """The request as it reads once answered: the first line of each answer's post."""
    asker = shown(request.match.at(request.seat).name)
    return f"{asker} asked to take back **{request.notation}**."


def takeback_declined(request: Takeback, name: str) -> str:
    return limits.content(f"{takeback_asked(request)}\n{name} declined: the move stands.")


def takeback_accepted(request: Takeback, name: str) -> str:
    asked = takeback_asked(request)
    return limits.content(f"{asked}\n{name} accepted. {takeback_waiting(request)}")


def takeback_agreed(request: Takeback) -> str:
    return limits.content(f"{takeback_asked(request)}\nEveryone accepted.")


def taken_back(request: Takeback) -> str:
    return f"**{request.notation}** was taken back."


def replay_post(match: Match) -> str:
    """The line above a finished match's replay, posted after its result."""
    turns = match.turns_played
    return limits.content(
        f"Replay of {shown(match.describe())}: {turns} turn{'' if turns == 1 else 's'}."
    )


def replay_alt(match: Match) -> str:
    """What a screen reader says of the replay GIF."""
    return limits.description(
        f"Animated replay of {match.describe()} ({match.game.title}), "
        f"{match.turns_played} turns from the setup to the final position; "
        f"{match.describe_outcome()}."
    )

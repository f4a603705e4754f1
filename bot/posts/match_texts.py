"""What the bot posts for players to read, in one place: challenges, boards, turns, draw and
takeback offers, reminders and expiries.

Only words are made here (no Discord calls), all from the catalogue (bot/texts/en.toml [posts]):
a sentence is returned as a `Text`, worded where it is sent, in the reader's language; a whole
post of several lines is worded here, in the `locale` it is given. The announcer, the cogs and
the job handlers post them. Answers meant for one member alone stay with the cog that answers,
and a refusal's sentence with the `ServiceError` that carries it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from bot.clock import DAY
from bot.posts import limits
from bot.posts.names import safe_name
from bot.service import Away, Match, Reminder, Takeback, Turn, VacationState, rating_model
from bot.service.aborts import Aborted
from bot.service.clocks import terms as clock_terms
from bot.service.deadlines import CHALLENGE_LIFETIME
from bot.service.rating_model import ShownChange
from bot.service.vacations import MAX_DAYS, YEAR
from bot.store import MatchRow, SeatRow, TournamentRow
from bot.texts import Text, Wordable, say, t
from bot.texts.numbers import Number
from rules.phrases import Phrase, Words

Line = Wordable | str  # a line of a post: a sentence to word, or a value shown as it is


def worded(lines: Sequence[Line], locale: str | None = None) -> str:
    """The lines of a post in the reader's language, one under the other."""
    return "\n".join(say(line, locale) for line in lines)


def mention(user_id: int) -> str:
    return f"<@{user_id}>"


def who(seat: SeatRow) -> str:
    """A seat in a post: a person is mentioned, the computer named by its side
    ("Computer (Red)"), so its seats are told apart and the bot never pings itself."""
    return mention(seat.user_id) if seat.engine is None else safe_name(seat.name)


def jump_url(guild_id: int | None, channel_id: int, message_id: int | None = None) -> str:
    where = f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}"
    return f"{where}/{message_id}" if message_id else where


def pace(days: int) -> Text:
    """`3 days per move`, or `no time limit`."""
    return t("posts.pace", count=days) if days else t("posts.no_time_limit")


def clock_pace(row: MatchRow | TournamentRow) -> Text:
    """`3 days per move`, `3 days in the bank, +1 per move up to 7`, `..., weekends off`."""
    terms = clock_terms(row)
    if terms.bank:
        base = t("clocks.bank", count=row.days_per_move, increment=terms.increment, cap=terms.cap)
    else:
        base = pace(row.days_per_move)
    return t("clocks.weekends_off", pace=base) if terms.weekends_off else base


def rated(match_rated: bool) -> Text:
    return t("posts.rated") if match_rated else t("posts.unrated")


def challenge_text(match: Match, locale: str | None = None) -> str:
    """The challenge post: who challenges whom to what, and who still has to answer; an open
    challenge's free seats are for anyone here."""
    challenger = match.challenger
    invited = [s for s in match.seats if s.seat != challenger.seat]
    free = sum(s.free for s in invited)
    names = ", ".join(who(s) for s in invited if not s.free)
    lines: list[Line] = [
        t(
            "posts.challenge.line",
            challenger=mention(challenger.user_id),
            whom=t("posts.challenge.anyone") if free else names,
            game=match.game.title,
            variant=match.row.variant,
            players=t("posts.challenge.players", count=len(match.seats)),
            pace=clock_pace(match.row),
            rated=rated(match.row.rated),
            match=match.id,
        )
    ]
    if match.row.rematch_of is not None:
        lines.append(t("posts.challenge.rematch", match=match.row.rematch_of))
    if match.row.start is not None:
        lines.append(
            t("records.from_position", side=match.game.seat_phrase(match.game.to_move(match.state)))
        )
    if match.status == "pending":
        accepted = [safe_name(s.name) for s in invited if s.accepted]
        if accepted:
            lines.append(t("posts.challenge.accepted", names=", ".join(accepted)))
        waiting = ", ".join(mention(s.user_id) for s in match.waiting_for if not s.free)
        if waiting:
            lines.append(t("posts.challenge.waiting", waiting=waiting))
        if free:
            lines.append(t("posts.challenge.open_seats", count=free))
    return limits.content(worded(lines, locale))


def challenge_begins(match: Match, locale: str | None = None) -> str:
    return worded([challenge_text(match, locale), t("posts.challenge.begins")], locale)


def challenge_declined(match: Match, name: str, locale: str | None = None) -> str:
    declined = t("posts.challenge.declined", player=name)
    return worded([challenge_text(match, locale), declined], locale)


def challenge_withdrawn(match: Match, name: str, locale: str | None = None) -> str:
    withdrawn = t("posts.challenge.withdrawn", player=name)
    return worded([challenge_text(match, locale), withdrawn], locale)


def challenge_expired(match: Match, locale: str | None = None) -> str:
    note = t("posts.challenge.expired", count=CHALLENGE_LIFETIME // DAY)
    return limits.content(worded([challenge_text(match, locale), note], locale))


def challenge_unanswered(match: Match, to: int | None = None) -> Text:
    """Told to the challenger whose challenge expired: by DM, or addressed `to` them in the
    channel (`@dave, your challenge ...`)."""
    described = safe_name(match.describe())
    if to is None:
        return t("posts.challenge.unanswered", match=described)
    return t("posts.challenge.unanswered_to", player=mention(to), match=described)


def match_begins(match: Match, locale: str | None = None) -> str:
    players = say(t("posts.vs"), locale).join(
        who(s)
        if s.engine is not None
        else say(t("posts.player_side", player=who(s), side=match.game.seat_phrase(s.seat)), locale)
        for s in match.seats
    )
    begins = t("posts.begins", title=match.title, variant=match.row.variant, players=players)
    return say(begins, locale)


def describe_turns(match: Match, turns: Sequence[Turn], reply: bool = False) -> list[Text]:
    """'alice played **f8b4**, taking bob's stone on a3.', 'bob had no legal move and
    passed.', 'carol resigned.': each move in the words its rules give (`reply` for the
    computer's answer posted with the move it answers: 'Computer (Red) replied ...')."""
    lines = []
    for turn in turns:
        name = safe_name(match.at(turn.seat).name)
        if turn.notation.startswith("resign"):
            lines.append(t("posts.turn.resigned", player=name))
        elif turn.notation.startswith("timeout") and match.outcome is None:
            lines.append(t("posts.turn.timed_out_others_play_on", player=name))
        elif turn.notation.startswith("timeout"):
            lines.append(t("posts.turn.timed_out", player=name))
        elif turn.automatic:
            lines.append(t("posts.turn.passed", player=name))
        elif turn.premove:
            lines.append(t("posts.turn.premove", player=name, move=_bold_notation(turn)))
        elif reply:
            lines.append(t("posts.turn.replied", player=name, move=_bold_notation(turn)))
        else:
            lines.append(t("posts.turn.played", player=name, move=_bold_notation(turn)))
    return lines


def _bold_notation(turn: Turn) -> Words:
    """The move's words with its notation in bold, so the move itself stands out (the rules
    pass a move's notation as the value `move` of what they say it did)."""
    bold = f"**{turn.notation}**"
    words = turn.description or turn.notation
    if words == turn.notation:
        return bold
    if isinstance(words, Phrase) and words.values.get("move") == turn.notation:
        return replace(words, values={**words.values, "move": bold})
    return words


def alt_text(match: Match, state: Any, locale: str | None = None) -> str:
    """What a screen reader says for a board: the game, the turn, whose move, the last move
    and where each side's pieces stand, in the rules' words (Discord's attachment
    description); what each side has, counted, when the squares would not fit."""
    game, names = match.game, [safe_name(name, markdown=False) for name in match.names]
    ply = int(game.ply(state))
    lines: list[Line] = [
        t("posts.alt.board", title=match.title, variant=match.row.variant, count=ply)
    ]
    last = game.last(state)
    if last is not None and last.notation:
        lines.append(
            t(
                "posts.alt.last_move",
                player=game.player_words(last.seat, names),
                side=game.seat_phrase(last.seat),
                move=last.notation,
            )
        )
    outcome = game.outcome(state)
    if outcome is not None:
        over = match.describe_outcome(plain) if outcome == match.outcome else outcome.by_seat()
        lines.append(t("posts.alt.game_over", outcome=over))
    else:
        seat = game.to_move(state)
        player, side = game.player_words(seat, names), game.seat_phrase(seat)
        lines.append(t("posts.alt.to_move", player=player, side=side))
    heading = " ".join(say(line, locale) for line in lines)
    where = f"{heading} {say(game.describe_position(state, names, where=True), locale)}"
    if len(where) <= limits.ATTACHMENT_DESCRIPTION:
        return where
    counted = say(game.describe_position(state, names), locale)
    return limits.description(f"{heading} {counted}")


def plain(name: str) -> str:
    """A name (or a line naming players) in alt text: read aloud, not rendered."""
    return safe_name(name, markdown=False)


def status_line(match: Match) -> Line:
    """Who is to move (with a mention, unless the computer is), or the result."""
    if match.outcome is not None:
        return t("posts.game_over", outcome=match.describe_outcome(safe_name))
    mover = match.to_move
    if mover is None:
        return ""
    if mover.engine is not None:
        return t("posts.thinking", player=safe_name(mover.name), level=mover.engine)
    side = match.game.seat_phrase(mover.seat)
    return t("posts.your_turn", player=mention(mover.user_id), side=side)


POSTED_LATE = t("posts.posted_late")


def deadline_line(deadline: int | None) -> Line:
    """The deadline in each reader's time zone, or nothing when there is none."""
    return t("posts.deadline", deadline=deadline) if deadline is not None else ""


def on_vacation(away: Sequence[Away]) -> list[Text]:
    """`alice is on vacation until <t:...:f>.` for each player away (their clock stopped)."""
    return [t("posts.on_vacation", player=safe_name(a.seat.name), until=a.until) for a in away]


def days_left(state: VacationState) -> Text:
    """`12 vacation days left (of 30 in any 365 days)`."""
    return t("posts.vacation.days_left", count=state.days_left, most=MAX_DAYS, year=YEAR // DAY)


def vacation_began(name: str, until: int, due: int | None) -> Text:
    """Said in each match whose clock the vacation stopped."""
    if due is None:
        return t("posts.on_vacation", player=safe_name(name), until=until)
    return t("posts.vacation.began_due", player=safe_name(name), until=until, due=due)


def vacation_ended(name: str, due: int | None) -> Text:
    """Said in each match whose clock an early return restarted."""
    if due is None:
        return t("posts.vacation.ended", player=safe_name(name))
    return t("posts.vacation.ended_due", player=safe_name(name), due=due)


def followed(
    match: Match,
    lines: Sequence[Line],
    notes: Sequence[Line],
    link: str,
    locale: str | None = None,
) -> str:
    """The direct message a follower gets with each board: what happened, who is to move
    (no mention: nobody is pinged in a DM) or the result, and where to look."""
    mover = match.to_move
    state: Line = ""
    if match.outcome is not None:
        state = t("posts.game_over", outcome=match.describe_outcome(safe_name))
    elif mover is not None:
        side = match.game.seat_phrase(mover.seat)
        state = t("posts.to_move", player=safe_name(mover.name), side=side)
    heading = t("posts.direct.followed", match=safe_name(match.describe()))
    stop = t("posts.direct.unfollow", match=match.id)
    every = [heading, *lines, state, *notes, link, stop]
    return worded([line for line in every if line], locale)


def your_move(match: Match, due: Line, link: str) -> Text:
    """The direct message to the player to move."""
    return t("posts.direct.your_move", match=safe_name(match.describe()), due=due, link=link)


def dms_closed(user_id: int) -> Text:
    return t("posts.direct.dms_closed", player=mention(user_id))


def reminder_direct(reminder: Reminder) -> Text:
    match = reminder.match
    link = jump_url(match.row.guild_id, match.channel_id, match.row.board_message_id)
    described = safe_name(match.describe())
    return t("posts.direct.reminder", match=described, due=reminder.deadline, link=link)


def reminder_in_place(reminder: Reminder) -> Text:
    player = mention(reminder.seat.user_id)
    return t("posts.direct.reminder_here", player=player, due=reminder.deadline)


def draw_accepted(name: str) -> Text:
    return t("posts.draw.accepted", player=name)


def draw_offer(match: Match, offering: str, other: SeatRow) -> Text:
    """The offer, addressed to the one player who may answer it, saying when they can: at
    once if it is their move (moving declines it), else any time before their next move."""
    mover, answering = match.to_move, mention(other.user_id)
    if mover is not None and mover.seat == other.seat:
        return t("posts.draw.offer_now", player=offering, other=answering)
    return t("posts.draw.offer_later", player=offering, other=answering)


def draw_lapsed(match: Match) -> Text:
    """What a draw offer's post says once the offer lapsed (its buttons gone)."""
    if match.to_move is None:
        return t("lifecycle.draw.lapsed_over", game=match.title)
    return t("lifecycle.draw.lapsed")


def draw_declined(name: str) -> Text:
    return t("posts.draw.declined", player=name)


def takeback_waiting(request: Takeback) -> Text:
    waiting = ", ".join(mention(s.user_id) for s in request.waiting)
    return t("posts.takeback.waiting", waiting=waiting)


def takeback_asks(name: str, request: Takeback) -> Text:
    waiting = takeback_waiting(request)
    return t("posts.takeback.asks", player=name, move=request.notation, waiting=waiting)


def takeback_asked(request: Takeback) -> Text:
    """The request as it reads once answered: the first line of each answer's post."""
    asker = safe_name(request.match.at(request.seat).name)
    return t("posts.takeback.asked", player=asker, move=request.notation)


def takeback_declined(request: Takeback, name: str) -> Text:
    return t("posts.takeback.declined", asked=takeback_asked(request), player=name)


def takeback_accepted(request: Takeback, name: str) -> Text:
    asked, waiting = takeback_asked(request), takeback_waiting(request)
    return t("posts.takeback.accepted", asked=asked, player=name, waiting=waiting)


def takeback_agreed(request: Takeback) -> Text:
    return t("posts.takeback.agreed", asked=takeback_asked(request))


def taken_back(request: Takeback) -> Text:
    return t("posts.takeback.taken_back", move=request.notation)


def rating_changes(match: Match, changes: Sequence[ShownChange], locale: str | None = None) -> str:
    """`Ratings: alice 1,523 (+12), bob 1,477 (-12).` under a rated result, or nothing."""
    if not changes:
        return ""
    names = {seat.user_id: seat.name for seat in match.seats}
    each = [
        t(
            "lifecycle.rating.change",
            player=safe_name(names[c.user_id]),
            rating=rating_model.shown(c.after, locale),
            change=Number(c.change, signed=True),
        )
        for c in changes
    ]
    return say(t("lifecycle.rating.after", changes=", ".join(say(c, locale) for c in each)), locale)


def abort_text(aborted: Aborted) -> Text:
    """Said where an aborted match is played: who aborted it, or whose first move timed out."""
    title = aborted.match.title
    if aborted.timed_out is not None:
        player = safe_name(aborted.timed_out.name)
        return t("lifecycle.abort.timed_out", game=title, player=player)
    player = safe_name(aborted.by.name if aborted.by else "")
    return t("lifecycle.abort.done", game=title, player=player)


def replay_post(match: Match) -> Text:
    """The line above a finished match's replay, posted after its result."""
    return t("posts.replay.post", match=safe_name(match.describe()), count=match.turns_played)


def replay_alt(match: Match) -> Text:
    """What a screen reader says of the replay GIF."""
    return t(
        "posts.alt.replay",
        match=plain(match.describe()),
        game=match.game.title,
        turns=match.turns_played,
        outcome=match.describe_outcome(plain),
    )

"""Keeping the chat civil: a player mutes another (their lines are no longer shown to them, in any match), anyone
signed in who can read a line reports it to staff with a reason, and staff resolve each report from their page
(`/staff/reports/`): dismissed (the line stays) or removed (the line is shown to no one from then on).

Reporting a line twice is one report; one's own lines are not reported or muted. The reporter is never shown to the
reported player. A guest does neither (they do not chat either).
"""
from typing import NamedTuple

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone

from game.models import ChatMessage, ChatMute, ChatReport, Match

from . import guests
from .errors import InvalidInput, MatchError

NOTE_LENGTH = ChatReport._meta.get_field("note").max_length
PAGE = 50  # reports on one page of the staff list


class NotStaff(MatchError):
    """Asked for the staff's page without being staff: answered as a page that does not exist."""

    status = 404
    code = "not_found"


def _signed_in(user, what):
    if user is None or not user.is_authenticated:
        raise InvalidInput("user", f"sign in to {what}")
    guests.refuse_guest(user, what)


def player(username):
    if not isinstance(username, str) or not username:
        raise InvalidInput("username", "name a player")
    found = get_user_model().objects.filter(username=username).first()
    if found is None or guests.is_guest(found):
        raise InvalidInput("username", f"there is no player {username}")
    return found


def mute(user, username):
    """`user` no longer sees the chat lines of the player named `username`; muting twice is muting once."""
    _signed_in(user, "mute a player")
    other = player(username)
    if other.pk == user.pk:
        raise InvalidInput("username", "you cannot mute yourself")
    ChatMute.objects.get_or_create(user=user, muted=other)
    return other


def unmute(user, username):
    _signed_in(user, "unmute a player")
    other = player(username)
    ChatMute.objects.filter(user=user, muted=other).delete()
    return other


def muted_ids(user):
    """The ids of the players `user` has muted (none for someone not signed in)."""
    if user is None or not user.is_authenticated:
        return set()
    return set(ChatMute.objects.filter(user=user).values_list("muted_id", flat=True))


def visible_lines(match, viewer):
    """The match's chat lines `viewer` is shown: none taken down, none by a player they muted."""
    lines = ChatMessage.objects.filter(match=match, removed=False)
    if viewer is not None and viewer.is_authenticated:
        lines = lines.exclude(user__muted_by__user=viewer)
    return lines


def line_of(match, message_id):
    """The chat line `message_id` of `match` that is still shown, or a 400 naming `message`."""
    try:
        message_id = int(message_id)
    except (TypeError, ValueError):
        raise InvalidInput("message", "expected the number of a chat line") from None
    found = ChatMessage.objects.select_related("user").filter(match=match, pk=message_id, removed=False).first()
    if found is None:
        raise InvalidInput("message", f"this match has no chat line {message_id}")
    return found


def report(user, match, message_id, reason, note=""):
    """Report a line of `match` (which the caller checked `user` may see) to staff: (report, made now)."""
    _signed_in(user, "report a chat line")
    message = line_of(match, message_id)
    if message.user_id == user.pk:
        raise InvalidInput("message", "this line is your own")
    if reason not in ChatReport.Reason.values:
        raise InvalidInput("reason", f"one of {', '.join(ChatReport.Reason.values)}")
    if not isinstance(note, str):
        raise InvalidInput("note", "expected text")
    note = "".join(ch for ch in note if ch.isprintable()).strip()
    if len(note) > NOTE_LENGTH:
        raise InvalidInput("note", f"at most {NOTE_LENGTH} characters")
    try:
        with transaction.atomic():
            return ChatReport.objects.create(message=message, reporter=user, reason=reason, note=note), True
    except IntegrityError:  # reported already, by this player: one report stands
        return ChatReport.objects.get(message=message, reporter=user), False


def _staff(user):
    if user is None or not user.is_authenticated or not user.is_staff:
        raise NotStaff("there is no such page")


class Reports(NamedTuple):
    rows: list
    after: int | None  # the cursor of the next page (the last report's id), None on the last page


def open_reports(user, after=None, limit=PAGE):
    """One page of the reports not resolved yet, oldest first, each with its line, its author and its match."""
    _staff(user)
    rows = ChatReport.objects.filter(outcome=ChatReport.Outcome.OPEN).select_related(
        "message__user", "message__match", "reporter")
    if after is not None:
        try:
            after = int(after)
        except (TypeError, ValueError):
            raise InvalidInput("after", "expected the cursor of the page before") from None
        cursor = ChatReport.objects.filter(pk=after).values_list("created", flat=True).first()
        if cursor is None:
            raise InvalidInput("after", "expected the cursor of the page before")
        rows = rows.filter(created__gte=cursor).exclude(created=cursor, pk__lte=after)
    rows = list(rows.order_by("created", "id")[:limit + 1])
    return Reports(rows[:limit], rows[limit - 1].pk if len(rows) > limit else None)


def resolve(user, report_id, outcome):
    """Staff close a report: `dismissed` keeps the line, `removed` takes it down for everyone (and closes every
    open report of that line with it)."""
    _staff(user)
    if outcome not in (ChatReport.Outcome.DISMISSED, ChatReport.Outcome.REMOVED):
        raise InvalidInput("outcome", "dismissed or removed")
    try:
        report_id = int(report_id)
    except (TypeError, ValueError):
        raise InvalidInput("report", "expected the number of a report") from None
    with transaction.atomic():
        found = ChatReport.objects.select_for_update().filter(pk=report_id).first()
        if found is None:
            raise InvalidInput("report", f"there is no report {report_id}")
        now = timezone.now()
        if outcome == ChatReport.Outcome.REMOVED:
            line = ChatMessage.objects.filter(pk=found.message_id)
            line.update(removed=True)
            Match.objects.filter(chat__in=line).update(changed=now)  # open pages read the chat again
            closing = ChatReport.objects.filter(message_id=found.message_id, outcome=ChatReport.Outcome.OPEN)
        else:
            closing = ChatReport.objects.filter(pk=found.pk)
        closing.update(outcome=outcome, resolved=now, resolved_by=user)
    found.refresh_from_db()
    return found

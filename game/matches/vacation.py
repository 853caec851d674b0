"""Vacation days (docs/matches.md, "Vacation"): a player away for a few days stops the clocks of their matches.

Each player may take `ALLOWANCE` days a calendar year (UTC; a vacation counts in the year it starts), one vacation at
a time, from now for a whole number of days. While it lasts:

- every match in play where it is their move has its deadline pushed back by the vacation's length (the time they
  had left waits for them at its end);
- a turn that comes to them meanwhile starts its clock when the vacation ends (game/matches/clock.py reads
  `MatchSeat.away_until`, which every seat of theirs carries, so a decision costs no query more);
- under a time bank, a decision they make meanwhile spends nothing of it.

Coming back early gives back the days not yet begun (a day begun counts as used) and takes the deadlines of their
matches back to what they would have been without the rest of the vacation. A vacation that runs its course needs
nothing done: the deadlines were set for it.
"""
import math
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from game.models import Match, MatchSeat, Vacation

from . import guests
from .errors import InvalidInput, MatchClosed
from .locking import retry_later_when_busy
from .signals import match_changed

ALLOWANCE = 30  # vacation days a player may take each calendar year
DAY = timedelta(days=1)


def used_days(vacation, now=None):
    """The days a vacation takes from the allowance: all it asked for, or, ended early, the days it had begun."""
    if vacation.ended is None:
        return vacation.days
    return min(vacation.days, math.ceil((vacation.ended - vacation.start) / DAY))


def current(user, now=None):
    """The user's vacation going on now, or None."""
    now = now or timezone.now()
    return Vacation.objects.filter(user=user, until__gt=now, ended__isnull=True).order_by("-until").first()


def days_used(user, now=None):
    """Vacation days the user has used (or planned, for a vacation going on) this calendar year."""
    now = now or timezone.now()
    return sum(used_days(v) for v in Vacation.objects.filter(user=user, start__year=now.year))


def days_left(user, now=None):
    return max(0, ALLOWANCE - days_used(user, now))


def summary(user, now=None):
    """What the settings page and the API show: the allowance, the days used and left, the vacation going on."""
    now = now or timezone.now()
    going = current(user, now)
    used = days_used(user, now)
    return {"allowance": ALLOWANCE, "used": used, "left": max(0, ALLOWANCE - used),
            "until": going.until.isoformat() if going else None, "on_vacation": going is not None,
            "vacation": going}


def _turns_of(user):
    """The user's seats in matches in play, with their matches locked (in order, so two vacations never deadlock)."""
    match_ids = list(MatchSeat.objects.filter(user=user, match__status=Match.Status.PLAYING)
                     .values_list("match_id", flat=True))
    matches = {m.pk: m for m in Match.objects.select_for_update().filter(pk__in=match_ids).order_by("pk")}
    seats = MatchSeat.objects.filter(user=user, match_id__in=list(matches))
    return [(matches[s.match_id], s) for s in seats]


def _shift(user, until, shift, now):
    """Mark the user's seats away until `until` (None: back) and move by `shift` the deadline of every match in play
    where they are to move with time left; each such match is shown changed."""
    changed = []
    for match, seat in _turns_of(user):
        seat.away_until = until
        seat.save(update_fields=["away_until"])
        fields = ["changed"]
        if match.to_move == seat.seat and not seat.by_machine and match.deadline is not None \
                and match.deadline > now:
            match.deadline = match.deadline + shift
            fields.append("deadline")
        match.save(update_fields=fields)  # a seat changed: a decision read before this is stored by the locked path
        changed.append((match.pk, match.version))
    for match_id, version in changed:
        transaction.on_commit(lambda m=match_id, v=version: match_changed.send(
            sender=Match, match_id=m, version=v, notices=[], machine_to_move=False))


@retry_later_when_busy
def start(user, days, now=None):
    """Go on vacation from now for `days` whole days (at most the days left this year)."""
    now = now or timezone.now()
    if not isinstance(days, int) or isinstance(days, bool):
        raise InvalidInput("days", "expected a whole number of days")
    guests.refuse_guest(user, "take vacation days")
    with transaction.atomic():
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()  # one change of a user's at a time
        going = current(user, now)
        if going is not None:
            raise MatchClosed(f"you are already on vacation until {going.until:%Y-%m-%d %H:%M} UTC")
        left = days_left(user, now)
        if not 1 <= days <= left:
            raise InvalidInput("days", f"expected a number from 1 to {left}: the vacation days you have left this "
                                       f"year (of {ALLOWANCE})" if left else
                               f"you have used all {ALLOWANCE} vacation days of this year")
        vacation = Vacation.objects.create(user=user, start=now, until=now + days * DAY, days=days)
        _shift(user, vacation.until, vacation.until - now, now)
    return vacation


@retry_later_when_busy
def end(user, now=None):
    """Come back from vacation now: the days not begun go back to the allowance, and the clocks run again."""
    now = now or timezone.now()
    with transaction.atomic():
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        going = current(user, now)
        if going is None:
            raise MatchClosed("you are not on vacation")
        going.ended = now
        going.save(update_fields=["ended"])
        _shift(user, None, now - going.until, now)
    return going


def mark_seats(seats, now=None):
    """A match starting: the seats of players on vacation now carry its end (their clocks wait for it)."""
    now = now or timezone.now()
    users = [s.user_id for s in seats if s.user_id is not None]
    if not users:
        return
    ends = dict(Vacation.objects.filter(Q(user_id__in=users), until__gt=now, ended__isnull=True)
                .values_list("user_id", "until"))
    for seat in seats:
        if seat.user_id in ends and seat.away_until != ends[seat.user_id]:
            seat.away_until = ends[seat.user_id]
            seat.save(update_fields=["away_until"])


def away_note(seats, now=None):
    """(name, until) of each seated player on vacation now, for the match page."""
    now = now or timezone.now()
    return [{"name": s.name, "until": s.away_until} for s in seats
            if s.user_id is not None and s.away_until is not None and s.away_until > now and not s.out]

"""Guests: a person without an account plays the Automa and bots at once (docs/matches.md, "Guests").

A guest is a real user row, with an unusable password and a name made here, marked by a `Guest` row and signed in
by its session like anyone: seats, seat checks, permissions and the player view need nothing of their own. What a
guest may not do (play or invite people, chat, turn emails) is refused where it is asked for, by `refuse_guest`.
Signing up or signing in from a guest's session hands the guest's matches to the account (`claim`), and the guest
row goes. Rows never claimed are removed by `manage.py clean_guests`.
"""
import secrets
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model, login
from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone

from cardsite.middleware import GUEST_SESSION_KEY
from game.models import ChatMessage, FinishedSeat, GameOpponent, Guest, Match, MatchSeat, TurnNotice

from . import integrity
from .errors import MatchError

NAME_PREFIX = "guest-"
SESSION_KEY = GUEST_SESSION_KEY  # the session's note that its user is a guest (read without a query)
MAX_OPEN_MATCHES = 3  # matches in play a guest may have at once


class GuestRefused(MatchError):
    """A guest asked for something only an account may do."""

    status = 403
    code = "guest_refused"


class GuestLimit(MatchError):
    """A guest has as many matches in play as a guest may."""

    status = 409
    code = "guest_limit"


def is_guest(user):
    """The authoritative answer (one query): is this user a guest?"""
    return bool(user is not None and user.is_authenticated and Guest.objects.filter(user_id=user.pk).exists())


def is_guest_request(request):
    """Is the signed-in user of this request a guest, by its session's note (no query)? For pages and rate limits;
    refusals ask `is_guest`."""
    user = getattr(request, "user", None)
    session = getattr(request, "session", None)
    return bool(user is not None and user.is_authenticated and session is not None
                and session.get(SESSION_KEY) == user.pk)


def refuse_guest(user, what):
    if is_guest(user):
        raise GuestRefused(f"a guest plays only the Automa and bots; sign up to {what}")


def check_room(user):
    """Refuse a new match to a guest who already has MAX_OPEN_MATCHES in play (a no-op for an account). Called in
    the transaction that creates the match: the guest's row is locked until it commits."""
    if not (user.is_authenticated and Guest.objects.select_for_update().filter(user_id=user.pk).exists()):
        return
    open_matches = MatchSeat.objects.filter(
        user=user, out="", match__status__in=(Match.Status.OPEN, Match.Status.PLAYING)).count()
    if open_matches >= MAX_OPEN_MATCHES:
        raise GuestLimit(f"a guest may have {MAX_OPEN_MATCHES} games in play at once; finish or resign one, or "
                         f"sign up to have more")


def new_name():
    return NAME_PREFIX + secrets.token_hex(4)


def start_guest(request, address):
    """Make a guest for this request's visitor and sign it in (the session's key changes, as at any sign-in).
    The caller has counted the request against the `guest` rate limit of its address."""
    User = get_user_model()
    with transaction.atomic():
        while True:
            name = new_name()
            if not User.objects.filter(username=name).exists():
                break
        user = User.objects.create_user(name, password=None)  # an unusable password: nobody signs in as a guest
        Guest.objects.create(user=user, address=address or None)
    login(request, user, backend=settings.AUTHENTICATION_BACKENDS[0])
    request.session[SESSION_KEY] = user.pk
    return user


def claim(guest, account):
    """Hand every match of `guest` to `account` (seats, creator, notices, chat), resealing each one whose record
    was sound, and remove the guest; all in one transaction, or nothing. Returns the ids of the matches moved.
    `guest` that is no guest (or is the account) is left alone."""
    if guest is None or not guest.is_authenticated or guest.pk == account.pk:
        return []
    moved = []
    with transaction.atomic():
        if not Guest.objects.select_for_update().filter(user_id=guest.pk).exists():
            return []
        ids = (Match.objects.filter(Q(seats__user=guest) | Q(creator=guest)).order_by("pk")
               .values_list("pk", flat=True).distinct())
        for match in Match.objects.select_for_update().filter(pk__in=list(ids)).order_by("pk"):
            seats = list(match.seats.all())
            sound = match.state is not None and integrity.seal(
                match, match.chain, match.version, match.state, integrity.record(match, seats)) == match.seal
            for seat in seats:
                if seat.user_id == guest.pk:
                    seat.user = account
                    seat.save(update_fields=["user"])
            if match.creator_id == guest.pk:
                match.creator = account
            if sound:  # a damaged record stays damaged, for staff to look at (manage.py verify_matches)
                integrity.reseal(match, seats)
            match.rated_at = None  # rated now that it is an account's (game/ratings: a guest's games are not)
            match.save()
            moved.append(match.pk)
        TurnNotice.objects.filter(user=guest).update(user=account)
        ChatMessage.objects.filter(user=guest).update(user=account)
        FinishedSeat.objects.filter(user=guest).update(user=account)  # rewritten when the match is rated again
        GameOpponent.objects.filter(user=guest).update(user=account)
        guest.delete()
    return moved


def stale(days, now=None):
    """Guests whose row is older than `days` days and none of whose matches changed in that time."""
    cutoff = (now or timezone.now()) - timedelta(days=days)
    return (get_user_model().objects.filter(guest__created__lt=cutoff)
            .annotate(last_play=Max("match_seats__match__changed"))
            .filter(Q(last_play__isnull=True) | Q(last_play__lt=cutoff)))

"""Telling players a match waits for them: one notice per turn gained (an email now, or a line of the daily
digest), and a reminder before a move's time runs out, each as the player's preferences say.

A notice is a row first (unique per match, version, user and kind), then an email: sending marks the row with a
conditional update, so a task that runs twice or late sends nothing twice.

A player at the table (their page on the match open, or a move of theirs in it just now) is not emailed the turns
they gain there: those notices are held, and the sweep collects the ones still unanswered when they leave into one
email (`send_held`).
"""
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from game.models import (
    Match,
    MatchDecision,
    MatchSeat,
    NotificationPreference,
    TurnNotice,
)

from .errors import InvalidInput
from .guests import refuse_guest

REMIND_AT = 0.25  # the reminder goes out when a quarter of the move's time is left

# An open board reads its match every few seconds (settings.MATCH_POLL_MS, 4 s), and a browser slows a hidden tab's
# timers to about once a minute: a player whose page read the match less than a minute ago has the page open.
AT_TABLE = timedelta(seconds=60)
# A player who made a decision in the match this recently, or took their seat (opened the match, joined it), is
# taken to be still playing it: their page may be between reads, not open yet, or they play through the API.
JUST_MOVED = timedelta(minutes=5)


def _table_key(match_id, user_id):
    return f"at-table:{match_id}:{user_id}"


def at_table(match_id, user_id, now=None):
    """Note that `user_id`'s page read match `match_id` (a pk) now. One cache write and no database: this runs on
    every poll of an open board (a WebSocket consumer can call it too). The cache is Redis when REDIS_URL is set,
    shared by the app servers and the queue's workers."""
    now = now or timezone.now()
    cache.set(_table_key(match_id, user_id), now.timestamp(), timeout=int(AT_TABLE.total_seconds()) * 10)


def is_at_table(match_id, user_id, now=None):
    """Whether the player's page read the match within AT_TABLE, or they took their seat or made a decision in it
    within JUST_MOVED."""
    now = now or timezone.now()
    read = cache.get(_table_key(match_id, user_id))
    if read is not None and now.timestamp() - read < AT_TABLE.total_seconds():
        return True
    seat = MatchSeat.objects.filter(match_id=match_id, user_id=user_id).values_list("seat", "joined").first()
    if seat is None:
        return False
    moved = (MatchDecision.objects.filter(match_id=match_id, seat=seat[0]).order_by("-number")
             .values_list("created", flat=True).first())
    return now - max(seat[1], moved or seat[1]) < JUST_MOVED


def preferences(user):
    found = NotificationPreference.objects.filter(user=user).first()
    return found or NotificationPreference(user=user)


def _notice(match, user, version, kind):
    """`match` and `user` are rows or their ids. A user without an email address (signing up asks for none) is
    noted nothing: there is nowhere to send the notice, now or in a digest. One query reads the address and the
    preferences together; this runs after every move that hands the turn to a person."""
    match, user = getattr(match, "pk", match), getattr(user, "pk", user)
    found = (get_user_model().objects.filter(pk=user)
             .values_list("email", "notification__turn_email", "notification__reminders").first())
    if found is None or not found[0]:
        return []
    prefs = NotificationPreference(user_id=user, **{name: value for name, value in
                                                    zip(("turn_email", "reminders"), found[1:]) if value is not None})
    if prefs.turn_email == NotificationPreference.TurnEmail.OFF:
        return []
    if kind == TurnNotice.Kind.REMINDER and not prefs.reminders:
        return []
    digest = kind == TurnNotice.Kind.TURN and prefs.turn_email == NotificationPreference.TurnEmail.DIGEST
    held = kind == TurnNotice.Kind.TURN and not digest and is_at_table(match, user)
    try:
        with transaction.atomic():
            notice = TurnNotice.objects.create(match_id=match, user_id=user, version=version, kind=kind, digest=digest,
                                               held=held)
    except IntegrityError:
        return []  # already noted for this turn
    return [] if digest or held else [notice.pk]


def turn_gained(match, user, version):
    """Note that `user` gained the turn at `version`; returns the notice ids to email now (none while the player is
    at the table: that notice is held for `send_held`). (Rows or ids.)"""
    return _notice(match, user, version, TurnNotice.Kind.TURN)


def reminder(match, user, version):
    return _notice(match, user, version, TurnNotice.Kind.REMINDER)


def _link(match):
    return f"{settings.SITE_URL}{match.get_absolute_url()}"


def deliver(notice_id):
    """Email one notice, once. Returns whether an email went out."""
    now = timezone.now()
    with transaction.atomic():
        claimed = TurnNotice.objects.filter(pk=notice_id, sent__isnull=True, digest=False, held=False).update(sent=now)
        if claimed != 1:
            return False
        # Inside the transaction: if the mail server refuses, the claim rolls back and a retry may send it.
        return _send(TurnNotice.objects.select_related("match", "user").get(pk=notice_id), now)


def _send(notice, now):
    if not notice.user.email:
        return False
    match = notice.match
    if notice.kind == TurnNotice.Kind.REMINDER:
        left = max(match.deadline - now, timedelta()) if match.deadline else timedelta()
        hours = int(left.total_seconds() // 3600)
        subject = f"Wyrmdex: match {match.public_id} waits for you ({hours} h left)"
        body = (f"Hello {notice.user.username},\n\nmatch {match.public_id} still waits for your move, and about {hours} "
                f"hours are left before your time runs out.\n\n{_link(match)}\n")
    else:
        subject = f"Wyrmdex: your turn in match {match.public_id}"
        body = (f"Hello {notice.user.username},\n\nit is your turn in match {match.public_id}. You have "
                f"{match.days_per_move} day{'s' if match.days_per_move != 1 else ''} for your move.\n\n"
                f"{_link(match)}\n")
    body += f"\nChange which emails you get: {settings.SITE_URL}/matches/notifications/\n"
    send_mail(subject, body, None, [notice.user.email])
    return True


def send_digests(now=None):
    """One email per user listing the turns they gained since their last digest. Returns how many went out."""
    now = now or timezone.now()
    waiting = TurnNotice.objects.filter(digest=True, sent__isnull=True, created__lte=now)
    sent = 0
    for user_id in sorted(set(waiting.values_list("user_id", flat=True))):
        with transaction.atomic():
            mine = list(waiting.filter(user_id=user_id).select_related("match", "user").select_for_update())
            claimed = TurnNotice.objects.filter(pk__in=[n.pk for n in mine], sent__isnull=True).update(sent=now)
            if not mine or claimed != len(mine) or not mine[0].user.email:
                continue
            user = mine[0].user
            matches = sorted({n.match.pk: n.match for n in mine}.values(), key=lambda m: m.pk)
            lines = "\n".join(f"- match {m.public_id}: {_link(m)}" for m in matches)
            body = (f"Hello {user.username},\n\nsince your last digest it became your turn in "
                    f"{len(matches)} match{'es' if len(matches) != 1 else ''}:\n\n{lines}\n\n"
                    f"Change which emails you get: {settings.SITE_URL}/matches/notifications/\n")
            # Inside the transaction: if the mail server refuses, the claim rolls back and the next digest retries.
            send_mail(f"Wyrmdex: your turns of the day ({len(matches)})", body, None, [user.email])
            sent += 1
    return sent


def _still_waits(notice):
    """Whether the match still waits for the notice's player and they made no decision in it since (so they have
    not answered this turn at the table)."""
    match = notice.match
    seat = next((s for s in match.seats.all() if s.user_id == notice.user_id), None)
    if seat is None or match.status != Match.Status.PLAYING or match.to_move != seat.seat or seat.out \
            or seat.controller != MatchSeat.Controller.PERSON:
        return False
    return not MatchDecision.objects.filter(match=match, seat=seat.seat, number__gt=notice.version).exists()


def send_held(now=None):
    """Collect the turns held while players were at the table: for each player who left a table with such a turn
    still unanswered, one email listing those matches; a turn they answered (moved since), or that no longer waits
    for them, is closed without one. Run by the every-minute sweep; safe to run twice or at once (the notices are
    claimed under a lock with a conditional update). Returns how many emails went out."""
    now = now or timezone.now()
    waiting = TurnNotice.objects.filter(held=True, sent__isnull=True, created__lte=now)
    sent = 0
    for user_id in sorted(set(waiting.values_list("user_id", flat=True))):
        with transaction.atomic():
            mine = list(waiting.filter(user_id=user_id).select_related("match", "user").select_for_update())
            left = [n for n in mine if not is_at_table(n.match_id, user_id, now)]
            if not left:
                continue  # still at those tables: kept for a later sweep
            claimed = TurnNotice.objects.filter(pk__in=[n.pk for n in left], sent__isnull=True).update(sent=now)
            if claimed != len(left):
                transaction.set_rollback(True)  # another run has them
                continue
            user = left[0].user
            open_turns = [n for n in left if _still_waits(n)]
            prefs = preferences(user)
            if not open_turns or not user.email or prefs.turn_email == NotificationPreference.TurnEmail.OFF:
                continue
            if prefs.turn_email == NotificationPreference.TurnEmail.DIGEST:  # changed meanwhile: the digest tells
                TurnNotice.objects.filter(pk__in=[n.pk for n in open_turns]).update(sent=None, held=False,
                                                                                   digest=True)
                continue
            matches = sorted({n.match.pk: n.match for n in open_turns}.values(), key=lambda m: m.pk)
            lines = "\n".join(f"- match {m.public_id}: {_link(m)}" for m in matches)
            count = f"{len(matches)} match{'es' if len(matches) != 1 else ''}"
            body = (f"Hello {user.username},\n\nit is your turn in {count}:\n\n{lines}\n\n"
                    f"Change which emails you get: {settings.SITE_URL}/matches/notifications/\n")
            subject = (f"Wyrmdex: your turn in match {matches[0].public_id}" if len(matches) == 1
                       else f"Wyrmdex: your turn in {count}")
            # Inside the transaction: if the mail server refuses, the claim rolls back and the next sweep retries.
            send_mail(subject, body, None, [user.email])
            sent += 1
    return sent


def your_turn_count(user):
    """How many matches wait for `user`'s decision right now (the number in the navigation and the page title)."""
    return MatchSeat.objects.filter(user=user, controller=MatchSeat.Controller.PERSON, out="",
                                    match__status=Match.Status.PLAYING, match__to_move=F("seat")).count()


def update_preferences(user, body):
    """Change `user`'s notification preferences from a request body; a bad value changes nothing."""
    refuse_guest(user, "have turn emails")
    if not isinstance(body, dict):
        raise InvalidInput("body", "expected a JSON object")
    unknown = set(body) - {"turn_email", "reminders"}
    if unknown:
        raise InvalidInput(sorted(unknown)[0], "is not a preference (turn_email, reminders)")
    if "turn_email" in body and body["turn_email"] not in NotificationPreference.TurnEmail.values:
        raise InvalidInput("turn_email", f"expected one of {', '.join(NotificationPreference.TurnEmail.values)}")
    if "reminders" in body and not isinstance(body["reminders"], bool):
        raise InvalidInput("reminders", "expected true or false")
    # The first save makes the row: two at once (a double-click) would both insert it. update_or_create locks the
    # row it finds, and when its insert meets the other's row it reads that row and updates it instead.
    changes = {name: body[name] for name in ("turn_email", "reminders") if name in body}
    prefs, _ = NotificationPreference.objects.update_or_create(user=user, defaults=changes)
    return prefs


def preferences_json(prefs):
    return {"turn_email": prefs.turn_email, "reminders": prefs.reminders,
            "email": prefs.user.email or None}

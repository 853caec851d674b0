"""Who may see a match: a public one, anyone; a private one, only its seated players (and its creator), someone
who opened its invite link, and whoever holds its watch link. Everyone else is told there is no such match, in the
same words as for an id that names nothing, so a private match's existence is not given away.

The links a visitor opened are kept in their session (`grant`): opening the invite or watch link once lets that
browser watch the match from then on, signed in or not (signing in keeps the session's data). The watch link's
token is signed with the site's key for this purpose only, so it is not an invite: it seats no one.
"""
from django.core import signing
from django.http import Http404
from django.urls import reverse

from game.models import Match

from .ids import lookup

WATCH_SALT = "wyrmdex.match-watch"
SESSION_KEY = "wyrmdex_watching"  # the public ids of private matches this browser opened a link of
KEEP = 200  # links kept per session, newest last: a session of someone watching many games stays small


def no_such_match(key):
    """The one answer for a match that does not exist or may not be seen by the asker."""
    return Http404(f"there is no match {key}")


def _granted(session):
    found = session.get(SESSION_KEY) if session is not None else None
    return found if isinstance(found, list) else []


def can_view(user, match, session=None):
    """Whether `user` (with the browser's `session`) may see `match`: its page, view, options, replay, record, chat
    and analysis. Reads the seats the match was read with; the session only for a private match."""
    if not match.private:
        return True
    if user is not None and user.is_authenticated and (
            match.creator_id == user.pk or any(s.user_id == user.pk for s in match.seats.all())):
        return True
    return match.public_id in _granted(session)


def check(request, match):
    """`match` when the request may see it, else the 404 of a match that does not exist."""
    if not can_view(request.user, match, getattr(request, "session", None)):
        raise no_such_match(match.public_id)
    return match


def find(key, queryset=None):
    """The match named `key` (a public id or a number, as `ids.lookup` takes them) with its seats, or the 404."""
    match = (queryset if queryset is not None else Match.objects).filter(**lookup(key)) \
        .prefetch_related("seats").first()
    if match is None:
        raise no_such_match(key)
    return match


def may_view_key(request, key):
    """Whether the request may see the match named `key` (False when there is none): for an error answer, which
    must not say more of a private match than a 404 would."""
    try:
        return can_view(request.user, find(key), getattr(request, "session", None))
    except Http404:
        return False


def grant(request, match):
    """Let this browser watch `match` from now on (it opened the match's invite or watch link)."""
    if not match.private:
        return  # anyone may watch a public match: nothing to remember
    kept = [public_id for public_id in _granted(request.session) if public_id != match.public_id]
    request.session[SESSION_KEY] = (kept + [match.public_id])[-KEEP:]


def watch_token(match):
    return signing.dumps(match.public_id, salt=WATCH_SALT)


def watch_url(match):
    """The link a match's players share so others may watch it (useful for a private match)."""
    return reverse("match-watch", args=[watch_token(match)])


def match_of_watch(token):
    """The match a watch link's token names, or the 404 of a match that does not exist (a token not made here,
    or naming a match that is gone)."""
    try:
        public_id = signing.loads(token, salt=WATCH_SALT) if isinstance(token, str) and len(token) <= 200 else None
    except signing.BadSignature:
        public_id = None
    match = Match.objects.filter(public_id=public_id).first() if isinstance(public_id, str) else None
    if match is None:
        raise Http404("this watch link is not valid; ask the match's players for a new one")
    return match

"""The answer to a board's poll when nothing changed: a 304 from one small row, before sessions, users and DRF.

A board asks for its match every few seconds with the ETag of its last answer. The tag names the match's version,
status and `changed` (which every change that is not a decision moves too: a seat taken or left, a chat line, a
rematch) and who asked, since each seat sees its own hand. Who asked is read from the request alone, without the
session store: a keyed hash of the session cookie (login and logout always change the cookie, so one cookie is one
person, or nobody). A request that was not signed in by the session (a test client's forced user, say) is named by
its user instead; the middleware cannot know that user, so such a poll goes on to the view, which answers the 304.

A seated player's tag also names them, signed with the asker's hash (`-p<user id>.<signature>`): a 304 for it notes
that player at the table (notify.at_table, one cache write), though the middleware never learns who the user is.
Only a full answer to that player hands out such a tag, and a forged one matches no tag this side computes.

A 304 tells only "what you hold is still current": it is safe to give to whoever presents both the cookie and the
tag the last full answer for that cookie carried, and that answer was given only to someone who may see the match
(game/matches/access.py). A private match is never answered 304 without a cookie: no one without one may see it,
so a tag for nobody is never handed out, and guessing one is not let through.
"""
import re

from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.http import Http404, HttpResponseNotModified
from django.utils.crypto import salted_hmac

from game.models import Match

from . import notify
from .access import no_such_match
from .ids import PATTERN

SALT = "wyrmdex.match-etag"
SEATED_SALT = "wyrmdex.match-etag.seated"
DETAIL = re.compile(f"/api/matches/({PATTERN})/")
SEATED = re.compile(r'-p([0-9]{1,18})\.[0-9a-f]{12}"')
ANONYMOUS = "anon"


def _cookie(request):
    return request.COOKIES.get(settings.SESSION_COOKIE_NAME, "")


def _by_cookie(cookie):
    return "k" + salted_hmac(SALT, cookie).hexdigest()[:20] if cookie else ANONYMOUS


def asker(request):
    """Who a full answer was made for, as its tag says it."""
    user = getattr(request, "user", None)
    cookie = _cookie(request)
    if user is None or not user.is_authenticated:
        return _by_cookie(cookie)
    session = getattr(request, "session", None)
    if cookie and session is not None and session.get(SESSION_KEY) == str(user.pk):
        return _by_cookie(cookie)
    return f"u{user.pk}"


def etag(public_id, version, status, changed, who, seated=None):
    """The tag of a full answer made for `who`; `seated` is the user id when that is a seated player."""
    tag = f'"m{public_id}-v{version}-{status}-c{changed.timestamp()}-{who}'
    if seated is not None:
        tag += f"-p{seated}.{salted_hmac(SEATED_SALT, f'{who}:{seated}').hexdigest()[:12]}"
    return tag + '"'


def _row(request, public_id):
    """The match's version, status, `changed` and whether it is private (one query of four small columns, read
    once per request)."""
    kept = getattr(request, "polled_match", None)
    if kept is not None and kept[0] == public_id:
        return kept[1]
    found = list(Match.objects.filter(public_id=public_id).order_by()
                 .values_list("version", "status", "changed", "private", "pk")[:1])
    if not found:
        raise no_such_match(public_id)
    request.polled_match = (public_id, found[0])
    return found[0]


def not_modified(tag):
    response = HttpResponseNotModified()
    response["ETag"] = tag
    response["Cache-Control"] = "private, no-cache"
    response["Vary"] = "Accept, Cookie"
    return response


def unchanged(request, public_id, who):
    """A 304 when the request holds the match's current tag for `who`, else None. A seated player's 304 notes them
    at the table."""
    asked = request.headers.get("If-None-Match", "")
    if not asked:
        return None
    version, status, changed, private, pk = _row(request, public_id)
    if private and who == ANONYMOUS:
        return None
    named = SEATED.search(asked)
    seated = int(named[1]) if named else None
    tag = etag(public_id, version, status, changed, who, seated)
    if tag not in asked:
        return None
    if seated is not None:
        notify.at_table(pk, seated)
    return not_modified(tag)


class UnchangedMatchMiddleware:
    """Answers an unchanged poll of GET /api/matches/<id>/ before the session and DRF are reached."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method in ("GET", "HEAD") and "HTTP_IF_NONE_MATCH" in request.META:
            found = DETAIL.fullmatch(request.path_info)
            if found is not None:
                try:
                    answer = unchanged(request, found[1], _by_cookie(_cookie(request)))
                except Http404:
                    answer = None  # the view says so, in the API's own words
                if answer is not None:
                    return answer
        return self.get_response(request)

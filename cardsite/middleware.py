"""Request guards that hold for every view, in one place each: a request id, input the database can store, a
JSON body the parser can read, rate limits, and the error page for the site's own errors (`cardsite.api_errors`)."""
import hashlib
import json
import re
import time
import unicodedata
import uuid

from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import PermissionDenied, SuspiciousOperation
from django.http import Http404
from django.urls import get_script_prefix, get_urlconf, reverse

from cardsite import log
from cardsite.api_errors import error_response
from cardsite.errors import BodyTooDeep, RefusedCharacters, TooManyRequests

SANE_REQUEST_ID = re.compile(r"[A-Za-z0-9._:-]{1,128}")
# PostgreSQL stores no NUL in text or JSON, and no lone surrogate can be encoded as UTF-8 for either database.
REFUSED = re.compile("[\x00\ud800-\udfff]")
UNSAFE_METHODS = {"POST", "PUT", "PATCH", "DELETE"}


class RequestIdMiddleware:
    """First in the list: every log line of a request carries its id, and the answer echoes it in X-Request-ID.

    A sane incoming X-Request-ID (a proxy's) is kept so one id follows the request across servers."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        incoming = request.META.get("HTTP_X_REQUEST_ID", "")
        request.id = incoming if SANE_REQUEST_ID.fullmatch(incoming) else uuid.uuid4().hex
        request.log_context = {"id": request.id, "method": request.method, "path": _printable(request.path)}
        token = log.current.set(request.log_context)
        try:
            response = self.get_response(request)
        finally:
            log.current.reset(token)
        response["X-Request-ID"] = request.id
        return response


def _printable(text):
    return REFUSED.sub(lambda m: m.group().encode("unicode_escape", "backslashreplace").decode("ascii"), text)


def _refuse(field, where="text"):
    return RefusedCharacters(_printable(field), f"this {where} holds a character the site cannot store "
                                                "(a NUL or a lone surrogate); remove it")


def _json_problem(value):
    """The first string (key or value) in parsed JSON holding a refused character, as an exception; or a body nested
    deeper than JSON_MAX_DEPTH. Walked with a stack, so no depth can overflow this check."""
    limit = settings.JSON_MAX_DEPTH
    stack = [(value, "body", 1)]
    while stack:
        node, path, depth = stack.pop()
        if depth > limit:
            return BodyTooDeep("body", f"the JSON is nested more than {limit} levels deep")
        if isinstance(node, str):
            if REFUSED.search(node):
                return _refuse(path)
        elif isinstance(node, dict):
            for key, item in reversed(node.items()):
                child = key if path == "body" else f"{path}.{key}"
                if REFUSED.search(key):
                    return _refuse(child, "field name")
                stack.append((item, child, depth + 1))
        elif isinstance(node, list):
            for i in reversed(range(len(node))):
                stack.append((node[i], f"{path}[{i}]" if path != "body" else f"[{i}]", depth + 1))
    return None


def input_problem(request):
    """What is wrong with a request's path, query, cookies, form fields or JSON body that no view could store or
    parse, as a `SiteError`; or None."""
    if REFUSED.search(request.path):
        return _refuse("path")
    for key, values in request.GET.lists():
        if REFUSED.search(key):
            return _refuse(key, "parameter name")
        if any(REFUSED.search(value) for value in values):
            return _refuse(key)
    for key, value in request.COOKIES.items():
        if REFUSED.search(key) or REFUSED.search(value):
            return _refuse(f"cookie {key}")
    if request.method not in UNSAFE_METHODS:
        return None
    content_type = request.content_type or ""
    if content_type in ("application/x-www-form-urlencoded", "multipart/form-data"):
        for key, values in request.POST.lists():
            if REFUSED.search(key):
                return _refuse(key, "field name")
            if any(REFUSED.search(value) for value in values):
                return _refuse(key)
    elif content_type == "application/json" or content_type.endswith("+json"):
        body = request.body
        if not body:
            return None
        try:
            data = json.loads(body)
        except RecursionError:
            return BodyTooDeep("body", f"the JSON is nested more than {settings.JSON_MAX_DEPTH} levels deep")
        except ValueError:
            return None  # not JSON at all: the view's own parser says where it breaks
        return _json_problem(data)
    return None


class InputGuardMiddleware:
    """One clear 400 naming the field, before any view, for input the database would refuse or the JSON parser
    cannot read: a NUL anywhere, or JSON nested too deep (Python's parser would raise RecursionError)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        problem = input_problem(request)
        if problem is not None:
            return error_response(request, problem)
        return self.get_response(request)


def client_address(request):
    """The client's address: REMOTE_ADDR, or the one TRUSTED_PROXIES proxies in front of us put in
    X-Forwarded-For (only they can be believed; a client can write anything before them)."""
    proxies = settings.TRUSTED_PROXIES
    if proxies:
        forwarded = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if part.strip()]
        if len(forwarded) >= proxies:
            return forwarded[-proxies]
    return request.META.get("REMOTE_ADDR", "")


_SIGN_PATHS = {}  # (URLconf, prefix) -> (the sign-in paths, the sign-up path), reversed once, not on every write


def _sign_paths():
    key = (get_urlconf(), get_script_prefix())
    found = _SIGN_PATHS.get(key)
    if found is None:
        found = _SIGN_PATHS[key] = ((reverse("login"), reverse("admin:login")), reverse("signup"))
    return found


def _buckets(request):
    """(limit name, who) pairs a sign-in or sign-up counts against (none for a safe method); None for any other
    unsafe request: a write or a try, counted once its view is known."""
    if request.method not in UNSAFE_METHODS:
        return []
    address = "addr:" + client_address(request)
    sign_in, sign_up = _sign_paths()
    if request.path in sign_in:
        return [("sign_in", address)]
    if request.path == sign_up:
        return [("sign_up", address)]
    return None  # a write or a try: counted once the view is known (RateLimitMiddleware.process_view)


def _client(request):
    """Whom a write counts against: a signed-in player (not a guest: its address), else the address."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated or _guest_session(request, user):
        return "addr:" + client_address(request)
    return f"user:{user.pk}"


def limit_of(view_func, request):
    """The limit a view's unsafe requests count against: `write` unless the view says otherwise in `rate_limit`
    ("try" for a request that works something out and stores nothing, as a preview), or a function of the request
    that says which."""
    view_class = getattr(view_func, "view_class", None) or getattr(view_func, "cls", None)
    limit = getattr(view_class, "rate_limit", None) or getattr(view_func, "rate_limit", None) or "write"
    return limit(request) if callable(limit) else limit


GUEST_SESSION_KEY = "wyrmdex_guest"  # game/matches/guests.py notes a guest's session so (read here without a query)


def _guest_session(request, user):
    session = getattr(request, "session", None)
    return session is not None and session.get(GUEST_SESSION_KEY) == user.pk


def rate_key(name, who, slot):
    return f"ratelimit:{name}:{hashlib.sha256(who.encode()).hexdigest()[:32]}:{slot}"


def _window(name, now):
    """(limit, window in seconds, the window's number, seconds until it ends) of limit `name` at `now`."""
    limit, window = settings.RATE_LIMITS[name]
    now = time.time() if now is None else now
    slot = int(now // window)
    return limit, window, slot, max(1, int((slot + 1) * window - now + 0.999))


# What each limit counts, in words for the refusal: "Too many <this> ...".
LIMIT_WORDS = {
    "sign_in": "sign-in attempts from your address",
    "sign_in_username": "failed sign-ins to this account from new addresses",
    "sign_up": "new accounts from your address",
    "write": "changes sent (moves, chats, saves and other writes)",
    "try": "tries sent (previews of a choice, analyses and card checks)",
    "guest": "new guest players from your address",
}


def _span(seconds):
    for unit, size in (("hour", 3600), ("minute", 60), ("second", 1)):
        if seconds % size == 0:
            n = seconds // size
            return unit if n == 1 else f"{n} {unit}s"
    return f"{seconds} seconds"


def _refusal(name, limit, window, wait):
    what = LIMIT_WORDS.get(name, "requests of this kind")
    return TooManyRequests(f"Too many {what}: this site takes at most {limit} every {_span(window)}. "
                           f"Nothing was done; wait {wait} second{'' if wait == 1 else 's'} and try again.",
                           retry_after=wait)


def count(name, who, now=None):
    """Count one against limit `name` for `who`; how many this window holds now.

    A fixed window in Django's cache (Redis with several app servers: the count is shared), so counting is one
    atomic increment."""
    _, window, slot, _ = _window(name, now)
    key = rate_key(name, who, slot)
    cache.add(key, 0, window + 1)
    try:
        return cache.incr(key)
    except ValueError:  # the entry expired between add and incr
        cache.set(key, 1, window + 1)
        return 1


def hit(name, who, now=None):
    """Count one request against limit `name` for `who`; raise TooManyRequests past the limit."""
    now = time.time() if now is None else now
    limit, window, _, wait = _window(name, now)
    if count(name, who, now) > limit:
        raise _refusal(name, limit, window, wait)


# --- sign-in: guesses at one account from many addresses ----------------------------------------------------------
# Every sign-in counts against its address (`sign_in`, in `_buckets`). Only failures count against the username
# tried (`sign_in_username`), to a limit no single address reaches alone; past it the account is being guessed at
# from many addresses, and is closed, for the rest of the window, to addresses it was never signed in from: the
# guessers cannot lock its owner out of the places the owner signs in from. (Letting through any address without
# failures of its own would not slow guesses spread over many addresses: each one's first guess is such a one.)
# The check reads the count before the password is tried, so guesses sent all at once may pass it by as many as
# arrive together; the per-address limit still holds each of them.
KNOWN_ADDRESS_DAYS = 90  # how long a sign-in keeps its address open to the account during a guessing run


def account_key(username):
    """The bucket of a username as typed, normalised as Django's sign-in form normalises it (NFKC), in one case:
    "Mallory" and a full-width "ｍallory" are one account to the counts."""
    return "user:" + unicodedata.normalize("NFKC", username.strip()).lower()


def _known_key(address, username):
    return rate_key("known", f"{address}\n{account_key(username)}", "always")


def check_account(address, username, now=None):
    """Refuse a sign-in to `username` from an address it was never signed in from, while the username is past its
    limit of failures (`sign_in_username`)."""
    limit, window, slot, wait = _window("sign_in_username", now)
    if (cache.get(rate_key("sign_in_username", account_key(username), slot), 0) >= limit
            and not cache.get(_known_key(address, username))):
        raise _refusal("sign_in_username", limit, window, wait)


def sign_in_failed(sender, credentials, request=None, **kwargs):
    """Django's `user_login_failed`: a wrong password (or an unknown name) counts against the username tried."""
    username = credentials.get("username")
    if isinstance(username, str) and username.strip():
        count("sign_in_username", account_key(username))


def signed_in(sender, request, user, **kwargs):
    """Django's `user_logged_in`: the address stays open to this account while its username is being guessed at."""
    if request is not None:
        cache.set(_known_key(client_address(request), user.get_username()), True, KNOWN_ADDRESS_DAYS * 86400)


class RateLimitMiddleware:
    """Sign-in, sign-up and every write are limited per client (RATE_LIMITS), and sign-in per account too (above);
    past a limit, a 429 with Retry-After. Placed after authentication, so a signed-in player's writes count
    against the player."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        try:
            for name, who in _buckets(request) or []:
                hit(name, who)
            if request.method in UNSAFE_METHODS and request.path in _sign_paths()[0]:
                username = request.POST.get("username", "")
                if username.strip():
                    check_account(client_address(request), username)
        except TooManyRequests as exc:
            return error_response(request, exc)
        return self.get_response(request)

    def process_view(self, request, view_func, view_args, view_kwargs):
        # Writes and tries, once the view is known: a try (stores nothing) has its own, larger allowance, so
        # trying choices never uses up the allowance for moves.
        if _buckets(request) is not None:
            return None
        try:
            hit(limit_of(view_func, request), _client(request))
        except TooManyRequests as exc:
            return error_response(request, exc)
        return None


class ErrorPageMiddleware:
    """The pages' side of the one mapper: a site error or an engine refusal that escapes a page view is answered
    with its status and message; Django's own pages answer 404 and 403, and anything else is a logged 500."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if isinstance(exception, (Http404, PermissionDenied, SuspiciousOperation)):
            return None
        return error_response(request, exception)

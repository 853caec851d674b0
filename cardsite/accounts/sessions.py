"""The session engine (SESSION_ENGINE = "cardsite.accounts.sessions") and the authentication that reads the user
with the session.

Django reads a signed-in request's session (one query) and then its user (a second). Here the session row names
its user in a column, the session is read joined to the user, and `AuthenticationMiddleware` hands that row to
`SessionUserBackend.get_user`, which Django's own `auth.get_user` calls: so Django still checks everything it checks
(the backend named in the session, the password hash the session was signed in with, the secret key fallbacks),
on the row already read. A session whose user row did not come with it (a fallback that should not happen) reads
the user as Django does.
"""
import logging
from contextvars import ContextVar

from django.contrib import auth
from django.contrib.auth import SESSION_KEY
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.middleware import AuthenticationMiddleware as DjangoAuthenticationMiddleware
from django.contrib.sessions.backends import db
from django.core.exceptions import SuspiciousOperation
from django.utils import timezone
from django.utils.functional import SimpleLazyObject

_UNREAD = object()
_reading = ContextVar("session_being_read", default=None)  # the session whose user `get_user` is asked for


class SessionStore(db.SessionStore):
    """Django's database sessions, in our table, read together with their user."""

    user_row = _UNREAD  # the user read with this session: a User, None (no user), or _UNREAD

    @classmethod
    def get_model_class(cls):
        from .models import Session

        return Session

    def _get_session_from_db(self):
        """Django's read of the row (an unknown or expired key is no session), joined to the user."""
        self.user_row = _UNREAD
        try:
            found = self.model.objects.select_related("user").get(session_key=self.session_key,
                                                                  expire_date__gt=timezone.now())
        except (self.model.DoesNotExist, SuspiciousOperation) as exc:
            if isinstance(exc, SuspiciousOperation):
                logging.getLogger(f"django.security.{exc.__class__.__name__}").warning(str(exc))
            self._session_key = None
            return None
        self.user_row = found.user
        return found

    def create_model_instance(self, data):
        row = super().create_model_instance(data)
        row.user_id = data.get(SESSION_KEY)
        return row

    def user_for(self, user_id):
        """The user read with this session if its id is `user_id`, else _UNREAD (read it as usual)."""
        row = self.user_row
        if row is _UNREAD or row is None or str(row.pk) != str(user_id):
            return _UNREAD
        return row


class SessionUserBackend(ModelBackend):
    """Django's model backend that takes the user read with the session instead of reading it again; signing in,
    permissions and everything else are ModelBackend's."""

    def get_user(self, user_id):
        session = _reading.get()
        row = session.user_for(user_id) if session is not None else _UNREAD
        if row is _UNREAD:
            return super().get_user(user_id)
        return row if self.user_can_authenticate(row) else None


def get_user(request):
    """Django's `auth.get_user`, offered the user read with the session; kept on the request as Django keeps it."""
    if hasattr(request, "_cached_user"):
        return request._cached_user
    token = _reading.set(request.session if isinstance(request.session, SessionStore) else None)
    try:
        request._cached_user = auth.get_user(request)
    finally:
        _reading.reset(token)
    return request._cached_user


class AuthenticationMiddleware(DjangoAuthenticationMiddleware):
    """Django's, but `request.user` comes through `get_user` above (still lazily, on first use)."""

    def process_request(self, request):
        super().process_request(request)
        request.user = SimpleLazyObject(lambda: get_user(request))

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
from django.contrib.auth import SESSION_KEY, get_user_model
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.middleware import AuthenticationMiddleware as DjangoAuthenticationMiddleware
from django.contrib.sessions.backends import db
from django.core.exceptions import SuspiciousOperation
from django.db import connections, router
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
        """Django's read of the row (an unknown or expired key is no session), joined to the user, by a statement
        written once: the ORM compiling this join took most of a millisecond on every request, more than running
        it. The session comes back as a model holding its key, data and user id (all Django reads of it)."""
        self.user_row = _UNREAD
        db = router.db_for_read(self.model)
        connection = connections[db]
        now = connection.ops.adapt_datetimefield_value(timezone.now())
        try:
            found = next(iter(get_user_model().objects.db_manager(db).raw(
                _session_read(connection), [self.session_key, now])), None)
        except SuspiciousOperation as exc:
            logging.getLogger(f"django.security.{exc.__class__.__name__}").warning(str(exc))
            found = None
        if found is None:
            self._session_key = None
            return None
        data = found.__dict__.pop("session_data")  # read beside the user's columns; not the user's to carry
        self.user_row = found if found.pk is not None else None
        return self.model(session_key=self.session_key, session_data=data, user_id=found.pk)

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


_SESSION_READS = {}  # database alias -> the statement `_get_session_from_db` runs


def _session_read(connection):
    """SELECT the user's columns (none when the session names no user that exists) and the session's data, for a
    session key and a moment the session must not have expired by."""
    found = _SESSION_READS.get(connection.alias)
    if found is None:
        from .models import Session

        User, name = get_user_model(), connection.ops.quote_name
        columns = ", ".join(f"u.{name(field.column)}" for field in User._meta.concrete_fields)
        found = _SESSION_READS[connection.alias] = (
            f"SELECT {columns}, s.{name('session_data')} AS session_data "
            f"FROM {name(Session._meta.db_table)} s LEFT JOIN {name(User._meta.db_table)} u "
            f"ON u.{name(User._meta.pk.column)} = s.{name(Session._meta.get_field('user').column)} "
            f"WHERE s.{name('session_key')} = %s AND s.{name('expire_date')} > %s")
    return found


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

from django.conf import settings
from django.contrib.sessions.base_session import AbstractBaseSession
from django.db import models


class Session(AbstractBaseSession):
    """Django's session row plus the signed-in user's id as a column of its own (the session's data holds it too),
    so the session and its user are read with one join, and a user's sessions go when the user goes."""

    # No foreign key constraint: a session saved as its user is deleted must not fail (Django would retry its
    # creation forever); the join then finds no user and the session is signed out. Deleting a user deletes its
    # sessions all the same (Django's CASCADE).
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE,
                             related_name="+", db_constraint=False)

    @classmethod
    def get_session_store_class(cls):
        from .sessions import SessionStore

        return SessionStore

    class Meta(AbstractBaseSession.Meta):
        db_table = "accounts_session"

"""The site's settings for the test suite, which runs with DEBUG off as a deployment does: there the site refuses
its public development key, so the tests bring a key of their own (drawn per run; nothing signed outlives it).
Set in the environment, so a server or script a test starts in a subprocess reads the same key."""
import os
import secrets

os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))

from cardsite.settings import *  # noqa: E402,F403  (after the key: the settings read it at import)

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardsite.settings")
application = get_wsgi_application()

# Build the in-memory search index before the first request, so a fresh worker answers its first search quickly.
from cardsite.catalogue.card_index import prewarm_at_start  # noqa: E402

prewarm_at_start(application)

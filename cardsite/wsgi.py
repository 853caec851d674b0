import gc
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardsite.settings")
application = get_wsgi_application()

# Build the in-memory search index before the first request, so a fresh worker answers its first search quickly.
from cardsite.catalogue.card_index import prewarm_at_start  # noqa: E402

prewarm_at_start(application)

# What is loaded by now (Django, our modules, the search index: about 120,000 objects) lives as long as the worker.
# Kept out of the garbage collector's sight, a full collection no longer walks it: it took a tenth of a second of CPU,
# and under load every worker ran its first one at about the same moment, stalling all requests for up to a second
# (docs/benchmarks.md, "The one-second stall").
gc.collect()
gc.freeze()

"""Static files in production: hashed, compressed names from the manifest that `collectstatic` writes."""
import logging

from whitenoise.storage import CompressedManifestStaticFilesStorage

logger = logging.getLogger(__name__)


class HashedStaticFiles(CompressedManifestStaticFilesStorage):
    """WhiteNoise's storage, except that before `collectstatic` has written a manifest pages link each file by its
    own name (served from static/ through the finders) instead of failing: a server started without the build step,
    or a benchmark's, answers every page rather than a 500 naming a file. It says so once in the log, since such a
    server loses the year-long caching (docs/deploy.md)."""

    _warned = False

    def stored_name(self, name):
        if not self.hashed_files:
            if not HashedStaticFiles._warned:
                HashedStaticFiles._warned = True
                logger.warning("static files: no manifest in %s (run manage.py collectstatic); pages link unhashed "
                               "names that browsers keep for a minute only", self.location)
            return name
        return super().stored_name(name)

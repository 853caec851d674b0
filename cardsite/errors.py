"""The site's one error family: an error a client can be told about knows its HTTP status, the field to blame, a
message a person can read and a short machine code. `cardsite.api_errors` turns any of them into the one body shape
(docs/api.md, "Errors"); an exception outside the family is a bug, answered as a logged 500.

Plain Python, no Django: the apps' own errors (matches, checker, calculator) subclass `SiteError`.
"""


class SiteError(Exception):
    """Something about the request the client can fix (or, for 503, wait out): never a bug of ours."""

    status = 400
    code = "invalid"

    def __init__(self, message, field=None, errors=None):
        super().__init__(f"{field}: {message}" if field else message)
        self.message = message
        self.field = field
        # Every mistake found, by field; most errors know one, a score sheet may list many.
        self.errors = errors if errors is not None else ({field: [message]} if field else {})


class InvalidField(SiteError):
    """A request field has the wrong type or value; `field` names it (a JSON path such as `players[1].name`)."""

    code = "invalid"

    def __init__(self, field, message):
        super().__init__(message, field)


class RefusedCharacters(InvalidField):
    """Text the database cannot store: a NUL or a lone surrogate, anywhere in the request."""

    code = "refused_characters"


class BodyTooDeep(InvalidField):
    code = "too_deep"


class StaleVersion(SiteError):
    """The client acted on an old version of something (a match): look again and choose anew."""

    status = 409
    code = "stale_version"


class TooManyRequests(SiteError):
    """Too many requests of one kind from one client in a window; `retry_after` is in whole seconds."""

    status = 429
    code = "rate_limited"

    def __init__(self, message, retry_after):
        super().__init__(message)
        self.retry_after = retry_after


class ServiceUnavailable(SiteError):
    """A part the site depends on does not answer right now: nothing was changed; ask again after `retry_after`
    seconds. Pages answer it with a plain page that needs nothing but the template (no session, no database)."""

    status = 503
    code = "unavailable"

    def __init__(self, message, retry_after=5):
        super().__init__(message)
        self.retry_after = retry_after


class DatabaseUnavailable(ServiceUnavailable):
    """The database did not answer (stopped, restarting, unreachable): the request changed nothing."""

    code = "database_unavailable"

"""What can go wrong with a match request: members of the site's one error family (`cardsite.errors`), each with the
HTTP status and code the API answers with (mapped in cardsite/api_errors.py, like the engine's own refusals)."""
from cardsite.errors import InvalidField, SiteError, StaleVersion


class MatchError(SiteError):
    code = "match_refused"


class InvalidInput(InvalidField, MatchError):
    """A request field has the wrong type or value; `field` names it."""


class NotSeated(MatchError):
    status = 403
    code = "not_seated"


class NotYourTurn(MatchError):
    status = 403
    code = "not_your_turn"


class NotCreator(MatchError):
    status = 403
    code = "not_creator"


class MatchClosed(MatchError):
    """The match is not in a state that allows this (full, started, finished, already joined)."""

    status = 409
    code = "match_closed"


class StaleMatch(StaleVersion, MatchError):
    """The decision was chosen at an older version: someone else moved first, or the page is out of date."""

    status = 409
    code = "stale_version"


class CatalogueNotReady(MatchError):
    """The database catalogue cannot set a game up (not loaded, or a board fact is missing)."""

    status = 503
    code = "catalogue_not_ready"

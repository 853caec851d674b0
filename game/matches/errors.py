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


class RatingTooLow(MatchError):
    """The match asks for a higher rating than the player's; the message names both."""

    status = 403
    code = "rating_too_low"


class MatchClosed(MatchError):
    """The match is not in a state that allows this (full, started, finished, already joined)."""

    status = 409
    code = "match_closed"


class StaleMatch(StaleVersion, MatchError):
    """The decision was chosen at an older version: someone else moved first, or the page is out of date."""

    status = 409
    code = "stale_version"


class DatabaseBusy(MatchError):
    """The database stayed locked by other writers for longer than we wait: nothing was stored; try again soon."""

    status = 503
    code = "database_busy"
    retry_after = 1


class MatchDamaged(MatchError):
    """The stored match failed its integrity check (game/matches/integrity.py): it is left as it is for staff and
    refused until repaired. Not the client's doing, and asking again will not help."""

    status = 409
    code = "match_damaged"

    def __init__(self, match_id, reason):
        super().__init__(f"match {match_id} cannot be played: its stored record is damaged ({reason}). "
                         f"Nothing was changed; the site's staff can check it with manage.py verify_matches")
        self.reason = reason


class CatalogueNotReady(MatchError):
    """The database catalogue cannot set a game up (not loaded, or a board fact is missing)."""

    status = 503
    code = "catalogue_not_ready"

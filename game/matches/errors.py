"""What can go wrong with a match request, each with the HTTP status the API answers with.

Engine errors (`MalformedDecision`, `IllegalDecision`) are ValueErrors and answer 400 with their own message; a
stale version is the shared `StaleVersion` (409). Both are mapped in cardsite/api_errors.py.
"""
from cardsite.api_errors import StaleVersion


class MatchError(Exception):
    status = 400


class InvalidInput(MatchError, ValueError):
    """A request field has the wrong type or value; `field` names it."""

    def __init__(self, field, message):
        super().__init__(f"{field}: {message}")
        self.field = field


class NotSeated(MatchError):
    status = 403


class NotYourTurn(MatchError):
    status = 403


class NotCreator(MatchError):
    status = 403


class MatchClosed(MatchError):
    """The match is not in a state that allows this (full, started, finished, already joined)."""

    status = 409


class StaleMatch(StaleVersion):
    """The decision was chosen at an older version: someone else moved first, or the page is out of date."""

    status = 409


class DatabaseBusy(MatchError):
    """The database stayed locked by other writers for longer than we wait: nothing was stored; try again soon."""

    status = 503
    retry_after = 1


class MatchDamaged(MatchError):
    """The stored match failed its integrity check (game/matches/integrity.py): it is left as it is for staff and
    refused until repaired. Not the client's doing, and asking again will not help."""

    status = 409

    def __init__(self, match_id, reason):
        super().__init__(f"match {match_id} cannot be played: its stored record is damaged ({reason}). "
                         f"Nothing was changed; the site's staff can check it with manage.py verify_matches")
        self.reason = reason


class CatalogueNotReady(MatchError):
    """The database catalogue cannot set a game up (not loaded, or a board fact is missing)."""

    status = 503

"""The one mapper from errors to answers, for the API (DRF's exception handler) and for pages (`ErrorPageMiddleware`).

Every error answer has one JSON body shape (docs/api.md, "Errors"):

    {"detail": "players: expected a number from 2 to 5", "code": "invalid", "field": "players",
     "errors": {"players": ["expected a number from 2 to 5"]}}

The site's own `SiteError`s, DRF's and Django's HTTP errors, the query parser's `QueryError` and the engine's two
typed refusals (`MalformedDecision`, `IllegalDecision`: mapped here by class, the engine stays free of Django) are
answered; anything else is a bug, left to Django to log with its traceback and answer 500 through `server_error`
(the site's `handler500`): the one body shape with the request's id for API clients, the error page for people. A
database that does not answer (a `django.db.OperationalError` or `InterfaceError` nobody handled nearer) is not a bug
but an outage: a 503 with Retry-After, wherever it is raised (a view, or a middleware before any view).
"""
import logging
import sys

from django.core.exceptions import PermissionDenied, ValidationError as DjangoValidationError
from django.db import InterfaceError, OperationalError
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.views import defaults
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler, set_rollback

from cardsite.catalogue.query import QueryError
from cardsite.errors import (
    DatabaseUnavailable,
    ServiceUnavailable,
    SiteError,
    StaleVersion,  # noqa: F401 (its old home, still imported)
)
from game.engine.decisions import IllegalDecision, MalformedDecision

ENGINE_CODES = {MalformedDecision: "malformed_decision", IllegalDecision: "illegal_decision"}
DATABASE_RETRY_AFTER = 5  # seconds: a restarting PostgreSQL is usually back within a few

logger = logging.getLogger(__name__)


def translated(exc):
    """`exc`, or the site error it stands for: a database that does not answer becomes `DatabaseUnavailable`."""
    if isinstance(exc, (OperationalError, InterfaceError)):
        logger.error("the database does not answer: %s", str(exc).strip() or type(exc).__name__)
        outage = DatabaseUnavailable("the database does not answer right now; nothing was changed, try again in "
                                     "a few seconds", retry_after=DATABASE_RETRY_AFTER)
        outage.__cause__ = exc
        return outage
    return exc


def shape(status, message, code, field=None, errors=None, **extra):
    """(status, body): the one body shape; `extra` adds context a kind of error has (a query's position)."""
    errors = errors if errors is not None else ({field: [message]} if field else {})
    detail = f"{field}: {message}" if field else message
    return status, {"detail": detail, "code": code, "field": field, "errors": errors, **extra}


def _drf(exc):
    detail, codes = exc.detail, exc.get_codes()
    if isinstance(detail, dict):
        errors = {str(k): [str(m) for m in (v if isinstance(v, list) else [v])] for k, v in detail.items()}
        field = next(iter(errors), None)
        first = codes[field] if field in codes else exc.default_code
        while isinstance(first, (list, dict)):
            first = (first[0] if isinstance(first, list) else next(iter(first.values()))) if first else "invalid"
        message = errors[field][0] if field else str(exc.default_detail)
        return shape(exc.status_code, message, str(first), field, errors)
    if isinstance(detail, list):
        messages = [str(m) for m in detail]
        code = codes[0] if codes and isinstance(codes, list) else exc.default_code
        return shape(exc.status_code, "; ".join(messages), str(code))
    return shape(exc.status_code, str(detail), str(codes))


def answer(exc):
    """(status, body) for an error a client may be told about, or None for a bug."""
    if isinstance(exc, SiteError):
        return shape(exc.status, exc.message, exc.code, exc.field, exc.errors)
    for kind, code in ENGINE_CODES.items():
        if isinstance(exc, kind):
            field = getattr(exc, "field", None)  # a PositionError names the field of the position to blame
            return shape(400, exc.message if field else str(exc), code, field)
    if isinstance(exc, QueryError):
        return shape(400, str(exc), "bad_query", "q", position=exc.position, expected=exc.expected)
    if isinstance(exc, Http404):
        return _drf(exceptions.NotFound(*exc.args))
    if isinstance(exc, PermissionDenied):
        return _drf(exceptions.PermissionDenied(*exc.args))
    if isinstance(exc, exceptions.APIException):
        return _drf(exc)
    if isinstance(exc, DjangoValidationError):
        if hasattr(exc, "error_dict"):
            errors = exc.message_dict
            field = next(iter(errors))
            return shape(400, errors[field][0], "invalid", field, errors)
        return shape(400, "; ".join(exc.messages), "invalid")
    return None


def _headers(exc):
    retry_after = getattr(exc, "retry_after", None) or getattr(exc, "wait", None)
    return {"Retry-After": str(int(retry_after + 0.999))} if retry_after else {}


def exception_handler(exc, context):
    """DRF's hook: the one body shape for every API error; None (a logged 500) for anything unexpected."""
    exc = translated(exc)
    found = answer(exc)
    if found is None:
        return None
    status, body = found
    # DRF's own handler adds the headers its errors carry (WWW-Authenticate) and rolls back an atomic block.
    response = drf_exception_handler(exc, context) if isinstance(exc, (exceptions.APIException, Http404,
                                                                       PermissionDenied)) else None
    if response is None:
        set_rollback()
        response = Response(status=status)
    response.data = body
    response.status_code = status
    for name, value in _headers(exc).items():
        response[name] = value
    return response


def wants_json(request):
    return (request.path.startswith("/api/") or "json" in request.META.get("CONTENT_TYPE", "")
            or "application/json" in request.META.get("HTTP_ACCEPT", ""))


def error_response(request, exc):
    """The answer to `exc` for a request outside DRF: the JSON body for API clients, else the error page.
    None for a bug."""
    exc = translated(exc)
    found = answer(exc)
    if found is None:
        return None
    status, body = found
    if wants_json(request):
        response = JsonResponse(body, status=status)
    elif isinstance(exc, ServiceUnavailable):
        # Not error.html: its frame asks the database (the signed-in user, the turn count), which may be the part down.
        response = HttpResponse(render_to_string("unavailable.html", {"error": body}), status=status)
    else:
        response = render(request, "error.html", {"status": status, "error": body}, status=status)
    for name, value in _headers(exc).items():
        response[name] = value
    return response


def not_found(request, exception):
    """The site's `handler404`, for an address no route takes: on the API the one body shape, as a view's 404 is
    answered; for people Django's page (templates/404.html)."""
    if not wants_json(request):
        return defaults.page_not_found(request, exception)
    status, body = shape(404, f"there is nothing at {request.path}", "not_found")
    return JsonResponse(body, status=status)


def server_error(request):
    """The site's `handler500`, for an exception nobody expected anywhere (a view, a middleware). A database outage
    is a 503 in the one shape (JSON or the plain page), raised in a middleware before any view (the session, the
    catalogue version) as well as in one. Anything else is a bug, which Django has already logged with its traceback
    under the request's id: an API client gets the one body shape naming that id (the same as the `X-Request-ID`
    header), a person the error page."""
    exc = sys.exc_info()[1]
    if isinstance(exc, (OperationalError, InterfaceError)):
        return error_response(request, exc)
    if not wants_json(request):
        return defaults.server_error(request)
    request_id = getattr(request, "id", None)
    status, body = shape(500, "something went wrong on our side; it is not something you sent. If it keeps "
                              f"happening, tell us the request id {request_id}", "server_error",
                         request_id=request_id)
    return JsonResponse(body, status=status)

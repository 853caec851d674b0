"""Structured logs: one JSON object per line on stderr, each carrying the id of the request it belongs to.

`RequestIdMiddleware` sets `current` for the length of a request; `RequestContext` copies it (and the method and
path) onto every record, so a 500's traceback and anything logged on the way share one id, which the client also
gets back in the `X-Request-ID` header.
"""
import contextvars
import json
import logging
import time

current = contextvars.ContextVar("wyrmdex_request", default=None)


class RequestContext(logging.Filter):
    def filter(self, record):
        request = current.get()
        if request is None and getattr(record, "request", None) is not None:
            # Django logs a 4xx answer after the middleware has returned; its record carries the request itself.
            request = getattr(record.request, "log_context", None)
        record.request_id = request["id"] if request else None
        record.method = request["method"] if request else None
        record.path = request["path"] if request else None
        return True


class JsonLines(logging.Formatter):
    """A record as one JSON line; a traceback goes in `exc`, whole, with its newlines escaped."""

    def format(self, record):
        event = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)) + f".{int(record.msecs):03d}Z",
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": getattr(record, "request_id", None),
        }
        if getattr(record, "method", None):
            event["method"] = record.method
            event["path"] = record.path
        status = getattr(record, "status_code", None)
        if status is not None:
            event["status"] = status
        if record.exc_info:
            event["exc_type"] = record.exc_info[0].__name__ if record.exc_info[0] else None
            event["exc"] = self.formatException(record.exc_info)
        elif record.exc_text:
            event["exc"] = record.exc_text
        return json.dumps(event, ensure_ascii=False, default=str)

"""Every request has an id (a sane incoming X-Request-ID, else a new one), echoed in the answer and carried by
every log line of the request; every 500 is logged to stderr as one JSON line with its traceback, in production."""
import json
import logging

import pytest

from cardsite.log import JsonLines, RequestContext
from tests.test_settings import manage, production_env


def test_a_sane_incoming_request_id_is_kept_and_echoed(visitor, catalogue):
    response = visitor.get("/api/expansions/", HTTP_X_REQUEST_ID="edge-7f3a:42")
    assert response["X-Request-ID"] == "edge-7f3a:42"


@pytest.mark.parametrize("incoming", ["", "has spaces", "a" * 129, "new\nline", "<script>"])
def test_an_insane_request_id_is_replaced_by_a_new_one(visitor, catalogue, incoming):
    first = visitor.get("/rules/", HTTP_X_REQUEST_ID=incoming)["X-Request-ID"]
    second = visitor.get("/rules/", HTTP_X_REQUEST_ID=incoming)["X-Request-ID"]
    assert first != incoming and len(first) == 32 and first != second


def test_a_client_error_is_logged_with_the_request_id(visitor, catalogue, caplog):
    with caplog.at_level(logging.WARNING, logger="django.request"):
        response = visitor.get("/api/dragons/?vp_min=abc", HTTP_X_REQUEST_ID="req-400")
    assert response.status_code == 400
    record = next(r for r in caplog.records if r.name == "django.request")
    RequestContext().filter(record)
    line = json.loads(JsonLines().format(record))
    assert (line["request_id"], line["status"], line["path"]) == ("req-400", 400, "/api/dragons/")


def test_a_record_with_a_traceback_is_one_json_line():
    try:
        {}["missing"]
    except KeyError:
        record = logging.LogRecord("django.request", logging.ERROR, __file__, 1, "Internal Server Error: %s",
                                   ("/x/",), exc_info=__import__("sys").exc_info())
    RequestContext().filter(record)
    text = JsonLines().format(record)
    assert "\n" not in text
    line = json.loads(text)
    assert line["level"] == "ERROR" and line["exc_type"] == "KeyError"
    assert line["exc"].startswith("Traceback") and "missing" in line["exc"]


def test_production_logs_a_500_with_its_traceback_and_request_id_to_stderr(tmp_path):
    """A real start with production settings, and a bug in the service the view calls. (An empty database would be an
    outage now, answered 503: tests/fleet/test_outages.py.)"""
    env = production_env(tmp_path)
    assert manage("migrate", "--noinput", **env).returncode == 0
    script = ("from django.test import Client; from game.matches import services; "
              "services.read_match = lambda *args, **kwargs: {}['no such key']; "
              "r = Client(raise_request_exception=False).get('/api/matches/zzzzzzzzzzzz/', secure=True, "
              "HTTP_X_REQUEST_ID='prod-500'); print(r.status_code, r['X-Request-ID'])")
    result = manage("shell", "-c", script, **env)
    assert result.stdout.splitlines()[-1].split() == ["500", "prod-500"], result.stdout + result.stderr
    lines = [json.loads(line) for line in result.stderr.splitlines() if line.startswith("{")]
    [error] = [line for line in lines if line["level"] == "ERROR" and line["logger"] == "django.request"]
    assert error["request_id"] == "prod-500" and error["status"] == 500
    assert error["exc"].startswith("Traceback") and "no such key" in error["exc"]

"""Schemathesis fuzzes every game API endpoint as an anonymous client, each case also sent with a malformed
Authorization header and cookie; and every operation that takes a JSON body is sent one nested too deep.
No input may cause a server error."""
import itertools
import json

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error

from cardsite.wsgi import application

# The catalogue's endpoints have their own run (tests/search/test_api_fuzz.py) and never look at a login.
schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", application).include(
    path_regex=r"^/api/(matches|checker|calculator|lobby)/")

MALFORMED_AUTH = itertools.cycle([
    {"Authorization": "Basic AGE6Yg=="}, {"Authorization": "Basic !!!"}, {"Authorization": "Bearer"},
    {"Authorization": "Basic " + "QUFB" * 2000}, {"Cookie": 'sessionid="abcdefgh\\000"; csrftoken=\\377'},
    {"Cookie": "sessionid=" + "x" * 4000}, {"X-Request-ID": "a b\tc"},
])


@pytest.fixture
def keep_test_connection():
    """Calling the WSGI app directly fires request signals that would close the test's transaction-bound
    connection; Django's own test client disconnects them the same way."""
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections

    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.mark.slow
@schema.parametrize()
@settings(max_examples=15, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                 HealthCheck.filter_too_much])
def test_no_anonymous_input_causes_a_server_error(case, catalogue, keep_test_connection):
    case.call_and_validate(checks=[not_a_server_error])
    case.call_and_validate(checks=[not_a_server_error], headers=next(MALFORMED_AUTH))


def json_operations():
    from django.test import Client
    document = json.loads(Client().get("/api/schema/?format=json").content)
    for path, methods in document["paths"].items():
        for method, operation in methods.items():
            if "requestBody" in operation:
                yield method, path


@pytest.mark.django_db
def test_every_json_operation_refuses_a_body_nested_too_deep(client):
    operations = list(json_operations())
    assert ("post", "/api/matches/{match_id}/decisions/") in operations or ("post", "/api/checker/") in operations
    for method, path in operations:
        url = path.replace("{id}", "1").replace("{match_id}", "zzzzzzzzzzzz").replace("{code}", "abc").replace("{key}", "1")
        response = getattr(client, method)(url, "[" * 3000 + "]" * 3000, content_type="application/json")
        assert response.status_code == 400, (method, url, response.content)
        assert response.json()["code"] == "too_deep"

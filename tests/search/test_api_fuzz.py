"""Schemathesis fuzzes every catalogue endpoint from the OpenAPI schema: no input may cause a server error."""
import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error

from cardsite.wsgi import application

# Loaded from the app itself, in process; the schema view needs no database.
schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", application).include(
    path_regex=r"^/api/(dragons|caves|guild-tiles|objective-tiles|expansions)/"
)


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
@settings(max_examples=50, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                 HealthCheck.filter_too_much])
def test_no_input_causes_a_server_error(case, catalogue, keep_test_connection):
    case.call_and_validate(checks=[not_a_server_error])

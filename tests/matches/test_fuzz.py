"""Random JSON sent as a decision never causes a server error, and whatever is refused leaves the match as it was."""
import json

from hypothesis import HealthCheck, given, settings, strategies as st

from .conftest import snapshot

SCALARS = st.none() | st.booleans() | st.integers(-3, 300) | st.floats(allow_nan=False) | st.text(max_size=12)
JSON = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                                          max_size=4), max_leaves=12)
KINDS = st.sampled_from(["pass", "resources", "discard_cards", "entice", "excavate", "explore", "yes", "x"])
ARGS = st.lists(st.integers(-2, 300) | st.sampled_from(["meat", "gold", "crystal", "milk", "dragon", "cave"]),
                max_size=4)
OPTIONS = st.fixed_dictionaries({"kind": KINDS, "args": ARGS}) | JSON
BODIES = st.fixed_dictionaries({"version": st.integers(-1, 2) | JSON, "option": OPTIONS}) | JSON


@settings(max_examples=150, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(body=BODIES)
def test_random_decisions_never_break_the_server_or_half_save(api_as, started, alice, body):
    before = snapshot(started.pk)
    response = api_as(alice).post(f"/api/matches/{started.public_id}/decisions/", data=json.dumps(body),
                                  content_type="application/json")
    assert response.status_code in (201, 400, 403, 409), (body, response.content)
    assert response.json()["detail" if response.status_code != 201 else "version"] is not None
    if response.status_code != 201:
        assert snapshot(started.pk) == before


CREATE = st.fixed_dictionaries({}, optional={"players": st.integers(0, 6) | JSON, "days_per_move": st.integers(0, 8)
                                             | JSON, "on_timeout": st.sampled_from(["forfeit", "bot", "x"]) | JSON,
                                             "private": JSON, "academy": JSON}) | JSON


@settings(max_examples=60, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(body=CREATE, chat=JSON, prefs=JSON, invite=JSON)
def test_random_bodies_for_the_async_endpoints_never_break_the_server(api_as, started, alice, body, chat, prefs,
                                                                     invite):
    client = api_as(alice)
    before = snapshot(started.pk)
    for url, data, method in [("/api/matches/", body, client.post), (f"/api/matches/{started.public_id}/chat/",
                              {"text": chat}, client.post), ("/api/notifications/", prefs, client.put),
                              ("/api/matches/invite/", {"token": invite}, client.post)]:
        response = method(url, data=json.dumps(data), content_type="application/json")
        assert response.status_code in (200, 201, 400, 403, 409), (url, data, response.content)
        assert response.json()
    assert snapshot(started.pk) == before

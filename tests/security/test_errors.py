"""One error family, one mapper, one body shape (docs/api.md, "Errors"); an exception nobody expected, even one the
engine raises as a plain ValueError, is a logged 500 and never the client's 400."""
import json
import logging

import pytest

from cardsite.catalogue.models import BoardFact
from game.matches import integrity, services
from game.models import Match

SHAPE = {"detail", "code", "field", "errors"}


@pytest.fixture
def started(catalogue, user, django_user_model):
    other = django_user_model.objects.create_user("trent", password="a-long-test-password")
    match = services.create_match(user, players=2)
    services.join_match(match.pk, other)
    return Match.objects.get(pk=match.pk)


@pytest.mark.parametrize("method, url, body, status, code, field", [
    ("post", "/api/matches/", {"players": 9}, 400, "invalid", "players"),
    ("get", "/api/matches/?mine=maybe", None, 400, "invalid", "mine"),
    ("get", "/api/matches/999999/", None, 404, "not_found", None),
    ("post", "/api/checker/", {"card": "Nobody"}, 400, "invalid", "card"),
    ("post", "/api/calculator/score/", {"mode": "quick", "players": []}, 400, "invalid_sheet", "players"),
    ("get", "/api/dragons/?q=vp>=", None, 400, "bad_query", "q"),
    ("get", "/api/dragons/?vp_min=abc", None, 400, "invalid", "vp_min"),
    ("get", "/api/dragons/no-such-dragon/", None, 404, "not_found", None),
    ("delete", "/api/dragons/1/", None, 405, "method_not_allowed", None),
])
def test_every_api_error_has_the_one_body_shape(signed_in, catalogue, method, url, body, status, code, field):
    kwargs = {"data": json.dumps(body), "content_type": "application/json"} if body is not None else {}
    response = getattr(signed_in, method)(url, **kwargs)
    assert response.status_code == status, response.content
    answer = response.json()
    assert SHAPE <= set(answer), answer
    assert (answer["code"], answer["field"]) == (code, field)
    if field:
        assert answer["detail"].startswith(f"{field}: ")
        assert answer["errors"][field]


def test_the_engines_refusal_is_a_400_with_its_code(signed_in, started):
    option = {"kind": "resources", "args": ["meat", "meat", "meat"]}
    response = signed_in.post(f"/api/matches/{started.public_id}/decisions/", json.dumps({"version": 0, "option": option}),
                              content_type="application/json")
    assert response.status_code == 400
    assert response.json()["code"] == "illegal_decision"


def test_a_stale_version_and_a_closed_match_keep_their_statuses(signed_in, started):
    decide = json.dumps({"version": 5, "option": {"kind": "pass", "args": []}})
    stale = signed_in.post(f"/api/matches/{started.public_id}/decisions/", decide, content_type="application/json")
    assert (stale.status_code, stale.json()["code"]) == (409, "stale_version")
    closed = signed_in.post(f"/api/matches/{started.public_id}/join/")
    assert (closed.status_code, closed.json()["code"]) == (409, "match_closed")


def break_the_catalogue():
    """Key the round objectives by words, not numbers, in the database's catalogue: the engine cannot read it and
    raises a plain ValueError (a bug on our side, nothing the client did; the old mapper answered every ValueError
    as the client's 400)."""
    fact = BoardFact.objects.get(key="round_objective_vp")
    fact.value = {"round one": list(fact.value.values())[0]}
    fact.save()


def test_an_unexpected_engine_error_is_a_logged_500_not_a_400(signed_in, catalogue, caplog):
    break_the_catalogue()
    with caplog.at_level(logging.ERROR, logger="django.request"):
        response = signed_in.post("/api/matches/", json.dumps({"players": 2}), content_type="application/json",
                                  HTTP_X_REQUEST_ID="bug-hunt-1")
    assert response.status_code == 500
    assert response["X-Request-ID"] == "bug-hunt-1"
    [record] = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert record.exc_info is not None
    assert record.request_id == "bug-hunt-1"
    assert record.exc_info[0] is ValueError and "round one" in str(record.exc_info[1])
    assert not Match.objects.exists()


def test_an_unexpected_error_on_a_page_is_a_logged_500_too(signed_in, started, caplog):
    # Resealed, so the integrity check passes and the broken state reaches the code, as a bug of ours would.
    match = Match.objects.get(pk=started.pk)
    match.state = {"pending": ["not", "an", "object"]}
    integrity.reseal(match)
    match.save(update_fields=["state", "seal"])
    with caplog.at_level(logging.ERROR, logger="django.request"):
        response = signed_in.get(f"/matches/{started.public_id}/")
    assert response.status_code == 500
    assert [r for r in caplog.records if r.levelno == logging.ERROR and r.exc_info]


def test_an_engine_refusal_that_names_a_field_keeps_it_in_the_body():
    from cardsite.api_errors import answer
    from game.engine.position import PositionError
    status, body = answer(PositionError("players[0].hand[1]", "there is no dragon card numbered 999"))
    assert status == 400 and body["code"] == "malformed_decision" and body["field"] == "players[0].hand[1]"
    assert body["detail"] == "players[0].hand[1]: there is no dragon card numbered 999"
    assert body["errors"] == {"players[0].hand[1]": ["there is no dragon card numbered 999"]}


def _logged_bug(caplog, request_id):
    [record] = [r for r in caplog.records if r.levelno == logging.ERROR and r.name == "django.request"]
    assert record.exc_info is not None and record.exc_info[0] is not None  # the traceback is in the log
    assert record.request_id == request_id
    return record


def test_an_unexpected_error_of_the_api_answers_the_json_shape_with_the_request_id(signed_in, catalogue, caplog):
    break_the_catalogue()
    with caplog.at_level(logging.ERROR, logger="django.request"):
        response = signed_in.post("/api/matches/", json.dumps({"players": 2}), content_type="application/json",
                                  HTTP_X_REQUEST_ID="bug-hunt-2")
    assert response.status_code == 500
    assert response["Content-Type"] == "application/json"
    answer = response.json()
    assert SHAPE <= set(answer)
    assert (answer["code"], answer["field"], answer["errors"]) == ("server_error", None, {})
    assert answer["request_id"] == response["X-Request-ID"] == "bug-hunt-2"
    assert "bug-hunt-2" in answer["detail"]
    _logged_bug(caplog, "bug-hunt-2")


@pytest.mark.urls("tests.security.failing_urls")
def test_a_view_that_raises_answers_json_on_the_api_and_the_error_page_elsewhere(visitor, caplog):
    with caplog.at_level(logging.ERROR, logger="django.request"):
        api = visitor.get("/api/broken/")
    assert api.status_code == 500
    answer = api.json()
    assert SHAPE <= set(answer)
    assert answer["code"] == "server_error"
    assert answer["request_id"] == api["X-Request-ID"]
    record = _logged_bug(caplog, api["X-Request-ID"])
    assert record.exc_info[0] is RuntimeError
    caplog.clear()
    with caplog.at_level(logging.ERROR, logger="django.request"):
        page = visitor.get("/broken/")
    assert page.status_code == 500
    assert page["Content-Type"].startswith("text/html")
    assert b"Something went wrong" in page.content
    _logged_bug(caplog, page["X-Request-ID"])


def test_a_middleware_that_raises_answers_json_on_the_api_too(visitor, caplog, settings):
    """A bug below the views (a middleware, say the rate limiter's cache) answers the same JSON on the API."""
    settings.MIDDLEWARE = [settings.MIDDLEWARE[0], "tests.security.failing_urls.BrokenMiddleware",
                           *settings.MIDDLEWARE[1:]]
    with caplog.at_level(logging.ERROR, logger="django.request"):
        response = visitor.get("/api/dragons/", HTTP_X_REQUEST_ID="bug-hunt-3")
    assert response.status_code == 500
    assert response.json()["code"] == "server_error" and response.json()["request_id"] == "bug-hunt-3"
    assert response["X-Request-ID"] == "bug-hunt-3"
    assert _logged_bug(caplog, "bug-hunt-3").exc_info[0] is RuntimeError

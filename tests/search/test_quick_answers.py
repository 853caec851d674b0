"""A plain query answered from the index before DRF (`cardsite.catalogue.api.quick_answer`) is the viewset's answer: the same
status, the same bytes and the same headers, for every card list, ranked or not, on every page, and for queries that
cannot be read. Run under both databases (`DATABASE_URL=postgres://… pytest tests/search`)."""
import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from cardsite.catalogue import api
from tests.search.test_index_oracle import generated_queries

LISTS = ["/api/dragons/", "/api/caves/", "/api/guild-tiles/", "/api/objective-tiles/"]
QUERIES = ["", "tuck", "cave:golden does:tuck", "size:medium", "egg or cache", '"from the deck"', "-tuck vp>=3",
           "wyrm", "guild", "number:3", "expansion:academy", "type:guild", "vp>=", "size:large)", '"unclosed',
           "expansion:moon", "colour:red", "  tuck  ", "TUCK", "name:zz"]


def both_answers(client, monkeypatch, path, params, **headers):
    """(quick answer, viewset answer) to the same request, with the answer cache emptied before each."""
    headers.setdefault("HTTP_ACCEPT", "application/json")
    cache.clear()
    quick = client.get(path, params, **headers)
    monkeypatch.setattr(api, "QUICK_ANSWERS", False)
    cache.clear()
    full = client.get(path, params, **headers)
    monkeypatch.setattr(api, "QUICK_ANSWERS", True)
    return quick, full


def only_the_version_read(queries):
    """No SQL for cards: the catalogue version's row is all that was read (once per request, twice in a test, whose
    transaction keeps it from being remembered for the request)."""
    return all("catalogueversion" in query["sql"] for query in queries.captured_queries)


@pytest.fixture(autouse=True)
def index_built(client, catalogue):
    """The in-memory index is built by the first search a process answers, reading every card: in a parallel run
    any of these tests may be a worker's first search, so build it before counting queries."""
    for kind in ("dragons", "caves", "guild-tiles", "objective-tiles"):
        client.get(f"/api/{kind}/", {"q": "tuck"})


def assert_same(quick, full, what):
    assert quick.status_code == full.status_code, what
    assert quick.content == full.content, what
    heads = [(name, value) for name, value in quick.items() if name != "X-Request-ID"]
    assert heads == [(name, value) for name, value in full.items() if name != "X-Request-ID"], what


@pytest.mark.parametrize("path", LISTS)
def test_quick_answer_is_the_viewsets_answer_byte_for_byte(client, catalogue, monkeypatch, path):
    for text in QUERIES:
        for params in ({"q": text, "page_size": 60, "format": "json"}, {"q": text, "page_size": 5, "page": 2}):
            quick, full = both_answers(client, monkeypatch, path, params)
            assert_same(quick, full, (path, params))


@pytest.mark.parametrize("path", LISTS)
def test_generated_queries_answer_the_same_both_ways(client, catalogue, monkeypatch, path):
    for text in generated_queries(seed=16, count=60):
        quick, full = both_answers(client, monkeypatch, path, {"q": text, "page_size": 60, "format": "json"})
        assert_same(quick, full, (path, text))


@pytest.mark.parametrize("page", ["1", "2", "4", "5"])
def test_every_page_links_to_its_neighbours_as_the_viewset_does(client, catalogue, monkeypatch, page):
    params = {"q": "egg", "page_size": 10, "page": page, "format": "json"}
    quick, full = both_answers(client, monkeypatch, "/api/dragons/", params)
    assert_same(quick, full, page)
    body = quick.json()
    assert body["count"] > 30 and len(body["results"]) == min(10, body["count"] - 10 * (int(page) - 1))
    assert (body["previous"] is None) == (page == "1")


@pytest.mark.parametrize("accept", [None, "*/*", "application/*", "text/plain, */*", "application/xml, application/json"])
def test_accept_headers_that_ask_for_plain_json_are_answered_quickly(client, catalogue, monkeypatch, accept):
    headers = {} if accept is None else {"HTTP_ACCEPT": accept}
    cache.clear()
    with CaptureQueriesContext(connection) as queries:
        response = client.get("/api/dragons/", {"q": "tuck", "page_size": 60}, **headers)
    assert response.status_code == 200 and only_the_version_read(queries)
    quick, full = both_answers(client, monkeypatch, "/api/dragons/", {"q": "tuck", "page_size": 60},
                               HTTP_ACCEPT=accept or "*/*")
    assert_same(quick, full, accept)


@pytest.mark.parametrize("params, headers, status", [
    ({"q": "tuck", "ordering": "vp"}, {}, 200),
    ({"q": "tuck", "page_size": "0"}, {}, 400),
    ({"q": "tuck", "page_size": "201"}, {}, 400),
    ({"q": "tuck", "page": "first"}, {}, 400),
    ({"q": "tuck", "page": "99"}, {}, 404),
    ({"q": "tuck", "format": "xml"}, {}, 404),
    ({"q": "tück"}, {}, 200),
    ({"q": "tuck"}, {"HTTP_ACCEPT": "application/json; indent=2"}, 200),
    ({"q": "tuck"}, {"HTTP_ACCEPT": "text/plain"}, 406),
    ({"q": "tuck", "format": "json"}, {"HTTP_ACCEPT": "text/html"}, 406),
])
def test_other_requests_are_left_to_the_viewset(client, catalogue, monkeypatch, params, headers, status):
    headers.setdefault("HTTP_ACCEPT", "application/json")
    quick, full = both_answers(client, monkeypatch, "/api/dragons/", params, **headers)
    assert quick.status_code == status
    assert_same(quick, full, params)


def test_an_unreadable_query_is_a_400_naming_q(client, catalogue):
    with CaptureQueriesContext(connection) as queries:
        response = client.get("/api/guild-tiles/", {"q": "vp>="}, HTTP_ACCEPT="application/json")
    assert response.status_code == 400 and only_the_version_read(queries)
    body = response.json()
    assert body["field"] == "q" and body["code"] == "bad_query" and body["position"] == 4
    assert not response.has_header("ETag")


def test_an_unknown_host_is_refused_as_for_any_request(client, catalogue):
    response = client.get("/api/dragons/", {"q": "tuck"}, HTTP_ACCEPT="application/json", HTTP_HOST="evil.example")
    assert response.status_code == 400


def test_a_quick_answer_keeps_the_sites_headers_and_answers_conditional_gets(client, catalogue):
    first = client.get("/api/dragons/", {"q": "tuck"}, HTTP_ACCEPT="application/json", HTTP_X_REQUEST_ID="abc-123")
    assert first["X-Request-ID"] == "abc-123"
    assert first["X-Content-Type-Options"] == "nosniff" and "default-src" in first["Content-Security-Policy"]
    assert first["Cache-Control"] == "public, max-age=0, must-revalidate" and first["Last-Modified"]
    again = client.get("/api/dragons/", {"q": "tuck"}, HTTP_ACCEPT="application/json", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and again.content == b""

"""ETag and Last-Modified on catalogue answers: a conditional GET is a 304 until the catalogue changes."""
from django.utils.http import http_date

from cardsite.catalogue import catalogue_version
from cardsite.catalogue.models import CatalogueVersion, Dragon


def test_answer_carries_etag_and_last_modified(client, catalogue):
    response = client.get("/api/dragons/?q=tuck", HTTP_ACCEPT="application/json")
    assert response.status_code == 200
    assert response["ETag"].startswith('"')
    assert response["Last-Modified"]


def test_matching_etag_is_a_304_with_no_body(client, catalogue):
    first = client.get("/api/dragons/1/", HTTP_ACCEPT="application/json")
    again = client.get("/api/dragons/1/", HTTP_ACCEPT="application/json", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304
    assert again.content == b""
    assert again["ETag"] == first["ETag"]


def test_if_modified_since_after_the_last_change_is_a_304(client, catalogue):
    first = client.get("/api/caves/", HTTP_ACCEPT="application/json")
    again = client.get("/api/caves/", HTTP_ACCEPT="application/json", HTTP_IF_MODIFIED_SINCE=first["Last-Modified"])
    assert again.status_code == 304
    older = client.get("/api/caves/", HTTP_ACCEPT="application/json", HTTP_IF_MODIFIED_SINCE=http_date(0))
    assert older.status_code == 200


def test_different_queries_have_different_etags(client, catalogue):
    one = client.get("/api/dragons/?q=tuck", HTTP_ACCEPT="application/json")
    two = client.get("/api/dragons/?q=cache", HTTP_ACCEPT="application/json")
    assert one["ETag"] != two["ETag"]


def test_editing_a_card_changes_the_etag_and_the_cached_answer(client, catalogue):
    first = client.get("/api/dragons/1/", HTTP_ACCEPT="application/json")
    dragon = Dragon.objects.get(number=1, printing="original")
    dragon.vp = dragon.vp + 10
    dragon.save()
    again = client.get("/api/dragons/1/", HTTP_ACCEPT="application/json", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 200
    assert again["ETag"] != first["ETag"]
    assert again.json()["vp"] == dragon.vp


def test_a_cached_answer_is_the_same_answer(client, catalogue):
    first = client.get("/api/dragons/?q=cave:golden+does:tuck", HTTP_ACCEPT="application/json")
    again = client.get("/api/dragons/?q=cave:golden+does:tuck", HTTP_ACCEPT="application/json")
    assert again.content == first.content
    assert again["Content-Type"] == first["Content-Type"] == "application/json"
    assert again["ETag"] == first["ETag"]


def test_a_refused_query_stays_refused_from_the_cache(client, catalogue):
    for _ in range(2):
        response = client.get("/api/dragons/?q=vp>=", HTTP_ACCEPT="application/json")
        assert response.status_code == 400
        assert response.json()["position"] == 4
        assert not response.has_header("ETag")


def test_browsable_html_api_is_not_cached_or_tagged(client, catalogue):
    response = client.get("/api/dragons/?q=tuck", HTTP_ACCEPT="text/html")
    assert response.status_code == 200
    assert not response.has_header("ETag")


def test_the_version_read_on_every_request_is_the_rows_own(catalogue):
    """On PostgreSQL the row is read through libpq with the time as text, on SQLite through a cursor: both must give
    the model's own values, to the microsecond and with the zone."""
    for _ in range(2):
        row = CatalogueVersion.objects.get(pk=catalogue_version.ROW)
        assert catalogue_version.state() == (row.token, row.changed_at)
        assert row.changed_at.utcoffset() is not None
        catalogue_version.bump()

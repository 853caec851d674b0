"""Bad input to the catalogue API: a 400 that names the field and says what is wrong, never a 500."""
import pytest

from cardsite.catalogue.models import Dragon


@pytest.mark.parametrize("url, field, words", [
    ("/api/dragons/?vp_min=abc", "vp_min", "whole number"),
    ("/api/dragons/?vp_max=-1", "vp_max", "greater than or equal to 0"),
    ("/api/dragons/?cost_meat_min=1e309", "cost_meat_min", "whole number"),
    ("/api/dragons/?size=giant", "size", "giant is not one of"),
    ("/api/dragons/?cave=lava_lake", "cave", "lava_lake is not one of"),
    ("/api/dragons/?kind=sometimes", "kind", "sometimes is not one of"),
    ("/api/dragons/?expansion=moon", "expansion", "moon"),
    ("/api/dragons/?page_size=100000", "page_size", "at most 200"),
    ("/api/dragons/?page_size=0", "page_size", "whole number from 1"),
    ("/api/dragons/?page=first", "page", "page number"),
    ("/api/dragons/?ordering=colour", "ordering", "known: number, vp"),
    ("/api/dragons/?colour=red", "colour", "unknown parameter; known:"),
    ("/api/dragons/1/?vp_min=3", "vp_min", "unknown parameter"),
    ("/api/dragons/?q=" + "a" * 301, "q", "at most 300"),
    ("/api/dragons/?text=" + "a+" * 41, "text", "at most 40 words"),
    ("/api/caves/?size=large", "size", "unknown parameter"),
    ("/api/caves/?kind=big", "kind", "big is not one of"),
])
def test_bad_parameter_is_a_400_naming_it(api, url, field, words):
    body = api(url, status=400)
    assert body["field"] == field
    assert words in str(body["errors"][field])
    assert body["detail"].startswith(f"{field}: ")


@pytest.mark.parametrize("query, position, expected", [
    ("vp>=", 4, "a whole number"),
    ("size:large)", 10, "a term, 'or', or the end"),
    ('"unclosed', 0, 'a closing "'),
])
def test_unreadable_query_is_a_400_with_where_and_what_was_expected(api, query, position, expected):
    body = api("/api/dragons/?q=" + query, status=400)
    assert body["position"] == position
    assert expected in body["expected"]
    assert body["field"] == "q" and body["code"] == "bad_query"
    assert f"at character {position + 1}" in body["errors"]["q"][0]


def test_unknown_query_field_lists_the_known_fields(api):
    body = api("/api/caves/?q=colour:red", status=400)
    assert "unknown field 'colour'" in body["detail"]
    assert "cost.meat" in body["detail"] and "trait" in body["detail"]


@pytest.mark.parametrize("url", ["/api/dragons/?page=999", "/api/dragons/?q=tuck&page=99", "/api/guild-tiles/?page=99"])
def test_page_past_the_end_is_a_404_naming_the_page_in_the_one_error_shape(api, url):
    body = api(url, status=404)
    assert body["field"] == "page" and body["code"] == "not_found"
    assert body["errors"] == {"page": [body["detail"].removeprefix("page: ")]}
    assert "there is no page 9" in body["detail"] and "the answer fills" in body["detail"]


@pytest.mark.parametrize("url, field, choices", [
    ("/api/dragons/?size=huge", "size", ["hatchling", "small", "medium", "large", "fledgling"]),
    ("/api/dragons/?trait=huge", "trait", ["shy", "aggressive", "playful", "helpful"]),
    ("/api/caves/?kind=x", "kind", ["when_played", "if_activated", "once_per_round", "end_game"]),
    ("/api/dragons/?printing=x", "printing", ["original", "updated"]),
    ("/api/guild-tiles/?expansion=zz", "expansion", ["base", "academy"]),
])
def test_a_value_that_is_not_a_choice_lists_the_choices(api, url, field, choices):
    body = api(url, status=400)
    assert body["field"] == field
    message = body["errors"][field][0]
    assert message.startswith(url.rsplit("=", 1)[1] + " is not one of ")
    assert all(choice in message for choice in choices), message


def test_bad_requests_change_nothing(api):
    before = list(Dragon.objects.order_by("pk").values_list("pk", "updated_at"))
    api("/api/dragons/?q=vp>=", status=400)
    api("/api/dragons/?vp_min=abc", status=400)
    assert list(Dragon.objects.order_by("pk").values_list("pk", "updated_at")) == before


def test_api_is_read_only(client, catalogue):
    response = client.post("/api/dragons/", {"name": "x"}, content_type="application/json")
    assert response.status_code == 405
    response = client.delete("/api/dragons/1/")
    assert response.status_code == 405
    assert Dragon.objects.filter(number=1).exists()


def test_unknown_expansion_in_a_query_names_the_known_ones(api):
    body = api("/api/dragons/?q=size:large+exp:moon", status=400)
    assert "'moon' is not an expansion; known: base, academy" in body["detail"]
    assert body["position"] == len("size:large exp:")


def test_non_ascii_digits_in_page_size_are_a_400(api):
    assert api("/api/dragons/?page_size=%C2%B2", status=400)["field"] == "page_size"
    assert api("/api/dragons/?page=%D9%A3", status=400)["field"] == "page"

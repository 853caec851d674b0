"""The official rulings: the data is sound and names real cards and topics, and every place shows them."""
import json
import re

import pytest
from django.utils.html import escape

from game.rules import anchor_ids, rulings as rulings_data
from game.rules.rulings import RulingsError, _read
from tests.conftest import SHARED_DATA

RULINGS = rulings_data.all_rulings()


def test_every_ruling_in_the_source_file_is_in_the_data():
    ids = {ruling.id for ruling in RULINGS}
    # shared/rules/rulings.md: F1-F7, D1-D4, R1-R5 (our R5 is split in R5 and R6); its settled table rows as B*.
    assert {"F1", "F2", "F3", "F4", "F5", "F6", "F7", "D1", "D2", "D3", "D4", "R1", "R2", "R3", "R4", "R5",
            "R6", "B1", "B2", "B3"} <= ids


def test_every_official_ruling_names_a_source_and_every_topic_is_an_anchor_of_the_rules_page():
    anchors = set(anchor_ids())
    for ruling in RULINGS:
        assert set(ruling.topics) <= anchors, ruling.id
        if ruling.official:
            assert ruling.sources, ruling.id


@pytest.mark.django_db
def test_every_card_number_a_ruling_names_exists_in_the_catalogue(catalogue):
    from cardsite.catalogue.models import CaveCard, Dragon, GuildTile, ObjectiveTile

    models = {"dragons": Dragon, "caves": CaveCard, "guilds": GuildTile, "objectives": ObjectiveTile}
    for ruling in RULINGS:
        for kind, model in models.items():
            numbers = set(ruling.cards(kind))
            found = set(model.objects.filter(number__in=numbers).values_list("number", flat=True))
            assert numbers == found, (ruling.id, kind, numbers - found)


def test_rulings_are_written_in_our_words_not_copied_from_the_source_file():
    path = SHARED_DATA.parent / "rules" / "rulings.md"
    if not path.exists():
        pytest.skip(f"{path} is not beside the clone")
    source = path.read_text()
    words = lambda text: re.findall(r"[a-z0-9']+", text.lower())  # noqa: E731
    source_words = words(source)
    runs = {" ".join(source_words[i:i + 9]) for i in range(len(source_words) - 8)}
    for ruling in RULINGS:
        mine = words(ruling.question + " " + ruling.answer)
        copied = [" ".join(mine[i:i + 9]) for i in range(len(mine) - 8) if " ".join(mine[i:i + 9]) in runs]
        assert not copied, (ruling.id, copied[:1])


def test_lookups_by_card_and_topic():
    assert [r.id for r in rulings_data.for_card("dragons", 157)] == ["D1"]
    assert {"F1", "B2"} <= {r.id for r in rulings_data.for_card("caves", 58)}
    assert "F1" in {r.id for r in rulings_data.for_topic("play-a-dragon")}
    assert {r.id for r in rulings_data.touching(dragons=[80])} == {"F4"}
    assert rulings_data.for_card("dragons", 100) == ()


@pytest.mark.parametrize("data, field", [
    ({"rulings": [{"id": "X", "kind": "faq", "question": "q", "answer": "a", "sources": []}]}, "rulings[0].sources"),
    ({"rulings": [{"id": "X", "kind": "rumour", "question": "q", "answer": "a"}]}, "rulings[0].kind"),
    ({"rulings": [{"id": "X", "kind": "open", "question": "q", "answer": "a", "dragons": ["65"]}]},
     "rulings[0].dragons"),
    ({"rulings": [{"id": "X", "kind": "open", "question": "q", "answer": "a", "colour": "red"}]},
     "rulings[0].colour"),
    ({"rulings": [{"id": "X", "kind": "open", "question": "q", "answer": "a"},
                  {"id": "X", "kind": "open", "question": "q", "answer": "a"}]}, "rulings[1].id"),
])
def test_a_malformed_rulings_file_is_refused_naming_the_entry_and_field(data, field):
    with pytest.raises(RulingsError, match=re.escape(field)):
        _read(data)


@pytest.mark.django_db
def test_rules_page_has_a_rulings_section_with_every_ruling_and_its_sources(client, catalogue):
    html = client.get("/rules/").content.decode()
    assert 'id="rulings"' in html and 'href="#rulings"' in html
    for ruling in RULINGS:
        assert f'id="ruling-{ruling.id}"' in html
    assert "https://rules.dized.com/game/cYAioTZqRWi-jFCZSJmAdw/faq" in html
    # a section links the rulings about it, and a ruling links its cards by number
    excavate = html.split('id="excavate"', 1)[1].split('class="rules-section"', 1)[0]
    assert 'href="#ruling-B2"' in excavate
    f4 = html.split('id="ruling-F4"', 1)[1].split("</article>", 1)[0]
    assert "/cards/dragons/80/" in f4 and "Hawkish Firevern" in f4


@pytest.mark.django_db
@pytest.mark.parametrize("url, ruling", [
    ("/cards/dragons/157/", "D1"), ("/cards/caves/58/", "F1"), ("/cards/guilds/3/", "R5"),
    ("/cards/objectives/3/", "O5"), ("/cards/dragons/191/", "O1"),
])
def test_card_pages_show_the_rulings_about_them(client, catalogue, url, ruling):
    response = client.get(url, follow=True)
    html = response.content.decode()
    assert response.status_code == 200
    assert f'data-ruling="{ruling}"' in html
    assert escape(rulings_data.get(ruling).question) in html


@pytest.mark.django_db
def test_a_card_without_rulings_shows_no_rulings_section(client, catalogue):
    html = client.get("/cards/dragons/100/", follow=True).content.decode()
    assert "data-ruling=" not in html


@pytest.mark.django_db
@pytest.mark.parametrize("url, ruling", [
    ("/api/dragons/157/", "D1"), ("/api/caves/52/", "O3"), ("/api/guild-tiles/4/", "R6"),
    ("/api/objective-tiles/3/", "O5"),
])
def test_card_endpoints_carry_the_rulings(client, catalogue, url, ruling):
    body = client.get(url, HTTP_ACCEPT="application/json").json()
    found = {r["id"]: r for r in body["rulings"]}
    assert ruling in found
    assert found[ruling]["answer"] == rulings_data.get(ruling).answer
    assert found[ruling]["sources"] == [{"label": s.label, "url": s.url} for s in rulings_data.get(ruling).sources]


@pytest.mark.django_db
def test_card_search_results_carry_rulings_too(client, catalogue):
    body = client.get("/api/dragons/?q=name:wily", HTTP_ACCEPT="application/json").json()
    assert [r["id"] for r in body["results"][0]["rulings"]] == ["D1"]


@pytest.mark.django_db
def test_rulings_endpoint_filters_by_card_and_topic_and_refuses_bad_filters(client):
    everything = client.get("/api/rulings/").json()
    assert [r["id"] for r in everything] == [r.id for r in RULINGS]
    assert [r["id"] for r in client.get("/api/rulings/?dragon=80").json()] == ["F4"]
    assert "B3" in [r["id"] for r in client.get("/api/rulings/?topic=round-end").json()]
    for query, field in (("dragon=x", "dragon"), ("topic=nowhere", "topic"), ("colour=red", "colour")):
        response = client.get(f"/api/rulings/?{query}")
        assert response.status_code == 400
        assert response.json()["field"] == field


@pytest.mark.django_db
def test_openapi_schema_describes_rulings_on_cards_and_the_rulings_endpoint(client):
    schema = client.get("/api/schema/?format=json").json()
    assert "/api/rulings/" in schema["paths"]
    components = schema["components"]["schemas"]
    assert "Ruling" in components and "answer" in components["Ruling"]["properties"]
    assert components["Dragon"]["properties"]["rulings"]["items"]["$ref"].endswith("/Ruling")
    assert json.dumps(components["GuildTile"]["properties"]["rulings"]).count("Ruling") == 1

"""Cave cards, guild tiles, objective tiles, expansions, and the OpenAPI schema and its docs pages."""
from cardsite.catalogue.models import CaveCard, GuildTile, ObjectiveTile

from .conftest import has_word, slugs, uses


def test_cave_cards_by_number_and_slug(api):
    card = api("/api/caves/9/")
    assert card == api(f"/api/caves/{card['slug']}/")
    assert card["ability_text"] == CaveCard.objects.get(number=9, printing="original").ability_text


def test_cave_query_fields_about_dragons_match_no_cave(all_slugs):
    assert all_slugs("/api/caves/?q=size:large") == []
    assert len(all_slugs("/api/caves/?q=-size:large")) == CaveCard.objects.count()


def test_cave_query_by_words_and_effect(all_slugs):
    expected = slugs(c for c in CaveCard.objects.all() if has_word(c.ability_text, "egg") and uses(c, "lay_egg"))
    assert all_slugs("/api/caves/?q=egg+does:lay_egg") == expected
    assert expected


def test_type_field_picks_dragons_or_caves(all_slugs):
    assert all_slugs("/api/caves/?q=type:dragon") == []
    assert len(all_slugs("/api/caves/?q=type:cave")) == CaveCard.objects.count()


def test_guild_tiles_with_rows_by_number_and_slug(api):
    tiles = api("/api/guild-tiles/")
    assert tiles["count"] == GuildTile.objects.count()
    first = GuildTile.objects.order_by("expansion_id", "number").first()
    tile = api(f"/api/guild-tiles/{first.slug}/")
    assert tile["name"] == first.name
    assert [row["position"] for row in tile["abilities"]] == [a.position for a in first.guild_abilities.all()]
    assert api(f"/api/guild-tiles/{first.number}/")["slug"] == first.slug


def test_objective_tiles_with_both_sides(api):
    tile = ObjectiveTile.objects.filter(expansion__slug="base").order_by("number").first()
    body = api(f"/api/objective-tiles/{tile.slug}/")
    assert [side["side"] for side in body["sides"]] == [s.side for s in tile.sides.all()]
    assert api(f"/api/objective-tiles/{tile.number}/")["slug"] == tile.slug


def test_expansions(api):
    body = api("/api/expansions/")
    assert {e["slug"] for e in body["results"]} >= {"base", "academy"}
    assert api("/api/expansions/academy/")["name"]


def test_openapi_schema_describes_the_catalogue(client, catalogue):
    response = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    schema = response.json()
    assert schema["openapi"].startswith("3.")
    params = {p["name"] for p in schema["paths"]["/api/dragons/"]["get"]["parameters"]}
    assert {"q", "vp_min", "cost_meat_max", "cave_only", "ordering", "page_size"} <= params
    assert "/api/dragons/{key}/" in schema["paths"]


def test_api_docs_pages_use_local_assets(client, catalogue):
    for url in ("/api/docs/", "/api/redoc/"):
        response = client.get(url, HTTP_ACCEPT="text/html")
        assert response.status_code == 200
        html = response.content.decode()
        assert "/static/drf_spectacular_sidecar/" in html
        assert "cdn." not in html and "unpkg" not in html


def test_guild_and_objective_tiles_answer_the_query_language(api, all_slugs):
    with_egg = sorted(tile.slug for tile in GuildTile.objects.all()
                      if any(has_word(row.text, "egg") for row in tile.guild_abilities.all()))
    assert with_egg and all_slugs("/api/guild-tiles/?q=egg") == with_egg
    named = sorted(tile.slug for tile in GuildTile.objects.all() if has_word(tile.name, "plains"))
    assert named and all_slugs("/api/guild-tiles/?q=name:plains") == named
    assert all_slugs("/api/guild-tiles/?q=size:large") == []  # a dragon's field matches no tile
    assert all_slugs("/api/guild-tiles/?q=type:guild") == sorted(tile.slug for tile in GuildTile.objects.all())
    academy = sorted(tile.slug for tile in ObjectiveTile.objects.filter(expansion__slug="academy"))
    assert all_slugs("/api/objective-tiles/?q=expansion:academy") == academy
    assert all_slugs("/api/objective-tiles/?q=type:dragon") == []
    assert all_slugs("/api/dragons/?q=type:guild") == []


def test_tile_query_errors_are_400s_like_the_cards(api):
    body = api("/api/guild-tiles/?q=vp%3E%3D", status=400)
    assert body["position"] == 4 and body["field"] == "q" and "needs a value" in body["errors"]["q"][0]
    assert "at most 300" in api("/api/objective-tiles/?q=" + "a" * 301, status=400)["errors"]["q"][0]
    assert api("/api/guild-tiles/?q=tuck%00", status=400)["field"] == "q"
    assert api("/api/guild-tiles/?q=expansion:nosuch", status=400)["expected"] == "one of base, academy"

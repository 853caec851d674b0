"""The search page, the help page, and the pages of dragons, cave cards, guild tiles and objective tiles."""
import html
from urllib.parse import quote

import pytest

from cardsite.catalogue.models import CaveCard, Dragon, GuildTile, ObjectiveTile, Printing
from cardsite.catalogue.views import EXAMPLES

from .conftest import uses


def page(client, url, status=200):
    response = client.get(url)
    assert response.status_code == status, (url, response.status_code)
    return response.content.decode()


def test_search_page_lists_the_query_results_without_javascript(client, catalogue):
    body = page(client, "/cards/?q=cave:golden+does:tuck")
    found = [d for d in Dragon.objects.filter(golden_grotto=True) if uses(d, "tuck")]
    assert f'id="dragon-count">{len(found)}</span>' in body
    for dragon in found:
        assert f"/cards/dragons/{dragon.slug}/" in body
    assert 'id="filter-panel"' in body and "search.js" in body


def test_search_page_with_a_bad_query_says_why(client, catalogue):
    body = page(client, "/cards/?q=vp%3E%3D", status=400)
    assert "needs a value" in html.unescape(body)


def test_every_help_example_reads_and_finds_cards(client, catalogue):
    body = html.unescape(page(client, "/cards/help/"))
    for query, meaning in EXAMPLES:
        assert query in body
        dragons = client.get("/api/dragons/?q=" + quote(query), HTTP_ACCEPT="application/json").json()
        caves = client.get("/api/caves/?q=" + quote(query), HTTP_ACCEPT="application/json").json()
        assert dragons["count"] + caves["count"] > 0, query


def test_dragon_page_draws_the_card(client, catalogue):
    dragon = Dragon.objects.filter(cost_total__gte=2, capacity__gte=1, has_if_activated=True).first()
    body = page(client, f"/cards/dragons/{dragon.slug}/")
    assert html.escape(dragon.name) in body
    assert f'<span class="vp-value">{dragon.vp}</span>' in body
    for item, count in dragon.cost.items():
        assert f'<span class="icon icon-{item}" title="{item}"></span>{count} {item}' in body
    for cave in dragon.habitats:
        assert f"?q=cave:{cave.split('_')[0]}" in body
    assert body.count('class="icon icon-nest"') == dragon.capacity
    assert f"?q=size:{dragon.size}" in body and f"?q=trait:{dragon.trait}" in body
    assert "?q=kind:if_activated" in body
    assert 'class="card-ability"><span class="icon' in body


def test_dragon_page_links_cards_with_the_same_mechanics(client, catalogue):
    dragon = next(d for d in Dragon.objects.all() if uses(d, "tuck"))
    body = page(client, f"/cards/dragons/{dragon.slug}/")
    assert "/cards/?q=does:tuck" in body
    section = body.split('class="similar"', 1)[1].split("</section>", 1)[0]
    linked = [part.split("/", 1)[0] for part in section.split("/cards/dragons/")[1:]]
    assert linked and dragon.slug not in linked
    actions = {"tuck", "cache", "gain", "lay_egg", "excavate", "play_dragon", "train", "activate", "score", "pay",
               "reveal", "distribute", "cover_dragon", "swap_dragons", "swap_with_hand", "swap_cave_card"}
    own = {word for word in actions if uses(dragon, word)}
    for slug in linked:
        assert own & {word for word in actions if uses(Dragon.objects.get(slug=slug), word)}, slug


def test_reprinted_dragon_page_links_its_other_printing(client, catalogue):
    updated = Dragon.objects.filter(printing=Printing.UPDATED).select_related("original").first()
    body = page(client, f"/cards/dragons/{updated.slug}/")
    assert f"/cards/dragons/{updated.original.slug}/" in body
    assert "updated printing" in body


def test_dragon_number_address_redirects_to_the_original_printing(client, catalogue):
    response = client.get("/cards/dragons/1/")
    assert response.status_code == 302
    assert response["Location"] == f"/cards/dragons/{Dragon.objects.get(number=1, printing='original').slug}/"
    assert client.get("/cards/dragons/9999/").status_code == 404


def test_cave_page(client, catalogue):
    cave = CaveCard.objects.exclude(ability_text="").first()
    body = page(client, f"/cards/caves/{cave.slug}/")
    assert f"Cave card {cave.number}" in body
    assert 'class="card-ability"' in body
    assert client.get(f"/cards/caves/{cave.number}/").status_code == 302


@pytest.mark.parametrize("model, list_url, route", [
    (GuildTile, "/cards/guilds/", "/cards/guilds/"),
    (ObjectiveTile, "/cards/objectives/", "/cards/objectives/"),
])
def test_tiles_have_a_list_and_a_page_each(client, catalogue, model, list_url, route):
    body = page(client, list_url)
    for tile in model.objects.all():
        assert f"{route}{tile.slug}/" in body
        page(client, f"{route}{tile.slug}/")
    page(client, f"{route}no-such-tile/", status=404)


def test_guild_page_lists_its_rows(client, catalogue):
    tile = GuildTile.objects.filter(guild_abilities__isnull=False).first()
    body = html.unescape(page(client, f"/cards/guilds/{tile.slug}/"))
    for row in tile.guild_abilities.all():
        assert row.text in body


def test_search_page_refuses_a_query_with_a_null_character(client, catalogue):
    body = page(client, "/cards/?q=tuck%00", status=400)
    assert "q: this text holds a character the site cannot store" in body


def test_card_page_links_its_actions_to_the_rules_reference(client, catalogue):
    from game.rules import rules_anchor

    dragon = next(d for d in Dragon.objects.all() if uses(d, "tuck"))
    body = page(client, f"/cards/dragons/{dragon.slug}/")
    anchor = rules_anchor("tuck")
    assert anchor and anchor.startswith("/rules/#")
    assert f'class="rules-link" href="{anchor}"' in body


def test_rule_keywords_in_the_ability_text_link_to_the_rules(client, catalogue):
    from game.rules import rules_anchor

    dragon = next(d for d in Dragon.objects.all() if "Tuck" in d.ability_text or "tuck" in d.ability_text)
    body = page(client, f"/cards/dragons/{dragon.slug}/")
    ability = body.split('class="card-ability">', 1)[1].split("</div>", 1)[0]
    assert f'<a class="rules-keyword" href="{rules_anchor("tuck")}">' in ability
    assert '<span class="icon' in ability  # icons are kept whole, links go only into the text


def test_tile_numbers_redirect_to_the_base_game_tile(client, catalogue):
    guild = GuildTile.objects.filter(expansion__slug="base").order_by("number").first()
    response = client.get(f"/cards/guilds/{guild.number}/")
    assert response.status_code == 302 and response["Location"] == f"/cards/guilds/{guild.slug}/"
    objective = ObjectiveTile.objects.filter(expansion__slug="base").order_by("number").first()
    response = client.get(f"/cards/objectives/{objective.number}/")
    assert response.status_code == 302 and response["Location"] == f"/cards/objectives/{objective.slug}/"
    assert client.get("/cards/guilds/999/").status_code == 404


def test_fledgling_page_says_how_fledglings_score_instead_of_a_printed_vp(client, catalogue):
    page = client.get("/cards/dragons/201/", follow=True).content.decode()
    assert "1 VP for each fledgling on your mat" in page
    assert '<span class="vp-value">0</span>' not in page


def test_search_page_without_javascript_pages_through_every_result(client, catalogue):
    medium = list(Dragon.objects.filter(size="medium").order_by("number", "printing"))
    assert len(medium) > 60
    first = page(client, "/cards/?q=size:medium")
    assert first.count("result result-dragon") == 60
    assert f"({len(medium) - 60} not shown yet)" in first
    assert 'href="?q=size%3Amedium&amp;type=dragon&amp;page=2"' in first
    second = page(client, "/cards/?q=size:medium&type=dragon&page=2")
    assert second.count("result result-dragon") == len(medium)
    assert f"/cards/dragons/{medium[-1].slug}/" in second
    assert 'id="cave-group" data-kind="cave" hidden' in second


def test_search_page_rows_show_cost_caves_and_vp_with_icons(client, catalogue):
    dragon = Dragon.objects.filter(cost_meat__gte=1, crimson_cavern=True).order_by("number").first()
    body = page(client, f"/cards/?q=number:{dragon.number}+printing:original")
    row = body.split("result result-dragon", 1)[1].split("</li>", 1)[0]
    assert f'title="{dragon.vp} VP"><span class="icon icon-vp"' in row
    assert f'title="{dragon.cost_meat} meat"><span class="icon icon-meat"' in row
    assert 'class="cave-chip habitat-crimson" title="Crimson Cavern"><span class="icon icon-cave"' in row


def test_search_page_type_toggle_and_guild_results(client, catalogue):
    body = page(client, "/cards/?q=egg&type=guild")
    assert '<input type="radio" name="type" value="guild" checked>' in body
    assert 'id="dragon-group" data-kind="dragon" hidden' in body
    tile = next(t for t in GuildTile.objects.all() if any("egg" in r.text.lower() for r in t.guild_abilities.all()))
    assert f"/cards/guilds/{tile.slug}/" in body
    assert page(client, "/cards/?q=egg&type=nonsense").count(" checked>") == 1  # an unknown type shows all


def test_search_page_with_an_error_greys_out_and_counts_nothing(client, catalogue):
    body = page(client, "/cards/?q=cave:golden+does:", status=400)
    assert 'class="results stale"' in body
    assert "result result-dragon" not in body

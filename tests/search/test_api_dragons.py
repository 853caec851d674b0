"""/api/dragons/: permalinks, pagination, ordering, filters, the query language and text search."""
import pytest

from cardsite.catalogue.models import Dragon, Printing

from .conftest import has_word, slugs, uses


def expected(predicate):
    return slugs(d for d in Dragon.objects.all() if predicate(d))


def test_list_is_paginated_and_counts_every_dragon(api):
    page = api("/api/dragons/?page_size=10")
    assert page["count"] == Dragon.objects.count() > 180
    assert len(page["results"]) == 10
    assert "page=2" in page["next"]


def test_dragon_by_number_and_by_slug_are_the_same_card(api):
    by_number = api("/api/dragons/1/")
    by_slug = api(f"/api/dragons/{by_number['slug']}/")
    assert by_number == by_slug
    assert by_number["number"] == 1 and by_number["name"] == Dragon.objects.get(number=1).name


def test_number_of_a_reprinted_dragon_gives_the_original_and_its_slug_the_update(api):
    updated = Dragon.objects.filter(printing=Printing.UPDATED).first()
    assert updated is not None
    assert api(f"/api/dragons/{updated.number}/")["printing"] == "original"
    card = api(f"/api/dragons/{updated.slug}/")
    assert card["printing"] == "updated" and card["original"] == updated.original.slug


def test_unknown_dragon_is_404_naming_the_key(api):
    assert "9999" in api("/api/dragons/9999/", status=404)["detail"]
    assert "no-such-dragon" in api("/api/dragons/no-such-dragon/", status=404)["detail"]


def test_ordering_by_vp_descending_then_by_name(api):
    vps = [card["vp"] for card in api("/api/dragons/?ordering=-vp,name&page_size=200")["results"]]
    assert vps == sorted(vps, reverse=True)
    names = [card["name"] for card in api("/api/dragons/?ordering=name&page_size=200")["results"]]
    assert names == sorted(names)


def test_card_fields_carry_cost_habitats_and_rendered_text(api):
    dragon = Dragon.objects.get(number=1, printing="original")
    card = api("/api/dragons/1/")
    assert card["cost"] == dragon.cost
    assert card["habitats"] == dragon.habitats
    assert card["ability_text"] == dragon.ability_text
    assert 'class="icon' in card["ability_html"]


@pytest.mark.parametrize("params, predicate", [
    ("vp_min=5&vp_max=6", lambda d: 5 <= d.vp <= 6),
    ("vp=3", lambda d: d.vp == 3),
    ("cost_meat_min=1", lambda d: d.cost_meat >= 1),
    ("cost_total_max=2", lambda d: d.cost_total <= 2),
    ("capacity_min=3", lambda d: d.capacity >= 3),
    ("cave=crimson_cavern&cave=golden_grotto", lambda d: d.crimson_cavern or d.golden_grotto),
    ("cave_all=crimson_cavern&cave_all=golden_grotto", lambda d: d.crimson_cavern and d.golden_grotto),
    ("cave_only=amethyst_abyss", lambda d: d.habitats == ["amethyst_abyss"]),
    ("size=small&size=large", lambda d: d.size in ("small", "large")),
    ("trait=playful", lambda d: d.trait == "playful"),
    ("kind=end_game", lambda d: d.has_end_game),
    ("expansion=academy", lambda d: d.expansion.slug == "academy"),
    ("printing=updated", lambda d: d.printing == "updated"),
    ("feeds_on=card", lambda d: d.feeds_on == "card"),
    ("does=tuck", lambda d: uses(d, "tuck")),
    ("name=grazer", lambda d: has_word(d.name, "grazer")),
    ("text=tuck+deck", lambda d: has_word(d.ability_text, "tuck") and has_word(d.ability_text, "deck")),
    ("search=egg", lambda d: has_word(d.name, "egg") or has_word(d.ability_text, "egg")),
])
def test_filter_finds_exactly_the_matching_dragons(all_slugs, params, predicate):
    found = all_slugs(f"/api/dragons/?{params}")
    assert found == expected(predicate)
    assert found, "a filter test that finds nothing proves little"


def test_the_issue_example_query(all_slugs):
    query = "cave:crimson size:large vp>=5 cost.meat>=1 trait:shy kind:if_activated tuck -cost.milk"
    found = all_slugs("/api/dragons/?q=" + query.replace(" ", "+"))
    assert found == expected(lambda d: d.crimson_cavern and d.size == "large" and d.vp >= 5 and d.cost_meat >= 1
                             and d.trait == "shy" and d.has_if_activated and d.cost_milk == 0
                             and (has_word(d.name, "tuck") or has_word(d.ability_text, "tuck")))


def test_which_dragons_tuck_in_the_golden_grotto(all_slugs):
    found = all_slugs("/api/dragons/?q=cave:golden+does:tuck")
    assert found == expected(lambda d: d.golden_grotto and uses(d, "tuck"))
    assert len(found) >= 5


def test_minus_cost_milk_is_no_milk_in_the_cost(all_slugs):
    found = all_slugs("/api/dragons/?q=-cost.milk")
    assert found == expected(lambda d: d.cost_milk == 0)
    assert all_slugs("/api/dragons/?q=cost.milk") == expected(lambda d: d.cost_milk > 0)


def test_or_and_parentheses(all_slugs):
    found = all_slugs("/api/dragons/?q=" + "size:large (trait:shy or trait:playful) -cave:amethyst".replace(" ", "+"))
    assert found == expected(lambda d: d.size == "large" and d.trait in ("shy", "playful") and not d.amethyst_abyss)


def test_cave_only_and_ranges_in_the_query_language(all_slugs):
    assert all_slugs("/api/dragons/?q=cave=crimson") == expected(lambda d: d.habitats == ["crimson_cavern"])
    assert all_slugs("/api/dragons/?q=vp:3..4") == expected(lambda d: 3 <= d.vp <= 4)


def test_bare_words_match_name_or_text_by_word_start(all_slugs):
    found = all_slugs("/api/dragons/?q=tuck")
    assert found == expected(lambda d: has_word(d.name, "tuck") or has_word(d.ability_text, "tuck"))
    assert all_slugs("/api/dragons/?q=TUCK") == found


def test_quoted_phrase_must_appear_as_written(all_slugs):
    found = all_slugs('/api/dragons/?q="from the deck"')
    assert found == expected(lambda d: "from the deck" in d.ability_text.lower())
    assert found


def test_words_in_the_name_rank_first(api):
    results = api("/api/dragons/?q=grazer")["results"]
    in_name = [has_word(card["name"], "grazer") for card in results]
    assert in_name[0] and in_name == sorted(in_name, reverse=True)

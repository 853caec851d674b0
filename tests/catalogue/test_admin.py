"""The catalogue in Django admin: lists with search and filters, checked edits, and the import upload page."""
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from cardsite.catalogue.models import BoardFact, CaveCard, Dragon, Expansion, GuildTile, ObjectiveTile, Printing


@pytest.fixture
def staff(client, django_user_model, catalogue):
    user = django_user_model.objects.create_superuser("editor", "editor@example.com", "a-long-password-1")
    client.force_login(user)
    return client


def dragon_post_data(dragon, **changes):
    data = {
        "number": dragon.number, "printing": dragon.printing, "name": dragon.name, "expansion": dragon.expansion_id,
        "vp": dragon.vp, "size": dragon.size, "trait": dragon.trait, "capacity": dragon.capacity,
        "feeds_on": dragon.feeds_on, "training": json.dumps(dragon.training),
        "free_if": json.dumps(dragon.free_if) if dragon.free_if is not None else "",
        "abilities": json.dumps(dragon.abilities),
    }
    for item in ("meat", "gold", "crystal", "milk", "coin", "egg"):
        data[f"cost_{item}"] = getattr(dragon, f"cost_{item}")
    for cave in dragon.habitats:
        data[cave] = "on"
    data.update(changes)
    return data


def test_dragon_list_searches_by_name(staff):
    response = staff.get(reverse("admin:cardsite_dragon_changelist"), {"q": "Chameleon Coatl"})
    assert response.status_code == 200
    found = response.context["cl"].queryset
    assert sorted(found.values_list("number", "printing")) == [(119, "original"), (119, "updated")]


def test_dragon_list_filters_by_size_and_expansion(staff):
    response = staff.get(reverse("admin:cardsite_dragon_changelist"), {"size__exact": "fledgling"})
    assert response.context["cl"].result_count == 40
    response = staff.get(reverse("admin:cardsite_dragon_changelist"),
                         {"expansion__id__exact": Expansion.objects.get(slug="academy").pk,
                          "printing__exact": "updated"})
    assert response.context["cl"].result_count == 5


def test_dragon_list_links_to_the_import_page(staff):
    response = staff.get(reverse("admin:cardsite_dragon_changelist"))
    assert reverse("admin:cardsite_catalogue_import") in response.content.decode()


def test_other_catalogue_lists_open(staff):
    for name in ("cavecard", "guildtile", "objectivetile", "boardfact", "expansion"):
        assert staff.get(reverse(f"admin:cardsite_{name}_changelist")).status_code == 200


def test_editing_a_dragon_recomputes_its_derived_fields(staff):
    dragon = Dragon.objects.get(number=119, printing=Printing.ORIGINAL)
    url = reverse("admin:cardsite_dragon_change", args=[dragon.pk])
    response = staff.post(url, dragon_post_data(dragon, cost_coin=3))
    assert response.status_code == 302, response.context["adminform"].form.errors
    dragon.refresh_from_db()
    assert dragon.cost_coin == 3 and dragon.cost_total == 6


def test_editing_a_dragon_with_a_bad_effect_is_refused_naming_the_path(staff):
    dragon = Dragon.objects.get(number=120)
    before = dragon.abilities
    url = reverse("admin:cardsite_dragon_change", args=[dragon.pk])
    bad = [{"kind": "once_per_round", "effect": {"do": "gain", "item": "gem"}}]
    response = staff.post(url, dragon_post_data(dragon, abilities=json.dumps(bad)))
    assert response.status_code == 200
    errors = response.context["adminform"].form.errors
    assert "abilities[0].effect.item" in str(errors["abilities"])
    dragon.refresh_from_db()
    assert dragon.abilities == before


def test_editing_a_dragon_without_a_habitat_is_refused(staff):
    dragon = Dragon.objects.get(number=120)
    data = dragon_post_data(dragon)
    for cave in dragon.habitats:
        data.pop(cave)
    response = staff.post(reverse("admin:cardsite_dragon_change", args=[dragon.pk]), data)
    assert response.status_code == 200
    assert "habitats" in str(response.context["adminform"].form.non_field_errors())


def test_import_page_imports_a_json_file(staff):
    record = {"number": 905, "printing": "original", "expansion": "academy",
              "abilities": [{"kind": "when_played", "effect": {"do": "lay_egg", "count": 2}}]}
    upload = SimpleUploadedFile("fan.json", json.dumps({"caves": [record]}).encode(), "application/json")
    response = staff.post(reverse("admin:cardsite_catalogue_import"), {"file": upload})
    assert response.status_code == 302
    assert CaveCard.objects.get(number=905).ability_kind == "when_played"


@pytest.mark.parametrize(("name", "content", "message"), [
    ("bad.json", b'{"caves": [{"number": 906, "printing": "original", "expansion": "base", "abilities": '
                 b'[{"kind": "when_played", "effect": {"do": "fly"}}]}]}', "cave 906: abilities[0].effect.do"),
    ("broken.json", b'{"caves": [', "broken.json: not valid JSON"),
    ("short.csv", b"number,printing,expansion\n907,original,base\n", "missing column 'abilities'"),
])
def test_import_page_shows_a_bad_file_as_a_form_error_and_changes_nothing(staff, name, content, message):
    before = (Dragon.objects.count(), CaveCard.objects.count())
    upload = SimpleUploadedFile(name, content)
    response = staff.post(reverse("admin:cardsite_catalogue_import"), {"file": upload})
    assert response.status_code == 400
    assert any(message in error for error in response.context["form"].errors["file"])
    assert message in response.content.decode().replace("&#x27;", "'")
    assert (Dragon.objects.count(), CaveCard.objects.count()) == before


def test_import_page_is_for_staff_only(client, catalogue):
    response = client.get(reverse("admin:cardsite_catalogue_import"))
    assert response.status_code == 302 and "/login/" in response["Location"]


def test_export_link_downloads_the_whole_catalogue(staff):
    response = staff.get(reverse("admin:cardsite_catalogue_export"))
    data = json.loads(response.content)
    assert len(data["dragons"]) == Dragon.objects.count()
    assert len(data["guild_tiles"]) == GuildTile.objects.count()
    assert len(data["objective_tiles"]) == ObjectiveTile.objects.count()


def inline_post_data(tile, **row_changes):
    """The guild tile change form as the admin page would post it, with one row changed."""
    rows = list(tile.guild_abilities.order_by("position"))
    data = {"number": tile.number, "name": tile.name, "expansion": tile.expansion_id, "notes": tile.notes,
            "guild_abilities-TOTAL_FORMS": len(rows), "guild_abilities-INITIAL_FORMS": len(rows),
            "guild_abilities-MIN_NUM_FORMS": 0, "guild_abilities-MAX_NUM_FORMS": 1000}
    if tile.complete:
        data["complete"] = "on"
    for i, row in enumerate(rows):
        prefix = f"guild_abilities-{i}-"
        data.update({prefix + "id": row.pk, prefix + "tile": tile.pk, prefix + "position": row.position,
                     prefix + "squares": row.squares, prefix + "effect": json.dumps(row.effect)})
        if row.end_game:
            data[prefix + "end_game"] = "on"
    data.update({f"guild_abilities-0-{key}": value for key, value in row_changes.items()})
    return data


def test_editing_a_guild_row_rerenders_its_text(staff):
    tile = GuildTile.objects.get(expansion__slug="base", number=1)
    new_effect = {"do": "gain", "item": "coin", "count": 3}
    response = staff.post(reverse("admin:cardsite_guildtile_change", args=[tile.pk]),
                          inline_post_data(tile, effect=json.dumps(new_effect)))
    assert response.status_code == 302
    row = tile.guild_abilities.get(position=1)
    assert row.effect == new_effect and "3 coins" in row.text


def test_editing_a_guild_row_with_a_bad_effect_is_refused(staff):
    tile = GuildTile.objects.get(expansion__slug="base", number=1)
    before = tile.guild_abilities.get(position=1).effect
    response = staff.post(reverse("admin:cardsite_guildtile_change", args=[tile.pk]),
                          inline_post_data(tile, effect=json.dumps({"do": "gain", "item": "gem"})))
    assert response.status_code == 200
    assert "effect.item: &#x27;gem&#x27;" in response.content.decode()
    assert tile.guild_abilities.get(position=1).effect == before


def test_editing_a_board_fact_with_a_bad_effect_inside_is_refused(staff):
    fact = BoardFact.objects.get(key="guild_track")
    value = dict(fact.value, space_effects={"1": {"do": "fly"}})
    response = staff.post(reverse("admin:cardsite_boardfact_change", args=[fact.pk]),
                          {"key": fact.key, "value": json.dumps(value), "complete": "on", "notes": fact.notes})
    assert response.status_code == 200
    assert "value.space_effects.1.do" in str(response.context["adminform"].form.errors["value"])
    fact.refresh_from_db()
    assert fact.value["space_effects"]["1"] == {"do": "lay_egg"}


def test_change_pages_open_for_every_kind_of_record(staff):
    for model in (Dragon, CaveCard, GuildTile, ObjectiveTile, BoardFact, Expansion):
        obj = model.objects.first()
        url = reverse(f"admin:cardsite_{model._meta.model_name}_change", args=[obj.pk])
        assert staff.get(url).status_code == 200, url
    assert staff.get(reverse("admin:cardsite_dragon_add")).status_code == 200


def test_adding_a_dragon_in_admin_fills_its_derived_fields(staff):
    template = Dragon.objects.get(number=120)
    data = dragon_post_data(template, number=960, name="Admin Drake")
    response = staff.post(reverse("admin:cardsite_dragon_add"), data)
    assert response.status_code == 302
    dragon = Dragon.objects.get(number=960)
    assert dragon.slug == "960-admin-drake"
    assert dragon.cost_total == template.cost_total and dragon.ability_kind == template.ability_kind
    assert dragon.ability_text == template.ability_text


def test_adding_a_second_dragon_with_the_same_number_and_printing_is_refused(staff):
    template = Dragon.objects.get(number=120)
    response = staff.post(reverse("admin:cardsite_dragon_add"), dragon_post_data(template, name="Copy"))
    assert response.status_code == 200
    assert Dragon.objects.filter(number=120).count() == 1

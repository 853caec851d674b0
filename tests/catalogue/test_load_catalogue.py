"""load_catalogue: the whole fixtures folder in, checked first, written in one transaction, idempotent."""
import json
import shutil
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from cardsite.catalogue.loader import FIXTURES
from cardsite.catalogue.models import CaveCard, Dragon, Expansion, Printing


def run_load(*args):
    out, err = StringIO(), StringIO()
    call_command("load_catalogue", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


@pytest.fixture
def fixtures_copy(tmp_path):
    """A private copy of the fixtures folder that a test may break."""
    target = tmp_path / "fixtures"
    shutil.copytree(FIXTURES, target)
    return target


def rewrite(path, key, change):
    data = json.loads(Path(path).read_text())
    change(data[key])
    Path(path).write_text(json.dumps(data))


def test_catalogue_holds_every_dragon_and_cave_card(catalogue):
    assert Dragon.objects.filter(printing=Printing.ORIGINAL).count() == 263
    assert Dragon.objects.filter(printing=Printing.UPDATED).count() == 5
    assert CaveCard.objects.filter(printing=Printing.ORIGINAL).count() == 100
    assert CaveCard.objects.filter(printing=Printing.UPDATED).count() == 2
    assert Dragon.objects.filter(expansion__slug="base", printing=Printing.ORIGINAL).count() == 183
    assert CaveCard.objects.filter(expansion__slug="academy", printing=Printing.ORIGINAL).count() == 25


def test_second_load_changes_nothing(catalogue):
    out, _ = run_load()
    assert "0 created, 0 updated" in out


def test_updated_printings_link_to_their_originals(catalogue):
    for number in (119, 124, 131, 132, 134):
        updated = Dragon.objects.get(number=number, printing=Printing.UPDATED)
        assert updated.original == Dragon.objects.get(number=number, printing=Printing.ORIGINAL)
        assert updated.expansion.slug == "academy"
    for number in (50, 51):
        updated = CaveCard.objects.get(number=number, printing=Printing.UPDATED)
        assert updated.original.printing == Printing.ORIGINAL and updated.original.number == number
    assert not Dragon.objects.filter(printing=Printing.ORIGINAL, original__isnull=False).exists()


def test_cost_total_sums_every_printed_cost_item(catalogue):
    dragon = Dragon.objects.get(number=119, printing=Printing.ORIGINAL)
    assert dragon.cost == {"meat": 1, "gold": 1, "crystal": 1, "coin": 1}
    assert dragon.cost_total == 4
    hatchling = Dragon.objects.get(number=1)
    assert hatchling.cost_total == hatchling.cost_milk + hatchling.cost_egg == 2


def test_a_changed_fixture_updates_only_that_card(catalogue, fixtures_copy):
    rewrite(fixtures_copy / "dragons-001-092.json", "dragons", lambda ds: ds[35].update(vp=ds[35]["vp"] + 1))
    out, _ = run_load("--fixtures", str(fixtures_copy))
    assert "0 created, 1 updated" in out
    assert Dragon.objects.get(number=36).vp == json.loads((FIXTURES / "dragons-001-092.json").read_text())["dragons"][35]["vp"] + 1


def test_bad_effect_names_file_card_and_field_and_loads_nothing(catalogue, fixtures_copy):
    def break_card(dragons):
        dragons[35]["abilities"] = [{"kind": "when_played", "effect": {"do": "pay", "cost": [{"item": "gem"}],
                                                                       "buys": {"do": "lay_egg"}}}]
        dragons[0]["vp"] = 99  # a good change in the same load must not be written either

    rewrite(fixtures_copy / "dragons-001-092.json", "dragons", break_card)
    before = Dragon.objects.get(number=1).vp
    with pytest.raises(CommandError) as error:
        run_load("--fixtures", str(fixtures_copy))
    message = str(error.value)
    assert "dragons-001-092.json" in message
    assert "dragon 36" in message
    assert "abilities[0].effect.cost[0].item" in message and "'gem'" in message
    assert Dragon.objects.get(number=1).vp == before


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda d: d.update(colour="red"), "colour: unknown field"),
        (lambda d: d["cost"].update(meat=-1), "cost.meat: must be 0 or more"),
        (lambda d: d.update(size="huge"), "size: 'huge' is not one of"),
        (lambda d: d.update(habitats=["crimson_cavern", "moon"]), "habitats: 'moon'"),
        (lambda d: d.update(expansion="nope"), "expansion: 'nope' is not a known expansion"),
        (lambda d: d.pop("trait"), "trait: is missing"),
    ],
)
def test_bad_facts_are_refused_naming_the_field(catalogue, fixtures_copy, change, field):
    rewrite(fixtures_copy / "dragons-093-183.json", "dragons", lambda ds: change(ds[0]))
    with pytest.raises(CommandError) as error:
        run_load("--fixtures", str(fixtures_copy))
    assert "dragons-093-183.json: dragon 93: " + field in str(error.value)


def test_duplicate_card_number_is_refused(catalogue, fixtures_copy):
    rewrite(fixtures_copy / "caves.json", "caves", lambda cs: cs.append(dict(cs[3])))
    with pytest.raises(CommandError) as error:
        run_load("--fixtures", str(fixtures_copy))
    assert "cave 4: number: listed twice" in str(error.value)


def test_malformed_json_names_the_file(catalogue, fixtures_copy):
    (fixtures_copy / "caves.json").write_text('{"caves": [')
    with pytest.raises(CommandError) as error:
        run_load("--fixtures", str(fixtures_copy))
    assert "caves.json: not valid JSON" in str(error.value)


def test_missing_optional_files_load_the_rest_with_a_warning(catalogue, fixtures_copy):
    (fixtures_copy / "board.json").unlink(missing_ok=True)
    _, err = run_load("--fixtures", str(fixtures_copy))
    assert "board.json is missing" in err


def test_expansion_flags_say_what_is_incomplete(catalogue):
    assert Expansion.objects.get(slug="base").complete
    assert not Expansion.objects.get(slug="academy").complete


def test_cards_not_in_the_fixtures_are_kept_unless_pruned(catalogue, tmp_path):
    fan = tmp_path / "fan.json"
    fan.write_text(json.dumps({"caves": [{"number": 990, "printing": "original", "expansion": "base",
                                          "abilities": [{"kind": "when_played", "effect": {"do": "lay_egg"}}]}]}))
    call_command("import_catalogue", str(fan), stdout=StringIO())
    out, _ = run_load()
    assert "0 deleted" in out and CaveCard.objects.filter(number=990).exists()
    out, _ = run_load("--prune")
    assert "1 deleted" in out and not CaveCard.objects.filter(number=990).exists()
    assert CaveCard.objects.count() == 102


def test_load_speed_into_an_empty_database_and_over_a_loaded_one(catalogue):
    """A benchmark, not a limit: prints how long the loader takes (see docs/catalogue.md)."""
    import time

    from cardsite.catalogue.loader import load_fixtures
    from cardsite.catalogue.models import BoardFact, GuildTile, ObjectiveTile

    for model in (Dragon, CaveCard, GuildTile, ObjectiveTile, BoardFact):
        model.objects.all().delete()
    start = time.perf_counter()
    counts, _ = load_fixtures()
    empty = time.perf_counter() - start
    start = time.perf_counter()
    again, _ = load_fixtures()
    loaded = time.perf_counter() - start
    print(f"\nload_catalogue: {empty:.3f} s into an empty database ({counts.created} created), "
          f"{loaded:.3f} s over a loaded one ({again.unchanged} unchanged)")
    assert again.created == again.updated == 0

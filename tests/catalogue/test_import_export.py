"""export_catalogue and import_catalogue: a round trip changes nothing; a bad file is refused and changes nothing."""
import csv
import io
import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from cardsite.catalogue.loader import CSV_CAVE_COLUMNS, CSV_DRAGON_COLUMNS, export_catalogue
from cardsite.catalogue.models import CaveCard, Dragon, Printing

FAN_DRAGON = {
    "number": 901, "printing": "original", "name": "Homebrew Glimmerwing", "expansion": "base", "vp": 3,
    "size": "small", "trait": "playful", "capacity": 2, "cost": {"gold": 1, "coin": 1},
    "habitats": ["golden_grotto"],
    "abilities": [{"kind": "when_played", "effect": {"do": "gain", "item": "coin", "count": 2}}],
}


def run_import(path):
    out, err = StringIO(), StringIO()
    call_command("import_catalogue", str(path), stdout=out, stderr=err)
    return out.getvalue()


def snapshot():
    """Everything the catalogue holds, to prove a refused import touched nothing."""
    return json.dumps(export_catalogue(), sort_keys=True), Dragon.objects.count(), CaveCard.objects.count()


def test_export_then_import_changes_nothing(catalogue, tmp_path):
    target = tmp_path / "catalogue.json"
    call_command("export_catalogue", "-o", str(target), stderr=StringIO())
    data = json.loads(target.read_text())
    assert len(data["dragons"]) == 268 and len(data["caves"]) == 102
    before = snapshot()
    assert "0 created, 0 updated" in run_import(target)
    assert snapshot() == before


def test_export_writes_the_fixture_schema(catalogue):
    data = export_catalogue()
    chameleon = next(d for d in data["dragons"] if d["number"] == 119 and d["printing"] == "updated")
    assert chameleon["cost"] == {"meat": 1, "gold": 1, "crystal": 1, "coin": 1}
    assert chameleon["habitats"] == ["crimson_cavern", "golden_grotto", "amethyst_abyss"]
    assert "cost_total" not in chameleon and "slug" not in chameleon
    fledgling = next(d for d in data["dragons"] if d["number"] == 184)
    assert fledgling["training"] == ["milk", "meat"]


def test_json_import_adds_a_fan_card(catalogue, tmp_path):
    path = tmp_path / "fan.json"
    path.write_text(json.dumps({"dragons": [FAN_DRAGON]}))
    assert "1 created, 0 updated" in run_import(path)
    dragon = Dragon.objects.get(number=901)
    assert dragon.name == "Homebrew Glimmerwing" and dragon.cost_total == 2
    assert dragon.has_when_played and dragon.ability_kind == "when_played"
    assert "0 created, 0 updated" in run_import(path)


def test_json_import_applies_an_erratum_to_one_card(catalogue, tmp_path):
    record = next(d for d in export_catalogue()["dragons"] if d["number"] == 20)
    record["vp"] += 1
    path = tmp_path / "erratum.json"
    path.write_text(json.dumps({"dragons": [record]}))
    assert "0 created, 1 updated" in run_import(path)
    assert Dragon.objects.get(number=20).vp == record["vp"]


def csv_text(columns, rows):
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=columns)
    writer.writeheader()
    for row in rows:
        writer.writerow(row)
    return buffer.getvalue()


def fan_csv_row(**changes):
    row = {column: "" for column in CSV_DRAGON_COLUMNS}
    row.update(number="902", printing="original", name="Csv Wyrmling", expansion="base", vp="2", size="medium",
               trait="shy", capacity="1", cost_meat="2", habitats="crimson_cavern,amethyst_abyss",
               abilities=json.dumps([{"kind": "end_game", "effect": {"do": "score", "vp": 1,
                                                                    "per": {"what": "eggs", "scope": "here"}}}]))
    row.update(changes)
    return row


def test_csv_import_adds_dragons_and_caves(catalogue, tmp_path):
    dragons = tmp_path / "dragons.csv"
    dragons.write_text(csv_text(CSV_DRAGON_COLUMNS, [fan_csv_row()]))
    assert "1 created" in run_import(dragons)
    dragon = Dragon.objects.get(number=902)
    assert dragon.habitats == ["crimson_cavern", "amethyst_abyss"]
    assert dragon.cost == {"meat": 2} and dragon.has_end_game and not dragon.has_when_played
    caves = tmp_path / "caves.csv"
    caves.write_text(csv_text(CSV_CAVE_COLUMNS, [{"number": "903", "printing": "original", "expansion": "academy",
                                                  "abilities": json.dumps([{"kind": "when_played", "effect": {
                                                      "do": "gain", "item": "cave"}}])}]))
    assert "1 created" in run_import(caves)
    assert CaveCard.objects.get(number=903).ability_kind == "when_played"


BAD_FILES = [
    ("unknown-field.json", json.dumps({"dragons": [dict(FAN_DRAGON, wingspan=3)]}),
     "unknown-field.json: dragon 901: wingspan: unknown field"),
    ("bad-word.json", json.dumps({"dragons": [dict(FAN_DRAGON, abilities=[
        {"kind": "when_played", "effect": {"do": "teleport"}}])]}),
     "bad-word.json: dragon 901: abilities[0].effect.do: unknown word 'teleport'"),
    ("negative-cost.json", json.dumps({"dragons": [dict(FAN_DRAGON, cost={"gold": -2})]}),
     "negative-cost.json: dragon 901: cost.gold: must be 0 or more"),
    ("duplicate.json", json.dumps({"dragons": [FAN_DRAGON, dict(FAN_DRAGON, name="Second")]}),
     "duplicate.json: dragon 901: number: listed twice"),
    ("malformed.json", '{"dragons": [{"number": 901,', "malformed.json: not valid JSON"),
    ("bare-list.json", json.dumps([FAN_DRAGON]), "bare-list.json: expected a JSON object"),
    ("unknown-section.json", json.dumps({"wyrms": []}), "unknown-section.json: unknown section 'wyrms'"),
    ("no-original.json", json.dumps({"caves": [{"number": 950, "printing": "updated", "expansion": "academy",
                                                "abilities": []}]}),
     "no-original.json: cave 950 (updated): printing: an updated printing needs the original card 950"),
    ("missing-column.csv", "number,printing,name,expansion,vp,size,trait\n1,original,X,base,1,small,shy\n",
     "missing-column.csv: missing column 'capacity'"),
    ("bad-json-cell.csv", csv_text(CSV_DRAGON_COLUMNS, [fan_csv_row(abilities="[{oops")]),
     "bad-json-cell.csv: line 2: abilities: not valid JSON"),
    ("bad-number.csv", csv_text(CSV_DRAGON_COLUMNS, [fan_csv_row(vp="lots")]),
     "bad-number.csv: line 2: vp: expected a whole number, not 'lots'"),
    ("cards.txt", "hello", "cards.txt: only .json and .csv files can be imported"),
]


@pytest.mark.parametrize(("name", "content", "message"), BAD_FILES, ids=[b[0] for b in BAD_FILES])
def test_bad_import_file_is_refused_with_a_clear_message_and_changes_nothing(catalogue, tmp_path, name, content,
                                                                              message):
    path = tmp_path / name
    path.write_text(content)
    before = snapshot()
    with pytest.raises(CommandError) as error:
        run_import(path)
    assert message in str(error.value)
    assert snapshot() == before


def test_a_bad_record_stops_the_good_records_of_the_same_file(catalogue, tmp_path):
    good = dict(FAN_DRAGON)
    bad = dict(FAN_DRAGON, number=904, trait="grumpy")
    path = tmp_path / "mixed.json"
    path.write_text(json.dumps({"dragons": [good, bad]}))
    with pytest.raises(CommandError, match="dragon 904: trait: 'grumpy'"):
        run_import(path)
    assert not Dragon.objects.filter(number__in=[901, 904]).exists()


def test_import_of_an_updated_printing_links_it_to_the_original(catalogue, tmp_path):
    record = next(d for d in export_catalogue()["dragons"] if d["number"] == 20)
    record.update(printing="updated", expansion="academy")
    path = tmp_path / "reprint.json"
    path.write_text(json.dumps({"dragons": [record]}))
    run_import(path)
    reprint = Dragon.objects.get(number=20, printing=Printing.UPDATED)
    assert reprint.original == Dragon.objects.get(number=20, printing=Printing.ORIGINAL)

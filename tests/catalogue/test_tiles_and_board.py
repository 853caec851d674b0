"""Dragon Guild tiles, objective tiles and board facts: loaded, checked, and compared with the base-game reference."""
import json
import shutil
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from cardsite.catalogue.loader import FIXTURES
from cardsite.catalogue.models import BoardFact, GuildAbility, GuildTile, ObjectiveSide, ObjectiveTile


def test_every_base_guild_tile_has_its_rows_with_square_counts(catalogue):
    tiles = GuildTile.objects.filter(expansion__slug="base")
    assert tiles.count() == 4
    for tile in tiles:
        rows = list(tile.guild_abilities.order_by("position"))
        assert [row.position for row in rows] == [1, 2, 3, 4]
        assert all(row.squares >= 1 for row in rows)
        assert [row.end_game for row in rows] == [False, False, False, True]
        assert tile.complete


def test_dragon_academy_guild_tiles_are_marked_incomplete_with_a_note(catalogue):
    tiles = GuildTile.objects.filter(expansion__slug="academy")
    assert set(tiles.values_list("name", flat=True)) >= {"King's Guild", "Veterinary Guild", "Guild of Magicians"}
    for tile in tiles:
        assert not tile.complete and tile.notes


def test_guild_rows_and_objective_sides_carry_rendered_text(catalogue):
    assert not GuildAbility.objects.filter(text="").exists()
    assert not ObjectiveSide.objects.filter(text="").exists()


def test_every_base_objective_tile_has_both_sides(catalogue):
    tiles = ObjectiveTile.objects.filter(expansion__slug="base")
    assert tiles.count() == 10
    for tile in tiles:
        assert sorted(tile.sides.values_list("side", flat=True)) == ["a", "b"]


def test_board_facts_hold_the_guild_track_round_vp_and_player_mat(catalogue):
    keys = set(BoardFact.objects.values_list("key", flat=True))
    assert {"guild_track", "guild_end_game_vp", "round_objective_vp", "player_mat"} <= keys
    assert not BoardFact.objects.get(key="round_tracker_income").complete


def test_guild_square_counts_match_the_reference(catalogue, shared_data):
    reference = json.loads((shared_data / "base-game/guild_tiles.json").read_text())
    for ref in reference:
        tile = GuildTile.objects.get(expansion__slug="base", number=ref["number"])
        assert tile.name == ref["name"]
        ours = {row.position: row.squares for row in tile.guild_abilities.all()}
        assert ours == {a["ability_number"]: a["uses"] for a in ref["abilities"]}, tile.name


def test_objective_automa_values_match_the_reference(catalogue, shared_data):
    reference = json.loads((shared_data / "base-game/objective_tiles.json").read_text())
    for ref in reference:
        tile = ObjectiveTile.objects.get(expansion__slug="base", number=ref["number"])
        for side in ("a", "b"):
            theirs = [v for v in ref[f"side_{side}"]["automa_values"] if v != "N/A"]  # N/A: the Automa skips it
            assert tile.sides.get(side=side).automa_values == theirs, f"tile {tile.number} side {side}"


def test_board_facts_match_the_reference(catalogue, shared_data):
    reference = json.loads((shared_data / "base-game/board.json").read_text())
    ours = {fact.key: fact.value for fact in BoardFact.objects.all()}
    expected_vp = {k: v for k, v in reference["round_objective_vp"].items() if not k.startswith("_")}
    assert ours["round_objective_vp"] == expected_vp
    track = reference["dragon_guild_track"]
    assert ours["guild_track"]["spaces"] == track["spaces"]
    assert ours["guild_track"]["brown_spaces"] == track["brown_spaces"]
    assert ours["guild_track"]["markers_per_player"] == track["markers_per_player"]
    end_vp = ours["guild_end_game_vp"]
    assert (end_vp["vp"] if isinstance(end_vp, dict) else end_vp) == track["end_game_row_vp"]


@pytest.fixture
def fixtures_copy(tmp_path):
    target = tmp_path / "fixtures"
    shutil.copytree(FIXTURES, target)
    return target


def edit(path, key, change):
    data = json.loads(path.read_text())
    change(data[key])
    path.write_text(json.dumps(data))


@pytest.mark.parametrize(("file", "key", "change", "message"), [
    ("guild-tiles.json", "guild_tiles", lambda ts: ts[0]["rows"][1].update(effect={"do": "gain", "item": "gem"}),
     "guild-tiles.json: guild tile 1: rows[1].effect.item: 'gem'"),
    ("guild-tiles.json", "guild_tiles", lambda ts: ts[0]["rows"][1].update(squares=-1),
     "guild-tiles.json: guild tile 1: rows[1].squares: must be 0 or more"),
    ("guild-tiles.json", "guild_tiles", lambda ts: ts[0]["rows"][1].update(position=1),
     "guild-tiles.json: guild tile 1: rows[1].position: row 1 is listed twice"),
    ("objective-tiles.json", "objective_tiles", lambda ts: ts[2]["sides"]["a"].update(counts={"what": "gems"}),
     "objective-tiles.json: objective tile 3: sides.a.counts.what: 'gems' is not countable"),
    ("objective-tiles.json", "objective_tiles", lambda ts: ts[2]["sides"].update(c=ts[2]["sides"]["a"]),
     "objective-tiles.json: objective tile 3: sides: expected"),
    ("board.json", "board_facts", lambda fs: fs[0]["value"].update(space_effects={"1": {"do": "fly"}}),
     "board.json: board fact guild_track: value.space_effects.1.do: unknown word 'fly'"),
    ("board.json", "board_facts", lambda fs: fs[1].update(key="Guild Track!"),
     "board.json: board fact Guild Track!: key: expected a short lower-case name"),
])
def test_bad_tile_or_board_record_is_refused_naming_file_record_and_field(catalogue, fixtures_copy, file, key,
                                                                          change, message):
    edit(fixtures_copy / file, key, change)
    before = list(GuildAbility.objects.values_list("effect", flat=True))
    with pytest.raises(CommandError) as error:
        call_command("load_catalogue", "--fixtures", str(fixtures_copy), stdout=StringIO(), stderr=StringIO())
    assert message in str(error.value)
    assert list(GuildAbility.objects.values_list("effect", flat=True)) == before


def test_a_removed_guild_row_is_removed_on_reload(catalogue, fixtures_copy):
    edit(fixtures_copy / "guild-tiles.json", "guild_tiles", lambda ts: ts[0]["rows"].pop())
    call_command("load_catalogue", "--fixtures", str(fixtures_copy), stdout=StringIO(), stderr=StringIO())
    assert GuildTile.objects.get(expansion__slug="base", number=1).guild_abilities.count() == 3

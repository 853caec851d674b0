"""The edits behind the clicks on the drawn table (guild track and tile, objective places, explores, income spaces,
supply, cave cards in hand and in the display): each changes what it says, bad input is a 400 naming the field with
nothing changed, and the shared drawing shows nothing a spectator could not see."""
import pytest

from tests.analysis.conftest import position, seat as seat_of

pytestmark = pytest.mark.django_db

MARKER = {"do": "marker", "seat": 0, "row": 1, "square": 1}


def academy(*edits):
    return position(*edits, academy=True, seed=3)


@pytest.mark.parametrize("pos, field, words", [
    # guild track
    (position({"do": "guild", "seat": 0, "advancements": 61}), "position.edits[0].advancements", "from 0 to 60"),
    (position({"do": "guild", "seat": 0, "advancements": "two"}), "position.edits[0].advancements", "whole number"),
    # guild tile markers
    (position(MARKER, dict(MARKER, seat=1)), "position.edits[1].square", "already holds a marker"),
    (position({"do": "marker", "seat": 0, "row": 9, "square": 1}), "position.edits[0].row", "whole number"),
    (position({"do": "remove_marker", "seat": 0, "row": 1, "square": 1}), "position.edits[0].square",
     "Player 1 has no marker on that square"),
    (position(MARKER, {"do": "remove_marker", "seat": 1, "row": 1, "square": 1}), "position.edits[1].square",
     "Player 2 has no marker"),
    (position({"do": "remove_marker", "seat": 0, "row": 1, "square": 9}), "position.edits[0].square", "whole number"),
    # objective markers
    (position({"do": "objective", "seat": 0, "round": 1, "place": 4}), "position.edits[0].place", "from 0 to 3"),
    (position({"do": "objective", "seat": 0, "round": 5, "place": 1}), "position.edits[0].round", "from 1 to 4"),
    (position({"do": "objective", "seat": 0, "round": 1, "place": 1},
              {"do": "objective", "seat": 0, "round": 2, "place": 1},
              {"do": "objective", "seat": 0, "round": 1, "place": None}), "position.edits[2].round",
     "last objective marker is round 2"),
    (position({"do": "objective", "seat": 0, "round": 1, "place": None}), "position.edits[0].round", "not placed"),
    # explores this round
    (position({"do": "explored", "seat": 0, "cave": "golden", "times": 4}), "position.edits[0].times", "from 0 to 3"),
    (position({"do": "explored", "seat": 0, "cave": "sky", "times": 1}), "position.edits[0].cave", "expected a cave"),
    # Dragon Academy income spaces
    (academy({"do": "income", "seat": 0, "space": 9}), "position.edits[0].space", "whole number"),
    (academy({"do": "income", "seat": 0, "space": 1}, {"do": "income", "seat": 1, "space": 1}),
     "position.edits[1].space", "another player took"),
    (academy({"do": "income", "seat": 0, "space": None}), "position.edits[0].space", "on no income space"),
    (academy({"do": "round", "round": 4}, {"do": "income", "seat": 0, "space": 1}), "position.edits[1].space",
     "round 4 has no income spaces"),
    # supply
    (position({"do": "coins", "seat": 0, "coins": 41}), "position.edits[0].coins", "from 0 to 40"),
    (position({"do": "resources", "seat": 0, "resources": {"milk": -1}}), "position.edits[0].resources.milk",
     "from 0 to 20"),
    (position({"do": "nest", "seat": 0, "eggs": 3}), "position.edits[0].eggs", "from 0 to 2"),
    (position({"do": "passed", "seat": 1, "passed": "yes"}), "position.edits[0].passed", "true or false"),
    # cave cards in hand and in the display
    (position({"do": "cave_cards", "seat": 0, "caves": ["dek"]}), "position.edits[0].caves[0]", "cave card's number"),
    (position({"do": "cave_cards", "seat": 0, "caves": [9999]}), "position.edits[0].caves[0]", "no cave card number"),
    (position({"do": "cave_cards", "seat": 0, "caves": "two"}), "position.edits[0].caves", "\"deck\""),
    (position({"do": "display", "caves": [None, "top"]}), "position.edits[0].caves[1]", "cave card's number"),
    (position({"do": "display", "caves": [1, 2, 3, 4]}), "position.edits[0].caves", "up to 3 cards"),
])
def test_a_bad_click_is_a_400_naming_the_field(post, ask, pos, field, words):
    status, answer = post({"position": pos})
    assert status == 400, answer
    assert answer["field"] == field and words in answer["detail"], answer
    # Nothing changed: the position without the bad edit answers as it did before it was tried.
    good = dict(pos, edits=pos["edits"][:-1])
    assert ask(good) == ask(good)


def view_player(result, seat=0):
    return result["drawing"]["view"]["players"][seat]


def test_the_guild_track_click_moves_the_token_to_that_space(ask):
    result = ask(position({"do": "guild", "seat": 0, "advancements": 5}))
    assert view_player(result)["guild_space"] == 5 and seat_of(result)["guild"] == 5


def test_a_marker_put_on_the_tile_and_taken_off_again(ask):
    placed = ask(position(MARKER))
    assert placed["drawing"]["view"]["guild"]["squares"][0][0] == [0]
    assert view_player(placed)["guild_markers"] == [[0, 0]]
    end_row = len(placed["drawing"]["view"]["guild"]["squares"])
    both = ask(position(MARKER, {"do": "marker", "seat": 0, "row": end_row, "square": 2}))
    assert view_player(both)["guild_markers"] == [[0, 0], [-1, 1]]
    off = ask(position(MARKER, {"do": "marker", "seat": 0, "row": end_row, "square": 2},
                       {"do": "remove_marker", "seat": 0, "row": 1, "square": 1}))
    assert off["drawing"]["view"]["guild"]["squares"][0][0] == []
    assert view_player(off)["guild_markers"] == [[-1, 1]]


def test_objective_markers_placed_and_the_last_one_taken_off(ask):
    placed = position({"do": "objective", "seat": 0, "round": 1, "place": 2},
                      {"do": "objective", "seat": 0, "round": 2, "place": 1})
    assert view_player(ask(placed))["objective_places"] == [2, 1]
    placed["edits"].append({"do": "objective", "seat": 0, "round": 2, "place": None})
    assert view_player(ask(placed))["objective_places"] == [2]


def test_an_income_space_taken_moved_and_left(ask):
    moved = ask(academy({"do": "income", "seat": 1, "space": 2}, {"do": "income", "seat": 1, "space": 3}))
    assert view_player(moved, 1)["income_space"] == 2 and view_player(moved, 1)["passed"]
    # space 2 is free again: Player 1 may take it
    other = ask(academy({"do": "income", "seat": 1, "space": 2}, {"do": "income", "seat": 1, "space": 3},
                        {"do": "income", "seat": 0, "space": 2}))
    assert view_player(other, 0)["income_space"] == 1
    left = ask(academy({"do": "income", "seat": 1, "space": 2}, {"do": "income", "seat": 1, "space": None}))
    assert view_player(left, 1)["income_space"] is None
    texts = left["drawing"]["board"]["academy_income"]
    assert len(texts[0]) >= 5 and texts[3] == []  # the last round has no income spaces


def test_a_cave_card_from_the_deck_joins_the_hand_and_the_named_ones_stay(ask):
    before = seat_of(ask(position()))["cave_cards"]
    after = seat_of(ask(position({"do": "cave_cards", "seat": 0, "caves": before + ["deck"]})))["cave_cards"]
    assert after[:len(before)] == before and len(after) == len(before) + 1
    assert after[-1] not in before
    fewer = seat_of(ask(position({"do": "cave_cards", "seat": 0, "caves": before[1:]})))["cave_cards"]
    assert fewer == before[1:]


def test_a_display_slot_emptied_and_filled_from_the_deck_takes_a_new_card(ask):
    shown = ask(position())["table"]["display"]
    caves = shown["caves"]
    emptied = ask(position({"do": "display", "caves": [caves[0], None, caves[2]]}))["table"]["display"]
    assert emptied["caves"] == [caves[0], None, caves[2]]
    filled = ask(position({"do": "display", "caves": [caves[0], None, caves[2]]},
                          {"do": "display", "caves": [caves[0], "deck", caves[2]]}))["table"]["display"]
    assert filled["caves"][1] is not None and filled["caves"][1] not in caves
    dragons = [d["number"] for d in shown["dragons"]]
    refilled = ask(position({"do": "display", "dragons": ["deck", dragons[1], dragons[2]]}))["table"]["display"]
    assert refilled["dragons"][0]["number"] != dragons[0] and refilled["dragons"][1]["number"] == dragons[1]


def test_supply_explores_and_nests_by_one(ask):
    result = ask(position({"do": "coins", "seat": 1, "coins": 4}, {"do": "resources", "seat": 1, "resources": {"gold": 2}},
                          {"do": "explored", "seat": 1, "cave": "amethyst", "times": 2},
                          {"do": "nest", "seat": 1, "eggs": 1}))
    pl = view_player(result, 1)
    assert pl["coins"] == 4 and pl["resources"]["gold"] == 2 and pl["explored"][2] == 2 and pl["nest_eggs"] == 1


def test_the_shared_drawing_is_a_spectators_view(ask):
    """Every seat is editable on the board, but the drawing of the shared table hides what a spectator cannot see:
    hands (the board's own `table` lists them, as the position's author set them), deck order and the seed."""
    result = ask(position({"do": "hand", "seat": 1, "dragons": [128]}))
    drawing = result["drawing"]
    assert all(p["hand"] is None and p["cave_cards"] is None for p in drawing["view"]["players"])
    assert "seed" not in drawing["view"]["options"]
    assert "options" not in (drawing["view"]["pending"] or {})
    shown = {int(i) for i in drawing["cards"]["dragons"]}
    hand = [d for d, c in drawing["cards"]["dragons"].items() if c["number"] == 128]
    assert not hand  # a card only in a hand is not described by the drawing
    assert set(drawing["view"]["display"]["dragons"]) - {None} <= shown
    assert {"guild_track", "objective_vp", "academy_income"} <= set(drawing["board"])
    assert len(drawing["objective_texts"]) == 4


def test_a_display_edit_naming_a_dragon_in_a_hand_is_a_400_naming_that_slot(post, ask):
    """One form sets the hand and then the display: the display's old list must not take back the card just put in
    the hand without a word."""
    shown = [d["number"] for d in ask(position())["table"]["display"]["dragons"]]
    status, body = post({"position": position({"do": "hand", "seat": 0, "dragons": [shown[1]]},
                                              {"do": "display", "dragons": shown})})
    assert status == 400
    assert body["field"] == "position.edits[1].dragons[1]"
    assert "Player 1's hand" in body["detail"]


def test_a_hand_edit_naming_a_dragon_in_another_hand_is_a_400(post):
    status, body = post({"position": position({"do": "hand", "seat": 1, "dragons": [128]},
                                              {"do": "hand", "seat": 0, "dragons": [50, 128]})})
    assert (status, body["field"]) == (400, "position.edits[1].dragons[1]")
    assert "Player 2's hand" in body["detail"]


def test_a_dragon_from_the_display_goes_to_the_hand_and_the_slot_is_refilled(ask):
    shown = [d["number"] for d in ask(position())["table"]["display"]["dragons"]]
    table = ask(position({"do": "hand", "seat": 0, "dragons": [shown[0]]}))["table"]
    assert [d["number"] for d in table["seats"][0]["hand"]] == [shown[0]]
    assert shown[0] not in [d["number"] for d in table["display"]["dragons"] if d]


def test_a_display_edit_naming_a_cave_card_in_a_hand_is_a_400(post, ask):
    caves = ask(position())["table"]["display"]["caves"]
    status, body = post({"position": position({"do": "cave_cards", "seat": 1, "caves": [caves[2]]},
                                              {"do": "display", "caves": caves})})
    assert (status, body["field"]) == (400, "position.edits[1].caves[2]")

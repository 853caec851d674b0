"""Bad sheets: the API answers 400 naming the field, with a message a player understands, and saves nothing."""
import pytest

from game.models import ScoreEntry, ScoreSheet

pytestmark = pytest.mark.django_db

C, G, A = "crimson_cavern", "golden_grotto", "amethyst_abyss"


def card(*players, **extra):
    return {"mode": "card", "players": list(players), **extra}


def quick(*players, **extra):
    return {"mode": "quick", "players": list(players), **extra}


TWELVE = [{"card": n, "cave": cave} for n, cave in
          [(74, C), (60, C), (81, C), (39, C), (47, G), (110, G), (86, G), (42, G), (52, A), (62, A), (46, A), (51, A)]]

CASES = [
    ("negative eggs in quick mode", quick({"name": "Ann", "eggs": -1}), "players[0].eggs", "cannot be negative"),
    ("negative coins in card mode", card({"name": "Ann", "coins": -3}), "players[0].coins", "cannot be negative"),
    ("negative cached on a dragon", card({"name": "Ann", "dragons": [{"card": 74, "cave": C, "cached": -2}]}),
     "players[0].dragons[0].cached", "cannot be negative"),
    ("more than 12 dragons", card({"name": "Ann", "dragons": TWELVE + [{"card": 51, "cave": C}]}),
     "players[0].dragons", "at most 12 dragons"),
    ("more than 12 dragons in quick mode", quick({"name": "Ann", "visible_dragons": 13}),
     "players[0].visible_dragons", "at most 12 dragons"),
    ("one card on two mats", card({"name": "Ann", "dragons": [{"card": 74, "cave": C}]},
                                  {"name": "Ben", "dragons": [{"card": "74 Solitary Brown Drake", "cave": C}]}),
     "players[1].dragons[0].card", "already on Ann's mat"),
    ("one cave card on two mats", card({"name": "Ann", "cave_cards": [{"card": 12, "cave": C, "column": 2}]},
                                       {"name": "Ben", "cave_cards": [{"card": 12, "cave": G, "column": 2}]}),
     "players[1].cave_cards[0].card", "already on Ann's mat"),
    ("a dragon in a cave it does not live in", card({"name": "Ann", "dragons": [{"card": 42, "cave": C}]}),
     "players[0].dragons[0].cave", "lives in the Golden Grotto, not the Crimson Cavern"),
    ("more eggs than nests", card({"name": "Ann", "dragons": [{"card": 46, "cave": A, "eggs": 2}]}),
     "players[0].dragons[0].eggs", "has 1 nest: at most 1 egg"),
    ("more eggs than the mat's nests", card({"name": "Ann", "nest_eggs": 3}), "players[0].nest_eggs",
     "at most 2 eggs"),
    ("more than 4 guild markers (quick)", quick({"name": "Ann", "guild_markers": [6, 3, 1, 1, 1]}),
     "players[0].guild_markers", "4 guild markers"),
    ("more than 4 guild markers (card)", card({"name": "Ann", "guild_markers": [6, 1], "guild_other_markers": 3}),
     "players[0].guild_markers", "this line places 5"),
    ("a guild square value not printed", quick({"name": "Ann", "guild_markers": [5]}),
     "players[0].guild_markers[0]", "worth 6, 3, 1 VP"),
    ("the 6 VP square twice", quick({"name": "Ann", "guild_markers": [6]}, {"name": "Ben", "guild_markers": [6]}),
     "players[1].guild_markers", "holds one marker"),
    ("an unknown dragon", card({"name": "Ann", "dragons": [{"card": "Purple Unicorn", "cave": C}]}),
     "players[0].dragons[0].card", "no dragon called"),
    ("an Academy dragon without the expansion", card({"name": "Ann", "dragons": [{"card": 250, "cave": C}]}),
     "players[0].dragons[0].card", "turn the expansion on"),
    ("an unknown cave", card({"name": "Ann", "dragons": [{"card": 74, "cave": "lava_lake"}]}),
     "players[0].dragons[0].cave", "choose one of"),
    ("a gap before a dragon", card({"name": "Ann", "dragons": [{"card": 74, "cave": C, "column": 2}]}),
     "players[0].dragons[0].column", "column 1 of the Crimson Cavern is empty"),
    ("two dragons on one space", card({"name": "Ann", "dragons": [{"card": 74, "cave": C, "column": 1},
                                                                  {"card": 60, "cave": C, "column": 1}]}),
     "players[0].dragons[1].column", "already holds"),
    ("a column past the cave's end", card({"name": "Ann", "dragons": [{"card": 74, "cave": C, "column": 5}]}),
     "players[0].dragons[0].column", "columns 1 to 4"),
    ("training tokens on an adult", card({"name": "Ann", "dragons": [{"card": 74, "cave": C, "tokens": 1}]}),
     "players[0].dragons[0].tokens", "not a fledgling"),
    ("more tokens than training boxes", card({"name": "Ann", "dragons": [{"card": 211, "cave": C, "tokens": 3}]},
                                             academy=True),
     "players[0].dragons[0].tokens", "2 training boxes"),
    ("a cave card in the first column", card({"name": "Ann", "cave_cards": [{"card": 3, "cave": C, "column": 1}]}),
     "players[0].cave_cards[0].column", "starts excavated"),
    ("a choice for a dragon without one", card({"name": "Ann", "dragons": [{"card": 74, "cave": C, "choice": 1}]}),
     "players[0].dragons[0].choice", "no end-game choice"),
    ("an option the dragon lacks", card({"name": "Ann", "dragons": [{"card": 86, "cave": G, "choice": 7}]}),
     "players[0].dragons[0].choice", "choose one of [0, 1, 2]"),
    ("a place that does not exist", quick({"name": "Ann", "objective_places": [1, 4]}),
     "players[0].objective_places[1]", "1, 2, 3, or 0"),
    ("objective VP and placements both", quick({"name": "Ann", "objective_vp": 5, "objective_places": [1]}),
     "players[0].objective_vp", "not both"),
    ("a word for a number", quick({"name": "Ann", "coins": "many"}), "players[0].coins", "whole number"),
    ("a misspelt field", quick({"name": "Ann", "egs": 3}), "players[0].egs", "does not exist"),
    ("no name", quick({"name": "  "}), "players[0].name", "give each player a name"),
    ("two players with one name", quick({"name": "Ann"}, {"name": "ann"}), "players[1].name", "two lines"),
    ("no players", quick(), "players", "1 to 5 players"),
    ("six players", quick(*[{"name": f"P{i}"} for i in range(6)]), "players", "1 to 5 players"),
    ("the Automa beside two players", quick({"name": "Ann"}, {"name": "Ben"}, automa={"dragon_vp": 10}),
     "automa", "only plays solo"),
    ("an Automa level that does not exist", quick({"name": "Ann"}, automa={"level": 4}), "automa.level",
     "levels are 1, 2, 3"),
    ("Ravel Mode that is not true or false", quick({"name": "Ann"}, automa={"ravel": "yes"}), "automa.ravel",
     "true or false"),
    ("guild steps past the next brown space", quick({"name": "Ann"}, automa={"guild_steps": 6}),
     "automa.guild_steps", "at most 5"),
    ("a negative count of her dragon cards", quick({"name": "Ann"}, automa={"dragon_cards": -1}),
     "automa.dragon_cards", ""),
    ("an unknown mode", {"mode": "fast", "players": [{"name": "Ann"}]}, "mode", "choose 'quick'"),
    ("an unknown objective tile", card({"name": "Ann"}, objectives=[{"tile": 99, "side": "a"}]),
     "objectives[0].tile", "no objective tile"),
    ("an objective side that does not exist", card({"name": "Ann"}, objectives=[{"tile": 3, "side": "c"}]),
     "objectives[0].side", "choose a side"),
    ("more markers than the END GAME row's squares", card({"name": "Ann", "guild_ability_markers": 2},
                                                           guild_tile=1),
     "players[0].guild_ability_markers", "Plains Guild has 1 square"),
    ("an END GAME row the catalogue does not have", card({"name": "Ann", "guild_ability_markers": 1},
                                                         guild_tile=5, academy=True),
     "players[0].guild_ability_markers", "no END GAME ability row"),
    ("an Academy guild tile without the expansion", card({"name": "Ann"}, guild_tile=6),
     "guild_tile", "turn the expansion on"),
    ("guild ability markers without a tile", card({"name": "Ann", "guild_ability_markers": 1}),
     "players[0].guild_ability_markers", "choose the game's Dragon Guild tile"),
    # Objective places from the round tracker, card mode.
    ("a count for a round without a tile", card({"name": "Ann", "objective_counts": [None, 3]}),
     "players[0].objective_counts[1]", "round 2 has no objective tile"),
    ("a place and a count for one round", card({"name": "Ann", "objective_counts": [2],
                                                "objective_places": [1]}, objectives=[{"tile": 3, "side": "a"}]),
     "players[0].objective_places[0]", "the place or the count, not both"),
    ("a place for one player only", card({"name": "Ann", "objective_places": [None, 1]}, {"name": "Ben"}),
     "players[1].objective_places[1]", "give Ben's place too"),
    ("a 2nd place without a 1st", card({"name": "Ann", "objective_places": [2]},
                                       {"name": "Ben", "objective_places": [0]}),
     "players[0].objective_places[0]", "round 1: Ann is on 2nd, but nobody is on 1st"),
    ("a 3rd after a tie for 1st", card({"name": "Ann", "objective_places": [None, None, 1]},
                                       {"name": "Ben", "objective_places": [None, None, 1]},
                                       {"name": "Cy", "objective_places": [None, None, "3rd"]}),
     "players[2].objective_places[2]", "Cy is on 3rd, but nobody is on 2nd"),
    ("a place that does not exist (card)", card({"name": "Ann", "objective_places": ["4th"]}),
     "players[0].objective_places[0]", "1, 2, 3, or 0"),
    ("places that are not a list", card({"name": "Ann", "objective_places": "1st"}),
     "players[0].objective_places", "a list of at most 4 places"),
    ("the Automa without a place when the player has one",
     card({"name": "Me", "objective_places": [1]}, automa={"dragon_vp": 3}),
     "automa.objective_places[0]", "give Automa's place too"),
    ("a quick 2nd place without a 1st", quick({"name": "Ann", "objective_places": [0, 2]}, {"name": "Ben"}),
     "players[0].objective_places[1]", "nobody is on 1st"),
    # Cached items by kind, where the dragon counts one kind.
    ("a plain number cached on a milk counter", card({"name": "Ann", "dragons": [{"card": 17, "cave": G,
                                                                                  "cached": 2}]}),
     "players[0].dragons[0].cached", "scores only milk cached on it"),
    ("an unknown kind cached", card({"name": "Ann", "dragons": [{"card": 17, "cave": G,
                                                                 "cached": {"milk": 1, "cheese": 2}}]}),
     "players[0].dragons[0].cached.cheese", "a kind is one of"),
    ("a negative kind cached", card({"name": "Ann", "dragons": [{"card": 29, "cave": A, "cached": {"meat": -1}}]}),
     "players[0].dragons[0].cached.meat", "cannot be negative"),
    ("no cave for a dragon of two caves", card({"name": "Ann", "dragons": [{"card": 17}]}),
     "players[0].dragons[0].cave", "Golden Grotto or Amethyst Abyss: say which"),
    # Quick mode: what the rules bound.
    ("more eggs than any mat can hold", quick({"name": "Ann", "eggs": 60}), "players[0].eggs",
     "the mat's nests and the largest nests"),
    ("more eggs than ten dragons can hold", quick({"name": "Ann", "eggs": 50, "visible_dragons": 10}),
     "players[0].eggs", "at most"),
    ("more printed VP than the mat can show", quick({"name": "Ann", "dragon_vp": 200}), "players[0].dragon_vp",
     "the highest printed VP"),
    ("fledglings without the expansion", quick({"name": "Ann", "fledglings": 1, "visible_dragons": 3}),
     "players[0].fledglings", "come with Dragon Academy"),
    ("more tucked cards than the deck", quick({"name": "Ann", "tucked": 400}), "players[0].tucked",
     "dragon cards that are not on the mat"),
]


@pytest.mark.parametrize("data, field, words", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_bad_sheet_is_refused_naming_the_field_and_nothing_is_saved(score_api, data, field, words):
    status, body = score_api(data, url="/api/calculator/sheets/")
    assert status == 400, body
    assert field in body["errors"], body["errors"]
    assert any(words in message for message in body["errors"][field]), body["errors"][field]
    assert ScoreSheet.objects.count() == 0
    assert ScoreEntry.objects.count() == 0


def test_every_mistake_is_reported_at_once(score_api):
    status, body = score_api(card({"name": "Ann", "coins": -1, "dragons": [{"card": 42, "cave": C, "eggs": 9}]}))
    assert status == 400
    assert {"players[0].coins", "players[0].dragons[0].cave", "players[0].dragons[0].eggs"} <= set(body["errors"])


def test_a_body_that_is_not_an_object_is_refused(client, catalogue):
    response = client.post("/api/calculator/score/", data="[1, 2]", content_type="application/json")
    assert response.status_code == 400
    assert "sheet" in response.json()["errors"]


def test_a_misspelt_dragon_is_one_error_and_the_next_dragon_keeps_its_column(score_api):
    status, body = score_api(card({"name": "Ann", "dragons": [
        {"card": "Solitary Brwn Drake", "cave": C, "column": 1}, {"card": 60, "cave": C, "column": 2}]}))
    assert status == 400
    assert body["errors"] == {"players[0].dragons[0].card": ["no dragon called 'Solitary Brwn Drake' in the "
                                                             "catalogue"]}


def test_a_misspelt_dragon_without_column_or_cave_is_one_error(score_api):
    status, body = score_api(card({"name": "Ann", "dragons": [{"card": "Nobody"}, {"card": 74, "cave": C}]}))
    assert status == 400
    assert list(body["errors"]) == ["players[0].dragons[0].card"]


def test_a_misspelt_dragon_before_another_is_one_error_on_its_card(score_api):
    dragons = [{"card": 74, "cave": C}, {"card": "Temperate Bambo Dragon", "cave": C}, {"card": 60, "cave": C}]
    status, body = score_api(card({"name": "Ann"}, {"name": "Ben", "dragons": dragons}))
    assert status == 400
    assert body["errors"] == {"players[1].dragons[1].card": ["no dragon called 'Temperate Bambo Dragon' in the catalogue"]}


@pytest.mark.parametrize("column", ["x", 0, 9])
def test_a_bad_column_is_one_error(score_api, column):
    status, body = score_api(card({"name": "Ann", "cave_cards": [{"cave": C, "column": column}]}))
    assert status == 400
    assert list(body["errors"]) == ["players[0].cave_cards[0].column"]
    assert len(body["errors"]["players[0].cave_cards[0].column"]) == 1

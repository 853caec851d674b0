"""Bad checks get a 400 naming the field to blame, and nothing else happens: no row is written and the next good
check runs exactly as before."""
import json

import pytest
from django.apps import apps

pytestmark = pytest.mark.django_db

SERPENT_SITUATION = {"at": {"cave": "golden_grotto", "column": 1}, "dragons": [
    {"card": "Primordiasaur", "cave": "golden_grotto", "column": 2, "eggs": 3},
    {"card": "Green Ghost", "cave": "golden_grotto", "column": 3},
]}


def rows():
    return {model._meta.label: model.objects.count() for model in apps.get_models()}


def others(n):
    """n distinct crimson-cavern-friendly placements (cards that live everywhere are simplest)."""
    names = ["Weary Gryphdragon", "Aloof Gryphdragon", "Colorful Gryphdragon", "Pocket Amphiptere",
             "Lilliputian Fae", "Spry Horned Lung Dragon", "Stealthy Rufftail", "Stoic Gryphdragon",
             "Equatorial Cavalier Wyvern", "Protective Amphiptere", "Penurious Red Wyrm", "Selfish Lung Dragon"]
    return [{"card": names[i], "cave": "crimson_cavern", "column": 1 + i % 4} for i in range(n)]


BAD = [
    ({"card": "Nonexistent Wyrm"}, "card", "no dragon is called 'Nonexistent Wyrm'"),
    ({"card": "999"}, "card", "there is no dragon number 999"),
    ({"card": "Gryphdragon"}, "card", "matches several dragons"),
    ({"card": "cave 500"}, "card", "there is no cave card number 500"),
    ({"card": {"kind": "tile", "number": 1}}, "card.kind", "expected dragon, cave or guild"),
    ({}, "card", "required"),
    ({"card": "Smirking Ridgeback", "ability": 3}, "ability", "has 1 ability (0 to 0)"),
    ({"card": "Smirking Ridgeback", "ability": "first"}, "ability", "expected the ability's number"),
    ({"card": "Smirking Ridgeback", "colour": "red"}, "colour", "is not a field of a check"),
    ({"card": "Smirking Ridgeback", "situation": {"weather": 1}}, "situation.weather", "is not a known field"),
    ({"card": "Smirking Ridgeback", "situation": {"at": {"cave": "golden_grotto"}}}, "situation.at.cave",
     "Smirking Ridgeback (130) does not live in the Golden Grotto (it lives in the Crimson Cavern)"),
    ({"card": "Smirking Ridgeback", "situation": {"dragons": [{"card": "Genial Mothdragon", "cave": "amethyst_abyss",
                                                               "column": 1}]}},
     "situation.dragons[0].cave", "does not live in the Amethyst Abyss"),
    ({"card": "Smirking Ridgeback", "situation": {"at": {"cave": "lava_lake"}}}, "situation.at.cave",
     "expected one of crimson_cavern, golden_grotto, amethyst_abyss"),
    ({"card": "Smirking Ridgeback", "situation": {"dragons": others(12)}}, "situation.dragons",
     "too many dragons: a mat holds 12, so at most 11 more here"),
    ({"card": "Smirking Ridgeback", "situation": {"coins": -1}}, "situation.coins", "cannot be negative"),
    ({"card": "Smirking Ridgeback", "situation": {"resources": {"meat": -2}}}, "situation.resources.meat",
     "cannot be negative"),
    ({"card": "Smirking Ridgeback", "situation": {"hand": -1}}, "situation.hand", "cannot be negative"),
    ({"card": "Smirking Ridgeback", "situation": {"at": {"tucked": -3}}}, "situation.at.tucked",
     "cannot be negative"),
    ({"card": "Smirking Ridgeback", "situation": {"dragons": [dict(others(1)[0], eggs=-1)]}},
     "situation.dragons[0].eggs", "cannot be negative"),
    ({"card": "Smirking Ridgeback", "situation": {"at": {"eggs": 2}}}, "situation.at.eggs",
     "has room for 1 egg(s)"),
    ({"card": "Smirking Ridgeback", "situation": {"players": True}}, "situation.players", "expected a whole number"),
    ({"card": "Smirking Ridgeback", "situation": {"players": 6}}, "situation.players", "at most 5"),
    ({"card": "Smirking Ridgeback", "situation": {"players": 1}}, "situation.players", "cannot be less than 2"),
    ({"card": "Smirking Ridgeback", "situation": {"resources": {"gems": 1}}}, "situation.resources.gems",
     "is not a resource"),
    ({"card": "Smirking Ridgeback", "situation": {"at": {"fed": 1}}}, "situation.at.fed", "is not a hatchling"),
    ({"card": "Smirking Ridgeback", "situation": {"at": {"training_tokens": 1}}}, "situation.at.training_tokens",
     "is not a fledgling"),
    ({"card": "Smirking Ridgeback", "situation": {"hand": ["Smirking Ridgeback"]}}, "situation.hand[0]",
     "already used at situation.at"),
    ({"card": "Smirking Ridgeback", "situation": {"dragons": [
        {"card": "Weary Gryphdragon", "cave": "crimson_cavern", "column": 1}]}},
     "situation.dragons[0].column", "already holds the dragon at situation.at"),
    ({"card": "Smirking Ridgeback", "situation": {"excavated": {"crimson_cavern": 1}, "dragons": [
        {"card": "Weary Gryphdragon", "cave": "crimson_cavern", "column": 3}]}},
     "situation.excavated.crimson_cavern", "a dragon sits in column 3"),
    ({"card": "cave 1", "situation": {"at": {"column": 1}}}, "situation.at.column", "column 1 needs no cave card"),
    ({"card": "guild 6", "situation": {"academy": False}}, "situation.academy", "is a Dragon Academy tile"),
    ({"card": "Smirking Ridgeback", "situation": {"hand": ["119 original"]}}, "situation.hand[0]",
     "is not among this game's cards: it is the original printing, and this game uses the updated one"),
    ({"card": "Smirking Ridgeback", "situation": {"academy": False, "hand": ["Euphonious Fae"]}}, "situation.hand[0]",
     "is not among this game's cards: it is a Dragon Academy card"),
    ({"card": "Euphonious Fae", "situation": {"academy": False}}, "situation.academy",
     "Euphonious Fae is a Dragon Academy card"),
    ({"card": "Calm Loch Serpent", "situation": SERPENT_SITUATION,
      "decisions": [{"kind": "yes", "args": []}, {"kind": "egg_on", "args": [5]}]},
     "decisions[1]", "You tried 'Lay on Golden Grotto space 2', but an egg can only be laid in an empty nest"),
    ({"card": "Smirking Ridgeback", "decisions": [{"kind": "egg_on", "args": [0]}]}, "decisions[0]",
     "You tried 'Lay on Crimson Cavern space 1', but now the game asks player 1: Use Smirking Ridgeback"),
    ({"card": "Smirking Ridgeback", "decisions": [{"kind": 3}]}, "decisions[0]", "a decision is an object"),
    ({"card": "Smirking Ridgeback", "decisions": [{"kind": "yes", "args": []}, {"kind": "yes", "args": []}]},
     "decisions[1]", "the ability is already over"),
    ({"card": "Smirking Ridgeback", "decisions": "yes"}, "decisions", "expected a list"),
    ({"card": "Smirking Ridgeback", "auto": "please"}, "auto", "expected true or false"),
]


@pytest.mark.parametrize("body, field, message", BAD, ids=[f"{b[1]}-{i}" for i, b in enumerate(BAD)])
def test_bad_check_is_refused_naming_the_field_and_changes_nothing(check, body, field, message):
    good = {"card": "Calm Loch Serpent", "situation": SERPENT_SITUATION, "auto": True}
    status, before = check(good)
    assert status == 200
    counts = rows()
    status, answer = check(body)
    assert status == 400, answer
    assert answer["field"] == field
    assert message in answer["detail"]
    assert rows() == counts
    assert check(good) == (200, before)


def test_a_body_that_is_not_an_object_is_refused(client, catalogue):
    response = client.post("/api/checker/", data=json.dumps(["card"]), content_type="application/json")
    assert response.status_code == 400
    assert response.json()["field"] == "body"


def test_text_that_is_not_json_is_refused(client, catalogue):
    response = client.post("/api/checker/", data="{card:", content_type="application/json")
    assert response.status_code == 400
    assert "JSON" in response.json()["detail"]


def test_card_lookup_without_a_card_is_refused(client, catalogue):
    response = client.get("/api/checker/")
    assert response.status_code == 400
    assert response.json()["field"] == "card"


def test_card_lookup_of_an_unknown_card_is_refused(client, catalogue):
    response = client.get("/api/checker/", {"card": "Nobody"})
    assert response.status_code == 400
    assert response.json() == {"detail": "card: no dragon is called 'Nobody'", "code": "invalid", "field": "card",
                               "errors": {"card": ["no dragon is called 'Nobody'"]}}


def test_a_pick_whose_place_is_a_number_is_refused_not_a_crash(check):
    status, answer = check({"card": "1", "decisions": [{"kind": "pick", "args": [1, "dragon", 5]}]})
    assert status == 400, answer
    assert answer["field"] == "decisions[0]"
    assert answer["detail"].startswith("decisions[0]: You tried 'pick 1 dragon 5'")

"""Real catalogue cards run through POST /api/checker/: the outcomes a player would work out by hand."""
import pytest

from cardsite.catalogue.models import Dragon

from .conftest import asked, change, changes, offered, option

pytestmark = pytest.mark.django_db


# -- hatchlings ----------------------------------------------------------------------------------------------

GRAZER = "White-Bellied Grazer"  # golden grotto; caches milk here when activated; grows up: lay 2 eggs


def test_hatchlings_third_feed_grows_it_up_and_runs_both_benefits(checked):
    result = checked({"card": GRAZER, "ability": 0, "situation": {"at": {"fed": 2}, "nest_eggs": 0},
                      "auto": True})
    assert result["finished"]
    assert change(result, "fed") == (2, 3)
    assert change(result, "grown up") == (False, True)
    assert change(result, "milk cached", GRAZER) == (0, 1)
    assert change(result, "milk") == (1, 0)
    assert change(result, "cave cards in hand") == (2, 3)  # the feeding benefit: gain 1 cave card
    assert change(result, "eggs in the nests") == (0, 2)  # growing up: lay 2 eggs
    assert offered(result, "on_grow_up") == 1


def test_hatchling_that_already_grew_up_only_gets_the_feeding_benefit(checked):
    result = checked({"card": GRAZER, "ability": 0, "situation": {"at": {"fed": 3}, "nest_eggs": 0},
                      "auto": True})
    assert change(result, "fed") == (3, 4)
    assert change(result, "grown up") is None
    assert change(result, "cave cards in hand") == (2, 3)
    assert offered(result, "on_grow_up") == 0
    assert change(result, "eggs in the nests") is None


def test_hatchlings_first_feed_does_not_grow_it_up(checked):
    result = checked({"card": GRAZER, "ability": 0, "situation": {"at": {"fed": 0}}, "auto": True})
    assert change(result, "fed") == (0, 1)
    assert change(result, "grown up") is None
    assert change(result, "cave cards in hand") == (2, 3)  # fed: the feeding benefit still comes
    assert offered(result, "on_grow_up") == 0


def test_choosing_the_grow_up_ability_feeds_the_hatchling_once(checked):
    result = checked({"card": GRAZER, "ability": 2, "situation": {"at": {"fed": 2}, "nest_eggs": 0}, "auto": True})
    assert any("third feeding" in n for n in result["notes"])
    assert change(result, "fed") == (2, 3)
    assert change(result, "eggs in the nests") == (0, 2)
    assert change(result, "milk") is None  # the checker feeds it; no ability cached from the supply


# -- Smirking Ridgeback ----------------------------------------------------------------------------------------

RIDGEBACK = "Smirking Ridgeback"  # playful, crimson cavern: once per round tuck from the deck under each playful
                                  # dragon in this cave


def test_smirking_ridgeback_tucks_under_itself(checked):
    result = checked({"card": RIDGEBACK, "decisions": [{"kind": "yes", "args": []}]})
    assert result["finished"]
    assert change(result, "tucked", RIDGEBACK) == (0, 1)
    moved = [t for t in changes(result) if "the deck → tucked under Smirking Ridgeback" in t]
    assert len(moved) == 1


def test_smirking_ridgeback_tucks_under_each_playful_dragon_in_its_cave_only(checked):
    situation = {"at": {"column": 2}, "dragons": [
        {"card": "Spry Horned Lung Dragon", "cave": "crimson_cavern", "column": 1},  # playful, same cave
        {"card": "Stealthy Rufftail", "cave": "crimson_cavern", "column": 3},  # shy, same cave
        {"card": "Red-Crested Gryphdragon", "cave": "golden_grotto", "column": 1},  # playful, other cave
    ]}
    result = checked({"card": RIDGEBACK, "situation": situation, "decisions": [{"kind": "yes", "args": []}]})
    assert change(result, "tucked", RIDGEBACK) == (0, 1)
    assert change(result, "tucked", "Spry Horned Lung Dragon") == (0, 1)
    assert change(result, "tucked", "Stealthy Rufftail") is None
    assert change(result, "tucked", "Red-Crested Gryphdragon") is None
    assert result["pending"] is None


def test_declining_the_ability_changes_nothing(checked):
    result = checked({"card": RIDGEBACK, "decisions": [{"kind": "no", "args": []}]})
    assert result["finished"]
    assert changes(result) == []


# -- reveal: both branches -------------------------------------------------------------------------------------

WYRM = "Horned Venomous Wyrm"  # reveal the top card: small -> tuck it here; otherwise discard it and gain 1 milk


def test_reveal_tucks_a_small_card_here(checked):
    result = checked({"card": WYRM, "situation": {"deck_top": ["Aloof Gryphdragon"]}, "auto": True})
    assert change(result, "tucked", WYRM) == (0, 1)
    assert change(result, "milk") is None
    assert any(t.startswith("Aloof Gryphdragon (51): the deck → tucked under Horned Venomous Wyrm")
               for t in changes(result))


def test_reveal_discards_a_larger_card_and_gains_milk(checked):
    result = checked({"card": WYRM, "situation": {"deck_top": ["Spry Horned Lung Dragon"]}, "auto": True})
    assert change(result, "tucked", WYRM) is None
    assert change(result, "milk") == (1, 2)
    assert "Spry Horned Lung Dragon (48): the deck → the discard pile" in changes(result)


def _revealed(result):
    moved = [c for step in result["steps"] for c in step["changes"]
             if c["what"] == "card" and c["before"] == "the deck"]
    assert len(moved) == 1, moved
    number = int(moved[0]["text"].split("(")[1].split(")")[0])
    return Dragon.objects.get(number=number, printing="original"), moved[0]["after"]


def test_reveal_follows_the_shuffle_of_a_fixed_seed_and_both_branches_occur(checked):
    branches = set()
    for seed in range(1, 13):
        body = {"card": WYRM, "situation": {"seed": seed}, "auto": True}
        result = checked(body)
        assert checked(body) == result  # the same seed and decisions give the same run
        card, where = _revealed(result)
        if card.size == "small":
            assert where.startswith("tucked under Horned Venomous Wyrm")
            assert change(result, "milk") is None
            branches.add("tuck")
        else:
            assert where == "the discard pile"
            assert change(result, "milk") == (1, 2)
            branches.add("milk")
    assert branches == {"tuck", "milk"}


# -- what may and may not happen ---------------------------------------------------------------------------------

SERPENT = "Calm Loch Serpent"  # if activated: lay 1 egg on a dragon in this cave


def serpent_situation():
    return {"at": {"cave": "golden_grotto", "column": 1}, "nest_eggs": 0, "dragons": [
        {"card": "Primordiasaur", "cave": "golden_grotto", "column": 2, "eggs": 3},  # nest full
        {"card": "Green Ghost", "cave": "golden_grotto", "column": 3},
        {"card": "Weary Gryphdragon", "cave": "crimson_cavern", "column": 1},  # another cave
    ]}


def test_pending_decision_lists_every_legal_option_and_the_refused_ones_with_reasons(checked):
    result = checked({"card": SERPENT, "situation": serpent_situation(), "decisions": [{"kind": "yes", "args": []}]})
    pending = result["pending"]
    assert pending["kind"] == "lay_egg" and pending["data"] == {"left": 1}
    assert [(o["kind"], o["args"], o["dragon"]) for o in pending["options"]] == [
        ("egg_on", [4], SERPENT), ("egg_on", [6], "Green Ghost")]
    refused = {tuple(n["args"]): n for n in pending["not_allowed"]}
    assert set(refused) == {(-1,), (5,), (0,)}
    full = refused[(5,)]
    assert full["reason"].startswith("You tried 'Lay on Golden Grotto space 2', but")
    assert full["hint"] == "Primordiasaur's nest is full (3 of 3)"
    assert refused[(0,)]["hint"] == "this ability does not lay eggs on Weary Gryphdragon"


def test_pending_question_and_options_come_as_data(checked):
    result = checked({"card": SERPENT, "situation": serpent_situation(), "decisions": [{"kind": "yes", "args": []}]})
    pending = result["pending"]
    assert (pending["kind"], pending["data"]) == ("lay_egg", {"left": 1})
    infos = [o["info"] for o in pending["options"]]
    assert [(i["space"], i["card"]["name"], i["gain"], i["cost"]) for i in infos] == [
        ({"cave": 1, "column": 0}, SERPENT, {"egg": 1}, {}), ({"cave": 1, "column": 2}, "Green Ghost", {"egg": 1}, {})]
    assert [o["price"] for o in pending["options"]] == ["gives 1 egg", "gives 1 egg"]
    said_yes = result["steps"][1]
    assert said_yes["kind"] == "use_ability" and said_yes["data"]["card"]["name"] == SERPENT
    assert said_yes["data"]["ability"] == "if_activated" and said_yes["data"]["effect"]["do"] == "lay_egg"


def test_clicking_a_legal_option_steps_forward(checked):
    first = checked({"card": SERPENT, "situation": serpent_situation(), "decisions": [{"kind": "yes", "args": []}]})
    chosen = option(first, "egg_on", 6)
    result = checked({"card": SERPENT, "situation": serpent_situation(),
                      "decisions": [{"kind": "yes", "args": []}, chosen]})
    assert result["finished"]
    assert change(result, "eggs", "Green Ghost") == (0, 1)
    assert result["steps"][-1]["label"] == "Lay on Golden Grotto space 3 (Green Ghost)"


def test_resolve_with_first_option_returns_the_whole_path(checked):
    result = checked({"card": SERPENT, "situation": serpent_situation(), "auto": True})
    assert result["finished"]
    assert result["decisions"] == [{"kind": "yes", "args": []}, {"kind": "egg_on", "args": [4]}]
    assert change(result, "eggs", SERPENT) == (0, 1)


# -- other kinds of cards ----------------------------------------------------------------------------------------

def test_untrained_fledgling_offers_training_instead_of_its_ability(checked):
    result = checked({"card": "Curious Feline Dragonette", "auto": True})
    assert any("inactive" in n for n in result["notes"])
    assert change(result, "training tokens") == (0, 1)
    assert change(result, "milk") == (1, 0)  # its first training box is milk


def test_fully_trained_fledgling_runs_its_own_ability(checked):
    result = checked({"card": "Curious Feline Dragonette", "situation": {"at": {"training_tokens": 2}},
                      "auto": True})
    assert not any("inactive" in n for n in result["notes"])
    assert change(result, "training tokens") is None
    cached = sum(after - before for before, after in
                 filter(None, (change(result, f"{r} cached") for r in ("meat", "gold", "crystal", "milk"))))
    assert cached == 2  # cache 2 resources from the general supply


def test_cave_card_in_the_fourth_column_asks_which_benefit_comes_first(checked):
    result = checked({"card": "cave 1", "situation": {"at": {"cave": "golden_grotto", "column": 4}}})
    assert result["pending"]["kind"] == "cave_order" and result["pending"]["data"]["card"]["number"] == 1
    assert "cave card 1: your hand → your mat (Golden Grotto 4)" in changes(result)


def test_cave_card_in_the_second_column_has_no_ordering_question(checked):
    result = checked({"card": "cave 1", "situation": {"at": {"cave": "golden_grotto", "column": 2}}, "auto": True})
    assert result["finished"] and "cave_order" not in [kind for kind, data in asked(result)]


def test_guild_row_places_a_marker_and_gives_its_benefit(checked):
    result = checked({"card": "guild 1", "ability": 2, "situation": {"nest_eggs": 0}, "auto": True})
    assert change(result, "guild markers") == (0, 1)
    assert change(result, "coins") == (6, 7)
    assert change(result, "eggs in the nests") == (0, 2)


def test_ability_text_links_its_words_to_the_rules_reference(checked):
    result = checked({"card": RIDGEBACK})
    urls = {r["word"]: r["url"] for r in result["ability"]["rules"]}
    assert urls["tuck"] == "/rules/#tuck"
    assert urls["once_per_round"] == "/rules/#once-per-round"
    assert "icon-dragon" in result["ability"]["html"]


def test_card_lookup_lists_the_abilities(client, catalogue):
    response = client.get("/api/checker/", {"card": "1"})
    assert response.status_code == 200
    body = response.json()
    assert body["name"] == GRAZER
    assert [a["kind"] for a in body["abilities"]] == ["if_activated", "on_feed", "on_grow_up"]


def test_each_opponent_decides_their_share_in_turn(checked):
    result = checked({"card": "Subterranean Basilisk", "situation": {"players": 3, "nest_eggs": 0}, "auto": True})
    offers = [(step["who"], step["data"]["card"]["name"]) for step in result["steps"]
              if step["kind"] == "opponent_offer"]
    assert offers == [("Opponent 1", "Subterranean Basilisk"), ("Opponent 2", "Subterranean Basilisk")]
    assert change(result, "eggs in the nests") == (0, 2)
    assert change(result, "eggs in the nests", seat=1) == (1, 2)
    assert change(result, "eggs in the nests", seat=2) == (1, 2)


def test_declined_share_leaves_that_opponent_unchanged(checked):
    first = checked({"card": "Subterranean Basilisk", "situation": {"players": 2, "nest_eggs": 0}, "auto": True})
    decisions = first["decisions"][:-1] + [{"kind": "no", "args": []}]
    result = checked({"card": "Subterranean Basilisk", "situation": {"players": 2, "nest_eggs": 0},
                      "decisions": decisions})
    assert result["finished"]
    assert change(result, "eggs in the nests", seat=1) is None


def test_ability_that_cannot_act_is_skipped_without_a_question(checked):
    result = checked({"card": "Tranquil Wyrm", "situation": {"coins": 0}})  # pay 1 coin to lay 3 eggs
    assert result["finished"]
    assert len(result["steps"]) == 1
    assert any("cannot do anything" in n for n in result["notes"])


def test_checker_runs_the_catalogue_as_it_is_in_the_database(checked):
    before = checked({"card": RIDGEBACK, "auto": True})
    assert change(before, "coins") is None
    card = Dragon.objects.get(number=130, printing="original")
    card.abilities = [{"kind": "once_per_round", "effect": {"do": "gain", "item": "coin", "count": 2}}]
    card.save()  # as an admin edit does: the catalogue version moves on
    after = checked({"card": RIDGEBACK, "auto": True})
    assert change(after, "coins") == (6, 8)
    assert change(after, "tucked", RIDGEBACK) is None


def test_choose_options_say_what_they_do(checked):
    # Euphonious Fae: tuck a card from hand here; each feeding lets you choose 1 milk or 1 meat.
    first = checked({"card": "Euphonious Fae", "auto": True})
    chooses = [i for i, d in enumerate(first["decisions"]) if d["kind"] == "choose"]
    assert chooses
    result = checked({"card": "Euphonious Fae", "decisions": first["decisions"][:chooses[0]]})
    assert [o["label"] for o in result["pending"]["options"]] == ["Gain 1 milk", "Gain 1 meat"]
    meat = checked({"card": "Euphonious Fae", "decisions": first["decisions"][:chooses[0]] + [
        {"kind": "choose", "args": [1]}]})
    assert meat["steps"][-1]["label"] == "Gain 1 meat"
    assert change(meat, "meat") == (1, 2)

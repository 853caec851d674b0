"""Dragons 1-92 (base game; 1-35 are hatchlings): their abilities validate and say what the printed cards say."""
import json
import re
from pathlib import Path

import pytest

from game.language.render import render_abilities
from game.language.schema import PRINTED_KINDS, validate_abilities

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "dragons-001-092.json"
SCORING_HATCHLINGS = {17, 18, 29}  # an end-game line instead of a feed benefit
REFERENCE_KINDS = {"Adventurer": "if_activated", "WhenPlayed": "when_played", "OncePerRound": "once_per_round",
                   "EndGame": "end_game"}


def load_dragons():
    with open(FIXTURE) as f:
        return {rec["number"]: rec for rec in json.load(f)["dragons"]}


DRAGONS = load_dragons()


def kinds(rec):
    return [ability["kind"] for ability in rec["abilities"]]


def ability(rec, kind):
    (found,) = [a for a in rec["abilities"] if a["kind"] == kind]
    return found


def tokens(node):
    """A flat, order-free summary of an effect tree: one short word per action, enough to tell cards apart."""
    found = set()

    def amount(value):
        return "x" + (str(value) if isinstance(value, int) else value["what"])

    def place(target):
        return (target or {}).get("scope", "mat") + (" each" if (target or {}).get("each") else "")

    def item(value):
        return value if isinstance(value, str) else "$" + value["var"]

    def walk(n):
        word = n["do"]
        if word == "gain":
            found.add(f"gain {item(n['item'])} {amount(n.get('count', 1))}")
        elif word == "lay_egg":
            found.add(f"lay_egg {amount(n.get('count', 1))} {place(n.get('on'))}")
        elif word == "cache":
            found.add(f"cache {item(n['item'])} {place(n.get('on'))}")
        elif word == "tuck":
            found.add(f"tuck {item(n.get('from', 'hand'))} {place(n.get('on'))}")
        elif word == "pay":
            for cost in n["cost"]:
                found.add(f"pay {cost['item']} {amount(cost.get('count', 1))}"
                          + (f" {place(cost['on'])}" if "on" in cost else ""))
        elif word == "score":
            found.add(f"score {n['vp']}" + (f" per {n['per']['what']}" if "per" in n else "")
                      + (f" max {n['max']}" if "max" in n else ""))
        elif word in ("excavate", "play_dragon"):
            found.add(f"{word} {n.get('from', 'hand')}" + (" free" if n.get("free") or n.get("cost") == "free" else ""))
        elif word == "activate":
            found.add(f"activate {'/'.join(n['kinds'])}")
        elif word in ("choose", "repeat", "reveal", "distribute", "if", "may"):
            found.add(word)
        for key in ("then", "else", "buys", "if_done", "effect"):
            if key in n:
                walk(n[key])
        for key in ("steps", "options"):
            for sub in n.get(key, []):
                walk(sub)

    walk(node)
    return found


def test_fixture_holds_dragons_1_to_92():
    assert sorted(DRAGONS) == list(range(1, 93))


@pytest.mark.parametrize("number", range(1, 93))
def test_every_dragon_has_abilities_that_validate(number):
    abilities = DRAGONS[number]["abilities"]
    assert abilities, f"dragon {number} has no abilities"
    validate_abilities(abilities, f"dragon {number}")


@pytest.mark.parametrize("number", range(1, 36))
def test_hatchlings_feed_on_their_food_and_grow_up_once(number):
    rec = DRAGONS[number]
    feed = ability(rec, "if_activated")["effect"]
    if rec["feeds_on"] == "card":
        assert feed == {"do": "tuck", "from": "hand", "on": {"scope": "here"}}
    else:
        assert feed == {"do": "cache", "item": rec["feeds_on"], "from": "supply", "on": {"scope": "here"}}
    expected = ["if_activated", "on_grow_up", "end_game"] if number in SCORING_HATCHLINGS else \
        ["if_activated", "on_feed", "on_grow_up"]
    assert sorted(kinds(rec)) == sorted(expected)


@pytest.mark.parametrize("number", range(36, 93))
def test_adult_dragons_have_one_printed_ability(number):
    assert len(kinds(DRAGONS[number])) == 1
    assert kinds(DRAGONS[number])[0] in PRINTED_KINDS


def test_printed_kinds_match_both_reference_transcriptions(shared_data):
    with open(shared_data / "with-academy" / "cards.json") as f:
        academy = {c["number"]: c for c in json.load(f)
                   if c["type"] == "Dragon" and c["expansion"] == "base" and c["number"] <= 92}
    with open(shared_data / "base-game" / "dragon_cards.json") as f:
        base = {c["number"]: c for c in json.load(f)[1:93]}
    wrong = []
    for number, rec in DRAGONS.items():
        ours = set(kinds(rec))
        theirs = {REFERENCE_KINDS[k.strip()] for k in academy[number]["abilityType"].split(",")}
        # base-game lists the hatchling lines as keys; it leaves out the end-game line of 17, 18 and 29
        base_kinds = {k for k in ("when_played", "if_activated", "once_per_round", "end_game", "on_feed",
                                  "on_grow_up") if k in base[number]}
        if number in SCORING_HATCHLINGS:
            base_kinds.add("end_game")
        if ours & set(PRINTED_KINDS) != theirs or ours != base_kinds:
            wrong.append((number, sorted(ours), sorted(theirs), sorted(base_kinds)))
    assert wrong == []


def test_victory_points_match_the_printed_vp_icons(shared_data):
    """Every [VP-n] icon in the reference text is a score or a cap in our encoding, and nothing else is."""
    with open(shared_data / "base-game" / "dragon_cards.json") as f:
        texts = {c["number"]: c["ability_text"] for c in json.load(f)[1:93]}
    wrong = []
    for number, rec in DRAGONS.items():
        printed = {int(n) for n in re.findall(r"\[VP-(\d+)\]", texts[number])}
        ours = set()
        for ab in rec["abilities"]:
            for token in tokens(ab["effect"]):
                if token.startswith("score "):
                    words = token.split()
                    ours.add(int(words[1]))
                    if "max" in words:
                        ours.add(int(words[words.index("max") + 1]))
        if printed != ours:
            wrong.append((number, sorted(printed), sorted(ours)))
    assert wrong == []


SPOT_CHECKS = [
    # number, kind, tokens of the owner's effect, tokens of the opponents' part (None: no part for them)
    (1, "on_feed", {"gain cave x1"}, None),
    (1, "on_grow_up", {"lay_egg x2 mat"}, None),
    (2, "on_feed", {"lay_egg x1 mat"}, None),
    (5, "on_grow_up", {"gain gold x1", "gain crystal x1", "gain meat x1"}, None),
    (8, "on_grow_up", {"gain dragon x1", "gain guild x1"}, None),
    (10, "on_grow_up", {"excavate hand free"}, None),
    (17, "end_game", {"score 1 per cached"}, None),
    (18, "end_game", {"score 1 per tucked"}, None),
    (22, "if_activated", {"tuck hand here"}, None),
    (29, "on_grow_up", {"gain coin x1"}, None),
    (36, "if_activated", {"pay dragon x1", "gain any_resource x1"}, None),
    (37, "when_played", {"lay_egg x2 mat"}, {"lay_egg x1 mat"}),
    (42, "end_game", {"score 3 per dragons"}, None),
    (45, "if_activated", {"pay coin x1", "lay_egg x3 mat"}, None),
    (52, "end_game", {"score 2 per dragons max 8"}, None),
    (55, "if_activated", {"lay_egg x1 cave"}, None),
    (57, "when_played", {"gain guild x2"}, {"gain guild x1"}),
    (58, "if_activated", {"reveal", "tuck $it here", "gain $it x1"}, None),
    (61, "if_activated", {"pay egg x2 adjacent", "gain guild x2"}, None),
    (63, "once_per_round", {"tuck hand here", "lay_egg x1 here"}, None),
    (64, "when_played", {"excavate display free"}, None),
    (65, "when_played", {"pay cave x2", "play_dragon hand free"}, None),
    (67, "if_activated", {"pay egg x1 cave", "choose", "gain dragon x1", "gain guild x1", "gain cave x1",
                          "gain any_resource x1"}, None),
    (68, "if_activated", {"reveal", "tuck $it here", "gain meat x1"}, None),
    (69, "once_per_round", {"gain dragon xdragons", "distribute"}, None),
    (70, "once_per_round", {"repeat", "pay any_resource x1", "lay_egg x1 mat"},
     {"pay any_resource x1", "lay_egg x1 mat"}),
    (73, "if_activated", {"pay cave x1", "activate if_activated"}, None),
    (76, "when_played", {"pay any_resource x1", "activate when_played"}, None),
    (77, "if_activated", {"gain meat x1", "may", "cache $it here"}, None),
    (79, "once_per_round", {"if", "lay_egg x1 cave each"}, None),
    (80, "if_activated", {"tuck hand here", "gain $tucked_cost x1"}, None),
    (82, "if_activated", {"lay_egg x1 column"}, None),
    (85, "when_played", {"gain crystal x2"}, {"gain crystal x1"}),
    (86, "end_game", {"choose", "pay dragon x1", "score 1", "pay dragon x2", "score 3"}, None),
    (87, "end_game", {"choose", "pay cave x1", "score 1", "pay cave x2", "score 3"}, None),
    (89, "when_played", {"pay any_resource x1", "play_dragon display free"}, None),
    (90, "if_activated", {"pay coin x1", "gain gold x1", "gain crystal x1", "gain meat x1"}, None),
]


@pytest.mark.parametrize("number, kind, effect, others", SPOT_CHECKS, ids=[f"{c[0]}-{c[1]}" for c in SPOT_CHECKS])
def test_spot_check_what_the_ability_does(number, kind, effect, others):
    found = ability(DRAGONS[number], kind)
    assert tokens(found["effect"]) == effect
    if others is None:
        assert "others" not in found
    else:
        assert tokens(found["others"]) == others


def test_ancient_one_offers_two_different_benefits():
    choice = ability(DRAGONS[67], "if_activated")["effect"]["buys"]
    assert (choice["pick"], choice["distinct"], len(choice["options"])) == (2, True, 4)


@pytest.mark.parametrize("number, cond", [
    (39, {"at_least": [{"what": "dragons", "scope": "beside"}, 2]}),
    (46, {"at_least": [{"what": "dragons", "scope": "column"}, 3]}),
    (54, {"equal": [{"what": "dragons", "scope": "cave", "trait": "aggressive"}, 0]}),
    (74, {"at_least": [{"what": "excavated", "scope": "cave"}, 4]}),
    (81, {"equal": [{"what": "dragons", "scope": "right_of"}, 0]}),
])
def test_conditional_end_game_scores_test_the_printed_condition(number, cond):
    assert ability(DRAGONS[number], "end_game")["effect"]["cond"] == cond


@pytest.mark.parametrize("number, per", [
    (41, {"what": "objectives_lowest"}),
    (42, {"what": "dragons", "scope": "cave", "other": True}),
    (44, {"what": "guild_markers"}),
    (49, {"what": "trait_sets"}),
    (51, {"what": "dragons", "scope": "adjacent", "trait": "shy"}),
    (52, {"what": "dragons", "kind": "once_per_round"}),
    (59, {"what": "dragons", "scope": "cave", "trait": "shy", "other": True}),
    (71, {"what": "dragons", "kind": "when_played"}),
])
def test_counting_end_game_scores_count_the_printed_thing(number, per):
    assert ability(DRAGONS[number], "end_game")["effect"]["per"] == per


def test_ordinary_resplendent_coatl_needs_all_three_sizes_in_its_cave():
    cond = ability(DRAGONS[91], "end_game")["effect"]["cond"]
    sizes = {part["at_least"][0]["size"] for part in cond["all"]}
    assert sizes == {"hatchling", "small", "large"}
    assert all(part["at_least"][0]["scope"] == "cave" and part["at_least"][1] == 1 for part in cond["all"])


def test_owlatic_amphiptere_compares_golden_grottos_with_the_left_neighbour():
    effect = ability(DRAGONS[47], "if_activated")["effect"]
    mine, theirs = effect["cond"]["at_least"]
    assert mine == {"what": "dragons", "cave": "golden_grotto"}
    assert theirs == {"what": "dragons", "cave": "golden_grotto", "of": "left_neighbour"}
    assert effect["then"] == {"do": "gain", "item": "dragon"}


@pytest.mark.parametrize("number", range(1, 93))
def test_every_dragon_renders_to_plain_words(number):
    text = render_abilities(DRAGONS[number]["abilities"], DRAGONS[number])
    assert text and not re.search(r"[{}\[\]\x00-\x1f]|None|_", text), text


@pytest.mark.parametrize("number, words", [
    (22, ["from your hand"]),
    (37, ["Each opponent"]),
    (58, ["hatchling", "hand"]),
    (68, ["large", "discard", "meat"]),
    (81, ["right"]),
    (86, ["2 dragon cards", "3 VP"]),
])
def test_rendered_text_carries_the_card_meaning(number, words):
    text = render_abilities(DRAGONS[number]["abilities"], DRAGONS[number])
    assert [w for w in words if w not in text] == [], text

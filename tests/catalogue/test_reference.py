"""Our catalogue, card by card, against both reference transcriptions in ../shared/data (skipped without them).

Every difference must be listed in KNOWN_DIFFERENCES with the reason; docs/catalogue.md explains each choice.
A listed difference that no longer occurs fails too, so the list stays true.
"""
import json
import re

import pytest

from cardsite.catalogue.models import CAVES, CaveCard, Dragon, Printing

KINDS = ("when_played", "if_activated", "once_per_round", "end_game")
ABILITY_TYPES = {"WhenPlayed": "when_played", "Adventurer": "if_activated", "OncePerRound": "once_per_round",
                 "EndGame": "end_game"}
UPDATED_DRAGONS = (119, 124, 131, 132, 134)
UPDATED_CAVES = (50, 51)
FLEDGLINGS = tuple(range(184, 224))
ACADEMY_HATCHLINGS = (224, 225, 226, 227, 228)
TRAINING_WORDS = {"Milk": "milk", "Meat": "meat", "Gold": "gold", "Crystal": "crystal", "Coin": "coin",
                  "Egg": "egg", "DragonCard": "dragon", "CaveCard": "cave", "AnyResource": "any_resource"}

# (source, kind of card, numbers, field) -> why we differ. Sources: "base-game" and "with-academy".
KNOWN_DIFFERENCES = {
    ("with-academy", "dragon", FLEDGLINGS, "vp"):
        "fledglings print no VP: each scores 1 per fledgling on the mat (Dragon Academy rules), so we store 0",
    ("with-academy", "dragon", ACADEMY_HATCHLINGS, "capacity"):
        "no hatchling has a nest (every base hatchling in both transcriptions, and hatchlings grow up rather than "
        "hold eggs); the 1 for these five alone is taken as a transcription slip, as DISAGREEMENTS.md suspects",
    ("with-academy", "dragon", (186, 187), "kinds"):
        "with-academy says when played, but a fledgling's purple ability can only be if activated, once per round "
        "or end game (Dragon Academy rules), and a fledgling is trained only after it is played; we store if activated",
    ("with-academy", "dragon", UPDATED_DRAGONS, "expansion"):
        "with-academy files the reprints under base, as the cards they replace; our updated printing belongs to the "
        "Dragon Academy box it comes in, and links to the base original",
    ("with-academy", "cave", UPDATED_CAVES, "expansion"):
        "as for the dragons: the reprinted caves come in the Dragon Academy box",
    ("with-academy", "cave", (9,), "offers_guild"):
        "cave 9: base-game reads cave card + guild advancement, with-academy cave card + resource; we follow "
        "base-game (see docs/catalogue.md)",
}


def load(shared_data, name):
    return json.loads((shared_data / name).read_text())


def kinds_of(card):
    return {kind for kind in KINDS if getattr(card, f"has_{kind}")}


def words_in(node, found=None):
    """Every (word, item) pair in an effect tree, to ask simple questions of its meaning."""
    found = set() if found is None else found
    if isinstance(node, dict):
        if "do" in node:
            found.add((node["do"], node.get("item") if isinstance(node.get("item"), str) else None))
        for value in node.values():
            words_in(value, found)
    elif isinstance(node, list):
        for value in node:
            words_in(value, found)
    return found


def offers_guild(abilities):
    return any(word == "gain" and item == "guild" for word, item in words_in(abilities))


class Differences:
    def __init__(self):
        self.found = []
        self.skipped_kinds = []

    def compare(self, source, kind, number, field, ours, theirs):
        if ours != theirs:
            self.found.append((source, kind, number, field, ours, theirs))

    def unexplained(self):
        return [d for d in self.found if not any(
            (d[0], d[1], d[3]) == (source, kind, field) and d[2] in numbers
            for source, kind, numbers, field in KNOWN_DIFFERENCES)]

    def stale(self):
        return [key for key in KNOWN_DIFFERENCES if not any(
            (d[0], d[1], d[3]) == (key[0], key[1], key[3]) and d[2] in key[2] for d in self.found)]


def ours_by_number(model, printing):
    return {card.number: card for card in model.objects.filter(printing=printing).select_related("expansion")}


def compare_base_game(shared_data, diffs):
    dragons = ours_by_number(Dragon, Printing.ORIGINAL)
    for ref in load(shared_data, "base-game/dragon_cards.json")[1:]:
        ours = dragons[ref["number"]]
        n = ref["number"]
        diffs.compare("base-game", "dragon", n, "name", ours.name, ref["name"])
        diffs.compare("base-game", "dragon", n, "vp", ours.vp, ref["VP"])
        diffs.compare("base-game", "dragon", n, "size", ours.size, ref["size"].lower())
        diffs.compare("base-game", "dragon", n, "trait", ours.trait, ref["personality"].lower())
        diffs.compare("base-game", "dragon", n, "capacity", ours.capacity, ref["capacity"])
        for item in ("meat", "gold", "crystal", "milk", "coin", "egg"):
            diffs.compare("base-game", "dragon", n, f"cost_{item}", getattr(ours, f"cost_{item}"), ref[f"{item}_cost"])
        diffs.compare("base-game", "dragon", n, "habitats", ours.habitats, [c for c in CAVES if ref[c]])
        diffs.compare("base-game", "dragon", n, "expansion", ours.expansion.slug, "base")
        if ours.size == "hatchling":
            diffs.compare("base-game", "dragon", n, "feeds_on", ours.feeds_on, hatchling_food(ref))
        if not ours.abilities:
            diffs.skipped_kinds.append(("dragon", n))
            continue
        diffs.compare("base-game", "dragon", n, "kinds", kinds_of(ours), {k for k in KINDS if k in ref})
        diffs.compare("base-game", "dragon", n, "offers_guild", offers_guild(ours.abilities),
                      "gain_guild" in json.dumps({k: ref[k] for k in KINDS + ("on_feed", "on_grow_up") if k in ref}))
    caves = ours_by_number(CaveCard, Printing.ORIGINAL)
    for ref in load(shared_data, "base-game/cave_cards.json")[1:]:
        ours, n = caves[ref["number"]], ref["number"]
        if not ours.abilities:
            diffs.skipped_kinds.append(("cave", n))
            continue
        diffs.compare("base-game", "cave", n, "kinds", {a["kind"] for a in ours.abilities}, {"when_played"})
        diffs.compare("base-game", "cave", n, "offers_guild", offers_guild(ours.abilities),
                      "gain_guild" in json.dumps(ref["when_played"]))


def hatchling_food(ref):
    text = json.dumps(ref.get("if_activated", {}))
    if "tuck" in text:
        return "card"
    return "meat" if '"meat"' in text else "milk"


def academy_training(ability):
    head = ability.split("<br>")[0] if "<br>" in ability else ""
    return [TRAINING_WORDS[word] for word in re.findall(r"\[(\w+)\]", head)]


def compare_with_academy(shared_data, diffs):
    originals = {"dragon": ours_by_number(Dragon, Printing.ORIGINAL), "cave": ours_by_number(CaveCard, Printing.ORIGINAL)}
    updated = {"dragon": ours_by_number(Dragon, Printing.UPDATED), "cave": ours_by_number(CaveCard, Printing.UPDATED)}
    seen = {"dragon": set(), "cave": set()}
    for ref in load(shared_data, "with-academy/cards.json"):
        kind, n = ref["type"].lower(), ref["number"]
        seen[kind].add(n)
        # with-academy's base entries for these cards are the Dragon Academy updated printings
        is_updated = (kind == "dragon" and n in UPDATED_DRAGONS) or (kind == "cave" and n in UPDATED_CAVES)
        ours = (updated if is_updated else originals)[kind][n]
        diffs.compare("with-academy", kind, n, "expansion", ours.expansion.slug, ref["expansion"])
        if kind == "dragon":
            diffs.compare("with-academy", kind, n, "name", ours.name, ref["name"])
            diffs.compare("with-academy", kind, n, "vp", ours.vp, int(ref["VP"] or 0))
            diffs.compare("with-academy", kind, n, "size", ours.size, ref["size"].lower())
            diffs.compare("with-academy", kind, n, "trait", ours.trait, ref["personality"].lower())
            diffs.compare("with-academy", kind, n, "capacity", ours.capacity, int(ref["capacity"] or 0))
            for item in ("meat", "gold", "crystal", "milk", "coin", "egg"):
                diffs.compare("with-academy", kind, n, f"cost_{item}", getattr(ours, f"cost_{item}"),
                              int(ref[item.capitalize()] or 0))
            diffs.compare("with-academy", kind, n, "habitats", ours.habitats,
                          [c for c in CAVES if ref[c.replace("_", " ").title()] == "x"])
            diffs.compare("with-academy", kind, n, "conditional_cost", ours.free_if is not None, ref["ignoreCost"] == "x")
            if ours.size == "fledgling":
                diffs.compare("with-academy", kind, n, "training", ours.training, academy_training(ref["ability"]))
        if not ours.abilities:
            diffs.skipped_kinds.append((kind, n))
            continue
        theirs = {ABILITY_TYPES[part.strip()] for part in ref["abilityType"].split(",")}
        diffs.compare("with-academy", kind, n, "kinds", kinds_of(ours) if kind == "dragon"
                      else {a["kind"] for a in ours.abilities}, theirs)
        diffs.compare("with-academy", kind, n, "offers_guild", offers_guild(ours.abilities),
                      "[DragonGuild]" in ref["ability"].split("<br>")[-1])
    diffs.compare("with-academy", "dragon", 0, "numbers", sorted(originals["dragon"]), sorted(seen["dragon"]))
    diffs.compare("with-academy", "cave", 0, "numbers", sorted(originals["cave"]), sorted(seen["cave"]))


@pytest.fixture
def differences(catalogue, shared_data):
    diffs = Differences()
    compare_base_game(shared_data, diffs)
    compare_with_academy(shared_data, diffs)
    return diffs


def test_catalogue_matches_both_transcriptions_but_for_known_differences(differences):
    unexplained = differences.unexplained()
    assert not unexplained, "\n".join(f"{s} {k} {n} {f}: ours {o!r}, theirs {t!r}" for s, k, n, f, o, t in unexplained)


def test_every_known_difference_still_occurs(differences):
    assert not differences.stale()


def test_count_of_cards_whose_abilities_are_not_encoded_yet(differences):
    """Cards with empty abilities skip the kind comparison; the final catalogue has none."""
    skipped = sorted(set(differences.skipped_kinds))
    print(f"ability kinds not compared (abilities empty): {len(skipped)} {skipped[:20]}")
    assert len(skipped) == 0, f"{len(skipped)} cards still have no abilities: {skipped[:20]}"


def test_updated_printings_say_what_changed(catalogue, shared_data):
    """The two printings of cave 50/51 differ exactly by the guild option, as the transcriptions do."""
    for number in UPDATED_CAVES:
        original = CaveCard.objects.get(number=number, printing=Printing.ORIGINAL)
        updated = CaveCard.objects.get(number=number, printing=Printing.UPDATED)
        assert offers_guild(original.abilities) and not offers_guild(updated.abilities)

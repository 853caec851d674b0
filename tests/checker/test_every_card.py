"""Every runnable card and ability goes through the checker's pure layer on the fixture catalogue: it resolves to
the end, refusals never slip through, and replaying the returned decisions reproduces the run exactly."""
import random
from functools import lru_cache

import pytest

from game.checker import resolve
from game.checker.cards import Cards
from tests.engine import invariants
from tests.engine.helpers import real_catalogue


@lru_cache(maxsize=1)
def cards():
    return Cards(real_catalogue())


def every_ability():
    out = []
    for ref in cards().choices():
        subject = cards().subject(ref)
        out += [(ref, a["index"]) for a in cards().abilities(subject)]
    return out


def random_path(ref, index, situation, seed):
    """Take random legal options (not only the first) until the ability is over."""
    rng = random.Random(seed)
    subject = cards().subject(ref)
    decisions = []
    result = resolve.run(cards(), subject, index, situation, decisions)
    while not result["finished"]:
        assert len(decisions) < resolve.AUTO_LIMIT
        options = result["pending"]["options"]
        pick = rng.choice(options)
        decisions.append({"kind": pick["kind"], "args": pick["args"]})
        result = resolve.run(cards(), subject, index, situation, decisions)
    return result


@pytest.mark.parametrize("players", [2, 3])
def test_every_ability_resolves_to_the_end_taking_first_options(players):
    unfinished = []
    for ref, index in every_ability():
        result = resolve.run(cards(), cards().subject(ref), index, {"players": players}, auto=True)
        if not result["finished"]:
            unfinished.append((ref, index))
    assert unfinished == []


def test_random_paths_replay_exactly():
    rng = random.Random(11)
    abilities = every_ability()
    for ref, index in rng.sample(abilities, 120):
        situation = {"players": rng.randint(2, 4), "seed": rng.randint(0, 10 ** 6), "nest_eggs": rng.randint(0, 2),
                     "coins": rng.randint(0, 8), "hand": rng.randint(0, 4),
                     "resources": {r: rng.randint(0, 2) for r in ("meat", "gold", "crystal", "milk")}}
        result = random_path(ref, index, situation, rng.random())
        st, again = resolve.play(cards(), cards().subject(ref), index, situation, result["decisions"])
        assert again == result, (ref, index)
        invariants.check(st, {})  # no count below zero, every card in exactly one place, JSON round trip


BUSY = {"players": 3, "seed": 4, "hand": ["Stoic Gryphdragon", "Good Drake"], "deck_top": ["Aloof Gryphdragon"],
        "dragons": [
            {"card": "Weary Gryphdragon", "cave": "crimson_cavern", "column": 2, "eggs": 2, "tucked": 2,
             "cached": {"meat": 1}},
            {"card": "Green Ghost", "cave": "golden_grotto", "column": 1, "eggs": 1},
            {"card": "Curious Feline Dragonette", "cave": "crimson_cavern", "column": 3, "training_tokens": 1},
            {"card": "Redwood Lung Dragon", "cave": "amethyst_abyss", "column": 4, "fed": 2},
        ]}


@pytest.mark.parametrize("ref", ["Smirking Ridgeback", "119", "119 updated", "cave 50", "cave 50 updated", "guild 2",
                                 "Euphonious Fae"])
def test_built_situations_keep_every_card_in_exactly_one_place(ref):
    subject = cards().subject(ref)
    situation = dict(BUSY, at={"column": 1} if subject.kind == "dragon" else {"column": 2, "cave": "golden_grotto"})
    if subject.kind == "cave":
        situation["dragons"] = [d for d in BUSY["dragons"] if d["cave"] != "golden_grotto"]
    st, result = resolve.play(cards(), subject, 0, situation, auto=True)
    assert result["finished"]
    invariants.check(st, {})

"""Every runnable card and ability goes through the checker's pure layer on the fixture catalogue: it resolves to
the end, refusals never slip through, and replaying the returned decisions reproduces the run exactly."""
import random
from functools import lru_cache

import pytest

from game.checker import resolve
from game.checker.cards import Cards
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


@pytest.mark.parametrize("players", [1, 3])
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
        situation = {"players": rng.randint(1, 4), "seed": rng.randint(0, 10 ** 6), "nest_eggs": rng.randint(0, 2),
                     "coins": rng.randint(0, 8), "hand": rng.randint(0, 4),
                     "resources": {r: rng.randint(0, 2) for r in ("meat", "gold", "crystal", "milk")}}
        result = random_path(ref, index, situation, rng.random())
        again = resolve.run(cards(), cards().subject(ref), index, situation, result["decisions"])
        assert again == result, (ref, index)

"""Every ability of every card in the catalogue runs through the interpreter without error.

Each card is put on a well-stocked mat among other dragons, each of its abilities is fired, and the questions it
asks are answered at random (several seeds) until the game is back at a player's main action.
"""
import random

import pytest

from . import invariants
from .helpers import fire_abilities, real_catalogue, stocked_game

CAT = real_catalogue()


def fire_card(card_index, seed=0):
    """Put the card on seat 0's mat (dragons) or not (caves), fire its abilities, then resolve with random answers."""
    rng = random.Random(seed)
    steps = 0

    def answer(st):
        nonlocal steps
        while st.pending is not None and st.pending.kind != "main_action":
            options = st.legal_options()
            yes = [o for o in options if o.kind == "yes"]
            st.apply(yes[0] if yes and rng.random() < 0.8 else rng.choice(options))
            steps += 1
            assert steps < 500

    if card_index[0] == "dragon":
        st = stocked_game(CAT, seed, dragon=card_index[1])
        abilities, src = CAT.dragons[card_index[1]].abilities, card_index[1]
    else:
        st = stocked_game(CAT, seed)
        abilities, src = CAT.caves[card_index[1]].abilities, -1
    fire_abilities(st, abilities, src, answer)
    return st


DRAGONS = [i for i, d in enumerate(CAT.dragons) if d.abilities]
CAVES = [i for i, c in enumerate(CAT.caves) if c.abilities]


@pytest.mark.parametrize("dragon", DRAGONS, ids=[f"dragon-{CAT.dragons[i].number}-{CAT.dragons[i].printing}"
                                                 for i in DRAGONS])
def test_dragon_abilities_run(dragon):
    for seed in range(3):
        st = fire_card(("dragon", dragon), seed=seed)
        for pl in st.players:
            assert pl.coins >= 0 and min(pl.res) >= 0


@pytest.mark.parametrize("cave", CAVES, ids=[f"cave-{CAT.caves[i].number}-{CAT.caves[i].printing}" for i in CAVES])
def test_cave_abilities_run(cave):
    for seed in range(3):
        memo = {"roundtrip": True}
        st = fire_card(("cave", cave), seed=seed)
        invariants.check(st, memo)

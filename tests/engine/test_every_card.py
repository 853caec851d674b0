"""Every ability of every card in the catalogue runs through the interpreter without error.

Each card is put on a well-stocked mat among other dragons, each of its abilities is fired, and the questions it
asks are answered at random (several seeds) until the game is back at a player's main action.
"""
import random

import pytest

from game.engine.interpreter import push_ability
from game.engine.state import GameState

from . import invariants
from .helpers import real_catalogue

CAT = real_catalogue()


def stocked_game(seed):
    st = GameState.new(CAT, players=3, seed=seed, academy=True)
    while st.pending is not None and st.pending.prompt != "Choose your action":
        st.apply(st.legal_options()[0])
    for pl in st.players:
        pl.coins = 6
        pl.res = [3, 3, 3, 3]
        pl.nest = 2
        pl.hand += [st.dragon_deck.pop() for _ in range(3)]
        pl.caves += [st.cave_deck.pop() for _ in range(3)]
    return st


def fire_card(st, card_index, kind_filter=None, seed=0):
    """Put the card on player 1's mat (dragons) or fire it (caves), then resolve with random answers."""
    rng = random.Random(seed)
    me = st.players[st.current]
    if card_index[0] == "dragon":
        dragon = card_index[1]
        card = CAT.dragons[dragon]
        index = 4 * card.habitats[0] + 1
        for where in (st.dragon_deck, st.dragon_discard, st.display_dragons, *[p.hand for p in st.players]):
            if dragon in where:
                if where is st.display_dragons:
                    where[where.index(dragon)] = None
                else:
                    where.remove(dragon)
                break
        space = me.spaces[index]
        space.cave_card = st.cave_deck.pop()
        space.dragon = dragon
        space.tokens = len(card.training)
        neighbour = me.spaces[index - 1]
        if neighbour.dragon is None:
            neighbour.dragon = st.dragon_deck.pop()
        abilities = card.abilities
        src = dragon
    else:
        abilities = CAT.caves[card_index[1]].abilities
        src = -1
    st.pending = None
    for ability in reversed(abilities):
        push_ability(st, st.current, ability["effect"], ability.get("others"), src=src, kind=ability["kind"])
    st.run()
    steps = 0
    while st.pending is not None and st.pending.prompt != "Choose your action":
        options = st.legal_options()
        yes = [o for o in options if o.kind == "yes"]
        st.apply(yes[0] if yes and rng.random() < 0.8 else rng.choice(options))
        steps += 1
        assert steps < 500


DRAGONS = [i for i, d in enumerate(CAT.dragons) if d.abilities]
CAVES = [i for i, c in enumerate(CAT.caves) if c.abilities]


@pytest.mark.parametrize("dragon", DRAGONS, ids=[f"dragon-{CAT.dragons[i].number}-{CAT.dragons[i].printing}"
                                                 for i in DRAGONS])
def test_dragon_abilities_run(dragon):
    for seed in range(3):
        st = stocked_game(seed)
        fire_card(st, ("dragon", dragon), seed=seed)
        for pl in st.players:
            assert pl.coins >= 0 and min(pl.res) >= 0


@pytest.mark.parametrize("cave", CAVES, ids=[f"cave-{CAT.caves[i].number}-{CAT.caves[i].printing}" for i in CAVES])
def test_cave_abilities_run(cave):
    for seed in range(3):
        st = stocked_game(seed)
        memo = {"roundtrip": True}
        fire_card(st, ("cave", cave), seed=seed)
        invariants.check(st, memo)

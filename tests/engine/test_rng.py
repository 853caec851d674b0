"""The generator: the deck shuffle, which mixes all its draws at once, draws exactly as `below` does one by one."""
import random

import pytest

from game.engine.rng import MASK, Rng


def shuffled_one_draw_at_a_time(rng, items):
    for i in range(len(items) - 1, 0, -1):
        j = rng.below(i + 1)
        items[i], items[j] = items[j], items[i]


SEEDS = [0, 1, 2, 41, 2 ** 63, MASK, MASK - 1] + [random.Random(7).getrandbits(64) for _ in range(40)]


@pytest.mark.parametrize("length", [0, 1, 2, 3, 16, 100, 183, 263])
def test_shuffle_moves_cards_and_the_generator_as_one_draw_at_a_time(length):
    for seed in SEEDS:
        fast, slow = Rng(seed), Rng(seed)
        a, b = list(range(length)), list(range(length))
        fast.shuffle(a)
        shuffled_one_draw_at_a_time(slow, b)
        assert a == b
        assert fast.state == slow.state
        assert fast.below(1000) == slow.below(1000)


def test_shuffle_of_a_known_seed_deals_as_it_always_has():
    deck = list(range(10))
    Rng(42).shuffle(deck)
    assert deck == [8, 3, 6, 5, 4, 0, 9, 2, 1, 7]  # what the engine dealt before the shuffle was sped up

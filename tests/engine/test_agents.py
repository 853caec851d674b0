"""The random players: the weighted one picks as `random.Random.choices` would, so seeded games stay the same."""
import random

from game.engine.agents import WEIGHTS, RandomAgent
from game.engine.decisions import Option


def test_weighted_agent_picks_what_random_choices_picks():
    kinds = sorted(WEIGHTS) + ["yes", "take", "egg_on"]
    shape = random.Random(3)
    for seed in range(300):
        agent, reference = RandomAgent(seed), random.Random(seed)
        for _ in range(10):
            options = [Option(shape.choice(kinds), (i,)) for i in range(shape.randrange(2, 40))]
            expected = reference.choices(options, [WEIGHTS.get(o.kind, 1.0) for o in options])[0]
            assert agent.choose(options) is expected


def test_uniform_agent_and_single_options_draw_one_number():
    agent, reference = RandomAgent(5, weighted=False), random.Random(5)
    options = [Option("pass"), Option("explore", (0,)), Option("explore", (1,))]
    for _ in range(50):
        assert agent.choose(options) is options[reference.randrange(3)]

"""Random players for playouts, fuzzing and the simulate command. They draw only from their own generator."""
import random
from bisect import bisect
from itertools import accumulate, repeat
from operator import attrgetter

# Random play that mostly acts: enticing and excavating are likelier than exchanging or passing, so random
# games reach the abilities of many cards instead of ending in a round of passes.
WEIGHTS = {"entice": 12, "excavate": 4, "explore": 3, "exchange": 0.3, "pass": 0.4, "stop": 0.3, "no": 0.5}
KIND = attrgetter("kind")


class RandomAgent:
    def __init__(self, seed=0, weighted=True):
        self.rng = random.Random(seed)
        self.weighted = weighted

    def choose(self, options):
        if len(options) == 1:  # one answer (beside exchanges the agent never takes): no draw, so games stay the same
            return options[0]
        if not self.weighted:
            return options[self.rng.randrange(len(options))]
        # random.choices(options, weights)[0], spelled out (its checks cost more than the pick): the same single
        # draw of random() against the running totals of the weights, so the same seed makes the same choices
        totals = list(accumulate(map(WEIGHTS.get, map(KIND, options), repeat(1.0))))
        return options[bisect(totals, self.rng.random() * totals[-1], 0, len(options) - 1)]


def play_out(state, seed=0, weighted=True, on_step=None, max_decisions=100000):
    """Play random decisions until the game ends; returns the number of decisions taken."""
    agent = RandomAgent(seed, weighted)
    n = 0
    while state.pending is not None:
        state.apply(agent.choose(state.pending.answers))
        n += 1
        if on_step is not None:
            on_step(state)
        if n >= max_decisions:
            raise RuntimeError(f"the game did not end within {max_decisions} decisions")
    return n

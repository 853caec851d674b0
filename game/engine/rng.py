"""The game's only source of chance: a small seeded generator whose whole state is one integer (JSON-safe)."""

MASK = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15


def _mix(z):
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


class Rng:
    """SplitMix64: fast, tiny, and reproducible across Python versions."""

    __slots__ = ("state",)

    def __init__(self, seed=0):
        self.state = seed & MASK

    def next64(self):
        self.state = (self.state + GAMMA) & MASK
        return _mix(self.state)

    def below(self, n):
        """A number in range(n)."""
        self.state = (self.state + GAMMA) & MASK
        return (_mix(self.state) * n) >> 64

    def shuffle(self, items):
        """Fisher-Yates, each swap drawn as `below(i + 1)` draws. Shuffling the decks is most of a game's setup, so
        the generator's steps are written out here, on a local copy of its state."""
        state = self.state
        for i in range(len(items) - 1, 0, -1):
            state = (state + GAMMA) & MASK
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
            j = ((z ^ (z >> 31)) * (i + 1)) >> 64
            items[i], items[j] = items[j], items[i]
        self.state = state

"""The game's only source of chance: a small seeded generator whose whole state is one integer (JSON-safe)."""

MASK = (1 << 64) - 1


class Rng:
    """SplitMix64: fast, tiny, and reproducible across Python versions."""

    __slots__ = ("state",)

    def __init__(self, seed=0):
        self.state = seed & MASK

    def next64(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def below(self, n):
        """A number in range(n)."""
        return (self.next64() * n) >> 64

    def shuffle(self, items):
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

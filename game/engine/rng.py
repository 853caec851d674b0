"""The game's only source of chance: a small seeded generator whose whole state is one integer (JSON-safe)."""
import struct

MASK = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15
_LANES = {}  # n -> (ones, steps, low, unpack): the constants of `_outputs` for n draws at once


def _mix(z):
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def _outputs(state, n):
    """The next n outputs of the generator from `state`, as n calls of `next64` give them.

    SplitMix64's k-th output is the mix of `state + k * GAMMA` alone, so the n mixes are done at once on one large
    integer holding each draw in a lane of 128 bits: a product of two 64-bit numbers fits its lane, and a lane is
    masked back to 64 bits before anything could spill into the next. A deck's shuffle is then a dozen operations
    on that integer instead of a dozen per card (shuffling was most of a game's setup)."""
    lanes = _LANES.get(n)
    if lanes is None:
        ones = sum(1 << (128 * k) for k in range(n))
        steps = sum(((k + 1) * GAMMA) << (128 * k) for k in range(n))
        lanes = _LANES[n] = (ones, steps, ones * MASK, struct.Struct("<" + "Q8x" * n).unpack)
    ones, steps, low, unpack = lanes
    z = (state * ones + steps) & low
    z = ((z ^ (z >> 30)) & low) * 0xBF58476D1CE4E5B9 & low
    z = ((z ^ (z >> 27)) & low) * 0x94D049BB133111EB & low
    z = (z ^ (z >> 31)) & low
    return unpack(z.to_bytes(16 * n, "little"))  # each lane's low 64 bits; its high ones are 0


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
        return (self.next64() * n) >> 64

    def shuffle(self, items):
        """Fisher-Yates from the last item down, each swap drawn as `below(i + 1)` would draw it."""
        n = len(items) - 1
        if n < 1:
            return
        for i, z in zip(range(n, 0, -1), _outputs(self.state, n)):
            j = (z * (i + 1)) >> 64
            items[i], items[j] = items[j], items[i]
        self.state = (self.state + n * GAMMA) & MASK

"""Where a new match and each server-played move take their random seed.

Both come from the system's secure source, so no player can foresee a deck order or a bot's move. The source is
one name here so that the test suite can swap it for a seeded one and play the same games on every run.
"""
import secrets

_source = secrets.SystemRandom()


def new_seed():
    """A fresh 62-bit seed (it fits a signed 64-bit column)."""
    return _source.getrandbits(62)

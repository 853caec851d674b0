"""Who decides for a seat the server plays: a bot of some level, or a seat whose player left.

A bot sees what a player at its seat would see (`view_for`) and the legal options, nothing more. "random" is the
only level today; stronger levels join `LEVELS` behind the same `choose`.
"""
import secrets

from game.engine.agents import RandomAgent
from game.engine.view import view_for


class RandomBot:
    """Picks among the legal options at random, leaning towards acting over passing."""

    def choose(self, view, options):
        return RandomAgent(seed=secrets.randbits(32)).choose(options)


class Departed:
    """A seat whose player resigned or ran out of time: it passes when it may, otherwise takes the first option."""

    def choose(self, view, options):
        return next((o for o in options if o.kind == "pass"), options[0])


LEVELS = {"random": RandomBot()}
DEFAULT_LEVEL = "random"


def choose(seat, state):
    """The option the server takes for `seat` (a MatchSeat) at the state's pending decision."""
    player = LEVELS.get(seat.level, LEVELS[DEFAULT_LEVEL]) if not seat.out else Departed()
    return player.choose(view_for(state, seat.seat), list(state.pending.options))

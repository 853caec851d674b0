"""Who decides for a seat the server plays: a bot of some level, or a seat whose player left.

A bot sees what a player at its seat would see and the legal options, nothing more: the engine's bots
(game/engine/bots.py) look ahead only on `determinize`d copies, where everything hidden from the seat is sampled.
Each move gets a fresh bot with a seed of its own (never the match's seed, which orders the decks).
"""
from game.engine import bots as engine_bots
from game.matches import seeds

# The words the pages show for each of the engine's levels (weakest first, as the engine lists them).
WORDS = {
    "random": "Beginner: random moves, leaning towards acting",
    "greedy": "Greedy: the best-looking move one step ahead",
    "strong": "Strong: plays the rest of the round out many times before it moves",
}
LEVELS = {level: WORDS[level] for level in engine_bots.LEVELS}  # a level the engine adds needs its words here
DEFAULT_LEVEL = "random"
AUTOMA_LEVELS = (1, 2, 3)  # the levels a solo game against the Automa may be played at


class Departed:
    """A seat whose player resigned or ran out of time: it passes when it may, otherwise takes the first option."""

    def choose(self, state, seat):
        return next((o for o in state.pending.options if o.kind == "pass"), state.pending.options[0])


def player_for(level):
    """A fresh bot of `level` (an unknown level plays as the default one)."""
    level = level if level in LEVELS else DEFAULT_LEVEL
    return engine_bots.make_bot(level, seeds.new_seed())


def choose(seat, state):
    """The option the server takes for `seat` (a MatchSeat) at the state's pending decision."""
    player = player_for(seat.level) if not seat.out else Departed()
    return player.choose(state, seat.seat)

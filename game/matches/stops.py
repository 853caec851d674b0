"""Where one request's share of a turn must stop: after a choice that brings something hidden to light (a draw, a
reveal, a shuffle), hands the question to another player, ends the turn or ends the game.

A request that went on past such a choice would be judged on what only that choice showed (the card just drawn) or
on what the player may not know (how another player's standing order answers). Refused and rolled back, it would
tell the player that much without keeping the draw, and the player could ask again with another guess. So the
turn's try-out (`table.preview`) shows nothing past a stop, and a confirmed turn (`services.submit_turn`) refuses
any choice after one before anything is stored: a request's answer never depends on what its stop revealed.
"""
MAIN_KINDS = frozenset({"pass", "excavate", "entice", "explore", "exchange"})

# Why a choice ends the request, in the order they are looked at: a reveal first, whatever else it did.
WHY = {
    "reveal": "drew or revealed something hidden",
    "game_over": "ended the game",
    "other_player": "handed the question to another player",
    "turn_over": "ended the turn",
}


def _main_question(state):
    kind = getattr(state.pending, "kind", None)
    if kind is not None:
        return kind == "main_action"
    return all(o.kind in MAIN_KINDS for o in state.pending.options)


class TurnSteps:
    """Applies the choices of `seat`'s turn to a state one by one, and says after each whether it is a stop."""

    def __init__(self, state, seat):
        self.state = state
        self.seat = seat
        self.acted = False  # a choice other than an exchange was taken: back at the main action, the turn is over

    def apply(self, option):
        """Apply `option` (the engine's refusals pass through); answers its events and the stop it makes, or
        None when the turn goes on with its player."""
        state = self.state
        marks = state.hidden_mark()  # changes when something hidden comes to light
        events = state.apply(option)
        self.acted = self.acted or option.kind != "exchange"
        if state.hidden_mark() != marks:
            return events, "reveal"
        if state.pending is None:
            return events, "game_over"
        if state.pending.player != self.seat:
            return events, "other_player"
        if self.acted and _main_question(state):
            return events, "turn_over"
        return events, None

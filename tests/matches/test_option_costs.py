"""Every option the board shows carries what it costs and gives, read from the engine's `option_info` (not written
per page), and no option that takes something from the player is shown as free: walked over many seeded positions."""
import random

import pytest

from game.engine.catalogue import RESOURCES
from game.engine.state import GameState
from game.engine.view import view_for
from game.matches import services, table

# Kinds that put a card from the hand into play: that card leaving the hand is the choice, not a cost.
PLAYS_A_CARD = {"entice": "dragon", "play": "dragon", "cover": "dragon", "excavate": "cave", "pick": None,
                "swap_hand": "dragon", "swap_cave": "cave"}


def holdings(pl):
    """What a player could be asked to give: coins, each resource, eggs, dragon and cave cards in hand."""
    return {"coin": pl.coins, **{r: pl.res[i] for i, r in enumerate(RESOURCES)}, "egg": pl.eggs(),
            "dragon": len(pl.hand), "cave": len(pl.caves)}


def covers(cost, item):
    if item in cost:
        return True
    if item in RESOURCES:
        return "any_resource" in cost or "tithe" in cost
    if item in ("dragon", "cave"):
        return "card" in cost or "tithe" in cost
    return item == "egg" and "tithe" in cost


def positions(cards, players, academy, seed, steps):
    rng = random.Random(seed)
    state = GameState.new(cards, players=players, seed=seed, academy=academy, updated=academy)
    for _ in range(steps):
        if state.pending is None:
            return
        yield state
        state.apply(rng.choice(state.legal_options()))


@pytest.mark.parametrize("players,academy,seed", [(2, False, 1), (2, True, 2), (3, False, 3), (4, True, 4),
                                                  (2, False, 5), (3, True, 6)])
def test_every_option_shown_says_what_it_costs_and_gives(started, players, academy, seed):
    cards = services.snapshot_of(started).engine
    kinds, priced = set(), 0
    for state in positions(cards, players, academy, seed, 220):
        seat = state.pending.player
        view = table.with_extras(state, view_for(state, seat))
        shown = view["pending"]["options"]
        assert len(shown) == len(state.pending.options)
        for option, entry in zip(state.pending.options, shown):
            info = state.option_info(option)
            kinds.add(option.kind)
            # what the page shows is the engine's data, for the buttons and the pointing targets alike (an answer
            # that names no price of its own shows what accepting takes, tried on a copy)
            if option.kind not in table.ANSWERS or info["cost"] or info["gain"]:
                assert entry["cost"] == info["cost"] and entry["gain"] == info["gain"], (option, entry, info)
            priced += bool(entry["cost"])
            # nothing that takes from the player is shown as free
            trial = state.clone()
            trial.events = []
            before = holdings(trial.players[seat])
            trial.apply(option)
            after = holdings(trial.players[seat])
            if any(e["e"] in ("round_ended", "game_ended") for e in trial.events):
                continue  # the round's end followed (its upkeep): no price of this choice
            for event in trial.events:  # the turn's end: coins over the cap are lost, no price of this choice
                if event["e"] == "coins_capped" and event["p"] == seat:
                    after["coin"] += event["lost"]
            for item, n in before.items():
                lost = n - after[item]
                if item == PLAYS_A_CARD.get(option.kind, "-") or (option.kind == "pick" and item in ("dragon", "cave")):
                    lost -= 1
                if lost > 0:
                    assert covers(entry["cost"], item), (option, entry["label"], item, lost, entry["cost"])
    assert priced and {"entice", "excavate", "explore"} & kinds

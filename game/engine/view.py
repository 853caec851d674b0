"""What a player (or a spectator) may see of a game: everything shown to a user passes through `view_for`."""
from ..language.vocabulary import RESOURCES, SCORE_CATEGORY_NAMES


def _space(space, index):
    return {"index": index, "cave_card": space.cave_card, "dragon": space.dragon, "eggs": space.eggs,
            "cached": {r: n for r, n in zip(RESOURCES, space.cached) if n}, "tucked": len(space.tucked),
            "training_tokens": space.tokens, "fed": space.fed, "grown_up": space.grown}


def view_for(st, player=None):
    """A JSON-able view for seat `player` (0-based), or for a spectator when None.

    Hidden: other players' hands (counts shown), deck order (counts shown), tucked cards (face down: counts),
    the generator's state and the interpreter's stack. The pending options are listed only to their player.
    """
    players = []
    for pl in st.players:
        mine = player is not None and pl.seat == player
        players.append({
            "seat": pl.seat, "coins": pl.coins, "resources": dict(zip(RESOURCES, pl.res)),
            "hand": list(pl.hand) if mine else None, "hand_count": len(pl.hand),
            "cave_cards": list(pl.caves) if mine else None, "cave_card_count": len(pl.caves),
            "nest_eggs": pl.nest, "mat": [_space(s, i) for i, s in enumerate(pl.spaces)],
            "guild_advancements": pl.guild,
            "guild_space": (st.cat.guild_start + pl.guild) % len(st.cat.guild_spaces),
            "guild_markers": [list(m) for m in pl.markers], "objective_places": list(pl.objectives),
            "explored": list(pl.explored), "passed": pl.passed, "income_space": pl.income_space,
        })
    pending = None
    if st.pending is not None:
        pending = {"player": st.pending.player, "prompt": st.pending.prompt}
        if player == st.pending.player:
            pending["options"] = [dict(o.to_dict(), label=st.label(o)) for o in st.pending.options]
    tile = st.cat.guild_tiles[st.guild_tile] if st.guild_tile >= 0 else None
    return {
        # the seed stays secret: with it, anyone could recompute the order of the decks
        "viewer": player, "options": {k: v for k, v in st.options.items() if k != "seed"}, "round": st.round, "start_player": st.start,
        "current_player": st.current, "players": players,
        "display": {"dragons": list(st.display_dragons), "caves": list(st.display_caves)},
        "decks": {"dragons": len(st.dragon_deck), "caves": len(st.cave_deck)},
        "discards": {"dragons": list(st.dragon_discard), "caves": list(st.cave_discard)},
        "revealed": list(st.revealed),
        "guild": {"tile": tile["name"] if tile else None, "tile_number": tile["number"] if tile else None,
                  "squares": [[list(sq) for sq in row] for row in st.guild_board]},
        "objectives": [{"tile": st.cat.objective_tiles[t]["number"], "side": side} for t, side in st.objectives],
        "pending": pending, "decisions": len(st.log), "result": st.result,
        "score_categories": SCORE_CATEGORY_NAMES,
    }

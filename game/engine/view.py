"""What a player (or a spectator) may see of a game: everything shown to a user passes through `view_for` (the
state) and `events_for` (what happened)."""
from ..language.events import EVENTS
from ..language.vocabulary import RESOURCES, SCORE_CATEGORY_NAMES
from .automa import public_view as automa_view
from .runtime import count, new_frame


def _space(space, index):
    return {"index": index, "cave_card": space.cave_card, "dragon": space.dragon, "eggs": space.eggs,
            "cached": {r: n for r, n in zip(RESOURCES, space.cached) if n}, "tucked": len(space.tucked),
            "training_tokens": space.tokens, "fed": space.fed, "grown_up": space.grown}


def objective_counts(st, rnd=None):
    """Each player's count for this round's objective (or round `rnd`'s), as it would be scored now (None once the
    rounds are over).

    Counting needs a frame; the frame and its number are put back, so looking changes nothing in the state."""
    rnd = st.round if rnd is None else rnd
    if not 1 <= rnd <= len(st.objectives) or st.finished:
        return None
    tile, side = st.objectives[rnd - 1]
    counter = st.cat.objective_tiles[tile]["sides"][side]["counts"]
    before = st.next_frame
    values = []
    for p in range(len(st.players)):
        fid = new_frame(st, p, source="objective")
        try:
            values.append(count(st, st.frames[fid], counter))
        finally:
            del st.frames[fid]
    st.next_frame = before
    return values


def plain(value):
    """A copy of plain JSON data (a question's data may hold the catalogue's own effect trees)."""
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


def option_json(st, option):
    """An option for its player: kind and args, its label, and its data (`info`: card, space, cost, gain, ...)."""
    info = plain(st.option_info(option))
    return dict(option.to_dict(), label=info["label"], info=info)


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
        pending = {"player": st.pending.player, "kind": st.pending.kind, "data": plain(st.pending.data),
                   "prompt": st.pending.prompt}
        if player == st.pending.player:
            pending["options"] = [option_json(st, o) for o in st.pending.options]
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
        "objective_counts": objective_counts(st),
        "pending": pending, "decisions": st.decided, "result": st.result,
        "automa": automa_view(st),
        "score_categories": SCORE_CATEGORY_NAMES,
    }


def events_for(events, player=None):
    """The events as seat `player` may see them (a spectator when None): an event's secret keys (declared in
    game/language/events.py: which cards were drawn, dealt, kept or tucked face down) are dropped for everyone but
    the event's own player. An undeclared kind raises KeyError: nothing unknown is shown."""
    out = []
    for event in events or ():
        secret = EVENTS[event["e"]].secret
        if secret and (player is None or event.get("p") != player):
            event = {k: v for k, v in event.items() if k not in secret}
        out.append(event)
    return out

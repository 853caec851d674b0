"""'Analyse from here': a position built from what one seat sees of a match (the engine's `view_for`), so hidden
parts (other hands, deck order, tucked cards) become a fresh random sample and are never revealed."""
from game.engine.model import COLUMNS
from game.language.vocabulary import CAVES, RESOURCES


def _hand(cat, pl):
    """The edits for a player's hand and cave cards: the cards when seen, else how many (a sample)."""
    seat = pl["seat"]
    return [
        {"do": "hand", "seat": seat, "dragons": [cat.dragons[d].number for d in pl["hand"]]
         if pl["hand"] is not None else pl["hand_count"]},
        {"do": "cave_cards", "seat": seat, "caves": [cat.caves[c].number for c in pl["cave_cards"]]
         if pl["cave_cards"] is not None else pl["cave_card_count"]},
    ]


def position_from_view(cat, view, seed):
    """A board position (setup + edits) reproducing everything in `view`; `seed` deals the unseen parts."""
    options = view["options"]
    edits = []
    if view["guild"]["tile_number"] is not None:
        edits.append({"do": "guild_tile", "tile": view["guild"]["tile_number"]})
    for rnd, objective in enumerate(view["objectives"], start=1):
        edits.append({"do": "objective_tile", "round": rnd, "tile": objective["tile"], "side": objective["side"]})
    edits.append({"do": "round", "round": view["round"]})
    # Seen cards first (mats' cave cards, dragons, the display, your own hand), unseen samples last, so a sample
    # never takes a card that is in sight.
    for pl in view["players"]:
        for space in pl["mat"]:
            if space["cave_card"] is not None:
                edits.append({"do": "excavate", **_where(pl, space), "cave_card": cat.caves[space["cave_card"]].number})
    for pl in view["players"]:
        for space in pl["mat"]:
            if space["dragon"] is not None:
                edits.append({"do": "dragon", **_where(pl, space), "card": cat.dragons[space["dragon"]].number,
                              "eggs": space["eggs"], "cached": space["cached"],
                              "tokens": space["training_tokens"], "fed": space["fed"]})
    edits.append({"do": "display",
                  "dragons": [cat.dragons[d].number if d is not None else None for d in view["display"]["dragons"]],
                  "caves": [cat.caves[c].number if c is not None else None for c in view["display"]["caves"]]})
    seen_first = sorted(view["players"], key=lambda pl: pl["hand"] is None)  # seen hands before sampled ones
    for pl in seen_first:
        if pl["hand"] is not None:
            edits += _hand(cat, pl)
    # Tucked cards are face down: samples, dealt only once every card in sight (mats, display, your hand) is placed.
    for pl in view["players"]:
        for space in pl["mat"]:
            if space["dragon"] is not None and space["tucked"]:
                edits.append({"do": "space", **_where(pl, space), "tucked": space["tucked"]})
    for pl in seen_first:
        if pl["hand"] is None:
            edits += _hand(cat, pl)
    for pl in view["players"]:
        seat = pl["seat"]
        edits += [
            {"do": "coins", "seat": seat, "coins": pl["coins"]},
            {"do": "resources", "seat": seat, "resources": {r: pl["resources"][r] for r in RESOURCES}},
            {"do": "nest", "seat": seat, "eggs": pl["nest_eggs"]},
            {"do": "guild", "seat": seat, "advancements": pl["guild_advancements"]},
        ]
        edits += [{"do": "explored", "seat": seat, "cave": cave, "times": n}
                  for cave, n in zip(CAVES, pl["explored"]) if n]
        for row, square in pl["guild_markers"]:
            rows = len(view["guild"]["squares"])
            edits.append({"do": "marker", "seat": seat, "row": rows if row == -1 else row + 1, "square": square + 1})
        edits += [{"do": "objective", "seat": seat, "round": rnd, "place": place}
                  for rnd, place in enumerate(pl["objective_places"], start=1)]
        if pl["income_space"] is not None:
            edits.append({"do": "income", "seat": seat, "space": pl["income_space"] + 1})
        elif pl["passed"]:
            edits.append({"do": "passed", "seat": seat, "passed": True})
    return {"setup": {"players": len(view["players"]), "seed": seed, "academy": bool(options.get("academy"))},
            "edits": edits, "seat": view["current_player"]}


def _where(pl, space):
    return {"seat": pl["seat"], "cave": CAVES[space["index"] // COLUMNS], "column": space["index"] % COLUMNS + 1}

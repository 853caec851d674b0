"""Invariants that hold after every step of every game, checked by the seeded playouts."""
import json
from collections import Counter

from game.engine.state import GameState


def check(st, memo):
    cat = st.cat
    for pl in st.players:
        assert pl.coins >= 0 and min(pl.res) >= 0 and pl.nest >= 0, "negative count"
        assert pl.nest <= cat.mat_nests, "more eggs than the mat's nests"
        assert pl.dragon_count() <= cat.max_dragons
        for i, space in enumerate(pl.spaces):
            assert space.eggs >= 0 and min(space.cached) >= 0 and space.tokens >= 0, "negative count on a space"
            if space.dragon is None:
                assert space.eggs == 0 and not any(space.cached) and not space.tucked, "items on an empty space"
            else:
                card = cat.dragons[space.dragon]
                assert space.eggs <= card.capacity, f"{card.name} holds {space.eggs} eggs in {card.capacity} nests"
                assert space.tokens <= len(card.training)
                assert pl.excavated(i), "dragon on an unexcavated space"
    # caps hold for the player whose turn just ended (nothing else happens before the next action in a round)
    if st.pending is not None and st.pending.kind == "main_action":
        last = memo.get("actor")
        if last is not None and memo.get("round") == st.round and memo.get("turns") != st.turns:
            pl = st.players[last]
            assert pl.card_count() <= cat.cap_cards and pl.coins <= cat.cap_coins and sum(pl.res) <= cat.cap_resources
        memo["actor"], memo["round"], memo["turns"] = st.pending.player, st.round, st.turns
    dragons = Counter(st.dragon_deck + st.dragon_discard + st.revealed + [d for d in st.display_dragons if d is not None])
    caves = Counter(st.cave_deck + st.cave_discard + [c for c in st.display_caves if c is not None])
    if st.automa is not None:  # the Automa's cards (solo): taken from the display, kept until the end
        dragons.update(st.automa["dragons"])
        caves.update(st.automa["caves"])
        check_automa(st)
    for pl in st.players:
        dragons.update(pl.hand)
        caves.update(pl.caves)
        for space in pl.spaces:
            dragons.update(space.tucked)
            if space.dragon is not None:
                dragons[space.dragon] += 1
            if space.cave_card is not None:
                caves[space.cave_card] += 1
    expected_dragons = memo.setdefault("dragons", Counter(cat.dragon_deck(st.options["academy"], st.options["updated"])))
    expected_caves = memo.setdefault("caves", Counter(cat.cave_deck(st.options["academy"], st.options["updated"])))
    assert dragons == expected_dragons, "a dragon card is lost or in two places"
    assert caves == expected_caves, "a cave card is lost or in two places"
    if memo.get("roundtrip", True):
        data = st.to_json()
        again = GameState.from_json(cat, json.loads(json.dumps(data)))
        assert again.to_json() == data, "JSON round trip changed the state"


def check_automa(st):
    a = st.automa
    assert Counter(a["deck"] + a["aside"] + a["played"]) == Counter(a["cards"]), "an Automa card is lost"
    assert len(a["cards"]) == 8 and len(a["aside"]) == 1
    assert a["coins"] >= 0 and a["cache"] >= 0 and a["markers_ready"] >= 0
    assert len(a["markers"]) + a["markers_ready"] <= st.cat.markers_per_player, "the Automa has too many markers"
    on_board = sum(sq.count(1) for row in st.guild_board for sq in row)
    assert on_board == len(a["markers"]), "the Automa's markers on the tile and in her list differ"
    assert len(a["objectives"]) == len(st.players[0].objectives)
    assert st.start in (0, 1) and (st.options["academy"] or st.start == 0), "base game: the player always starts"

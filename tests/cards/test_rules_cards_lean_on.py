"""The rules that cards lean on, each on real cards in an exact position, including the rulebooks' named examples."""
import pytest

from game.engine.decisions import Option
from game.engine.model import COLUMNS
from game.language.vocabulary import CAVES

from .board import CAT, answer, asks_to_use, build, fire, fire_card, space_of, to_move, waiting, yes_to_all
from .situation import dragon_index

CRIMSON, GOLDEN, AMETHYST = 0, 4, 8  # first space of each cave


def end_vp(st, seat=0):
    return sum(st.players[seat].end_vp.values())


# -- the rulebooks' named examples ------------------------------------------------------------------------------

def test_smirking_ridgeback_tucks_under_itself_and_every_other_playful_dragon_in_its_cave():
    # 130 Smirking Ridgeback (playful) between 48 (playful) and 62 (aggressive); 112 (playful) in another cave
    st = build(mats={0: {CRIMSON: 48, CRIMSON + 1: 130, CRIMSON + 2: 62, GOLDEN: 112}})
    deck = len(st.dragon_deck)
    fire_card(st, 0, 130, "once_per_round")
    answer(st, "yes")
    tucked = {n: len(st.players[0].spaces[space_of(st, 0, n)].tucked) for n in (48, 130, 62, 112)}
    assert tucked == {48: 1, 130: 1, 62: 0, 112: 0}
    assert len(st.dragon_deck) == deck - 2


def test_beckoning_cricketcatcher_tucking_under_a_card_hatchling_feeds_it():
    # 180 Beckoning Cricketcatcher gains a card, then may tuck it under any dragon; 2 Genial Mothdragon is a
    # hatchling fed by tucked cards whose feeding lays an egg
    st = build(mats={0: {GOLDEN: 180, CRIMSON: 2, AMETHYST: 43}})
    fire_card(st, 0, 180, "once_per_round")
    answer(st, "yes")
    answer(st, "take", "deck")
    answer(st, "yes")  # you may tuck it
    hatchling = space_of(st, 0, 2)
    answer(st, "tuck", st.legal_options()[0].args[0], hatchling)
    assert len(st.players[0].spaces[hatchling].tucked) == 1
    assert st.players[0].spaces[hatchling].fed == 1
    assert asks_to_use(st, "Genial Mothdragon")  # its feeding ability: lay an egg
    answer(st, "yes")
    answer(st, "egg_on", space_of(st, 0, 43))
    assert not waiting(st) and st.players[0].eggs() == 1 and st.players[0].spaces[AMETHYST].eggs == 1


def test_bellicose_firevern_matches_the_rulebook_example_and_resolves_once_per_round():
    card = CAT.dragons[dragon_index(109)]
    assert (card.name, card.cost, card.vp, card.capacity) == ("Bellicose Firevern", {"meat": 1, "gold": 1}, 5, 1)
    assert card.habitats == (0, 1) and card.kinds == {"once_per_round"}
    # pay a resource, draw 3 from the deck: tuck 1 here, discard 1, keep 1
    st = build(mats={0: {CRIMSON: 109}})
    pl = st.players[0]
    discarded = len(st.dragon_discard)
    fire_card(st, 0, 109, "once_per_round")
    answer(st, "yes")
    answer(st, "pay", "meat")
    answer(st, "pick", *st.legal_options()[0].args)  # tuck one of the three here
    answer(st, "pick", *st.legal_options()[0].args)  # discard one; the third is kept
    assert not waiting(st)
    assert pl.res == [2, 3, 3, 3]
    assert len(pl.spaces[CRIMSON].tucked) == 1 and len(pl.hand) == 1
    assert len(st.dragon_discard) == discarded + 1


# -- all players, clockwise, each may decline --------------------------------------------------------------------

def test_all_players_share_resolves_owner_first_then_clockwise_and_each_may_decline():
    # 229 Charitable False Licheneater: gain meat, gold and crystal; each opponent gains one of them
    st = build(players=4, mats={2: {CRIMSON: 229}})
    fire_card(st, 2, 229, "when_played")
    asked = []
    while waiting(st):
        asked.append(st.pending.player)
        if st.pending.player == 2 and Option("no") in st.legal_options():
            st.apply(Option("no"))  # the owner declines: opponents still get their share
        elif st.pending.player == 0 and Option("no") in st.legal_options():
            st.apply(Option("no"))  # one opponent declines too
        elif Option("yes") in st.legal_options():
            st.apply(Option("yes"))
        else:
            st.apply(Option("choose", (1,)))  # gold
    turns = [p for i, p in enumerate(asked) if i == 0 or asked[i - 1] != p]
    assert turns == [2, 3, 0, 1]
    assert [sum(p.res) for p in st.players] == [12, 13, 12, 13]
    assert st.players[3].res[1] == 4 and st.players[1].res[1] == 4


# -- conditional costs -------------------------------------------------------------------------------------------

def test_conditional_cost_is_waived_for_the_third_dragon_in_its_cave_and_paid_for_the_second():
    # 229 Charitable False Licheneater costs 2 meat, waived if it will be the 3rd or 4th dragon in its cave
    # an excavated, empty third space
    free = build(mats={0: {CRIMSON: 62, CRIMSON + 1: 48}}, hands={0: [229]},
                 more={0: {"excavated": {"crimson_cavern": 3}, "resources": {}}})
    pl = free.players[0]
    assert Option("entice", (dragon_index(229), 0)) in free.legal_options()
    free.apply(Option("entice", (dragon_index(229), 0)))
    assert pl.spaces[CRIMSON + 2].dragon == dragon_index(229) and pl.res == [0, 0, 0, 0] and pl.coins == 4

    def paid(meat):
        return build(mats={0: {CRIMSON: 62}}, hands={0: [229]},
                     more={0: {"excavated": {"crimson_cavern": 2}, "resources": {"meat": meat}}})

    assert Option("entice", (dragon_index(229), 0)) not in paid(1).legal_options()  # 2 meat needed, 1 held
    paid = paid(2)
    pl = paid.players[0]
    paid.apply(Option("entice", (dragon_index(229), 0)))
    assert pl.res[0] == 0


# -- counting: in this cave, each other, itself, adjacent, columns, tucked cards -----------------------------------

def _count(st, seat, counter):
    return st.count(counter, seat)


def test_in_this_cave_each_other_and_a_dragon_counting_itself():
    # 42 Great Golden Lung Dragon: 3 VP per OTHER dragon in this cave; 183 Warming Firevern: 1 VP per helpful
    # dragon on the mat, itself (helpful) included; tucked helpful cards never count
    st = build(mats={0: {GOLDEN: 42, GOLDEN + 1: 62, GOLDEN + 2: 43, CRIMSON: {"n": 183, "tucked": 3}, AMETHYST: 48}})
    fire_card(st, 0, 42, "end_game")
    yes_to_all(st)
    assert end_vp(st) == 6  # 62 and 43 in the Golden Grotto; 183 and 48 are elsewhere
    fire_card(st, 0, 183, "end_game")
    yes_to_all(st)
    assert end_vp(st) == 6 + 3  # 183 itself, 42 and 43


def test_orthogonally_adjacent_and_columns():
    # 112 Variegated Amphiptere: 2 VP per orthogonally adjacent dragon (left, right, above, below; not diagonal)
    st = build(mats={0: {GOLDEN + 1: 112, GOLDEN: 62, GOLDEN + 2: 43, CRIMSON + 1: 48, AMETHYST + 1: 60,
                         CRIMSON: 139, AMETHYST + 2: 1}})
    fire_card(st, 0, 112, "end_game")
    yes_to_all(st)
    assert end_vp(st) == 8  # 62, 43, 48, 60; 139 and 1 are diagonal
    # 95 Pacifistic Web-Toed Serpent: lay an egg on each dragon in its column (itself included)
    st = build(mats={0: {AMETHYST + 1: 95, CRIMSON + 1: 48, GOLDEN + 1: 43, GOLDEN: 62}})
    fire_card(st, 0, 95, "once_per_round")
    answer(st, "yes")
    eggs = {n: st.players[0].spaces[space_of(st, 0, n)].eggs for n in (95, 48, 43, 62)}
    assert eggs == {95: 1, 48: 1, 43: 1, 62: 0}


def test_tucked_cards_never_count_as_dragons():
    st = build(mats={0: {CRIMSON: {"n": 62, "tucked": 4}, GOLDEN: 43}})
    assert _count(st, 0, {"what": "dragons"}) == 2
    assert _count(st, 0, {"what": "tucked"}) == 4


def test_rainforest_guild_counts_resource_icons_in_the_best_cave_only():
    # costs: 62 = 3 crystal, 43 = 2 crystal (Crimson: 5 icons); 60 = meat + gold, 112 = meat + gold + crystal
    # (Golden: 5); 95 = gold + crystal + coin (coins are not resources: 2); tucked cards add nothing
    st = build(mats={0: {CRIMSON: {"n": 62, "tucked": 2}, CRIMSON + 1: 43, GOLDEN: 60, AMETHYST: 95}})
    assert _count(st, 0, {"what": "best_cave_resource_icons"}) == 5
    rainforest = next(t for t in CAT.guild_tiles if t["name"] == "Rainforest Guild")
    fire(st, 0, rainforest["rows"][-1]["effect"], source="guild", kind="end_game")
    yes_to_all(st)
    assert st.players[0].end_vp == {"guild": 5}


# -- hatchlings ----------------------------------------------------------------------------------------------------

def test_hatchling_feeds_whatever_caches_its_food_and_grows_up_once():
    # 1 White-Bellied Grazer eats milk; the Crimson Cavern's end icon caches up to 2 resources anywhere on the mat
    st = build(mats={0: {CRIMSON: 1}}, more={0: {"resources": {"milk": 5}}})
    pl = st.players[0]
    for time in range(2):
        fire(st, 0, CAT.mat_icons[0][4], cave=0, source="a mat icon")
        while waiting(st):
            options = st.legal_options()
            cache_milk = [o for o in options if o.kind == "cache" and o.args[0] == "milk"]
            if cache_milk:
                st.apply(cache_milk[0])
            elif Option("yes") in options:
                st.apply(Option("yes"))
            else:
                st.apply(options[0])
    assert pl.spaces[CRIMSON].cached[3] == 4
    assert pl.spaces[CRIMSON].fed == 4 and pl.spaces[CRIMSON].grown


def test_caching_a_resource_the_hatchling_does_not_eat_does_not_feed_it():
    st = build(mats={0: {CRIMSON: 1}})
    fire(st, 0, {"do": "cache", "item": "meat", "on": {"scope": "mat"}})
    yes_to_all(st)
    assert st.players[0].spaces[CRIMSON].cached[0] == 1 and st.players[0].spaces[CRIMSON].fed == 0


# -- fledglings ----------------------------------------------------------------------------------------------------

def _walk(st, seat, cave, **fields):
    """`seat` explores `cave` with 3 coins (and their player's `fields` as given), then says yes to everything."""
    st = to_move(st, seat, coins=3, **fields)
    st.apply(Option("explore", (cave,)))
    while waiting(st):
        options = st.legal_options()
        st.apply(Option("yes") if Option("yes") in options else next(o for o in options if o.kind != "stop"))
    return st


def test_walking_onto_an_untrained_fledgling_offers_training_of_the_leftmost_box_not_its_ability():
    # 189 Ambidextrous Falsekoi: boxes milk then cave card; trained, it lays 2 eggs here when activated
    st = build(mats={0: {CRIMSON: 189}}, more={0: {"cave_cards": 1}})
    st = _walk(st, 0, 0)
    pl = st.players[0]
    space = pl.spaces[CRIMSON]
    assert space.tokens == 1 and pl.res[3] == 2 and space.eggs == 0  # paid the milk box; no eggs laid
    st = _walk(st, 0, 0, explored={}, played_this_turn=[])
    pl = st.players[0]
    space = pl.spaces[CRIMSON]
    assert space.tokens == 2 and pl.caves == [] and space.eggs == 0  # second box: a cave card; still no eggs
    st = _walk(st, 0, 0, explored={})
    assert st.players[0].spaces[CRIMSON].eggs == 2  # fully trained: its purple ability works


def test_train_then_gain_the_item_the_token_covered():
    # cave 78: train a fledgling once for free, and gain the item the token covered; 185 Angelic Ridgedragon's
    # boxes are meat then a dragon card
    st = build(mats={0: {CRIMSON: {"n": 185, "tokens": 1}}})
    pl = st.players[0]
    cave = next(c for c in CAT.caves if c.number == 78)
    fire(st, 0, cave.abilities[0]["effect"], source="cave card 78")
    answer(st, "yes")
    while waiting(st):
        answer(st, "take", "deck") if any(o.kind == "take" for o in st.legal_options()) else st.apply(
            st.legal_options()[0])
    assert pl.spaces[CRIMSON].tokens == 2 and len(pl.hand) == 1 and pl.res == [3, 3, 3, 3]


def test_train_all_adjacent_fledglings_once_for_free():
    # 232 Wandering Protean Dragon, in the Golden Grotto's 2nd space, between two fledglings and above one
    st = build(mats={0: {GOLDEN + 1: 232, GOLDEN: 189, GOLDEN + 2: 185, AMETHYST + 1: {"n": 205}, CRIMSON: 206}})
    fire_card(st, 0, 232, "when_played")
    answer(st, "yes")
    tokens = {n: st.players[0].spaces[space_of(st, 0, n)].tokens for n in (189, 185, 205, 206)}
    assert tokens == {189: 1, 185: 1, 205: 1, 206: 0}  # 206 is diagonal
    assert st.players[0].res == [3, 3, 3, 3]  # for free


def test_untrained_fledgling_abilities_count_for_objectives_and_fledglings_score_n_each():
    from game.engine.scoring import base_breakdown
    st = build(mats={0: {CRIMSON: 206, GOLDEN: {"n": 205, "tokens": 1}, AMETHYST: 62}})
    assert _count(st, 0, {"what": "dragons", "kind": "once_per_round"}) == 2
    assert base_breakdown(st.cat, st.players[0], 0, 0)["dragons"] == 4 + CAT.dragons[dragon_index(62)].vp


# -- the display: taken cards wait for the end of the turn -----------------------------------------------------------

def test_cards_taken_from_the_display_are_refilled_only_at_the_end_of_the_turn():
    st = build(players=3, more={0: {"coins": 1}})
    taken = st.display_dragons[0]
    fire(st, 0, {"do": "gain", "item": "dragon"}, others={"do": "gain", "item": "dragon", "from": "display"})
    answer(st, "yes")
    answer(st, "take", "display", 0)
    answer(st, "yes")
    answer(st, "take", "display", 1)
    answer(st, "yes")  # the last face-up card is the only choice left: taken at once
    assert st.display_dragons == [None, None, None] and taken in st.players[0].hand
    # a fourth "gain from the display" has nothing to take; a plain gain may still draw from the deck
    fire(st, 0, {"do": "gain", "item": "dragon", "from": "display"})
    assert not waiting(st) and len(st.players[0].hand) == 1
    st.apply(Option("explore", (2,)))  # end the turn (with the last coin): the display refills
    while waiting(st):
        st.apply(st.legal_options()[0])
    assert None not in st.display_dragons


# -- cards that cover or swap dragons --------------------------------------------------------------------------------

def test_guild_of_highlands_cover_moves_items_and_caps_eggs_at_the_new_capacity():
    # 43 Blue Forest Spirit (5 nests) with 4 eggs, 2 cached, 1 tucked, covered by 60 Stealthy Rufftail (2 nests,
    # a Crimson Cavern dragon: the new dragon must still prefer the cave)
    st = build(mats={0: {CRIMSON: {"n": 43, "eggs": 4, "cached": [1, 0, 0, 1], "tucked": 1}}}, hands={0: [60]},
               more={0: {"cave_cards": 1}})
    pl = st.players[0]
    highlands = next(t for t in CAT.guild_tiles if t["name"] == "Guild of Highlands")
    fire(st, 0, highlands["rows"][1]["effect"], source="Guild of Highlands")
    answer(st, "yes")
    # the only legal cover (60 onto the Crimson Cavern's dragon) is taken at once; 60's when-played ability follows
    assert asks_to_use(st, "Stealthy Rufftail")
    while waiting(st):
        st.apply(Option("no") if Option("no") in st.legal_options() else st.legal_options()[0])
    space = pl.spaces[CRIMSON]
    assert space.dragon == dragon_index(60) and space.eggs == 2 and space.cached == [1, 0, 0, 1]
    assert dragon_index(43) in space.tucked and len(space.tucked) == 2 and pl.caves == []


def test_cave_66_swaps_two_dragons_with_everything_on_them():
    st = build(mats={0: {CRIMSON: {"n": 43, "eggs": 4, "cached": [1, 0, 0, 0]}, GOLDEN: {"n": 62, "tucked": 2}}})
    cave = next(c for c in CAT.caves if c.number == 66)
    fire(st, 0, cave.abilities[0]["effect"], source="cave card 66")
    answer(st, "yes")
    pl = st.players[0]
    crimson, golden = pl.spaces[CRIMSON], pl.spaces[GOLDEN]
    assert (crimson.dragon, crimson.eggs, len(crimson.tucked)) == (dragon_index(62), 0, 2)
    assert (golden.dragon, golden.eggs, golden.cached) == (dragon_index(43), 4, [1, 0, 0, 0])


# -- every conditional-cost dragon: met, it costs only the entice coin; not met, its printed cost ----------------

CONDITIONAL = [
    # number, cave it goes into, mat when the condition holds, mat when it does not
    (229, 0, {CRIMSON: 62, CRIMSON + 1: 48}, {CRIMSON: 62}),  # 3rd or 4th dragon in its cave
    (233, 1, {GOLDEN: 60, CRIMSON + 1: 206}, {GOLDEN: 60, CRIMSON + 1: 62}),  # an adjacent fledgling (above it)
    (236, 2, {CRIMSON: 1, GOLDEN: 3}, {CRIMSON: 1, GOLDEN: 60}),  # 2 hatchlings on the mat
    (238, 0, {CRIMSON: 62, CRIMSON + 1: 48}, {CRIMSON: 62}),  # 3rd or 4th dragon in its cave
    (240, 0, {GOLDEN: 206, AMETHYST: 205}, {GOLDEN: 206, AMETHYST: 60}),  # 2 fledglings on the mat
    (249, 0, {GOLDEN: 62, AMETHYST: 128}, {GOLDEN: 62, AMETHYST: 60}),  # 2 other aggressive dragons
    (252, 0, {GOLDEN: 43, AMETHYST: 38}, {GOLDEN: 43, AMETHYST: 60}),  # 2 other helpful dragons
    (257, 1, {GOLDEN: 60, GOLDEN + 1: 139}, {GOLDEN: 60}),  # 3rd or 4th dragon in its cave
    (260, 2, {CRIMSON: 62, GOLDEN: 60}, {CRIMSON: 62}),  # a full column (it is the 3rd) or 4 in its cave
]


def _entice_position(number, mat):
    """Seat 0 holds `number`, 1 coin and no resources; the leftmost space without a dragon of every cave is
    excavated, so each cave has room."""
    dug = {}
    for cave, name in enumerate(CAVES):
        empty = [col for col in range(COLUMNS) if cave * COLUMNS + col not in mat]
        if empty:
            dug[name] = empty[0] + 1
    st = build(mats={0: mat}, hands={0: [number]}, more={0: {"excavated": dug, "resources": {}, "coins": 1}})
    return st, st.players[0]


@pytest.mark.parametrize("number,cave,met,unmet", CONDITIONAL, ids=[str(c[0]) for c in CONDITIONAL])
def test_conditional_cost_is_waived_only_when_its_condition_holds(number, cave, met, unmet):
    d = dragon_index(number)
    st, pl = _entice_position(number, met)
    assert Option("entice", (d, cave)) in st.legal_options(), "condition met: only the entice coin is due"
    st.apply(Option("entice", (d, cave)))
    assert pl.coins == 0 and pl.res == [0, 0, 0, 0] and pl.find(d) is not None
    st, pl = _entice_position(number, unmet)
    assert Option("entice", (d, cave)) not in st.legal_options(), "condition not met: the printed cost is due"


# -- conditional end-game scores, on mats where their condition holds (the busy mat of the table does not) --------

CONDITIONAL_SCORES = [
    (81, {CRIMSON: 62, CRIMSON + 1: 81, GOLDEN + 2: 43}, 3),  # no dragon to its right (other caves do not count)
    (129, {GOLDEN + 1: 129, GOLDEN: 48, GOLDEN + 2: 43, CRIMSON + 1: 112, AMETHYST: 3}, 6),  # 2 adjacent playful
    (91, {CRIMSON: 1, CRIMSON + 1: 62, CRIMSON + 2: 60, CRIMSON + 3: 91}, 8),  # hatchling, small, large in its cave
    (59, {CRIMSON: 59, CRIMSON + 1: 60, CRIMSON + 2: 139, CRIMSON + 3: 62, GOLDEN: 81}, 4),  # 2 other shy here
    (235, {CRIMSON: 1, GOLDEN: 3, AMETHYST: 235}, 8),  # 2 hatchlings on the mat
    (54, {CRIMSON: 54, CRIMSON + 1: 60, CRIMSON + 2: 43, GOLDEN: 62}, 4),  # no aggressive dragon in its cave
    (150, {CRIMSON: 150, GOLDEN: 43, AMETHYST + 1: 38}, 4),  # another helpful dragon in its column
]


@pytest.mark.parametrize("number,mat,vp", CONDITIONAL_SCORES, ids=[str(c[0]) for c in CONDITIONAL_SCORES])
def test_conditional_end_game_score_when_its_condition_holds(number, mat, vp):
    st = build(mats={0: mat})
    fire_card(st, 0, number, "end_game")
    yes_to_all(st)
    assert end_vp(st) == vp

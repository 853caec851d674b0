"""Every word of the effect language, on small made-up cards (docs/effects.md)."""
import pytest

from game.engine.catalogue import RESOURCES
from game.engine.model import NEST

from .helpers import cave, choose, dragon, fire, make_catalogue, options, position, seat

SHY = dragon(1, "Shy One", trait="shy", size="small", capacity=2)
BOLD = dragon(2, "Bold One", trait="aggressive", size="medium", capacity=1, cost={"meat": 2, "gold": 1})
MILK_HATCHLING = dragon(3, "Milk Drinker", size="hatchling", capacity=0, feeds_on="milk", abilities=[
    {"kind": "if_activated", "effect": {"do": "cache", "item": "milk", "from": "supply", "on": {"scope": "here"}}},
    {"kind": "on_feed", "effect": {"do": "gain", "item": "gold"}},
    {"kind": "on_grow_up", "effect": {"do": "gain", "item": "coin", "count": 3}}])
CARD_HATCHLING = dragon(4, "Card Eater", size="hatchling", capacity=0, feeds_on="card", abilities=[
    {"kind": "on_feed", "effect": {"do": "gain", "item": "meat"}}])
FLEDGLING = dragon(5, "Trainee", size="fledgling", vp=0, training=["milk", "dragon"], abilities=[
    {"kind": "if_activated", "effect": {"do": "lay_egg", "count": 2, "on": {"scope": "here"}}}])
GIVER = dragon(6, "Giver", abilities=[{"kind": "when_played", "effect": {"do": "gain", "item": "crystal"}}])
OPR = dragon(7, "Rounder", abilities=[{"kind": "once_per_round", "effect": {"do": "gain", "item": "milk"}}])
GIFT_CAVE = cave(1, [{"kind": "when_played", "effect": {"do": "gain", "item": "coin", "count": 2}}])
# A position holds one copy of each card: twins for the tests that need two alike.
SHY_TWINS = [dragon(10 + k, f"Shy Twin {k}", trait="shy", size="small", capacity=2) for k in range(3)]
BOLD_TWIN = dragon(13, "Bold Twin", trait="aggressive", size="medium", capacity=1, cost={"meat": 2, "gold": 1})
FLEDGLING_TWIN = dict(FLEDGLING, number=14, name="Second Trainee")
CAT = make_catalogue([SHY, BOLD, MILK_HATCHLING, CARD_HATCHLING, FLEDGLING, GIVER, OPR, *SHY_TWINS, BOLD_TWIN,
                      FLEDGLING_TWIN], [GIFT_CAVE])
S, B, H, C, F, G, O, S2, S3, S4, B2, F2 = range(12)  # noqa: E741 (the cards' initials)


def game(**mine):
    """Three players with 3 coins and nothing else, seat 0 to move; `mine`: seat 0's cards and things (see `seat`)."""
    return position(CAT, [seat(CAT, coins=3, **mine), seat(CAT, coins=3), seat(CAT, coins=3)])


@pytest.fixture
def st():
    return game()


def me(st):
    return st.players[0]


def test_seq_runs_steps_in_order(st):
    fire(st, {"do": "seq", "steps": [{"do": "gain", "item": "gold"}, {"do": "gain", "item": "coin"}]})
    assert me(st).res[1] == 1 and me(st).coins == 4


def test_choose_pick_two_distinct(st):
    fire(st, {"do": "choose", "pick": 2, "options": [{"do": "gain", "item": "meat"}, {"do": "gain", "item": "gold"},
                                                     {"do": "gain", "item": "milk"}]})
    choose(st, "choose", 2)
    assert options(st) == [("choose", 0), ("choose", 1)]
    choose(st, "choose", 0)
    assert me(st).res == [1, 0, 0, 1]


def test_may_asks_and_can_be_declined(st):
    fire(st, {"do": "may", "effect": {"do": "gain", "item": "gold"}})
    choose(st, "no")
    assert me(st).res == [0, 0, 0, 0]


def test_repeat_up_to_lets_the_player_stop():
    st = game(res=[3, 0, 0, 0])
    fire(st, {"do": "repeat", "times": 3, "up_to": True,
              "effect": {"do": "pay", "cost": [{"item": "meat"}], "buys": {"do": "gain", "item": "coin"}}})
    choose(st, "yes")
    choose(st, "yes")
    choose(st, "no")
    assert me(st).res[0] == 1 and me(st).coins == 5


def test_repeat_times_a_counter():
    st = game(mat={0: S, 4: B})
    fire(st, {"do": "repeat", "times": {"what": "dragons"}, "effect": {"do": "gain", "item": "milk"}})
    assert me(st).res[3] == 2


def test_if_counts_this_cave():
    effect = {"do": "if", "cond": {"at_least": [{"what": "dragons", "scope": "cave"}, 2]},
              "then": {"do": "gain", "item": "gold"}, "else": {"do": "gain", "item": "meat"}}
    two = game(mat={0: S, 1: B})
    fire(two, effect, src=S)
    one = game(mat={0: S, 1: {}})  # column 2 dug, its dragon gone
    fire(one, effect, src=S)
    assert me(two).res == [0, 1, 0, 0] and me(one).res == [1, 0, 0, 0]


def test_pay_egg_from_this_cave_only():
    st = game(mat={0: {"dragon": S, "eggs": 1}, 4: {"dragon": B, "eggs": 1}}, nest=1)
    fire(st, {"do": "pay", "cost": [{"item": "egg", "on": {"scope": "cave"}}], "buys": {"do": "gain", "item": "gold"}},
         src=B)
    assert me(st).spaces[4].eggs == 0 and me(st).nest == 1 and me(st).res[1] == 1


def test_pay_is_skipped_when_it_cannot_be_paid(st):
    fire(st, {"do": "pay", "cost": [{"item": "card"}], "buys": {"do": "gain", "item": "gold"}})
    assert me(st).res[1] == 0 and st.pending.kind == "main_action"


def test_pay_a_tithe_of_any_kind():
    st = game(res=[1, 0, 0, 0], hand=[S], nest=1)
    fire(st, {"do": "pay", "cost": [{"item": "tithe"}], "buys": {"do": "gain", "item": "coin"}})
    assert options(st) == [("pay", "meat"), ("pay", "dragon", S), ("pay", "egg", NEST)]
    choose(st, "pay", "egg", NEST)
    assert me(st).nest == 0 and me(st).coins == 4


def test_gain_any_resource_same_binds_it_for_opponents(st):
    fire(st, {"do": "gain", "item": "any_resource", "count": 2, "same": True, "as": "chosen"},
         others={"do": "gain", "item": {"var": "chosen"}})
    choose(st, "resource", "crystal")
    choose(st, "yes")  # player 2 takes the share
    choose(st, "no")  # player 3 declines
    assert [p.res for p in st.players] == [[0, 0, 2, 0], [0, 0, 1, 0], [0, 0, 0, 0]]


def test_gain_cards_from_display_or_deck(st):
    top = st.dragon_deck[-1]
    fire(st, {"do": "gain", "item": "dragon", "count": 2})
    assert ("take", "deck") in options(st) and ("take", "display", 0) in options(st)
    first = st.display_dragons[1]
    choose(st, "take", "display", 1)
    choose(st, "take", "deck")
    assert me(st).hand == [first, top]


def test_gain_from_display_only_cannot_draw():
    st = position(CAT, [seat(CAT, coins=3) for _ in range(3)], display={"caves": ["empty"] * 3})
    fire(st, {"do": "may", "effect": {"do": "gain", "item": "cave", "from": "display"}})
    assert me(st).caves == [] and st.pending.kind == "main_action"


def test_lay_egg_on_each_dragon_in_column():
    st = game(mat={0: S, 4: B, 8: H})
    fire(st, {"do": "lay_egg", "on": {"scope": "column", "each": True}}, src=S)
    assert [me(st).spaces[i].eggs for i in (0, 4, 8)] == [1, 1, 0]  # the hatchling has no nest


def test_lay_egg_offers_the_mat_nests_and_dragons_with_room():
    st = game(mat={0: S, 4: {"dragon": B, "eggs": 1}})
    fire(st, {"do": "lay_egg", "count": 2})
    assert options(st) == [("egg_on", NEST), ("egg_on", 0)]
    choose(st, "egg_on", 0)
    choose(st, "egg_on", 0)
    assert me(st).spaces[0].eggs == 2


def test_cache_from_general_supply_on_each_helpful_dragon():
    st = game(mat={0: S, 4: B})
    fire(st, {"do": "cache", "item": "gold", "from": "general", "on": {"scope": "mat", "each": True}})
    assert me(st).spaces[0].cached == [0, 1, 0, 0] and me(st).spaces[4].cached == [0, 1, 0, 0]
    assert me(st).res == [0, 0, 0, 0]


def test_cache_from_supply_needs_the_resource():
    st = game(mat={0: S})
    fire(st, {"do": "may", "effect": {"do": "cache", "item": "meat", "from": "supply"}}, src=S)
    assert st.pending.kind == "main_action"


def test_hatchling_feeds_every_time_and_grows_up_once_on_the_third():
    st = game(mat={0: H}, res=[0, 0, 0, 4])
    pl = me(st)
    feed = {"do": "cache", "item": "milk", "from": "supply", "on": {"scope": "mat"}}
    for turn in range(4):
        fire(st, feed)
        while st.pending.kind != "main_action":
            choose(st, "yes")
    assert pl.spaces[0].cached == [0, 0, 0, 4]
    assert pl.res[1] == 4 and pl.coins == 3 + 3  # 4 golds, and the grown-up bonus exactly once


def test_tuck_from_hand_binds_the_tucked_cost_and_feeds_card_hatchlings():
    st = game(mat={0: C}, hand=[B])
    pl = me(st)
    fire(st, {"do": "tuck", "from": "hand", "on": {"scope": "here"},
              "as": "tucked_cost", "if_done": {"do": "gain", "item": {"var": "tucked_cost"}}}, src=C)
    choose(st, "yes")  # the hatchling's feeding: gain a meat
    assert options(st) == [("resource", "meat"), ("resource", "gold")]  # one resource of the tucked card's cost
    choose(st, "resource", "gold")
    assert pl.spaces[0].tucked == [B] and pl.res == [1, 1, 0, 0]


def test_tuck_from_deck_under_each_matching_dragon():
    st = game(mat={0: S, 1: B})
    pl = me(st)
    top_two = st.dragon_deck[-2:]
    fire(st, {"do": "tuck", "from": "deck", "on": {"scope": "cave", "each": True}}, src=S)
    assert pl.spaces[0].tucked + pl.spaces[1].tucked == top_two[::-1]


def test_excavate_free_from_display(st):
    card = st.display_caves[2]
    fire(st, {"do": "excavate", "from": "display", "free": True})
    choose(st, "excavate", card, 1)
    assert me(st).spaces[5].cave_card == card and st.display_caves[2] is None


def test_play_dragon_without_resources_still_pays_nothing_else():
    st = game(hand=[B])
    fire(st, {"do": "play_dragon", "from": "hand", "cost": "no_resources"})
    choose(st, "play", B, 1)
    assert me(st).spaces[4].dragon == B and me(st).coins == 3


def test_play_dragon_with_one_item_discounted():
    st = game(hand=[B], res=[1, 1, 0, 0])
    fire(st, {"do": "play_dragon", "from": "hand", "cost": "discount_one"})
    assert options(st) == [("play", B, c, "meat") for c in range(3)]
    choose(st, "play", B, 2, "meat")
    assert me(st).res == [0, 0, 0, 0] and me(st).spaces[8].dragon == B


def test_play_dragon_from_a_list_of_places_offers_the_hand_and_the_display():
    st = game(hand=[B])
    shown = [d for d in st.display_dragons if d is not None]
    fire(st, {"do": "play_dragon", "from": ["hand", "display"], "cost": "free"})
    assert {o[1] for o in options(st) if o[0] == "play"} == {B, *shown}
    choose(st, "play", shown[0], 0)
    assert me(st).spaces[0].dragon == shown[0] and shown[0] not in st.display_dragons and me(st).hand == [B]


def test_conditional_cost_is_waived_when_its_condition_holds():
    free = dragon(8, "Third In Line", cost={"gold": 3}, free_if={"at_least": [{"what": "dragons", "scope": "cave"}, 3]})
    cat = make_catalogue([SHY, free])
    st = position(cat, [seat(cat, coins=1, hand=[1], mat={0: 20, 1: 21, 2: {}}), seat(cat)])
    pl = st.players[0]
    assert [o for o in options(st) if o[0] == "entice"] == [("entice", 1, 0)]  # where it would be 3rd
    choose(st, "entice", 1, 0)
    assert pl.spaces[2].dragon == 1 and pl.res == [0, 0, 0, 0] and pl.coins == 0


def test_cover_dragon_tucks_the_old_one_and_moves_its_items():
    st = game(mat={4: {"dragon": S, "eggs": 2, "cached": [1, 0, 0, 0]}}, hand=[G])
    pl = me(st)
    fire(st, {"do": "swap", "what": "cover"})  # one dragon in hand, one it may cover: no question
    choose(st, "yes")  # the new dragon's when-played ability
    space = pl.spaces[4]
    assert space.dragon == G and space.tucked == [S] and space.eggs == 2 and space.cached == [1, 0, 0, 0]
    assert pl.res[2] == 1


def test_swap_dragons_moves_them_with_their_items():
    st = game(mat={0: {"dragon": S, "eggs": 1}, 4: B})
    pl = me(st)
    fire(st, {"do": "swap", "what": "dragons"})
    assert pl.spaces[0].dragon == B and pl.spaces[4].dragon == S and pl.spaces[4].eggs == 1


def test_swap_with_hand_keeps_eggs_up_to_capacity():
    st = game(mat={0: {"dragon": S, "eggs": 2}}, hand=[B])
    pl = me(st)
    fire(st, {"do": "swap", "what": "with_hand"})
    assert pl.spaces[0].dragon == B and pl.spaces[0].eggs == 1 and pl.hand == [S]


def test_swap_cave_card_fires_the_new_card():
    st = game(mat={1: {"cave_card": 9}}, caves=[0])
    pl = me(st)
    fire(st, {"do": "swap", "what": "cave_card"})
    choose(st, "yes")
    assert pl.spaces[1].cave_card == 0 and pl.caves == [9] and pl.coins == 5


def test_train_pays_the_leftmost_box_and_unlocks_when_full():
    st = game(mat={0: F}, res=[0, 0, 0, 1], hand=[S])
    pl = me(st)
    fire(st, {"do": "train", "on": {"scope": "mat"}})
    assert pl.spaces[0].tokens == 1 and pl.res == [0, 0, 0, 0]
    assert not st.active(0, F)
    fire(st, {"do": "train"})
    assert pl.spaces[0].tokens == 2 and pl.hand == [] and st.active(0, F)


def test_train_free_binds_the_covered_item():
    st = game(mat={0: F})
    pl = me(st)
    fire(st, {"do": "train", "free": True, "as": "covered", "if_done": {"do": "gain", "item": {"var": "covered"}}})
    assert pl.res == [0, 0, 0, 1] and pl.spaces[0].tokens == 1


def test_walking_onto_an_untrained_fledgling_offers_training():
    st = game(mat={0: F}, res=[0, 0, 0, 1])
    pl = me(st)
    choose(st, "explore", 0)
    choose(st, "resource", "meat")
    assert st.pending.kind == "use_ability" and st.pending.data["effect"]["do"] == "train"
    choose(st, "yes")
    assert pl.spaces[0].tokens == 1 and pl.spaces[0].eggs == 0  # its purple ability is not active yet


def test_activate_another_dragons_when_played():
    st = game(mat={0: G, 4: S})
    pl = me(st)
    fire(st, {"do": "activate", "kinds": ["when_played"], "on": {"scope": "mat", "other": True}}, src=S)
    choose(st, "yes")
    assert pl.res[2] == 1


def test_activate_a_paid_cave_card():
    st = game(caves=[0])
    fire(st, {"do": "pay", "cost": [{"item": "cave"}], "as": "paid",
              "buys": {"do": "activate", "kinds": ["when_played"], "on": {"var": "paid"}}})
    choose(st, "yes")
    assert me(st).coins == 5 and me(st).caves == []


def test_reveal_tucks_a_match_and_discards_otherwise():
    effect = {"do": "reveal", "as": "it", "cond": {"card": {"size": "small"}},
              "then": {"do": "tuck", "from": {"var": "it"}, "on": {"scope": "here"}},
              "else": {"do": "gain", "item": "milk"}}
    # a small dragon on top, a medium one under it
    st = position(CAT, [seat(CAT, coins=3, mat={0: G}), seat(CAT, coins=3), seat(CAT, coins=3)],
                  deck_top={"dragons": [CAT.dragons[S].number, CAT.dragons[B].number]})
    pl = me(st)
    fire(st, effect, src=G)
    assert pl.spaces[0].tucked == [S]
    fire(st, effect, src=G)
    assert pl.spaces[0].tucked == [S] and pl.res[3] == 1 and st.dragon_discard[-1] == B and not st.revealed


def test_distribute_tucks_up_to_two_and_keeps_the_rest():
    st = game(mat={0: S})
    pl = me(st)
    fire(st, {"do": "gain", "item": "dragon", "from": "deck", "count": 3, "as": "it",
              "if_done": {"do": "distribute", "cards": {"var": "it"},
                       "to": [{"place": "tuck", "count": 2, "up_to": True, "on": {"scope": "here"}}],
                       "rest": "keep"}}, src=S)
    drawn = list(pl.hand)
    choose(st, "pick", "tuck", "dragon", drawn[0], 0)
    choose(st, "stop")
    assert pl.spaces[0].tucked == [drawn[0]] and pl.hand == drawn[1:]


def test_distribute_rest_discard(st):
    fire(st, {"do": "gain", "item": "dragon", "from": "deck", "count": 2, "as": "it",
              "if_done": {"do": "distribute", "cards": {"var": "it"}, "to": [{"place": "keep", "count": 1}],
                       "rest": "discard"}})
    kept, gone = me(st).hand[0], None
    options_now = options(st)
    choose(st, *options_now[0])
    assert len(me(st).hand) == 1 and len(st.dragon_discard) >= 1
    del kept, gone


def test_score_per_counter_with_max():
    st = game(mat={0: S, 4: S2, 8: S3, 1: S4})  # four small dragons
    pl = me(st)
    fire(st, {"do": "score", "vp": 4, "per": {"what": "dragons", "size": "small"}, "max": 12})
    assert pl.end_vp == {"test": 12}


def test_left_neighbour_counter_compares_mats():
    st = position(CAT, [seat(CAT, coins=3, mat={0: S}), seat(CAT, coins=3, mat={0: B, 1: B2}), seat(CAT, coins=3)])
    effect = {"do": "if", "cond": {"at_least": [{"what": "dragons", "cave": "crimson_cavern"},
                                                {"what": "dragons", "cave": "crimson_cavern", "of": "left_neighbour"}]},
              "then": {"do": "gain", "item": "gold"}}
    fire(st, effect)
    assert me(st).res[1] == 0


def test_size_sets_and_filled_columns():
    st = game(mat={0: S, 4: B, 8: H})
    assert st.count({"what": "filled_columns"}, 0) == 1
    assert st.count({"what": "size_sets"}, 0) == 0
    assert st.count({"what": "resource_icons"}, 0) == 3
    assert st.count({"what": "excavated"}, 0) == 3


def test_every_word_has_a_handler():
    from game.engine.interpreter import WORDS as HANDLERS
    from game.language.schema import WORDS
    assert set(WORDS) <= set(HANDLERS)


def test_resource_order_is_the_rulebook_vocabulary():
    assert RESOURCES == ("meat", "gold", "crystal", "milk")


def test_paying_a_missing_resource_offers_the_exchange():
    st = game(res=[2, 0, 1, 0])
    fire(st, {"do": "pay", "cost": [{"item": "gold"}, {"item": "crystal"}], "buys": {"do": "gain", "item": "coin"}})
    # only meat+meat -> gold keeps the crystal for the second item, so that exchange is made without a question
    assert me(st).res == [0, 0, 0, 0] and me(st).coins == 4
    st = game(res=[1, 0, 1, 1])
    fire(st, {"do": "pay", "cost": [{"item": "gold"}], "buys": {"do": "gain", "item": "coin"}})
    assert options(st) == [("exchange", "meat", "crystal", "gold"), ("exchange", "meat", "milk", "gold"),
                           ("exchange", "crystal", "milk", "gold")]


def test_train_each_adjacent_fledgling_for_free():
    st = game(mat={1: S, 0: F, 5: F2, 2: B})
    pl = me(st)
    fire(st, {"do": "train", "free": True, "on": {"scope": "adjacent", "each": True}}, src=S)
    assert pl.spaces[0].tokens == 1 and pl.spaces[5].tokens == 1


def test_activate_two_distinct_abilities_then_the_follow_up():
    st = game(mat={0: O, 4: G})
    pl = me(st)
    fire(st, {"do": "activate", "kinds": ["when_played", "once_per_round"], "on": {"scope": "mat"}, "count": 2,
              "if_done": {"do": "gain", "item": "coin"}})
    choose(st, "activate", O)
    choose(st, "yes")  # Rounder: a milk
    assert options(st) == [("yes",), ("no",)]  # only Giver is left: no question which
    choose(st, "yes")  # Giver: a crystal
    assert pl.res == [0, 0, 1, 1] and pl.coins == 4


def test_caching_them_caches_only_the_resources_just_gained():
    st = game(mat={0: S}, res=[2, 0, 0, 0])
    pl = me(st)
    fire(st, {"do": "gain", "item": "any_resource", "as": "it", "if_done": {
        "do": "cache", "item": {"var": "it"}, "count": 2, "up_to": True, "from": "supply", "on": {"scope": "here"}}},
         src=S)
    choose(st, "resource", "meat")
    choose(st, "cache", "meat", 0)
    assert st.pending.kind == "main_action"  # one meat was gained, so one is cached, not two
    assert pl.spaces[0].cached == [1, 0, 0, 0] and pl.res == [2, 0, 0, 0]


def test_a_cost_is_not_offered_when_what_it_buys_cannot_happen():
    st = game(caves=[0], hand=[B])
    pl = me(st)
    fire(st, {"do": "pay", "cost": [{"item": "cave"}], "buys": {"do": "swap", "what": "cover"}}, ask=True)
    assert st.pending.kind == "main_action" and pl.caves == [0]  # no dragon on the mat to cover


def test_cached_counter_may_name_one_resource():
    st = game(mat={0: {"dragon": H, "cached": [1, 0, 1, 2]}})
    pl = me(st)
    fire(st, {"do": "score", "vp": 1, "per": {"what": "cached", "scope": "here", "item": "milk"}}, src=H)
    assert pl.end_vp == {"test": 2}


def test_taking_from_the_display_names_the_card_that_lies_there(st):
    fire(st, {"do": "gain", "item": "dragon", "count": 1})
    card = st.cat.card("dragon", st.display_dragons[1])
    labels = {o.args: st.option_info(o)["label"] for o in st.legal_options()}
    assert labels[("display", 1)] == f"Take {card['name']} ({card['number']}) from the display"
    assert labels[("deck",)] == "Draw from the deck"

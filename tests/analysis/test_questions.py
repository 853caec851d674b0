"""Rules questions players ask, each set up as a position in the board's format and answered through
/api/analysis/, with the expected answer asserted. Sources: the rulebooks' examples, the official rulings
(game/rules/rulings.json: the id is named where one applies) and issue 13's list."""
import pytest

from tests.analysis.conftest import changes, choose, offered, position, refused, seat, space, walk, yes

pytestmark = pytest.mark.django_db

CRIMSON, GOLDEN, AMETHYST = "crimson_cavern", "golden_grotto", "amethyst_abyss"


def excavated(cave, column, seat_=0):
    return {"do": "excavate", "seat": seat_, "cave": cave, "column": column}


def dragon(card, cave, column, seat_=0, **more):
    return {"do": "dragon", "seat": seat_, "card": card, "cave": cave, "column": column, **more}


def nest(eggs, seat_=0):
    return {"do": "nest", "seat": seat_, "eggs": eggs}


def coins(n, seat_=0):
    return {"do": "coins", "seat": seat_, "coins": n}


def resources(seat_=0, **counts):
    full = {"meat": 0, "gold": 0, "crystal": 0, "milk": 0, **counts}
    return {"do": "resources", "seat": seat_, "resources": full}


def hand(*dragons, seat_=0):
    return {"do": "hand", "seat": seat_, "dragons": list(dragons)}


def cave_cards(n, seat_=0):
    return {"do": "cave_cards", "seat": seat_, "caves": n}


# -- excavating -------------------------------------------------------------------------------------------------

def test_q01_what_excavating_my_4th_crimson_space_costs(ask):
    """'What does excavating my 4th Crimson space cost me now?' 1 coin and 2 eggs."""
    result = ask(position(excavated(CRIMSON, 3), nest(2), coins(3), cave_cards(1)))
    option = next(o for o in offered(result, "excavate") if o["space"] == {"cave": CRIMSON, "column": 4})
    assert option["cost"] == {"coin": 1, "egg": 2}


def test_q02_the_3rd_column_costs_one_egg_and_the_2nd_none(ask):
    result = ask(position(excavated(CRIMSON, 2), excavated(GOLDEN, 1), nest(2), coins(3), cave_cards(1)))
    costs = {o["space"]["cave"]: o["cost"] for o in offered(result, "excavate")}
    assert costs[CRIMSON] == {"coin": 1, "egg": 1}
    assert costs[GOLDEN] == {"coin": 1}


def test_q03_without_two_eggs_the_4th_column_is_refused_with_the_rule(ask):
    result = ask(position(excavated(CRIMSON, 3), nest(1), coins(3), cave_cards(1)))
    assert not [o for o in offered(result, "excavate") if o["space"]["cave"] == CRIMSON]
    no = [o for o in refused(result, "excavate") if o["args"][1] == 0][0]
    assert "2 egg" in no["reason"] and no["rules"] == "/rules/#excavate"


def test_q04_a_free_play_a_cave_still_pays_the_columns_eggs(ask):
    """F1 / B2: cave card 58 excavates with the drawn card for no coin, but the 3rd column's egg is paid."""
    pos = position(nest(2), resources(meat=2), coins(0))
    attempt = {"card": "cave 58", "at": {"cave": CRIMSON, "column": 2}}
    result = ask(pos, attempt, [yes()])
    step = choose(result, "Crimson Cavern", "excavate")
    result = ask(pos, attempt, [yes(), step])
    assert space(result, CRIMSON, 3)["excavated"]
    assert seat(result)["nest"] == 1 and seat(result)["coins"] == 0
    assert any(r["id"] == "F1" for r in result["rulings"])


def test_q05_excavate_for_free_skips_coin_and_column_eggs(ask):
    """B2: Shaly Rockbreaker's when-played excavation into a 4th column costs neither coin nor eggs."""
    pos = position(excavated(AMETHYST, 3), excavated(CRIMSON, 3), dragon(113, AMETHYST, 1), nest(0), coins(0),
                   cave_cards(1))
    result = ask(pos, {"card": 113}, [yes()])
    result = ask(pos, {"card": 113}, [yes(), choose(result, "Crimson Cavern", "excavate")])
    assert space(result, CRIMSON, 4)["excavated"]
    assert seat(result)["coins"] == 0


def test_q06_the_4th_column_offers_its_pay_3_items_for_a_coin_bonus(ask):
    pos = position(excavated(CRIMSON, 3), nest(2), coins(1), cave_cards(2), resources(meat=3))
    result = ask(pos)
    decisions = [choose(result, "Crimson Cavern", "excavate")]
    result = ask(pos, {}, decisions)
    assert result["pending"]["kind"] == "cave_order"
    assert seat(result)["nest"] == 0 and seat(result)["coins"] == 0  # 1 coin and 2 eggs paid first
    decisions.append(choose(result, "4th column", "first"))
    result = ask(pos, {}, decisions)
    assert result["pending"]["kind"] == "use_ability"
    assert result["pending"]["data"]["effect"]["do"] == "choose"  # the 4th column: pay 3 items (any mix) for a coin
    assert {o["do"] for o in result["pending"]["data"]["effect"]["options"]} == {"pay"}
    result = ask(pos, {}, decisions + [yes()])
    assert result["pending"]["options"]  # which of the four ways to pay: any mix of resources and cards


# -- enticing ---------------------------------------------------------------------------------------------------

def test_q07_enticing_costs_a_coin_plus_the_printed_cost(ask):
    result = ask(position(hand(128), coins(2), resources(meat=1, crystal=1)))
    option = next(o for o in offered(result, "entice"))
    assert option["cost"] == {"coin": 1, "meat": 1, "crystal": 1}


def test_q08_a_dragon_cannot_be_enticed_into_a_cave_it_does_not_live_in(ask):
    result = ask(position(hand(128), coins(2), resources(meat=1, crystal=1)))
    no = [o for o in refused(result, "entice") if o["args"][1] == 1][0]
    assert "does not live in the Golden Grotto" in no["reason"]
    assert no["rules"] == "/rules/#entice"


def test_q09_entice_needs_an_excavated_empty_space(ask):
    pos = position(dragon(50, GOLDEN, 1), hand(93), coins(3), resources(gold=2))
    result = ask(pos)
    no = [o for o in refused(result, "entice") if o["args"][1] == 1][0]
    assert "no excavated empty space" in no["reason"]


def test_q10_resources_you_lack_may_be_made_by_exchange_when_enticing(ask):
    """B1: 2 resources for 1 of another kind, when paying for a card."""
    pos = position(hand(128), coins(2), resources(meat=1, gold=2))
    result = ask(pos)
    assert not offered(result, "entice")  # short of crystal: exchange first, then the dragon is affordable
    result = ask(pos, {}, [choose(result, "2 gold for 1 crystal", "exchange")])
    assert result["pending"]["kind"] == "main_action" and offered(result, "entice")


def test_q11_an_ability_that_plays_a_dragon_charges_no_entice_coin(ask):
    """F1: Perceptive Anteldragon plays a dragon from hand for free: no coin, no printed cost."""
    pos = position(dragon(65, AMETHYST, 1), excavated(AMETHYST, 2), hand(79), cave_cards(2), coins(0))
    result, decisions = walk(ask, pos, {"card": 65}, [yes()], lambda r: r["turn_start"])
    assert space(result, AMETHYST, 2)["dragon"]["number"] == 79
    assert seat(result)["coins"] == 0


def test_q12_a_discount_play_takes_one_item_off_and_no_coin(ask):
    """F1: cave cards 52-54 play a dragon paying 1 resource or egg less than printed, and no entice coin."""
    pos = position(hand(128), coins(0), resources(meat=1))
    result, decisions = walk(ask, pos, {"card": "cave 52", "at": {"cave": GOLDEN, "column": 2}}, [yes()],
                             lambda r: r["turn_start"])
    # Sharp-Tongued Spitter costs 1 meat and 1 crystal: the crystal is taken off, the meat paid, no coin
    assert space(result, CRIMSON, 1)["dragon"]["number"] == 128
    assert seat(result)["resources"]["meat"] == 0 and seat(result)["coins"] == 0


# -- exploring --------------------------------------------------------------------------------------------------

def test_q13_exploring_the_same_cave_again_costs_more_each_time(ask):
    """R3: 1 coin, then 1 coin and 1 egg, then 1 coin and 2 eggs; a 4th visit is refused."""
    def cost(times):
        result = ask(position({"do": "explored", "seat": 0, "cave": CRIMSON, "times": times}, coins(5), nest(2)))
        found = [o for o in offered(result, "explore") if o["args"] == [0]]
        return (found[0]["cost"] if found else None), result
    assert cost(0)[0] == {"coin": 1}
    assert cost(1)[0] == {"coin": 1, "egg": 1}
    assert cost(2)[0] == {"coin": 1, "egg": 2}
    third, result = cost(3)
    assert third is None
    assert "most times allowed" in [o for o in refused(result, "explore") if o["args"] == [0]][0]["reason"]


def test_q14_exploring_a_full_cave_still_ends_the_turn(ask):
    """F2: with all four spaces full, the walk runs off the end and the adventurer goes home."""
    pos = position(dragon(128, CRIMSON, 1), dragon(89, CRIMSON, 2), dragon(157, CRIMSON, 3), dragon(39, CRIMSON, 4),
                   coins(2))
    result = ask(pos)
    result, _ = walk(ask, pos, {}, [choose(result, "Explore the Crimson", "explore")],
                     lambda r: r["pending"]["kind"] == "main_action" and r["pending"]["player"] == 1)
    assert result["pending"]["player"] == 1


def test_q15_the_walk_stops_at_the_first_space_without_a_dragon(ask):
    pos = position(dragon(128, CRIMSON, 1), coins(2))
    result = ask(pos)
    result, decisions = walk(ask, pos, {}, [choose(result, "Explore the Crimson", "explore")],
                             lambda r: r["pending"]["kind"] == "main_action")
    assert result["pending"]["player"] == 1
    # the walk took the two icons before space 2 and then stopped: nothing past the guild icon was offered
    assert not any("Crimson Cavern 2" in text or "Crimson Cavern 3" in text for text in changes(result))
    assert seat(result)["explored"][CRIMSON] == 1


# -- hand limits, turns, passing --------------------------------------------------------------------------------

def test_q16_over_the_card_limit_you_discard_at_the_end_of_your_own_turn(ask):
    """R4: 9 cards; the discard comes when your turn ends, not when you go over."""
    pos = position(hand(128, 89, 157, 39, 50, 93, 100, 101), cave_cards(2), coins(2))
    result = ask(pos)
    decisions = [choose(result, "Explore the Crimson", "explore")]
    result, decisions = walk(ask, pos, {}, decisions, lambda r: r["pending"]["kind"] in ("discard_cards", "main_action"))
    assert result["pending"]["kind"] == "discard_cards" and result["pending"]["player"] == 0
    assert result["pending"]["data"] == {"keep": 9, "extra": 1}


def test_q17_going_over_on_someone_elses_turn_waits_for_your_own_turn_end(ask):
    """R4: player 2 holds 10 cards; player 1's turn ends without player 2 discarding."""
    pos = position(hand(128, 89, 157, 39, 50, 93, 100, 101, seat_=1), cave_cards(2, seat_=1), coins(2))
    result = ask(pos)
    result, _ = walk(ask, pos, {}, [{"kind": "pass", "args": []}],
                     lambda r: r["pending"]["kind"] in ("main_action", "discard_cards"))
    assert result["pending"]["player"] == 1 and result["pending"]["kind"] == "main_action"


def test_q18_coins_over_nine_are_lost_at_the_end_of_your_turn(ask):
    pos = position(coins(12))
    result = ask(pos, {}, [{"kind": "pass", "args": []}])
    assert seat(result)["coins"] == 9


def test_q19_a_player_who_passed_takes_no_more_turns(ask):
    pos = position({"do": "passed", "seat": 1, "passed": True}, coins(3))
    result = ask(pos)
    result = ask(pos, {}, [choose(result, "Explore the Crimson", "explore")])
    result, _ = walk(ask, pos, {}, [choose(ask(pos), "Explore the Crimson", "explore")],
                     lambda r: r["pending"]["kind"] == "main_action")
    assert result["pending"]["player"] == 0


def test_q20_exchange_is_offered_with_the_main_action(ask):
    result = ask(position(resources(meat=2)))
    assert choose(result, "Exchange 2 meat for 1 gold", "exchange")


def test_q20b_any_player_may_exchange_at_any_time_and_the_question_stays(ask):
    """Core rules, Resource Exchange: 'at any point in the game'. Seat 1 exchanges while seat 0 is to act."""
    result = ask(position(resources(meat=2), resources(gold=2, seat_=1)), {"seat": 1, "exchange": ["gold", "gold", "milk"]})
    assert result["pending"]["player"] == 0 and result["pending"]["kind"] == "main_action"
    assert seat(result, 1)["resources"]["gold"] == 0 and seat(result, 1)["resources"]["milk"] == 1
    assert any("exchanges 2 gold for 1 milk" in note for note in result["notes"])


def test_q20c_over_the_resource_limit_an_exchange_replaces_the_discard(ask):
    pos = position(resources(meat=10))
    result, decisions = walk(ask, pos, {}, [choose(ask(pos), "Pass", "pass")],
                             lambda r: r["pending"]["kind"] == "discard_resources")
    result = ask(pos, {}, decisions + [choose(result, "Exchange 2 meat for 1 milk", "exchange")])
    assert seat(result)["resources"] == {"meat": 8, "gold": 0, "crystal": 0, "milk": 1}
    assert result["pending"]["player"] == 1


def test_q21_exchanging_mid_ability_pays_a_resource_you_lack(ask):
    """B1: Fae Tamarin caches milk from your supply; with 2 gold and no milk, the exchange makes the milk."""
    pos = position(dragon(21, AMETHYST, 1), resources(gold=2))
    result = ask(pos, {"card": 21}, [yes()])
    assert space(result, AMETHYST, 1)["cached"] == {"milk": 1}
    assert seat(result)["resources"]["gold"] == 0


# -- end of round -----------------------------------------------------------------------------------------------

def test_q22_three_players_tied_for_first_and_the_next_one_is_second(ask):
    """B3: ties are friendly: three on first, the fourth on second."""
    pos = position({"do": "objective_tile", "round": 1, "tile": 3, "side": "a"},
                   dragon(128, CRIMSON, 1, seat_=0), dragon(89, CRIMSON, 1, seat_=1),
                   dragon(157, CRIMSON, 1, seat_=2), dragon(100, CRIMSON, 1, seat_=3), players=4)
    # 128, 157 and 100 hold 2 eggs each; 89 holds 3: player 2 is first alone, the other three tie for second
    result, _ = walk(ask, pos, {"end": "round"}, [], lambda r: r["table"]["round"] == 2)
    places = [s["objectives"][0] for s in result["table"]["seats"]]
    assert places == [2, 1, 2, 2]


def test_q23_three_tied_for_first_push_nobody_down(ask):
    pos = position({"do": "objective_tile", "round": 1, "tile": 3, "side": "a"},
                   dragon(128, CRIMSON, 1, seat_=0), dragon(157, CRIMSON, 1, seat_=1),
                   dragon(100, CRIMSON, 1, seat_=2), dragon(50, GOLDEN, 1, seat_=3), players=4)
    result, _ = walk(ask, pos, {"end": "round"}, [], lambda r: r["table"]["round"] == 2)
    assert [s["objectives"][0] for s in result["table"]["seats"]] == [1, 1, 1, 2]


def test_q24_a_player_with_none_of_the_objective_goes_on_all_others(ask):
    pos = position({"do": "objective_tile", "round": 1, "tile": 3, "side": "a"}, dragon(128, CRIMSON, 1))
    result, _ = walk(ask, pos, {"end": "round"}, [], lambda r: r["table"]["round"] == 2)
    assert [s["objectives"][0] for s in result["table"]["seats"]] == [1, 0]


def test_q25_the_egg_capacity_objective_counts_dragons_not_mat_nests(ask):
    """O5: with no dragons, full mat nests score nothing on tile 3 side A."""
    pos = position({"do": "objective_tile", "round": 1, "tile": 3, "side": "a"}, nest(2), dragon(50, GOLDEN, 1, seat_=1))
    result, _ = walk(ask, pos, {"end": "round"}, [], lambda r: r["table"]["round"] == 2)
    assert [s["objectives"][0] for s in result["table"]["seats"]] == [0, 1]


def test_q26_income_at_round_end_is_six_coins_and_an_egg(ask):
    pos = position(coins(0), nest(0), coins(0, seat_=1))
    result, _ = walk(ask, pos, {"end": "round"}, [], lambda r: r["table"]["round"] == 2)
    assert seat(result)["coins"] == 6 and seat(result)["nest"] == 1


def test_q27_once_per_round_abilities_fire_when_the_round_ends(ask):
    """F3: Common Blue Gryphdragon lays on each dragon in its own cave only."""
    pos = position(dragon(79, AMETHYST, 1), dragon(21, AMETHYST, 2), dragon(113, AMETHYST, 3),
                   dragon(50, GOLDEN, 1))
    result, _ = walk(ask, pos, {"end": "round"}, [], lambda r: r["table"]["round"] == 2)
    assert space(result, AMETHYST, 1)["eggs"] == 1 and space(result, AMETHYST, 3)["eggs"] == 1
    assert space(result, GOLDEN, 1)["eggs"] == 0


# -- card abilities and rulings ---------------------------------------------------------------------------------

def test_q28_tucking_for_a_resource_of_its_cost_gives_one_of_those_resources(ask):
    """F4: Hawkish Firevern: tuck Sharp-Tongued Spitter (meat, crystal) and pick one of meat or crystal."""
    pos = position(dragon(80, CRIMSON, 1), hand(128, 50))
    result = ask(pos, {"card": 80}, [yes()])
    result = ask(pos, {"card": 80}, [yes(), choose(result, "Sharp-Tongued", "tuck")])
    assert sorted(o["args"][0] for o in offered(result, "resource")) == ["crystal", "meat"]
    assert any(r["id"] == "F4" for r in result["rulings"])


def test_q29_swapped_dragons_keep_their_eggs_and_cached_resources(ask):
    """D1: Wily Lindworm swaps two dragons; what is on them moves with them."""
    pos = position(dragon(157, CRIMSON, 1), dragon(128, CRIMSON, 2, eggs=2), dragon(50, GOLDEN, 1, cached={"gold": 1}))
    result, _ = walk(ask, pos, {"card": 157}, [yes()],
                     lambda r: r["pending"]["kind"] == "main_action")
    moved = {s["dragon"]["number"]: s for s in seat(result)["mat"] if s["dragon"]}
    assert moved[128]["eggs"] == 2 and moved[50]["cached"] == {"gold": 1}


def test_q30_an_egg_paid_for_exploring_may_come_from_a_dragon_or_a_mat_nest(ask):
    """D3 / R3: the second visit's egg is taken from anywhere on your mat."""
    pos = position({"do": "explored", "seat": 0, "cave": GOLDEN, "times": 1}, nest(1), coins(2),
                   dragon(128, CRIMSON, 1, eggs=1))
    result = ask(pos)
    result = ask(pos, {}, [choose(result, "Explore the Golden", "explore")])
    places = {o["detail"] for o in offered(result, "pay")}
    assert result["pending"]["kind"] == "pay" and result["pending"]["data"]["item"] == "egg"
    assert "Sharp-Tongued Spitter" in places and len(offered(result, "pay")) == 2  # exchanges are offered beside


def test_q31_good_drake_pays_its_coin_first(ask):
    """D2: a cost is paid before its benefit."""
    pos = position(dragon(108, GOLDEN, 1), coins(1))
    result = ask(pos, {"card": 108}, [yes()])
    first = result["steps"][1]["changes"]
    assert any(c["what"] == "coins" and c["after"] == 0 for c in first)


# -- Dragon Academy ---------------------------------------------------------------------------------------------

def test_q32_academy_passing_takes_a_free_income_space(ask):
    result = ask(position(academy=True))
    passes = offered(result, "pass")
    assert passes and all(o["args"] for o in passes)


def test_q33_academy_an_income_space_already_taken_is_refused(ask):
    pos = position({"do": "income", "seat": 1, "space": 1}, academy=True)
    result = ask(pos)
    assert [0] not in [o["args"] for o in offered(result, "pass")]


def test_q34_academy_an_untrained_fledglings_ability_sleeps_and_walking_onto_it_offers_training(ask):
    """Dragon Academy: Agile Gryphdragon's own ability (train twice for free) waits until it is fully trained."""
    pos = position(dragon(191, AMETHYST, 1), resources(milk=1), academy=True)
    result = ask(pos, {"card": 191})
    assert "not fully trained" in result["notes"][0]
    assert result["pending"]["data"]["effect"] == {"do": "train", "on": {"scope": "here"}}
    trained = ask(pos, {"card": 191}, [yes()])
    assert space(trained, AMETHYST, 1)["tokens"] == 1 and seat(trained)["resources"]["milk"] == 0


def test_q35_academy_walking_onto_a_fledgling_offers_training(ask):
    pos = position(dragon(191, AMETHYST, 1), coins(2), resources(milk=1), academy=True)
    result = ask(pos)
    result, decisions = walk(ask, pos, {}, [choose(result, "Explore the Amethyst", "explore")],
                             lambda r: r["pending"]["kind"] in ("use_ability", "main_action"))
    assert result["pending"]["kind"] == "use_ability" and result["pending"]["data"]["effect"]["do"] == "train"
    assert result["pending"]["data"]["card"]["number"] == 191
    result = ask(pos, {}, decisions + [yes()])
    assert space(result, AMETHYST, 1)["tokens"] == 1 and seat(result)["resources"]["milk"] == 0


def test_q36_academy_each_fledgling_scores_one_vp_per_fledgling(ask):
    one = ask(position(dragon(191, AMETHYST, 1), academy=True))
    two = ask(position(dragon(191, AMETHYST, 1), dragon(185, AMETHYST, 2), academy=True))
    assert seat(two)["vp"] - seat(one)["vp"] == 3  # 1 -> 2 fledglings: 1 VP becomes 2 x 2 VP


def test_q37_academy_train_twice_may_train_the_same_fledgling_twice(ask):
    """O1 (no official ruling): this engine offers the same fledgling at both times."""
    pos = position(dragon(191, AMETHYST, 1, tokens=2), dragon(185, AMETHYST, 2), academy=True)
    result = ask(pos, {"card": 191}, [yes()])
    result, _ = walk(ask, pos, {"card": 191}, [yes()],
                     lambda r: r["pending"]["kind"] == "main_action")
    assert space(result, AMETHYST, 2)["tokens"] == 2


# -- the Dragon Guild and game end ------------------------------------------------------------------------------

def test_q38_several_guild_advancements_give_every_space_passed_and_a_brown_space_a_marker(ask):
    """Rules: each space passed gives its benefit; reaching a brown space places a marker."""
    pos = position({"do": "guild", "seat": 0, "advancements": 4}, {"do": "guild_tile", "tile": 1})
    result, decisions = walk(ask, pos, {"guild": 2}, [], lambda r: any(o["kind"] == "marker" for o in offered(r)))
    kinds = [e["event"]["e"] for step in result["steps"] for e in step["events"]]
    assert kinds.count("guild") == 2
    assert result["pending"]["kind"] == "guild_marker"


def test_q39_guild_of_highlands_excavates_a_4th_column_with_no_eggs(ask):
    """R5: after its own coin, Highlands' excavations pay neither coins nor column eggs."""
    pos = position({"do": "guild_tile", "tile": 3}, {"do": "guild", "seat": 0, "advancements": 5},
                   excavated(CRIMSON, 3), nest(0), coins(1), cave_cards(2))
    result = ask(pos, {"guild": 1})
    decisions = [choose(result, "row 1", "marker")]
    result, decisions = walk(ask, pos, {"guild": 1}, decisions + [yes()],
                             lambda r: any(o["kind"] == "excavate" for o in offered(r)))
    result = ask(pos, {"guild": 1}, decisions + [choose(result, "Crimson Cavern", "excavate")])
    assert space(result, CRIMSON, 4)["excavated"] and seat(result)["nest"] == 0 and seat(result)["coins"] == 0


def test_q40_markers_on_the_guild_score_the_end_game_squares_they_sit_on(ask):
    """F5: the END GAME row's 6 / 3 / 1 VP, not a count of markers."""
    pos = position({"do": "guild_tile", "tile": 1}, {"do": "marker", "seat": 0, "row": 5, "square": 1},
                   {"do": "marker", "seat": 1, "row": 5, "square": 3})
    result, _ = walk(ask, pos, {"end": "game"}, [], lambda r: r["finished"])
    assert [s["guild"] for s in result["table"]["result"]["scores"]] == [6, 1]


def test_q41_solo_the_automa_plays_inside_the_engine_and_you_choose_only_your_own_moves(ask):
    """Automa rules: the solo opponent makes no decisions; every question is yours."""
    pos = position(coins(3), players=1, seed=2)
    result, decisions = walk(ask, pos, {}, [choose(ask(pos), "Explore the Crimson", "explore")],
                             lambda r: r["pending"]["kind"] == "main_action", limit=12)
    assert all(step["seat"] == 0 for step in result["steps"][1:])
    kinds = [e["event"]["e"] for step in result["steps"] for e in step["events"]]
    assert kinds[-2:] == ["automa_turn", "turn"]  # after your turn she takes hers, and your next turn begins


def test_q42_academy_a_conditional_cost_dragon_is_free_when_its_condition_holds_but_the_coin_is_still_paid(ask):
    """Dragon Academy: Gilded Whiskered Serpent is free beside a fledgling; enticing still costs its coin."""
    def entice(*edits):
        result = ask(position(*edits, hand(233), coins(1), resources(), academy=True))
        return [o["cost"] for o in offered(result, "entice")]
    assert entice(dragon(191, AMETHYST, 1)) == [{"coin": 1}]  # the fledgling is right below Golden Grotto 1
    assert entice() == []  # without it the serpent costs its gold, which this player lacks

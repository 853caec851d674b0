"""The Automa step by step: setup, a turn, brown spaces, the refresh, objective coins, passing, round end, Ravel
counts, Dragon Academy's changes and her score, with the worked examples of the rules files."""
from collections import Counter

import pytest

from game.engine import automa as solo
from game.engine.decisions import MalformedDecision, Option
from game.engine.position import export_position, load_position
from game.engine.state import GameState
from game.engine.view import view_for

from .helpers import real_catalogue

CAT = real_catalogue()
RULES = solo.rules(CAT)


def new_solo(level=1, ravel=False, academy=False, seed=1):
    """A solo game at the player's first action (setup answered with the first options)."""
    st = GameState.new(CAT, players=1, seed=seed, academy=academy, automa={"level": level, "ravel": ravel})
    while not any(o.kind == "pass" for o in st.legal_options()):
        st.apply(st.legal_options()[0])
    return st


def edit(st, change, **automa):
    """The same game as a position, edited by `change(position)` (and her fields `automa` set) and loaded again; the
    guild tile's squares are laid out anew from the markers."""
    table = export_position(st)
    table["guild"].pop("squares", None)
    table["automa"].update(automa)
    if change is not None:
        change(table)
    return load_position(CAT, table)


def top(st, *numbers, **automa):
    """The same game with these cards on top of her deck, the first drawn first; the rest of her 8 stay below (one
    set aside), none played yet."""
    def change(table):
        a = table["automa"]
        below = list(reversed(a["deck"])) + a["played"] + a["aside"]  # bottom of the deck first
        rest = [n for n in below if n not in numbers]
        a["aside"], a["deck"], a["played"] = rest[:1], list(numbers) + list(reversed(rest[1:])), []
    return edit(st, change, **automa)


def last(st, *numbers, **automa):
    """The same game with only these cards left in her deck (the first drawn first): the others of this round's
    deck played already."""
    def change(table):
        a = table["automa"]
        others = [n for n in a["played"] + list(reversed(a["deck"])) + a["aside"] if n not in numbers]
        a["aside"] = [n for n in a["aside"] if n not in numbers] or others[-1:]  # one card stays set aside
        a["played"] = [n for n in others if n not in a["aside"]]
        a["deck"] = list(numbers)
    return edit(st, change, **automa)


def turn(st):
    st.events = []
    solo.play_turn(st)
    return [e for e in st.events if e["e"].startswith("automa")]


def on_tile(st, number, held=(), **automa):
    """The same game on the guild tile with this catalogue index, the player's markers on the squares `held`."""
    def change(table):
        table["guild"]["tile"] = CAT.guild_tiles[number]["number"]
        table["players"][0]["guild_markers"] = [list(square) for square in held]
    return edit(st, change, **automa)


def on_objective(st, index, side):
    """The same game with this objective tile (catalogue index) and side for round 1."""
    def change(table):
        number = CAT.objective_tiles[index]["number"]
        rounds = table["objectives"]
        later = [k for k, o in enumerate(rounds) if o["tile"] == number]
        if later:  # the tile was dealt for a later round: it trades places with round 1's
            rounds[later[0]] = rounds[0]
        rounds[0] = {"tile": number, "side": side}
    return edit(st, change)


def pass_player(st):
    """The player passes (on the first income space offered, with Dragon Academy)."""
    st.apply(next(o for o in st.legal_options() if o.kind == "pass"))


# -- setup and bad input -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("level,ravel", [(lv, r) for r in (False, True) for lv in (1, 2, 3)])
def test_each_level_builds_its_deck_of_eight_cards_with_one_set_aside(level, ravel):
    st = new_solo(level, ravel)
    a = st.automa
    expected = next(e["cards"] for e in RULES["levels"] if e["level"] == level and e["ravel"] == ravel)
    assert sorted(a["cards"]) == sorted(expected)
    assert len(a["deck"]) == 7 and len(a["aside"]) == 1
    assert Counter(a["deck"] + a["aside"]) == Counter(expected)
    assert a["guild"] == 0 and a["markers_ready"] == 1 and a["markers"] == []
    assert not a["dragons"] and not a["caves"] and a["cache"] == 0


def test_level_2_swaps_in_the_cards_marked_1_4_2_5_and_3_6_and_ravel_swaps_in_r_cards():
    corners = {c["number"]: c["corner"] for c in RULES["cards"]}
    assert [corners[n] for n in solo.deck_cards(CAT, 2, False)[:3]] == ["1/4", "2/5", "3/6"]
    assert all(corners[n].startswith("R") for n in solo.deck_cards(CAT, 3, True) if n > 11)
    assert 7 in solo.deck_cards(CAT, 1, True) and 8 not in solo.deck_cards(CAT, 1, True)


def test_base_game_the_player_starts_every_round():
    st = new_solo()
    assert st.start == 0 and st.automa["played"] == []


def test_dragon_academy_draws_the_start_player_at_random_and_she_may_open_the_round():
    starts = {}
    for seed in range(12):
        st = new_solo(academy=True, seed=seed)
        starts[st.start] = st
    assert set(starts) == {0, 1}
    assert len(starts[1].automa["played"]) == 1 and starts[0].automa["played"] == []


def test_the_guild_position_objective_is_never_dealt_solo():
    guild_position = [i for i, t in enumerate(CAT.objective_tiles)
                      if t["sides"]["b"]["counts"]["what"] == "guild_position"]
    dealt_solo, dealt_pair = set(), set()
    for seed in range(60):
        solo_game = GameState.new(CAT, players=1, seed=seed, automa={"level": 1, "ravel": False})
        pair = GameState.new(CAT, players=2, seed=seed)
        dealt_solo |= {tuple(o) for o in solo_game.objectives}
        dealt_pair |= {tuple(o) for o in pair.objectives}
        assert len({t for t, _ in solo_game.objectives}) == 4
    assert (guild_position[0], "b") in dealt_pair  # the check below could fail
    assert (guild_position[0], "b") not in dealt_solo


@pytest.mark.parametrize("kwargs,field,words", [
    ({"players": 1}, "automa", "a 1-player game is played against the Automa"),
    ({"players": 2, "automa": {"level": 1}}, "automa", "only solo games"),
    ({"players": 1, "automa": {"level": 4}}, "automa.level", "one of the levels 1, 2, 3"),
    ({"players": 1, "automa": {"level": "1"}}, "automa.level", "one of the levels"),
    ({"players": 1, "automa": {"level": True}}, "automa.level", "one of the levels"),
    ({"players": 1, "automa": {"level": 1, "ravel": "yes"}}, "automa.ravel", "true or false"),
    ({"players": 1, "automa": {"level": 1, "speed": 2}}, "automa.speed", "unknown setting"),
    ({"players": 1, "automa": [1]}, "automa", "expected an object"),
])
def test_bad_solo_options_are_refused_naming_the_field(kwargs, field, words):
    with pytest.raises(MalformedDecision, match=words) as err:
        GameState.new(CAT, seed=1, **kwargs)
    assert err.value.field == field and str(err.value).startswith(field + ":")


def test_a_catalogue_without_automa_rules_refuses_a_solo_game():
    from game.engine.catalogue import Catalogue

    from .helpers import board_facts, cave, dragon
    bare = Catalogue.from_records([dragon(1)], [cave(1)], [], [], board_facts())
    with pytest.raises(MalformedDecision, match="no Automa rules"):
        GameState.new(bare, players=1, automa={"level": 1})


# -- a turn ------------------------------------------------------------------------------------------------------


def test_a_turn_advances_her_token_by_the_cards_number_for_the_round():
    st = top(new_solo(level=3), 1)  # level 3 holds cards 1 and 11; 1 advances 1, 2, 2, 2 by round
    [event] = turn(st)
    assert st.automa["guild"] == 1 and st.automa["played"] == [1]
    assert event == dict(event, e="automa_turn", p=1, card=1, steps=1, refresh=False, coins=0, space=1, brown=[])
    st = top(edit(st, lambda table: table.update(round=4)), 11)  # 2, 1, 4, 3
    turn(st)
    assert st.automa["guild"] == 4


def test_her_turn_refreshes_first_then_moves_the_coin_then_advances():
    # one step from the START space, which is brown; card 7: refresh, +1 coin, advance 1; brown space: dragon in
    # slot 2, a guild marker
    st = top(new_solo(), 7, guild=11)
    caves = list(st.display_caves)
    old = list(st.display_dragons)
    fresh = st.dragon_deck[-3:]
    [event] = turn(st)
    assert event["refresh"] and event["coins"] == 1 and event["steps"] == 1
    assert st.display_caves == caves, "the refresh leaves the cave cards"
    assert set(old) <= set(st.dragon_discard)
    # the brown space came after the refresh: she took a dragon dealt by it
    assert st.automa["dragons"] == [fresh[-2]] and st.automa["coins"] == 1


# -- brown spaces ------------------------------------------------------------------------------------------------


def test_a_brown_space_gives_her_the_dragon_and_cave_card_in_the_named_slots_and_the_display_refills():
    st = top(new_solo(), 2, guild=5)  # advance 1 onto space 6 (brown): dragon slot 2, cave slot 2
    dragon, cave = st.display_dragons[1], st.display_caves[1]
    next_dragon, next_cave = st.dragon_deck[-1], st.cave_deck[-1]
    [event] = turn(st)
    assert st.automa["dragons"] == [dragon] and st.automa["caves"] == [cave]
    assert st.display_dragons[1] == next_dragon and st.display_caves[1] == next_cave
    assert event["brown"] == [{"dragon": dragon, "cave": cave, "marker": None}] and event["space"] == 6


def test_moving_past_a_brown_space_counts_as_reaching_it():
    st = top(new_solo(), 3, guild=5)  # advance 2 in round 1: through space 6 to space 7
    [event] = turn(st)
    assert event["space"] == 7 and len(st.automa["dragons"]) == 1 and len(st.automa["caves"]) == 1


def test_ordinary_track_spaces_give_her_nothing():
    st = new_solo(level=2)
    assert 9 in st.automa["cards"]
    st = top(st, 9)  # a level-2 card: 2 steps in round 1, onto spaces 1 and 2
    turn(st)
    assert st.automa["dragons"] == [] and st.automa["caves"] == [] and st.automa["markers"] == []


def test_an_empty_display_slot_gives_her_nothing_for_that_part():
    def no_dragon_in_slot_2(table):  # and no dragon left to refill it with: the decks hold them all but it
        shown = table["display"]["dragons"]
        table["players"][0]["hand"] += table["decks"]["dragons"] + table["discards"]["dragons"] + [shown[1]]
        table["decks"]["dragons"], table["discards"]["dragons"], shown[1] = [], [], None
    st = top(edit(new_solo(), no_dragon_in_slot_2), 2, guild=5)
    turn(st)
    assert st.automa["dragons"] == [] and len(st.automa["caves"]) == 1


def test_her_guild_marker_goes_on_the_nth_ability_with_a_free_square():
    st = on_tile(new_solo(), 0)  # Plains Guild: rows of 2, 1, 1 and 1 squares, then the END GAME row
    assert solo.place_marker(st, 3) == [2, 0]
    # the player holds one of row 1's two squares: it still has a free one
    st = on_tile(st, 0, held=[[0, 0]], markers_ready=3)
    assert solo.place_marker(st, 1) == [0, 1]
    # rows 1 and 3 are now full: the open rows are 2 and 4, then the END GAME row
    assert solo.place_marker(st, 3) == [-1, 0]
    assert st.guild_board[-1][0] == [1]


def test_counting_past_the_end_game_row_wraps_round_and_full_rows_are_skipped():
    # the player holds every square of rows 1-3
    st = on_tile(new_solo(), 0, held=[[0, 0], [0, 1], [1, 0], [2, 0]], markers_ready=4)
    # open: row 4, then the END GAME row; 4 counts row 4, END, row 4, END
    assert solo.place_marker(st, 4) == [-1, 0]
    assert solo.place_marker(st, 3) == [3, 0]
    # only the END GAME row is left: its squares fill from the best, and the last holds any number
    assert solo.place_marker(st, 2) == [-1, 1]
    assert solo.place_marker(st, 2) == [-1, 2]
    assert st.automa["markers_ready"] == 0


def test_without_a_marker_ready_she_places_none():
    st = edit(new_solo(), None, markers_ready=0)
    assert solo.place_marker(st, 2) is None
    assert all(not sq for row in st.guild_board for sq in row)


def test_the_players_marker_options_skip_squares_she_holds():
    st = on_tile(new_solo(), 0)
    solo.place_marker(st, 2)  # row 2 (1 square)
    from game.engine.flow import marker_options
    assert Option("marker", (1, 0)) not in marker_options(st, 0)


# -- objective coins and round-end scoring -----------------------------------------------------------------------


def test_objective_coins_go_up_and_down_but_never_below_zero():
    st = new_solo()
    assert solo.adjust_objective(st, -1) == 0 and st.automa["coins"] == 0
    assert solo.adjust_objective(st, 1) == 1
    assert solo.adjust_objective(st, 1) == 1 and st.automa["coins"] == 2
    assert solo.adjust_objective(st, -1) == -1 and st.automa["coins"] == 1


def tile(counts_what, side_has=None):
    for i, t in enumerate(CAT.objective_tiles):
        for side, data in t["sides"].items():
            if data["counts"]["what"] == counts_what and (side_has is None or side_has(data)):
                return i, side
    raise LookupError(counts_what)


def test_worked_example_round_2_base_value_1_and_2_coins_counts_3():
    index, side = tile("dragons", lambda d: d["counts"].get("kind") == "if_activated")
    assert CAT.objective_tiles[index]["sides"][side]["automa_values"][1] == 1
    st = edit(new_solo(), lambda table: table.update(round=2), coins=2)
    assert solo.objective_count(st, index, side) == 3


def test_her_count_is_capped_at_what_a_cave_can_hold():
    index, side = tile("cards_in_cave")
    st = edit(new_solo(), lambda table: table.update(round=4), coins=3)
    assert CAT.objective_tiles[index]["sides"][side]["automa_values"][3] == 5
    assert solo.objective_count(st, index, side) == 7  # 3 cave cards and 4 dragons


def test_round_end_places_her_on_the_objective_with_friendly_ties_and_returns_the_coins():
    index, side = tile("dragons", lambda d: d["counts"].get("size") == "small")  # Automa values 0, 1, 2, 3

    def a_small_dragon_first_in_the_crimson_cavern(table):  # the player counts 1 too
        small = next(n for n in table["decks"]["dragons"] if (d := CAT.dragons[number_of[n]]).size == "small"
                     and 0 in d.habitats)
        table["decks"]["dragons"].remove(small)
        table["players"][0]["mat"]["crimson_cavern"][0] = {"dragon": small}
    number_of = {c.number: c.index for c in CAT.dragons if c.printing == "original"}
    st = edit(on_objective(new_solo(), index, side), a_small_dragon_first_in_the_crimson_cavern, coins=1)  # 0 + 1
    st.events = []
    from game.engine.flow import score_objective
    score_objective(st)
    assert st.players[0].objectives == [1] and st.automa["objectives"] == [1]
    assert st.automa["coins"] == 0
    assert [e for e in st.events if e["e"] == "automa_objective"] == [
        {"e": "automa_objective", "p": 1, "round": 1, "count": 1, "place": 1, "coins": 1}]


def test_with_zero_she_places_on_all_others():
    index, side = tile("dragons", lambda d: d["counts"].get("trait") == "shy")  # 0, 0, 1, 2
    st = on_objective(new_solo(), index, side)
    from game.engine.flow import score_objective
    score_objective(st)
    assert st.automa["objectives"] == [0]


# -- passing and round end ---------------------------------------------------------------------------------------


def test_the_last_card_of_her_deck_with_the_pass_mark_makes_her_pass_without_carrying_it_out():
    st = last(new_solo(), 3)  # the pass mark; it would advance 2
    before = list(st.automa["played"])
    events = turn(st)
    a = st.automa
    assert a["passed"] and a["guild"] == 0 and a["played"] == before + [3]
    assert events == [{"e": "automa_pass", "p": 1, "round": 1, "card": 3, "income_space": None}]


def test_a_last_card_without_the_pass_mark_is_carried_out_and_she_passes_at_her_next_turn():
    st = last(new_solo(), 1)
    a = st.automa
    turn(st)
    assert not a["passed"] and a["guild"] == 1
    [event] = turn(st)
    assert a["passed"] and event["card"] is None


def test_after_the_player_passes_she_plays_on_alone_until_she_passes_then_the_round_ends():
    st = new_solo()
    st.events = []
    pass_player(st)
    turns = [e for e in st.events if e["e"] == "automa_turn"]
    passes = [e for e in st.events if e["e"] == "automa_pass"]
    assert 6 <= len(turns) <= 7 and len(passes) == 1
    assert st.round == 2 and not st.automa["passed"]


def test_round_end_readies_a_marker_rebuilds_her_deck_and_keeps_the_player_starting():
    st = edit(new_solo(), None, markers_ready=0, markers=[[-1, 2]])
    pass_player(st)
    a = st.automa
    assert st.round == 2 and st.start == 0
    assert a["markers_ready"] == 1 and len(a["deck"]) in (6, 7) and a["coins"] == 0
    # four markers at most: with 4 already out, none more becomes ready
    st = edit(st, None, markers=[[-1, 2]] * 4, markers_ready=0)
    a = st.automa
    while st.round == 2:
        pass_player(st)
    assert a["markers_ready"] == 0


def test_she_takes_six_or_seven_turns_a_round_while_the_player_acts():
    for seed in range(4, 10):
        st = new_solo(seed=seed)
        events = []
        while st.round == 1:
            st.events = []
            options = [o for o in st.legal_options() if o.kind == "explore"] or st.legal_options()
            st.apply(options[0])
            events += [e for e in st.events if e.get("round") == 1]
        turns = [e for e in events if e["e"] == "automa_turn"]
        [passed] = [e for e in events if e["e"] == "automa_pass"]
        # 7 cards: she carries out 6 and passes on the 7th (its pass mark), or carries out all 7 and passes after
        assert (len(turns), passed["card"] is None) in ((6, False), (7, True))


# -- Ravel Mode --------------------------------------------------------------------------------------------------


def test_ravel_counts_read_the_players_excavated_caves():
    st = new_solo(ravel=True)
    assert solo.excavated_counts(st) == [1, 1, 1]  # the first space of each cave is always excavated

    def dig(table):  # the Crimson Cavern fully excavated, and a dragon in the Golden Grotto's 2nd space
        caves, dragons = table["decks"]["caves"], table["decks"]["dragons"]
        mat = table["players"][0]["mat"]
        mat["crimson_cavern"] = [{}] + [{"cave_card": caves.pop()} for _ in range(3)]
        mat["golden_grotto"] = [{}, {"cave_card": caves.pop(), "dragon": dragons.pop()}, None, None]
    st = edit(st, dig)
    assert solo.excavated_counts(st) == [4, 2, 1]
    assert solo.advance_steps(st, solo.card(CAT, 12)) == 4  # most excavated
    assert solo.advance_steps(st, solo.card(CAT, 16)) == 5  # most excavated + 1
    assert solo.advance_steps(st, solo.card(CAT, 13)) == 1  # least excavated


def test_ravel_mode_discards_the_player_down_to_2_coins_between_rounds():
    coins = {}
    for ravel in (False, True):
        st = edit(new_solo(ravel=ravel), lambda table: table["players"][0].update(coins=7))
        pass_player(st)
        coins[ravel] = st.players[0].coins
    assert coins == {False: 7 + 6, True: 2 + 6}


# -- Dragon Academy ----------------------------------------------------------------------------------------------


def six_coin_spaces(rnd):
    return [i for i, income in enumerate(CAT.academy_income[rnd]) if income == RULES["academy"]["closes_income"]]


def test_when_she_passes_first_the_six_income_space_is_closed_to_the_player():
    st = last(new_solo(academy=True, seed=2), 3)
    turn(st)
    st.put_to_move(0)  # the player is asked again, now that she passed
    [space] = six_coin_spaces(1)
    assert st.automa["income_space"] == space and st.income_taken[str(space)] == 1
    passes = [o for o in st.legal_options() if o.kind == "pass"]
    assert passes and Option("pass", (space,)) not in passes


def test_in_round_3_both_six_income_spaces_close():
    st = last(edit(new_solo(academy=True, seed=2), lambda table: table.update(round=3)), 3)
    turn(st)
    spaces = six_coin_spaces(3)
    assert len(spaces) == 2
    st.put_to_move(0)  # the player is asked again, now that she passed
    passes = [o for o in st.legal_options() if o.kind == "pass"]
    assert passes and not any(o.args and o.args[0] in spaces for o in passes)


def test_when_the_player_passes_first_the_six_income_space_stays_theirs():
    st = new_solo(academy=True, seed=2)
    st = last(st, st.automa["deck"][-1])  # her top card only: she will pass at her next turn
    [space] = six_coin_spaces(1)
    coins = st.players[0].coins
    st.apply(Option("pass", (space,)))
    assert st.round == 2 and st.players[0].coins == coins + 6
    assert st.automa["income_space"] is None


def test_the_start_player_alternates_between_rounds_with_dragon_academy():
    st = new_solo(academy=True, seed=3)
    starts = [st.start]
    while st.round < 4:
        pass_player(st)
        starts.append(st.start)
    assert starts in ([0, 1, 0, 1], [1, 0, 1, 0])


def cache_after(share, academy=True, answer="yes"):
    st = new_solo(academy=academy)
    st.events = []
    st.fire_ability(0, {"effect": {"do": "gain", "item": "coin"}, "others": share}, source="test")
    st.apply(Option(answer))
    return st


def card_share(kind, number):
    cards = CAT.dragons if kind == "dragon" else CAT.caves
    card = next(c for c in cards if c.number == number and c.printing == "original")
    return next(a["others"] for a in card.abilities if a.get("others"))


@pytest.mark.parametrize("kind,number,tokens", [
    ("dragon", 236, 2),  # example 1: all opponents gain 1 milk
    ("cave", 69, 1),  # example 2: each opponent may pay 1 resource for 1 guild advancement
    ("cave", 70, 2),  # example 3: each opponent may pay 1 resource to lay 2 eggs
    ("cave", 74, 2),  # pay an egg for 2 resources: 1 token per item paid for
    ("cave", 50, 2),  # a choice of one item
])
def test_automas_cache_worked_examples(kind, number, tokens):
    share = card_share(kind, number)
    st = cache_after(share)
    assert st.automa["cache"] == tokens
    assert [e for e in st.events if e["e"] == "automa_cache"][0]["tokens"] == tokens


def test_she_takes_her_cache_even_when_the_player_declines_their_own_part():
    assert cache_after({"do": "gain", "item": "milk"}, answer="no").automa["cache"] == 2


def test_the_data_can_make_her_cache_wait_for_the_player_to_use_the_ability():
    rates = RULES["academy"]["cache"]
    rates["when_owner_declines"] = False
    try:
        assert cache_after({"do": "gain", "item": "milk"}, answer="no").automa["cache"] == 0
        assert cache_after({"do": "gain", "item": "milk"}, answer="yes").automa["cache"] == 2
    finally:
        rates["when_owner_declines"] = True


def test_without_dragon_academy_she_gains_nothing_from_opponents_shares():
    assert cache_after({"do": "gain", "item": "milk"}, academy=False).automa["cache"] == 0


# -- scoring -----------------------------------------------------------------------------------------------------


def test_her_score_counts_dragons_by_level_cave_cards_guild_steps_squares_and_cache():
    score = solo.score(CAT, level=1, dragon_cards=9, cave_cards=4, guild_steps=3, markers=[[-1, 0], [2, 0]],
                       objective_places=[1, 0, 2, 1], cache_tokens=7)
    assert (score["dragons"], score["items"], score["guild"], score["cached"]) == (63, 8, 3, 3)
    assert score["objectives"] == 4 + 0 + 3 + 7
    assert score["total"] == 63 + 8 + 3 + 3 + 14
    assert solo.score(CAT, level=3, dragon_cards=9)["dragons"] == 72
    assert solo.score(CAT, level=3, ravel=True, dragon_cards=9)["dragons"] == 72
    ravel = solo.score(CAT, ravel=True, markers=[[-1, 0], [-1, 2], [1, 0]])
    assert ravel["guild"] == 6 + 1


def test_guild_steps_count_from_her_last_brown_space():
    assert [solo.steps_past_brown(CAT, n) for n in range(14)] == [0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 0, 1]


def finished(seed=1, **kwargs):
    from game.engine.agents import play_out
    st = GameState.new(CAT, players=1, seed=seed, automa=kwargs or {"level": 1})
    play_out(st, seed=seed)
    return st


def test_the_result_puts_her_at_seat_1_and_a_tie_goes_to_the_player():
    st = finished()
    assert st.result["scores"][1] == solo.current_score(st)
    hers = solo.current_score(st)["total"]
    for mine, winners, places in ((hers, [0], [1, 2]), (hers - 1, [1], [2, 1]), (hers + 1, [0], [1, 2])):
        player_only = {"scores": [{"total": mine}], "dragons": [3], "places": [1], "winners": [0], "tiebreak": []}
        result = solo.add_to_result(st, player_only)
        assert (result["winners"], result["places"]) == (winners, places)
        assert bool(result["tiebreak"]) == (mine == hers)
        if mine == hers:
            assert "a tie goes to you" in result["tiebreak"][0]


def test_she_wins_with_more_vp():
    st = finished(seed=3, level=3)
    result = st.result
    she, me = result["scores"][1]["total"], result["scores"][0]["total"]
    assert she > me and result["winners"] == [1] and result["places"] == [2, 1]


# -- what a player sees ------------------------------------------------------------------------------------------


def test_the_view_shows_her_public_state_and_hides_her_deck_order_and_the_card_set_aside():
    st = top(new_solo(), 1)
    turn(st)
    view = view_for(st, 0)["automa"]
    assert view["played"] == [1] and view["deck_count"] == 6 and view["set_aside_count"] == 1
    assert view["seat"] == 1 and view["level"] == 1 and view["guild_advancements"] == 1
    assert "deck" not in view and "aside" not in view
    saved = st.to_json()  # her bottom card and the one set aside trade places in the saved game
    a = saved["automa"]
    a["deck"], a["aside"] = a["deck"][1:] + a["aside"], a["deck"][:1]
    other = GameState.from_json(CAT, saved)
    assert view_for(other, 0) == view_for(st, 0) and view_for(other, None) == view_for(st, None)


def test_a_solo_game_round_trips_through_json_in_the_middle_of_a_round():
    st = new_solo(academy=True, ravel=True, level=2)
    st.apply(st.legal_options()[-1])
    again = GameState.from_json(CAT, st.to_json())
    assert again.to_json() == st.to_json() and again.automa == st.automa


def test_markers_still_on_the_round_tracker_show_in_her_view():
    st = new_solo()
    view = view_for(st, None)["automa"]
    assert (view["markers_ready"], view["markers_waiting"]) == (1, 3)
    solo.place_marker(st, 1)
    pass_player(st)
    view = view_for(st, None)["automa"]
    assert st.round == 2 and len(view["guild_markers"]) + view["markers_ready"] + view["markers_waiting"] == 4


def test_resampling_her_hidden_cards_keeps_what_the_player_knows():
    from game.engine.rng import Rng
    st = top(new_solo(), 1, 2)
    turn(st)
    before = view_for(st, 0)
    orders = set()
    for seed in range(20):
        copy = GameState.from_json(CAT, st.to_json())
        solo.resample_hidden(copy, Rng(seed))
        a = copy.automa
        assert Counter(a["deck"] + a["aside"]) == Counter(st.automa["deck"] + st.automa["aside"])
        assert a["played"] == [1] and view_for(copy, 0) == before
        orders.add(tuple(a["aside"] + a["deck"]))
    assert len(orders) > 1


def test_determinize_deals_her_unseen_cards_again_and_keeps_what_the_player_sees():
    from game.engine.determinize import determinize
    st = top(new_solo(), 1)
    turn(st)
    st.put_to_move(0)
    orders = set()
    for seed in range(10):
        sample = determinize(st, 0, seed)
        assert view_for(sample, 0) == view_for(st, 0)
        assert sample.automa["played"] == [1]
        orders.add(tuple(sample.automa["aside"] + sample.automa["deck"]))
    assert len(orders) > 1


def test_a_catalogue_whose_automa_rules_lack_a_value_is_refused_at_setup_naming_it():
    """Each rule value the Automa reads is held once, in fixtures/automa.json, with no default in the code: a
    catalogue without one cannot deal a solo game, and says which value is missing."""
    import copy
    cat = copy.copy(real_catalogue())
    cat.board = copy.deepcopy(cat.board)
    assert solo.missing_rule_values(cat.board["automa"]) == []
    del cat.board["automa"]["scoring"]["cave_card_vp"]
    del cat.board["automa"]["turn"]["pass_on_last_card"]
    with pytest.raises(MalformedDecision, match=r"lack turn\.pass_on_last_card, scoring\.cave_card_vp"):
        GameState.new(cat, players=1, seed=1, automa={"level": 1, "ravel": False})
    GameState.new(real_catalogue(), players=1, seed=1, automa={"level": 1, "ravel": False})

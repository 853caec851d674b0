"""Card mode: mats picked card by card, scored by the engine; every figure below was counted by hand from the cards."""
import pytest

pytestmark = pytest.mark.django_db

C, G, A = "crimson_cavern", "golden_grotto", "amethyst_abyss"


def d(card, cave, column=None, **counts):
    dragon = {"card": card, "cave": cave, **counts}
    if column is not None:
        dragon["column"] = column
    return dragon


def player(name, dragons=(), **fields):
    return {"name": name, "dragons": list(dragons), **fields}


def ability_vp(line, number):
    found = [item["vp"] for item in line["details"] if item["dragon"].split(" ")[0] == str(number)]
    assert found, (number, line["details"])
    return found[0]


def test_worked_two_player_game_matches_the_hand_count(scored):
    ann = player("Ann", [
        # Crimson Cavern, fully excavated (three cave cards named).
        d(74, C, eggs=2),  # 3 VP: its cave has 4 excavated spaces
        d(119, C, cached=2),  # 2 VP per medium dragon: 74, 119, 112 = 6
        d(59, C, eggs=1),  # 2 VP per other shy dragon in this cave: 74 and 81 = 4
        d(81, C),  # 3 VP: no dragon to its right
        d(42, G, eggs=3, tucked=3),  # 3 VP per other dragon in this cave: 112 = 3
        d(112, G),  # 2 VP per adjacent dragon: 42, 119 (above), 46 (below) = 6
        d(51, A),  # 1 VP per adjacent shy dragon: 46 and 42 are not shy = 0
        d(46, A),  # 3 VP: its column holds 3 dragons
    ], cave_cards=[{"card": 5, "cave": C, "column": 2}, {"card": 6, "cave": C, "column": 3},
                   {"card": 7, "cave": C, "column": 4}],
        nest_eggs=1, coins=3, resources=2, hand_dragons=3, hand_caves=2, guild_markers=[6])
    ben = player("Ben", [
        d(106, C, eggs=3),  # -2 VP per other aggressive dragon in this cave: 132 = -2
        d(132, C),  # 2 VP per small dragon: 106, 132, 179 = 6
        d(183, C, eggs=2),  # 1 VP per helpful dragon: 183, 179 = 2
        d(47, G, tucked=2),
        d(179, A, eggs=4),  # 1 VP per 2 eggs: 3 + 2 + 4 + 2 on the nests = 11 -> 5
    ], nest_eggs=2, coins=4, resources=5, hand_dragons=0, hand_caves=0, guild_markers=[3, 1])
    result = scored({"mode": "card", "players": [ann, ben]})
    a, b = result["by_name"]["Ann"], result["by_name"]["Ben"]
    assert {item["dragon"].split(" ")[0]: item["vp"] for item in a["details"]} == {
        "74": 3, "119": 6, "59": 4, "81": 3, "42": 3, "112": 6, "51": 0, "46": 3}
    assert a["breakdown"] == {"guild": 6, "dragons": 6 + 6 + 5 + 7 + 2 + 2 + 5 + 5, "abilities": 28, "eggs": 7,
                              "cached": 2, "tucked": 3, "objectives": 0, "coins": 3, "items": 1, "fledglings": 0}
    assert a["total"] == 6 + 38 + 28 + 7 + 2 + 3 + 3 + 1 == 88
    assert a["visible_dragons"] == 8
    assert {item["dragon"].split(" ")[0]: item["vp"] for item in b["details"]} == {
        "106": -2, "132": 6, "183": 2, "179": 5}
    assert b["breakdown"] == {"guild": 4, "dragons": 7 + 6 + 5 + 5 + 2, "abilities": 11, "eggs": 11, "cached": 0,
                              "tucked": 2, "objectives": 0, "coins": 4, "items": 1, "fledglings": 0}
    assert b["total"] == 4 + 25 + 11 + 11 + 2 + 4 + 1 == 58
    assert result["winners"] == ["Ann"]


# One row per family of end-game ability: the mat, the dragon whose ability is checked, and its VP counted by hand.
FAMILIES = [
    ("per size, capped", [d(132, C), d(51, C), d(54, C), d(179, C), d(93, G)], 132, 8),  # 5 small x 2, max 8
    ("per trait on the mat", [d(183, C), d(97, C), d(101, A), d(51, G)], 183, 3),
    ("per ability kind", [d(97, C), d(47, G), d(110, G), d(1, G)], 97, 3),
    ("per dragon whose cost has a coin", [d(263, C), d(51, C), d(60, C), d(46, A)], 263, 9),
    ("per other dragon in its cave", [d(42, G), d(47, G), d(110, G), d(51, C)], 42, 6),
    ("per adjacent dragon of a trait", [d(74, C), d(60, C), d(47, G), d(51, G), d(86, G), d(52, A), d(62, A)], 51, 3),
    ("if two dragons beside it", [d(74, C), d(39, C), d(60, C)], 39, 2),
    ("if no dragon to its right (there is one)", [d(74, C), d(81, C), d(60, C)], 81, 0),
    ("if no aggressive dragon in its cave", [d(54, A), d(52, A)], 54, 4),
    ("if 4 dragons in a named cave", [d(93, G), d(47, G), d(110, G), d(86, G)], 93, 5),
    ("if 4 excavated spaces in its cave", [d(74, C)], 74, 3),
    ("if its cave holds a hatchling, a small and a large", [d(91, C), d(6, C), d(97, C), d(60, C)], 91, 8),
    ("negative, per other aggressive in its cave", [d(106, C), d(119, C), d(132, C)], 106, -4),
    ("per set of the four traits", [d(49, C), d(51, C), d(119, C), d(102, C), d(97, G), d(47, G), d(110, G),
                                    d(93, G)], 49, 8),
    ("per set of the four sizes", [d(131, C), d(6, C), d(51, C), d(119, C)], 131, 4),
    ("per 2 eggs, the mat's nests included", [d(179, C, eggs=3), d(54, C, eggs=2)], 179, 3),
    ("per milk cached on itself", [d(17, G, cached={"milk": 4, "gold": 1}), d(47, G, cached=2)], 17, 4),
    ("per meat cached on itself", [d(29, A, cached={"meat": 3, "other": 2})], 29, 3),
    ("per guild marker", [d(44, G)], 44, 6),
    ("per training token", [d(250, C), d(211, C, tokens=1), d(213, C, tokens=3)], 250, 4),
    ("a fledgling's ability, fully trained", [d(220, C, tokens=3), d(211, C), d(213, A)], 220, 9),
    ("a fledgling's ability, not fully trained", [d(213, C, tokens=2), d(46, C)], 213, None),
]


@pytest.mark.parametrize("mat, number, vp", [f[1:] for f in FAMILIES], ids=[f[0] for f in FAMILIES])
def test_end_game_ability_families_score_as_counted_by_hand(scored, mat, number, vp):
    extra = {}
    if number == 74:
        extra["cave_cards"] = [{"card": None, "cave": C, "column": c} for c in (2, 3, 4)]
    if number == 179:
        extra["nest_eggs"] = 2
    if number == 44:
        extra.update(guild_markers=[3], guild_other_markers=2)
    academy = any(dragon["card"] > 183 for dragon in mat)  # else the base printings of 119-134 are meant
    result = scored({"mode": "card", "academy": academy, "players": [player("Ann", mat, **extra)]})
    if vp is None:  # an inactive ability scores nothing and is not listed
        assert all(not item["dragon"].startswith(f"{number} ") for item in result["by_name"]["Ann"]["details"])
    else:
        assert ability_vp(result["by_name"]["Ann"], number) == vp


def test_fledglings_score_n_each_on_their_own_line(scored):
    result = scored({"mode": "card", "academy": True, "players": [
        player("Ann", [d(211, C, tokens=2, eggs=2), d(213, C), d(220, A), d(46, A)])]})
    ann = result["by_name"]["Ann"]
    assert ann["breakdown"]["fledglings"] == 9  # three fledglings score 3 each
    assert ann["breakdown"]["dragons"] == 5  # only the Rainbow Guardian prints VP
    # 211, fully trained: 1 VP per egg in its column (its own 2) ; 213 and 220 untrained: nothing
    assert ann["breakdown"]["abilities"] == 2


def test_objectives_award_friendly_places_and_zero_is_all_others(scored):
    players = [
        player("Ann", [d(51, C), d(54, C)], objective_counts=[3, 0, None, 2]),
        player("Ben", [d(132, C)], objective_counts=[3, 2, None, 1]),
        player("Cy", [d(179, C)], objective_counts=[1, 2, None, 0]),
    ]
    objectives = [{"tile": 7, "side": "b"}, {"tile": 9, "side": "a"}, {"tile": 7, "side": "b"},
                  {"tile": 3, "side": "a"}]
    result = scored({"mode": "card", "objectives": objectives, "players": players})
    rounds = {r["round"]: r for r in result["objectives"]}
    # Round 1 (4/1/0 VP): Ann and Ben tie for 1st, Cy takes 2nd.
    assert rounds[1]["places"] == [1, 1, 2] and rounds[1]["vp"] == [4, 4, 1]
    # Round 2 (5/2/1): Ann has none, so "all others"; Ben and Cy tie for 1st.
    assert rounds[2]["places"] == [0, 1, 1] and rounds[2]["vp"] == [0, 5, 5]
    # Round 3 is counted on the final mat (small dragons: 2, 1, 1): Ben and Cy tie for 2nd (6/3/2 VP).
    assert rounds[3]["counts"] == [2, 1, 1] and rounds[3]["from_mat"] == [True, True, True]
    assert rounds[3]["vp"] == [6, 3, 3]
    # Round 4 (7/4/3): 2, 1, 0 -> 1st, 2nd, all others.
    assert rounds[4]["places"] == [1, 2, 0] and rounds[4]["vp"] == [7, 4, 0]
    assert [result["by_name"][n]["breakdown"]["objectives"] for n in ("Ann", "Ben", "Cy")] == [17, 16, 9]


def test_striped_dragonette_scores_rounds_where_its_owner_placed_lowest(scored):
    objectives = [{"tile": 7, "side": "b"}, {"tile": 9, "side": "a"}, {"tile": 10, "side": "a"},
                  {"tile": 3, "side": "a"}]
    result = scored({"mode": "card", "objectives": objectives, "players": [
        player("Ann", [d(41, C)], objective_counts=[1, 0, 2, 4]),
        player("Ben", [d(51, C)], objective_counts=[2, 3, 2, 5]),
    ]})
    # Ann is lowest in rounds 1, 2 and 4, and ties Ben in round 3 (a tie for lowest counts): 4 rounds x 2 VP.
    assert ability_vp(result["by_name"]["Ann"], 41) == 8


def test_solo_card_game_places_the_automa_by_the_tiles_automa_values(scored):
    result = scored({"mode": "card", "objectives": [{"tile": 1, "side": "a"}, None, None, None],
                     "players": [player("Me", [d(51, C)], objective_counts=[2])],
                     "automa": {"dragon_vp": 20, "visible_dragons": 6}})
    first = result["objectives"][0]
    assert first["counts"] == [2, 1]  # objective tile 1A: the Automa counts 1 in round 1
    assert first["places"] == [1, 2]
    assert result["by_name"]["Automa"]["breakdown"]["objectives"] == 1
    assert result["by_name"]["Me"]["breakdown"]["objectives"] == 4


def test_end_game_choice_pays_for_vp_only_when_chosen(scored):
    base = [d(86, G)]
    declined = scored({"mode": "card", "players": [player("Ann", base, hand_dragons=3)]})
    assert ability_vp(declined["by_name"]["Ann"], 86) == 0
    chosen = scored({"mode": "card", "players": [player("Ann", [d(86, G, choice=2)], hand_dragons=3)]})
    assert ability_vp(chosen["by_name"]["Ann"], 86) == 3
    too_poor = scored({"mode": "card", "players": [player("Ann", [d(86, G, choice=2)], hand_dragons=1)]})
    assert ability_vp(too_poor["by_name"]["Ann"], 86) == 0


def test_updated_printing_is_used_with_dragon_academy(scored):
    mat = [d(119, C), d(74, C), d(112, C), d(167, C)]  # four medium dragons
    base = scored({"mode": "card", "players": [player("Ann", mat)]})
    academy = scored({"mode": "card", "academy": True, "players": [player("Ann", mat)]})
    assert ability_vp(base["by_name"]["Ann"], 119) == 8  # 2 per medium, max 8
    assert ability_vp(academy["by_name"]["Ann"], 119) == 12  # updated: 3 per medium, max 12


def test_tied_totals_go_to_the_player_with_more_dragons(scored):
    tied = scored({"mode": "card", "players": [
        player("Ann", [d(60, C), d(47, G)], coins=4),  # 9 + 4 = 13 VP, 2 dragons
        player("Ben", [d(86, G)], coins=5),  # 8 + 5 = 13 VP, 1 dragon
    ]})
    assert tied["winners"] == ["Ann"]
    assert "most dragons on the mat (Ann 2, Ben 1)" in tied["tiebreak"][0]


@pytest.mark.parametrize("tile, vp", [
    (1, 3),  # Plains Guild: 1 VP per 2 eggs: 4 on dragons + 2 on the mat's nests = 6 -> 3
    (2, 3),  # Guild of Seafarers: 3 VP per filled column: column 1 holds a dragon in all three caves
    (3, 2),  # Guild of Highlands: 1 VP per cave card: the two under the Crimson Cavern's 2nd and 3rd dragons
    (4, 4),  # Rainforest Guild: resource icons in the best cave: Crimson 74 (2) + 60 (2) + 51 (0) = 4
])
def test_guild_tile_end_game_row_scores_for_a_marker_on_it(scored, tile, vp):
    mat = [d(74, C, eggs=2), d(60, C, eggs=2), d(51, C), d(47, G), d(62, A)]  # Grotto: 2 icons, Abyss: 3
    sheet = {"mode": "card", "guild_tile": tile,
             "players": [player("Ann", mat, nest_eggs=2, guild_markers=[1], guild_ability_markers=1)]}
    result = scored(sheet)
    assert result["by_name"]["Ann"]["breakdown"]["guild"] == 1 + vp  # the 1 VP END GAME square, plus the row


def test_two_markers_on_a_two_square_end_game_row_score_it_twice(scored):
    mat = [d(74, C), d(60, C)]  # 4 resource icons in the Crimson Cavern
    result = scored({"mode": "card", "guild_tile": 4,
                     "players": [player("Ann", mat, guild_ability_markers=2)]})
    assert result["by_name"]["Ann"]["breakdown"]["guild"] == 8


def test_cards_paid_for_an_end_game_ability_leave_the_leftovers(scored):
    # 4 dragon cards in hand = 1 VP of leftovers; paying 2 of them for 3 VP leaves 2 cards = 0 VP.
    result = scored({"mode": "card", "players": [player("Ann", [d(86, G, choice=2)], hand_dragons=4)]})
    ann = result["by_name"]["Ann"]
    assert ability_vp(ann, 86) == 3
    assert ann["breakdown"]["items"] == 0


def test_resources_and_cards_paid_together_leave_the_leftovers(scored):
    # Ophidian Recluse: pay a resource, a cave card and a dragon card for 5 VP.
    # Before: 5 resources + 1 cave card + 2 dragon cards = 8 items (2 VP); after: 4 + 0 + 1 = 5 items (1 VP).
    mat = [d(149, C, choice=1), d(144, C, choice=0)]  # the Playful Hornwyrn's payment is declined
    result = scored({"mode": "card", "players": [player("Ann", mat, resources=5, hand_caves=1, hand_dragons=2)]})
    ann = result["by_name"]["Ann"]
    assert ability_vp(ann, 149) == 5 and ability_vp(ann, 144) == 0
    assert ann["breakdown"]["items"] == 1


def test_miserly_amphiptere_gains_a_gold_when_its_grotto_matches_the_left_neighbour(scored):
    # Ben's left neighbour is Ann (seat after his). Ben has 2 dragons in his Golden Grotto, Ann 1: he gains a gold,
    # which makes his 3 resources 4, worth 1 VP.
    result = scored({"mode": "card", "players": [
        player("Ann", [d(47, G)]),
        player("Ben", [d(103, G), d(110, G)], resources=3),
    ]})
    assert result["by_name"]["Ben"]["breakdown"]["items"] == 1


def test_striped_dragonette_compares_with_every_player_not_only_the_left_neighbour(scored):
    objectives = [{"tile": 7, "side": "b"}, None, None, None]
    result = scored({"mode": "card", "objectives": objectives, "players": [
        player("Ann", [d(41, C)], objective_counts=[2]),  # 2nd of three
        player("Ben", [d(51, C)], objective_counts=[3]),  # 1st: Ann's left neighbour
        player("Cy", [d(54, C)], objective_counts=[1]),  # 3rd: Cy, not Ann, is lowest
    ]})
    # Rounds 2-4 have no objective, so every marker is on "all others" and Ann ties for lowest: 3 rounds x 2 VP.
    assert ability_vp(result["by_name"]["Ann"], 41) == 6


def test_abilities_are_read_from_the_catalogue_not_written_into_the_calculator(scored):
    from cardsite.catalogue.models import Dragon

    mat = [d(42, G), d(47, G)]
    before = scored({"mode": "card", "players": [player("Ann", mat)]})
    assert ability_vp(before["by_name"]["Ann"], 42) == 3
    # An erratum in the catalogue (5 VP per other dragon instead of 3) changes the score at once.
    dragon = Dragon.objects.get(number=42)
    dragon.abilities = [{"kind": "end_game", "effect": {"do": "score", "vp": 5, "per": {
        "what": "dragons", "scope": "cave", "other": True}}}]
    dragon.save()
    after = scored({"mode": "card", "players": [player("Ann", mat)]})
    assert ability_vp(after["by_name"]["Ann"], 42) == 5


def test_cave_cards_are_named_by_number_and_their_updated_printing(scored, score_api):
    cave_cards = [{"card": "Cave card 12", "cave": C, "column": 2}, {"card": "50 (updated)", "cave": C, "column": 3}]
    result = scored({"mode": "card", "academy": True, "objectives": [{"tile": 1, "side": "a"}],
                     "players": [player("Ann", [d(74, C)], cave_cards=cave_cards)]})
    assert result["objectives"][0]["counts"] == [2]  # objective 1A counts cave cards on the mat
    status, body = score_api({"mode": "card", "players": [player("Ann", cave_cards=[
        {"card": "cave 12", "cave": C, "column": 2}, {"card": "cave 999", "cave": G, "column": 2}])]})
    assert status == 400 and list(body["errors"]) == ["players[0].cave_cards[1].card"]


def test_places_from_the_round_tracker_score_their_round_without_counts_or_tiles(scored):
    # Round VP on the tracker: 1st/2nd/3rd = 4/1/0, 5/2/1, 6/3/2, 7/4/3. Round 4 is counted on the final mats:
    # medium dragons (8a), Ann 1 (74), Ben 0, Cy 1 (119) -> Ann and Cy tie for 1st.
    result = scored({"mode": "card", "objectives": [None, {"tile": 3, "side": "a"}, None, {"tile": 8, "side": "a"}],
                     "players": [
                         player("Ann", [d(74, C)], objective_places=[1, 2, "1st"]),
                         player("Ben", [d(42, G)], objective_places=["2nd", 1, 1]),
                         player("Cy", [d(119, C)], objective_places=[2, "other", "2nd"]),
                     ]})
    vp = {name: line["breakdown"]["objectives"] for name, line in result["by_name"].items()}
    assert vp == {"Ann": 4 + 2 + 6 + 7, "Ben": 1 + 5 + 6 + 0, "Cy": 1 + 0 + 3 + 7}
    rounds = {r["round"]: r for r in result["objectives"]}
    assert rounds[1]["place_names"] == ["1st", "2nd", "2nd"] and rounds[1]["counts"] == [None, None, None]
    assert rounds[1]["text"] == "no tile chosen"
    assert rounds[4]["counts"] == [1, 0, 1] and rounds[4]["from_mat"] == [True, True, True]


def test_the_automa_takes_a_place_like_a_player(scored):
    result = scored({"mode": "card", "objectives": [{"tile": 3, "side": "a"}],
                     "players": [player("Me", [d(74, C)], objective_places=[2])],
                     "automa": {"dragon_vp": 10, "objective_places": [1]}})
    assert result["by_name"]["Me"]["breakdown"]["objectives"] == 1
    assert result["by_name"]["Automa"]["breakdown"]["objectives"] == 4


def test_a_gold_cached_on_a_milk_counter_scores_as_a_cached_item_only(scored):
    # Common Grass Lindworm (1 printed VP) scores 1 VP per milk cached on it; gold counts only as a cached item.
    result = scored({"mode": "card", "players": [player("Ann", [d(17, G, cached={"gold": 2})])]})
    line = result["by_name"]["Ann"]
    assert ability_vp(line, 17) == 0
    assert line["breakdown"]["cached"] == 2


def test_a_dragon_of_one_cave_needs_no_cave(scored):
    result = scored({"mode": "card", "players": [player("Ann", [{"card": 74}, {"card": 60}])]})
    assert result["by_name"]["Ann"]["visible_dragons"] == 2

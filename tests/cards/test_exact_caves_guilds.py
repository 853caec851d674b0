"""Cave cards 1-100 (and the updated 50 and 51): each when-played ability's exact outcome on the busy mat of
situation.py with no card under test (situation(None), as test_caves_guilds_objectives.py runs them), worked out by
hand.

The mat (situation.py): the Crimson Cavern is home; the aggressive small 62 (3 nests, 1 egg, 1 meat cached, 1 card
tucked), the helpful medium 43 (5 nests) and the playful medium 48 (2 nests) sit there, the empty column 2 between
them; the next cave holds the shy large 60 (2 nests) and the shy small 139 (4 nests); the last the hatchling 1, the
fledgling 206 (one of its two boxes, meat and milk, trained) and the fully trained fledgling 205. Every dragon but
the hatchling has 1 egg, the nest 1. Seat 0 has 3 of each resource, 6 coins, 3 dragon cards, 2 cave cards, 2 guild
markers and the column-4 spaces of the next and last caves still open. The guild track from space 0 gives: an egg
(1st advancement), a meat (2nd), a dragon card (3rd). Each of the two opponents has 1 of each resource, 2 coins,
1 dragon card, 1 cave card, an egg in the nest and dragons with room for eggs, and has not advanced on the track.
"""
import pytest

from tests.engine.helpers import real_catalogue

from .situation import caves_by_number, run_ability, situation
from .test_exact_001_092 import aggregates, expected_deltas, opponents

CAT = real_catalogue()

EGG = {"eggs": 1}
GUILD_1 = {"guild": 1, "eggs": 1}  # track space 1 lays an egg
GUILD_2 = {"guild": 2, "eggs": 1, "meat": 1}  # space 2 gains a meat
GUILD_3 = {"guild": 3, "eggs": 1, "meat": 1, "hand": 1}  # space 3 gains a dragon card
OPP_GUILD_1 = {"guild": 2, "eggs": 2}  # both opponents advance once


def plus(*parts, **more):
    out = {}
    for part in parts + (more,):
        for key, value in part.items():
            if key == "opp":
                out["opp"] = plus(out.get("opp", {}), value)
            else:
                out[key] = out.get(key, 0) + value
    return {k: v for k, v in out.items() if v or k in ("resources", "opp")}


def free(**more):
    """A free choice of resource: the named resources fold into the total."""
    out = plus(more)
    out["resources"] = out.get("resources", 0) + sum(out.pop(r, 0) for r in ("meat", "gold", "crystal", "milk"))
    return out


EXACT = {
    # Activations take the first dragon on the mat that has the kind: 139 (an egg on itself), 62 (a coin).
    (1, "original"): {"eggs": 1},
    (2, "original"): {"coins": 1},
    (3, "original"): {"cached": 2},  # from the general supply, not from seat 0's resources
    (4, "original"): {"cached": 2},
    (5, "original"): free(resources=1, eggs=1),
    (6, "original"): free(resources=1, eggs=1),
    (7, "original"): free(resources=1, cave_hand=1),
    (8, "original"): plus(GUILD_1, cave_hand=1),
    (9, "original"): plus(GUILD_1, cave_hand=1),
    (10, "original"): {"cave_hand": 1, "eggs": 2},
    (11, "original"): {"cave_hand": 1, "eggs": 2},
    (12, "original"): {"coins": 1},
    (13, "original"): {"coins": 1},
    (14, "original"): {"coins": 1},
    (15, "original"): {"crystal": 1, "hand": 1},
    (16, "original"): {"crystal": 2},
    (17, "original"): {"crystal": 1, "milk": 1},
    (18, "original"): {"crystal": 1, "eggs": 1},
    (19, "original"): {"crystal": 1, "eggs": 1},
    (20, "original"): {"hand": 2},
    (21, "original"): {"hand": 2},
    (22, "original"): plus(GUILD_1, hand=1),
    (23, "original"): plus(GUILD_1, hand=1),
    (24, "original"): plus(GUILD_1, hand=1),
    (25, "original"): {"hand": 1, "eggs": 1},
    (26, "original"): {"hand": 1, "eggs": 1},
    (27, "original"): plus(GUILD_2, opp=OPP_GUILD_1),
    (28, "original"): plus(GUILD_2, opp=OPP_GUILD_1),
    (29, "original"): plus(GUILD_1, eggs=1),
    (30, "original"): plus(GUILD_1, eggs=1),
    (31, "original"): plus(GUILD_1, eggs=1),
    (32, "original"): {"gold": 1, "hand": 1},
    (33, "original"): {"gold": 1, "crystal": 1},
    (34, "original"): {"gold": 2},
    (35, "original"): {"gold": 1, "milk": 1},
    (36, "original"): {"gold": 1, "eggs": 1},
    (37, "original"): {"gold": 1, "eggs": 1},
    (38, "original"): {"meat": 1, "hand": 1},
    (39, "original"): {"meat": 1, "hand": 1},
    (40, "original"): {"meat": 1, "crystal": 1},
    (41, "original"): {"meat": 1, "crystal": 1},
    (42, "original"): {"meat": 1, "gold": 1},
    (43, "original"): {"meat": 1, "gold": 1},
    (44, "original"): {"meat": 2},
    (45, "original"): {"meat": 2},
    (46, "original"): {"meat": 1, "milk": 1},
    (47, "original"): {"meat": 1, "eggs": 1},
    (48, "original"): {"meat": 1, "eggs": 1},
    (49, "original"): {"milk": 2},
    # Two different options, the policy taking the first ones: a dragon card, then a guild advancement (or a cave card
    # on the updated printing, which has no guild option); each opponent takes the first option, a dragon card.
    (50, "original"): plus(GUILD_1, hand=1, opp={"hand": 2}),
    (51, "original"): plus(GUILD_1, hand=1, opp={"hand": 2}),
    (50, "updated"): {"hand": 1, "cave_hand": 1, "opp": {"hand": 2}},
    (51, "updated"): {"hand": 1, "cave_hand": 1, "opp": {"hand": 2}},
    # Playing a dragon: the first card in hand is the 54 (meat, gold and crystal; only an END GAME ability), into the
    # empty column 2 of the home cave. One resource off: the first offered is the meat (resources in their usual
    # order, then an egg; never a coin).
    (52, "original"): {"gold": -1, "crystal": -1, "hand": -1, "dragons": 1},
    (53, "original"): {"gold": -1, "crystal": -1, "hand": -1, "dragons": 1},
    (54, "original"): {"gold": -1, "crystal": -1, "hand": -1, "dragons": 1},
    (55, "original"): {"eggs": 3},
    (56, "original"): {"eggs": 3},
    (57, "original"): {"eggs": 3},
    # Pay, then a cave card from the deck or the display goes straight onto the mat. The only open spaces are in
    # column 4, so its benefit follows: the policy takes the first, paying 3 resources of its choice for a coin. The
    # excavated card's own ability then runs: the deck's top card is the updated 50 (a dragon card and a cave card,
    # each opponent a dragon card), the display's first the 10 (a cave card and 2 eggs). Playing the card pays its
    # column's eggs, 2 for column 4 (ruling F1), but no coin.
    (58, "original"): free(resources=-5, coins=1, hand=1, cave_hand=1, eggs=-2, excavated=1, opp={"hand": 2}),
    (59, "original"): free(resources=-5, coins=1, cave_hand=1, excavated=1),  # 2 eggs paid, 2 laid by the 10
    (60, "original"): free(cave_hand=-1, hand=1, resources=-3, coins=1, eggs=-2, excavated=1, opp={"hand": 2}),
    (61, "original"): free(cave_hand=-1, resources=-3, coins=1, excavated=1),
    (62, "original"): free(hand=-1, cave_hand=1, resources=-3, coins=1, eggs=-2, excavated=1, opp={"hand": 2}),
    (63, "original"): free(hand=-2, cave_hand=1, resources=-3, coins=1, excavated=1),
    (64, "original"): free(eggs=-4, hand=1, cave_hand=1, resources=-3, coins=1, excavated=1, opp={"hand": 2}),
    (65, "original"): free(resources=-3, coins=1, cave_hand=1, eggs=-2, excavated=1),  # 4 eggs paid, 2 laid
    (66, "original"): {},  # two dragons change places; their eggs, cached resources and tucked cards stay on the mat
    (67, "original"): {"tucked": 2},
    (68, "original"): {"tucked": 2},
    # Up to three times, paid each time (the policy says yes while it can); each opponent may do it once.
    # 3 paid, the meat of track space 2 back: -2 in all
    (69, "original"): {"resources": -2, "guild": 3, "eggs": 1, "hand": 1, "opp": plus(OPP_GUILD_1, free(resources=-2))},
    (70, "original"): free(resources=-3, eggs=6, opp=free(resources=-2, eggs=4)),
    (71, "original"): plus(GUILD_2, cave_hand=-2, opp=plus(OPP_GUILD_1, cave_hand=-2)),  # only 2 cave cards
    (72, "original"): plus(GUILD_3, hand=-3, opp=plus(OPP_GUILD_1, hand=-2)),
    (73, "original"): {"hand": -3, "eggs": 6, "opp": {"hand": -2, "eggs": 4}},
    (74, "original"): free(eggs=-3, resources=6, opp=free(eggs=-2, resources=4)),
    (75, "original"): plus(GUILD_3, eggs=-3, opp=plus(OPP_GUILD_1, eggs=-2)),
    (76, "original"): {"tokens": 1},  # only 206 has a box left
    (77, "original"): {"tokens": 1},
    (78, "original"): {"tokens": 1, "milk": 1},  # 206's second box is milk
    (79, "original"): {"tokens": 1, "milk": 1},
    # 206 gets its last box; seat 1's fledgling one box (covering a box gives nothing unless the card says so).
    (80, "original"): {"tokens": 1, "opp": {"tokens": 1}},
    (81, "original"): {"hand": 1, "tucked": 1},  # 3 drawn: 1 tucked, 1 discarded, 1 kept
    (82, "original"): free(resources=1, cached=1),  # 2 gained, 1 of them cached
    # Two different if-activated dragons: 43 lays an egg on itself; the hatchling 1 caches a milk from the supply,
    # which feeds it once: a cave card.
    (83, "original"): {"eggs": 1, "milk": -1, "cached": 1, "cave_hand": 1},
    # Two different icons of the player mat: the first two of the first cave, a resource and a guild advancement.
    (84, "original"): free(resources=1, **GUILD_1),
    (85, "original"): {"eggs": 3},
    (86, "original"): {"meat": 1, "milk": 1},
    (87, "original"): {"meat": 1, "crystal": 1},
    (88, "original"): {"meat": 1, "gold": 1},
    (89, "original"): {"gold": 1, "crystal": 1},
    (90, "original"): {"gold": 1, "crystal": 1, "eggs": 1, "opp": {"eggs": 2}},
    (91, "original"): {"meat": 1, "milk": 1, "hand": 1, "opp": {"meat": 2}},  # opponents take the first choice
    (92, "original"): plus(GUILD_2, opp={"eggs": 2}),
    (93, "original"): plus(GUILD_2, opp={"eggs": 2}),
    (94, "original"): free(coins=-1, hand=1, resources=1, cave_hand=1, eggs=1),
    (95, "original"): free(coins=-1, hand=1, resources=1, cave_hand=1, eggs=1),
    # Pay, then a cave card from hand goes onto column 4, whose benefit costs 3 resources for a coin as above. The
    # engine lists the hand's cave cards by catalogue order, so the first offered is the 14 (a coin), not the 91.
    (96, "original"): free(hand=-2, resources=-3, coins=2, cave_hand=-1, excavated=1),
    (97, "original"): free(resources=-5, coins=2, cave_hand=-1, excavated=1),
    (98, "original"): free(eggs=-2, resources=-3, coins=2, cave_hand=-1, excavated=1),
    (100, "original"): free(coins=-1, resources=-1, hand=-1, dragons=1),  # then the 54 for nothing
    (99, "original"): free(resources=-4, eggs=-1, coins=2, cave_hand=-1, excavated=1),
}

XFAIL = {}


def rows():
    for key, row in EXACT.items():
        marks = [pytest.mark.xfail(strict=True, reason=XFAIL[key])] if key in XFAIL else []
        number, printing = key
        yield pytest.param(number, printing, row, marks=marks, id=f"cave{number}{'u' if printing == 'updated' else ''}")


def assert_deltas(label, before, after, row):
    want = expected_deltas(row)
    assert {k: after[k] - before[k] for k in want} == want, label


@pytest.mark.parametrize("number,printing,row", list(rows()))
def test_cave_card_has_its_exact_outcome_on_the_busy_mat(number, printing, row):
    card = CAT.caves[caves_by_number()[(number, printing)]]
    (ability,) = card.abilities
    academy = not (printing == "original" and number in (50, 51))
    st, _ = situation(None, academy=academy)
    if 52 <= number <= 54 or number == 100:  # counted for this hand
        assert [CAT.dragons[d].number for d in st.players[0].hand] == [54, 132, 122]
    if 58 <= number <= 65 or 96 <= number <= 99:  # the rows were counted for these cave cards
        assert (CAT.caves[st.cave_deck[-1]].number, CAT.caves[st.cave_deck[-1]].printing) == (50, "updated")
        assert CAT.caves[st.display_caves[0]].number == 10
        assert sorted(CAT.caves[c].number for c in st.players[0].caves) == [14, 91]
    mine, theirs = aggregates(st.players[0]), opponents(st)
    run_ability(st, 0, ability, source=card.label())
    own = {k: v for k, v in row.items() if k != "opp"}
    assert_deltas(card.label(), mine, aggregates(st.players[0]), own)
    assert_deltas(f"{card.label()}: opponents", theirs, opponents(st), row.get("opp", {}))


# Dragon Guild rows on the same mat (situation(None): column 2 of the home cave stays empty). The four base tiles run
# without the expansion, so the fledglings 206 and 205 are not on the mat. END GAME rows: eggs 5 on dragons (the
# hatchling has no nest) + 1 in the nest; the only column with a dragon in every cave is column 1
# (62, 60, 1); cave cards 3 + 2 + 2; resource icons on the dragons' costs: Crimson 62 (3) + 43 (2) + 48 (2) = 7,
# Golden 60 (2) + 139 (3) = 5, Amethyst 1.
GUILD_EXACT = {
    # Without the expansion the deck's top cave card is the 31 (a guild advancement, then an egg); it goes onto column
    # 4, whose benefit costs 3 resources for a coin. One egg paid for the row and two for column 4 (ruling F1), two
    # laid.
    ("Plains Guild", 1): free(eggs=-1, guild=1, resources=-3, coins=1, excavated=1),
    # Cave cards from hand come by catalogue order: the 66 (two dragons swap places, no count changes), then the 68
    # (2 cards tucked from the deck); each goes onto an open column-4 space, paying 3 resources there for a coin.
    ("Guild of Seafarers", 1): free(cave_hand=-1, resources=-3, coins=1, excavated=1),
    ("Guild of Highlands", 1): free(coins=1, resources=-6, cave_hand=-2, excavated=2, tucked=2),  # 1 coin paid, 2 won
    ("Rainforest Guild", 1): free(resources=-4, coins=1, cave_hand=-1, excavated=1),  # the first choice: from hand
    # Dragons played for nothing (the display's dragons all live in the last cave, which has no open space).
    ("Plains Guild", 2): {"eggs": -2, "hand": -1, "dragons": 1},
    ("Guild of Seafarers", 2): {"hand": -2, "dragons": 1},  # one card paid, one played
    ("Rainforest Guild", 2): {"hand": -1, "dragons": 1},
    # The 54 covers the first dragon, 62, which becomes a tucked card; its egg, meat and tucked card move onto the 54.
    ("Guild of Highlands", 2): {"cave_hand": -1, "hand": -1, "tucked": 1},
    # The 62 goes back to hand and the 54 takes its place with its egg, meat and tucked card: only the egg paid.
    ("Guild of Magicians", 1): {"eggs": -1},
    # The first cave card in hand, the 14, replaces the cave card of the empty column 2 and runs: a coin.
    ("Guild of Magicians", 2): {"coins": 1},
    ("Plains Guild", 3): {"coins": 1, "eggs": 2},
    ("Plains Guild", 4): {"end_vp": 3},  # 6 eggs // 2
    ("Guild of Seafarers", 3): {"coins": 1, "hand": 2},
    ("Guild of Seafarers", 4): {"end_vp": 3},
    ("Guild of Highlands", 3): {"coins": 1, "cave_hand": 2},
    ("Guild of Highlands", 4): {"end_vp": 7},
    ("Rainforest Guild", 3): free(coins=1, resources=2),
    ("Rainforest Guild", 4): {"end_vp": 7},
    ("Veterinary Guild", 1): {"cached": 2},  # the first choice: 2 resources from the general supply cached
}

GUILD_XFAIL = {}


def guild_rows():
    for key, row in GUILD_EXACT.items():
        marks = [pytest.mark.xfail(strict=True, reason=GUILD_XFAIL[key])] if key in GUILD_XFAIL else []
        name, position = key
        yield pytest.param(name, position, row, marks=marks, id=f"{name.replace(' ', '_')}-row{position}")


@pytest.mark.parametrize("name,position,row", list(guild_rows()))
def test_guild_row_has_its_exact_outcome_on_the_busy_mat(name, position, row):
    tile = next(t for t in CAT.guild_tiles if t["name"] == name)
    tile_row = next(r for r in tile["rows"] if r["position"] == position)
    st, _ = situation(None, academy=tile["expansion"] != "base")
    if position == 1 and tile["expansion"] == "base":  # the rows were counted for these cave cards
        assert CAT.caves[st.cave_deck[-1]].number == 31
        assert sorted(CAT.caves[c].number for c in st.players[0].caves) == [66, 68]
    if position == 2 and tile["expansion"] == "base":  # and these dragons (none has a when-played ability)
        assert [CAT.dragons[d].number for d in st.players[0].hand] == [54, 132, 179]
    if name == "Guild of Magicians":
        assert [CAT.dragons[d].number for d in st.players[0].hand] == [54, 132, 122]
        assert sorted(CAT.caves[c].number for c in st.players[0].caves) == [14, 91]
    ability = {"kind": "end_game" if tile_row["end_game"] else "when_played", "effect": tile_row["effect"]}
    mine, theirs = aggregates(st.players[0]), opponents(st)
    run_ability(st, 0, ability, source="guild" if tile_row["end_game"] else name)
    assert_deltas(f"{name} row {position}", mine, aggregates(st.players[0]), row)
    assert_deltas(f"{name} row {position}: opponents", theirs, opponents(st), {})


def test_the_tables_cover_every_cave_printing_and_every_guild_row():
    caves = {(c.number, c.printing) for c in CAT.caves}
    rows = {(t["name"], r["position"]) for t in CAT.guild_tiles for r in t["rows"]}
    assert set(EXACT) == caves, sorted(caves ^ set(EXACT))
    assert set(GUILD_EXACT) == rows, sorted(rows ^ set(GUILD_EXACT))

"""Every cave card (100 numbers, 102 printings), every Dragon Guild row, every objective side and every mat icon:
run on the busy mat of situation.py and checked against what their words say."""
import pytest

from tests.engine.helpers import real_catalogue

from .expect import ANY, channels, fixed_gains
from .situation import changed, dragon_index, run_ability, situation

CAT = real_catalogue()


def check(card_label, ability, before, after):
    mine = changed(before[0], after[0])
    may, acts = channels(ability["effect"])
    if ANY not in may:
        assert mine <= may, f"{card_label} changed {sorted(mine - may)}, which its words never touch"
    if ANY in acts:
        assert mine, f"{card_label} changed nothing"
    else:
        assert mine & acts, f"{card_label} changed {sorted(mine)} but its words act on {sorted(acts)}"
    exact = fixed_gains(ability["effect"])
    if exact is not None:  # plain gains: the exact amounts
        res = [after[0]["res"][i] - before[0]["res"][i] for i in range(4)]
        assert res == [exact.get(r, 0) for r in ("meat", "gold", "crystal", "milk")], card_label
        assert after[0]["coins"] - before[0]["coins"] == exact.get("coin", 0), card_label
    if ability.get("others"):
        assert any(changed(before[p], after[p]) for p in range(1, len(before))), f"no opponent took {card_label}'s share"


def cave_rows():
    for card in CAT.caves:
        for i, ability in enumerate(card.abilities):
            yield pytest.param(card.index, i, id=f"cave{card.number}{'u' if card.printing == 'updated' else ''}-{i}")


@pytest.mark.parametrize("index,which", list(cave_rows()))
def test_cave_card_when_played_does_what_its_words_say(index, which):
    card = CAT.caves[index]
    ability = card.abilities[which]
    assert ability["kind"] == "when_played"
    academy = not (card.printing == "original" and card.number in (50, 51))
    st, _ = situation(None, academy=academy)
    before, after = run_ability(st, 0, ability, source=card.label())
    check(card.label(), ability, before, after)


def guild_rows():
    for tile in CAT.guild_tiles:
        for row in tile["rows"]:
            yield pytest.param(tile["number"], row["position"], id=f"{tile['name'].replace(' ', '_')}-row{row['position']}")


@pytest.mark.parametrize("tile_number,position", list(guild_rows()))
def test_guild_row_does_what_its_words_say(tile_number, position):
    tile = next(t for t in CAT.guild_tiles if t["number"] == tile_number)
    row = next(r for r in tile["rows"] if r["position"] == position)
    st, _ = situation(None, academy=tile["expansion"] != "base")
    ability = {"kind": "end_game" if row["end_game"] else "when_played", "effect": row["effect"]}
    before, after = run_ability(st, 0, ability, source="guild" if row["end_game"] else tile["name"])
    check(f"{tile['name']} row {position}", ability, before, after)


def icon_rows():
    for cave in range(3):
        for slot, icon in enumerate(CAT.mat_icons[cave]):
            if icon is not None:
                yield pytest.param(cave, slot, id=f"cave{cave}-icon{slot}")


@pytest.mark.parametrize("cave,slot", list(icon_rows()))
def test_mat_icon_does_what_its_words_say(cave, slot):
    st, _ = situation(None)
    ability = {"kind": "if_activated", "effect": CAT.mat_icons[cave][slot]}
    before, after = run_ability(st, 0, ability, cave=cave, source="a mat icon")
    check(f"mat icon {slot + 1} of cave {cave + 1}", ability, before, after)


# What each objective side counts on the busy mat, counted by hand from situation.py's layout. The card under test
# is Curious Feline Dragonette (184: playful fledgling, untrained, cost 2 meat + 1 egg, 1 nest, if-activated) in the
# Crimson Cavern, its home, between 62 (aggressive small, 3 crystal, 3 nests, when played), 43 (helpful medium,
# 2 crystal, 5 nests, if activated) and 48 (playful medium, 2 meat, 2 nests, when played). Golden Grotto: 60 (shy
# large, meat + gold, 2 nests, when played) and 139 (shy small, meat + 2 crystal, 4 nests, once per round). Amethyst
# Abyss: hatchling 1 (shy, milk + egg, if activated), fledglings 206 (shy, 1 meat, 4 nests, once per round, half
# trained) and 205 (helpful, 2 crystal, 3 nests, once per round, trained). One egg on each dragon with a nest, one
# on the mat; 3 resources cached on 184 and a meat on 62; a tucked card under each (never a dragon). Cave cards:
# columns 2-4 of the Crimson Cavern, 2-3 elsewhere. Two guild markers, guild token at the start.
OBJECTIVE_COUNTS = {
    (1, "a"): 7, (1, "b"): 5,  # cave cards on the mat; cards (dragons + cave cards) in the Amethyst Abyss
    (2, "a"): 7, (2, "b"): 4,  # cards in the Crimson Cavern; in the Golden Grotto
    (3, "a"): 24, (3, "b"): 9,  # nests 3+1+5+2+2+4+0+4+3; eggs 8 on dragons + 1 on the mat
    (4, "a"): 4, (4, "b"): 2000,  # cached 3 + 1; guild: 2 markers (x1000), track position 0 breaks ties
    (5, "a"): 6, (5, "b"): 3,  # costs of at most 2 items: 43 48 60 1 206 205; at least 3: 62 184 139
    (6, "a"): 6, (6, "b"): 3,  # when played or once per round (untrained 206 counts); if activated: 184 43 1
    (7, "a"): 1, (7, "b"): 2,  # hatchlings; small 62 139
    (8, "a"): 2, (8, "b"): 1,  # medium 43 48; large 60
    (9, "a"): 1, (9, "b"): 2,  # aggressive 62; playful 184 48
    (10, "a"): 4, (10, "b"): 2,  # shy 60 139 1 206; helpful 43 205
}


def objective_sides():
    for tile in CAT.objective_tiles:
        for side in sorted(tile["sides"]):
            yield pytest.param(tile["number"], side, id=f"objective{tile['number']}{side}")


@pytest.mark.parametrize("number,side", list(objective_sides()))
def test_objective_side_counts_the_busy_mat(number, side):
    tile = next(t for t in CAT.objective_tiles if t["number"] == number)
    counter = tile["sides"][side]["counts"]
    st, _ = situation(dragon_index(184))
    value = st.count(counter, 0)
    assert value == OBJECTIVE_COUNTS[(number, side)], counter


# The base tiles' END GAME rows on the same hand-counted mat (card under test: 184, see OBJECTIVE_COUNTS).
END_ROWS = {
    "Plains Guild": 4,  # 1 VP per 2 eggs, the mat's nests included: 9 // 2
    "Guild of Seafarers": 6,  # 3 VP per column with a dragon in all three caves: columns 1 and 2
    "Guild of Highlands": 7,  # 1 VP per cave card: 7
    "Rainforest Guild": 9,  # resource icons in the best cave: Crimson 3 + 2 + 2 + 2 (Golden 5, Amethyst 4)
}


@pytest.mark.parametrize("name", sorted(END_ROWS))
def test_base_guild_end_game_row_scores_the_busy_mat_as_counted_by_hand(name):
    tile = next(t for t in CAT.guild_tiles if t["name"] == name)
    row = next(r for r in tile["rows"] if r["end_game"])
    st, _ = situation(dragon_index(184))
    before, after = run_ability(st, 0, {"kind": "end_game", "effect": row["effect"]}, source="guild")
    assert after[0]["end_vp"] - before[0]["end_vp"] == END_ROWS[name]

"""Small catalogues for engine tests: our own board facts, plus made-up cards that exercise one rule each."""
import json
import random
from functools import lru_cache
from pathlib import Path

from game.engine.catalogue import RESOURCES, Catalogue, load_fixtures
from game.engine.decisions import Option
from game.engine.position import build_position

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
ALL_CAVES = ["crimson_cavern", "golden_grotto", "amethyst_abyss"]
PLAIN_TILE = {"number": 1, "name": "Test Guild", "expansion": "base", "rows": [
    {"position": 1, "squares": 1, "end_game": False, "effect": {"do": "gain", "item": "gold"}},
    {"position": 2, "squares": 2, "end_game": False, "effect": {"do": "gain", "item": "coin"}},
    {"position": 3, "squares": 1, "end_game": True, "effect": {"do": "score", "vp": 2, "per": {"what": "dragons"}}},
]}
PLAIN_OBJECTIVE = {"number": 1, "expansion": "base", "sides": {"a": {"counts": {"what": "dragons"}},
                                                                 "b": {"counts": {"what": "dragons"}}}}
# Four tiles alike but numbered 1-4: a position names each round's tile once.
PLAIN_OBJECTIVES = tuple(dict(PLAIN_OBJECTIVE, number=k) for k in range(1, 5))


@lru_cache(maxsize=1)
def real_catalogue():
    return load_fixtures(FIXTURES)


@lru_cache(maxsize=1)
def board_facts():
    return json.loads((FIXTURES / "board.json").read_text())["board_facts"]


def dragon(number, name=None, size="small", trait="shy", vp=1, capacity=2, cost=None, habitats=None, abilities=(),
           **extra):
    record = {"number": number, "printing": "original", "name": name or f"Test Dragon {number}",
              "expansion": extra.pop("expansion", "base"), "vp": vp, "size": size, "trait": trait,
              "capacity": capacity, "cost": cost if cost is not None else {}, "habitats": habitats or ALL_CAVES,
              "abilities": list(abilities)}
    record.update(extra)
    return record


def cave(number, abilities=(), expansion="base"):
    return {"number": number, "printing": "original", "expansion": expansion, "abilities": list(abilities)}


def make_catalogue(dragons=(), caves=(), tile=PLAIN_TILE, objectives=PLAIN_OBJECTIVES, filler=30):
    """The given cards first (indices 0, 1, ... in order), then plain filler cards so decks never run dry."""
    dragons = list(dragons) + [dragon(900 + i) for i in range(filler)]
    caves = list(caves) + [cave(900 + i) for i in range(filler)]
    return Catalogue.from_records(dragons, caves, [tile], list(objectives), board_facts())


def new_game(cat, players=2, seed=1, academy=False):
    """A game at seat 0's main action, as after setup when everyone takes the first offered choices: each player has
    6 coins, an egg on the nests, 3 meat, one dragon and three cave cards (dealt at random); seat 0 starts."""
    seats = [{"coins": 6, "nest_eggs": 1, "resources": {"meat": 3}, "hand": 1, "cave_cards": 3}
             for _ in range(players)]
    return build_position(cat, players=seats, seed=seed, academy=academy)


def seat(cat, coins=10, res=(0, 0, 0, 0), hand=(), caves=(), nest=0, mat=None, **more):
    """One player of a partial position, written with catalogue indices as engine tests hold cards: empty-handed (no
    cards, resources or eggs, `coins` coins) unless told. `hand` and `caves` are dragon and cave card indices (or
    counts, dealt at random); `mat` maps a space index (cave * 4 + column) to a dragon index or a space
    ({"dragon", "cave_card", "eggs", "cached", "tucked", ...}, cards as indices); other keys go into the position's
    player as they are."""
    out = {"coins": coins, "resources": dict(zip(RESOURCES, res)), "nest_eggs": nest,
           "hand": hand if isinstance(hand, int) else [cat.dragons[d].number for d in hand],
           "cave_cards": caves if isinstance(caves, int) else [cat.caves[c].number for c in caves]}
    if mat:
        out["mat"] = mat_of(cat, mat)
    out.update(more)
    return out


def mat_of(cat, spaces):
    """A position's mat from {space index: dragon index or space}, cards named by catalogue index (see `seat`)."""
    mat = {}
    for index, entry in sorted(spaces.items()):
        space = {"dragon": entry} if isinstance(entry, int) else dict(entry)
        if space.get("dragon") is not None:
            space["dragon"] = cat.dragons[space["dragon"]].number
        if space.get("cave_card") is not None:
            space["cave_card"] = cat.caves[space["cave_card"]].number
        if isinstance(space.get("tucked"), (list, tuple)):
            space["tucked"] = [cat.dragons[d].number for d in space["tucked"]]
        if isinstance(space.get("cached"), (list, tuple)):
            space["cached"] = dict(zip(RESOURCES, space["cached"]))
        row = mat.setdefault(ALL_CAVES[index // 4], [])
        row += [None] * (index % 4 + 1 - len(row))
        row[index % 4] = space
    return mat


def position(cat, seats=2, seed=1, **partial):
    """`build_position` for engine tests: `seats` is a count of empty-handed players with 10 coins, or a list of
    players (see `seat`); start player and player to move are seat 0 unless told."""
    if isinstance(seats, int):
        seats = [seat(cat) for _ in range(seats)]
    return build_position(cat, players=list(seats), seed=seed, **partial)


def choose(st, kind, *args):
    st.apply(Option(kind, tuple(args)))


def asked_about(st):
    """The name of the card whose ability the pending question is about (None for a board benefit)."""
    card = st.pending.data.get("card") if st.pending is not None else None
    return card["name"] if card else None


def answer_all(st, kind_order=("yes",)):
    """Answer every pending question of the current flow with the first option of a preferred kind."""
    while st.pending is not None and st.pending.kind != "main_action":
        opts = st.legal_options()
        pick = next((o for k in kind_order for o in opts if o.kind == k), opts[0])
        st.apply(pick)


def fire(st, effect, src=-1, others=None, seat=0, ask=False):
    """Run an ability for `seat` right now, as if the dragon `src` on their mat had just triggered it."""
    st.fire_ability(seat, {"effect": effect, "others": others}, src=src, ask=ask, source="test")


def options(st):
    return [(o.kind, *o.args) for o in st.legal_options()]


RICH = {"meat": 3, "gold": 3, "crystal": 3, "milk": 3}
CAVE_KEYS = ("crimson_cavern", "golden_grotto", "amethyst_abyss")


def stocked_game(cat, seed, dragon=None, players=3, training=None, excavated=None):
    """A Dragon Academy game at seat 0's main action, every player well stocked (6 coins, 3 of each resource, 2 eggs
    on the nests, 5 dragons and 5 cave cards in hand); dragon `dragon` (a catalogue index), when given, lies in
    column 2 of its first cave (with `training` tokens, all by default) beside a random dragon in column 1;
    `excavated` ({cave: columns}) digs more of seat 0's mat."""
    seats = [{"coins": 6, "resources": RICH, "nest_eggs": 2, "hand": 5, "cave_cards": 5} for _ in range(players)]
    updated = True
    if dragon is not None:
        card = cat.dragons[dragon]
        updated = dragon in cat.dragon_deck(True, True)  # its printing is this game's
        pool = [cat.dragons[i].number for i in cat.dragon_deck(True, updated) if i != dragon]
        neighbour = random.Random(seed).choice(pool)
        tokens = len(card.training) if training is None else training
        seats[0]["mat"] = {CAVE_KEYS[card.habitats[0]]: [neighbour, {"dragon": card.number, "training": tokens}]}
    if excavated:
        seats[0]["excavated"] = excavated
    return build_position(cat, players=seats, academy=True, updated=updated, seed=seed)


def fire_abilities(st, abilities, src, answer):
    """Fire a card's abilities for the player to act, one after another, as if dragon `src` (-1: a cave card) had
    triggered them; `answer(st)` answers the questions of each until the game is back at the main action."""
    for ability in abilities:
        st.fire_ability(st.current, ability, src=src)
        answer(st)

"""The entry-effort scenario of docs/calculator.md: a four-player card-mode game with ten dragons each."""
from game.calculator.score import cached_kinds, choice_options
from game.engine.catalogue import CAVES

PLAYERS = ("Ann", "Ben", "Cy", "Dee")
DRAGONS_EACH = 10


def scenario(cat):
    """Forty different base dragons dealt to four mats by habitat, each cave filled from the left (at most 4).

    Every other dragon with a nest holds an egg, every fourth has one cached item, every fifth two tucked cards.
    Rounds 1-3 are entered as places from the round tracker, round 4 is counted on the final mat."""
    engine = cat.engine
    base = [c for c in engine.dragons if c.printing == "original" and c.expansion == "base"
            and c.size != "fledgling" and not choice_options(c)]
    mats = [{cave: [] for cave in CAVES} for _ in PLAYERS]
    counts = [0] * len(PLAYERS)
    for card in base:
        if all(n == DRAGONS_EACH for n in counts):
            break
        seat = min(range(len(PLAYERS)), key=lambda s: counts[s])
        for habitat in card.habitats:
            cave = CAVES[habitat]
            if len(mats[seat][cave]) < 4:
                mats[seat][cave].append(card)
                counts[seat] += 1
                break
    players = []
    k = 0
    for seat, name in enumerate(PLAYERS):
        dragons = []
        for cave in CAVES:
            for card in mats[seat][cave]:
                dragon = {"card": cat.dragon_label(card.index), "cave": cave}
                if card.capacity and k % 2 == 0:
                    dragon["eggs"] = 1
                if k % 4 == 1 and not cached_kinds(card):
                    dragon["cached"] = 1
                if k % 5 == 2:
                    dragon["tucked"] = 2
                dragons.append(dragon)
                k += 1
        players.append({"name": name, "dragons": dragons, "coins": seat + 1, "resources": 2, "hand_dragons": 1,
                        "objective_places": [[1, 2, 2, 0][seat], [2, 1, 0, 3][seat], [1, 1, 2, 0][seat], None]})
    objectives = [{"tile": t, "side": "a"} for t in (1, 2, 3, 8)]
    return {"mode": "card", "objectives": objectives, "players": players}


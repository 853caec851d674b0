"""Score a cleaned sheet: build the engine's mats from what was entered and let the engine count.

The rules live in the engine (`game.engine.scoring`): printed VP, end-game abilities through the effect language,
objective places with friendly ties, guild squares, leftovers and the tiebreak. This module only translates: a
sheet's dragons and cave cards become `Player` spaces, its answers to end-game choices become the engine's answers,
and the engine's breakdown becomes the calculator's ten categories.
"""
from game.engine import automa as solo, scorepad, scoring
from game.engine.catalogue import CAVE_INDEX, RESOURCES
from game.engine.model import COLUMNS, Player
from game.engine.scoring import objective_places
from game.language.render import render_effect
from game.language.walk import counters
from game.tiebreak import tie_words

from ..models import CATEGORIES

CATEGORY_LABELS = {
    "guild": "Dragon Guild END GAME",
    "dragons": "Printed dragon VP",
    "abilities": "End-game abilities",
    "eggs": "Eggs",
    "cached": "Cached resources",
    "tucked": "Tucked cards",
    "objectives": "Round objectives",
    "coins": "Coins (1 VP each)",
    "items": "Other leftovers (1 VP per 4)",
    "fledglings": "Fledglings (n VP each for n)",
}
PLACE_NAMES = {1: "1st", 2: "2nd", 3: "3rd", 0: "all others"}
UNKNOWN_CARD = -1  # an excavated space whose cave card was not named, a tucked card, a card in hand


def choice_options(card):
    """The choices a dragon's end-game ability offers, as (value, words): 0 is always 'not used'."""
    for ability in card.abilities:
        if ability["kind"] != "end_game":
            continue
        effect = ability["effect"]
        if effect["do"] == "choose":
            return [(0, "Not used")] + [(k, render_effect(option)) for k, option in enumerate(effect["options"], 1)]
        if effect["do"] in ("pay", "may"):
            return [(0, "Not used"), (1, render_effect(effect))]
    return []


def cached_kinds(card):
    """The resource kinds a dragon's abilities count when they count what is cached on it (17: milk), in order."""
    kinds = []
    for ability in card.abilities:
        for part in ("effect", "others"):
            for counter in counters(ability[part]) if isinstance(ability.get(part), dict) else ():
                if counter.get("what") == "cached" and counter.get("item") in RESOURCES and counter["item"] not in kinds:
                    kinds.append(counter["item"])
    return kinds


def _answers(card, choice):
    """The engine's answers for a sheet's choice (see scoring.evaluate: option numbers from 0, then yes/no)."""
    effect = next(a["effect"] for a in card.abilities if a["kind"] == "end_game")
    if effect["do"] == "choose":
        return [str(choice - 1), "yes"] if choice else ["0", "no"]
    return ["yes"] if choice else ["no"]


def build_player(seat, entry, cat):
    """An engine Player holding one sheet line's mat, hand and guild markers."""
    pl = Player(seat)
    for dragon in entry["dragons"]:
        space = pl.spaces[CAVE_INDEX[dragon["cave"]] * COLUMNS + dragon["column"] - 1]
        space.dragon = cat.dragon_slugs[dragon["card"]]
        space.eggs = dragon["eggs"]
        # A number where no ability asks the kind (any slot counts the same); by kind where one does (17, 29).
        cached = dragon["cached"]
        if isinstance(cached, dict):
            space.cached = [cached.get(kind, 0) for kind in RESOURCES]
        else:
            space.cached = [cached, 0, 0, 0]
        space.tucked = [UNKNOWN_CARD] * dragon["tucked"]
        space.tokens = dragon["tokens"]
    for cave_card in entry["cave_cards"]:
        space = pl.spaces[CAVE_INDEX[cave_card["cave"]] * COLUMNS + cave_card["column"] - 1]
        space.cave_card = UNKNOWN_CARD if cave_card["card"] is None else cave_card["card"]
    pl.nest = entry["nest_eggs"]
    pl.coins = entry["coins"]
    pl.res = [entry["resources"], 0, 0, 0]
    pl.hand = [UNKNOWN_CARD] * entry["hand_dragons"]
    pl.caves = [UNKNOWN_CARD] * entry["hand_caves"]
    pl.guild = entry["guild_advances"]
    pl.markers = _markers(entry, cat)
    return pl


def _markers(entry, cat):
    """Guild markers as the engine keeps them: [row, square], row -1 being the END GAME VP squares."""
    printed = cat.guild_end_vp
    markers = [[-1, printed.index(value)] for value in entry["guild_markers"]]
    row = entry.get("_ability_row")
    markers += [[row, k] for k in range(entry.get("guild_ability_markers", 0))]
    markers += [[-2, k] for k in range(entry.get("guild_other_markers", 0))]  # rows that score nothing
    return markers


def _guild_tile(cat, number):
    return None if number is None else cat.engine.guild_tiles[cat.guild_numbers[number]]


def _end_game_row(tile):
    """Index of the tile's END GAME ability row, where the engine scores a marker by the row's effect."""
    for index, row in enumerate((tile or {}).get("rows", ())):
        if row.get("end_game"):
            return index
    return None


def score_sheet(sheet, cat):
    """The result of a cleaned sheet: per-line categories, objective places, ranking and tiebreak."""
    if sheet["mode"] == "quick":
        lines = [_quick_line(entry, cat) for entry in sheet["players"]]
        objectives = []
    else:
        lines, objectives = _card_lines(sheet, cat)
    if sheet["automa"]:
        lines.append(_automa_line(sheet["automa"], cat, objectives))
    for line in lines:
        line["total"] = sum(line["breakdown"][c] for c in CATEGORIES)
    totals = [line["total"] for line in lines]
    # Against the Automa a tie goes to the player: her line loses every tiebreak.
    dragons = [-1 if line["automa"] else line["visible_dragons"] for line in lines]
    places, _ = scoring.rank(totals, dragons)
    for seat, (line, place) in enumerate(zip(lines, places)):
        line["seat"] = seat
        line["place"] = place
        line["won"] = place == 1
    return {
        "mode": sheet["mode"],
        "categories": [{"key": c, "label": CATEGORY_LABELS[c]} for c in CATEGORIES],
        "lines": lines,
        "ranking": sorted(range(len(lines)), key=lambda i: (places[i], i)),
        "winners": [line["name"] for line in lines if line["won"]],
        "tiebreak": tie_words([{"name": line["name"], "total": line["total"], "dragons": line["visible_dragons"],
                                "automa": line["automa"]} for line in lines]),
        "objectives": objectives,
    }


def _quick_line(entry, cat):
    # Eggs, coins and leftovers go through the engine's breakdown so their rules are written once.
    pl = Player(0)
    pl.nest = entry["eggs"]
    pl.coins = entry["coins"]
    pl.res = [entry["items"], 0, 0, 0]
    markers = _markers(entry, cat)
    objective_vp = entry["objective_vp"] + scoring.objective_vp(cat.engine, entry["objective_places"])
    counted = scoring.base_breakdown(cat.engine, pl, objective_vp, scoring.guild_marker_vp(cat.engine, markers))
    n = entry["fledglings"]
    breakdown = {
        "guild": counted["guild"] + entry["guild_ability_vp"],
        "dragons": entry["dragon_vp"],
        "abilities": entry["end_game_vp"],
        "eggs": counted["eggs"],
        "cached": entry["cached"],
        "tucked": entry["tucked"],
        "objectives": counted["objectives"],
        "coins": counted["coins"],
        "items": counted["items"],
        "fledglings": n * n,  # the same rule the engine folds into printed VP: each of n fledglings scores n
    }
    return {"name": entry["name"], "automa": False, "breakdown": breakdown,
            "visible_dragons": entry["visible_dragons"], "details": []}


def _automa_line(entry, cat, objectives):
    objective_vp = entry["objective_vp"]
    if objectives:
        objective_vp = sum(round_["vp"][-1] for round_ in objectives)
    # The engine's one rule for her VP (game.engine.automa.score), fed with what was counted at the table.
    counted = solo.score(cat.engine, level=entry["level"], ravel=entry["ravel"],
                         dragon_cards=entry["dragon_cards"], cave_cards=entry["cave_cards"],
                         guild_steps=entry["guild_steps"], markers=_markers(entry, cat),
                         objective_vp_extra=objective_vp, cache_tokens=entry["cache_tokens"])
    breakdown = dict.fromkeys(CATEGORIES, 0)
    breakdown.update({c: counted[c] for c in CATEGORIES if c in counted})
    # Totals entered instead of counts (printed dragon VP), and items some score sheets give her, add on top.
    breakdown["dragons"] += entry["dragon_vp"]
    breakdown["eggs"] += entry["eggs"]
    breakdown["cached"] += entry["cached"]
    breakdown["tucked"] += entry["tucked"]
    return {"name": entry["name"], "automa": True, "breakdown": breakdown,
            "visible_dragons": entry["visible_dragons"], "details": []}


def _card_lines(sheet, cat):
    tile = _guild_tile(cat, sheet.get("guild_tile"))
    row = _end_game_row(tile)
    players = []
    for seat, entry in enumerate(sheet["players"]):
        entry = dict(entry, _ability_row=row)
        players.append(build_player(seat, entry, cat))
    objectives = _objective_rounds(sheet, cat, players)
    for seat, pl in enumerate(players):
        pl.objectives = [round_["places"][seat] if round_ else 0 for round_ in objectives]
    lines = []
    n = len(players)
    for seat, (entry, pl) in enumerate(zip(sheet["players"], players)):
        places = pl.objectives
        choices = {}
        for dragon in entry["dragons"]:
            if "choice" in dragon:
                index = cat.dragon_slugs[dragon["card"]]
                choices[index] = _answers(cat.engine.dragons[index], dragon["choice"])
        # Clockwise from the left neighbour (the next line), who comes first for abilities that compare with them.
        # The Automa has no mat, so it is left out of these comparisons.
        opponents = [_copy(players[(seat + k) % n]) for k in range(1, n)]
        mine = _copy(pl)
        counted = scorepad.score_mat(cat.engine, mine, objective_places=places, guild_markers=pl.markers,
                                    choices=choices, opponents=opponents, guild_tile=tile)
        fledglings = sum(1 for dragon in scoring.visible_dragons(pl) if cat.engine.dragons[dragon].size == "fledgling")
        breakdown = {c: counted[c] for c in CATEGORIES if c != "fledglings"}
        # The engine counts fledglings inside printed VP; the score pad shows them on their own line.
        breakdown["fledglings"] = fledglings * fledglings
        breakdown["dragons"] -= fledglings * fledglings
        details = [{"dragon": cat.dragon_label(int(source.split(":")[1])), "vp": vp}
                   for source, vp in mine.end_vp.items() if source.startswith("dragon:")]
        by_card = {cat.slugs[int(source.split(":")[1])]: vp
                   for source, vp in mine.end_vp.items() if source.startswith("dragon:")}
        lines.append({"name": entry["name"], "automa": False, "breakdown": breakdown,
                      "visible_dragons": len(scoring.visible_dragons(pl)), "details": details,
                      "abilities_by_card": by_card,
                      "objective_places": [PLACE_NAMES[p] for p in places]})
    return lines, [r for r in objectives if r]


def _copy(pl):
    return Player.from_json(pl.seat, pl.to_json())


def _objective_rounds(sheet, cat, players):
    """Each round's places per line, as entered from the round tracker or ranked from counts (entered, or counted
    on the final mat), and their VP."""
    from game.engine.state import GameState

    st = GameState(cat.engine)
    st.players = players
    rounds = []
    automa = sheet["automa"]
    entries = sheet["players"] + ([automa] if automa else [])
    for r, chosen in enumerate(sheet["objectives"]):
        side = None
        if chosen is not None:
            tile = cat.engine.objective_tiles[cat.objective_numbers[chosen["tile"]]]
            side = tile["sides"][chosen["side"]]
        round_ = {"round": r + 1, "tile": chosen and chosen["tile"], "side": chosen and chosen["side"],
                  "text": render_counter_text(side["counts"]) if side else "no tile chosen"}
        if entries[0]["objective_places"][r] is not None:  # the sheet checked: all lines have places, or none
            places = [entry["objective_places"][r] for entry in entries]
            counts, from_mat = [None] * len(entries), [False] * len(entries)
        elif side is None:
            rounds.append(None)
            continue
        else:
            counts, from_mat = [], []
            for seat, entry in enumerate(sheet["players"]):
                given = entry["objective_counts"][r]
                if given is None:
                    given = st.count(side["counts"], seat)
                counts.append(given)
                from_mat.append(entry["objective_counts"][r] is None)
            if automa:
                given = automa["objective_counts"][r]
                values = side.get("automa_values") or []
                counts.append(given if given is not None else (values[r] if r < len(values) else 0))
                from_mat.append(False)
            places = objective_places(counts)
        vp = [scoring.objective_vp(cat.engine, [0] * r + [place]) for place in places]
        round_.update({"counts": counts, "from_mat": from_mat, "places": places,
                       "place_names": [PLACE_NAMES[p] for p in places], "vp": vp})
        rounds.append(round_)
    return rounds


def render_counter_text(counter):
    from game.language.render import render_counter
    try:
        return render_counter(counter)
    except ValueError:
        return counter.get("what", "")


__all__ = ["CATEGORY_LABELS", "build_player", "choice_options", "score_sheet"]

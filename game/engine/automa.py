"""The Automa: the solo game's opponent, played by the engine from her decision cards (docs/automa.md).

She makes no decisions. Her deck is shuffled by the game's generator, and each of her turns carries out the top
card: refresh the dragon display, move a coin on the round's objective tile, advance her guild token (a brown
space gives her a dragon from the display and a cave card or a marker on the guild tile). Every rule that a source
leaves open is a value in the catalogue's `automa` board fact (fixtures/automa.json), read here and nowhere else.

She sits at seat 1 wherever a seat is named (the start player, events, the result); she is not in
`state.players`, and her public state is `state.automa`, a plain JSON-able dict.
"""
from ..language.vocabulary import SCORE_CATEGORIES, automa_score_names
from ..language.walk import children
from ..language.words import WORDS
from .decisions import MalformedDecision
from .model import COLUMNS
from .scoring import guild_marker_vp, objective_vp, place_on_round
from .tasks import task

SEAT = 1
OPTION_KEYS = ("level", "ravel")


def _refuse(field, message):
    error = MalformedDecision(f"{field}: {message}")
    error.field = field
    return error


# The rule values the Automa reads, by section of the `automa` board fact (fixtures/automa.json): each is held
# there once, with no default here, and a game against her is refused at setup when one is missing.
RULE_VALUES = {
    "setup": ("markers_ready", "unplayable_objectives", "set_aside", "markers_per_round_gap", "markers_max"),
    "turn": ("pass_when_deck_empty", "pass_on_last_card"),
    "refresh": ("dragons", "caves"),
    "objective": ("min_coins", "max"),
    "brown_space": ("when_passing", "first_slot"),
    "ravel": ("coins_kept_between_rounds",),
    "scoring": ("dragon_card_vp", "dragon_card_vp_by_level", "vp_on_brown_space", "vp_per_guild_step",
                "end_game_squares", "cave_card_vp", "cache_tokens_per_vp"),
}


def rules(cat):
    """The Automa's rules from the catalogue (the `automa` board fact)."""
    data = cat.board.get("automa")
    if not isinstance(data, dict) or not data.get("cards") or not data.get("levels"):
        raise _refuse("automa", "this catalogue has no Automa rules (the 'automa' board fact, fixtures/automa.json)")
    return data


def missing_rule_values(data):
    """The rule values (`section.name`) the `automa` board fact lacks, in RULE_VALUES' order."""
    return [f"{section}.{name}" for section, names in RULE_VALUES.items() for name in names
            if not isinstance(data.get(section), dict) or name not in data[section]]


def levels(cat, ravel=False):
    return sorted(entry["level"] for entry in rules(cat)["levels"] if entry["ravel"] == ravel)


def check_options(cat, players, automa):
    """The game's `automa` option, checked: None for a game of 2+ players, `{"level", "ravel"}` for a solo game."""
    if automa is None or automa is False:
        if players == 1:
            raise _refuse("automa", 'a 1-player game is played against the Automa: give automa={"level": 1, '
                                    '"ravel": False} (or more players)')
        return None
    if players != 1:
        raise _refuse("automa", "the Automa plays only solo games (players=1)")
    if not isinstance(automa, dict):
        raise _refuse("automa", 'expected an object such as {"level": 1, "ravel": false}')
    missing = missing_rule_values(rules(cat))
    if missing:
        raise _refuse("automa", f"the catalogue's Automa rules lack {', '.join(missing)} (fixtures/automa.json)")
    unknown = sorted(set(automa) - set(OPTION_KEYS))
    if unknown:
        raise _refuse(f"automa.{unknown[0]}", f"unknown setting; the Automa takes {', '.join(OPTION_KEYS)}")
    ravel = automa.get("ravel", False)
    if not isinstance(ravel, bool):
        raise _refuse("automa.ravel", "expected true or false")
    level = automa.get("level", 1)
    known = levels(cat, ravel)
    if not isinstance(level, int) or isinstance(level, bool) or level not in known:
        mode = "Ravel Mode levels" if ravel else "levels"
        raise _refuse("automa.level", f"expected one of the {mode} {', '.join(map(str, known))}")
    return {"level": level, "ravel": ravel}


def card(cat, number):
    for entry in rules(cat)["cards"]:
        if entry["number"] == number:
            return entry
    raise KeyError(f"Automa card {number} is not in the catalogue")


def deck_cards(cat, level, ravel):
    """The numbers of the 8 decision cards a level uses."""
    for entry in rules(cat)["levels"]:
        if entry["level"] == level and entry["ravel"] == ravel:
            return list(entry["cards"])
    raise KeyError(f"no Automa level {level} (ravel={ravel})")


# -- setup ------------------------------------------------------------------------------------------------------


def setup(st, spare_objectives):
    """Give her what the solo setup gives her; called by GameState.new after the common setup."""
    cat = st.cat
    data = rules(cat)
    options = st.options["automa"]
    st.automa = {
        "level": options["level"], "ravel": options["ravel"],
        "cards": deck_cards(cat, options["level"], options["ravel"]),
        "deck": [], "aside": [], "played": [], "passed": False,
        "guild": 0, "markers": [], "markers_ready": data["setup"]["markers_ready"],
        "dragons": [], "caves": [], "coins": 0, "objectives": [], "cache": 0,
        "income_space": None, "closed_income": [],
    }
    _replace_unplayable_objectives(st, spare_objectives)
    st.start = st.rng.below(2) if st.options["academy"] else 0  # Dragon Academy: a random start player
    new_deck(st)


def _replace_unplayable_objectives(st, spare):
    """An objective side she cannot count (no Automa values) goes back; the next tile of the pile replaces it."""
    cat = st.cat
    spare = list(spare)
    for rnd, (tile, side) in enumerate(st.objectives):
        while not _automa_values(cat, tile, side) and spare:
            tile, side = spare.pop(0), "ab"[st.rng.below(2)]
        st.objectives[rnd] = [tile, side]


def _automa_values(cat, tile, side):
    side_data = cat.objective_tiles[tile]["sides"][side]
    if side_data["counts"].get("what") in rules(cat)["setup"]["unplayable_objectives"]:
        return []
    return side_data.get("automa_values") or []


def new_deck(st):
    """Shuffle her 8 cards, set some aside unseen, keep the rest as this round's deck (the top is the end)."""
    a = st.automa
    cards = list(a["cards"])
    st.rng.shuffle(cards)
    aside = rules(st.cat)["setup"]["set_aside"]
    a["aside"], a["deck"] = cards[:aside], cards[aside:]
    a["played"] = []


def resample_hidden(st, rng):
    """Deal her unseen cards (deck and set-aside) again in a new order from `rng`: for determinizing a state, since
    only the cards she played this round are known to the player."""
    a = st.automa
    if a is None:
        return
    # Sorted first, as determinize's pools are: the sample then depends only on `rng` and on which cards are
    # unseen, never on their real order (else the strong bot's search would follow her true deck).
    unseen = sorted(a["aside"] + a["deck"])
    rng.shuffle(unseen)
    a["aside"], a["deck"] = unseen[:len(a["aside"])], unseen[len(a["aside"]):]


def first_turn(st):
    """The task that starts a round: her turn when she is the start player, else the player's."""
    if st.automa is not None and st.start == SEAT:
        return {"t": "automa_turn"}
    return {"t": "turn"}


def after_turn(st):
    """Who plays after a turn of the solo game ends: the other side unless it passed, then round end."""
    a = st.automa
    human = st.players[0]
    st.current = 0
    if not a["passed"]:
        st.stack.append({"t": "automa_turn"})
    elif not human.passed:
        st.stack.append({"t": "turn"})
    else:
        st.stack.append({"t": "round_end", "step": 0})


# -- her turn ---------------------------------------------------------------------------------------------------


@task("automa_turn")
def t_automa_turn(st, task):
    play_turn(st)
    a = st.automa
    if not st.players[0].passed:
        st.stack.append({"t": "turn"})
    elif not a["passed"]:
        st.stack.append({"t": "automa_turn"})
    else:
        st.stack.append({"t": "round_end", "step": 0})


def play_turn(st):
    """Draw her top card and carry it out (or pass)."""
    a = st.automa
    data = rules(st.cat)
    turn = data["turn"]
    if not a["deck"]:
        if turn["pass_when_deck_empty"]:
            return pass_round(st, None)
        new_deck(st)  # a correction that lets her play on would reshuffle
    number = a["deck"].pop()
    a["played"].append(number)
    entry = card(st.cat, number)
    if not a["deck"] and entry["pass"] and turn["pass_on_last_card"]:
        return pass_round(st, number)
    done = {"card": number, "refresh": False, "coins": 0, "steps": 0, "brown": []}
    for step in turn["steps"]:
        if step == "refresh" and entry["refresh"]:
            refresh(st)
            done["refresh"] = True
        elif step == "objective" and entry["objective_coins"]:
            done["coins"] = adjust_objective(st, entry["objective_coins"])
        elif step == "advance":
            done["steps"] = advance_steps(st, entry)
            done["brown"] = advance(st, done["steps"], entry)
    done["space"] = guild_space(st.cat, a["guild"])
    st.emit("automa_turn", p=SEAT, round=st.round, **done)


def refresh(st):
    which = rules(st.cat)["refresh"]
    for i in range(3):
        if which["dragons"] and st.display_dragons[i] is not None:
            st.dragon_discard.append(st.display_dragons[i])
            st.display_dragons[i] = None
        if which["caves"] and st.display_caves[i] is not None:
            st.cave_discard.append(st.display_caves[i])
            st.display_caves[i] = None
    st.refill_display()


def adjust_objective(st, delta):
    """Put a coin on (or take one off) this round's objective tile; returns the change made."""
    a = st.automa
    floor = rules(st.cat)["objective"]["min_coins"]
    before = a["coins"]
    a["coins"] = max(floor, before + delta)
    return a["coins"] - before


def excavated_counts(st):
    """Excavated spaces in each of the player's caves (the first space of a cave always counts)."""
    pl = st.players[0]
    return [sum(1 for col in range(COLUMNS) if pl.excavated(cave * COLUMNS + col)) for cave in range(3)]


def advance_steps(st, entry):
    """Steps of this card: its number for the round, or a Ravel count from the player's excavated caves."""
    how = entry["advance"]
    if isinstance(how, list):
        return how[min(st.round, len(how)) - 1]
    count = rules(st.cat)["ravel_counts"][how]
    counts = excavated_counts(st)
    return (max(counts) if count["cave"] == "most" else min(counts)) + count.get("plus", 0)


def guild_space(cat, advancements):
    return (cat.guild_start + advancements) % len(cat.guild_spaces)


def advance(st, steps, entry):
    """Move her guild token one space at a time; a brown space reached gives her the card's brown-space reward."""
    a = st.automa
    cat = st.cat
    when_passing = rules(cat)["brown_space"]["when_passing"]
    rewards = []
    for k in range(steps):
        a["guild"] += 1
        if cat.guild_spaces[guild_space(cat, a["guild"])] is None and (when_passing or k == steps - 1):
            rewards.append(brown_space(st, entry))
    return rewards


def brown_space(st, entry):
    """Take the dragon (and cave card) in the named display slots, or place a marker on the guild tile."""
    a = st.automa
    data = rules(st.cat)["brown_space"]
    reward = entry["brown_space"]
    got = {"dragon": None, "cave": None, "marker": None}

    def slot(n):
        return n - 1 if data["first_slot"] == "left" else 3 - n

    if "dragon_slot" in reward:
        i = slot(reward["dragon_slot"])
        got["dragon"] = st.display_dragons[i]
        if got["dragon"] is not None:
            a["dragons"].append(got["dragon"])
            st.display_dragons[i] = None
    if "cave_slot" in reward:
        i = slot(reward["cave_slot"])
        got["cave"] = st.display_caves[i]
        if got["cave"] is not None:
            a["caves"].append(got["cave"])
            st.display_caves[i] = None
    if "guild_ability" in reward:
        got["marker"] = place_marker(st, reward["guild_ability"])
    st.refill_display()
    return got


def place_marker(st, n):
    """Her marker on the Nth guild ability that has a free square (the END GAME row last, never full; wrapping)."""
    a = st.automa
    if a["markers_ready"] <= 0:
        return None
    board = st.guild_board
    last = len(board) - 1
    rows = [r for r in range(last) if any(not sq for sq in board[r])] + [last]
    row = rows[(n - 1) % len(rows)]
    squares = board[row]
    free = [k for k, sq in enumerate(squares) if not sq]
    square = free[0] if free else len(squares) - 1  # the END GAME row's last square holds any number
    squares[square].append(SEAT)
    marker = [row if row < last else -1, square]
    a["markers"].append(marker)
    a["markers_ready"] -= 1
    return marker


def pass_round(st, number):
    """She passes. With Dragon Academy, passing before the player closes the 6-income spaces to them."""
    a = st.automa
    a["passed"] = True
    cat = st.cat
    if st.options["academy"] and st.round < cat.rounds and st.round in cat.academy_income \
            and not st.players[0].passed:
        closes = rules(cat)["academy"].get("closes_income")
        spaces = [i for i, income in enumerate(cat.academy_income[st.round]) if income == closes]
        free = [i for i in spaces if str(i) not in st.income_taken]
        if free:
            a["income_space"] = free[0]
            st.income_taken[str(free[0])] = SEAT
        a["closed_income"] = spaces
    st.emit("automa_pass", p=SEAT, round=st.round, card=number, income_space=a["income_space"])


def closed_income(st):
    """Income spaces the player may not pass onto this round (Dragon Academy, when she passed first)."""
    return st.automa["closed_income"] if st.automa is not None else ()


# -- round end --------------------------------------------------------------------------------------------------


def objective_count(st, tile, side, rnd=None):
    """Her count for this round's objective: the tile's value for the round plus the coins on it, capped. For a
    later round `rnd`, what she will have before any coin goes on it."""
    a = st.automa
    values = _automa_values(st.cat, tile, side)
    if not values:
        return 0
    counts = st.cat.objective_tiles[tile]["sides"][side]["counts"]
    rnd = st.round if rnd is None else rnd
    coins = a["coins"] if rnd == st.round else 0  # her coins go on the current round's tile only
    n = values[min(rnd, len(values)) - 1] + coins
    cap = rules(st.cat)["objective"]["max"].get(counts.get("what"))
    return min(n, cap) if cap is not None else n


def objective_scored(st, place, count):
    a = st.automa
    place_on_round(a["objectives"], st.round, place)
    st.emit("automa_objective", p=SEAT, round=st.round, count=count, place=place, coins=a["coins"])
    a["coins"] = 0  # the coins go back to the supply


def next_start(st):
    """Base game: the player starts every round; Dragon Academy: the start player alternates."""
    if st.options["academy"]:
        return 1 - st.start
    return 0


def new_round(st):
    """Between rounds: a marker from the round tracker becomes ready, her deck is rebuilt; Ravel: coins to 2."""
    a = st.automa
    data = rules(st.cat)
    placed = len(a["markers"]) + a["markers_ready"]
    gap = data["setup"]["markers_per_round_gap"]
    a["markers_ready"] += max(0, min(gap, data["setup"]["markers_max"] - placed))
    a["passed"] = False
    a["income_space"] = None
    a["closed_income"] = []
    new_deck(st)
    if a["ravel"]:
        pl = st.players[0]
        pl.coins = min(pl.coins, data["ravel"]["coins_kept_between_rounds"])


# -- Dragon Academy: Automa's cache ----------------------------------------------------------------------------


def share_items(node):
    """(items, paid): how many things an opponents' share gains at most, and whether it pays for them first.

    An acting word gains its `count` (what it does "if you do" is not counted); a word that only shapes others adds
    up what the language's walker finds inside it, except that `choose` counts its best `pick` options, `if` its
    better branch and `repeat` its effect `times` times; what a `pay` buys is paid for."""
    do = node.get("do")
    if do != "pay" and WORDS[do].acts:
        count = node.get("count", 1)
        return (count if isinstance(count, int) else 1), False
    parts = [share_items(sub) for _path, sub in children(node)]
    if do == "choose":
        parts = sorted(parts, reverse=True)[:node.get("pick", 1)]
    elif do == "if":
        parts = [max(parts)] if parts else []
    n, paid = sum(n for n, _ in parts), any(p for _, p in parts)
    if do == "repeat":
        n *= node["times"] if isinstance(node["times"], int) else 1
    return n, paid or do == "pay"


def cache(st, share, source="", declined=False):
    """She takes cache tokens for an opponents' share of an ability the player triggered (or, if the data says
    so, only of one the player used)."""
    rates = rules(st.cat)["academy"]["cache"]
    if declined and not rates["when_owner_declines"]:
        return
    items, paid = share_items(share)
    tokens = items * (rates["per_item_paid"] if paid else rates["per_item_free"])
    if tokens:
        st.automa["cache"] += tokens
        st.emit("automa_cache", p=SEAT, tokens=tokens, total=st.automa["cache"], source=source)


# -- scoring ----------------------------------------------------------------------------------------------------


def dragon_card_vp(cat, level):
    scoring = rules(cat)["scoring"]
    return scoring["dragon_card_vp_by_level"].get(str(level), scoring["dragon_card_vp"])


def steps_past_brown(cat, advancements):
    """Spaces her token stands past the last brown space it reached (0 on a brown space)."""
    n = len(cat.guild_spaces)
    here = guild_space(cat, advancements)
    for k in range(min(n, advancements + 1)):
        if cat.guild_spaces[(here - k) % n] is None:
            return k
    return advancements


def score(cat, level=1, ravel=False, dragon_cards=0, cave_cards=0, guild_steps=0, markers=(), objective_places=(),
          objective_vp_extra=0, cache_tokens=0):
    """Her score as a breakdown in the players' categories (plus "total"), from the parts a player can count.

    The one rule for her VP, used by the engine at game end and by the score calculator's Automa line.
    Dragon cards score in "dragons", cave cards in "items" (cards she holds), the guild track and (Ravel Mode)
    her END GAME squares in "guild", cache tokens in "cached"."""
    data = rules(cat)["scoring"]
    breakdown = dict.fromkeys(SCORE_CATEGORIES, 0)
    track = data["vp_on_brown_space"] if guild_steps == 0 else guild_steps * data["vp_per_guild_step"]
    squares = guild_marker_vp(cat, markers) if (ravel or data["end_game_squares"] == "always") else 0
    breakdown.update({
        "dragons": dragon_cards * dragon_card_vp(cat, level),
        "items": cave_cards * data["cave_card_vp"],
        "guild": track + squares,
        "objectives": objective_vp(cat, objective_places) + objective_vp_extra,
        "cached": cache_tokens // data["cache_tokens_per_vp"],
    })
    breakdown["total"] = sum(breakdown[c] for c in SCORE_CATEGORIES)
    return breakdown


def parts(st):
    """What her score is made of, as a player at the table counts it."""
    a = st.automa
    return {"dragon_cards": len(a["dragons"]), "cave_cards": len(a["caves"]),
            "guild_steps": steps_past_brown(st.cat, a["guild"]), "markers": [list(m) for m in a["markers"]],
            "objective_places": list(a["objectives"]), "cache_tokens": a["cache"]}


def current_score(st):
    a = st.automa
    counted = parts(st)
    return score(st.cat, level=a["level"], ravel=a["ravel"], dragon_cards=counted["dragon_cards"],
                 cave_cards=counted["cave_cards"], guild_steps=counted["guild_steps"], markers=counted["markers"],
                 objective_places=counted["objective_places"], cache_tokens=counted["cache_tokens"])


def add_to_result(st, result):
    """Put her in the finished game's result at seat 1; ties go to the player."""
    mine = current_score(st)
    human = result["scores"][0]["total"]
    result["scores"].append(mine)
    result["dragons"].append(len(st.automa["dragons"]))
    she_wins = mine["total"] > human
    result["places"] = [2, 1] if she_wins else [1, 2]
    result["winners"] = [SEAT] if she_wins else [0]
    if mine["total"] == human:
        result["tiebreak"] = [f"You and the Automa tie on {human} VP: a tie goes to you."]
    a = st.automa
    result["automa"] = dict(parts(st), seat=SEAT, level=a["level"], ravel=a["ravel"])
    return result


# -- what a player sees -----------------------------------------------------------------------------------------


def public_view(st):
    """Her public state: everything but the order of her deck and the card set aside."""
    a = st.automa
    if a is None:
        return None
    cat = st.cat
    tile, side = st.objectives[st.round - 1] if st.round - 1 < len(st.objectives) else (None, None)
    room = rules(cat)["setup"].get("markers_max", 4) - a["markers_ready"] - len(a["markers"])
    waiting = max(0, min(cat.rounds - st.round, room))  # on the round tracker, ready after later rounds
    return {
        "seat": SEAT, "level": a["level"], "ravel": a["ravel"], "passed": a["passed"],
        "cards": sorted(a["cards"]), "played": list(a["played"]), "deck_count": len(a["deck"]),
        "set_aside_count": len(a["aside"]),
        "guild_advancements": a["guild"], "guild_space": guild_space(cat, a["guild"]),
        "guild_markers": [list(m) for m in a["markers"]], "markers_ready": a["markers_ready"],
        "markers_waiting": waiting,
        "dragon_cards": list(a["dragons"]), "cave_cards": list(a["caves"]),
        "objective_coins": a["coins"],
        "objective_count": objective_count(st, tile, side) if tile is not None else None,
        "objective_places": list(a["objectives"]), "cache_tokens": a["cache"],
        "income_space": a["income_space"], "closed_income": list(a["closed_income"]),
        "score": current_score(st), "score_names": automa_score_names(a["ravel"]),
    }

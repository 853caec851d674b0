"""The flow of a game, as task handlers on the state's stack: setup choices, the turn and its main actions, the
adventurer's walk through a cave, the end of a turn, round end (once-per-round abilities, objective, income), the
Dragon Guild track and its markers, and game end.

Each handler takes (state, task); a handler that needs an answer calls `st.ask(...)` and is called again with it in
`task["a"]`. Handlers register with `@task(...)` (tasks.py); the state (state.py) runs them.
"""
from functools import cache
from itertools import chain, combinations, combinations_with_replacement

from ..language.vocabulary import CAVE_NAMES, RESOURCES
from ..language.walk import asks_first
from . import automa as solo, interpreter as fx
from .decisions import Option
from .exchange import exchange_now, exchange_options
from .interpreter import push_ability
from .model import COLUMNS
from .scoring import final_result, objective_places, place_on_round
from .tasks import task

PASS = Option("pass")
EXPLORE = tuple(Option("explore", (cave,)) for cave in range(3))
PATHS = tuple(f"the {name} path" for name in CAVE_NAMES)  # where a mat icon's benefit comes from


@task("setup_cards")
def t_setup_cards(st, task):
    p = task["p"]
    pl = st.players[p]
    a = task.pop("a", None)
    if a is None:
        cards = [("dragon", d) for d in sorted(pl.hand) if d is not None] + \
                [("cave", c) for c in sorted(pl.caves) if c is not None]
        drop = len(cards) - st.cat.setup.get("keep_cards", 4)
        options = [Option("discard_cards", tuple(chain.from_iterable(combo)))
                   for combo in combinations(cards, max(drop, 0))]
        return st.ask(task, p, "setup_keep", options, drop=max(drop, 0))
    args = a.args
    for i in range(0, len(args), 2):
        if args[i] == "dragon":
            pl.hand.remove(args[i + 1])
            st.dragon_discard.append(args[i + 1])
        else:
            pl.caves.remove(args[i + 1])
            st.cave_discard.append(args[i + 1])
    if st.events is not None:
        st.emit("kept", p=p, discarded=[[args[i], args[i + 1]] for i in range(0, len(args), 2)],
                kept=[["dragon", d] for d in pl.hand] + [["cave", c] for c in pl.caves],
                n=len(pl.hand) + len(pl.caves))


@task("setup_resources")
def t_setup_resources(st, task):
    p = task["p"]
    a = task.pop("a", None)
    if a is None:
        n = st.cat.setup.get("resources_of_choice", 3)
        return st.ask(task, p, "setup_resources", resource_choices(n), count=n)
    for r in a.args:
        st.players[p].res[RESOURCES.index(r)] += 1
    st.emit("chose_resources", p=p, items=list(a.args))


@cache
def action(kind, *args):
    """A main action's option, made once: the same few hundred come up in every game (an option is a frozen value)."""
    return Option(kind, args)


@cache
def resource_choices(n):
    """The options of the starting resources: every way to choose `n` of them (made once per count)."""
    return tuple(Option("resources", combo) for combo in combinations_with_replacement(RESOURCES, n))


def main_options(st, p):
    pl = st.players[p]
    cat = st.cat
    options = []
    if st.options["academy"] and st.round < cat.rounds and st.round in cat.academy_income:
        gone = {int(space) for space in st.income_taken}.union(solo.closed_income(st))
        options += [action("pass", i) for i in range(len(cat.academy_income[st.round])) if i not in gone]
        if not options:
            options.append(PASS)
    else:
        options.append(PASS)
    coins = pl.coins
    eggs, dragons, dig, empty = pl.survey()
    if coins >= cat.excavate_coins and pl.caves:
        caves = [cave for cave in range(3) if dig[cave] is not None and eggs >= cat.excavate_eggs[dig[cave] % COLUMNS]]
        if caves:
            for card in sorted(set(pl.caves)):
                for cave in caves:
                    options.append(action("excavate", card, cave))
    if coins >= cat.entice_coins and pl.hand and dragons < cat.max_dragons:
        # per cave, the space an enticed dragon takes: None when the cave is full to what is excavated
        spaces = [index if index is not None and pl.excavated(index) else None for index in empty]
        if spaces != [None, None, None]:
            for dragon in sorted(set(pl.hand)):
                card = cat.dragons[dragon]
                affordable = None
                for cave in card.habitats:
                    index = spaces[cave]
                    if index is None:
                        continue
                    if card.free_if:  # a conditional cost is tested on the space the dragon would take
                        affordable = st.can_afford_dragon(p, dragon, index, cat.entice_coins, eggs=eggs)
                    elif affordable is None:  # any other is the same in every cave: checked once
                        affordable = pl.holds(card, cat.entice_coins, eggs)
                    if affordable:
                        options.append(action("entice", dragon, cave))
    explore_costs = cat.explore_costs
    for cave, visit in enumerate(pl.explored):
        if visit < len(explore_costs):
            need_coins, need_eggs = explore_costs[visit]
            if coins >= need_coins and eggs >= need_eggs:
                options.append(EXPLORE[cave])
    options += exchange_options(cat, pl)
    return options


@task("turn")
def t_turn(st, task):
    p = st.current
    pl = st.players[p]
    a = task.pop("a", None)
    if a is None:
        if all(q.passed for q in st.players):
            st.stack.append({"t": "round_end", "step": 0})
            return
        st.frames.clear()
        if "x" not in task:  # not back after an exchange: the turn begins
            st.emit("turn", p=p, round=st.round, n=st.turns + 1)
        return st.ask(task, p, "main_action", main_options(st, p))
    kind = a.kind
    cat = st.cat
    if kind == "exchange":
        exchange_now(st, p, a.args)
        st.stack.append({"t": "turn", "x": 1})
        return
    st.turns += 1
    st.stack.append({"t": "end_turn", "p": p})
    if kind == "pass":
        pl.passed = True
        if a.args:
            pl.income_space = a.args[0]
            st.income_taken[str(a.args[0])] = p
            st.emit("passed", p=p, income_space=a.args[0])
        else:
            st.emit("passed", p=p)
        return
    fid = fx.new_frame(st, p, source="action")
    if kind == "excavate":
        card, cave = a.args
        index = st.next_unexcavated(p, cave)
        pl.coins -= cat.excavate_coins
        pl.caves.remove(card)
        st.place_cave(p, card, index, fid, free=False, event={"action": True, "cost": {"coin": cat.excavate_coins}})
    elif kind == "entice":
        dragon, cave = a.args
        index = st.next_empty(p, cave)
        pl.coins -= cat.entice_coins
        pl.hand.remove(dragon)
        st.place_dragon(p, dragon, index, fid, mode="printed", event=("enticed", {"cost": {"coin": cat.entice_coins}}))
    elif kind == "explore":
        cave = a.args[0]
        coins, eggs = cat.explore_costs[pl.explored[cave]]
        pl.explored[cave] += 1
        pl.coins -= coins
        if st.events is not None:
            cost = {"coin": coins, "egg": eggs} if eggs else {"coin": coins}
            st.emit("explored", p=p, cave=cave, visit=pl.explored[cave], cost=cost)
        st.stack.append({"t": "walk", "p": p, "cave": cave, "step": 0})
        if eggs:
            fx.push_fx(st, {"do": "pay", "cost": [{"item": "egg", "count": eggs}]}, fid, part=1)


@task("place_cave")
def t_place_cave(st, task):
    st.cave_played(task["p"], task["card"], task["i"], task.get("covered", True))


@task("place_dragon")
def t_place_dragon(st, task):
    st.push_card_abilities(task["p"], task["d"], "when_played", task["i"])


@task("walk")
def t_walk(st, task):
    """The adventurer's walk: mat icons and dragons left to right, stopping at the first space without a dragon."""
    p, cave, step = task["p"], task["cave"], task["step"]
    if step > 8:
        return
    task["step"] = step + 1
    if step % 2 == 0:
        st.stack.append(task)
        icon = st.cat.mat_icons[cave][step // 2]
        push_ability(st, p, icon, cave=cave, ask=False, source=PATHS[cave])
        return
    pl = st.players[p]
    index = cave * COLUMNS + step // 2
    space = pl.spaces[index]
    dragon = space.dragon
    if dragon is None:
        return  # a stop sign
    st.stack.append(task)
    card = st.cat.dragons[dragon]
    if card.size == "fledgling" and space.tokens < len(card.training):
        # Training is not an "if activated" ability: the rules' same-turn exception does not reach it (docs/engine.md).
        push_ability(st, p, {"do": "train", "on": {"scope": "here"}}, src=dragon, source="training")
        return
    if dragon in pl.fresh:
        return  # "if activated" abilities do not trigger on the turn the dragon is played
    st.push_card_abilities(p, dragon, "if_activated", index)


@task("end_turn")
def t_end_turn(st, task):
    p = task["p"]
    pl = st.players[p]
    cat = st.cat
    a = task.pop("a", None)
    if a is not None:
        if a.args[0] == "dragon":
            pl.hand.remove(a.args[1])
            st.dragon_discard.append(a.args[1])
            st.emit("limit_discard", p=p, card=list(a.args))
        elif a.args[0] == "cave":
            pl.caves.remove(a.args[1])
            st.cave_discard.append(a.args[1])
            st.emit("limit_discard", p=p, card=list(a.args))
        else:
            pl.res[RESOURCES.index(a.args[0])] -= 1
            st.emit("limit_discard", p=p, item=a.args[0])
    extra = pl.card_count() - cat.cap_cards
    if extra > 0:
        options = [Option("discard", ("dragon", d)) for d in sorted(set(pl.hand))] + \
                  [Option("discard", ("cave", c)) for c in sorted(set(pl.caves))]
        return st.ask(task, p, "discard_cards", options, keep=cat.cap_cards, extra=extra)
    extra = sum(pl.res) - cat.cap_resources
    if extra > 0:
        options = [Option("discard", (r,)) for i, r in enumerate(RESOURCES) if pl.res[i]]
        return st.ask(task, p, "discard_resources", options, keep=cat.cap_resources, extra=extra)
    if pl.coins > cat.cap_coins:
        st.emit("coins_capped", p=p, lost=pl.coins - cat.cap_coins)
        pl.coins = cat.cap_coins
    for q in st.players:  # anyone's dragon played during this turn may be activated from the next turn on
        q.fresh.clear()
    for card in st.revealed:
        st.dragon_discard.append(card)
    if st.revealed:
        st.emit("discarded", cards=[["dragon", card] for card in st.revealed])
    st.revealed.clear()
    st.refill_display()
    if st.automa is not None:
        return solo.after_turn(st)
    n = len(st.players)
    for k in range(1, n + 1):
        q = (p + k) % n
        if not st.players[q].passed:
            st.current = q
            st.stack.append({"t": "turn"})
            return
    st.stack.append({"t": "round_end", "step": 0})


def turn_order(st, first=None):
    n = len(st.players)
    first = st.start if first is None else first
    return [(first + k) % n for k in range(n)]


@task("round_end")
def t_round_end(st, task):
    step = task["step"]
    cat = st.cat
    if step == 0:
        st.emit("round_ended", round=st.round)
        for pl in st.players:
            pl.explored = [0, 0, 0]
        task["step"] = 1
        st.stack.append(task)
        for p in reversed(turn_order(st)):
            st.stack.append({"t": "once_per_round", "p": p, "done": []})
        return
    if step == 1:
        score_objective(st)
        if st.round >= cat.rounds:
            st.stack.append({"t": "game_end", "step": 0})
            return
        st.refresh_display()
        for pl in st.players:
            pl.fresh.clear()  # dragons played at round end are not played on anyone's next turn
        if st.automa is not None:
            st.start = solo.next_start(st)
            solo.new_round(st)
        else:
            st.start = (st.start + 1) % len(st.players)
        st.round += 1
        st.current = st.start if st.automa is None else 0
        st.emit("round_started", round=st.round, first=st.start)
        st.stack.append(solo.first_turn(st))
        academy = st.options["academy"]
        for p in reversed(turn_order(st)):
            pl = st.players[p]
            pl.passed = False
            if academy:
                space = pl.income_space
                pl.income_space = None
                incomes = cat.academy_income.get(st.round - 1, ())
                if space is not None and space < len(incomes):
                    st.stack.append({"t": "refill"})  # a card drafted as income is replaced at once
                    push_ability(st, p, incomes[space], ask=False, source="income")
                    st.stack.append({"t": "income", "p": p, "space": space})
            else:
                push_ability(st, p, cat.income_effect, ask=False, source="income")
                st.stack.append({"t": "income", "p": p})
        st.income_taken = {}


@task("income")
def t_income(st, task):
    """Only says that a player's income comes next (it is the ability queued below)."""
    st.emit("income", p=task["p"], **({"space": task["space"]} if "space" in task else {}))


@task("once_per_round")
def t_once_per_round(st, task):
    p = task["p"]
    pl = st.players[p]
    done = task["done"]
    ready = [s.dragon for i, s in enumerate(pl.spaces) if s.dragon is not None and s.dragon not in done
             and "once_per_round" in st.cat.dragons[s.dragon].kinds and st.active(p, s.dragon, i)]
    if not ready:
        return
    a = task.pop("a", None)
    if a is None and len(ready) > 1:
        options = [Option("next_ability", (d,)) for d in ready]
        return st.ask(task, p, "ability_order", options)
    dragon = a.args[0] if a is not None else ready[0]
    if a is not None:
        st.emit("ordered", p=p, dragon=dragon)
    done.append(dragon)
    st.stack.append(task)
    st.push_card_abilities(p, dragon, "once_per_round")


def score_objective(st):
    rnd = st.round
    if rnd - 1 >= len(st.objectives):
        return
    tile, side = st.objectives[rnd - 1]
    counter = st.cat.objective_tiles[tile]["sides"][side]["counts"]
    values = []
    for p in range(len(st.players)):
        fid = fx.new_frame(st, p, source="objective")
        values.append(fx.count(st, st.frames.pop(fid), counter))
    if st.automa is not None:
        values.append(solo.objective_count(st, tile, side))
    places = objective_places(values)
    for p in range(len(st.players)):
        place_on_round(st.players[p].objectives, rnd, places[p])
    if st.automa is not None:
        solo.objective_scored(st, places[-1], values[-1])
    if st.events is not None:
        table = st.cat.objective_vp.get(rnd, ())
        vp = [table[place - 1] if 1 <= place <= len(table) else 0 for place in places]
        st.emit("objective", round=rnd, tile=tile, side=side, counts=values, places=places, vp=vp)


@task("game_end")
def t_game_end(st, task):
    if task["step"] == 0:
        task["step"] = 1
        st.stack.append(task)
        rows = st.tile_rows()
        for p in reversed(turn_order(st)):
            pl = st.players[p]
            for row, square in reversed(pl.markers):
                if 0 <= row < len(rows) and rows[row].get("end_game"):
                    push_ability(st, p, rows[row]["effect"], ask=False, source="guild", via=["guild_row", row])
            for i in reversed(range(len(pl.spaces))):
                dragon = pl.spaces[i].dragon
                if dragon is None or "end_game" not in st.cat.dragons[dragon].kinds or not st.active(p, dragon, i):
                    continue
                for ability in st.cat.dragons[dragon].abilities:
                    if ability["kind"] == "end_game":
                        push_ability(st, p, ability["effect"], src=dragon, ask=asks_first(ability["effect"]),
                                     source=f"dragon:{dragon}", kind="end_game")
        return
    st.result = final_result(st)
    if st.automa is not None:
        solo.add_to_result(st, st.result)
    if st.events is not None:
        result = st.result
        st.emit("game_ended", scores=result["scores"], places=result["places"], winners=result["winners"],
                dragons=result["dragons"], ties=ties(result))


def ties(result):
    """Each group of players tied on VP: their seats, and whether the most dragons on the mat broke the tie."""
    totals = [s["total"] for s in result["scores"]]
    out = []
    for total in sorted(set(totals), reverse=True):
        seats = [p for p, t in enumerate(totals) if t == total]
        if len(seats) > 1:
            out.append({"seats": seats, "vp": total,
                        "broken": len({result["dragons"][p] for p in seats}) > 1})
    return out


@task("guild")
def t_guild(st, task):
    """One Dragon Guild advancement at a time: every space passed gives its benefit."""
    p = task["p"]
    pl = st.players[p]
    task["n"] -= 1
    if task["n"] > 0:
        st.stack.append(task)
    pl.guild += 1
    track = st.cat.guild_spaces
    position = (st.cat.guild_start + pl.guild) % len(track)
    effect = track[position]
    if effect is None and len(pl.markers) >= st.cat.markers_per_player:
        st.emit("guild", p=p, position=position, n=pl.guild, marker=True, spent=True)  # none left to place
    else:
        st.emit("guild", p=p, position=position, n=pl.guild, marker=effect is None)
    if effect is None:
        st.stack.append({"t": "marker", "p": p})
    else:
        push_ability(st, p, effect, ask=False, source="the Dragon Guild track")


def marker_options(st, p):
    pl = st.players[p]
    if len(pl.markers) >= st.cat.markers_per_player:
        return []
    options = []
    last = len(st.guild_board) - 1
    for row, squares in enumerate(st.guild_board):
        for square, seats in enumerate(squares):
            unlimited = row == last and square == len(squares) - 1
            if not seats or unlimited:
                options.append(Option("marker", (row if row < last else -1, square)))
                break
    return options


@task("marker")
def t_marker(st, task):
    """A brown space: place a guild marker on a free square and take its benefit."""
    p = task["p"]
    a = task.pop("a", None)
    if a is None:
        options = marker_options(st, p)
        if not options:
            return
        return st.ask(task, p, "guild_marker", options)
    row, square = a.args
    board_row = row if row >= 0 else len(st.guild_board) - 1
    st.guild_board[board_row][square].append(p)
    st.players[p].markers.append([row, square])
    st.emit("marker", p=p, row=row, square=square)
    rows = st.tile_rows()
    if row >= 0 and not rows[row].get("end_game"):
        push_ability(st, p, rows[row]["effect"], source=f"{st.cat.guild_tiles[st.guild_tile]['name']} row {row + 1}",
                     via=["guild_row", row])


@task("cave_order")
def t_cave_order(st, task):
    p = task["p"]
    a = task.pop("a", None)
    if a is None:
        return st.ask(task, p, "cave_order", [Option("first", ("cave_card",)), Option("first", ("column_4",))],
                      card=st.cat.card("cave", task["card"]))
    st.emit("ordered", p=p, cave_card=task["card"], first=a.args[0])
    if a.args[0] == "cave_card":
        st.push_column_4(p)
        st.push_cave_abilities(p, task["card"])
    else:
        st.push_cave_abilities(p, task["card"])
        st.push_column_4(p)


@task("refill")
def t_refill(st, task):
    st.refill_display()

"""The game state and the flow of a game: setup, turns, round end and game end, all as tasks on one stack.

`GameState.new(catalogue, players=..., seed=...)` sets a game up; `legal_options()` lists what the player in
`pending` may do, in a stable order; `apply(option)` checks the option is one of them, then runs the game forward
until the next decision. Everything is plain data: `to_json()` / `from_json()` round-trip exactly.
"""
from itertools import combinations, combinations_with_replacement

from . import interpreter as fx
from .catalogue import CAVE_NAMES, RESOURCES
from .decisions import IllegalDecision, MalformedDecision, Option, Pending
from .interpreter import push_ability
from .model import COLUMNS, NEST, Player
from .rng import Rng

FORMAT_VERSION = 1
PASS = Option("pass")


class GameState:
    def __init__(self, catalogue):
        self.cat = catalogue
        self.options = {}
        self.rng = Rng(0)
        self.players = []
        self.round = 1
        self.start = 0
        self.current = 0
        self.dragon_deck = []
        self.cave_deck = []
        self.display_dragons = [None, None, None]
        self.display_caves = [None, None, None]
        self.dragon_discard = []
        self.cave_discard = []
        self.revealed = []
        self.guild_tile = 0
        self.guild_board = []  # per tile row, then the END GAME VP row: a list of seats per square
        self.objectives = []  # [tile index, side] per round
        self.income_taken = {}  # Academy: income space index (as text) -> seat, this round
        self.stack = []
        self.frames = {}
        self.next_frame = 0
        self.pending = None
        self.log = []
        self.result = None
        self.turns = 0

    # -- setup ------------------------------------------------------------------------------------------------

    @classmethod
    def new(cls, catalogue, players=2, seed=0, academy=False, updated=None):
        """Set a game up by the rulebook; the first decisions are each player's starting cards and resources."""
        if not isinstance(players, int) or isinstance(players, bool) or not 1 <= players <= 5:
            raise MalformedDecision("players: a game has 2 to 5 players")
        if players == 1:  # the rulebook's solo game needs the Automa, which the engine does not play yet
            raise MalformedDecision("players: a game has 2 to 5 players; solo play against the Automa is not "
                                    "supported yet")
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise MalformedDecision("seed: expected a whole number")
        updated = academy if updated is None else bool(updated)
        st = cls(catalogue)
        st.options = {"players": players, "seed": seed, "academy": bool(academy), "updated": updated}
        st.rng = Rng(seed)
        cat = catalogue
        st.dragon_deck = cat.dragon_deck(academy, updated)
        st.cave_deck = cat.cave_deck(academy, updated)
        st.rng.shuffle(st.dragon_deck)
        st.rng.shuffle(st.cave_deck)
        tiles = cat.guild_tiles_for(academy)
        st.guild_tile = tiles[st.rng.below(len(tiles))] if tiles else -1
        st.guild_board = [[[] for _ in range(row["squares"])] for row in st.tile_rows()]
        st.guild_board.append([[] for _ in cat.guild_end_vp])
        pool = cat.objectives_for(academy)
        st.rng.shuffle(pool)
        st.objectives = [[tile, "ab"[st.rng.below(2)]] for tile in pool[:cat.rounds]]
        setup = cat.setup
        for seat in range(players):
            p = Player(seat)
            p.coins = setup.get("coins", 6)
            p.nest = min(setup.get("eggs", 1), cat.mat_nests)
            p.hand = [st.draw_dragon() for _ in range(setup.get("deal_dragons", 3))]
            p.caves = [st.draw_cave() for _ in range(setup.get("deal_caves", 3))]
            st.players.append(p)
        st.refill_display()
        st.start = st.rng.below(players)
        st.current = st.start
        st.stack.append({"t": "turn"})
        for seat in reversed(range(players)):
            st.stack.append({"t": "setup_resources", "p": seat})
            st.stack.append({"t": "setup_cards", "p": seat})
        st.run()
        return st

    def tile_rows(self):
        return self.cat.guild_tiles[self.guild_tile]["rows"] if self.guild_tile >= 0 else []

    # -- cards ------------------------------------------------------------------------------------------------

    def draw_dragon(self):
        if not self.dragon_deck and self.dragon_discard:
            self.dragon_deck, self.dragon_discard = self.dragon_discard, []
            self.rng.shuffle(self.dragon_deck)
        return self.dragon_deck.pop() if self.dragon_deck else None

    def draw_cave(self):
        if not self.cave_deck and self.cave_discard:
            self.cave_deck, self.cave_discard = self.cave_discard, []
            self.rng.shuffle(self.cave_deck)
        return self.cave_deck.pop() if self.cave_deck else None

    def refill_display(self):
        for i in range(3):
            if self.display_dragons[i] is None:
                self.display_dragons[i] = self.draw_dragon()
            if self.display_caves[i] is None:
                self.display_caves[i] = self.draw_cave()

    def refresh_display(self):
        for i in range(3):
            if self.display_dragons[i] is not None:
                self.dragon_discard.append(self.display_dragons[i])
                self.display_dragons[i] = None
            if self.display_caves[i] is not None:
                self.cave_discard.append(self.display_caves[i])
                self.display_caves[i] = None
        self.refill_display()

    # -- decisions --------------------------------------------------------------------------------------------

    def ask(self, task, player, prompt, options):
        """Wait for `player` to pick one of `options`; a single option is taken at once (no choice to make)."""
        if not options:  # every handler returns instead of asking about nothing: reaching here is an engine bug
            raise RuntimeError(f"engine error: no legal option for {prompt!r}")
        self.stack.append(task)
        if len(options) == 1:
            task["a"] = options[0]
            return
        self.pending = Pending(player, prompt, tuple(options))

    def reask(self):
        """Ask the pending question again after the state was edited by hand (tests, setting up a position)."""
        if self.pending is not None:
            self.pending = None
            task = self.stack.pop()
            HANDLERS[task["t"]](self, task)
        self.run()

    def legal_options(self):
        return list(self.pending.options) if self.pending else []

    @property
    def finished(self):
        return self.result is not None

    def apply(self, option):
        """Take one decision for the pending player; raise and change nothing if it is not a legal option."""
        if not isinstance(option, Option):
            option = Option.from_dict(option)
        if self.pending is None:
            raise IllegalDecision(f"You tried '{self.label(option)}', but the game is over: no decision is expected.")
        if option not in self.pending.options:
            raise IllegalDecision(self.explain_illegal(option))
        player = self.pending.player
        self.pending = None
        self.log.append({"p": player, "kind": option.kind, "args": list(option.args)})
        task = self.stack.pop()
        task["a"] = option
        HANDLERS[task["t"]](self, task)
        self.run()

    def run(self):
        stack = self.stack
        while self.pending is None and stack:
            task = stack.pop()
            HANDLERS[task["t"]](self, task)

    # -- small rules shared by actions and words --------------------------------------------------------------

    def lay(self, p, where):
        if where == NEST:
            self.players[p].nest += 1
        else:
            self.players[p].spaces[where].eggs += 1

    def egg_room(self, p, spaces, nests):
        pl = self.players[p]
        cat = self.cat.dragons
        out = [i for i in spaces if pl.spaces[i].dragon is not None
               and pl.spaces[i].eggs < cat[pl.spaces[i].dragon].capacity]
        if nests and pl.nest < self.cat.mat_nests:
            out.insert(0, NEST)
        return out

    def place_dragon(self, p, dragon, index, fid=None, mode="free", waive=None):
        """Put a dragon on a space, then queue its when-played abilities below the payment of its eggs.

        The card is on the mat while its cost is paid, so it is never in two places or none."""
        egg_cost = self._egg_cost(dragon, index, p, mode, waive)
        resources = self.pay_dragon(p, dragon, index, fid, mode, waive, push_eggs=False)
        pl = self.players[p]
        pl.spaces[index].dragon = dragon
        pl.fresh.append(dragon)
        self.stack.append({"t": "place_dragon", "p": p, "d": dragon, "i": index})
        if egg_cost:
            fx.push_fx(self, {"do": "pay", "cost": [{"item": "egg", "count": egg_cost}]}, fid)
        if resources:  # resources the player must first make by exchange are paid before anything else
            fx.push_fx(self, resources, fid)

    def push_card_abilities(self, p, dragon, kind, index=None):
        card = self.cat.dragons[dragon]
        if kind not in card.kinds or not self.active(p, dragon, index):
            return
        for ability in reversed(card.abilities):
            if ability["kind"] == kind:
                push_ability(self, p, ability["effect"], ability.get("others"), src=dragon, kind=kind)

    def active(self, p, dragon, index=None):
        """A fledgling's abilities work only once it is fully trained."""
        card = self.cat.dragons[dragon]
        if card.size != "fledgling":
            return True
        pl = self.players[p]
        index = pl.find(dragon) if index is None else index
        return index is not None and pl.spaces[index].tokens >= len(card.training)

    def place_cave(self, p, cave_card, index, fid=None, free=True, covered=True):
        """Put a cave card on a space; then (after its column's eggs are paid) its when-played ability and the
        4th column's when-covered benefit."""
        self.players[p].spaces[index].cave_card = cave_card
        self.stack.append({"t": "place_cave", "p": p, "card": cave_card, "i": index, "covered": covered})
        eggs = self.cat.excavate_eggs[index % COLUMNS]
        if eggs and not free:
            fx.push_fx(self, {"do": "pay", "cost": [{"item": "egg", "count": eggs}]}, fid)

    def cave_played(self, p, cave_card, index, covered=True):
        column_4 = covered and index % COLUMNS == COLUMNS - 1 and self.cat.column_4_effect
        if column_4 and any(a["kind"] == "when_played" for a in self.cat.caves[cave_card].abilities):
            self.stack.append({"t": "cave_order", "p": p, "card": cave_card})  # "in either order"
            return
        if column_4:
            self.push_column_4(p)
        self.push_cave_abilities(p, cave_card)

    def push_column_4(self, p):
        push_ability(self, p, self.cat.column_4_effect, source="the 4th column's when-covered benefit")

    def push_cave_abilities(self, p, cave_card):
        card = self.cat.caves[cave_card]
        for ability in reversed(card.abilities):
            if ability["kind"] == "when_played":
                push_ability(self, p, ability["effect"], ability.get("others"), source=f"cave card {card.number}",
                             kind="when_played")

    def next_empty(self, p, cave):
        """The leftmost space of a cave without a dragon (None when the cave is full)."""
        spaces = self.players[p].spaces
        for col in range(COLUMNS):
            if spaces[cave * COLUMNS + col].dragon is None:
                return cave * COLUMNS + col
        return None

    def next_unexcavated(self, p, cave):
        pl = self.players[p]
        for col in range(COLUMNS):
            if not pl.excavated(cave * COLUMNS + col):
                return cave * COLUMNS + col
        return None

    def free_to_play(self, p, dragon, index):
        """A conditional-cost dragon's condition, counted as if it were already on the space."""
        cond = self.cat.dragons[dragon].free_if
        if not cond:
            return False
        space = self.players[p].spaces[index]
        before = space.dragon
        space.dragon = dragon
        try:
            fid = fx.new_frame(self, p, dragon)
            return fx.test(self, self.frames.pop(fid), cond)
        finally:
            space.dragon = before

    def dragon_cost(self, dragon, mode="printed", waive=None):
        """What playing a dragon costs in this mode: its printed cost, less resources or one waived item."""
        cost = dict(self.cat.dragons[dragon].cost)
        if mode == "no_resources":
            for r in RESOURCES:
                cost.pop(r, None)
        if waive and cost.get(waive):
            cost[waive] -= 1
        return cost

    def discounts(self, dragon):
        """The items a 'discount of 1 egg or any resource' may take off a dragon's printed cost (never a coin)."""
        cost = self.cat.dragons[dragon].cost
        return [item for item in RESOURCES + ("egg",) if cost.get(item)]

    def can_afford_dragon(self, p, dragon, index, extra_coins=0, mode="printed", eggs=None, exchange=False,
                          waive=None):
        """Whether the player can pay; with `exchange`, resources they lack may be made by 2-for-1 exchanges."""
        pl = self.players[p]
        if mode == "free" or (self.cat.dragons[dragon].free_if and self.free_to_play(p, dragon, index)):
            return pl.coins >= extra_coins
        if mode == "discount_one":
            return any(self.can_afford_dragon(p, dragon, index, extra_coins, "printed", eggs, exchange, item)
                       for item in self.discounts(dragon) or [None])
        cost = self.dragon_cost(dragon, mode, waive)
        if cost.get("egg") and eggs is None:
            eggs = pl.eggs()
        if pl.coins < extra_coins + cost.get("coin", 0) or (cost.get("egg") and eggs < cost["egg"]):
            return False
        need = [cost.get(r, 0) for r in RESOURCES]
        return resources_cover(pl.res, need) if exchange else all(have >= n for have, n in zip(pl.res, need))

    def _egg_cost(self, dragon, index, p, mode, waive):
        if mode == "free" or self.free_to_play(p, dragon, index):
            return 0
        return self.dragon_cost(dragon, mode, waive).get("egg", 0)

    def pay_dragon(self, p, dragon, index, fid, mode="printed", waive=None, push_eggs=True):
        """Take a dragon's cost: coins now, resources now when held (else the returned payment, which offers the
        2-for-1 exchange); eggs as decisions on the stack when `push_eggs`."""
        if mode == "free" or self.free_to_play(p, dragon, index):
            return None
        pl = self.players[p]
        cost = self.dragon_cost(dragon, mode, waive)
        need = [cost.get(r, 0) for r in RESOURCES]
        resources = None
        if all(have >= n for have, n in zip(pl.res, need)):
            for i, n in enumerate(need):
                pl.res[i] -= n
        else:
            resources = {"do": "pay", "cost": [{"item": r, "count": n} for r, n in zip(RESOURCES, need) if n]}
        pl.coins -= cost.get("coin", 0)
        if push_eggs:
            if cost.get("egg"):
                fx.push_fx(self, {"do": "pay", "cost": [{"item": "egg", "count": cost["egg"]}]}, fid)
            if resources:
                fx.push_fx(self, resources, fid)
        return resources

    def advance_guild(self, p, steps):
        if steps > 0:
            self.stack.append({"t": "guild", "p": p, "n": steps})

    # -- labels and errors ------------------------------------------------------------------------------------

    def label(self, option):
        from .labels import label
        return label(self, option)

    def explain_illegal(self, option):
        from .labels import explain_illegal
        return explain_illegal(self, option)

    # -- serialization ----------------------------------------------------------------------------------------

    def to_json(self):
        pending = None
        if self.pending is not None:
            pending = {"player": self.pending.player, "prompt": self.pending.prompt,
                       "options": [o.to_dict() for o in self.pending.options]}
        return {
            "version": FORMAT_VERSION, "options": dict(self.options), "rng": self.rng.state, "round": self.round,
            "start": self.start, "current": self.current, "turns": self.turns,
            "players": [p.to_json() for p in self.players],
            "dragon_deck": list(self.dragon_deck), "cave_deck": list(self.cave_deck),
            "display_dragons": list(self.display_dragons), "display_caves": list(self.display_caves),
            "dragon_discard": list(self.dragon_discard), "cave_discard": list(self.cave_discard),
            "revealed": list(self.revealed), "guild_tile": self.guild_tile,
            "guild_board": [[list(sq) for sq in row] for row in self.guild_board],
            "objectives": [list(o) for o in self.objectives], "income_taken": dict(self.income_taken),
            "stack": _copy(self.stack), "frames": _copy(self.frames), "next_frame": self.next_frame,
            "pending": pending, "log": _copy(self.log), "result": _copy(self.result),
        }

    @classmethod
    def from_json(cls, catalogue, data):
        if not isinstance(data, dict) or data.get("version") != FORMAT_VERSION:
            raise MalformedDecision("not a saved game of this engine version")
        st = cls(catalogue)
        st.options = dict(data["options"])
        st.rng = Rng(data["rng"])
        st.round, st.start, st.current, st.turns = data["round"], data["start"], data["current"], data["turns"]
        st.players = [Player.from_json(i, p) for i, p in enumerate(data["players"])]
        st.dragon_deck = list(data["dragon_deck"])
        st.cave_deck = list(data["cave_deck"])
        st.display_dragons = list(data["display_dragons"])
        st.display_caves = list(data["display_caves"])
        st.dragon_discard = list(data["dragon_discard"])
        st.cave_discard = list(data["cave_discard"])
        st.revealed = list(data["revealed"])
        st.guild_tile = data["guild_tile"]
        st.guild_board = [[list(sq) for sq in row] for row in data["guild_board"]]
        st.objectives = [list(o) for o in data["objectives"]]
        st.income_taken = dict(data["income_taken"])
        st.stack = _copy(data["stack"])
        st.frames = _copy(data["frames"])
        st.next_frame = data["next_frame"]
        pending = data["pending"]
        if pending is not None:
            st.pending = Pending(pending["player"], pending["prompt"],
                                 tuple(Option.from_dict(o) for o in pending["options"]))
        st.log = _copy(data["log"])
        st.result = _copy(data["result"])
        return st

    @classmethod
    def replay(cls, catalogue, options, decisions):
        """Rebuild a game from its setup options and decision log."""
        st = cls.new(catalogue, players=options["players"], seed=options["seed"],
                     academy=options.get("academy", False), updated=options.get("updated"))
        for decision in decisions:
            st.apply(Option(decision["kind"], tuple(decision["args"])))
        return st


def _copy(value):
    """A deep copy of plain JSON data (faster than copy.deepcopy, and turns tuples into lists)."""
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_copy(v) for v in value]
    return value


# -- the flow of the game, as task handlers ---------------------------------------------------------------------

def t_setup_cards(st, task):
    p = task["p"]
    pl = st.players[p]
    a = task.pop("a", None)
    if a is None:
        cards = [("dragon", d) for d in sorted(pl.hand) if d is not None] + \
                [("cave", c) for c in sorted(pl.caves) if c is not None]
        drop = len(cards) - st.cat.setup.get("keep_cards", 4)
        options = [Option("discard_cards", tuple(x for card in combo for x in card))
                   for combo in combinations(cards, max(drop, 0))]
        return st.ask(task, p, "Choose the cards you do not keep (they are discarded face up)", options)
    args = a.args
    for i in range(0, len(args), 2):
        if args[i] == "dragon":
            pl.hand.remove(args[i + 1])
            st.dragon_discard.append(args[i + 1])
        else:
            pl.caves.remove(args[i + 1])
            st.cave_discard.append(args[i + 1])


def t_setup_resources(st, task):
    p = task["p"]
    a = task.pop("a", None)
    if a is None:
        n = st.cat.setup.get("resources_of_choice", 3)
        options = [Option("resources", combo) for combo in combinations_with_replacement(RESOURCES, n)]
        return st.ask(task, p, f"Choose your {n} starting resources", options)
    for r in a.args:
        st.players[p].res[RESOURCES.index(r)] += 1


def main_options(st, p):
    pl = st.players[p]
    cat = st.cat
    options = []
    if st.options["academy"] and st.round < cat.rounds and st.round in cat.academy_income:
        options += [Option("pass", (i,)) for i in range(len(cat.academy_income[st.round]))
                    if str(i) not in st.income_taken]
        if not options:
            options.append(PASS)
    else:
        options.append(PASS)
    eggs = pl.eggs()
    if pl.coins >= cat.excavate_coins and pl.caves:
        caves = []
        for cave in range(3):
            index = st.next_unexcavated(p, cave)
            if index is not None and eggs >= cat.excavate_eggs[index % COLUMNS]:
                caves.append(cave)
        if caves:
            for card in sorted(set(pl.caves)):
                options += [Option("excavate", (card, cave)) for cave in caves]
    if pl.coins >= cat.entice_coins and pl.hand and pl.dragon_count() < cat.max_dragons:
        spaces = [st.next_empty(p, cave) for cave in range(3)]
        spaces = [s if s is not None and pl.excavated(s) else None for s in spaces]
        if any(s is not None for s in spaces):
            for dragon in sorted(set(pl.hand)):
                for cave in cat.dragons[dragon].habitats:
                    index = spaces[cave]
                    if index is not None and st.can_afford_dragon(p, dragon, index, cat.entice_coins, eggs=eggs):
                        options.append(Option("entice", (dragon, cave)))
    for cave in range(3):
        visit = pl.explored[cave]
        if visit < len(cat.explore_costs):
            coins, egg_cost = cat.explore_costs[visit]
            if pl.coins >= coins and eggs >= egg_cost:
                options.append(Option("explore", (cave,)))
    options += exchange_options(pl)
    return options


_EXCHANGES = {}


def resources_cover(have, need):
    """The player holds `need`, or can make what is missing by 2-for-1 exchanges of resources not needed."""
    short = sum(max(0, n - h) for h, n in zip(have, need))
    spare = sum(max(0, h - n) for h, n in zip(have, need))
    return spare >= 2 * short


def exchange_options(pl):
    """2 resources (any mix) for 1 of another kind; cached by which kinds the player has 0, 1 or 2+ of."""
    res = pl.res
    key = (min(res[0], 2), min(res[1], 2), min(res[2], 2), min(res[3], 2))
    options = _EXCHANGES.get(key)
    if options is None:
        options = []
        for a in range(4):
            if not key[a]:
                continue
            for b in range(a, 4):
                if key[b] < (2 if a == b else 1):
                    continue
                for c in range(4):
                    if c != a and c != b:
                        options.append(Option("exchange", (RESOURCES[a], RESOURCES[b], RESOURCES[c])))
        _EXCHANGES[key] = options
    return options


def do_exchange(pl, args):
    a, b, c = (RESOURCES.index(x) for x in args)
    pl.res[a] -= 1
    pl.res[b] -= 1
    pl.res[c] += 1


def t_turn(st, task):
    p = st.current
    pl = st.players[p]
    a = task.pop("a", None)
    if a is None:
        if all(q.passed for q in st.players):
            st.stack.append({"t": "round_end", "step": 0})
            return
        st.frames.clear()
        return st.ask(task, p, "Choose your action", main_options(st, p))
    kind = a.kind
    cat = st.cat
    if kind == "exchange":
        do_exchange(pl, a.args)
        st.stack.append({"t": "turn"})
        return
    st.turns += 1
    st.stack.append({"t": "end_turn", "p": p})
    if kind == "pass":
        pl.passed = True
        if a.args:
            pl.income_space = a.args[0]
            st.income_taken[str(a.args[0])] = p
        return
    fid = fx.new_frame(st, p, source="action")
    if kind == "excavate":
        card, cave = a.args
        index = st.next_unexcavated(p, cave)
        pl.coins -= cat.excavate_coins
        pl.caves.remove(card)
        st.place_cave(p, card, index, fid, free=False)
    elif kind == "entice":
        dragon, cave = a.args
        index = st.next_empty(p, cave)
        pl.coins -= cat.entice_coins
        pl.hand.remove(dragon)
        st.place_dragon(p, dragon, index, fid, mode="printed")
    elif kind == "explore":
        cave = a.args[0]
        coins, eggs = cat.explore_costs[pl.explored[cave]]
        pl.explored[cave] += 1
        pl.coins -= coins
        st.stack.append({"t": "walk", "p": p, "cave": cave, "step": 0})
        if eggs:
            fx.push_fx(st, {"do": "pay", "cost": [{"item": "egg", "count": eggs}]}, fid)


def t_place_cave(st, task):
    st.cave_played(task["p"], task["card"], task["i"], task.get("covered", True))


def t_place_dragon(st, task):
    st.push_card_abilities(task["p"], task["d"], "when_played", task["i"])


def t_walk(st, task):
    """The adventurer's walk: mat icons and dragons left to right, stopping at the first space without a dragon."""
    p, cave, step = task["p"], task["cave"], task["step"]
    if step > 8:
        return
    task["step"] = step + 1
    if step % 2 == 0:
        st.stack.append(task)
        icon = st.cat.mat_icons[cave][step // 2]
        push_ability(st, p, icon, cave=cave, ask=False, source=f"the {CAVE_NAMES[cave]} path")
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


def t_end_turn(st, task):
    p = task["p"]
    pl = st.players[p]
    cat = st.cat
    a = task.pop("a", None)
    if a is not None:
        if a.args[0] == "dragon":
            pl.hand.remove(a.args[1])
            st.dragon_discard.append(a.args[1])
        elif a.args[0] == "cave":
            pl.caves.remove(a.args[1])
            st.cave_discard.append(a.args[1])
        else:
            pl.res[RESOURCES.index(a.args[0])] -= 1
    extra = pl.card_count() - cat.cap_cards
    if extra > 0:
        options = [Option("discard", ("dragon", d)) for d in sorted(set(pl.hand))] + \
                  [Option("discard", ("cave", c)) for c in sorted(set(pl.caves))]
        return st.ask(task, p, f"Discard a card: you may keep {cat.cap_cards} ({extra} too many)", options)
    extra = sum(pl.res) - cat.cap_resources
    if extra > 0:
        options = [Option("discard", (r,)) for i, r in enumerate(RESOURCES) if pl.res[i]]
        return st.ask(task, p, f"Discard a resource: you may keep {cat.cap_resources} ({extra} too many)", options)
    pl.coins = min(pl.coins, cat.cap_coins)
    for q in st.players:  # anyone's dragon played during this turn may be activated from the next turn on
        q.fresh.clear()
    for card in st.revealed:
        st.dragon_discard.append(card)
    st.revealed.clear()
    st.refill_display()
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


def t_round_end(st, task):
    step = task["step"]
    cat = st.cat
    if step == 0:
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
        st.start = (st.start + 1) % len(st.players)
        st.round += 1
        st.current = st.start
        st.stack.append({"t": "turn"})
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
            else:
                push_ability(st, p, cat.income_effect, ask=False, source="income")
        st.income_taken = {}


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
        return st.ask(task, p, "Choose which once-per-round ability to resolve next", options)
    dragon = a.args[0] if a is not None else ready[0]
    done.append(dragon)
    st.stack.append(task)
    st.push_card_abilities(p, dragon, "once_per_round")


def objective_places(st, values):
    """Friendly ties: equal values share a place, the next value takes the next place; zero is 'all others'."""
    distinct = sorted({v for v in values if v > 0}, reverse=True)
    places = []
    for v in values:
        place = distinct.index(v) + 1 if v > 0 else 0
        places.append(place if place <= 3 else 0)
    return places


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
    for p, place in enumerate(objective_places(st, values)):
        st.players[p].objectives.append(place)


def t_game_end(st, task):
    if task["step"] == 0:
        task["step"] = 1
        st.stack.append(task)
        rows = st.tile_rows()
        for p in reversed(turn_order(st)):
            pl = st.players[p]
            for row, square in reversed(pl.markers):
                if 0 <= row < len(rows) and rows[row].get("end_game"):
                    push_ability(st, p, rows[row]["effect"], ask=False, source="guild")
            for i in reversed(range(len(pl.spaces))):
                dragon = pl.spaces[i].dragon
                if dragon is None or "end_game" not in st.cat.dragons[dragon].kinds or not st.active(p, dragon, i):
                    continue
                for ability in st.cat.dragons[dragon].abilities:
                    if ability["kind"] == "end_game":
                        push_ability(st, p, ability["effect"], src=dragon, ask=_needs_choice(ability["effect"]),
                                     source=f"dragon:{dragon}", kind="end_game")
        return
    from .scoring import final_result
    st.result = final_result(st)


def _needs_choice(node):
    if node["do"] in ("pay", "choose", "may", "gain"):
        return True
    return any(_needs_choice(node[k]) for k in ("then", "else", "effect") if isinstance(node.get(k), dict)) or \
        any(_needs_choice(n) for k in ("steps", "options") for n in node.get(k, ()))


def t_guild(st, task):
    """One Dragon Guild advancement at a time: every space passed gives its benefit."""
    p = task["p"]
    pl = st.players[p]
    task["n"] -= 1
    if task["n"] > 0:
        st.stack.append(task)
    pl.guild += 1
    track = st.cat.guild_spaces
    effect = track[(st.cat.guild_start + pl.guild) % len(track)]
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


def t_marker(st, task):
    """A brown space: place a guild marker on a free square and take its benefit."""
    p = task["p"]
    a = task.pop("a", None)
    if a is None:
        options = marker_options(st, p)
        if not options:
            return
        return st.ask(task, p, "Place a marker on the Dragon Guild tile", options)
    row, square = a.args
    board_row = row if row >= 0 else len(st.guild_board) - 1
    st.guild_board[board_row][square].append(p)
    st.players[p].markers.append([row, square])
    rows = st.tile_rows()
    if row >= 0 and not rows[row].get("end_game"):
        push_ability(st, p, rows[row]["effect"], source=f"{st.cat.guild_tiles[st.guild_tile]['name']} row {row + 1}")


def t_cave_order(st, task):
    p = task["p"]
    a = task.pop("a", None)
    if a is None:
        return st.ask(task, p, "Excavating the 4th column: which benefit comes first?",
                      [Option("first", ("cave_card",)), Option("first", ("column_4",))])
    if a.args[0] == "cave_card":
        st.push_column_4(p)
        st.push_cave_abilities(p, task["card"])
    else:
        st.push_cave_abilities(p, task["card"])
        st.push_column_4(p)


def t_refill(st, task):
    st.refill_display()


HANDLERS = {
    "refill": t_refill,
    "cave_order": t_cave_order,
    "setup_cards": t_setup_cards,
    "setup_resources": t_setup_resources,
    "turn": t_turn,
    "end_turn": t_end_turn,
    "place_cave": t_place_cave,
    "place_dragon": t_place_dragon,
    "walk": t_walk,
    "round_end": t_round_end,
    "once_per_round": t_once_per_round,
    "game_end": t_game_end,
    "guild": t_guild,
    "marker": t_marker,
    "ability": fx.run_ability,
    "others": fx.run_others,
    "fx": fx.run_fx,
}


def task(name):
    """Register a task handler from another module (words that need their own continuation tasks)."""
    def register(fn):
        HANDLERS[name] = fn
        return fn
    return register


from . import words  # noqa: E402,F401  (registers every word)
